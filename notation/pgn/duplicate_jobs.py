"""``normalize --duplicates ... --jobs N``: the copies found by several processes, before the
normalising pass.

Deciding which game is a copy needs the games in input order, in one table; reading each
game's moves for its identity is the work. So the workers read a regular, uncompressed
file's pieces (cut as ``file_jobs`` cuts them: ``pieces.located``, ``ranges.pieces``) and
send back, per game, its number within the piece, its first line and column and its key
(``duplicates.game_key``: 16 bytes); the parent runs the ``DuplicateFinder`` over them in
input order and gives the normalising pass (``file_jobs.normalize_file_parallel``) the
later copies by their first line and column (``DuplicateSettings.verdicts``), which its
workers apply as one process would. The parent holds the finder (under 200 bytes a
distinct game) and the verdicts (some 250 bytes a later copy).

Standard input and compressed files are first copied, as read, into a temporary file
(``spooled``), which both passes read; it is removed at the end. Raises ``OSError``
reading or writing the files, and what a worker raised.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import NamedTuple

from notation.inputs import ENCODING, ERRORS
from notation.parallel.fork_pool import ParentRole
from notation.parallel.ordered import InOrder
from notation.parallel.pieces import tapered_ranges
from notation.parallel.pool import running
from notation.pgn import pieces, ranges
from notation.pgn.duplicates import DuplicateFinder, GameLocation, game_key
from notation.pgn.identity import IdentityReader
from notation.pgn.normalize import NormalizeOptions
from notation.pgn.splitter import iter_games

_SPOOL_BYTES = 1 << 20


class PieceKeys(NamedTuple):
    """The games of one piece with an identity: (number within the piece, first line,
    first column, key), and the number of the piece's last game."""

    games: list[tuple[int, int, int, bytes]]
    last_game: int


_worker: tuple[IdentityReader, NormalizeOptions, int] | None = None


def _init_worker(options: NormalizeOptions, fd: int) -> None:
    global _worker
    _worker = (_reader(options), options, fd)


def _reader(options: NormalizeOptions) -> IdentityReader:
    return IdentityReader(options.registry, options.accept, budget=options.budget, letters=options.move_letters)


def _keys_of(text: Iterable[str], first_line: int, reader: IdentityReader, options: NormalizeOptions) -> PieceKeys:
    games: list[tuple[int, int, int, bytes]] = []
    last = 0
    for game in iter_games(text, options.limits, first_line=first_line):
        last = game.number
        identity = reader.identity(game)
        if identity is not None:
            games.append((game.number, game.start_line, game.start_column,
                          game_key(identity, game, options.duplicates.by_tags)))
    return PieceKeys(games, last)


def _piece_keys(piece: ranges.Piece) -> PieceKeys:
    """In a worker: the keys of one piece's games, read from the shared descriptor."""
    if _worker is None:
        raise RuntimeError("_piece_keys runs in the pool's workers, which _init_worker set up")
    reader, options, fd = _worker
    with pieces.open_ref(fd) as file:
        return _keys_of(ranges.read_text(file, piece.start, piece.end), piece.first_line, reader, options)


def find_copies(fd: int, options: NormalizeOptions, jobs: int) -> dict[tuple[int, int], GameLocation]:
    """The later copies of the file open as ``fd`` (regular, uncompressed; read with
    ``os.pread``), by (first line, first column), each with where its first copy is;
    ``jobs`` processes read the identities, the parent one of them."""
    size = os.fstat(fd).st_size
    text_from = ranges.first_text(ranges.PositionalFile(fd))  # type: ignore[arg-type]
    finder = DuplicateFinder()
    copies: dict[tuple[int, int], GameLocation] = {}
    source = options.duplicates.source
    games_before = 0

    def decide(found: PieceKeys) -> None:
        nonlocal games_before
        for number, line, column, key in found.games:
            first = finder.first(key, GameLocation(source, line, games_before + number))
            if first is not None:
                copies[(line, column)] = first
        games_before += found.last_game

    window: InOrder[ranges.Piece, PieceKeys] = InOrder(4 * jobs)
    with running(jobs, _init_worker, (options, fd), ParentRole.WORKS) as workers:
        found = pieces.located(workers, fd, tapered_ranges(size, pieces.RANGE_BYTES, jobs), text_from,
                               ahead=4 * jobs + 2)
        for piece in ranges.pieces(found, size):
            if piece.end - piece.start > max(pieces.RANGE_BYTES, pieces.LONGEST_PIECE_BYTES):
                for _piece, keys in window.drain():
                    assert keys is not None
                    decide(keys)
                text = ranges.read_text(ranges.PositionalFile(fd), piece.start, piece.end)  # type: ignore[arg-type]
                decide(_keys_of(text, piece.first_line, _reader(options), options))
                continue
            window.put(piece, workers.apply_async(_piece_keys, (piece,)))
            for _piece, keys in window.ready():
                assert keys is not None
                decide(keys)
        for _piece, keys in window.drain():
            assert keys is not None
            decide(keys)
    return copies


def with_copies(options: NormalizeOptions, fd: int, jobs: int) -> NormalizeOptions:
    """``options`` whose duplicate settings carry the copies ``find_copies`` finds."""
    return replace(options, duplicates=replace(options.duplicates, verdicts=find_copies(fd, options, jobs)))


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
