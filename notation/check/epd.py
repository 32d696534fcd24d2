"""Splitting one EPD record into its position and its operations.

An EPD record is four position fields (placement, side to move, castling, en passant) then
operations ``opcode operand ... ;``. Two widespread extensions are taken into the position
so that the FEN reader judges them: a Three-check ``W+B`` counter as the fifth field, and
the halfmove and fullmove numbers of a full FEN (both integers) before the operations.
Operands are bare tokens or ``"quoted strings"`` (which may hold spaces and ``;``); the last
operation may lack its ``;``. Nothing here checks the position or an opcode's meaning.
Raises ``EpdSyntaxError`` (code ``epd-syntax``, 1-based ``column``) on an unreadable tail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FIELD = re.compile(r"\S+")
_CHECKS = re.compile(r"[0-9]+\+[0-9]+")  # ASCII digits, as the FEN reader's counters
_NUMBER = re.compile(r"[0-9]+")
_OPCODE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_BARE = re.compile(r"[^\s;\"]+")
_SPACE = re.compile(r"\s*")


class EpdSyntaxError(ValueError):
    """The operations of an EPD record cannot be read; ``column`` is 1-based in the line."""

    code = "epd-syntax"

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class Operand:
    value: str
    column: int  # 1-based, of the value's first character (inside the quotes, if quoted)


@dataclass(frozen=True)
class Operation:
    opcode: str
    column: int
    operands: tuple[Operand, ...] = ()


@dataclass(frozen=True)
class EpdRecord:
    """A record: the position text, its 1-based column in the line, and its operations."""

    position: str
    column: int
    operations: tuple[Operation, ...] = field(default_factory=tuple)

    def find(self, opcode: str) -> Operation | None:
        """The first operation with this opcode (compared without case), or None."""
        wanted = opcode.lower()
        for operation in self.operations:
            if operation.opcode.lower() == wanted:
                return operation
        return None


def parse_epd(line: str) -> EpdRecord:
    """Split ``line`` (one record) into position and operations; raises ``EpdSyntaxError``."""
    position, column, tail = split_position(line)
    return EpdRecord(position, column, parse_operations(line, tail))


def split_position(line: str) -> tuple[str, int, int]:
    """The position text, its 1-based column, and the index where the operations start."""
    fields = list(_FIELD.finditer(line))
    if not fields:
        return "", 1, len(line)
    taken = min(4, len(fields))
    if len(fields) > taken and _CHECKS.fullmatch(fields[taken].group()):
        taken += 1
    if (
        len(fields) >= taken + 2
        and _NUMBER.fullmatch(fields[taken].group())
        and _NUMBER.fullmatch(fields[taken + 1].group())
    ):
        taken += 2
    start, end = fields[0].start(), fields[taken - 1].end()
    return line[start:end], start + 1, end


def parse_operations(line: str, pos: int) -> tuple[Operation, ...]:
    """The operations of ``line`` from index ``pos`` on; raises ``EpdSyntaxError``."""
    operations: list[Operation] = []
    length = len(line)
    while True:
        pos = _SPACE.match(line, pos).end()  # type: ignore[union-attr]
        if pos >= length:
            return tuple(operations)
        opcode = _OPCODE.match(line, pos)
        if not opcode:
            raise EpdSyntaxError(
                f"expected an opcode (a letter, then letters, digits or _), found {line[pos]!r}", pos + 1
            )
        op_column = pos + 1
        pos = opcode.end()
        if pos < length and not line[pos].isspace() and line[pos] != ";":
            raise EpdSyntaxError(f"opcode {opcode.group()!r} must be followed by a space or ';'", pos + 1)
        operands: list[Operand] = []
        while True:
            pos = _SPACE.match(line, pos).end()  # type: ignore[union-attr]
            if pos >= length:
                break  # the last operation may lack its ';'
            char = line[pos]
            if char == ";":
                pos += 1
                break
            if char == '"':
                close = line.find('"', pos + 1)
                if close < 0:
                    raise EpdSyntaxError("string operand has no closing '\"'", pos + 1)
                operands.append(Operand(line[pos + 1 : close], pos + 2))
                pos = close + 1
                continue
            bare = _BARE.match(line, pos)
            assert bare is not None  # char is neither space, ';' nor '"'
            operands.append(Operand(bare.group(), pos + 1))
            pos = bare.end()
        operations.append(Operation(opcode.group(), op_column, tuple(operands)))
