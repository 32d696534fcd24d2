"""The old home of PGN file handling; what is left here is kept for its importers.

Files are opened by ``notation.inputs`` (reading, any compression) and
``notation.outputs`` (writing: atomic or streamed).
"""

from notation.inputs import ENCODING, ERRORS, read_text
from notation.outputs import write_text

__all__ = ["ENCODING", "ERRORS", "read_text", "write_text"]
