"""One move in every notation users meet, read and written, by rule family.

``write_move(position, move, notation)`` and ``read_move(position, text, notation)``
dispatch to the family's module: ``notation.moves.chess`` (SAN, LAN, UCI),
``notation.moves.xiangqi`` (Fairy-Stockfish's SAN, WXF, UCI ranks 1-10, ICCS ranks 0-9)
and ``notation.moves.tafl`` (the OpenTafl notation). ``read_move`` raises ``MoveError``
(``bad-move-syntax``, ``illegal-move``, ``ambiguous-move``, ``game-over``); writing a move
that is not legal in the position raises ``ValueError``. A notation the family does not
write raises ``ValueError`` naming the ones it does (``notations_of``).
"""

from __future__ import annotations

from types import ModuleType

from notation.game.family import GamePosition
from notation.game.move import Move
from notation.move_options import MoveNotation
from notation.moves.reading import ReadMove
from notation.variants import RuleFamily, Variant

__all__ = ["ReadMove", "default_notation", "notations_of", "read_move", "write_move"]


# The family's module by the id of its RuleFamily member (members are singletons): an enum
# member's hash and ``.value`` are Python code, and a PGN asks once per move.
_MODULES: dict[int, ModuleType] = {}


def _family_module(variant: Variant) -> ModuleType:
    family = variant.family
    module = _MODULES.get(id(family))
    if module is None:
        module = _MODULES[id(family)] = _import_family(family)
    return module


def _import_family(family: RuleFamily) -> ModuleType:
    if family is RuleFamily.XIANGQI:
        from notation.moves import xiangqi

        return xiangqi
    if family is RuleFamily.TAFL:
        from notation.moves import tafl

        return tafl
    from notation.moves import chess

    return chess


def notations_of(variant: Variant) -> tuple[MoveNotation, ...]:
    """The notations ``variant``'s family reads and writes, its default first."""
    notations: tuple[MoveNotation, ...] = _family_module(variant).NOTATIONS
    return notations


def default_notation(variant: Variant) -> MoveNotation:
    """The notation a PGN of ``variant`` is written in by default (SAN for chess)."""
    return notations_of(variant)[0]


def _check_notation(module: ModuleType, variant: Variant, notation: MoveNotation) -> None:
    notations: tuple[MoveNotation, ...] = module.NOTATIONS
    if notation not in notations:
        names = ", ".join(n.value for n in notations)
        raise ValueError(f"{variant.name} moves are not written in {notation.value}; use one of {names}")


def write_move(position: GamePosition, move: Move, notation: MoveNotation | None = None) -> str:
    """``move`` (legal in ``position``) in ``notation`` (default: the family's first)."""
    variant = position.variant
    module = _family_module(variant)
    chosen = notation or module.NOTATIONS[0]
    _check_notation(module, variant, chosen)
    text: str = module.write_move(position, move, chosen)
    return text


def read_move(position: GamePosition, text: str, notation: MoveNotation | None = None) -> ReadMove:
    """The legal move ``text`` names in ``position``; ``notation`` None reads any notation
    of the family. Raises ``MoveError``."""
    variant = position.variant
    module = _family_module(variant)
    if notation is not None:
        _check_notation(module, variant, notation)
    read: ReadMove = module.read_move(position, text, notation)
    return read
