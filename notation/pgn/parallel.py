"""Normalising with several processes, keeping the input order.

The parent does no splitting: it cuts the decoded text into chunks of about
``CHUNK_CHARS`` at points where the splitter, run over the whole text, starts a new game
from a fresh state: an empty line, then a well-formed tag line of at most
``state_machine.PIECE_CHARS`` characters at the start of the next line, with some text that is
not blank before it (``splitter.iter_games`` ends any game there, even one inside an
unterminated or multi-line comment; a blank stretch at the very start of the input belongs
to the first game). Workers split and normalise their chunk, numbering lines from the
chunk's first line (which the parent counts as it cuts); the parent renumbers games by the
chunks before and yields the results in input order. At most ``2 * jobs`` chunks are in
flight.

A stretch with no cut point longer than ``LONGEST_CHUNK_CHARS`` (degenerate input: one huge
game, millions of lines with no tags, no line ends at all) is not held whole: the parent
normalises it itself as it reads it, after the chunks before it, so memory stays bounded
whatever the input and the results are those of one process.

``find_cut`` is the rule ``ranges`` uses too, to cut files into byte ranges for other
machines at the same points, and for workers that read a regular file themselves
(``file_parallel``): this module serves what cannot be entered in the middle (standard
input, pipes, compressed files). The pool is ``pool.start_pool``'s.

Raises nothing on bad input (see ``normalize``); a worker that dies raises the pool's
error in the parent.
"""

from __future__ import annotations

import re
from array import array
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult, Pool

from notation.pgn import state_machine
from notation.pgn.lines import line_breaks
from notation.pgn.normalize import GameResult, NormalizeOptions, Normalizer, normalize
from notation.pgn.pool import finish_pool, start_pool, stop_pool
from notation.pgn.splitter import iter_games

CHUNK_CHARS = 1 << 20
LONGEST_CHUNK_CHARS = 4 << 20

# A line break, an empty line, then a tag line: where a chunk may start. The tag line must
# be whole (its line end seen) and well formed, as the splitter itself requires; group 1
# is the tag line without its ending. No escape before a CR or LF: those end the line.
_CUT = re.compile(
    r'\n\r?\n(?=(\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\[^\r\n])*"\][ \t]*)(?:\r\n|\r|\n))'
)
# How far back from the end of the text read so far a cut point may still begin: its line
# break, empty line and tag line of at most state_machine.PIECE_CHARS characters.
_LOOK_BACK = 8

_worker: Normalizer | None = None


def _init_worker(options: NormalizeOptions) -> None:
    global _worker
    _worker = Normalizer(options)


# Per game, in the compact form a worker sends back: the length of its input text, then
# GameResult's number, part, start_line and counted, and whether its text is the input's.
_FIELDS = 6

_DEFAULT_OPTIONS = NormalizeOptions()


def _work(chunk: str, first_line: int) -> tuple[array[int], dict[int, GameResult]]:
    """Each game's input length and plain fields, in one array (cheap to send and to hold,
    however many games), and the full results of the games that need one (changed,
    rejected or reported), by index. A result whose text is the input's is sent without it
    (``""``): the parent cuts it from the chunk it already holds."""
    plain = array("q")
    full: dict[int, GameResult] = {}
    worker = _worker
    if worker is None:
        raise RuntimeError("_work runs in the pool's workers, which _init_worker set up")
    for index, game in enumerate(iter_games(chunk, worker.options.limits, first_line=first_line)):
        result = worker.normalize_game(game)
        same_text = result.text == game.text
        plain.extend((len(game.text), result.number, result.part, result.start_line, result.counted, same_text))
        if result.changed or result.rejected or result.report or result.codes or not same_text:
            if same_text:
                result.text = ""  # not sent: the parent cuts it from its chunk
            full[index] = result
    return plain, full


@dataclass
class Stretch:
    """Text with no cut point for longer than a chunk may be: its pieces, read lazily from
    the input. Read them all (or drop the stretch) before asking ``cut_chunks`` for more."""

    pieces: Iterator[str]


def find_cut(buffer: str, start: int, seen_text: bool) -> int:
    """The first cut point at or after ``start`` in ``buffer``, or -1. ``seen_text``: the
    text before ``buffer`` is not all blank."""
    limit = state_machine.PIECE_CHARS
    found = _CUT.search(buffer, start)
    while found is not None:
        cut = found.end()
        if len(found.group(1)) <= limit and (seen_text or not _blank(buffer, cut)):
            return cut
        found = _CUT.search(buffer, found.start() + 1)
    return -1


def _blank(text: str, end: int) -> bool:
    """True when ``text[:end]`` is empty or white space only (the splitter's blank)."""
    return not text[:end].strip()


def scan_from(length: int) -> int:
    """Where to resume looking for a cut point in a text that had ``length`` characters
    when last searched: a cut point found now may begin that far back."""
    return max(0, length - state_machine.PIECE_CHARS - _LOOK_BACK)


def cut_chunks(
    blocks: Iterable[str], size: int = CHUNK_CHARS, longest: int = LONGEST_CHUNK_CHARS
) -> Iterator[str | Stretch]:
    """The text of ``blocks`` in chunks of at least ``size`` characters (but the last),
    each cut just before a game start that the splitter run over the whole text agrees on.
    Where no such point comes within ``longest`` characters, a ``Stretch`` is yielded: the
    text up to the next cut point (or the end), read lazily. Joined, the chunks and
    stretches are the text exactly; memory holds about ``longest`` plus a block."""
    blocks = _joined(blocks, state_machine.PIECE_CHARS)
    buffer = ""
    scanned = 0  # no cut point begins before this offset of buffer
    seen_text = False  # the text before buffer is not all blank
    exhausted = False
    while True:
        if len(buffer) >= size:
            cut = find_cut(buffer, max(size - 1, scanned), seen_text)
            if cut >= 0:
                seen_text = seen_text or not _blank(buffer, cut)
                yield buffer[:cut]
                buffer, scanned = buffer[cut:], 0
                continue
            scanned = scan_from(len(buffer))
        if exhausted:
            if buffer:
                yield buffer
            return
        if len(buffer) >= longest:
            # no cut point within longest characters: hand the text on lazily up to the next
            state: dict = {"rest": "", "exhausted": False}
            yield Stretch(_stretch(buffer, blocks, seen_text, state))
            seen_text = True  # a stretch ends at a cut point, after text that is not blank
            buffer, exhausted, scanned = state["rest"], state["exhausted"], 0
            continue
        block = next(blocks, None)
        if block is None:
            exhausted = True
        else:
            buffer += block


def _stretch(buffer: str, blocks: Iterator[str], seen_text: bool, state: dict) -> Iterator[str]:
    """Pieces of text from ``buffer`` on, up to the next cut point; what follows it is left
    in ``state["rest"]`` (``state["exhausted"]``: the input ended there)."""
    keep = state_machine.PIECE_CHARS + _LOOK_BACK  # a cut point may begin this far from the end
    scanned = 0
    while True:
        cut = find_cut(buffer, scanned, seen_text)
        if cut > 0:
            yield buffer[:cut]
            state["rest"] = buffer[cut:]
            return
        block = next(blocks, None)
        if block is None:
            state["exhausted"] = True
            yield buffer
            return
        if len(buffer) > keep:
            done = len(buffer) - keep
            seen_text = seen_text or not _blank(buffer, done)
            yield buffer[:done]
            buffer = buffer[done:]
        buffer += block
        scanned = scan_from(len(buffer) - len(block))


def _joined(blocks: Iterable[str], at_least: int) -> Iterator[str]:
    """The text of ``blocks`` in blocks of ``at_least`` to ``5 * at_least`` characters (but
    the last): looking back for a cut point after each block costs no more than the block,
    and cutting a chunk off the text held copies no more than a few blocks."""
    batch: list[str] = []
    length = 0
    for block in _sliced(blocks, 4 * at_least):
        batch.append(block)
        length += len(block)
        if length >= at_least:
            yield "".join(batch)
            batch, length = [], 0
    if batch:
        yield "".join(batch)


def _sliced(blocks: Iterable[str], most: int) -> Iterator[str]:
    """``blocks``, those longer than ``most`` characters cut into slices of ``most``."""
    for block in blocks:
        if len(block) <= most:
            yield block
        else:
            yield from (block[start:start + most] for start in range(0, len(block), most))


def normalize_blocks_parallel(
    blocks: Iterable[str], options: NormalizeOptions = _DEFAULT_OPTIONS, jobs: int = 2, *,
    chunk_chars: int | None = None, longest_chunk_chars: int | None = None,
) -> Iterator[GameResult]:
    """Like ``normalize`` over the text of ``blocks``, on ``jobs`` processes; the same
    results, in order. ``chunk_chars`` and ``longest_chunk_chars`` default to
    ``CHUNK_CHARS`` and ``LONGEST_CHUNK_CHARS`` (read when called)."""
    if jobs <= 1:
        yield from normalize(blocks, options)
        return
    size = CHUNK_CHARS if chunk_chars is None else chunk_chars
    longest = LONGEST_CHUNK_CHARS if longest_chunk_chars is None else longest_chunk_chars
    pending: deque[tuple[str, AsyncResult[tuple[array[int], dict[int, GameResult]]]]] = deque()
    games_before = [0]  # games in the chunks already collected
    first_line = 1
    local: Normalizer | None = None
    workers, signals = start_pool(jobs, _init_worker, (options,))
    running: Pool | None = workers
    try:
        for chunk in cut_chunks(blocks, size, max(size, longest)):
            if isinstance(chunk, Stretch):
                while pending:
                    yield from _collect(*pending.popleft(), games_before)
                local = local or Normalizer(options)
                counter = _LineCounter(chunk.pieces)
                yield from _serial(local, counter, options, first_line, games_before)
                first_line += counter.breaks
                continue
            pending.append((chunk, workers.apply_async(_work, (chunk, first_line))))
            first_line += line_breaks(chunk)
            while len(pending) >= 2 * jobs:
                yield from _collect(*pending.popleft(), games_before)
        while pending:
            yield from _collect(*pending.popleft(), games_before)
        finish_pool(workers)
        running = None
    finally:
        if running is not None:  # stopped early (an error, a signal, the consumer went away)
            stop_pool(running, signals)


class _LineCounter:
    """Passes pieces of text on, counting the line breaks in them (a CR LF cut in two once)."""

    def __init__(self, pieces: Iterator[str]):
        self.pieces = pieces
        self.breaks = 0

    def __iter__(self) -> Iterator[str]:
        last = ""
        for piece in self.pieces:
            self.breaks += line_breaks(piece)
            if last == "\r" and piece.startswith("\n"):
                self.breaks -= 1
            if piece:
                last = piece[-1]
            yield piece


def _serial(normalizer: Normalizer, pieces: Iterable[str], options: NormalizeOptions, first_line: int,
            games_before: list[int]) -> Iterator[GameResult]:
    """Normalise a stretch in this process, numbered after the games before it."""
    offset = games_before[0]
    last = 0
    for game in iter_games(pieces, options.limits, first_line=first_line):
        result = normalizer.normalize_game(game)
        last = result.number
        _shift(result, offset)
        yield result
    games_before[0] = offset + last


def _shift(result: GameResult, offset: int) -> None:
    if offset:
        result.number += offset
        for entry in result.report:
            entry["game"] += offset


def _collect(
    chunk: str, async_result: AsyncResult[tuple[array[int], dict[int, GameResult]]], games_before: list[int]
) -> Iterator[GameResult]:
    """A chunk's results, numbered after the games of the chunks before it (lines are
    already right: the worker numbered them from the chunk's first line)."""
    offset = games_before[0]
    last = 0
    position = 0
    plain, full = async_result.get()
    for index in range(len(plain) // _FIELDS):
        length, number, part, start_line, counted, same_text = plain[index * _FIELDS:(index + 1) * _FIELDS]
        text = chunk[position:position + length]
        position += length
        result = full.pop(index, None)
        if result is None:
            result = GameResult(number, part, start_line, text, counted=bool(counted))
        elif same_text:
            result.text = text
        last = number
        _shift(result, offset)
        yield result
    games_before[0] = offset + last
