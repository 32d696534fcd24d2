"""The pipelines of the moves: list a position's legal moves, play moves from it, count
perft; what ``notation moves``, ``play`` and ``perft`` and the service's ``/v1/moves`` and
``/v1/play`` call, so that they answer alike.

Each function never raises on bad input: it returns a result whose ``ok`` says whether it
worked and whose ``to_dict()`` is the JSON the CLI prints and the service returns
(``errors`` and ``warnings`` as problems). A missing FEN is the variant's start position.
Programming errors (a wrong argument type) still raise. A perft deeper than
``notation.game.MAX_DEPTH``, or expected to count more than ``MAX_NODES`` paths (hours of
work: ``estimate_nodes``), is refused (``depth-too-large``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from notation.errors import MoveError, NotationError, Problem
from notation.fen.profiles import DEFAULT_OPTIONS, WriteOptions
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.game import MAX_DEPTH, GamePosition, MoveKind, divide, legal_position, perft
from notation.moves import default_notation, notations_of, read_move, write_move
from notation.options import CastlingMode, MoveNotation
from notation.variants import DEFAULT_REGISTRY, Registry, Variant


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
) -> PlayResult:
    """Play ``moves`` (any notation the variant reads, or only ``notation``) from ``fen``
    and write the FEN reached with ``options``. The first move that cannot be played is the
    error, with its ``ply`` (1 for the first move given) in the problem."""
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
            read = read_move(position, text, chosen)
        except MoveError as exc:
            problems = [_with_ply(p, ply) for p in exc.problems]
            return PlayResult(False, position.variant.key, played=played, errors=problems, warnings=warnings)
        try:
            after = position.play(read.move)
        except ValueError as exc:  # a reading the family cannot play (a null move where none is)
            problem = Problem("illegal-move", f"{text!r}: {exc}", extra={"move": text, "ply": ply})
            return PlayResult(False, position.variant.key, played=played, errors=[problem], warnings=warnings)
        warnings.extend(_with_ply(p, ply) for p in read.warnings)
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
) -> PerftResult:
    """Perft of ``depth`` from ``fen`` (with ``by_move``, per legal move, written in
    ``notation``: UCI by default, as engines print it)."""
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
    estimate = estimate_nodes(position, depth)
    if estimate > MAX_NODES:
        problem = Problem(
            "depth-too-large",
            f"perft {depth} of this position would count about {estimate:.1e} paths; the limit is {MAX_NODES:.0e}"
            " (hours of work): ask for less depth",
            extra={"estimate": int(estimate), "limit": MAX_NODES},
        )
        return PerftResult(False, position.variant.key, errors=[problem])
    if not by_move:
        return PerftResult(True, position.variant.key, depth, perft(position, depth))
    try:
        chosen = parse_notation(notation or MoveNotation.UCI, position.variant)
    except ValueError as exc:
        return PerftResult(False, position.variant.key, errors=[_bad_notation(str(exc))])
    if depth < 1:
        return PerftResult(False, position.variant.key, errors=[Problem("bad-depth", "--divide needs depth 1 or more")])
    counted = [(write_move(position, move, chosen), nodes) for move, nodes in divide(position, depth)]
    return PerftResult(True, position.variant.key, depth, sum(n for _, n in counted), counted)


MAX_NODES = 10**10
"""The most paths a perft may be expected to count (an hour or more of work on one core)."""


def estimate_nodes(position: GamePosition, depth: int) -> float:
    """Roughly how many paths perft of ``depth`` counts: the count of two plies, grown by its
    branching factor (from the first two) for each ply beyond (exact up to depth 2)."""
    if depth <= 2:
        return float(perft(position, depth))
    first = perft(position, 1)
    second = perft(position, 2)
    if not first or not second:
        return float(second)
    branching = max(second / first, 1.0)
    return second * branching ** (depth - 2)


def _with_ply(problem: Problem, ply: int) -> Problem:
    return Problem(problem.code, problem.message, problem.field, problem.column, {**problem.extra, "ply": ply})


def _key(variant: str | Variant, registry: Registry) -> str | None:
    try:
        return registry.find(variant).key
    except NotationError:
        return None
