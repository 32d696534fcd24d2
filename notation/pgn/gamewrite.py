"""Writing a new PGN game from a start position and moves: ``write_game``.

``write_game(start, moves, tags=..., notation=..., result=..., profile=...)`` plays
``moves`` (``notation.game.Move`` values, or text in any notation the variant's family
reads) from ``start`` (a ``GamePosition``) and writes the game in the PGN standard's export
form: the tags given, in their order, then those the game needs and the caller did not give
(``Result``; ``Variant`` for a variant other than Standard, named as ``profile`` names it;
``FEN`` and ``SetUp "1"`` when the start is not the variant's own start, the FEN in the
profile's dialect), a blank line, and the moves in ``notation`` (default: the family's own,
SAN for chess) with move numbers (``1.``, and ``1...`` when Black moves first), in lines of
at most 79 characters, ending with the result. The result is ``result``, else the
``Result`` tag given, else the end position's (``1-0``, ``0-1``, ``1/2-1/2`` when the moves
decide the game), else ``*``.

Raises ``notation.errors.MoveError`` for a move text that cannot be read in its position,
``ValueError`` for a ``Move`` that is not legal there, an unknown notation or profile, or a
notation the family does not write. The text written reads back (``read_games``) to the same
moves and positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from notation.fen.profiles import DEFAULT_PROFILE, PROFILES, resolve_options
from notation.fen.reader import read_fen
from notation.fen.writer import write_fen
from notation.game.family import GamePosition
from notation.game.move import Move
from notation.move_options import CastlingMode, MoveNotation
from notation.moves import ReadMove, default_notation, read_move
from notation.pgn.movewrite import writer_for
from notation.pgn.naming import variant_tag_name
from notation.pgn.tags import escape_tag_value
from notation.variants import StartDraw

__all__ = ["write_game"]

LINE_WIDTH = 79  # the PGN standard's export format: no line longer than this


def write_game(
    start: GamePosition,
    moves: Iterable[Move | str],
    *,
    tags: Mapping[str, str] | None = None,
    notation: MoveNotation | str | None = None,
    result: str | None = None,
    profile: str = DEFAULT_PROFILE,
    reading: MoveNotation | str | None = None,
) -> str:
    """The PGN text of the game ``moves`` play from ``start``; see the module doc.
    ``reading``: the notation move texts are in (default: any the family reads; Xiangqi's
    UCI and ICCS differ only in their ranks, so say which)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILES)}")
    variant = start.variant
    writer = writer_for(default_notation(variant) if notation is None else MoveNotation(notation), profile)
    if not writer.available(variant):
        raise ValueError(f"{variant.name} moves are not written in {writer.notation.value}")
    read_in = None if reading is None else MoveNotation(reading)
    words: list[str] = []
    position = start
    first = True
    for item in moves:
        if isinstance(item, str):
            read = read_move(position, item, read_in)
        else:
            read = ReadMove(item)
        setup = position.to_setup()
        if setup.turn == "w":
            words.append(f"{setup.fullmove}.")
        elif first:
            words.append(f"{setup.fullmove}...")
        words.append(writer.write(position, read, "", False))
        position = position.play(read.move)
        first = False
    given = dict(tags or {})
    if result is None:
        result = given.get("Result")
    if result is None:
        outcome = position.outcome()
        result = outcome.result if outcome is not None and outcome.result else "*"
    words.append(result)
    head = [f'[{name} "{escape_tag_value(value)}"]' for name, value in given.items()]
    if "Result" not in given:
        head.append(f'[Result "{result}"]')
    fen = _setup_fen(start, profile)
    if "Variant" not in given and (not variant.pgn_default or fen is not None):
        chess960 = variant.start_draw is StartDraw.CHESS960 or (
            getattr(start, "castling_mode", None) is CastlingMode.CHESS960)
        name = variant_tag_name(profile, variant, from_setup=fen is not None, chess960=chess960)
        if not variant.pgn_default or name != variant_tag_name(profile, variant, from_setup=False):
            head.append(f'[Variant "{escape_tag_value(name)}"]')
    if fen is not None:
        if "FEN" not in given:
            head.append(f'[FEN "{escape_tag_value(fen)}"]')
        if "SetUp" not in given:
            head.append('[SetUp "1"]')
    return "\n".join(head) + "\n\n" + "\n".join(_lines(words)) + "\n"


def _setup_fen(start: GamePosition, profile: str) -> str | None:
    """The start's FEN as ``profile`` writes it, or None when it is its variant's start."""
    variant = start.variant
    options = resolve_options(profile)
    fen = write_fen(start.to_setup(), variant, options).fen
    if variant.random_start:
        return fen
    own = write_fen(read_fen(variant.start_fen, variant).setup, variant, options).fen
    return None if fen == own else fen


def _lines(words: list[str]) -> list[str]:
    """``words`` joined by spaces in lines of at most ``LINE_WIDTH`` characters (a longer
    word, a long comment say, stands alone)."""
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE_WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
