"""The variant registry: every variant's pieces, royalty, armies and rule twists as data.

Readers, writers and rules never test a variant's name; they ask its entry. A new variant is
a new ``Variant(...)`` value in ``VARIANTS`` (or passed to ``Registry``), nothing more.

Name lookup ignores case, spaces, ``-`` and ``_``. ``Registry.find`` raises
``UnknownVariantError`` (with the closest names) for a name no entry or alias matches.
"""

from __future__ import annotations

import difflib
import enum
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from notation.errors import UnknownVariantError
from notation.geometry import CHESS_BOARD, Geometry


class Movement(enum.Enum):
    """How a piece moves and attacks; the rules core has one attack function per value."""

    PAWN = "pawn"
    KNIGHT = "knight"
    BISHOP = "bishop"
    ROOK = "rook"
    QUEEN = "queen"
    KING = "king"  # one step in any direction (a king, or Knightmate's mann)
    GRASSHOPPER = "grasshopper"  # queen lines, hops exactly one piece, lands just beyond


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece of a variant: its FEN letter (lower case), name and movement."""

    letter: str
    name: str
    movement: Movement


class Twist(enum.Enum):
    """Rule twists a variant applies on top of standard chess.

    The reader, writer and validator act on ``POCKETS``, ``CHECK_COUNTERS``, ``ATOMIC``,
    ``RACE``, ``NO_PAWN_DOUBLE_STEP``, ``PLACEMENT``, ``NO_EN_PASSANT`` and ``NO_CHECK``;
    ``notation.views`` on ``FOG``. ``COMPULSORY_CAPTURE``, ``KING_OF_THE_HILL`` and
    ``EXTINCTION`` change only which moves are legal and how a game ends; this library
    never generates moves or scores games, and a position such a twist has already decided
    (a king on the hill) is as legal as a checkmate, so they are descriptive data for
    clients (``GET /v1/variants``), as is ``Stalemate``. docs/validation.md says the same.
    """

    POCKETS = "pockets"  # captured pieces go to a pocket; promoted pieces are marked
    CHECK_COUNTERS = "check-counters"  # checks are counted; n checks win
    ATOMIC = "atomic"  # captures explode; touching kings cannot check each other
    COMPULSORY_CAPTURE = "compulsory-capture"
    RACE = "race"  # nobody may give check; a king on the eighth rank wins
    KING_OF_THE_HILL = "king-of-the-hill"  # a king on d4, e4, d5 or e5 wins
    EXTINCTION = "extinction"  # losing every piece of one kind loses
    NO_PAWN_DOUBLE_STEP = "no-pawn-double-step"
    # A placement phase opens the game: the pieces still to be placed ride in the pockets,
    # as Fairy-Stockfish's ``placement`` variant writes them; ``Variant.placement`` says how.
    PLACEMENT = "placement"
    NO_EN_PASSANT = "no-en-passant"  # pawns step twice, but nobody takes en passant
    # No check: a royal piece may stand attacked by the side to move, and capturing it ends
    # the game; a side to move without its royal piece has lost (a finished game).
    NO_CHECK = "no-check"
    FOG = "fog"  # each side sees only what its pieces reach (``notation.views``)


class RuleFamily(enum.Enum):
    """Which game a variant belongs to: it picks the validators that judge its setups
    (``notation.validation.VALIDATORS_BY_FAMILY``). Chess variants share one rules core."""

    CHESS = "chess"


class PawnFiles(enum.Enum):
    """Where a placement phase lets a side's pawns go, file by file."""

    ANY = "any"
    ONE_PER_FILE = "one-per-file"  # no two pawns of a side on one file


class BishopColours(enum.Enum):
    """Which square colours a placement phase lets a side's bishops take."""

    ANY = "any"
    DIFFERENT = "different"  # two bishops of a side never on squares of one colour


@dataclass(frozen=True)
class Placement:
    """How a placement phase sets the armies up (variants with the ``PLACEMENT`` twist).

    Each side places exactly ``army`` (lower-case letters), one piece a move, on its own
    ``ranks`` first ranks; ``pawn_files`` and ``bishop_colours`` restrict where its pawns
    and bishops may go (pawns on the first rank: ``Army.pawns_on_first_rank``). While any
    piece is left in a pocket the phase lasts: nobody has moved, so there is no check, no
    en passant square, and every placed piece still stands where it was placed. Once both
    pockets are empty the game is played by the variant's other rules.
    """

    army: str = "kqrrbbnnpppppppp"
    ranks: int = 4
    pawn_files: PawnFiles = PawnFiles.ONE_PER_FILE
    bishop_colours: BishopColours = BishopColours.DIFFERENT


class Stalemate(enum.Enum):
    """What stalemate means for the stalemated side (descriptive data, see ``Twist``)."""

    DRAW = "draw"
    WIN = "win"  # international losing-chess rule
    FEWER_PIECES_WINS = "fewer-pieces-wins"  # FICS suicide rule; equal counts draw


@dataclass(frozen=True)
class Army:
    """What one side may have on the board in a legal setup.

    ``royal_count`` is the exact number of royal pieces the side must have (0: none, as for
    Horde's White or any side of a variant without royal pieces); ``max_by_kind`` caps
    individual kinds (Racing Kings) as ``(letter, cap)`` pairs sorted by letter: a tuple,
    so armies and variants are hashable and can key caches.
    """

    royal_count: int = 1
    max_pieces: int = 16
    max_pawns: int = 8
    pawns_on_first_rank: bool = False  # Horde's White may have pawns on its own first rank
    max_by_kind: tuple[tuple[str, int], ...] = ()


STANDARD_PIECES: tuple[PieceKind, ...] = (
    PieceKind("p", "pawn", Movement.PAWN),
    PieceKind("n", "knight", Movement.KNIGHT),
    PieceKind("b", "bishop", Movement.BISHOP),
    PieceKind("r", "rook", Movement.ROOK),
    PieceKind("q", "queen", Movement.QUEEN),
    PieceKind("k", "king", Movement.KING),
)


@dataclass(frozen=True)
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
    rules judge its setups.
    """

    key: str
    name: str
    aliases: tuple[str, ...]
    start_fen: str
    pieces: tuple[PieceKind, ...] = STANDARD_PIECES
    royal: str = "k"
    castling_piece: str = "k"
    castling_rook: str = "r"
    armies: tuple[Army, Army] = (Army(), Army())  # white, black
    twists: frozenset[Twist] = frozenset()
    castling: bool = True
    random_start: bool = False
    checks_to_win: int = 0
    promotions: str = "qrbn"
    stalemate: Stalemate = Stalemate.DRAW
    lichess_name: str | None = None
    chess960_form: str | None = None
    pgn_default: bool = False
    geometry: Geometry = CHESS_BOARD
    family: RuleFamily = RuleFamily.CHESS
    placement: Placement | None = None

    @functools.cached_property
    def piece_letters(self) -> str:
        """Lower-case FEN letters of this variant's pieces."""
        return "".join(kind.letter for kind in self.pieces)

    @functools.cached_property
    def board_letters(self) -> frozenset[str]:
        """Every FEN letter of this variant's pieces, both colours."""
        return frozenset(self.piece_letters + self.piece_letters.upper())

    def piece_kind(self, letter: str) -> PieceKind:
        """The kind for a FEN letter of either case; raises ``KeyError`` if not in the variant."""
        lower = letter.lower()
        for kind in self.pieces:
            if kind.letter == lower:
                return kind
        raise KeyError(letter)

    @functools.cached_property
    def has_pockets(self) -> bool:
        """Whether FENs of the variant carry pockets (Crazyhouse's, or a placement phase's)."""
        return Twist.POCKETS in self.twists or Twist.PLACEMENT in self.twists

    @functools.cached_property
    def has_check_counters(self) -> bool:
        return Twist.CHECK_COUNTERS in self.twists

    def __hash__(self) -> int:
        # Equal variants have equal keys, so the key alone is a valid hash, and a cheap one
        # (str caches its hash): per-variant caches are keyed on the variant itself.
        return hash(self.key)

    def __str__(self) -> str:
        return self.name


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
        armies=(Army(royal_count=0, max_pieces=36, max_pawns=36, pawns_on_first_rank=True), Army()),
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


def normalize_name(name: str) -> str:
    """The lookup form of a name: lower case, without spaces, ``-``, ``_`` or apostrophes."""
    return "".join(ch for ch in name.casefold() if ch not in " -_'\t")


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
        return self._lookup(name, self._index)

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
