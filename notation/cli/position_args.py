"""What ``notation moves``, ``play`` and ``perft`` share: the position's options
(``--variant``, ``--chess960``, ``--notation``), and the JSON-lines loop of ``--json``.

With ``--json`` each non-blank line of standard input is one JSON object (``{"fen",
"variant", "chess960"?, ...}``, the command's own keys beside) and gets exactly one JSON
line back: the command's answer, or ``{"ok": false, "errors": [...]}`` naming the line for
a line that is not such an object. Nothing here raises on bad input lines.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from notation.cli.input_lines import MAX_LINE_BYTES, iter_raw_inputs, unknown_fields
from notation.cli.jsonl import write_json_line
from notation.cli.options import add_variant_options, variant_hint
from notation.errors import Problem
from notation.json_codec import JSONDecodeError, loads
from notation.move_options import MoveNotation
from notation.variants import AUTO, Registry, Variant, normalize_name

if TYPE_CHECKING:
    import argparse

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


class Chosen(NamedTuple):
    """What ``--variant`` (or a JSON line's ``variant``) stands for beside a FEN: the
    ``variant`` (a name the pipeline looks up, or the guess), the guess's ``warning``, and
    the ``error`` of a guess that failed (then there is nothing to play)."""

    variant: str | Variant
    warning: Problem | None = None
    error: Problem | None = None


def resolve_variant(fen: str | None, name: str, registry: Registry) -> Chosen:
    """The variant ``name`` stands for: ``auto`` guesses it from the FEN's shape as
    ``convert --variant auto`` does, with a warning unless it is the registry's default
    variant (also the answer without a FEN). A guess that fails is the ``error``: the FEN's
    own problem when no variant reads it, else ``unknown-variant``, saying how to choose
    (``--variant``). Raises nothing."""
    if normalize_name(name) != AUTO:
        return Chosen(name)
    from notation.guess import resolve_variant as resolve  # only for auto: the one guess of every front end

    resolved = resolve(fen, name, registry)
    if resolved.problem is not None:
        return Chosen(name, error=variant_hint(resolved.problem))
    # As convert and validate: a guess of the default variant goes without saying.
    return Chosen(resolved.variant, resolved.warning(registry))


def reported_variant(fen: str | None, name: str, registry: Registry) -> Chosen | None:
    """``resolve_variant`` for a command line: the guess's warning printed, or its error
    printed and None (the command then exits 1)."""
    chosen = resolve_variant(fen, name, registry)
    if chosen.error is not None:
        print_problems([chosen.error], "error")
        return None
    print_problems([chosen.warning] if chosen.warning else [], "warning")
    return chosen


def refused(chosen: Chosen, **members: Any) -> dict[str, Any]:
    """The JSON answer of a line whose guess failed: ``{"ok": false, "variant": null,
    "errors": [...]}`` with the command's own ``members`` (``played``, ``warnings``)."""
    assert chosen.error is not None
    return {"ok": False, "variant": None, **members, "errors": [chosen.error.to_dict()]}


def run_json_lines(answer: JsonAnswer, known: frozenset[str]) -> int:
    """Answer each JSON line of standard input; exit 0 when every answer is ok, else 1.
    Lines are read as ``convert --json`` reads them (``iter_raw_inputs``): one longer
    than ``MAX_LINE_BYTES`` is never held whole, and is answered ``line-too-long``. An
    object with a key not in ``known`` is refused (``unknown-field``, as the service
    refuses one), naming the key and the known ones."""
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
                elif not known.issuperset(obj):
                    reply = _refusal(number, unknown_fields(number, list(obj), known), "unknown-field")
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
    reply["warnings"] = [guessed.to_dict(), *reply.get("warnings", [])]
    return reply


# The side-to-move letters of a FEN's second field (``r``: CXBoard's Xiangqi red).
_SIDES = frozenset({"w", "b", "r"})
# The fields after the side to move, in order: castling, en passant, halfmove, fullmove,
# and Three-check's counters (either style).
_FEN_FIELDS = (
    re.compile(r"-|[KQkqA-La-l]{1,4}"), re.compile(r"-|[a-l](?:1[0-2]|[1-9])"), re.compile(r"[0-9]{1,5}"),
    re.compile(r"[0-9]{1,5}"), re.compile(r"\+?[0-9]\+[0-9]"),
)


def is_position(word: str) -> bool:
    """Whether a command-line word of ``notation play`` is the position rather than moves:
    a FEN's first field is a board of ranks (four ``/`` or more, or fewer when a side to
    move follows), alone or with its other fields; an OpenTafl position record starts with
    ``/``. No move has four ``/`` (an OpenTafl capture list, ``e1-e7xd7/f7/e8``, has at most
    three), and a quoted list of moves (``'1. e4 e5'``) has no board first."""
    text = word.strip()
    if word.startswith("/"):
        return True
    fields = text.split()
    if not fields:
        return False
    return fields[0].count("/") >= 4 or (len(fields) > 1 and "/" in fields[0] and fields[1] in _SIDES)


def unquoted_fen(board: str, rest: list[str]) -> str | None:
    """The hint for a FEN given as several arguments (``board``, then its side to move and
    other fields in ``rest``), or None when ``rest`` does not start with a side to move."""
    if not rest or rest[0] not in _SIDES:
        return None
    fields = [rest[0]]
    for word, pattern in zip(rest[1:], _FEN_FIELDS, strict=False):
        if not pattern.fullmatch(word):
            break
        fields.append(word)
    fen = " ".join([board, *fields])
    moves = " ".join(rest[len(fields):]) or "MOVE ..."
    return (f"the position looks like a FEN given as {len(fields) + 1} arguments; quote it as one: "
            f"notation play '{fen}' {moves}")


def movetext_moves(words: list[str]) -> tuple[list[str], Problem | None]:
    """The moves of ``words`` read as SAN movetext (each word may hold several, as a quoted
    list does): move numbers (``1.``, ``1...``, ``12.``), comments, NAGs and annotation
    glyphs dropped, a result allowed last. The problem (code ``bad-move-syntax``) of a
    result before the last move or of a variation; None when there is none."""
    if all(_plain_move(word) for word in words):
        return words, None  # the common case: one move a word, nothing to drop
    from notation.pgn.movetext import TokenKind, scan  # the PGN scanner, only where needed

    text = " ".join(words)
    found = scan(text)
    moves: list[str] = []
    result: str | None = None
    for token in found.tokens:
        word = text[token.start:token.end]
        if token.kind is TokenKind.MOVE:
            if result is not None:
                message = f"{word!r} comes after the result {result!r} that ends the moves"
                return moves, Problem("bad-move-syntax", message, extra={"move": word, "ply": len(moves) + 1})
            moves.append(word)
        elif token.kind is TokenKind.RESULT:
            result = word
        elif token.kind in (TokenKind.OPEN, TokenKind.CLOSE):
            return moves, Problem("bad-move-syntax", f"{word!r}: variations are not played; give one line of moves",
                                  extra={"ply": len(moves) + 1})
    if found.overflow is not None:
        return moves, Problem("bad-move-syntax", found.overflow.message)
    return moves, None


def _plain_move(word: str) -> bool:
    """Whether a word is one move as it stands: no space, no move number, result, comment,
    NAG or glyph the movetext scanner would take apart."""
    return bool(word) and not any(ch.isspace() or ch in "{}();$!?" for ch in word) and not (
        word[0].isdigit() and ("." in word or word in ("1-0", "0-1", "1/2-1/2"))) and word != "*" and word != "…"


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
