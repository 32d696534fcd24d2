"""Streamed PGN reading and normalising.

- ``reader``: ``iter_games`` splits any text into raw games, keeping every byte and
  reporting damage (no dependency on the rest of the package).
- ``normalize``: rewrites ``Variant``/``FEN``/``SetUp`` per profile (``naming`` holds the
  Variant names); ``parallel`` does it on several processes. Files are read and written by
  ``notation.inputs`` and ``notation.outputs``.

Submodules are imported on demand, so the splitter stays cheap to import.
"""
