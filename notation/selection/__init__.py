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

from notation.selection.criteria import Criteria, Keep, PlyRange, TagTest, parse_plies, parse_tag_test
from notation.selection.positions import PositionKey, position_key
from notation.selection.select import Selector, select_games
from notation.selection.split import SplitBy, Splitter

# ``notation`` does not re-export these: ``notation.check`` and the service import
# ``notation``, and this package sits above them (it finds problems as ``notation check``
# does).
__all__ = [
    "Criteria", "Keep", "PlyRange", "PositionKey", "Selector", "SplitBy", "Splitter", "TagTest", "parse_plies",
    "parse_tag_test", "position_key", "select_games",
]
