"""Choosing games from PGN databases and splitting them: ``notation select`` and ``notation split``.

- ``criteria``: what a game is asked (``Criteria``: tags, variant, positions reached, plies,
  problems) and how the command line's forms are read;
- ``positions``: positions compared as a game reaches them (``PositionKey``);
- ``select``: ``select_games`` over ``read_games`` and the ``Selector`` behind it;
- ``split``: which file of a split each game goes to (``Splitter``);
- ``jobs``: selection on several processes, the input order kept.

Games are written byte for byte as they were read. This package sits above
``notation.check``: a game's problems are found as ``notation check`` finds them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The public names, each imported from its module on first use. The package ``notation``
# does not re-export them: ``notation.check`` and the service import ``notation``, and
# this package sits above them (it finds problems as ``notation check`` does).
_EXPORTS = {
    "Criteria": "notation.selection.criteria",
    "Keep": "notation.selection.criteria",
    "PlyRange": "notation.selection.criteria",
    "TagTest": "notation.selection.criteria",
    "parse_plies": "notation.selection.criteria",
    "parse_tag_test": "notation.selection.criteria",
    "PositionKey": "notation.selection.positions",
    "position_key": "notation.selection.positions",
    "Selector": "notation.selection.select",
    "select_games": "notation.selection.select",
    "SplitBy": "notation.selection.split",
    "Splitter": "notation.selection.split",
}

if TYPE_CHECKING:
    from notation.selection.criteria import Criteria, Keep, PlyRange, TagTest, parse_plies, parse_tag_test
    from notation.selection.positions import PositionKey, position_key
    from notation.selection.select import Selector, select_games
    from notation.selection.split import SplitBy, Splitter


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Criteria", "Keep", "PlyRange", "PositionKey", "Selector", "SplitBy", "Splitter", "TagTest", "parse_plies",
    "parse_tag_test", "position_key", "select_games",
]
