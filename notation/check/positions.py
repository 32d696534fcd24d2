"""Checking FEN and EPD files: one position per line.

Blank lines and lines starting with ``#`` are skipped; a byte order mark starting a line
(``fen-bom``) is read past. A FEN line is judged whole (so the reader sees appended pockets
and check counters). An EPD line is split by ``notation.check.epd``; its ``variant``
operation, when present, names the variant instead of ``--variant``. Every problem is
placed at its column in the file line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from notation.check.judge import Finding, PositionJudge
from notation.check.lines import Line, LineState
from notation.check.problem import ProblemList, Severity
from notation.check.suppress import split_line_marker
from notation.inputs import FEN_BOM, FEN_BOM_MESSAGE
from notation.variants import Variant

COMMENT = "#"
_BOM_CHARACTER = "\ufeff"


def report_findings(
    problems: ProblemList, line: int, column: int, findings: Iterable[Finding]
) -> None:
    """Add ``findings`` about a FEN that starts at 1-based ``column`` of ``line``."""
    for finding in findings:
        where = column + finding.column - 1 if finding.column else column
        problems.add(line, where, finding.severity, finding.code, finding.message)


def _position_lines(lines: Iterable[Line], problems: ProblemList, seen: list[int]) -> Iterator[Line]:
    """The lines that hold a position to judge; ``seen[0]`` counts those plus the damaged
    lines (which the line reader has already reported). Blank and ``#`` lines are skipped.
    A byte order mark starting a line (files joined) is reported (``fen-bom``, a warning)
    and read as a space, so the columns after it stay the file's own."""
    for line in lines:
        problems.settle(line.number - 1)
        if line.state is not LineState.CLEAN:
            seen[0] += 1
            continue
        if line.text.startswith(_BOM_CHARACTER):
            problems.add(line.number, 1, Severity.WARNING, FEN_BOM, FEN_BOM_MESSAGE)
            line = Line(line.number, " " + line.text[1:], line.state)
        stripped = line.text.strip()
        if stripped and not stripped.startswith(COMMENT):
            seen[0] += 1
            yield line


def check_fen_lines(lines: Iterable[Line], judge: PositionJudge, variant: Variant, problems: ProblemList) -> int:
    """Judge every FEN line; returns how many positions were seen."""
    seen = [0]
    for line in _position_lines(lines, problems, seen):
        text = _unsuppressed(line, problems)
        column = len(text) - len(text.lstrip()) + 1
        report_findings(problems, line.number, column, judge.judge(text.strip(), variant))
    return seen[0]


def _unsuppressed(line: Line, problems: ProblemList) -> str:
    """The line's text without a ``# notation: ignore`` comment, whose suppression now holds."""
    text, suppression = split_line_marker(line.text, line.number)
    if suppression is not None:
        problems.suppress(suppression)
    return text


def check_epd_lines(lines: Iterable[Line], judge: PositionJudge, variant: Variant, problems: ProblemList) -> int:
    """Judge every EPD record; returns how many records were seen."""
    # here: a gate on FEN or PGN files starts without the EPD reader (and its records)
    from notation.check.epd import EpdSyntaxError, parse_operations, split_position

    seen = [0]
    for line in _position_lines(lines, problems, seen):
        text = _unsuppressed(line, problems)
        position, column, tail = split_position(text)
        try:
            operations = parse_operations(text, tail)
        except EpdSyntaxError as exc:
            problems.add(line.number, exc.column, Severity.ERROR, exc.code, exc.message)
            operations = ()
        record_variant: Variant | Finding = variant
        for operation in operations:
            if operation.opcode.lower() != "variant":
                continue
            if not operation.operands:
                problems.add(line.number, operation.column, Severity.ERROR, "epd-syntax",
                             "the variant operation needs an operand")
                break
            operand = operation.operands[0]
            record_variant = judge.find_variant(operand.value)
            if isinstance(record_variant, Finding):
                report_findings(problems, line.number, operand.column, [record_variant])
            break
        if isinstance(record_variant, Variant):
            report_findings(problems, line.number, column, judge.judge(position, record_variant))
    return seen[0]
