"""The perft tables (fixtures/perft/KEY.perft, format in fixtures/perft/README.md) against the
move generator (``notation.game.perft``).

One file per variant key of the registry; each position is read with ``notation.read_fen``,
made a legal position with ``notation.game.legal_position`` (played as Chess960 where the
table says ``castling chess960``, with the validation codes its ``accept`` line names let
through) and counted to each depth of the table whose count is at most ``NODE_BUDGET``
(3,000,000 compiled, 100,000 pure, unless the environment sets ``NOTATION_PERFT_BUDGET``);
deeper lines are skipped and say why. The format tests run without the generator: every
file parses, names a variant of the registry, and every FEN reads and validates in it; the
tables' small counts are checked against the oracles they came from (python-chess,
Fairy-Stockfish through pyffish).
"""

from __future__ import annotations

import os
import pathlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from paths import ROOT

import notation.game.chess.position
from notation import read_fen, validate_fen
from notation.move_options import CastlingMode
from notation.variants import DEFAULT_REGISTRY

pytestmark = [pytest.mark.slow]

FIXTURES = ROOT / "fixtures" / "perft"

_COMPILED = notation.game.chess.position.__file__.endswith((".so", ".pyd"))
NODE_BUDGET = int(os.environ.get("NOTATION_PERFT_BUDGET", "3000000" if _COMPILED else "100000"))
"""The largest count a perft line may have to be run (its count bounds its work): three
million nodes in the compiled build (some 150 more lines than the pure budget runs),
a hundred thousand in pure Python, which counts about ten times slower."""

ORACLE_BUDGET = 20_000
"""The largest count the oracles recount (python-chess; pyffish takes a tenth of it: a
millisecond a node)."""

# Registry keys with no table, and why (fixtures/perft/README.md says the same).
NO_TABLE = {
    "itsyourturnhorde": "no published suite, and Fairy-Stockfish has no variant whose horde pawns never step twice",
    "itsyourturnatomic": "no published suite or oracle has bombs",
    "tablut": "no published suite or oracle for itsyourturn's Tablut rules",
    "dark": "no published suite or oracle plays chess without check",
    "screen": "Fairy-Stockfish's placement variant places only the pieces, on the first rank, not our army",
    "crazyscreen": "no published suite or oracle has this placement phase",
    "darkcrazyscreen": "no published suite or oracle has this placement phase or chess without check",
}

_KEYWORDS = ("id", "fen", "castling", "accept", "perft")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


class TableError(ValueError):
    """A perft table that does not follow the format (with its file and line)."""


@dataclass(frozen=True)
class Entry:
    """One position of a perft table."""

    variant: str  # the registry key: the file's name
    ident: str
    fen: str
    chess960: bool  # ``castling chess960``: played as Chess960
    accept: tuple[str, ...]  # validation codes let through when the position is built
    perft: tuple[tuple[int, int], ...]  # (depth, count), depths increasing
    source: str  # the last ``# source:`` comment above it
    line: int

    def castling_mode(self) -> CastlingMode:
        return CastlingMode.CHESS960 if self.chess960 else CastlingMode.STANDARD


def parse_table(path: pathlib.Path) -> list[Entry]:
    """Every position of one table; raises ``TableError`` at the first line off the format."""
    variant = path.name.removesuffix(".perft")
    entries: list[Entry] = []
    source = ""
    current: dict | None = None

    def fail(number: int, why: str) -> TableError:
        return TableError(f"{path.name}:{number}: {why}")

    def close(number: int) -> None:
        if current is None:
            return
        if current["fen"] is None:
            raise fail(current["line"], f"position {current['ident']} has no fen line")
        if not current["perft"]:
            raise fail(current["line"], f"position {current['ident']} has no perft line")
        entries.append(
            Entry(
                variant,
                current["ident"],
                current["fen"],
                current["chess960"],
                tuple(current["accept"]),
                tuple(current["perft"]),
                current["source"],
                current["line"],
            )
        )

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            text = line[1:].strip()
            if text.lower().startswith("source:"):
                source = text[len("source:") :].strip()
                if not source:
                    raise fail(number, "an empty source")
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.strip()
        if keyword not in _KEYWORDS:
            raise fail(number, f"unknown keyword {keyword!r} (expected one of {', '.join(_KEYWORDS)})")
        if keyword == "id":
            close(number)
            if not _ID.fullmatch(rest):
                raise fail(number, f"bad id {rest!r}")
            if not source:
                raise fail(number, "a position before any '# source:' comment")
            current = {"ident": rest, "fen": None, "chess960": False, "accept": [], "perft": [], "source": source,
                       "line": number, "seen": set()}
            continue
        if current is None:
            raise fail(number, f"{keyword} line before the first id line")
        if keyword in current["seen"] and keyword != "perft":
            raise fail(number, f"a second {keyword} line for {current['ident']}")
        if keyword != "perft" and current["perft"]:
            raise fail(number, f"{keyword} line after the perft lines of {current['ident']}")
        if keyword != "fen" and current["fen"] is None:
            raise fail(number, f"{keyword} line before the fen line of {current['ident']}")
        current["seen"].add(keyword)
        if keyword == "fen":
            if not rest:
                raise fail(number, "an empty fen")
            current["fen"] = rest
        elif keyword == "castling":
            if rest != "chess960":
                raise fail(number, f"castling must be 'chess960' (standard is the default), not {rest!r}")
            current["chess960"] = True
        elif keyword == "accept":
            codes = rest.split()
            if not codes or len(set(codes)) != len(codes):
                raise fail(number, "accept needs distinct validation codes")
            current["accept"] = codes
        else:
            fields = rest.split()
            if len(fields) != 2 or not all(f.isdigit() for f in fields):
                raise fail(number, f"expected 'perft DEPTH COUNT', got {line!r}")
            depth, count = int(fields[0]), int(fields[1])
            if depth < 1:
                raise fail(number, "a perft depth is at least 1")
            if current["perft"] and depth <= current["perft"][-1][0]:
                raise fail(number, "perft depths must increase")
            current["perft"].append((depth, count))
    close(0)
    idents = [e.ident for e in entries]
    if len(set(idents)) != len(idents):
        raise TableError(f"{path.name}: repeated ids {sorted({i for i in idents if idents.count(i) > 1})}")
    return entries


TABLE_PATHS = sorted(FIXTURES.glob("*.perft"))


def _load() -> tuple[dict[str, list[Entry]], dict[str, TableError]]:
    tables: dict[str, list[Entry]] = {}
    broken: dict[str, TableError] = {}
    for path in TABLE_PATHS:
        try:
            tables[path.name] = parse_table(path)
        except TableError as exc:  # reported by test_table_parses; its positions are not run
            broken[path.name] = exc
    return tables, broken


TABLES, BROKEN = _load()
ENTRIES = [entry for entries in TABLES.values() for entry in entries]


def _entry_id(entry: Entry) -> str:
    return f"{entry.variant}:{entry.ident}"


def _perft_cases() -> Iterator[object]:
    for entry in ENTRIES:
        for depth, count in entry.perft:
            marks = ()
            if count > NODE_BUDGET:
                reason = (
                    f"perft {depth} of {_entry_id(entry)} is {count:,} nodes, over the node budget of "
                    f"{NODE_BUDGET:,} (raise NOTATION_PERFT_BUDGET to run it)"
                )
                marks = (pytest.mark.skip(reason=reason),)
            yield pytest.param(entry, depth, count, id=f"{_entry_id(entry)}:{depth}", marks=marks)


# --- the format ------------------------------------------------------------------------


def test_every_variant_has_a_table_or_a_reason():
    keys = {variant.key for variant in DEFAULT_REGISTRY}
    files = {path.name.removesuffix(".perft") for path in TABLE_PATHS}
    assert files <= keys, f"tables for no variant of the registry: {sorted(files - keys)}"
    assert not files & set(NO_TABLE), f"both a table and a reason for none: {sorted(files & set(NO_TABLE))}"
    assert keys == files | set(NO_TABLE), f"no table and no reason for: {sorted(keys - files - set(NO_TABLE))}"
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for key in NO_TABLE:
        assert f"`{key}`" in readme, f"README.md does not say why {key} has no table"


@pytest.mark.parametrize("path", TABLE_PATHS, ids=[p.name for p in TABLE_PATHS])
def test_table_parses(path):
    if path.name in BROKEN:
        pytest.fail(str(BROKEN[path.name]))
    entries = TABLES[path.name]
    assert entries, f"{path.name} has no position"
    assert path.read_text(encoding="utf-8").startswith("#"), f"{path.name} must open with a comment naming it"


@pytest.mark.parametrize("entry", ENTRIES, ids=_entry_id)
def test_fen_reads_and_validates(entry):
    parsed = read_fen(entry.fen, entry.variant)
    assert parsed.variant.key == entry.variant
    refused = sorted({p.code for p in validate_fen(entry.fen, entry.variant).errors})
    # ``accept`` names exactly what our validator refuses: no more, so none goes stale.
    assert refused == sorted(entry.accept), f"validator refuses {refused}, table accepts {sorted(entry.accept)}"
    assert validate_fen(entry.fen, entry.variant, accept=entry.accept).valid
    # Chess960 exactly where the table is Chess960's or the rights are ones only Chess960 has.
    assert entry.chess960 == (entry.variant == "chess960" or parsed.dialect.chess960)


def _write(tmp_path, text):
    path = tmp_path / "standard.perft"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = (
    "# source: a test\n\nid a\nfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\ncastling chess960\naccept x y\n"
    "perft 1 5\nperft 3 0\n"
)


def test_parser_reads_every_field(tmp_path):
    (entry,) = parse_table(_write(tmp_path, GOOD))
    assert entry == Entry("standard", "a", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", True, ("x", "y"), ((1, 5), (3, 0)),
                          "a test", 3)
    assert entry.castling_mode() is CastlingMode.CHESS960


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id a\nfen 8/8/8/8/8/8/8/8 w - - 0 1\nperft 1 1\n", "before any '# source:'"),
        ("# source: s\nfen 8/8/8/8/8/8/8/8 w - - 0 1\n", "before the first id"),
        ("# source: s\nid a\nperft 1 1\n", "before the fen line"),
        ("# source: s\nid a\nfen x\n", "has no perft line"),
        ("# source: s\nid a\nfen x\nperft 2 1\nperft 2 3\n", "must increase"),
        ("# source: s\nid a\nfen x\nperft 0 1\n", "at least 1"),
        ("# source: s\nid a\nfen x\nperft 1 -1\n", "expected 'perft DEPTH COUNT'"),
        ("# source: s\nid a\nfen x\nperft 1 1\ncastling chess960\n", "after the perft lines"),
        ("# source: s\nid a\nfen x\ncastling standard\nperft 1 1\n", "castling must be"),
        ("# source: s\nid a\nfen x\nfen y\nperft 1 1\n", "a second fen line"),
        ("# source: s\nid a\nfen x\nepd y\n", "unknown keyword"),
        ("# source: s\nid a\nfen x\nperft 1 1\nid a\nfen y\nperft 1 1\n", "repeated ids"),
    ],
)
def test_parser_refuses(tmp_path, text, message):
    with pytest.raises(TableError, match=re.escape(message)):
        parse_table(_write(tmp_path, text))


# --- the oracles the tables came from ---------------------------------------------------

# python-chess board classes with our rules; its Board in Chess960 mode plays standard
# positions too (as the published suites are run).
PYTHON_CHESS = {
    "standard": "Board", "chess960": "Board", "kingscorner": "Board", "kingsfortress": "Board",
    "crazyhouse": "CrazyhouseBoard", "atomic": "AtomicBoard", "antichess": "AntichessBoard",
    "giveaway": "GiveawayBoard", "suicide": "SuicideBoard", "kingofthehill": "KingOfTheHillBoard",
    "threecheck": "ThreeCheckBoard", "racingkings": "RacingKingsBoard", "horde": "HordeBoard",
}
# Fairy-Stockfish's names for the variants only it counts.
FAIRY = {"losers": "losers", "knightmate": "knightmate", "extinction": "extinction",
         "grasshopper": "grasshopper", "xiangqi": "xiangqi"}


def _python_chess_count(entry: Entry, depth: int) -> int:
    chess = pytest.importorskip("chess")
    variants = pytest.importorskip("chess.variant")
    name = PYTHON_CHESS[entry.variant]
    board = (chess.Board if name == "Board" else getattr(variants, name))(chess960=True)
    try:
        board.set_fen(entry.fen)
    except ValueError:
        board.set_epd(entry.fen)  # four fields and no counters (the suites' EPD lines)

    def count(d: int) -> int:
        if d == 1:
            return board.legal_moves.count()
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += count(d - 1)
            board.pop()
        return total

    return count(depth)


def _fairy_count(entry: Entry, depth: int) -> int:
    pyffish = pytest.importorskip("pyffish")
    name = FAIRY[entry.variant]

    def count(fen: str, d: int) -> int:
        moves = pyffish.legal_moves(name, fen, [])
        if d == 1:
            return len(moves)
        return sum(count(pyffish.get_fen(name, fen, [m], False, False, True), d - 1) for m in moves)

    return count(entry.fen, depth)


def _oracle_cases() -> Iterator[object]:
    for entry in ENTRIES:
        if entry.variant in PYTHON_CHESS:
            budget = ORACLE_BUDGET
        elif entry.variant in FAIRY:
            budget = ORACLE_BUDGET // 10
        else:
            continue
        lines = [(d, n) for d, n in entry.perft if n <= budget and d <= 12]
        if lines:
            yield pytest.param(entry, lines, id=_entry_id(entry))


@pytest.mark.oracle
@pytest.mark.parametrize(("entry", "lines"), list(_oracle_cases()))
def test_counts_agree_with_their_oracle(entry, lines):
    counter = _python_chess_count if entry.variant in PYTHON_CHESS else _fairy_count
    assert [(d, counter(entry, d)) for d, _ in lines] == lines


# --- the move generator ----------------------------------------------------------------


@pytest.mark.parametrize(("entry", "depth", "count"), list(_perft_cases()))
def test_perft(entry, depth, count):
    # Imported here: the format tests above run whether or not the generator is built.
    from notation.game import legal_position, perft

    setup = read_fen(entry.fen, entry.variant).setup
    position = legal_position(setup, entry.variant, castling=entry.castling_mode(), accept=frozenset(entry.accept))
    assert perft(position, depth) == count
