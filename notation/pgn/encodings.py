"""PGN text that is not UTF-8, read as Windows-1252: the PGN standard's own character set
is ISO 8859-1 (section 4.1), and old archives and desktop databases export in it or in
Windows-1252, its superset.

Input is decoded as UTF-8 with ``errors="surrogateescape"`` (``notation.inputs``), so each
byte that is not UTF-8 is one lone surrogate U+DC80..U+DCFF. ``as_read`` maps each of them
to the byte's Windows-1252 character (its Latin-1 one where Windows-1252 has none: 0x81,
0x8D, 0x8F, 0x90, 0x9D), one character for one, so every offset, line and column of the
text stays where it was; the bytes that are UTF-8 are read as UTF-8. Nothing here raises.
"""

from __future__ import annotations

import functools
import re
from typing import Final

from notation.lean_enum import LeanStrEnum

_SURROGATES: Final = r"[\udc80-\udcff]"  # compiled by the first text not ASCII (re's cache)


def _windows_1252(byte: int) -> str:
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: Latin-1's (C1 control) character
        return chr(byte)


@functools.cache
def _as_read_table() -> dict[int, str]:
    """U+DC80 + b (the escaped byte b, 0x80..0xFF) -> the byte's Windows-1252 character;
    made by the first text holding such a byte, not at every command's start-up."""
    return {0xDC00 + byte: _windows_1252(byte) for byte in range(0x80, 0x100)}


class TextEncoding(LeanStrEnum):
    """How ``normalize`` writes a game read as Windows-1252: its bytes as they were, or UTF-8."""

    KEEP = "keep"  # every byte as read
    UTF8 = "utf-8"  # every game's text written as UTF-8 (what was read as Windows-1252, transcoded)


def first_undecoded(text: str) -> int:
    """The offset of the first byte of ``text`` that was not UTF-8 (a lone surrogate), or -1."""
    found = None if text.isascii() else re.search(_SURROGATES, text)
    return -1 if found is None else found.start()


def as_read(text: str) -> str:
    """``text`` with each byte that was not UTF-8 read as its Windows-1252 character (the
    same length: offsets stay valid); ``text`` itself when it has none."""
    if text.isascii() or re.search(_SURROGATES, text) is None:
        return text
    return text.translate(_as_read_table())


def byte_read(char: str) -> str:
    """How the message names one undecodable byte: ``0xE9 (é)``."""
    byte = ord(char) - 0xDC00
    read = _as_read_table().get(ord(char), char)
    shown = read if read.isprintable() else f"U+{ord(read):04X}"
    return f"0x{byte:02X} ({shown})"
