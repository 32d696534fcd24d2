"""Where a line's time goes: the stages of ``convert --json`` / ``validate --json`` and of
python-chess doing the same, in this process, on the mixed workload of bench_pipeline.

The whole-process bench (bench_pipeline) says how far each side is from the other; this
one says where the time is, so that work on speed aims at the largest stage. Each stage
runs over every line that reaches it, as the command runs it, and is timed alone (CPU
time, best of ``REPEATS``); the per-line figures are over all the lines, so the stages add
up to about the whole (the rest is calls between them). Start-up is bench_pipeline's.
Figures for humans; nothing here is an assertion.

Ours: ``lines in`` (reading each line, UTF-8 and JSON: ``fen_input``), ``read``
(``read_fen``, a syntax error included), ``validate`` (``validate`` on what was read),
``write`` (``write_fen`` of the legal setups, convert only), ``answer out`` (the result's
JSON line: ``to_dict``, the line number by ``answers.located``, ``jsonl.json_line``), and ``whole`` (the command's own
responder on each line, which is all of that). python-chess (bench/pychess_pipeline.py):
``json.loads``, ``Board(fen)``, ``status()``, ``fen()`` and ``json.dumps``.
Usage: ``python bench/bench_stages.py [LINES]`` (default 20,000).
"""

from __future__ import annotations

import io
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import chess  # noqa: E402
from common import best_of  # noqa: E402
from mixed_workload import lines  # noqa: E402
from pychess_pipeline import BOARDS  # noqa: E402

from notation.cli import convert_cmd, input_lines, validate_cmd  # noqa: E402
from notation.cli.answers import located  # noqa: E402
from notation.cli.jsonl import json_line  # noqa: E402
from notation.cli.main import build_parser  # noqa: E402
from notation.errors import NotationError  # noqa: E402
from notation.fen.profiles import DEFAULT_OPTIONS  # noqa: E402
from notation.fen.reader import ReadResult, read_fen  # noqa: E402
from notation.fen.writer import write_fen  # noqa: E402
from notation.operations import convert_fen  # noqa: E402
from notation.validation import validate  # noqa: E402
from notation.variants import DEFAULT_REGISTRY  # noqa: E402

LINES = 20_000
REPEATS = 5


def _timed(work: Callable[[], object]) -> float:
    return best_of(REPEATS, work, time.process_time)


def ours(data: bytes) -> dict[str, float]:
    """CPU seconds of each stage of ours over ``data`` (JSON lines), and of the whole."""
    argv = ["convert", "--json"]
    args = build_parser(argv).parse_args(argv)
    raws = list(input_lines.iter_raw_inputs([], stream=io.BytesIO(data)))
    items = [item for item in (input_lines.fen_input(raw, args.variant, json_lines=True) for raw in raws) if item]
    variants = {name: DEFAULT_REGISTRY.find(name) for name in {item.variant for item in items}}
    pairs = [(item.fen or "", variants[item.variant]) for item in items]

    def read_all() -> list[ReadResult | None]:
        out: list[ReadResult | None] = []
        for fen, variant in pairs:
            try:
                out.append(read_fen(fen, variant))
            except NotationError:
                out.append(None)
        return out

    read = [result for result in read_all() if result is not None]
    judged = [(result, validate(result.setup, result.variant)) for result in read]
    legal = [result for result, problems in judged if not problems]
    results = [convert_fen(fen, variant) for fen, variant in pairs]
    answered = list(zip(items, results, strict=True))
    convert = convert_cmd.responder(args)
    validate_args = build_parser(["validate", "--json"]).parse_args(["validate", "--json"])
    check = validate_cmd.responder(validate_args)
    return {
        "lines in": _timed(lambda: [input_lines.fen_input(raw, args.variant, json_lines=True) for raw in raws]),
        "read": _timed(read_all),
        "validate": _timed(lambda: [validate(r.setup, r.variant) for r in read]),
        "write": _timed(lambda: [write_fen(r.setup, r.variant, DEFAULT_OPTIONS) for r in legal]),
        "answer out": _timed(lambda: [json_line(located(item, result.to_dict())) for item, result in answered]),
        "whole convert": _timed(lambda: [convert(item) for item in items]),
        "whole validate": _timed(lambda: [check(item) for item in items]),
        "lines": len(raws),
    }


def _board(item: dict[str, str]) -> chess.Board | None:
    try:
        if item["variant"] == "chess960":
            return chess.Board(item["fen"], chess960=True)
        return BOARDS[item["variant"]](item["fen"])
    except ValueError:
        return None


def theirs(text: list[str]) -> dict[str, float]:
    """CPU seconds of each stage of python-chess's side over the same lines."""
    items = [json.loads(line) for line in text]
    boards = [board for board in (_board(item) for item in items) if board is not None]
    legal = [board for board in boards if not board.status()]
    answers = [{"ok": True, "variant": item["variant"], "fen": item["fen"]} for item in items]
    return {
        "lines in": _timed(lambda: [json.loads(line) for line in text]),
        "read": _timed(lambda: [_board(item) for item in items]),
        "validate": _timed(lambda: [board.status() for board in boards]),
        "write": _timed(lambda: [board.fen() for board in legal]),
        "answer out": _timed(lambda: [json.dumps(answer) + "\n" for answer in answers]),
        "lines": len(text),
    }


def main(argv: list[str] | None = None) -> dict[str, float]:
    count = int(argv[0]) if argv else LINES
    text = lines(count)
    mine = ours(("\n".join(text) + "\n").encode())
    peer = theirs(text)
    n = mine["lines"]
    print(f"where a line's time goes, in process (compiled build if installed; CPU us a line over {n:,} "
          f"mixed lines, best of {REPEATS})")
    print(f"  {'stage':14} {'ours':>8} {'python-chess':>13}")
    for stage in ("lines in", "read", "validate", "write", "answer out"):
        print(f"  {stage:14} {mine[stage] / n * 1e6:8.2f} {peer[stage] / n * 1e6:13.2f}")
    for command in ("convert", "validate"):
        stages = ("lines in", "read", "validate", "answer out") + (("write",) if command == "convert" else ())
        print(f"  {command:8} ours whole (the command's responder) {mine['whole ' + command] / n * 1e6:6.2f}; "
              f"its stages add up to {sum(mine[s] for s in stages) / n * 1e6:6.2f}; "
              f"python-chess's {sum(peer[s] for s in stages) / n * 1e6:6.2f}")
    return {stage: mine[stage] / n for stage in mine if stage != "lines"}


if __name__ == "__main__":
    main(sys.argv[1:])
