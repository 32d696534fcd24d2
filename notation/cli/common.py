"""Options and input handling shared by the subcommands.

``iter_fen_inputs`` implements the input rules of ``convert`` and ``validate``: FEN
arguments, then the files of ``--input`` (each one FEN per line), or, with neither,
standard input one FEN per line (blank lines skipped, but counted: a line number is the
line's own); with ``--json`` a line may be a JSON object ``{"fen": ..., "variant": ...}``
whose variant wins over ``--variant``. Files and standard input go through
``notation.inputs`` (so they may be gzip, bzip2 or zstd).

Every non-blank line yields exactly one ``FenInput``: a line that cannot be used (longer
than ``MAX_LINE_BYTES``, not UTF-8, JSON that is malformed, nested too deeply or of the
wrong shape) carries its ``Problem`` instead of a FEN, and reading goes on with the next
line. A long line is never held whole: it is read in bounded chunks up to its end.
"""

from __future__ import annotations

import argparse
import enum
import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, Final, NamedTuple, TextIO, TypeVar

from notation import json_codec
from notation.cli.usage import UsageError
from notation.errors import NotationError, Problem
from notation.fen.profiles import DEFAULT_PROFILE, PROFILES, WRITER_OPTIONS, WriteOptions, options_from
from notation.inputs import STDIN, InputFile
from notation.json_codec import JSONDecodeError, dumps, loads
from notation.name_sets import SOURCE_NAMES, Source, registry_for
from notation.variants import AUTO, Registry, Variant, normalize_name, parse_aliases

ResultT = TypeVar("ResultT")


def add_writer_options(parser: argparse.ArgumentParser) -> None:
    """``--profile`` and one flag per writer option (``WRITER_OPTIONS``), shared by every
    command that writes FENs; ``writer_options_from`` reads them back."""
    parser.add_argument(
        "--profile",
        choices=list(PROFILES),
        default=None,
        help=f"write as this program does (default: {DEFAULT_PROFILE}); options below override it",
    )
    for option in WRITER_OPTIONS:
        parser.add_argument(option.flag, dest=option.name, choices=option.values, help=option.help)


def writer_options_from(args: argparse.Namespace) -> WriteOptions:
    """The writer options given by ``add_writer_options``'s flags (argparse checked them)."""
    return options_from(vars(args))


def add_variant_options(parser: argparse.ArgumentParser, *, default: str = "standard", auto: bool = False) -> None:
    """``--variant`` (with ``auto``, ``guessing`` reads it) and ``--variant-alias``."""
    guess = "; auto: guess each FEN's variant from its shape, with a warning" if auto else ""
    parser.add_argument(
        "--variant",
        default=default,
        metavar="NAME",
        help=f"variant name or alias (default: {default}); lookup ignores case, spaces, - and _{guess}",
    )
    add_alias_option(parser)
    add_source_option(parser)


def add_source_option(parser: argparse.ArgumentParser) -> None:
    """``--from SOURCE``: read variant names as that program writes them (``args.source``)."""
    parser.add_argument(
        "--from",
        dest="source",
        choices=SOURCE_NAMES,
        default=Source.DEFAULT.value,
        help="read variant names as this program writes them (itsyourturn: CH is its Horde, "
        "'Atomic Chess' its bomb variant; default: every registry name)",
    )


_KNOWN_NAMES = 256  # variant names ``guessing`` keeps found, at most


def guessing(
    judge: Callable[[str, str | Variant], ResultT], failure: Callable[[Problem], ResultT], registry: Registry
) -> Callable[[str, str], ResultT]:
    """``judge`` that reads the variant name ``auto`` as "guess it" (``notation.guess``):
    a guess other than the default variant adds a ``guessed-variant`` warning first; no
    guess is the failure ``unknown-variant`` suggesting ``--variant`` values."""

    # Each name the inputs give, found once: the registry's look-up is interpreted code,
    # and the lines of a file name the same few variants. A name it refuses is not kept:
    # ``judge`` is given the name and reports it, on each line.
    known: dict[str, Variant] = {}

    def judge_or_guess(fen: str, variant: str) -> ResultT:
        found = known.get(variant)
        if found is not None:
            return judge(fen, found)
        if not _is_auto(variant):
            try:
                found = registry.find(variant)
            except NotationError:
                return judge(fen, variant)
            if len(known) < _KNOWN_NAMES:
                known[variant] = found
            return judge(fen, found)
        from notation.guess import VariantGuessError, guess_variant  # only for ``auto``: not at start-up

        try:
            guess = guess_variant(fen, registry)
        except VariantGuessError as exc:
            return failure(exc.problems[0])
        result = judge(fen, guess.variant)
        if guess.variant is not _default_of(registry):
            result.warnings.insert(0, guess.warning())  # type: ignore[attr-defined]
        return result

    return judge_or_guess


@functools.lru_cache(maxsize=256)
def _is_auto(variant: str) -> bool:
    """Whether a variant name asks for a guess (``auto``, any case or spacing); cached, as
    every input line asks it of the same few names."""
    return normalize_name(variant) == AUTO


def _default_of(registry: Registry) -> Variant | None:
    try:
        return registry.default
    except LookupError:
        return None


def add_alias_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant-alias",
        action="append",
        default=[],
        metavar="ALIAS=VARIANT",
        help="teach an extra variant name, e.g. --variant-alias zh960=crazyhouse (repeatable, or comma-separated)",
    )


def build_registry(args: argparse.Namespace) -> Registry:
    """The registry of ``--from``'s names plus ``--variant-alias`` entries. Raises
    ``UsageError`` (exit status 2) for a bad alias, and for a ``--variant`` the registry
    does not know (``auto`` aside), so that every command refuses it alike before reading
    any input; a variant named inside the input (a JSON line's) is that input's problem."""
    base = registry_for(getattr(args, "source", None) or Source.DEFAULT)
    try:
        aliases = parse_aliases(getattr(args, "variant_alias", None) or [])
        registry = base.with_aliases(aliases) if aliases else base
    except (NotationError, ValueError) as exc:
        raise UsageError(f"--variant-alias: {exc}") from None
    check_variant_option(getattr(args, "variant", None), registry)
    return registry


def check_variant_option(name: str | None, registry: Registry) -> None:
    """Raise ``UsageError`` when ``--variant`` names no variant of ``registry`` (its message
    suggests the closest names); None (not given) and ``auto`` pass."""
    if name is None or _is_auto(name):
        return
    try:
        registry.find(name)
    except NotationError as exc:
        raise UsageError(f"--variant: {exc}") from None


class FenInput(NamedTuple):
    """One input item: its FEN and variant name, or the problem that stopped reading it
    (then ``fen`` is None). A named tuple: one is made per input line."""

    fen: str | None
    variant: str
    line: int | None  # 1-based line of its file or standard input, None for command-line arguments
    problem: Problem | None = None
    source: str | None = None  # the ``--input`` path it was read from (``-``: standard input)

    @property
    def where(self) -> str:
        """Where it came from, for messages: ``path:line``, ``line N`` or ``argument``."""
        if self.source is not None:
            return f"{self.source}:{self.line}"
        return f"line {self.line}" if self.line else "argument"


def located(item: FenInput, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj``, a JSON answer, with the input's ``line`` (null for an argument) and, for a
    file given with ``--input``, its ``input`` path. (A function, not a method of the named
    tuple: compiled, a direct call.)"""
    obj["line"] = item.line
    if item.source is not None:
        obj["input"] = item.source
    return obj


MAX_LINE_BYTES: Final = 64 * 1024  # a FEN is under 100 bytes; a JSON line with one is not much more
SKIP_CHUNK = 64 * 1024


def add_input_option(parser: argparse.ArgumentParser) -> None:
    """``-i/--input PATH`` (repeatable): read FENs from files, ``args.inputs``."""
    parser.add_argument(
        "-i",
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="PATH",
        help="read FENs from this file, one per line (plain, gzip, bzip2 or zstd; - for standard input); "
        "repeatable; output lines then start with PATH:LINE:",
    )


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


# Per input line, in this compiled module: ``tuple.__new__`` builds a named tuple without
# its generated ``__new__`` (Python code), and an enum member read once is not looked up on
# its class (EnumType's attribute hook) each time.
_TUPLE_NEW: Final = tuple.__new__


class RawInput(NamedTuple):
    """One input before it is read: a FEN argument (``text``; ``line`` None), or a line of
    a file or standard input (``data``, its bytes, None when longer than ``MAX_LINE_BYTES``)."""

    text: str | None
    data: bytes | None
    line: int | None
    source: str | None = None  # the ``--input`` path it was read from


# NamedTuple classes made per line, bound as Final: compiled, C statics, not dictionary look-ups.
_FEN_INPUT: Final = FenInput
_RAW_INPUT: Final = RawInput


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
                    yield _TUPLE_NEW(_RAW_INPUT, (None, data, number, path))
        return
    if stream is None:
        with InputFile(STDIN, before_read=before_read) as source:
            yield from iter_raw_inputs([], stream=source.binary)
        return
    for number, data in enumerate(_bounded_lines(stream), start=1):
        yield _TUPLE_NEW(_RAW_INPUT, (None, data, number, None))


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
            # went wrong where, as they always have.
            fast = _FAST_JSON.load().loads
            if fast is not None:
                try:
                    obj = fast(data)
                except JSONDecodeError:
                    pass
                else:
                    item = _json_object_input(obj, default_variant, number)
                    return item if raw.source is None else item._replace(source=raw.source)
        try:
            line = data.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            message = f"line {number}: byte 0x{data[exc.start]:02X} at byte {exc.start + 1} is not valid UTF-8"
            item = FenInput(None, default_variant, number, Problem("encoding", message))
        else:
            if not line.strip():
                return None
            if json_lines and line.lstrip().startswith("{"):
                item = _json_input(line, default_variant, number)
            else:
                item = _TUPLE_NEW(_FEN_INPUT, (line.strip(), default_variant, number, None, None))
    return item if raw.source is None else item._replace(source=raw.source)


def _bounded_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """Each line of ``stream`` as bytes, or None for one longer than ``MAX_LINE_BYTES``
    (read and dropped chunk by chunk, never held whole)."""
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield raw
            continue
        while raw and not raw.endswith(b"\n"):
            raw = stream.readline(SKIP_CHUNK)
        yield None


_JSON_FIELDS: Final = frozenset({"fen", "variant"})


def _known_fields(obj: dict[str, Any]) -> bool:
    """Whether every key of ``obj`` is ``fen`` or ``variant``: a loop over at most a few
    keys, cheaper than a set comparison of the keys' view, per line."""
    for key in obj:
        if key != "fen" and key != "variant":
            return False
    return True


def _json_input(line: str, default_variant: str, number: int) -> FenInput:
    fast = _FAST_JSON.load().loads
    try:
        obj = fast(line) if fast is not None else loads(line)
    except JSONDecodeError as exc:
        message = f"line {number}: not valid JSON: {exc.msg} (column {exc.colno})"
        return FenInput(None, default_variant, number, _bad_json(message))
    return _json_object_input(obj, default_variant, number)


def _json_object_input(obj: Any, default_variant: str, number: int) -> FenInput:
    """The ``FenInput`` of a parsed JSON line: an object of ``fen`` and maybe ``variant``."""
    if not isinstance(obj, dict):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: expected a JSON object"))
    if not _known_fields(obj):
        unknown = sorted(set(obj) - _JSON_FIELDS)
        message = f"line {number}: unknown field(s) {', '.join(unknown)}; allowed: fen, variant"
        return FenInput(None, default_variant, number, _bad_json(message))
    fen, variant = obj.get("fen"), obj.get("variant", default_variant)
    if not isinstance(fen, str):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: \"fen\" must be a string"))
    if not isinstance(variant, str):
        return FenInput(None, default_variant, number, _bad_json(f"line {number}: \"variant\" must be a string"))
    return _TUPLE_NEW(_FEN_INPUT, (fen, variant, number, None, None))


class Answer(enum.Enum):
    """How an input's result came about."""

    JUDGED = "judged"  # the library read and judged the input
    UNUSABLE = "unusable"  # the line could not be used (too long, not UTF-8, bad JSON)
    INTERNAL = "internal"  # the library failed on it (a bug): the command exits 3


_JUDGED: Final = Answer.JUDGED


def answer(
    item: FenInput, judge: Callable[[str, str], ResultT], failure: Callable[[Problem], ResultT]
) -> tuple[ResultT, Answer]:
    """``judge(fen, variant)`` of a usable input, ``failure(problem)`` of an unusable one.

    An exception from ``judge`` (a bug) becomes that input's failure with code
    ``internal-error``, so the inputs after it are still answered; nothing is raised.
    """
    if item.problem is not None:
        return failure(item.problem), Answer.UNUSABLE
    fen = item.fen or ""  # without a problem there is a FEN (perhaps empty: the reader says so)
    try:
        return judge(fen, item.variant), _JUDGED
    except Exception as exc:  # noqa: BLE001 - one line's bug must not cost the others their answer
        return failure(internal_problem(exc, item.line)), Answer.INTERNAL


def text_prefix(item: FenInput) -> str:
    """What starts an output line: ``PATH:LINE: `` for a line of an ``--input`` file (as
    compilers and grep write it), nothing for an argument or a line of standard input (so
    that ``notation convert < in > out`` stays a pipeline)."""
    return f"{item.where}: " if item.source is not None else ""


def problem_text(item: FenInput, how: Answer, problems: list[Problem]) -> str:
    """The problems of one input as the rest of its output line: ``line N: `` first for a
    line of standard input whose problem does not already say so."""
    where = f"line {item.line}: " if item.source is None and item.line and how is not Answer.UNUSABLE else ""
    return where + "; ".join(p.describe() for p in problems)


def file_hint(item: FenInput, how: Answer, problems: list[Problem]) -> str:
    """For a FEN argument that could not be read but names a file, the standard-error line
    saying how to read the file; "" otherwise."""
    if item.line is not None or how is not Answer.JUDGED or not item.fen:
        return ""
    if not any(p.code == "fen-syntax" for p in problems) or not os.path.isfile(item.fen):
        return ""
    return f"hint: {item.fen!r} is a file; to read the FENs in it, use --input {item.fen}\n"


def internal_problem(exc: Exception, line: int | None) -> Problem:
    """The problem reported for one input the library failed on (a bug): that input gets
    its own answer and the others are still answered; the command then exits 3."""
    where = f"line {line}: " if line else ""
    return Problem("internal-error", f"{where}{type(exc).__name__}: {exc} (please report it)")


def _bad_json(message: str) -> Problem:
    return Problem("bad-input", message)


def write_json_line(obj: dict[str, Any], out: TextIO | None = None) -> None:
    """``obj`` as one compact JSON line (``notation.json_codec``) on ``out`` (default stdout)."""
    (out if out is not None else sys.stdout).write(json_line(obj))


class _FastJson:
    """orjson's ``loads`` and ``dumps`` (None where orjson is missing) and the option that
    ends a line, looked up on first use (``loaded``; json_codec imports orjson only then):
    per line they are called here, not through ``json_codec.loads``/``dumps``
    (interpreted), without the two module attribute look-ups and the keyword argument a
    line that ``json_codec.orjson.dumps(..., option=...)`` costs."""

    __slots__ = ("loaded", "loads", "dumps", "newline")

    def __init__(self) -> None:
        self.loaded = False
        self.loads: Any = None
        self.dumps: Any = None
        self.newline = 0

    def load(self) -> _FastJson:
        """This, with orjson's functions looked up (once)."""
        if not self.loaded:
            fast = json_codec.orjson
            if fast is not None:
                self.loads, self.dumps, self.newline = fast.loads, fast.dumps, fast.OPT_APPEND_NEWLINE
            self.loaded = True
        return self


_FAST_JSON: Final = _FastJson()


def json_line(obj: dict[str, Any]) -> str:
    """``obj`` as one compact JSON line (``notation.json_codec``), its line break included."""
    fast = _FAST_JSON.load()
    if fast.dumps is not None:
        return fast.dumps(obj, None, fast.newline).decode()  # (obj, default, option)
    return dumps(obj) + "\n"


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    """``--jobs/-j N``: answer the inputs with N worker processes (``args.jobs``)."""
    parser.add_argument(
        "--jobs", "-j", type=int, default=1, metavar="N",
        help="worker processes answering the inputs (default: 1); the output is the same, in the same order",
    )


JOBS_PER_CORE = 4  # --jobs at most this many a core (and MIN_JOBS_LIMIT on any machine)
MIN_JOBS_LIMIT = 8


def jobs_limit() -> int:
    """The most ``--jobs`` this machine accepts: each worker is a process with its own
    memory, and thousands of them would exhaust it long before they sped anything up."""
    return max(MIN_JOBS_LIMIT, JOBS_PER_CORE * (os.cpu_count() or 1))


def jobs_from(args: argparse.Namespace) -> int:
    """``args.jobs``; raises ``UsageError`` below 1 or above ``jobs_limit()``."""
    jobs = int(args.jobs)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    limit = jobs_limit()
    if jobs > limit:
        raise UsageError(
            f"--jobs {jobs} is more than this machine can use: at most {limit} "
            f"({JOBS_PER_CORE} a core, {os.cpu_count() or 1} cores)"
        )
    return jobs


def add_accept_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--accept",
        action="append",
        default=[],
        metavar="CODE",
        help="report this validation code as a warning instead of an error (repeatable, or comma-separated), "
        "e.g. --accept bad-castling-rights",
    )


def accepted_codes(values: list[str]) -> frozenset[str]:
    """The ``--accept`` codes; raises ``UsageError`` naming the known codes for an unknown one."""
    from notation.validation import CODES

    codes = frozenset(code.strip() for value in values for code in value.split(",") if code.strip())
    unknown = sorted(codes - set(CODES))
    if unknown:
        raise UsageError(f"--accept: unknown code(s) {', '.join(unknown)}; known codes: {', '.join(CODES)}")
    return codes


def add_repair_option(parser: argparse.ArgumentParser, *, what: str = "refusing the setup") -> None:
    """``--repair``: ``args.on_illegal`` becomes ``IllegalPolicy.REPAIR`` (default REFUSE)."""
    from notation.options import IllegalPolicy

    parser.add_argument(
        "--repair",
        dest="on_illegal",
        action="store_const",
        const=IllegalPolicy.REPAIR,
        default=IllegalPolicy.REFUSE,
        help="drop bad castling rights and implausible en passant squares (each reported as a warning) "
        f"instead of {what}",
    )
