"""Positions and answers from python-chess (GPL: tests and bench only), for differential tests.

``positions(seed, count)`` plays seeded random games in each lichess variant (plus Giveaway and Suicide) and mutates
some of the positions (moved kings, pawns on back ranks, flipped side to move, random
castling and en passant fields). Each item carries the python-chess board (fresh, so its
castling rights are judged) and our ``Setup`` built from the same data.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
import chess.variant

from notation.setup import Pockets, Setup
from notation.variants import DEFAULT_REGISTRY, Variant

BOARDS = {
    "standard": chess.Board,
    "chess960": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "antichess": chess.variant.AntichessBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "racingkings": chess.variant.RacingKingsBoard,
    "horde": chess.variant.HordeBoard,
    # Beyond lichess, where python-chess has the same rules.
    "giveaway": chess.variant.GiveawayBoard,
    "suicide": chess.variant.SuicideBoard,
}

FLAG_CODES = (
    (chess.STATUS_EMPTY, "empty"),
    (chess.STATUS_NO_WHITE_KING, "missing-king"),
    (chess.STATUS_NO_BLACK_KING, "missing-king"),
    (chess.STATUS_TOO_MANY_KINGS, "too-many-kings"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "too-many-pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "too-many-pawns"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "too-many-pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "too-many-pieces"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "pawns-on-backrank"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "bad-castling-rights"),
    (chess.STATUS_INVALID_EP_SQUARE, "invalid-ep-square"),
    (chess.STATUS_OPPOSITE_CHECK, "opposite-check"),
    (chess.STATUS_TOO_MANY_CHECKERS, "too-many-checkers"),
    (chess.STATUS_IMPOSSIBLE_CHECK, "impossible-check"),
    (chess.STATUS_RACE_CHECK, "race-check"),
    (chess.STATUS_RACE_OVER, "race-over"),
    (chess.STATUS_RACE_MATERIAL, "race-material"),
)


@dataclass
class Item:
    variant: Variant
    board: chess.Board
    setup: Setup
    mutation: str


def oracle_codes(board: chess.Board) -> set[str]:
    status = board.status()
    return {code for flag, code in FLAG_CODES if status & flag}


def setup_of(board: chess.Board, variant: Variant) -> Setup:
    """Our Setup holding exactly what the python-chess board holds (castling unfiltered)."""
    cells = [None] * 64
    for sq, piece in board.piece_map().items():
        cells[sq] = piece.symbol()
    pockets = None
    if variant.has_pockets:
        pockets = Pockets(
            "".join(chess.piece_symbol(t) * board.pockets[chess.WHITE].count(t) for t in chess.PIECE_TYPES),
            "".join(chess.piece_symbol(t) * board.pockets[chess.BLACK].count(t) for t in chess.PIECE_TYPES),
        )
    remaining = None
    if variant.has_check_counters:
        remaining = (board.remaining_checks[chess.WHITE], board.remaining_checks[chess.BLACK])
    return Setup(
        board=tuple(cells),
        turn="w" if board.turn else "b",
        castling=frozenset(chess.scan_forward(board.castling_rights)),
        ep_square=board.ep_square,
        halfmove=board.halfmove_clock,
        fullmove=board.fullmove_number,
        promoted=frozenset(chess.scan_forward(board.promoted & board.occupied)),
        pockets=pockets,
        remaining_checks=remaining,
    )


def _fresh(board: chess.Board, key: str) -> chess.Board:
    cls = BOARDS[key]
    return cls(board.fen(en_passant="fen"), chess960=(key == "chess960"))


def _mutate(board: chess.Board, rng: random.Random, key: str) -> str:
    kind = rng.choice(("king", "backrank", "turn", "castling", "ep", "ep-any", "combo"))
    choices = ("king", "backrank", "turn", "castling", "ep")
    kinds = [rng.choice(choices) for _ in range(2)] if kind == "combo" else [kind]
    for k in kinds:
        if k == "king":
            kings = list(chess.scan_forward(board.kings))
            empty = [sq for sq in chess.SQUARES if not board.piece_at(sq)]
            if kings and empty:
                sq = rng.choice(kings)
                piece = board.remove_piece_at(sq)
                board.set_piece_at(rng.choice(empty), piece)
        elif k == "backrank":
            sq = rng.choice(list(chess.SquareSet(chess.BB_BACKRANKS)))
            board.set_piece_at(sq, chess.Piece(chess.PAWN, rng.random() < 0.5))
        elif k == "turn":
            board.turn = not board.turn
        elif k == "castling":
            corners = [chess.A1, chess.H1, chess.A8, chess.H8]
            pool = list(chess.SquareSet(chess.BB_BACKRANKS)) if key == "chess960" else corners
            board.castling_rights = chess.SquareSet(rng.sample(pool, rng.randint(0, min(4, len(pool))))).mask
        elif k == "ep":
            rank = rng.choice((2, 5))
            board.ep_square = chess.square(rng.randrange(8), rank)
        elif k == "ep-any":
            board.ep_square = rng.randrange(64)
    return kind


def positions(seed: int, count: int, variants=tuple(BOARDS), mutate_share: float = 0.5) -> list[Item]:
    """``count`` positions spread over ``variants``, about ``mutate_share`` of them mutated."""
    rng = random.Random(seed)
    per_variant = count // len(variants) + 1
    items: list[Item] = []
    for key in variants:
        variant = DEFAULT_REGISTRY.get(key)
        made = 0
        while made < per_variant:
            cls = BOARDS[key]
            board = cls(chess960=True) if key == "chess960" else cls()
            if key == "chess960":
                board.set_chess960_pos(rng.randrange(960))
            for _ply in range(rng.randint(20, 140)):
                moves = list(board.legal_moves)
                if not moves or board.is_variant_end() or made >= per_variant:
                    break
                board.push(rng.choice(moves))
                fresh = _fresh(board, key)
                mutation = "none"
                if rng.random() < mutate_share:
                    mutation = _mutate(fresh, rng, key)
                # Rights only Chess960 can have make the setup Chess960 in every variant
                # (docs/validation.md), as python-chess's own PGN reader decides.
                fresh.chess960 = fresh.chess960 or fresh.has_chess960_castling_rights()
                items.append(Item(variant, fresh, setup_of(fresh, variant), mutation))
                made += 1
    return items[:count]
