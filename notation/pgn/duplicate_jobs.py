"""``normalize --duplicates ... --jobs N`` and ``--duplicates-by prefix``: the copies found
over the whole input, by one or several processes, before the normalising pass.

Deciding which game is a copy needs the games in input order, in one table; reading each
game's moves for its identity is the work. So with ``--jobs`` the workers read a regular,
uncompressed file's pieces (cut as ``file_jobs`` cuts them: ``pieces.located``,
``ranges.pieces``) and send back, per game, its number within the piece, its first line
and column and its key (``game_key``: 16 bytes); one process reads the file itself. The
parent runs the ``DuplicateFinder`` over them in input order and gives the normalising pass
(``file_jobs.normalize_file_parallel``) the later copies by their first line and column
(``DuplicateSettings.verdicts``), which its workers apply as one process would. The parent
holds the finder (under 200 bytes a distinct game) and the verdicts (some 250 bytes a later
copy). With prefixes (``prefixes``), the parent also records each game's place (36 bytes a
game) and each key's plies and line hash (24 bytes a distinct key), and the workers send
each game's main line (its start's bytes and 5 bytes a move), which waits in a temporary
file until every key is known; each game's moves are read once.

Several inputs (``find_copies_in``) are read one after another into the one finder:
a game is a copy of one in an earlier input, and by prefix of a longer one anywhere; its
verdict is filed under its own input, and names the kept game's input, line and number.

Standard input and compressed files are first copied, as read, into a temporary file
(``spooled``), which the finding and the normalising pass read; it is removed at the end. Raises ``OSError``
reading or writing the files, and what a worker raised.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
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
    DuplicateSettings,
    GameLocation,
    IdentityFrom,
    MergeTags,
    Verdict,
    keyed,
    tag_values,
)
from notation.pgn.games import RawGame
from notation.pgn.identity import IdentityReader
from notation.pgn.merge_tags import MergedTags, TagGatherer, tag_notes
from notation.pgn.normalize import NormalizeOptions
from notation.pgn.prefixes import LongestLines, Occurrences, PrefixLine, PrefixSpool, find_extensions, verdicts
from notation.pgn.splitter import iter_games
from notation.scratch import scratch_file

_SPOOL_BYTES = 1 << 20
Result = TypeVar("Result")


class GameKey(NamedTuple):
    """One game with an identity: its number (within its piece), first line and column, key
    and plies; with prefixes, its main line (``PrefixLine``) and the line's rolling hash."""

    number: int
    line: int
    column: int
    key: bytes
    plies: int
    main_line: PrefixLine | None = None
    whole_hash: int = 0


class PieceKeys(NamedTuple):
    """The games of one piece with an identity, and the number of the piece's last game."""

    games: list[GameKey]
    last_game: int


_worker: tuple[IdentityReader, NormalizeOptions, int] | None = None
_KEYS_HANDED_ON = 256  # games whose keys one process hands on at a time (``_keys_here``)


def _init_worker(options: NormalizeOptions, fd: int) -> None:
    global _worker
    _worker = (_reader(options), options, fd)


def _reader(options: NormalizeOptions) -> IdentityReader:
    return IdentityReader(options.registry, options.accept, budget=options.budget, letters=options.move_letters)


def game_key(game: RawGame, reader: IdentityReader, settings: DuplicateSettings) -> GameKey | None:
    """``game``'s key (None: it has no identity), and with ``--duplicates-by prefix`` its
    main line."""
    values = tag_values(game, settings.by_tags)
    if settings.match is DuplicateMatch.PREFIX:  # never with --identity-from tag: a prefix's digest needs its moves
        line = reader.line(game)
        if line is None:
            return None
        identity = line.identity()
        main_line = PrefixLine(line.start, values, line.moves)
        return GameKey(game.number, game.start_line, game.start_column, keyed(identity.digest, values),
                       identity.plies, main_line, main_line.whole_hash())
    found = reader.identity(game, trust_tag=settings.identity_from is IdentityFrom.TAG)
    if found is None:
        return None
    return GameKey(game.number, game.start_line, game.start_column, keyed(found.digest, values), found.plies)


def keys_of(text: Iterable[str], first_line: int, reader: IdentityReader, options: NormalizeOptions) -> PieceKeys:
    """The keys of the games of ``text`` (a piece whose first line is ``first_line``)."""
    games: list[GameKey] = []
    last = 0
    for game in iter_games(text, options.limits, first_line=first_line):
        last = game.number
        found = game_key(game, reader, options.duplicates)
        if found is not None:
            games.append(found)
    return PieceKeys(games, last)


def _keys_here(fd: int, options: NormalizeOptions, take: Callable[[PieceKeys], None]) -> None:
    """One process: the keys of the file's games read here, handed to ``take`` in input
    order a few hundred games at a time (no worker forked, nothing sent)."""
    reader = _reader(options)
    text = ranges.read_text(ranges.PositionalFile(fd), 0, os.fstat(fd).st_size)  # type: ignore[arg-type]
    games: list[GameKey] = []
    before = last = 0
    for game in iter_games(text, options.limits):
        last = game.number
        found = game_key(game, reader, options.duplicates)
        if found is not None:
            games.append(found._replace(number=found.number - before))
        if len(games) >= _KEYS_HANDED_ON:
            take(PieceKeys(games, last - before))
            games, before = [], last
    take(PieceKeys(games, last - before))


Reading = Callable[[Iterable[str], int, IdentityReader, NormalizeOptions], Result]


def _piece_keys(piece: ranges.Piece) -> PieceKeys:
    return _in_worker(piece, keys_of)


def _in_worker(piece: ranges.Piece, reading: Reading[Result]) -> Result:
    """In a worker: ``reading`` of one piece, read from the shared descriptor."""
    if _worker is None:
        raise RuntimeError("the pieces are read in the pool's workers, which _init_worker set up")
    reader, options, fd = _worker
    with pieces.open_ref(fd) as file:
        return reading(ranges.read_text(file, piece.start, piece.end), piece.first_line, reader, options)


def _over_pieces(fd: int, options: NormalizeOptions, jobs: int, task: Callable[[ranges.Piece], Result],
                 reading: Reading[Result], take: Callable[[Result], None]) -> None:
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

    with running(jobs, _init_worker, (options, fd), ParentRole.WORKS) as workers:
        found = pieces.located(workers, fd, tapered_ranges(size, pieces.RANGE_BYTES, jobs), text_from,
                               ahead=4 * jobs + 2)
        for piece in ranges.pieces(found, size):
            if piece.end - piece.start > longest:
                taken(window.drain())
                text = ranges.read_text(ranges.PositionalFile(fd), piece.start, piece.end)  # type: ignore[arg-type]
                take(reading(text, piece.first_line, _reader(options), options))
                continue
            window.put(piece, workers.apply_async(task, (piece,)))
            taken(window.ready())
        taken(window.drain())


def find_copies(fd: int, options: NormalizeOptions, jobs: int) -> dict[tuple[int, int], Verdict]:
    """The games of the file open as ``fd`` (regular, uncompressed; read with ``os.pread``)
    that are copies, by (first line, first column), each with the game kept of its set
    (``find_copies_in`` of that one input)."""
    return find_copies_in([(options.duplicates.source, fd)], options, jobs)[0]


class KeysTaken:
    """The deciding side of the finding pass (here, or the command of a cluster run): each
    piece's keys taken in input order (``take``), one finder over every input. Without
    prefixes a copy is decided as it comes; with them, every game's place is recorded and
    its main line spooled, and ``decided`` says at the end. A ``with`` block holds the
    spool. Memory: the finder (under 200 bytes a distinct key); with prefixes 36 bytes a
    game and 24 a distinct key more (``prefixes``), and on disk 32 bytes a game, its start's
    bytes and 5 bytes a move."""

    def __init__(self, prefixes: bool) -> None:
        self.finder = DuplicateFinder()
        self._occurrences = Occurrences()
        self._longest = LongestLines()
        self._spool = PrefixSpool() if prefixes else None

    def __enter__(self) -> KeysTaken:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._spool is not None:
            self._spool.__exit__(None, None, None)

    def take(self, found: PieceKeys, source: str, games_before: int, group: int) -> dict[tuple[int, int], Verdict]:
        """The copies among ``found``'s games (of input ``source``, after its ``games_before``
        games; filed under ``group``) decided now: none with prefixes."""
        copies: dict[tuple[int, int], Verdict] = {}
        spool = self._spool
        for game in found.games:
            where = GameLocation(source, game.line, games_before + game.number)
            if spool is not None and game.main_line is not None:
                index = self.finder.add(game.key, where)
                self._longest.add(index, game.plies, game.whole_hash)
                self._occurrences.add(game.line, game.column, where.number, index, group)
                spool.add(index, game.main_line)
                continue
            first = self.finder.first(game.key, where)
            if first is not None:
                copies[(game.line, game.column)] = Verdict(first)
        return copies

    def decided(self, source_of: Callable[[int], str] | None) -> dict[int, dict[tuple[int, int], Verdict]]:
        """With prefixes, once every piece is taken: the copies by group (``prefixes.verdicts``;
        ``source_of(group)``, the group's input's name, None for one input)."""
        if self._spool is None:
            return {}
        find_extensions(self._spool, self.finder, self._longest)
        return verdicts(self._occurrences, self.finder, self._longest, source_of)


def find_copies_in(inputs: Sequence[tuple[str, int]], options: NormalizeOptions,
                   jobs: int) -> list[dict[tuple[int, int], Verdict]]:
    """Per input (its name, and a descriptor as ``find_copies`` reads it), in the order
    given: the games that are copies of a game in it or in an input before or (by prefix)
    after it, by (first line, first column), each with the game kept of its set; ``jobs``
    processes read the identities, the parent one of them. Games are numbered within their
    input. With prefixes (``DuplicateMatch.PREFIX``), each game's main line waits in a
    temporary file (``PrefixSpool``) until every key is known, then its prefixes are looked
    up (``KeysTaken``)."""
    settings = options.duplicates
    prefixes = settings.match is DuplicateMatch.PREFIX
    copies: list[dict[tuple[int, int], Verdict]] = [{} for _ in inputs]
    with KeysTaken(prefixes) as taken:
        for group, (source, fd) in enumerate(inputs):
            games_before = 0

            def decide(found: PieceKeys, group: int = group, source: str = source) -> None:
                nonlocal games_before
                copies[group].update(taken.take(found, source, games_before, group))
                games_before += found.last_game

            named = options.with_changes(duplicates=settings._replace(source=source))
            if jobs < 2:
                _keys_here(fd, named, decide)
            else:
                _over_pieces(fd, named, jobs, _piece_keys, keys_of, decide)
        if not prefixes:
            return copies
        names = [source for source, _fd in inputs]
        found = taken.decided(names.__getitem__ if len(names) > 1 else None)
    return [found.get(group, {}) for group in range(len(inputs))]


def with_copies(options: NormalizeOptions, fd: int, jobs: int) -> NormalizeOptions:
    """``options`` whose duplicate settings carry the copies ``find_copies`` finds and,
    with ``MergeTags.MISSING``, the tags each game kept takes from them (``merge_tags``)."""
    return with_copies_in(options, [(options.duplicates.source, fd)], jobs)[0]


def with_copies_in(options: NormalizeOptions, inputs: Sequence[tuple[str, int]], jobs: int) -> list[NormalizeOptions]:
    """Per input (its name and descriptor, as ``find_copies_in`` takes them): ``options``
    whose duplicate settings name it and carry its copies and, with ``MergeTags.MISSING``,
    the tags each game kept in it takes from its copies in any input (``merge_tags``: one
    more pass over the inputs, splitting their games only)."""
    settings = options.duplicates
    copies = find_copies_in(inputs, options, jobs)
    merged: dict[int, dict[tuple[int, int], MergedTags]] = {}
    if settings.merge is not MergeTags.NONE:
        gatherer = TagGatherer(verdict.kept for found in copies for verdict in found.values())
        for group, (source, fd) in enumerate(inputs):
            text = ranges.read_text(ranges.PositionalFile(fd), 0, os.fstat(fd).st_size)  # type: ignore[arg-type]
            for note in tag_notes(text, options.limits, copies[group], source, gatherer):
                gatherer.take(note, group)
        merged = gatherer.merged()
    return [options.with_changes(duplicates=settings._replace(source=source, verdicts=copies[group],
                                                          merged=merged.get(group, {})
                                                          if settings.merge is not MergeTags.NONE else None))
            for group, (source, _fd) in enumerate(inputs)]


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
    with scratch_file("notation-duplicates-") as spool:
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
