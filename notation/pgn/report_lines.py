"""The lines of ``normalize --report``: one JSON object a line, a game's problems each.

An entry is a dictionary whose first key is ``"game"`` (its number in its input), then
``"line"``, ``"errors"`` and ``"warnings"`` (``normalize.GameResult.report``). With several
inputs each line first names its ``"input"``. ``entry_line`` writes an entry;
``renumbered`` takes a line written where the games were numbered from 1 (a ``--jobs``
worker's piece of the file) and puts its game after ``offset`` games, naming the input if
asked, as ``entry_line`` would have written it: text, never parsed as JSON, so a worker's
millions of entries cost the parent a few string operations each. Raises ``ValueError``
for a line that does not start with the game's number (not one ``entry_line`` wrote).
"""

from __future__ import annotations

from typing import Any, Final

_GAME_KEY: Final = '{"game": '


def entry_line(entry: dict[str, Any], input_name: str | None = None) -> str:
    """``entry`` as a report line (its line end included), first naming ``input_name``
    when it is given."""
    import json  # only a run with a report pays for it

    if input_name is not None:
        entry = {"input": input_name, **entry}
    return json.dumps(entry, ensure_ascii=False) + "\n"


def input_prefix(input_name: str | None) -> str:
    """What ``renumbered`` puts before the game's number to name ``input_name`` ('' for None)."""
    if input_name is None:
        return ""
    import json

    return f'"input": {json.dumps(input_name, ensure_ascii=False)}, '


def renumbered(line: str, offset: int, prefix: str) -> str:
    """``line`` (``entry_line``'s, its input not named) with its game put after ``offset``
    games and ``prefix`` (``input_prefix``) before the game's key. Raises ``ValueError`` for
    a line that does not start with the game's key and number."""
    start = len(_GAME_KEY)
    comma = line.find(",", start)
    if not line.startswith(_GAME_KEY) or comma < 0:
        raise ValueError(f"not a report line: {line[:40]!r}")
    return f'{{{prefix}"game": {int(line[start:comma]) + offset}{line[comma:]}'
