"""The pipelines of the moves: list a position's legal moves, play moves from it, count
perft; what ``notation moves``, ``play`` and ``perft`` and the service's ``/v1/moves`` and
``/v1/play`` call, so that they answer alike.

Each function never raises on bad input: it returns a result whose ``ok`` says whether it
worked and whose ``to_dict()`` is the JSON the CLI prints and the service returns
(``errors`` and ``warnings`` as problems). A missing FEN is the variant's start position.
Programming errors (a wrong argument type) still raise.

Perft is bounded by its work, not by a fixed depth: a count expected to pass ``max_nodes``
paths (``estimate_nodes``; ``MAX_NODES`` by default, hours of work) is refused
(``depth-too-large``, with the estimate and the limit), and one still counting after
``time_limit`` seconds is stopped (``perft-time-limit``). ``notation.game.MAX_DEPTH``
bounds the recursion only (a position whose games all end soon counts to any depth).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from notation.errors import MoveError, NotationError, Problem
from notation.fen.profiles import DEFAULT_OPTIONS, WriteOptions
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.game import MAX_DEPTH, GamePosition, MoveKind, legal_position, perft
from notation.lean_enum import LeanStrEnum
from notation.move_options import CastlingMode, MoveNotation
from notation.moves import default_notation, notations_of, read_move, write_move
from notation.moves.coordinates import AMBIGUOUS, is_coordinate, settled_notation
from notation.variants import DEFAULT_REGISTRY, Registry, Variant


class CheckMarks(LeanStrEnum):
    """Whether ``play_moves`` warns of a move's check mark (``wrong-check-mark``: a ``+`` or
    ``#`` the move does not give, or one it gives missing)."""

    CHECKED = "checked"  # warned of, as the PGN check does
    IGNORED = "ignored"  # not: a player typing moves leaves them out


@dataclass
class MovesResult:
    """The legal moves of one position, written in ``notation``."""

    ok: bool
    variant: str | None
    notation: str | None = None
    moves: list[str] = field(default_factory=list)
    outcome: dict[str, str | None] | None = None
    errors: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "variant": self.variant, "errors": [p.to_dict() for p in self.errors]}
        return {
            "ok": True, "variant": self.variant, "notation": self.notation, "moves": self.moves,
            "outcome": self.outcome,
        }


@dataclass
class PlayResult:
    """The position reached by playing moves, and each move as played (in SAN)."""

    ok: bool
    variant: str | None
    fen: str | None = None
    played: list[str] = field(default_factory=list)
    outcome: dict[str, str | None] | None = None
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "variant": self.variant}
        if self.ok:
            out.update(fen=self.fen, played=self.played, outcome=self.outcome)
        else:
            out.update(played=self.played, errors=[p.to_dict() for p in self.errors])
        out["warnings"] = [p.to_dict() for p in self.warnings]
        return out


@dataclass
class PerftResult:
    """A perft count, and per move with ``divide``."""

    ok: bool
    variant: str | None
    depth: int = 0
    nodes: int = 0
    divide: list[tuple[str, int]] | None = None
    errors: list[Problem] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        if not self.ok:
            return {"ok": False, "variant": self.variant, "errors": [p.to_dict() for p in self.errors]}
        out: dict[str, Any] = {"ok": True, "variant": self.variant, "depth": self.depth, "nodes": self.nodes}
        if self.divide is not None:
            out["divide"] = [{"move": move, "nodes": nodes} for move, nodes in self.divide]
        return out


def open_position(
    fen: str | None, variant: str | Variant, *, chess960: bool = False, registry: Registry = DEFAULT_REGISTRY
) -> GamePosition:
    """The legal position of ``fen`` (None: the variant's start) in ``variant``; raises
    ``FenSyntaxError``, ``UnknownVariantError`` or ``IllegalSetupError``."""
    found = registry.find(variant)
    text = found.start_fen if fen is None or not fen.strip() else fen
    read = read_fen(text, found, registry=registry)
    mode = CastlingMode.CHESS960 if chess960 else CastlingMode.STANDARD
    return legal_position(read.setup, read.variant, castling=mode)


def parse_notation(name: str | MoveNotation | None, variant: Variant) -> MoveNotation:
    """The notation called ``name`` (default: the variant's own); raises ``ValueError``
    naming the ones the variant has."""
    if name is None:
        return default_notation(variant)
    try:
        chosen = MoveNotation(name)
    except ValueError:
        chosen = None
    notations = notations_of(variant)
    if chosen is None or chosen not in notations:
        names = ", ".join(n.value for n in notations)
        raise ValueError(f"{variant.name} moves are written in {names}, not {name!r}")
    return chosen


def _bad_notation(message: str) -> Problem:
    return Problem("bad-notation", message)


def list_moves(
    fen: str | None,
    variant: str | Variant = "standard",
    *,
    notation: str | MoveNotation | None = None,
    chess960: bool = False,
    registry: Registry = DEFAULT_REGISTRY,
) -> MovesResult:
    """The legal moves of ``fen`` in ``notation``, in the generator's stable order."""
    try:
        position = open_position(fen, variant, chess960=chess960, registry=registry)
    except NotationError as exc:
        return MovesResult(False, _key(variant, registry), errors=exc.problems)
    try:
        chosen = parse_notation(notation, position.variant)
    except ValueError as exc:
        return MovesResult(False, position.variant.key, errors=[_bad_notation(str(exc))])
    moves = [write_move(position, move, chosen) for move in position.legal_moves()]
    end = position.outcome()
    return MovesResult(True, position.variant.key, chosen.value, moves, end.to_dict() if end else None)


def play_moves(
    fen: str | None,
    variant: str | Variant,
    moves: Sequence[str],
    *,
    options: WriteOptions = DEFAULT_OPTIONS,
    notation: str | MoveNotation | None = None,
    chess960: bool = False,
    registry: Registry = DEFAULT_REGISTRY,
    check_marks: CheckMarks = CheckMarks.CHECKED,
) -> PlayResult:
    """Play ``moves`` (any notation the variant reads, or only ``notation``) from ``fen``
    and write the FEN reached with ``options``. The first move that cannot be played is the
    error, with its ``ply`` (1 for the first move given) in the problem. A Xiangqi move that
    reads as both UCI and ICCS is read in the notation the list's other moves settle
    (``notation.moves.coordinates``). ``check_marks`` IGNORED leaves out the
    ``wrong-check-mark`` warnings."""
    try:
        position = open_position(fen, variant, chess960=chess960, registry=registry)
    except NotationError as exc:
        return PlayResult(False, _key(variant, registry), errors=exc.problems)
    chosen: MoveNotation | None = None
    if notation is not None:
        try:
            chosen = parse_notation(notation, position.variant)
        except ValueError as exc:
            return PlayResult(False, position.variant.key, errors=[_bad_notation(str(exc))])
    played: list[str] = []
    warnings: list[Problem] = []
    san = default_notation(position.variant)
    for ply, text in enumerate(moves, start=1):
        try:
            try:
                read = read_move(position, text, chosen)
            except MoveError as exc:
                settled = _settled(exc, text, moves, chosen)
                if settled is None:
                    raise
                read = read_move(position, text, settled)
        except MoveError as exc:
            problems = [_with_ply(p, ply) for p in exc.problems]
            return PlayResult(False, position.variant.key, played=played, errors=problems, warnings=warnings)
        try:
            after = position.play(read.move)
        except ValueError as exc:  # a reading the family cannot play (a null move where none is)
            problem = Problem("illegal-move", f"{text!r}: {exc}", extra={"move": text, "ply": ply})
            return PlayResult(False, position.variant.key, played=played, errors=[problem], warnings=warnings)
        warnings.extend(
            _with_ply(p, ply) for p in read.warnings
            if check_marks is CheckMarks.CHECKED or p.code != WRONG_CHECK_MARK
        )
        played.append(write_move(position, read.move, san) if read.move.kind is not MoveKind.NULL else "--")
        position = after
    fen_out = write_fen(position.to_setup(), position.variant, options).fen
    end = position.outcome()
    return PlayResult(True, position.variant.key, fen_out, played, end.to_dict() if end else None, warnings=warnings)


def count_perft(
    fen: str | None,
    variant: str | Variant = "standard",
    depth: int = 1,
    *,
    by_move: bool = False,
    notation: str | MoveNotation | None = None,
    chess960: bool = False,
    registry: Registry = DEFAULT_REGISTRY,
    max_nodes: int = 0,
    time_limit: float = 0.0,
) -> PerftResult:
    """Perft of ``depth`` from ``fen`` (with ``by_move``, per legal move, written in
    ``notation``: UCI by default, as engines print it). Refused when its estimate passes
    ``max_nodes`` (0: ``MAX_NODES``), stopped after ``time_limit`` seconds (0: never); see
    the module doc."""
    limit = max_nodes if max_nodes > 0 else MAX_NODES
    if not 0 <= depth <= MAX_DEPTH:
        problem = Problem(
            "depth-too-large" if depth > MAX_DEPTH else "bad-depth",
            f"perft depth must be 0 to {MAX_DEPTH}, not {depth}",
            extra={"limit": MAX_DEPTH},
        )
        return PerftResult(False, _key(variant, registry), errors=[problem])
    try:
        position = open_position(fen, variant, chess960=chess960, registry=registry)
    except NotationError as exc:
        return PerftResult(False, _key(variant, registry), errors=exc.problems)
    if by_move and depth < 1:
        return PerftResult(False, position.variant.key, errors=[Problem("bad-depth", "--divide needs depth 1 or more")])
    chosen = MoveNotation.UCI
    if by_move:
        try:
            chosen = parse_notation(notation or MoveNotation.UCI, position.variant)
        except ValueError as exc:
            return PerftResult(False, position.variant.key, errors=[_bad_notation(str(exc))])
    branching = _branching(position) if depth > 2 else 1.0
    estimate = estimate_nodes(position, depth, branching)
    if estimate > limit:
        message = (f"perft {depth} of this position would count about {estimate:.2g} paths (estimated from its"
                   f" first two plies), more than the limit of {limit:.2g}")
        return _over_limit(position, "depth-too-large", message, estimate, limit=limit)
    clock = _Clock(time_limit, branching)
    try:
        if not by_move:
            return PerftResult(True, position.variant.key, depth, clock.perft(position, depth))
        counted = [
            (write_move(position, move, chosen), clock.perft(position.play_legal(move), depth - 1))
            for move in position.legal_moves()
        ]
    except _OutOfTime:
        message = (f"perft {depth} of this position was stopped after {time_limit:g} s (its estimate: about"
                   f" {estimate:.2g} paths)")
        return _over_limit(position, "perft-time-limit", message, estimate, time_limit=time_limit)
    return PerftResult(True, position.variant.key, depth, sum(n for _, n in counted), counted)


MAX_NODES = 10**10
"""The most paths a perft may be expected to count by default (an hour or more of work on one core)."""

CHUNK_NODES = 200_000
"""About how many paths a timed perft counts between two looks at the clock (well under a
second of work, compiled or not)."""


class _OutOfTime(Exception):
    """A timed perft ran past its time limit."""


class _Clock:
    """Perft that looks at the clock between subtrees of about ``CHUNK_NODES`` paths (sized
    by the position's branching factor) and raises ``_OutOfTime`` past the deadline; with no
    time limit, the plain ``perft``."""

    def __init__(self, time_limit: float, branching: float) -> None:
        self.deadline = time.monotonic() + time_limit if time_limit > 0 else None
        self.chunk = max(1, int(math.log(CHUNK_NODES) / math.log(branching))) if branching > 1.0 else 8

    def perft(self, position: GamePosition, depth: int) -> int:
        if self.deadline is None:
            return perft(position, depth)
        if depth <= self.chunk:
            nodes = perft(position, depth)
            if time.monotonic() > self.deadline:
                raise _OutOfTime
            return nodes
        return sum(self.perft(position.play_legal(move), depth - 1) for move in position.legal_moves())


def _branching(position: GamePosition) -> float:
    """Paths of two plies per path of one (at least 1): the estimate's growth per ply."""
    first = perft(position, 1)
    return max(perft(position, 2) / first, 1.0) if first else 1.0


def estimate_nodes(position: GamePosition, depth: int, branching: float = 0.0) -> float:
    """Roughly how many paths perft of ``depth`` counts: the count of two plies, grown by the
    ``branching`` factor (0: from the first two plies) for each ply beyond (exact up to
    depth 2). A position whose branching grows later (an endgame's pawns promoting) is
    underestimated: the time limit bounds those."""
    if depth <= 2:
        return float(perft(position, depth))
    second = perft(position, 2)
    if not second:
        return 0.0
    return second * (branching or _branching(position)) ** (depth - 2)


WRONG_CHECK_MARK = "wrong-check-mark"


def _settled(exc: MoveError, text: str, moves: Sequence[str], chosen: MoveNotation | None) -> MoveNotation | None:
    """The notation to read an ambiguous coordinate move in, as the list's unambiguous
    moves settle it (None: the error stands)."""
    if chosen is not None or exc.problems[0].code != AMBIGUOUS or not is_coordinate(text):
        return None
    return settled_notation(moves)


def _over_limit(position: GamePosition, code: str, message: str, estimate: float, **limit: float) -> PerftResult:
    """The refusal of a perft over one of its limits, with its estimate and that limit."""
    extra: dict[str, Any] = {"estimate": _json_number(estimate), **limit}
    return PerftResult(False, position.variant.key, errors=[Problem(code, message, extra=extra)])


def _json_number(value: float) -> int | float:
    """``value`` as a whole number where JSON readers hold one exactly (below 2**53), else as it is."""
    return int(value) if value < 2**53 else value


def _with_ply(problem: Problem, ply: int) -> Problem:
    return Problem(problem.code, problem.message, problem.field, problem.column, {**problem.extra, "ply": ply})


def _key(variant: str | Variant, registry: Registry) -> str | None:
    try:
        return registry.find(variant).key
    except NotationError:
        return None
