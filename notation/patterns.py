"""Regular expressions compiled when first used, not when their module is imported.

A module-level ``re.compile`` runs at the start-up of every command that imports the
module, whether or not its input ever needs the pattern: a one-game ``check`` used to
compile a dozen patterns that only damaged files, Xiangqi moves or odd FEN spellings reach
(docs/architecture.md, "Start-up"). Such a module keeps its pattern's source as a
constant and asks ``compiled(SOURCE)`` where it matches: the first call compiles it, each
later one hands back the same pattern from a cache (about the cost of a dictionary
lookup). Patterns every input meets are still compiled at import.

Raises what ``re.compile`` raises for a bad pattern (``re.error``), on first use.
"""

from __future__ import annotations

import functools
import re


@functools.cache
def compiled(source: str, flags: int = 0) -> re.Pattern[str]:
    """``source`` compiled with ``flags``, once."""
    return re.compile(source, flags)
