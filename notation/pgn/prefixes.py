"""``--duplicates-by prefix``: which game of a set is kept when one main line starts another.

A game whose main line is the first moves of a longer game's (a live-board feed cut short,
a game re-issued with its last moves) is a copy of the longer one, which is kept, at its
own place in the input. ``duplicate_jobs`` reads every game once: it numbers every
distinct key (``DuplicateFinder``), records each game's place and key number
(``Occurrences``: 36 bytes a game, its group included: the input, or on a cluster the
partition, its verdict is filed under) and each key's plies and line hash (``LongestLines``:
24 bytes a distinct key), and writes each game's main line (``identity.LineCodes`` and the
tag values of its key: ``PrefixSpool``, on disk, never in memory: 32 bytes a game, its
start's bytes, and 5 a ply) to a temporary file, since the longer game may come first.

Once every key is known, the spool is read back in input order (``find_extensions``): the
keys of a game's shorter main lines are looked for only where one may exist. Each line
has a cheap rolling hash (``rolled``: two polynomials over the start, the tag values and
the move codes, each modulo a 30-bit prime); the hashes of every distinct key's whole line go
into a bitmap (``WholeLines``, 4 bytes a distinct key), and only a prefix whose hash is in
it has its digest taken and looked up in the finder (a bit set by another line costs one
digest, never a wrong answer: the digest decides). A prefix found tells
``LongestLines.extended`` which key the game extends. Each key keeps the longest game
extending it (the first in input order among equally long ones); that game has none
longer extending it, so no chains are followed. ``verdicts`` then gives every game that is
not kept the game kept of its set.

``PrefixSpool`` raises ``OSError`` when the temporary file cannot be written or read;
nothing else here raises.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Final, NamedTuple

from notation.pgn.duplicates import DuplicateFinder, GameLocation, Verdict, keyed
from notation.pgn.identity import MOVE_CODE_BYTES, line_digest
from notation.scratch import scratch_file

# A line hash is two polynomials over the bytes, each modulo a prime under 2**30 (a product
# of such numbers stays a small integer, which the compiled build multiplies in one
# instruction), written as one 60-bit number: the first in the high 30 bits.
_HIGH_PRIME: Final = 1073741789  # 2**30 - 35
_LOW_PRIME: Final = 1073741783  # 2**30 - 41
_HIGH_BASE: Final = 257
_LOW_BASE: Final = 263
_LOW_BITS: Final = 30
_LOW_MASK: Final = (1 << _LOW_BITS) - 1
_SEED_PERSON: Final = b"notation-prefix"


class PrefixLine(NamedTuple):
    """A game's main line as the spool holds it: its ``start`` and ``moves`` (``LineCodes``)
    and the tag ``values`` of its key (``duplicates.tag_values``)."""

    start: bytes
    values: bytes
    moves: bytes

    def seed(self) -> int:
        """The rolling hash of the line before its first move (``rolled``)."""
        digest = hashlib.blake2b(self.values + b"\n" + self.start, digest_size=8, person=_SEED_PERSON).digest()
        high = int.from_bytes(digest[:4], "little") % _HIGH_PRIME
        return high << _LOW_BITS | int.from_bytes(digest[4:], "little") % _LOW_PRIME

    def whole_hash(self) -> int:
        """The rolling hash of the whole line."""
        return rolled(self.seed(), self.moves, 0, len(self.moves))

    def prefix_key(self, plies: int) -> bytes:
        """The key of the line's first ``plies`` moves, as ``duplicates.game_key`` gives a game's."""
        return keyed(line_digest(self.start, self.moves[:plies * MOVE_CODE_BYTES]), self.values)


def rolled(hash: int, moves: bytes, start: int, end: int) -> int:
    """``hash`` rolled over the bytes ``start`` to ``end`` of ``moves``."""
    high = hash >> _LOW_BITS
    low = hash & _LOW_MASK
    for at in range(start, end):
        byte = moves[at]
        high = (high * _HIGH_BASE + byte) % _HIGH_PRIME
        low = (low * _LOW_BASE + byte) % _LOW_PRIME
    return high << _LOW_BITS | low


class LongestLines:
    """Per key number: its main line's plies, its line's rolling hash and the longest key
    extending it (-1: none)."""

    def __init__(self) -> None:
        self._plies = array("q")
        self._longest = array("q")
        self.hashes = array("q")

    def add(self, index: int, plies: int, whole_hash: int) -> None:
        """Key ``index`` (numbered in order: the next one, or one already added) has
        ``plies`` and the line hash ``whole_hash``."""
        if index == len(self._plies):
            self._plies.append(plies)
            self._longest.append(-1)
            self.hashes.append(whole_hash)

    def extended(self, prefix: int, by: int) -> None:
        """Key ``by``'s main line starts with key ``prefix``'s (told in input order)."""
        if by == prefix or self._plies[by] <= self._plies[prefix]:
            return
        longest = self._longest[prefix]
        if longest < 0 or self._plies[by] > self._plies[longest]:
            self._longest[prefix] = by

    def kept(self, index: int) -> int:
        """The key whose first game is kept for a game of key ``index``."""
        longest = self._longest[index]
        return index if longest < 0 else longest


class WholeLines:
    """The rolling hashes of whole lines, as a bitmap of 32 bits a hash: whether a hash may
    be one of them (a hash set by another is one bit in 32, on average, in the way)."""

    def __init__(self, hashes: array) -> None:
        size = 1 << max(6, (32 * len(hashes)).bit_length())
        self._mask = size - 1
        self._bits = bytearray(size // 8)
        for hash in hashes:
            bit = hash & self._mask
            self._bits[bit >> 3] |= 1 << (bit & 7)

    def may_hold(self, hash: int) -> bool:
        bit = hash & self._mask
        return (self._bits[bit >> 3] >> (bit & 7)) & 1 == 1


class Occurrences:
    """Every game with an identity, in input order: its first line and column, its number
    (in its input), its key number and its group (its input's index, or on a cluster its
    partition's: ``verdicts`` files it under that)."""

    def __init__(self) -> None:
        self.lines = array("q")
        self.columns = array("q")
        self.numbers = array("q")
        self.keys = array("q")
        self.groups = array("i")

    def add(self, line: int, column: int, number: int, key: int, group: int = 0) -> None:
        self.lines.append(line)
        self.columns.append(column)
        self.numbers.append(number)
        self.keys.append(key)
        self.groups.append(group)


class PrefixSpool:
    """The main lines of every game in input order, in a temporary file removed on exit:
    ``add`` one game's, then ``games`` reads them all back."""

    _FLUSH_BYTES = 1 << 20
    _HEADER = 32  # the key number and three lengths, 64-bit integers

    def __init__(self) -> None:
        self._file = scratch_file("notation-prefixes-")
        self._pending = bytearray()

    def __enter__(self) -> PrefixSpool:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self._file.close()

    def add(self, index: int, line: PrefixLine) -> None:
        """The main line of a game of key ``index``."""
        start, values, moves = line
        self._pending += array("q", (index, len(start), len(values), len(moves))).tobytes()
        self._pending += start
        self._pending += values
        self._pending += moves
        if len(self._pending) >= self._FLUSH_BYTES:
            self._file.write(self._pending)
            self._pending.clear()

    def games(self) -> Iterator[tuple[int, PrefixLine]]:
        """Each game's key number and main line, in the order added."""
        self._file.write(self._pending)
        self._pending.clear()
        self._file.seek(0)
        read = self._file.read
        while True:
            head = read(self._HEADER)
            if len(head) < self._HEADER:
                return
            index, starts, values, moves = array("q", head)
            body = read(starts + values + moves)
            yield index, PrefixLine(body[:starts], body[starts:starts + values], body[starts + values:])


def find_extensions(spool: PrefixSpool, finder: DuplicateFinder, longest: LongestLines) -> None:
    """Tells ``longest`` of every game in ``spool`` whose main line extends another key's."""
    whole = WholeLines(longest.hashes)
    for index, line in spool.games():
        hash = line.seed()
        moves = line.moves
        for end in range(0, len(moves), MOVE_CODE_BYTES):
            if whole.may_hold(hash):
                prefix = finder.index_of(line.prefix_key(end // MOVE_CODE_BYTES))
                if prefix is not None:
                    longest.extended(prefix, index)
            hash = rolled(hash, moves, end, end + MOVE_CODE_BYTES)


def verdicts(occurrences: Occurrences, finder: DuplicateFinder, longest: LongestLines,
             source_of: Callable[[int], str] | None = None) -> dict[int, dict[tuple[int, int], Verdict]]:
    """The game kept of each game that is not, by its group, then its (first line, first
    column); ``source_of(group)``: the name of the input a group is in (None: one input)."""
    out: dict[int, dict[tuple[int, int], Verdict]] = {}
    for line, column, number, key, group in zip(occurrences.lines, occurrences.columns, occurrences.numbers,
                                                occurrences.keys, occurrences.groups, strict=True):
        kept = longest.kept(key)
        place: GameLocation = finder.location(kept)
        if kept != key:
            out.setdefault(group, {})[(line, column)] = Verdict(place, prefix=True)
        elif (place.number != number or place.line != line
              or (source_of is not None and place.source != source_of(group))):
            out.setdefault(group, {})[(line, column)] = Verdict(place)
    return out
