"""The inputs of ``convert`` and ``validate``: lines read, bounded, decoded.

``iter_fen_inputs`` implements the input rules of ``convert`` and ``validate``: FEN
arguments, then the files of ``--input`` (each one FEN per line), or, with neither,
standard input one FEN per line (blank lines skipped, but counted: a line number is the
line's own); with ``--json`` a line may be a JSON object ``{"fen": ..., "variant": ...}``
whose variant wins over ``--variant``. Files and standard input go through
``notation.inputs`` (so they may be gzip, bzip2 or zstd).

Every non-blank line yields exactly one ``FenInput``: a line that cannot be used (longer
than ``MAX_LINE_BYTES``, not UTF-8, JSON that is malformed, nested too deeply or of the
wrong shape) carries its ``Problem`` instead of a FEN, and reading goes on with the next
line. A long line is never held whole: it is read in bounded chunks up to its end. A
UTF-8 byte order mark starting the input is dropped; one starting a later line (files
joined with ``cat``) is read past with a ``fen-bom`` warning on that line's input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, Final

from notation import json_codec
from notation.cli.jsonl import CODEC
from notation.cli.plain_json import USED as PLAIN_JSON
from notation.cli.plain_json import read_fen_object
from notation.errors import Problem
from notation.inputs import FEN_BOM, FEN_BOM_MESSAGE, STDIN, InputFile
from notation.json_codec import loads
from notation.line_reader import LineReader, ends_line


class FenInput:
    """One input item: its FEN and variant name, or the problem that stopped reading it
    (then ``fen`` is None). Read-only. A plain class, made per input line: compiled, making
    one is a native call, and defining it costs start-up a tenth of a NamedTuple's."""

    def __init__(self, fen: str | None, variant: str, line: int | None, problem: Problem | None = None,
                 source: str | None = None) -> None:
        self.fen: Final = fen
        self.variant: Final = variant
        self.line: Final = line  # 1-based line of its file or standard input, None for command-line arguments
        self.problem: Final = problem
        self.source: Final = source  # the ``--input`` path it was read from (``-``: standard input)

    @property
    def where(self) -> str:
        """Where it came from, for messages: ``path:line``, ``line N`` or ``argument``."""
        if self.source is not None:
            return f"{self.source}:{self.line}"
        return f"line {self.line}" if self.line else "argument"

    def read_from(self, source: str | None) -> FenInput:
        """This input as read from the ``--input`` file ``source`` (itself for None)."""
        if source is None:
            return self
        return FenInput(self.fen, self.variant, self.line, self.problem, source)


class MarkedInput(FenInput):
    """An input whose line started with a byte order mark (files joined), read without it:
    ``warning`` says so (``fen-bom``). A class of its own, so that every other line's input
    carries nothing more."""

    def __init__(self, item: FenInput) -> None:
        super().__init__(item.fen, item.variant, item.line, item.problem, item.source)
        self.warning: Final = Problem(FEN_BOM, FEN_BOM_MESSAGE)

    def read_from(self, source: str | None) -> FenInput:
        return MarkedInput(super().read_from(source))


MAX_LINE_BYTES: Final = 64 * 1024  # a FEN is under 100 bytes; a JSON line with one is not much more


SKIP_CHUNK = 64 * 1024


def iter_fen_inputs(
    fens: list[str],
    default_variant: str,
    *,
    json_lines: bool,
    stream: BinaryIO | None = None,
    inputs: Sequence[str] = (),
    before_read: Callable[[], None] | None = None,
) -> Iterator[FenInput]:
    """Yield one ``FenInput`` per FEN argument and per non-blank line of each ``inputs``
    file, or, with neither, per non-blank line of ``stream`` (default: standard input).
    Raises ``notation.inputs.InputError`` when a file or standard input cannot be opened
    or read (missing, corrupt compressed data), after the lines before it were yielded.
    ``before_read``: as ``iter_raw_inputs``'s."""
    for raw in iter_raw_inputs(fens, stream=stream, inputs=inputs, before_read=before_read):
        item = fen_input(raw, default_variant, json_lines=json_lines)
        if item is not None:
            yield item


class RawInput:
    """One input before it is read: a FEN argument (``text``; ``line`` None), or a line of
    a file or standard input (``data``, its bytes, None when longer than ``MAX_LINE_BYTES``).
    Read-only; a plain class, as ``FenInput`` is."""

    def __init__(self, text: str | None, data: bytes | None, line: int | None, source: str | None = None) -> None:
        self.text: Final = text
        self.data: Final = data
        self.line: Final = line
        self.source: Final = source  # the ``--input`` path it was read from


def iter_raw_inputs(
    fens: list[str],
    *,
    stream: BinaryIO | None = None,
    inputs: Sequence[str] = (),
    before_read: Callable[[], None] | None = None,
) -> Iterator[RawInput]:
    """``iter_fen_inputs`` before each input is read: every argument and every line, blank
    ones too (``fen_input`` reads them; ``--jobs`` workers do it in parallel). Raises as
    ``iter_fen_inputs`` does. ``before_read`` runs before each read of an input file or of
    standard input (which may wait for a writer): the commands write their answers so far."""
    if fens or inputs:
        for fen in fens:
            yield RawInput(fen, None, None)
        for path in inputs:
            with InputFile(path, before_read=before_read) as source:
                for number, data in enumerate(_bounded_lines(source.binary), start=1):
                    yield RawInput(None, data, number, path)
        return
    if stream is None:
        with InputFile(STDIN, before_read=before_read) as source:
            yield from iter_raw_inputs([], stream=source.binary)
        return
    for number, data in enumerate(_bounded_lines(stream), start=1):
        yield RawInput(None, data, number)


def fen_input(raw: RawInput, default_variant: str, *, json_lines: bool) -> FenInput | None:
    """The ``FenInput`` of one raw input, or None for a blank line (skipped, but counted)."""
    number = raw.line
    if number is None:
        return FenInput(raw.text, default_variant, None)
    data = raw.data
    if data is None:
        message = f"line {number}: longer than {MAX_LINE_BYTES} bytes; not read"
        item = FenInput(None, default_variant, number, Problem("line-too-long", message))
    else:
        if json_lines and len(data) > 1 and data[0] == 123:  # "{": the usual JSON line
            # Parsed from its bytes (orjson checks the UTF-8) without decoding and stripping
            # it first; what orjson refuses takes the path below, whose messages say what
            # went wrong where, as they always have. The usual line is read before either
            # (notation.cli.plain_json), without a JSON library.
            if PLAIN_JSON:
                fen, variant = read_fen_object(data)
                if fen is not None:
                    item = FenInput(fen, default_variant if variant is None else variant, number)
                    return item.read_from(raw.source)
            fast = CODEC.load().loads
            if fast is not None:
                try:
                    obj = fast(data)
                except json_codec.JSONDecodeError:
                    pass
                else:
                    item = _json_object_input(obj, default_variant, number)
                    return item.read_from(raw.source)
        try:
            line = data.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            message = f"line {number}: byte 0x{data[exc.start]:02X} at byte {exc.start + 1} is not valid UTF-8"
            item = FenInput(None, default_variant, number, Problem("encoding", message))
        else:
            marked = line.startswith(_BOM_CHARACTER)  # files joined: the second one's mark
            if marked:
                line = line[1:]
            if not line.strip():
                return None
            if json_lines and line.lstrip().startswith("{"):
                item = _json_input(line, default_variant, number)
            else:
                item = FenInput(line.strip(), default_variant, number)
            if marked:
                return MarkedInput(item.read_from(raw.source))
    return item.read_from(raw.source)


def _bounded_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """Each line of ``stream`` as bytes, ended by LF, CR LF or a lone CR
    (``notation.line_reader``), or None for one longer than ``MAX_LINE_BYTES`` (read and
    dropped chunk by chunk, never held whole). A UTF-8 byte order mark that starts the
    stream (Windows editors write one) is dropped, as ``check`` drops it: it does not count
    towards the first line's length."""
    reader = LineReader(stream)  # called as a method: compiled, a native call
    raw = reader.readline(MAX_LINE_BYTES + 1 + len(_BOM))
    if raw.startswith(_BOM):
        raw = raw[len(_BOM):] or reader.readline(MAX_LINE_BYTES + 1)  # a mark alone: no line
    while raw:
        # At most MAX_LINE_BYTES and a line end (the first read may hold a byte or two more)
        if len(raw) <= MAX_LINE_BYTES or (len(raw) == MAX_LINE_BYTES + 1 and ends_line(raw)):
            yield raw
        else:
            while raw and not ends_line(raw):
                raw = reader.readline(SKIP_CHUNK)
            yield None
        raw = reader.readline(MAX_LINE_BYTES + 1)


_BOM: Final = b"\xef\xbb\xbf"
_BOM_CHARACTER: Final = "\ufeff"


_JSON_FIELDS: Final = frozenset({"fen", "variant"})


def _known_fields(obj: dict[str, Any]) -> bool:
    """Whether every key of ``obj`` is ``fen`` or ``variant``: a loop over at most a few
    keys, cheaper than a set comparison of the keys' view, per line."""
    for key in obj:
        if key != "fen" and key != "variant":
            return False
    return True


def unknown_fields(number: int, keys: list[str], known: frozenset[str]) -> str:
    """The message refusing the ``keys`` of a JSON input line not in ``known`` (code
    ``unknown-field``, as the service's): each such key, and the known ones."""
    unknown = ", ".join(f'"{key}"' for key in keys if key not in known)
    return f"line {number}: unknown field(s) {unknown}; known fields: {', '.join(sorted(known))}"


def _json_input(line: str, default_variant: str, number: int) -> FenInput:
    fast = CODEC.load().loads
    try:
        obj = fast(line) if fast is not None else loads(line)
    except json_codec.JSONDecodeError as exc:
        message = f"line {number}: not valid JSON: {exc.msg} (column {exc.colno})"
        return FenInput(None, default_variant, number, _bad_json(message))
    return _json_object_input(obj, default_variant, number)


def _json_object_input(obj: Any, default_variant: str, number: int) -> FenInput:
    """The ``FenInput`` of a parsed JSON line: an object of ``fen`` and maybe ``variant``."""
    if not isinstance(obj, dict):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: expected a JSON object"))
    if not _known_fields(obj):
        message = unknown_fields(number, list(obj), _JSON_FIELDS)
        return FenInput(None, default_variant, number, Problem("unknown-field", message))
    fen, variant = obj.get("fen"), obj.get("variant", default_variant)
    if not isinstance(fen, str):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: \"fen\" must be a string"))
    if not isinstance(variant, str):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: \"variant\" must be a string"))
    return FenInput(fen, variant, number)


def _bad_json(message: str) -> Problem:
    return Problem("bad-input", message)
