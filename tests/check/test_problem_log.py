"""``ProblemLog``: what a ``check --jobs`` worker records for a piece, replayed in the parent
as the checkers would have reported it, whether its events stayed in memory or were
written to its file a batch at a time (a piece of millions of tiny damaged games)."""

from __future__ import annotations

import pickle

import pytest

from notation.check import problem as problem_module
from notation.check.problem import CheckProblem, GameKey, ProblemList, ProblemLog, Severity


def _record(log: ProblemLog) -> None:
    """Problems, settles and game keys as the checkers give them for 40 tiny games."""
    for game in range(40):
        line = 3 * game + 1
        log.add(line, 1, Severity.WARNING, "pgn-no-tags", "game without tags")
        if game % 3 == 0:
            log.add(line, 2, Severity.ERROR, "illegal-move", f"game {game}")
        log.add_key(GameKey(line, 1, f"key {game % 7}".encode(), game + 1, game % 5 == 0))
        log.settle(line + 2)
    log.add_last(120, 1, Severity.WARNING, "pgn-truncated", "the last game has no result")
    log.finish()


def _replayed(log: ProblemLog, lines_before: int) -> tuple[list[CheckProblem], list[GameKey]]:
    emitted: list[CheckProblem] = []
    keys: list[GameKey] = []
    target = ProblemList("piece.pgn", emitted.append)
    log.replay(target, lines_before, lambda _target, key: keys.append(key))
    target.finish()
    return emitted, keys


def test_a_spilled_log_replays_what_a_log_in_memory_replays(tmp_path, monkeypatch):
    held = ProblemLog("piece.pgn")
    _record(held)
    monkeypatch.setattr(problem_module, "SPILL_EVENTS", 7)
    spilled = ProblemLog("piece.pgn", str(tmp_path))
    _record(spilled)
    assert spilled.spilled is not None and len(spilled.events) < 7
    assert held.spilled is None and len(held.events) > 90
    # It still crosses a process boundary: the worker sends it back pickled.
    spilled = pickle.loads(pickle.dumps(spilled))
    expected = _replayed(held, 1000)
    assert len(expected[0]) == 55 and len(expected[1]) == 40
    assert _replayed(spilled, 1000) == expected
    assert spilled.spilled is None and list(tmp_path.iterdir()) == []  # its file is gone


def test_a_log_not_replayed_removes_its_file(tmp_path, monkeypatch):
    monkeypatch.setattr(problem_module, "SPILL_EVENTS", 5)
    log = ProblemLog("piece.pgn", str(tmp_path))
    _record(log)
    assert len(list(tmp_path.iterdir())) == 1
    log.discard()
    log.discard()  # twice is harmless
    assert log.spilled is None and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("directory", [None, "given"])
def test_a_short_log_writes_no_file(tmp_path, directory):
    log = ProblemLog("piece.pgn", None if directory is None else str(tmp_path))
    log.add(1, 1, Severity.WARNING, "pgn-no-tags", "game without tags")
    assert log.spilled is None and list(tmp_path.iterdir()) == []
