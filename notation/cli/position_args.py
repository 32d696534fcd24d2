"""What ``notation moves``, ``play`` and ``perft`` share: the position's options
(``--variant``, ``--chess960``, ``--notation``), and the JSON-lines loop of ``--json``.

With ``--json`` each non-blank line of standard input is one JSON object (``{"fen",
"variant", "chess960"?, ...}``, the command's own keys beside) and gets exactly one JSON
line back: the command's answer, or ``{"ok": false, "errors": [...]}`` naming the line for
a line that is not such an object. Nothing here raises on bad input lines.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from notation.cli.input_lines import MAX_LINE_BYTES, iter_raw_inputs
from notation.cli.jsonl import write_json_line
from notation.cli.options import add_variant_options
from notation.errors import Problem
from notation.json_codec import JSONDecodeError, loads
from notation.options import MoveNotation
from notation.variants import AUTO, Registry, Variant, normalize_name

JsonAnswer = Callable[[dict[str, Any]], dict[str, Any]]


def add_position_options(parser: argparse.ArgumentParser, *, notation_help: str) -> None:
    """``--variant``, ``--variant-alias``, ``--from``, ``--chess960``, ``--notation``, ``--json``."""
    add_variant_options(parser, auto=True)
    parser.add_argument(
        "--chess960", action="store_true",
        help="play the position as Chess960 (UCI castling as the king taking its rook, e1h1)",
    )
    parser.add_argument(
        "--notation", choices=[n.value for n in MoveNotation], default=None, metavar="NOTATION",
        help=notation_help + f" ({', '.join(n.value for n in MoveNotation)}; each variant has its own subset)",
    )
    parser.add_argument(
        "--json", action="store_true", help="read JSON objects from standard input, one a line; answer each with one"
    )


def resolve_variant(fen: str | None, name: str, registry: Registry) -> tuple[str | Variant, Problem | None]:
    """The variant ``name`` stands for, and the warning of a guess: ``auto`` guesses it from
    the FEN's shape as ``convert --variant auto`` does, with a warning unless it is the
    registry's default variant (also the answer without a FEN). A guess that fails gives
    the name itself, which the pipeline reports as ``unknown-variant``, and the guess's
    problem saying why."""
    if normalize_name(name) != AUTO:
        return name, None
    from notation.guess import resolve_variant as resolve  # only for auto: the one guess of every front end

    resolved = resolve(fen, name, registry)
    if resolved.problem is not None:
        return name, resolved.problem
    # As convert and validate: a guess of the default variant goes without saying.
    return resolved.variant, resolved.warning(registry)


def run_json_lines(answer: JsonAnswer) -> int:
    """Answer each JSON line of standard input; exit 0 when every answer is ok, else 1.
    Lines are read as ``convert --json`` reads them (``iter_raw_inputs``): one longer
    than ``MAX_LINE_BYTES`` is never held whole, and is answered ``line-too-long``."""
    failed = False
    for raw in iter_raw_inputs([]):
        number = raw.line or 0
        data = raw.data
        if data is None:
            reply: dict[str, Any] = _refusal(
                number, f"line {number}: longer than {MAX_LINE_BYTES} bytes; not read", "line-too-long"
            )
        elif not data.strip():
            continue
        else:
            try:
                obj = loads(data)
            except (JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
                reply = _refusal(number, f"line {number}: not JSON ({exc})")
            else:
                if not isinstance(obj, dict):
                    reply = _refusal(number, f"line {number}: expected a JSON object")
                else:
                    try:
                        reply = answer(obj)
                    except (TypeError, ValueError) as exc:
                        reply = _refusal(number, f"line {number}: {exc}")
        failed = failed or not reply.get("ok", False)
        write_json_line(reply)
        sys.stdout.flush()
    return 1 if failed else 0


def _refusal(number: int, message: str, code: str = "bad-input") -> dict[str, Any]:
    return {"ok": False, "line": number, "errors": [Problem(code, message).to_dict()]}


def with_guess(reply: dict[str, Any], guessed: Problem | None) -> dict[str, Any]:
    """``reply`` with the guess's warning first in its ``warnings`` (made where absent)."""
    if guessed is None:
        return reply
    if reply.get("ok") is False and guessed.code == "unknown-variant":
        reply["errors"] = [guessed.to_dict()]
        return reply
    reply["warnings"] = [guessed.to_dict(), *reply.get("warnings", [])]
    return reply


def is_position(word: str) -> bool:
    """Whether a command-line word of ``notation play`` is the position rather than a move:
    a FEN has fields (a space) and a board of ranks; an OpenTafl position record starts with
    ``/``. No move has a space, and an OpenTafl capture list (``e1-e7xd7/f7/e8``) has at
    most three ``/``."""
    return " " in word.strip() or word.startswith("/") or word.count("/") >= 4


def text_field(obj: dict[str, Any], name: str, default: str | None) -> str | None:
    """A string field of a JSON line (``default`` when absent); raises ``TypeError``."""
    value = obj.get(name, default)
    if value is not None and not isinstance(value, str):
        raise TypeError(f'"{name}" must be a string')
    return value


def flag_field(obj: dict[str, Any], name: str, default: bool) -> bool:
    """A boolean field of a JSON line; raises ``TypeError``."""
    value = obj.get(name, default)
    if not isinstance(value, bool):
        raise TypeError(f'"{name}" must be true or false')
    return value


def print_problems(problems: list[Problem], prefix: str) -> None:
    for problem in problems:
        sys.stderr.write(problem.describe(prefix=prefix) + _where(problem) + "\n")


def _where(problem: Problem) -> str:
    extra = problem.extra
    parts = []
    if "ply" in extra:
        parts.append(f"ply {extra['ply']}")
    if "fen" in extra:
        parts.append(f"position {extra['fen']}")
    return f" [{', '.join(parts)}]" if parts else ""
