"""Answering ``convert`` and ``validate`` inputs one by one, in one process or several.

``answer_lines`` runs a command's ``Responder`` (``FenInput`` -> ``Answered``) over its
raw inputs (``notation.cli.input_lines.iter_raw_inputs``) and writes each answer in input
order: output to standard output (in batches, each out before the command waits for more
input: ``notation.cli.answer_stream``), warnings and hints to standard error. With ``jobs``
above 1 the parent only reads lines and writes answers: workers from
``notation.parallel.pool`` read (``fen_input``: decoding, JSON) and answer chunks of
``CHUNK_ITEMS`` lines and send each chunk's answers back as one text, at most
``2 * jobs`` chunks in flight, so memory stays bounded on an endless standard input.
The output is the same bytes whatever ``jobs`` is; with ``jobs`` above 1 it comes a
chunk at a time.

Raises what reading the inputs raises (``notation.inputs.InputError``) after writing the
answers to the inputs before it; a signal or an error stops the workers first.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from notation.cli import input_lines, limits
from notation.cli.answer_stream import AnswerStream
from notation.cli.answers import Answer, file_hint, located, problem_text, text_prefix
from notation.cli.input_lines import FenInput, RawInput, fen_input
from notation.cli.jsonl import json_line
from notation.cli.plain_json import USED as PLAIN_JSON
from notation.cli.plain_json import answer_line
from notation.cli.usage import UsageError
from notation.inputs import InputError
from notation.operations import ConvertResult, ValidateResult

CHUNK_ITEMS = 512
CHUNK_BYTES = 1 << 20  # a chunk of long lines ends sooner: in flight at most 2 * jobs MiB or so


class Answered:
    """One input's answer as the command writes it (or a chunk's, joined). Read-only; a
    plain class, as ``FenInput`` is, pickled through ``__init__`` (a chunk's answer comes
    back from a ``--jobs`` worker)."""

    def __init__(self, out: str, err: str, failed: bool, internal: bool) -> None:
        self.out: Final = out  # its output line(s), each ending in a line break
        self.err: Final = err  # warnings and hints for standard error ("" for none)
        self.failed: Final = failed  # not converted / not valid (exit status 1)
        self.internal: Final = internal  # the library failed on it (exit status 3)

    def __reduce__(self) -> tuple[type[Answered], tuple[str, str, bool, bool]]:
        return (Answered, (self.out, self.err, self.failed, self.internal))


NOTHING: Final = Answered("", "", False, False)  # a blank line: skipped, but counted

_INTERNAL: Final = Answer.INTERNAL  # read once, not looked up on its class (EnumType's hook) per line

Responder = Callable[[FenInput], Answered]
# Builds a command's responder from its parsed arguments, once per process; raises
# ``UsageError`` for a bad option (in the parent, before any worker starts). ``args``
# also says how lines are read: ``variant`` (the default) and ``json``.
ResponderFactory = Callable[[Any], Responder]


def run_lines(args: Any, make_responder: ResponderFactory) -> int:
    """A ``convert`` or ``validate`` run: its inputs (``args.fens``, ``args.inputs`` or
    standard input) answered with ``args.jobs`` processes; the exit status. Raises
    ``UsageError`` for a bad option or an input that cannot be opened or read."""
    jobs = limits.jobs_from(args)
    out = AnswerStream(sys.stdout)
    try:
        # Before the command waits for more input, the answers so far are written.
        raws = input_lines.iter_raw_inputs(args.fens, inputs=args.inputs, before_read=out.flush)
        return answer_lines(raws, make_responder, args, jobs, out)
    except InputError as exc:
        raise UsageError(str(exc)) from None


def answered(
    item: FenInput, how: Answer, result: ConvertResult | ValidateResult, ok: bool, good: str, bad: str,
    *, json_lines: bool,
) -> Answered:
    """``result`` as the command writes it: its JSON line, or ``good`` (when ``ok``) or
    ``bad: problems`` after the input's ``PATH:LINE:`` prefix; warnings and a file hint go
    to standard error."""
    internal = how is _INTERNAL
    if json_lines:
        # The usual answer is written as it stands (notation.cli.plain_json); the rest by the JSON library.
        text = answer_line(result, item.line, item.source) if PLAIN_JSON else None
        if text is None:
            text = json_line(located(item, result.to_dict()))
        return Answered(text, "", not ok, internal)
    prefix = text_prefix(item)
    if ok:
        out, err = prefix + good + "\n", ""
    else:  # the error is said once, on its output line
        out = prefix + bad + ": " + problem_text(item, how, result.errors) + "\n"
        err = file_hint(item, how, result.errors)
    for warning in result.warnings:
        err += "warning: " + warning.describe(prefix=item.where) + "\n"
    return Answered(out, err, not ok, internal)


def answer_lines(
    raws: Iterable[RawInput], make_responder: ResponderFactory, args: Any, jobs: int, out: AnswerStream | None = None
) -> int:
    """Write the answer to every input, in order, to ``out`` (standard output's answers:
    ``notation.cli.answer_stream``); the exit status: 3 if the library failed on some
    input, else 1 if some input failed, else 0."""
    respond = make_responder(args)  # here first: a bad option is a usage error before any worker starts
    if jobs > 1:
        answers: Iterable[Answered] = _in_parallel(raws, make_responder, args, jobs)
    else:
        answers = _in_order(raws, respond, args)
    failed = internal = False
    out = AnswerStream(sys.stdout) if out is None else out
    err = sys.stderr
    try:
        for answer in answers:
            out.write(answer.out)
            if answer.err:
                out.flush()  # the answers before a warning or hint are out before it
                err.write(answer.err)
            failed = failed or answer.failed
            internal = internal or answer.internal
    finally:
        out.flush()
    return 3 if internal else 1 if failed else 0


def _in_order(raws: Iterable[RawInput], respond: Responder, args: Any) -> Iterator[Answered]:
    """Each input's answer as soon as it is read (a generator function, not an expression:
    the answers to earlier lines must be out before a later input fails or the stream ends,
    compiled or not)."""
    variant, json_lines = args.variant, args.json  # read once: argparse's namespace is a dictionary
    for raw in raws:
        yield _answer(raw, respond, variant, json_lines)


def _answer(raw: RawInput, respond: Responder, variant: str, json_lines: bool) -> Answered:
    item = fen_input(raw, variant, json_lines=json_lines)
    return NOTHING if item is None else respond(item)


_worker: tuple[Responder, Any] | None = None  # in a worker: the command's responder and arguments


def _init_worker(make_responder: ResponderFactory, args: Any) -> None:
    global _worker
    _worker = (make_responder(args), args)


# A chunk's inputs travel to a worker as plain tuples: pickling an object costs the parent
# more than reading the line did.
_PlainRaw = tuple[str | None, bytes | None, int | None, str | None]


def _answer_chunk(chunk: list[_PlainRaw]) -> Answered:
    """A chunk's answers as one: its output and its standard error, each joined."""
    assert _worker is not None, "the worker was not initialised"
    respond, args = _worker
    variant, json_lines = args.variant, args.json
    answers = [_answer(RawInput(raw[0], raw[1], raw[2], raw[3]), respond, variant, json_lines) for raw in chunk]
    return Answered(
        "".join(answer.out for answer in answers),
        "".join(answer.err for answer in answers),
        any(answer.failed for answer in answers),
        any(answer.internal for answer in answers),
    )


def _in_parallel(raws: Iterable[RawInput], make_responder: ResponderFactory, args: Any,
                 jobs: int) -> Iterator[Answered]:
    from notation.parallel.ordered import InOrder  # as the pool: only with --jobs, not at start-up
    from notation.parallel.pool import running

    window: InOrder[None, Answered] = InOrder(2 * jobs)  # the chunks in flight, in input order
    unreadable: InputError | None = None
    with running(jobs, _init_worker, (make_responder, args)) as workers:
        try:
            for chunk in _chunks(raws):
                plain: list[_PlainRaw] = [(raw.text, raw.data, raw.line, raw.source) for raw in chunk]
                window.put(None, workers.apply_async(_answer_chunk, (plain,)))
                for _, answer in window.ready():
                    yield _got(answer)
        except InputError as exc:  # a later input cannot be read: answer the ones before it first
            unreadable = exc
        for _, answer in window.drain():
            yield _got(answer)
    if unreadable is not None:
        raise unreadable


def _got(answer: Answered | None) -> Answered:
    assert answer is not None, "every chunk is handed to a worker"
    return answer


def _chunks(raws: Iterable[RawInput]) -> Iterator[list[RawInput]]:
    """``raws`` in lists of ``CHUNK_ITEMS`` (fewer when their lines reach ``CHUNK_BYTES``);
    when reading fails, the inputs read before the
    failure come first, then the error."""
    chunk: list[RawInput] = []
    size = 0
    try:
        for raw in raws:
            chunk.append(raw)
            size += len(raw.data or raw.text or "")
            if len(chunk) == CHUNK_ITEMS or size >= CHUNK_BYTES:
                yield chunk
                chunk, size = [], 0
    except InputError:
        if chunk:
            yield chunk
        raise
    if chunk:
        yield chunk
