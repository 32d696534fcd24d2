"""``normalize --duplicates ... --jobs N`` and ``--duplicates-by prefix``: the copies found
over the whole input, by one or several processes, before the normalising pass.

Deciding which game is a copy needs the games in input order, in one table; reading each
game's moves for its identity is the work. So the workers read a regular, uncompressed
file's pieces (cut as ``file_jobs`` cuts them: ``pieces.located``, ``ranges.pieces``) and
send back, per game, its number within the piece, its first line and column and its key
(``duplicates.game_key``: 16 bytes); the parent runs the ``DuplicateFinder`` over them in
input order and gives the normalising pass (``file_jobs.normalize_file_parallel``) the
later copies by their first line and column (``DuplicateSettings.verdicts``), which its
workers apply as one process would. The parent holds the finder (under 200 bytes a
distinct game) and the verdicts (some 250 bytes a later copy). With prefixes
(``prefixes``), the first pass also records each game's place and plies (32 bytes a game,
16 a distinct key) and a second pass walks every main line again, looking its prefixes'
keys up in the finder, which the forked workers share.

Standard input and compressed files are first copied, as read, into a temporary file
(``spooled``), which both passes read; it is removed at the end. Raises ``OSError``
reading or writing the files, and what a worker raised.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import NamedTuple, TypeVar

from notation.inputs import ENCODING, ERRORS
from notation.parallel.fork_pool import ParentRole
from notation.parallel.ordered import InOrder
from notation.parallel.pieces import tapered_ranges
from notation.parallel.pool import running
from notation.pgn import pieces, ranges
from notation.pgn.duplicates import (
    DuplicateFinder,
    DuplicateMatch,
    GameLocation,
    IdentityFrom,
    MergeTags,
    Verdict,
    game_key,
    keyed,
    tag_values,
)
from notation.pgn.identity import IdentityReader
from notation.pgn.merge_tags import merged_tags
from notation.pgn.normalize import NormalizeOptions
from notation.pgn.prefixes import LongestLines, Occurrences, verdicts
from notation.pgn.splitter import iter_games

_SPOOL_BYTES = 1 << 20
Result = TypeVar("Result")


class PieceKeys(NamedTuple):
    """The games of one piece with an identity: (number within the piece, first line,
    first column, key, plies), and the number of the piece's last game."""

    games: list[tuple[int, int, int, bytes, int]]
    last_game: int


_worker: tuple[IdentityReader, NormalizeOptions, int, DuplicateFinder | None] | None = None


def _init_worker(options: NormalizeOptions, fd: int, finder: DuplicateFinder | None) -> None:
    global _worker
    _worker = (_reader(options), options, fd, finder)


def _reader(options: NormalizeOptions) -> IdentityReader:
    return IdentityReader(options.registry, options.accept, budget=options.budget, letters=options.move_letters)


def keys_of(text: Iterable[str], first_line: int, reader: IdentityReader, options: NormalizeOptions,
             finder: DuplicateFinder | None) -> PieceKeys:
    games: list[tuple[int, int, int, bytes, int]] = []
    last = 0
    for game in iter_games(text, options.limits, first_line=first_line):
        last = game.number
        identity = reader.identity(game, trust_tag=options.duplicates.identity_from is IdentityFrom.TAG)
        if identity is not None:
            games.append((game.number, game.start_line, game.start_column,
                          game_key(identity, game, options.duplicates.by_tags), identity.plies))
    return PieceKeys(games, last)


def _prefixes_of(text: Iterable[str], first_line: int, reader: IdentityReader, options: NormalizeOptions,
                 finder: DuplicateFinder | None) -> list[tuple[int, int]]:
    """(key number of a prefix, key number of the game it starts) for each prefix of each
    game's main line that is a key ``finder`` numbered."""
    assert finder is not None, "the prefix pass looks keys up in the first pass's finder"
    pairs: list[tuple[int, int]] = []
    for game in iter_games(text, options.limits, first_line=first_line):
        prefixes: list[bytes] = []
        identity = reader.identity(game, prefixes.append)
        if identity is None:
            continue
        values = tag_values(game, options.duplicates.by_tags)
        own = finder.index_of(keyed(identity.digest, values))
        if own is None:
            continue
        for digest in prefixes:
            index = finder.index_of(keyed(digest, values))
            if index is not None:
                pairs.append((index, own))
    return pairs


Reading = Callable[[Iterable[str], int, IdentityReader, NormalizeOptions, DuplicateFinder | None], Result]


def _piece_keys(piece: ranges.Piece) -> PieceKeys:
    return _in_worker(piece, keys_of)


def _piece_prefixes(piece: ranges.Piece) -> list[tuple[int, int]]:
    return _in_worker(piece, _prefixes_of)


def _in_worker(piece: ranges.Piece, reading: Reading[Result]) -> Result:
    """In a worker: ``reading`` of one piece, read from the shared descriptor."""
    if _worker is None:
        raise RuntimeError("the pieces are read in the pool's workers, which _init_worker set up")
    reader, options, fd, finder = _worker
    with pieces.open_ref(fd) as file:
        return reading(ranges.read_text(file, piece.start, piece.end), piece.first_line, reader, options, finder)


def _over_pieces(fd: int, options: NormalizeOptions, jobs: int, task: Callable[[ranges.Piece], Result],
                 reading: Reading[Result], take: Callable[[Result], None],
                 finder: DuplicateFinder | None = None) -> None:
    """``task`` run on each piece of the file by ``jobs`` processes (the parent one of them),
    its results handed to ``take`` in input order; a piece too long to hand out is read
    here by ``reading``."""
    size = os.fstat(fd).st_size
    text_from = ranges.first_text(ranges.PositionalFile(fd))  # type: ignore[arg-type]
    longest = max(pieces.RANGE_BYTES, pieces.LONGEST_PIECE_BYTES)
    window: InOrder[ranges.Piece, Result] = InOrder(4 * jobs)

    def taken(done: Iterable[tuple[ranges.Piece, Result | None]]) -> None:
        for _piece, result in done:
            assert result is not None, "every piece in the window is handed to a worker"
            take(result)

    with running(jobs, _init_worker, (options, fd, finder), ParentRole.WORKS) as workers:
        found = pieces.located(workers, fd, tapered_ranges(size, pieces.RANGE_BYTES, jobs), text_from,
                               ahead=4 * jobs + 2)
        for piece in ranges.pieces(found, size):
            if piece.end - piece.start > longest:
                taken(window.drain())
                text = ranges.read_text(ranges.PositionalFile(fd), piece.start, piece.end)  # type: ignore[arg-type]
                take(reading(text, piece.first_line, _reader(options), options, finder))
                continue
            window.put(piece, workers.apply_async(task, (piece,)))
            taken(window.ready())
        taken(window.drain())


def find_copies(fd: int, options: NormalizeOptions, jobs: int) -> dict[tuple[int, int], Verdict]:
    """The games of the file open as ``fd`` (regular, uncompressed; read with ``os.pread``)
    that are copies, by (first line, first column), each with the game kept of its set;
    ``jobs`` processes read the identities, the parent one of them. With prefixes
    (``DuplicateMatch.PREFIX``), a second pass walks the main lines again (``prefixes``)."""
    settings = options.duplicates
    prefixes = settings.match is DuplicateMatch.PREFIX
    finder = DuplicateFinder()
    occurrences = Occurrences()
    longest = LongestLines()
    copies: dict[tuple[int, int], Verdict] = {}
    games_before = 0

    def decide(found: PieceKeys) -> None:
        nonlocal games_before
        for number, line, column, key, plies in found.games:
            where = GameLocation(settings.source, line, games_before + number)
            if prefixes:
                index = finder.add(key, where)
                longest.add(index, plies)
                occurrences.add(line, column, where.number, index)
                continue
            first = finder.first(key, where)
            if first is not None:
                copies[(line, column)] = Verdict(first)
        games_before += found.last_game

    def extend(pairs: list[tuple[int, int]]) -> None:
        for prefix, by in pairs:
            longest.extended(prefix, by)

    _over_pieces(fd, options, jobs, _piece_keys, keys_of, decide)
    if not prefixes:
        return copies
    _over_pieces(fd, options, jobs, _piece_prefixes, _prefixes_of, extend, finder)
    return verdicts(occurrences, finder, longest)


def with_copies(options: NormalizeOptions, fd: int, jobs: int) -> NormalizeOptions:
    """``options`` whose duplicate settings carry the copies ``find_copies`` finds and,
    with ``MergeTags.MISSING``, the tags each game kept takes from them (``merge_tags``)."""
    settings = options.duplicates
    copies = find_copies(fd, options, jobs)
    merged = None
    if settings.merge is not MergeTags.NONE:
        text = ranges.read_text(ranges.PositionalFile(fd), 0, os.fstat(fd).st_size)  # type: ignore[arg-type]
        merged = merged_tags(text, options.limits, copies, settings.source)
    return replace(options, duplicates=replace(settings, verdicts=copies, merged=merged))


@contextlib.contextmanager
def readable(path: str, blocks: Iterable[str], compressed: bool) -> Iterator[int]:
    """A descriptor both passes can read at any offset: ``path`` itself when it is a
    regular, uncompressed file, else a temporary copy of its text (``spooled``)."""
    if path != "-" and not compressed:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    yield fd
                    return
            finally:
                os.close(fd)
    with spooled(blocks) as fd:
        yield fd


@contextlib.contextmanager
def spooled(blocks: Iterable[str]) -> Iterator[int]:
    """A descriptor of a temporary file holding ``blocks`` (the text of standard input or a
    compressed file, as read: the same bytes), removed when the block ends."""
    with tempfile.TemporaryFile(prefix="notation-duplicates-") as spool:
        pending: list[bytes] = []
        held = 0
        for block in blocks:
            pending.append(block.encode(ENCODING, ERRORS))
            held += len(pending[-1])
            if held >= _SPOOL_BYTES:
                spool.write(b"".join(pending))
                pending, held = [], 0
        spool.write(b"".join(pending))
        spool.flush()
        yield spool.fileno()
