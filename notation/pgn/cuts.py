"""Where a PGN text may be cut into pieces that split as the whole does.

A cut point: an empty line, then a well-formed tag line of at most
``lines.PIECE_CHARS`` characters at the start of the next line, with some text that
is not blank before it, and whose last line that is not blank is seen whole and is neither
a tag line nor an escape line: it is movetext or a comment (``splitter.iter_games`` ends
any game there, even one inside an unterminated or multi-line comment; a blank stretch at
the very start of the input belongs to the first game). After tags, a blank line and a tag
line may still be the same game's tag section: not a cut point. ``find_cut`` finds one;
``cut_chunks`` cuts a stream of text at them into chunks, and hands on a ``Stretch`` lazily
where none comes for too long.
``normalize --jobs`` (``stream_jobs``), ``ranges`` (byte ranges of a file, for workers
and other machines) and ``--dask`` cut by this rule. Nothing here raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from notation.parallel.pieces import rejoined
from notation.pgn import lines as line_ends

CHUNK_CHARS = 1 << 20
LONGEST_CHUNK_CHARS = 4 << 20

# A line break, an empty line, then a tag line: where a chunk may start. The tag line must
# be whole (its line end seen) and well formed, as the splitter itself requires; group 1
# is the tag line without its ending. No escape before a CR or LF: those end the line.
_CUT = re.compile(
    r'\n\r?\n(?=(\[[A-Za-z0-9_][A-Za-z0-9_+#=:.\-]*[ \t]+"(?:[^"\\\r\n]|\\[^\r\n])*"\][ \t]*)(?:\r\n|\r|\n))'
)
# How far back from the end of the text read so far a cut point may still begin: its line
# break, empty line and tag line of at most lines.PIECE_CHARS characters.
_LOOK_BACK = 8


@dataclass
class Stretch:
    """Text with no cut point for longer than a chunk may be: its pieces, read lazily from
    the input. Read them all (or drop the stretch) before asking ``cut_chunks`` for more."""

    pieces: Iterator[str]


def find_cut(buffer: str, start: int, seen_text: bool) -> int:
    """The first cut point at or after ``start`` in ``buffer``, or -1. ``seen_text``: the
    text before ``buffer`` is not all blank."""
    limit = line_ends.PIECE_CHARS
    found = _CUT.search(buffer, start)
    while found is not None:
        cut = found.end()
        if len(found.group(1)) <= limit and (seen_text or not _blank(buffer, cut)) and _after_movetext(
            buffer, found.start()
        ):
            return cut
        found = _CUT.search(buffer, found.start() + 1)
    return -1


def _after_movetext(buffer: str, end: int) -> bool:
    """True when the last line of ``buffer[:end]`` that is not blank begins after a line
    break in ``buffer`` (it is seen whole) and is neither a tag line nor an escape line."""
    head = buffer[:end].rstrip()
    line_start = max(head.rfind("\n"), head.rfind("\r")) + 1
    if line_start == 0:
        return False
    return head[line_start:].lstrip(" \t\x0c\ufeff")[:1] not in ("[", "%")


def _blank(text: str, end: int) -> bool:
    """True when ``text[:end]`` is empty or white space only (the splitter's blank)."""
    return not text[:end].strip()


def scan_from(length: int) -> int:
    """Where to resume looking for a cut point in a text that had ``length`` characters
    when last searched: a cut point found now may begin that far back."""
    return max(0, length - line_ends.PIECE_CHARS - _LOOK_BACK)


def cut_chunks(
    blocks: Iterable[str], size: int = CHUNK_CHARS, longest: int = LONGEST_CHUNK_CHARS
) -> Iterator[str | Stretch]:
    """The text of ``blocks`` in chunks of at least ``size`` characters (but the last),
    each cut just before a game start that the splitter run over the whole text agrees on.
    Where no such point comes within ``longest`` characters, a ``Stretch`` is yielded: the
    text up to the next cut point (or the end), read lazily. Joined, the chunks and
    stretches are the text exactly; memory holds about ``longest`` plus a block."""
    blocks = rejoined(blocks, line_ends.PIECE_CHARS)
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
    keep = line_ends.PIECE_CHARS + _LOOK_BACK  # a cut point may begin this far from the end
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
