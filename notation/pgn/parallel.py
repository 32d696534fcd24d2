"""Normalising with several processes, keeping the input order.

The parent does no splitting: it cuts the decoded text into chunks of about
``CHUNK_CHARS`` at points where the splitter, run over the whole text, starts a new game
from a fresh state: an empty line, then a well-formed tag line of at most
``state_machine.PIECE_CHARS`` characters at the start of the next line, with some text that is
not blank before it (``splitter.iter_games`` ends any game there, even one inside an
unterminated or multi-line comment; a blank stretch at the very start of the input belongs
to the first game). Workers split and normalise their chunk, numbering lines from the
chunk's first line (which the parent counts as it cuts), and send back one ``Batch`` a
chunk; the games written as they were read come back as spans of the chunk, which the
parent already holds, so neither their text nor a record per game crosses the pipe. The
parent renumbers games by the chunks before and yields the batches in input order. At
most ``2 * jobs`` chunks are in flight.

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
from typing import Any

from notation.inputs import ENCODING, ERRORS
from notation.pgn import state_machine
from notation.pgn.batch import Batch, game_batches, numbered
from notation.pgn.lines import line_breaks
from notation.pgn.normalize import NormalizeOptions, Normalizer, Summary, normalize
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


_DEFAULT_OPTIONS = NormalizeOptions()


def _work(chunk: str, first_line: int) -> tuple[Batch, array[int], list[str]]:
    """In a worker: the chunk's games as a batch numbered from 1, its ``text`` left empty
    and described by ``spans`` instead, pairs of numbers: ``(start, end)``, text of the
    chunk itself (a run of games written as they were read makes one span, so the parent
    handles a chunk, not each game; it cuts the text from the chunk it already holds, which
    is not sent back), or ``(-1, i)``, ``texts[i]``, a game's new text."""
    worker = _worker
    if worker is None:
        raise RuntimeError("_work runs in the pool's workers, which _init_worker set up")
    summary = Summary()
    report: list[dict[str, Any]] = []
    rejected: list[str] = []
    spans = array("q")
    texts: list[str] = []
    position = last = chars = 0
    for game in iter_games(chunk, worker.options.limits, first_line=first_line):
        result = worker.normalize_game(game)
        summary.add(result)
        last = result.number
        chars += len(result.text)
        report.extend(result.report)
        end = position + len(game.text)
        if result.rejected:
            rejected.append(result.text)
        elif result.text != game.text:
            spans.extend((-1, len(texts)))
            texts.append(result.text)
        elif spans and spans[-2] >= 0 and spans[-1] == position:
            spans[-1] = end
        else:
            spans.extend((position, end))
        position = end
    batch = Batch(b"", "".join(rejected).encode(ENCODING, ERRORS), report, summary, 0, last, chars)
    return batch, spans, texts


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
) -> Iterator[Batch]:
    """``normalize`` over the text of ``blocks`` on ``jobs`` processes, as batches in input
    order: the same output, rejects, report and counts as one process. ``chunk_chars`` and
    ``longest_chunk_chars`` default to ``CHUNK_CHARS`` and ``LONGEST_CHUNK_CHARS`` (read
    when called)."""
    if jobs <= 1:
        yield from game_batches(normalize(blocks, options), [0])
        return
    size = CHUNK_CHARS if chunk_chars is None else chunk_chars
    longest = LONGEST_CHUNK_CHARS if longest_chunk_chars is None else longest_chunk_chars
    pending: deque[tuple[str, AsyncResult[tuple[Batch, array[int], list[str]]]]] = deque()
    games_before = [0]  # games in the chunks already collected
    first_line = 1
    local: Normalizer | None = None
    workers, signals = start_pool(jobs, _init_worker, (options,))
    running: Pool | None = workers
    try:
        for chunk in cut_chunks(blocks, size, max(size, longest)):
            if isinstance(chunk, Stretch):
                while pending:
                    yield _collect(*pending.popleft(), games_before)
                local = local or Normalizer(options)
                counter = _LineCounter(chunk.pieces)
                yield from _serial(local, counter, options, first_line, games_before)
                first_line += counter.breaks
                continue
            pending.append((chunk, workers.apply_async(_work, (chunk, first_line))))
            first_line += line_breaks(chunk)
            while len(pending) >= 2 * jobs:
                yield _collect(*pending.popleft(), games_before)
        while pending:
            yield _collect(*pending.popleft(), games_before)
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
            games_before: list[int]) -> Iterator[Batch]:
    """Normalise a stretch in this process, game by game, numbered after the games before it."""
    games = iter_games(pieces, options.limits, first_line=first_line)
    yield from game_batches((normalizer.normalize_game(game) for game in games), games_before)


def _collect(chunk: str, async_result: AsyncResult[tuple[Batch, array[int], list[str]]],
             games_before: list[int]) -> Batch:
    """A chunk's batch with its text put together from its spans, its games numbered after
    those of the chunks before it (lines are already right: the worker numbered them from
    the chunk's first line)."""
    batch, spans, texts = async_result.get()
    batch.text = "".join([chunk[spans[at]:spans[at + 1]] if spans[at] >= 0 else texts[spans[at + 1]]
                          for at in range(0, len(spans), 2)])
    return numbered(batch, games_before)
