"""Movetext as each producer writes it (fixtures/pgn/movetext/producers.pgn: lichess, chess.com,
FICS, Scid, an engine match in Chess960, pychess-variants' Xiangqi, OpenTafl) rewritten
with `--moves`, against expected files.

After a deliberate change, regenerate them with NOTATION_UPDATE_EXPECTED=1 and review the diff.
"""

from __future__ import annotations

import json
import os

import pytest
from paths import ROOT

from notation.pgn.normalize import NormalizeOptions, normalize_text

FIXTURES = ROOT / "fixtures" / "pgn" / "movetext"
EXPECTED = FIXTURES / "expected"
UPDATE = os.environ.get("NOTATION_UPDATE_EXPECTED") == "1"
RUNS = [("check", "python-chess"), ("san", "lichess"), ("san", "python-chess"), ("uci", "python-chess"),
        ("lan", "python-chess"), ("wxf", "python-chess"), ("iccs", "xboard")]


@pytest.mark.parametrize("moves, profile", RUNS)
def test_producers(moves, profile):
    source = (FIXTURES / "producers.pgn").read_text(encoding="utf-8")
    out, summary, report = normalize_text(source, NormalizeOptions.create(profile, moves=moves))
    lines = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in report)
    text_file = EXPECTED / f"producers.{moves}.{profile}.pgn"
    report_file = EXPECTED / f"producers.{moves}.{profile}.report.jsonl"
    if UPDATE:
        text_file.write_text(out, encoding="utf-8", newline="")
        report_file.write_text(lines, encoding="utf-8", newline="")
    assert out == text_file.read_text(encoding="utf-8")
    assert lines == report_file.read_text(encoding="utf-8")
    assert summary.games == 7 and summary.rejected == 0
    again, _, _ = normalize_text(out, NormalizeOptions.create(profile, moves=moves))
    assert again == out
