"""python-chess's side of the whole-process pipeline bench (GPL, bench-only peer).

``python bench/pychess_pipeline.py convert|validate`` reads JSON lines ``{"fen", "variant"}``
and answers each as ``notation convert --json`` / ``notation validate --json`` would:
``Board(fen)``, ``status()``, and for convert ``fen()``, with JSON in and out.
"""

from __future__ import annotations

import json
import sys

import chess
import chess.variant

BOARDS = {
    "standard": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "antichess": chess.variant.AntichessBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "racingkings": chess.variant.RacingKingsBoard,
    "horde": chess.variant.HordeBoard,
}


def main() -> None:
    convert = sys.argv[1] == "convert"
    write = sys.stdout.write
    for line in sys.stdin:
        if not line.strip():
            continue
        item = json.loads(line)
        key = item["variant"]
        try:
            if key == "chess960":
                board = chess.Board(item["fen"], chess960=True)
            else:
                board = BOARDS[key](item["fen"])
        except ValueError as exc:
            write(json.dumps({"ok": False, "errors": [{"code": "fen-syntax", "message": str(exc)}]}) + "\n")
            continue
        status = board.status()
        if status:
            errors = [{"code": flag.name, "message": flag.name} for flag in chess.Status if flag and flag in status]
            write(json.dumps({"ok": False, "variant": key, "errors": errors}) + "\n")
        elif convert:
            write(json.dumps({"ok": True, "variant": key, "fen": board.fen()}) + "\n")
        else:
            write(json.dumps({"ok": True, "variant": key}) + "\n")


if __name__ == "__main__":
    main()
