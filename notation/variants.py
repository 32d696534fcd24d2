"""The variant registry: every variant's pieces, royalty, armies and rule twists as data.

Readers, writers and rules never test a variant's name; they ask its entry. A new variant is
a new ``Variant(...)`` value in ``VARIANTS`` (or passed to ``Registry``), nothing more.

Name lookup ignores case, spaces, ``-`` and ``_``. ``Registry.find`` raises
``UnknownVariantError`` (with the closest names) for a name no entry or alias matches.
"""


from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar, Final

from notation.errors import UnknownVariantError
from notation.geometry import CHESS_BOARD, Geometry
from notation.lean_enum import LeanEnum
from notation.records import Record


class Movement(LeanEnum):
    """How a piece moves and attacks; the rules core has one attack function per value."""

    PAWN = "pawn"
    KNIGHT = "knight"
    BISHOP = "bishop"
    ROOK = "rook"
    QUEEN = "queen"
    KING = "king"  # one step in any direction (a king, or Knightmate's mann)
    GRASSHOPPER = "grasshopper"  # queen lines, hops exactly one piece, lands just beyond
    # Xiangqi (notation.rules.xiangqi_moves); its chariot moves as ROOK.
    GENERAL = "general"  # one orthogonal step, inside its palace
    ADVISOR = "advisor"  # one diagonal step, inside its palace
    ELEPHANT = "elephant"  # two diagonal steps, unless the point between (its eye) is taken; never across the river
    HORSE = "horse"  # one orthogonal step then one diagonal step outwards, unless the first point (its leg) is taken
    CANNON = "cannon"  # moves as a rook; captures by jumping exactly one piece (its screen)
    SOLDIER = "soldier"  # one step forwards; also sideways once across the river


# The small records here are records (``notation.records``), not NamedTuples or frozen
# dataclasses: every command's start-up defines them.
class PieceKind(Record):
    """One kind of piece of a variant: its FEN letter (lower case), name and movement."""

    _NAMES: ClassVar = ("letter", "name", "movement")

    def __init__(self, letter: str, name: str, movement: Movement) -> None:
        self.letter: Final = letter
        self.name: Final = name
        self.movement: Final = movement


class Twist(LeanEnum):
    """Rule twists a variant applies on top of standard chess.

    The reader, writer and validator act on ``POCKETS``, ``CHECK_COUNTERS``, ``ATOMIC``,
    ``RACE``, ``NO_PAWN_DOUBLE_STEP``, ``BOMBS``, ``PLACEMENT``, ``NO_EN_PASSANT`` and
    ``NO_CHECK``; ``notation.views`` on ``FOG``; the move generator on every twist, each
    one rule object (``notation.game.chess.twists``). ``COMPULSORY_CAPTURE``,
    ``KING_OF_THE_HILL`` and ``EXTINCTION`` change only which moves are legal and how a game
    ends: a position such a twist has already decided (a king on the hill) is as legal a
    setup as a checkmate, and has no moves. docs/validation.md says the same.
    """

    POCKETS = "pockets"  # captured pieces go to a pocket; promoted pieces are marked
    CHECK_COUNTERS = "check-counters"  # checks are counted; n checks win
    ATOMIC = "atomic"  # captures explode; touching kings cannot check each other
    COMPULSORY_CAPTURE = "compulsory-capture"
    RACE = "race"  # nobody may give check; a king on the eighth rank wins
    KING_OF_THE_HILL = "king-of-the-hill"  # a king on d4, e4, d5 or e5 wins
    EXTINCTION = "extinction"  # losing every piece of one kind loses
    NO_PAWN_DOUBLE_STEP = "no-pawn-double-step"
    BOMBS = "bombs"  # each side designates one of its pieces as a bomb (itsyourturn Atomic); a FEN field holds them
    # A placement phase opens the game: the pieces still to be placed ride in the pockets,
    # as Fairy-Stockfish's ``placement`` variant writes them; ``Variant.placement`` says how.
    PLACEMENT = "placement"
    NO_EN_PASSANT = "no-en-passant"  # pawns step twice, but nobody takes en passant
    # No check: a royal piece may stand attacked by the side to move, and capturing it ends
    # the game; a side to move without its royal piece has lost (a finished game).
    NO_CHECK = "no-check"
    FOG = "fog"  # each side sees only what its pieces reach (``notation.views``)


class RuleFamily(LeanEnum):
    """Which game a variant belongs to: it picks the validators that judge its setups
    (``notation.validation.VALIDATORS_BY_FAMILY``). Chess variants share one rules core."""

    CHESS = "chess"
    XIANGQI = "xiangqi"  # Chinese Chess: palaces, a river, flying generals (notation.validation.xiangqi)
    TAFL = "tafl"  # Tablut and its kin: taflmen and a king, captured by custodianship


class StartDraw(LeanEnum):
    """How a variant's start array is drawn; ``notation.start.DRAWS`` numbers each kind's
    arrays. ``FIXED``: ``Variant.start_fen`` is the start."""

    FIXED = "fixed"
    CHESS960 = "chess960"  # Scharnagl's 960 arrays, 518 classical
    CORNER = "corner"  # King's Corner: king in the corner, bishops on both colours, Black's row the same from its side


class PawnFiles(LeanEnum):
    """Where a placement phase lets a side's pawns go, file by file."""

    ANY = "any"
    ONE_PER_FILE = "one-per-file"  # no two pawns of a side on one file


class BishopColours(LeanEnum):
    """Which square colours a placement phase lets a side's bishops take."""

    ANY = "any"
    DIFFERENT = "different"  # two bishops of a side never on squares of one colour


class Placement(Record):
    """How a placement phase sets the armies up (variants with the ``PLACEMENT`` twist).

    Each side places exactly ``army`` (lower-case letters), one piece a move, on its own
    ``ranks`` first ranks; ``pawn_files`` and ``bishop_colours`` restrict where its pawns
    and bishops may go (pawns on the first rank: ``Army.pawns_on_first_rank``). While any
    piece is left in a pocket the phase lasts: nobody has moved, so there is no check, no
    en passant square, and every placed piece still stands where it was placed. Once both
    pockets are empty the game is played by the variant's other rules.
    """

    _NAMES: ClassVar = ("army", "ranks", "pawn_files", "bishop_colours")

    def __init__(self, army: str = "kqrrbbnnpppppppp", ranks: int = 4,
                 pawn_files: PawnFiles = PawnFiles.ONE_PER_FILE,
                 bishop_colours: BishopColours = BishopColours.DIFFERENT) -> None:
        self.army: Final = army
        self.ranks: Final = ranks
        self.pawn_files: Final = pawn_files
        self.bishop_colours: Final = bishop_colours


class Stalemate(LeanEnum):
    """What stalemate means for the stalemated side (the move generator's ``outcome``)."""

    DRAW = "draw"
    WIN = "win"  # international losing-chess rule
    FEWER_PIECES_WINS = "fewer-pieces-wins"  # FICS suicide rule; equal counts draw


class Spellings(Record):
    """Other ways a variant's FENs are written in the wild, as data for the reader and writer.

    ``letters`` holds ``(style, letters)`` pairs: another letter for each of the variant's
    pieces, in the order of ``Variant.pieces`` (Xiangqi's WXF letters ``rheakcp`` beside
    ``rnbakcp``); ``sides`` holds ``(style, letters)`` pairs naming another pair of
    side-to-move letters, first side first (CXBoard's ``rb``); ``layouts`` names the field
    layouts besides the six FEN fields (``cfen``: placement, side to move, move number).
    Styles are the values of ``notation.options.PieceLetters``, ``SideLetters`` and
    ``FieldLayout``.
    """

    _NAMES: ClassVar = ("letters", "sides", "layouts")

    def __init__(self, letters: tuple[tuple[str, str], ...] = (), sides: tuple[tuple[str, str], ...] = (),
                 layouts: tuple[str, ...] = ()) -> None:
        self.letters: Final = letters
        self.sides: Final = sides
        self.layouts: Final = layouts

    def __bool__(self) -> bool:
        return bool(self.letters or self.sides or self.layouts)


class Army(Record):
    """What one side may have on the board in a legal setup.

    ``royal_count`` is the exact number of royal pieces the side must have (0: none, as for
    Horde's White or any side of a variant without royal pieces); ``max_by_kind`` caps
    individual kinds (Racing Kings) as ``(letter, cap)`` pairs sorted by letter: a tuple,
    so armies and variants are hashable and can key caches. ``pawn_double_step`` False
    means no en passant square can follow a move of this side (the ``NO_PAWN_DOUBLE_STEP``
    twist says the same of both sides).
    """

    _NAMES: ClassVar = ("royal_count", "max_pieces", "max_pawns", "pawns_on_first_rank", "max_by_kind",
                        "pawn_double_step", "first_rank_double_step")

    def __init__(self, royal_count: int = 1, max_pieces: int = 16, max_pawns: int = 8,
                 pawns_on_first_rank: bool = False, max_by_kind: tuple[tuple[str, int], ...] = (),
                 pawn_double_step: bool = True, first_rank_double_step: bool = False) -> None:
        self.royal_count: Final = royal_count
        self.max_pieces: Final = max_pieces
        self.max_pawns: Final = max_pawns
        self.pawns_on_first_rank: Final = pawns_on_first_rank  # Horde's White may have pawns on its own first rank
        self.max_by_kind: Final = max_by_kind
        # False: this side's pawns never step two squares (itsyourturn Horde's Black)
        self.pawn_double_step: Final = pawn_double_step
        # True: a pawn on its own first rank may step two squares too (lichess Horde's White,
        # as python-chess and scalachess play it; no en passant square follows such a step).
        # Crazy Screen's first-rank pawns step one square (the itsyourturn variants page).
        self.first_rank_double_step: Final = first_rank_double_step


STANDARD_PIECES: tuple[PieceKind, ...] = (
    PieceKind("p", "pawn", Movement.PAWN),
    PieceKind("n", "knight", Movement.KNIGHT),
    PieceKind("b", "bishop", Movement.BISHOP),
    PieceKind("r", "rook", Movement.ROOK),
    PieceKind("q", "queen", Movement.QUEEN),
    PieceKind("k", "king", Movement.KING),
)


_ANY_ARMIES = (Army(), Army())  # a Variant's armies unless given: white, black
_OWN_SPELLING = Spellings()  # a Variant's spellings unless given: none but its own


class Variant:
    """A registry entry. ``key`` is stable (used in JSON and URLs); ``name`` is for display.

    ``royal`` holds the letters of royal pieces (those that can be checked), empty when no
    piece is royal. ``castling_piece`` is the letter of the piece that castles, and
    ``castling_rook`` the letter of the piece it castles with.
    ``random_start`` marks variants whose start array is drawn at random (``start_fen`` is
    then one example). ``chess960_form`` is the key of the variant a set-up of this one is
    read as when its castling rights only Chess960 can have (Standard: ``chess960``).
    ``pgn_default`` marks the variant a PGN game without a ``Variant`` tag plays (Standard,
    per the PGN standard). ``lichess_name`` is lichess's name for the variant, if it has it.
    ``geometry`` is the board (files x ranks, 8x8 unless given); ``family`` the game whose
    rules judge its setups. ``spellings`` lists other letters, side letters and field
    layouts its FENs are written with (none for the chess variants). ``special_squares``
    names the squares only a royal piece may occupy (Tablut's throne and corners; empty for
    chess). ``start_draw`` says how its start array is drawn (``notation start``), ``FIXED``
    for ``start_fen`` itself.

    A value: equal to another with the same fields, hashed by ``key``, read-only (its
    fields are ``Final``: a write is a type error, and in the compiled build an
    ``AttributeError``); ``replace`` makes a changed copy. A plain class rather than a
    frozen dataclass: every command defines it at start-up, where ``dataclasses`` (with
    ``inspect``) and the methods it compiles from source cost more than the registry itself
    (docs/architecture.md, "Start-up"); compiled, a native one, whose fields the readers,
    writers and rules read per FEN as a native class's.
    """

    def __init__(
        self,
        key: str,
        name: str,
        aliases: tuple[str, ...],
        start_fen: str,
        pieces: tuple[PieceKind, ...] = STANDARD_PIECES,
        royal: str = "k",
        castling_piece: str = "k",
        castling_rook: str = "r",
        armies: tuple[Army, Army] = _ANY_ARMIES,
        twists: frozenset[Twist] = frozenset(),
        castling: bool = True,
        random_start: bool = False,
        checks_to_win: int = 0,
        promotions: str = "qrbn",
        stalemate: Stalemate = Stalemate.DRAW,
        lichess_name: str | None = None,
        chess960_form: str | None = None,
        pgn_default: bool = False,
        geometry: Geometry = CHESS_BOARD,
        family: RuleFamily = RuleFamily.CHESS,
        spellings: Spellings = _OWN_SPELLING,
        special_squares: tuple[str, ...] = (),
        start_draw: StartDraw = StartDraw.FIXED,
        placement: Placement | None = None,
    ) -> None:
        self.key: Final = key
        self.name: Final = name
        self.aliases: Final = aliases
        self.start_fen: Final = start_fen
        self.pieces: Final = pieces
        self.royal: Final = royal
        self.castling_piece: Final = castling_piece
        self.castling_rook: Final = castling_rook
        self.armies: Final = armies  # white, black
        self.twists: Final = twists
        self.castling: Final = castling
        self.random_start: Final = random_start
        self.checks_to_win: Final = checks_to_win
        self.promotions: Final = promotions
        self.stalemate: Final = stalemate
        self.lichess_name: Final = lichess_name
        self.chess960_form: Final = chess960_form
        self.pgn_default: Final = pgn_default
        self.geometry: Final = geometry
        self.family: Final = family
        self.spellings: Final = spellings
        self.special_squares: Final = special_squares  # Tafl: throne and corners, where only the king may stand
        self.start_draw: Final = start_draw
        self.placement: Final = placement
        # What the readers and writers ask of a variant per FEN, found once.
        # Lower-case FEN letters of this variant's pieces.
        self.piece_letters: Final = "".join([kind.letter for kind in pieces])
        # Every FEN letter of this variant's pieces, both colours.
        self.board_letters: Final = frozenset(self.piece_letters + self.piece_letters.upper())
        # Whether FENs of the variant carry pockets (Crazyhouse's, or a placement phase's).
        self.has_pockets: Final = Twist.POCKETS in twists or Twist.PLACEMENT in twists
        self.has_check_counters: Final = Twist.CHECK_COUNTERS in twists
        self.has_bombs: Final = Twist.BOMBS in twists  # the ``BOMBS`` twist
        # Whether its FENs are also written with other letters, side letters or layouts.
        self.has_spellings: Final = bool(spellings)

    def _fields(self) -> dict[str, Any]:
        """Each field by name, in the order ``__init__`` takes them."""
        return {name: getattr(self, name) for name in _VARIANT_FIELDS}

    def replace(self, **changes: Any) -> Variant:
        """A copy with the fields named in ``changes`` replaced (a new variant of the
        registry is often an old one with another key, name and a twist more). Raises
        ``TypeError`` for a name that is no field."""
        return Variant(**{**self._fields(), **changes})

    def __reduce__(self) -> tuple[type[Variant], tuple[Any, ...]]:
        """Pickled (to ``--jobs`` and Dask workers) and copied through ``__init__``:
        compiled, a class has no ``__dict__`` for pickle's default to copy."""
        return (Variant, tuple(self._fields().values()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return self is other or self._fields() == other._fields()

    def __repr__(self) -> str:
        return "Variant(" + ", ".join(f"{name}={value!r}" for name, value in self._fields().items()) + ")"

    def piece_kind(self, letter: str) -> PieceKind:
        """The kind for a FEN letter of either case; raises ``KeyError`` if not in the variant."""
        lower = letter.lower()
        for kind in self.pieces:
            if kind.letter == lower:
                return kind
        raise KeyError(letter)

    def __hash__(self) -> int:
        # Equal variants have equal keys, so the key alone is a valid hash, and a cheap one
        # (str caches its hash): per-variant caches are keyed on the variant itself.
        return hash(self.key)

    def __str__(self) -> str:
        return self.name


# A Variant's fields, in the order its ``__init__`` takes them.
_VARIANT_FIELDS: Final = (
    "key", "name", "aliases", "start_fen", "pieces", "royal", "castling_piece", "castling_rook", "armies", "twists",
    "castling", "random_start", "checks_to_win", "promotions", "stalemate", "lichess_name", "chess960_form",
    "pgn_default", "geometry", "family", "spellings", "special_squares", "start_draw", "placement",
)

XIANGQI_PIECES: tuple[PieceKind, ...] = (
    PieceKind("r", "chariot", Movement.ROOK),
    PieceKind("n", "horse", Movement.HORSE),
    PieceKind("b", "elephant", Movement.ELEPHANT),
    PieceKind("a", "advisor", Movement.ADVISOR),
    PieceKind("k", "general", Movement.GENERAL),
    PieceKind("c", "cannon", Movement.CANNON),
    PieceKind("p", "soldier", Movement.SOLDIER),
)
# Two of each piece but the general, five soldiers: 16 pieces (Army.max_by_kind).
_XIANGQI_ARMY = Army(
    max_pieces=16,
    max_pawns=5,
    max_by_kind=(("a", 2), ("b", 2), ("c", 2), ("n", 2), ("p", 5), ("r", 2)),
)

_STANDARD_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_NO_KINGS = (Army(royal_count=0), Army(royal_count=0))
_RACE_ARMY = Army(
    max_pieces=8,
    max_pawns=0,
    max_by_kind=(("b", 2), ("n", 2), ("q", 1), ("r", 2)),
)

# The Screen variants start with an empty board and every piece in hand (each side places
# its pawns too); pocket letters in the canonical order Fairy-Stockfish writes.
_PLACEMENT_START = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1"
_CRAZY_SCREEN_ARMY = Army(pawns_on_first_rank=True)  # a pawn placed there steps one square
_CRAZY_PLACEMENT = Placement(pawn_files=PawnFiles.ANY, bishop_colours=BishopColours.ANY)

VARIANTS: tuple[Variant, ...] = (
    Variant(
        "standard",
        "Standard",
        ("Standard", "Chess", "Classical", "Normal", "From Position", "FromPosition",
         "wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/8", "wild/8a"),
        _STANDARD_START,
        lichess_name="Standard",
        chess960_form="chess960",
        pgn_default=True,
    ),
    Variant(
        "chess960",
        "Chess960",
        ("Chess960", "Chess 960", "960", "Fischerandom", "Fischerrandom", "Fischer Random",
         "Fischer Random Chess", "FRC", "wild/fr"),
        _STANDARD_START,
        random_start=True,
        lichess_name="Chess960",
        start_draw=StartDraw.CHESS960,
    ),
    Variant(
        "crazyhouse",
        "Crazyhouse",
        ("Crazyhouse", "Crazy House", "House", "ZH",
         # Chess960 flavours (pychess-variants); the rights say which array it is.
         "Crazyhouse960", "Crazyhouse 960"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        twists=frozenset({Twist.POCKETS}),
        lichess_name="Crazyhouse",
    ),
    Variant(
        "atomic",
        "Atomic",
        ("Atomic", "Atom", "Atomic Chess", "Atomic960", "Atomic 960"),
        _STANDARD_START,
        twists=frozenset({Twist.ATOMIC}),
        lichess_name="Atomic",
    ),
    Variant(
        "antichess",
        "Antichess",
        ("Antichess", "Anti", "Anti Chess", "Losing Chess", "Antichess960", "Antichess 960"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        royal="",
        castling_piece="",
        armies=_NO_KINGS,
        twists=frozenset({Twist.COMPULSORY_CAPTURE}),
        castling=False,
        promotions="qrbnk",
        stalemate=Stalemate.WIN,
        lichess_name="Antichess",
    ),
    Variant(
        "giveaway",
        "Giveaway",
        ("Giveaway", "Give Away", "Giveaway Chess", "Give Away Chess"),
        _STANDARD_START,
        royal="",
        armies=_NO_KINGS,
        twists=frozenset({Twist.COMPULSORY_CAPTURE}),
        promotions="qrbnk",
        stalemate=Stalemate.WIN,
    ),
    Variant(
        "suicide",
        "Suicide",
        ("Suicide", "Suicide Chess"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        royal="",
        castling_piece="",
        armies=_NO_KINGS,
        twists=frozenset({Twist.COMPULSORY_CAPTURE}),
        castling=False,
        promotions="qrbnk",
        stalemate=Stalemate.FEWER_PIECES_WINS,
    ),
    Variant(
        "losers",
        "Losers",
        ("Losers", "Losers Chess", "Loser's Chess"),
        _STANDARD_START,
        twists=frozenset({Twist.COMPULSORY_CAPTURE}),
        stalemate=Stalemate.WIN,
    ),
    Variant(
        "kingofthehill",
        "King of the Hill",
        ("King of the Hill", "KOTH", "Kingofthehill", "King of the Hill 960", "Kingofthehill960", "KOTH960"),
        _STANDARD_START,
        twists=frozenset({Twist.KING_OF_THE_HILL}),
        lichess_name="King of the Hill",
    ),
    Variant(
        "threecheck",
        "Three-check",
        ("Three-check", "Three Check", "Three Check Chess", "3-Check", "3 Check", "3check",
         "Three check 960", "Three-check960", "3check960"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        twists=frozenset({Twist.CHECK_COUNTERS}),
        checks_to_win=3,
        lichess_name="Three-check",
    ),
    Variant(
        "racingkings",
        "Racing Kings",
        ("Racing Kings", "Race", "Racing", "RacingKings"),
        "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        armies=(_RACE_ARMY, _RACE_ARMY),
        twists=frozenset({Twist.RACE}),
        castling=False,
        promotions="",
        lichess_name="Racing Kings",
    ),
    Variant(
        "horde",
        "Horde",
        ("Horde", "Horde Chess", "Horde960", "Horde 960"),
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        armies=(
            Army(royal_count=0, max_pieces=36, max_pawns=36, pawns_on_first_rank=True, first_rank_double_step=True),
            Army(),
        ),
        lichess_name="Horde",
    ),
    # Beyond lichess and CQLi (Knightmate, Extinction, Grasshopper as the Fairy-Stockfish
    # variants.ini defines them): the same machinery, new data.
    Variant(
        "knightmate",
        "Knightmate",
        ("Knightmate", "Knightmate Chess"),
        "rmbqkbmr/pppppppp/8/8/8/8/PPPPPPPP/RMBQKBMR w KQkq - 0 1",
        pieces=(
            PieceKind("p", "pawn", Movement.PAWN),
            PieceKind("m", "mann", Movement.KING),
            PieceKind("b", "bishop", Movement.BISHOP),
            PieceKind("r", "rook", Movement.ROOK),
            PieceKind("q", "queen", Movement.QUEEN),
            PieceKind("k", "royal knight", Movement.KNIGHT),
        ),
        promotions="qrbm",
    ),
    Variant(
        "extinction",
        "Extinction",
        ("Extinction", "Extinction Chess"),
        _STANDARD_START,
        royal="",
        armies=_NO_KINGS,
        twists=frozenset({Twist.EXTINCTION}),
        promotions="qrbnk",
    ),
    Variant(
        "grasshopper",
        "Grasshopper",
        ("Grasshopper", "Grasshopper Chess"),
        "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1",
        pieces=STANDARD_PIECES + (PieceKind("g", "grasshopper", Movement.GRASSHOPPER),),
        armies=(Army(max_pieces=24), Army(max_pieces=24)),
        twists=frozenset({Twist.NO_PAWN_DOUBLE_STEP}),
        promotions="qrbng",
    ),
    Variant(
        "kingscorner",
        "King's Corner",
        ("King's Corner", "Kings Corner", "King's Corner Chess"),
        "krnqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBQNRK w - - 0 1",
        castling=False,
        random_start=True,
        start_draw=StartDraw.CORNER,
    ),
)


# The itsyourturn variants (its rules page, "Chess Variations"): the same machinery, new data.
VARIANTS += (
    Variant(
        "itsyourturnhorde",
        "itsyourturn Horde",
        ("itsyourturn Horde Chess",),
        "pppppppp/pppppppp/pppppppp/pppppppp/1pp2pp1/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        armies=(
            Army(),
            Army(royal_count=0, max_pieces=36, max_pawns=36, pawns_on_first_rank=True, pawn_double_step=False),
        ),
    ),
    Variant(
        "kingsfortress",
        "King's Fortress",
        ("King's Fortress", "Kings Fortress", "King's Fortress Chess"),
        "krnqbbnr/pppppppp/ppp5/8/8/5PPP/PPPPPPPP/RNBBQNRK w - - 0 1",
        armies=(Army(max_pieces=19, max_pawns=11), Army(max_pieces=19, max_pawns=11)),
        castling=False,
        random_start=True,
        start_draw=StartDraw.CORNER,
    ),
    Variant(
        "itsyourturnatomic",
        "itsyourturn Atomic",
        ("itsyourturn Atomic Chess", "Atomic Bomb", "Atomic Bomb Chess"),
        _STANDARD_START + " -",
        twists=frozenset({Twist.BOMBS}),
    ),
    # Xiangqi on 9x10 points with the Fairy-Stockfish / UCCI letters; red is upper case and
    # is the side written "w". WXF letters (h horse, e elephant) and CXBoard's side letters
    # ("r" red) and short layout are other spellings of the same positions.
    Variant(
        "xiangqi",
        "Xiangqi",
        ("Xiangqi", "Chinese Chess", "CC", "Chinese", "Xiang Qi", "Xiangqi Chess", "Cchess"),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        pieces=XIANGQI_PIECES,
        castling_piece="",
        castling_rook="",
        armies=(_XIANGQI_ARMY, _XIANGQI_ARMY),
        castling=False,
        promotions="",
        geometry=Geometry(9, 10),
        family=RuleFamily.XIANGQI,
        spellings=Spellings(
            letters=(("wxf", "rheakcp"),),
            sides=(("rb", "rb"),),
            layouts=("cfen",),
        ),
    ),
    # Tablut as the itsyourturn rules page plays it, on Linnaeus' layout (the page shows its
    # start only as a picture; the OpenTafl notation specification's 9x9 example has the same
    # layout). White (upper case, moves first) has the 16 attackers; Black the king and its 8
    # defenders. Attackers and defenders are both taflmen: OpenTafl's ``t``, told apart by
    # case. The throne and corners are ``special_squares``: only the king may stand there.
    Variant(
        "tablut",
        "Tablut",
        ("Tablut", "TB", "Linnaeus Tablut", "Tablut 9x9"),
        "3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TTT3 w - - 0 1",
        pieces=(
            PieceKind("t", "taflman", Movement.ROOK),  # "like a chess rook": attacker or defender
            PieceKind("k", "king", Movement.ROOK),
        ),
        castling_piece="",
        castling_rook="",
        armies=(
            Army(royal_count=0, max_pieces=16, max_pawns=0, max_by_kind=(("k", 0), ("t", 16))),  # attackers
            Army(royal_count=1, max_pieces=9, max_pawns=0, max_by_kind=(("k", 1), ("t", 8))),  # king, defenders
        ),
        castling=False,
        promotions="",
        geometry=Geometry(9, 9),
        family=RuleFamily.TAFL,
        special_squares=("e5", "a1", "i1", "a9", "i9"),
    ),
    # itsyourturn's Dark Chess and its Screen family (the itsyourturn variants page):
    # standard armies, no check in the dark, a placement phase in the screens.
    Variant(
        "dark",
        "Dark Chess",
        ("Dark", "Dark Chess"),
        _STANDARD_START,
        twists=frozenset({Twist.NO_CHECK, Twist.FOG}),
    ),
    Variant(
        "screen",
        "Screen Chess",
        ("Screen", "Screen Chess"),
        _PLACEMENT_START,
        twists=frozenset({Twist.PLACEMENT, Twist.NO_EN_PASSANT}),
        castling=False,
        placement=Placement(),
    ),
    Variant(
        "crazyscreen",
        "Crazy Screen Chess",
        ("Crazy Screen", "Crazy Screen Chess"),
        _PLACEMENT_START,
        armies=(_CRAZY_SCREEN_ARMY, _CRAZY_SCREEN_ARMY),
        twists=frozenset({Twist.PLACEMENT, Twist.NO_EN_PASSANT}),
        castling=False,
        placement=_CRAZY_PLACEMENT,
    ),
    Variant(
        "darkcrazyscreen",
        "Dark Crazy Screen Chess",
        ("Dark Crazy Screen", "Dark Crazy Screen Chess"),
        _PLACEMENT_START,
        armies=(_CRAZY_SCREEN_ARMY, _CRAZY_SCREEN_ARMY),
        twists=frozenset({Twist.PLACEMENT, Twist.NO_CHECK, Twist.FOG}),
        castling=False,
        placement=_CRAZY_PLACEMENT,
    ),
)


# The variant name that asks for a guess instead (``notation.guess``); no variant has it.
AUTO = "auto"


_LEFT_OUT_OF_NAMES = str.maketrans("", "", " -_'\t")


def normalize_name(name: str) -> str:
    """The lookup form of a name: lower case, without spaces, ``-``, ``_`` or apostrophes."""
    return name.casefold().translate(_LEFT_OUT_OF_NAMES)


_SPELLINGS_KEPT = 1024


class Registry:
    """Variants and their aliases. Immutable; ``with_aliases`` returns an extended copy."""

    def __init__(self, variants: Iterable[Variant] = VARIANTS, extra_aliases: Mapping[str, str] | None = None):
        self._variants = tuple(variants)
        self._by_key = {v.key: v for v in self._variants}
        index: dict[str, Variant] = {}
        for variant in self._variants:
            for name in (variant.key, variant.name, *variant.aliases):
                index.setdefault(normalize_name(name), variant)
        for alias, target in (extra_aliases or {}).items():
            index[normalize_name(alias)] = self._lookup(target, index)
        self._index = index
        self._extra = dict(extra_aliases or {})
        self._default = next((v for v in self._variants if v.pgn_default), None)
        # Names exactly as callers spell them -> variant: a line-by-line caller asks for the
        # same few names millions of times. Bounded, and only names that were found.
        self._as_spelled: dict[str, Variant] = {}
        # Names refused -> the closest names suggested: a file read with a misspelt
        # --variant asks for the same unknown name on every line, and finding suggestions
        # (difflib over every name) costs a hundred times a line's work. Bounded too.
        self._refused: dict[str, tuple[str, ...]] = {}

    def __reduce__(self) -> tuple[type[Registry], tuple[tuple[Variant, ...], dict[str, str]]]:
        """Pickled (to ``--jobs`` and Dask workers) as its variants and aliases, built again
        through ``__init__`` (compiled, a class has no ``__dict__`` for pickle's default to
        copy); the names found and refused start empty."""
        return (Registry, (self._variants, self._extra))

    @staticmethod
    def _lookup(name: str, index: Mapping[str, Variant]) -> Variant:
        try:
            return index[normalize_name(name)]
        except KeyError:
            raise UnknownVariantError(name, _closest(name, index)) from None

    def find(self, name: str | Variant) -> Variant:
        """The variant called ``name`` (key, display name or alias); a ``Variant`` passes through.

        Raises ``UnknownVariantError`` listing the closest known names.
        """
        if isinstance(name, Variant):
            return name
        found = self._as_spelled.get(name)
        if found is None:
            suggested = self._refused.get(name)
            if suggested is not None:
                raise UnknownVariantError(name, list(suggested))
            try:
                found = self._lookup(name, self._index)
            except UnknownVariantError as exc:
                if len(self._refused) < _SPELLINGS_KEPT:
                    self._refused[name] = tuple(exc.suggestions)
                raise
            if len(self._as_spelled) < _SPELLINGS_KEPT:
                self._as_spelled[name] = found
        return found

    def get(self, key: str) -> Variant:
        """The variant with this exact key; raises ``KeyError``."""
        return self._by_key[key]

    @property
    def default(self) -> Variant:
        """The variant a PGN game without a ``Variant`` tag plays (the ``pgn_default`` entry).

        Raises ``LookupError`` for a registry without such an entry.
        """
        if self._default is None:
            raise LookupError("this registry has no pgn_default variant")
        return self._default

    def with_aliases(self, aliases: Mapping[str, str]) -> Registry:
        """A registry that also knows ``aliases`` (alias -> existing name).

        Raises ``UnknownVariantError`` if a target is unknown, ``ValueError`` on an empty alias.
        """
        for alias in aliases:
            if not normalize_name(alias):
                raise ValueError("a variant alias cannot be empty")
        return Registry(self._variants, {**self._extra, **aliases})

    def __iter__(self) -> Iterator[Variant]:
        return iter(self._variants)

    def __len__(self) -> int:
        return len(self._variants)


def _closest(name: str, index: Mapping[str, Variant]) -> list[str]:
    import difflib  # here: only an unknown name needs it, not every start-up

    wanted = normalize_name(name)
    matches = difflib.get_close_matches(wanted, list(index), n=6, cutoff=0.6)
    names: list[str] = []
    for match in matches:
        display = index[match].name
        if display not in names:
            names.append(display)
    return names[:3]


DEFAULT_REGISTRY = Registry()


def find_variant(name: str | Variant, registry: Registry = DEFAULT_REGISTRY) -> Variant:
    """Shortcut for ``registry.find(name)``; raises ``UnknownVariantError``."""
    return registry.find(name)


def parse_alias_option(text: str) -> tuple[str, str]:
    """Split one ``ALIAS=VARIANT`` entry; raises ``ValueError`` when either side is missing."""
    alias, sep, target = text.partition("=")
    if not sep or not alias.strip() or not target.strip():
        raise ValueError(f"expected ALIAS=VARIANT, got {text!r}")
    return alias.strip(), target.strip()


def parse_aliases(entries: str | Iterable[str]) -> dict[str, str]:
    """``ALIAS=VARIANT`` entries as alias -> variant name, from a comma-separated string
    (``NOTATION_VARIANT_ALIASES``) or a list of such strings (repeated ``--variant-alias``).
    Blank entries are skipped; a later entry for the same alias wins. Raises ``ValueError``
    for a malformed entry; whether the variants exist is not checked here
    (``Registry.with_aliases`` does that)."""
    texts = [entries] if isinstance(entries, str) else list(entries)
    aliases: dict[str, str] = {}
    for text in texts:
        for entry in text.split(","):
            if entry.strip():
                alias, target = parse_alias_option(entry)
                aliases[alias] = target
    return aliases
