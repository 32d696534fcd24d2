"""What a command loads before its first line: only its own module, and no pyparsing until
a FEN fails the fast path; no command module for --version or --help, no orjson before a
JSON line, no worker machinery without --jobs, no TOML without a settings file.

Start-up is a fixed cost on every `notation convert` in a shell loop or a CI step; these
tests keep it from creeping back (the figures are bench_startup's lines and
bench_pipeline's "start-up" line, never timed here). Each runs the installed package in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from notation.cli import plain_json
from notation.cli.jsonl import STARTING_USES

pytestmark = [pytest.mark.slow]

# The command line comes as the probe's own arguments, and its report is made with json only
# after the modules were listed: the probe itself must load nothing a command might.
PROBE = """
import io, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from notation.cli.main import main
try:
    code = main(sys.argv[2:])
except SystemExit as stop:  # --version, --help and usage errors end in argparse
    code = stop.code
import gc
modules = sorted(sys.modules)
import json
print(json.dumps({"code": code, "modules": modules, "frozen": gc.get_freeze_count()}), file=sys.stderr)
"""
LEGAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
CUT_SHORT = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\n"
FOREIGN = (
    "notation.cli.normalize_cmd",
    "notation.cli.check_cmd",
    "notation.cli.serve_cmd",
    "notation.pgn.stream_jobs",
    "notation.parallel.fork_pool",
    "multiprocessing",  # only --jobs starts workers (never with multiprocessing)
    # compression, temporary files: only a compressed input or an output file needs them
    # (argparse's own formatters would bring shutil, and with it bz2 and lzma, for the
    # terminal's width: notation.cli.help_format's do not)
    "gzip",
    "bz2",
    "lzma",
    "shutil",
    "zstandard",
    "tempfile",
    "notation.outputs",
    "difflib",  # only an unknown variant name needs its suggestions
    "tomllib",
    "concurrent.futures",  # check's settings file; a --dask run
    "notation.guess",  # only --variant auto guesses
    "notation.views",  # only a view (Dark Chess) needs the views
    "notation.move_options",  # how moves are written: a command on FENs defines none of its enums
)
COMMAND_MODULES = {
    f"notation.cli.{name}_cmd"
    for name in ("convert", "validate", "normalize", "check", "serve", "start", "svg", "view", "docs", "cluster")
}


def probed(probe: str, stdin: str, argv: list[str], cwd: Path | None = None) -> dict:
    """What ``probe`` reports (its last line on standard error, JSON) after running the
    command line ``argv`` on ``stdin`` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", probe, stdin, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return json.loads(done.stderr.strip().splitlines()[-1])


def loaded(argv: list[str], stdin: str, cwd: Path | None = None) -> tuple[int, set[str]]:
    report = probed(PROBE, stdin, argv, cwd)
    return report["code"], set(report["modules"])


@pytest.mark.parametrize("command", ["convert", "validate"])
def test_a_command_loads_only_its_own_module(command):
    code, modules = loaded([command, "--json"], LEGAL)
    assert code == 0
    assert f"notation.cli.{command}_cmd" in modules
    assert not modules & set(FOREIGN)


# The library's own modules: ``import notation`` loads none of them until a name is used.
LIBRARY_MODULES = {"notation.variants", "notation.fen.reader", "notation.operations", "notation.validation"}


@pytest.mark.parametrize("argv", [["--version"], ["--help"], [], ["no-such-command"]])
def test_naming_no_command_loads_no_command_module(argv):
    code, modules = loaded(argv, "")
    assert code == (0 if argv in (["--version"], ["--help"]) else 2)
    assert not modules & COMMAND_MODULES
    assert not modules & LIBRARY_MODULES  # nor the registry, reader or rules
    # argparse needs neither: typing is named in annotations only, and exit_on_signals asks
    # signal.signal, not threading, whether it runs in the main thread
    assert not modules & {"typing", "threading"}


def test_what_start_up_loaded_is_frozen_out_of_the_collectors_sight():
    report = probed(PROBE, LEGAL, ["convert", "--json"])
    assert report["code"] == 0
    assert report["frozen"] > 10_000  # the registry, the tables, the modules: far more than this


def test_orjson_waits_for_a_long_run_of_json_lines_the_plain_path_leaves_to_it():
    """It brings uuid, platform, datetime and dataclasses: a command on plain FEN lines
    starts without, and so does one on a few JSON lines (the standard library answers a
    run's first lines as orjson would: tests/core/test_json_codec.py). Compiled, the usual
    line is read and answered without a JSON library (notation.cli.plain_json), however
    long the run; one with escapes is the library's."""
    code, modules = loaded(["convert"], LEGAL)
    assert code == 0
    assert "orjson" not in modules
    line = json.dumps({"fen": LEGAL.strip()}) + "\n"
    code, modules = loaded(["convert", "--json"], line)
    assert code == 0
    assert "orjson" not in modules
    escaped = line.replace("/", "\\/")  # as PHP's json_encode writes it; its answer is plain
    code, modules = loaded(["convert", "--json"], escaped * (STARTING_USES + 1))
    assert code == 0
    assert "orjson" in modules
    code, modules = loaded(["convert", "--json"], line * (STARTING_USES // 2 + 1))
    assert code == 0
    assert ("orjson" in modules) is not plain_json.USED
    assert ("json" in modules) is not plain_json.USED


def test_the_guesser_waits_for_a_variant_to_guess():
    code, modules = loaded(["convert", "--variant", "auto"], LEGAL)
    assert code == 0
    assert "notation.guess" in modules
    code, modules = loaded(["convert", "--json"], json.dumps({"fen": LEGAL.strip(), "variant": "Auto"}) + "\n")
    assert code == 0
    assert "notation.guess" in modules


def test_normalize_in_one_process_loads_no_worker_machinery(tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text('[Event "?"]\n[Variant "Crazyhouse"]\n\n1. e4 *\n')
    code, modules = loaded(["normalize", str(games), "--progress", "never"], "")
    assert code == 0
    assert not modules & {
        "notation.parallel.fork_pool",
        "notation.pgn.file_jobs",
        "notation.pgn.stream_jobs",
        "concurrent.futures",
        "tempfile",
    }
    code, modules = loaded(["normalize", str(games), "--progress", "never", "--jobs", "2"], "")
    assert code == 0
    assert {"notation.parallel.fork_pool", "notation.pgn.file_jobs"} <= modules
    assert "multiprocessing" not in modules  # the pool is the project's own: nothing of multiprocessing's start-up


def test_check_reads_toml_pgn_and_epd_only_when_it_meets_them(tmp_path):
    (tmp_path / ".git").mkdir()  # the search for pyproject.toml (from the working directory) stops here
    fens = tmp_path / "positions.fen"
    fens.write_text(LEGAL)
    code, modules = loaded(["check", str(fens), "--progress", "never"], "", cwd=tmp_path)
    assert code == 0
    assert not modules & {
        "tomllib",
        "concurrent.futures",
        "notation.pgn.normalize",
        "notation.cli.normalize_cmd",
        "notation.pgn.games",
        "notation.check.epd",
    }
    # only the chosen output format (the probe itself imports json: it is not looked for)
    assert "notation.check.formats.text" in modules
    assert not modules & {
        "notation.check.formats.json",
        "notation.check.formats.github",
        "notation.check.formats.sarif",
    }
    code, modules = loaded(["check", str(fens), "--progress", "never", "--format", "json"], "", cwd=tmp_path)
    assert code == 0
    assert "notation.check.formats.json" in modules and "notation.check.formats.sarif" not in modules
    epd = tmp_path / "positions.epd"
    epd.write_text(LEGAL.rsplit(" ", 2)[0] + ' id "start";\n')
    code, modules = loaded(["check", str(epd), "--progress", "never"], "", cwd=tmp_path)
    assert code == 0
    assert "notation.check.epd" in modules
    # A Python project's pyproject.toml without [tool.notation] is not parsed: no tomllib.
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "games"\n\n[tool.ruff]\nline-length = 100\n')
    code, modules = loaded(["check", str(fens), "--progress", "never"], "", cwd=tmp_path)
    assert code == 0
    assert "tomllib" not in modules
    (tmp_path / "pyproject.toml").write_text('[tool.notation]\nvariant = "standard"\n')
    code, modules = loaded(["check", str(fens), "--progress", "never"], "", cwd=tmp_path)
    assert code == 0
    assert "tomllib" in modules
    games = tmp_path / "games.pgn"
    games.write_text('[Event "?"]\n\n1. e4 *\n')
    code, modules = loaded(["check", str(games), "--progress", "never"], "", cwd=tmp_path)
    assert code == 0
    assert "notation.pgn.games" in modules


def test_a_compressed_input_brings_its_module_when_it_is_met(tmp_path):
    import gzip

    packed = tmp_path / "fens.txt.gz"
    packed.write_bytes(gzip.compress(LEGAL.encode()))
    code, modules = loaded(["convert", "--input", str(packed)], "")
    assert code == 0
    assert "gzip" in modules and "zstandard" not in modules


def test_pyparsing_waits_for_a_fen_the_fast_path_refuses():
    assert "pyparsing" not in loaded(["convert"], LEGAL)[1]
    # a FEN cut short is explained without the grammar too (notation.fen.reader)
    code, modules = loaded(["convert"], CUT_SHORT)
    assert code == 1
    assert "pyparsing" not in modules
    # and so are a wrong counter and a token after the last field
    for tail in ("0 x", "x 1", "0 1 junk", "0 1234567890"):
        code, modules = loaded(["convert"], f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {tail}\n")
        assert code == 1
        assert "pyparsing" not in modules, tail
    # in a variant with pockets too
    line = '{"fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 x", "variant": "crazyhouse"}\n'
    code, modules = loaded(["convert", "--json"], line)
    assert code == 1
    assert "pyparsing" not in modules
    # a token the quick answer does not take (not ASCII) is the grammar's to explain
    code, modules = loaded(["convert"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 j\u00fcnk\n")
    assert code == 1
    assert "pyparsing" in modules


def test_check_loads_the_package_metadata_only_for_a_sarif_report(tmp_path):
    """``check`` is a CI step run on every commit, often on a handful of FENs: the package
    metadata (``importlib.metadata``, the largest import it had) waits for ``--format
    sarif``, which puts documentation links in the report."""
    fens = tmp_path / "positions.fen"
    fens.write_text(LEGAL)
    code, modules = loaded(["check", str(fens), "--progress", "never"], "")
    assert code == 0
    assert "importlib.metadata" not in modules
    fens.write_text(LEGAL + "4k3/8/8/8/8/8/8/8 w - - 0 1\n")  # missing-king: a rule with its link
    code, modules = loaded(["check", str(fens), "--progress", "never", "--format", "sarif"], "")
    assert code == 1
    assert "importlib.metadata" in modules


def test_the_reader_compiles_a_pattern_only_for_a_fen_that_needs_it():
    """Importing the reader compiles no FEN pattern, nor does reading good FENs of Standard
    and Crazyhouse (their fields are split without it); a FEN the split cannot take (a
    no-break space between fields) compiles the plain pattern, and an error's column in
    Crazyhouse the one with pockets."""
    board = LEGAL.split()[0]
    probe = (
        "import sys; from notation.fen import grammar; from notation.fen.reader import read_fen\n"
        "from notation.errors import FenSyntaxError\n"
        "sizes = [grammar.fen_pattern.cache_info().currsize]\n"
        "read_fen(sys.argv[1], 'standard'); read_fen(sys.argv[1], 'crazyhouse')\n"
        "sizes.append(grammar.fen_pattern.cache_info().currsize)\n"
        "read_fen(sys.argv[2], 'standard'); sizes.append(grammar.fen_pattern.cache_info().currsize)\n"
        "try:\n    read_fen(sys.argv[3], 'crazyhouse')\nexcept FenSyntaxError as exc:\n    sizes.append(exc.column)\n"
        "sizes.append(grammar.fen_pattern.cache_info().currsize)\n"
        "print(sizes)"
    )
    odd_space = f"{board}\u00a0w KQkq - 0 1"
    bad_turn = f"{board}[] x KQkq - 0 1"
    done = subprocess.run(
        [sys.executable, "-c", probe, LEGAL.strip(), odd_space, bad_turn],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert done.stdout.strip() == f"[0, 0, 1, {len(board) + 4}, 2]"  # the column of the x


# Command lines whose answer comes from argparse: usage errors and help, with the command
# named first (the other commands left out of the parser) and after an option (listed).
ARGPARSE_ANSWERS = [
    ["validate", "--no-such-option"],
    ["convert", "--castling", "sideways", "x"],
    ["validate", "--jobs", "many"],
    ["validate", "--help"],
    ["check"],
    ["validate", "extra", "--json", "-q"],
    ["--help"],
    ["-h", "convert"],
    ["convert"],  # reads standard input: empty here
]
FULL_PARSER = """
import contextlib, io, json, sys
from notation.cli.main import _parser, parse_command_line
from notation.cli.usage import SUMMARIES
out, err = io.StringIO(), io.StringIO()
argv = json.loads(sys.argv[1])
chosen = next((w for w in argv if not w.startswith("-") and w in SUMMARIES), None)
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        parse_command_line(_parser(() if chosen is None else (chosen,), "listed"), argv)
        code = None
    except SystemExit as stop:
        code = stop.code
print(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}))
"""


@pytest.mark.parametrize("argv", ARGPARSE_ANSWERS)
def test_leaving_the_other_commands_out_changes_no_answer(argv):
    """argparse says the same, word for word, whether the other commands are in the parser."""
    full = json.loads(
        subprocess.run(
            [sys.executable, "-c", FULL_PARSER, json.dumps(argv)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            env={**os.environ, "COLUMNS": "100"},
        ).stdout
    )
    command = [sys.executable, "-c", "import sys; from notation.cli.main import main; sys.exit(main())", *argv]
    done = subprocess.run(
        command,
        input="",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    if full["code"] is None:  # argparse let it through: the command ran
        assert full["err"] == ""
        return
    assert (done.returncode, done.stdout, done.stderr) == (full["code"], full["out"], full["err"])


# What `check` and `normalize` on one game, `convert` and `validate` on one FEN line must not
# load, and why:
# each is milliseconds of a start-up every CI step and shell loop pays (bench_startup prints
# the figures beside the 35 ms target). The probe itself imports json, io and sys.
NOT_AT_START_UP = {
    "hashlib": "OpenSSL's library: only game identities (--duplicates) and --duplicates-by keys digest",
    "pathlib": "check finds its settings file and matches exclude patterns with os.path: only the SARIF "
               "report's links make a Path",
    "urllib.parse": "pathlib's, and the SARIF report's links",
    "fnmatch": "only a settings file's exclude patterns",
    "tomllib": "only a settings file",
    "notation.pgn.state_machine": "the fast path splits clean games; the state machine waits for other text",
    "pyparsing": "the FEN pattern reads a legal FEN; the grammar waits for one it refuses",
    "notation.check.duplicates": "check --duplicates",
    "notation.pgn.duplicates": "the duplicate options' enums and settings: check --duplicates, and normalize "
                               "(its options are words of them)",
    "notation.pgn.identity": "game identities: --duplicates, --add-tags",
    "tqdm": "a progress bar, drawn only on a terminal",
    "zstandard": "a compressed input",
    "tempfile": "an output file's temporary twin is made with os.open (outputs._new_temporary_file): tempfile "
                "brings shutil, random and the compression modules",
    "shutil": "only --backup copies the file it replaces",
    "notation.parallel.fork_pool": "--jobs",
    "notation.parallel.ordered": "--jobs: the pieces' results taken back in input order",
    "notation.cluster.connect": "--dask",
    "importlib.metadata": "check --format sarif",
    "notation.pgn.normalize": "normalize",
    "notation.selection": "select and split",
    "notation.svg": "svg",
    "notation_service": "serve",
    "threading": "exit_on_signals asks signal.signal whether it runs in the main thread; only pools use threads",
    "notation.validation.xiangqi_placement": "Xiangqi's judges: a Xiangqi setup",
    "notation.validation.xiangqi_checks": "Xiangqi's judges: a Xiangqi setup",
    "notation.rules.xiangqi_moves": "Xiangqi's moves: its judges, moves and games",
    "notation.validation.tafl": "Tablut's judge: a Tablut setup",
    "json": "notation.json_codec imports it when a JSON line or report needs it (its regular expressions "
            "alone are compiled at import)",
    "dataclasses": "it imports inspect, ast, dis and tokenize, and each dataclass compiles its methods from "
    "source: the records every command defines are plain classes and NamedTuples",
    "notation.game": "the move generator: a game's moves (check), not a FEN's setup",
    "notation.rules.chess_lines": "the lines through two squares (8,192 words): the move generator's",
    "array": "--duplicates: the first copies' places kept in arrays",
    "notation.moves.coordinates": "coordinates read two ways (Xiangqi's UCI and ICCS): a Xiangqi game's",
    "notation.diagram": "a setup's text diagram and repr",
    "notation.cli.cluster_cmd": "--dask: the cluster runs (their options are notation.cli.cluster_options')",
    "notation.cluster": "--dask",
    "notation.check.prefix_copies": "check --duplicates-by prefix",
    "notation.fen.writer": "a FEN written: convert, validate, normalize, a FEN tag checked or a move that "
                           "cannot be played (its message gives the position)",
    **{f"notation.game.chess.twists.{twist}": "a twist's rules: a game of a variant that has it"
       for twist in ("atomic", "bombs", "check_count", "compulsory_capture", "extinction", "hill", "no_check",
                     "no_pieces", "placement", "pockets", "race")},
}
# What a JSON line brings with it: the standard library's json reads and writes a run's first
# lines (orjson, which imports dataclasses, waits for a long run).
READS_JSON = {"json"}
# What reading a game's moves needs, which a FEN's convert and validate do not.
PLAYS_MOVES = {"notation.game", "notation.rules.chess_lines"}
ONE_GAME = '[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n'
START_UP_RUNS = {
    "check, one game": (["check", "one.pgn", "--progress", "never"], ""),
    "convert, one FEN": (["convert"], LEGAL),
    "convert --json, one line": (["convert", "--json"], json.dumps({"fen": LEGAL.strip()}) + "\n"),
    "validate, one FEN": (["validate"], LEGAL),
    "validate --json, one line": (["validate", "--json"], json.dumps({"fen": LEGAL.strip()}) + "\n"),
    "normalize, one game": (["normalize", "one.pgn", "-o", "out.pgn", "--progress", "never"], ""),
    "normalize --moves uci, one game": (["normalize", "one.pgn", "-o", "out.pgn", "--progress", "never", "--moves",
                                         "uci"], ""),
}
# What normalize needs beyond them: its own module, its duplicate options and an output file
# (and, its moves read, the move generator).
NORMALIZES = {"notation.pgn.normalize", "notation.pgn.duplicates", "notation.outputs"}
# What the commands but check use on any input (operations.convert_fen and validate_fen load it).
WRITES_FENS = {"notation.fen.writer"}


@pytest.mark.parametrize("run", sorted(START_UP_RUNS))
def test_the_commonest_commands_start_without_what_they_do_not_use(run, tmp_path):
    (tmp_path / ".git").mkdir()  # check's search for pyproject.toml stops here, finding none
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    argv, stdin = START_UP_RUNS[run]
    code, modules = loaded(argv, stdin, cwd=tmp_path)
    assert code == 0
    allowed = (READS_JSON if "--json" in argv else set()) | (PLAYS_MOVES if argv[0] == "check" else WRITES_FENS)
    if argv[0] == "normalize":
        allowed |= NORMALIZES | (PLAYS_MOVES if "--moves" in argv else set())
    found = {name: why for name, why in NOT_AT_START_UP.items() if name in modules and name not in allowed}
    assert not found, f"{run} loaded modules it does not use: {found}"


# The executable's entry point (``notation.cli.main_process``), which ends the process
# itself: the modules are listed by an exit handler (end_process runs them).
EXECUTABLE_PROBE = """
import atexit, io, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
sys.argv = ["notation", *sys.argv[2:]]
def listed():
    modules = sorted(sys.modules)
    import json
    print(json.dumps({"modules": modules}), file=sys.stderr)
atexit.register(listed)
from notation.cli import main_process
main_process()
"""


@pytest.mark.parametrize("run", [*sorted(START_UP_RUNS), "--version", "--help"])
def test_the_executable_takes_argparses_words_as_written_without_seeking_a_catalogue(run, tmp_path):
    """gettext's search for a catalogue of argparse's words (none ships with Python) imports
    locale at the first word; the executable uses them as written, without loading gettext
    (``notation.cli``)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    argv, stdin = START_UP_RUNS.get(run, ([run], ""))
    modules = set(probed(EXECUTABLE_PROBE, stdin, argv, tmp_path)["modules"])
    assert "notation.cli.main" in modules
    assert "locale" not in modules
    assert "gettext" not in modules


@pytest.mark.parametrize("run", sorted(START_UP_RUNS))
def test_a_plain_command_line_is_read_without_argparse(run, tmp_path):
    """argparse's import and the command's parser are about a tenth of a one-line command's
    start-up (bench_startup): the command lines CI steps and shell loops run are plain, and
    read from the command's declarations alone (``notation.cli.plain_arguments``)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    argv, stdin = START_UP_RUNS[run]
    modules = set(probed(EXECUTABLE_PROBE, stdin, argv, tmp_path)["modules"])
    assert "notation.cli.main" in modules
    assert not modules & {"argparse", "gettext", "notation.cli.help_format"}


@pytest.mark.parametrize("argv", [["check", "--help"], ["convert", "--jobs", "none"], ["validate", "--js"]])
def test_argparse_reads_what_is_not_plain(argv, tmp_path):
    """Help, a refused value and an abbreviation are argparse's, as they always were, with its
    words as written (no gettext)."""
    modules = set(probed(EXECUTABLE_PROBE, LEGAL, argv, tmp_path)["modules"])
    assert {"argparse", "notation.cli.help_format"} <= modules
    assert not modules & {"gettext", "locale"}


GETTEXT_AFTERWARDS = """
import sys
from notation.cli import _argparse_words_as_written
_argparse_words_as_written()
import argparse, gettext
print(argparse._("usage: "), argparse.ngettext("one", "many", 2), gettext.__file__ is not None,
      callable(gettext.translation), gettext.ngettext("one", "many", 1))
"""


def test_gettext_imported_after_argparse_is_gettext_itself():
    """The stand-in argparse was imported with is gone: a program's own gettext is the real one."""
    done = subprocess.run([sys.executable, "-c", GETTEXT_AFTERWARDS], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["usage:", "many", "True", "True", "one"]


COMPILE_PROBE = """
import builtins, io, json, sys
callers = []
def counted(source, *args, **kwargs):
    callers.append(f"{sys._getframe(1).f_code.co_filename}: {str(source)[:40]!r}")
    return compiling(source, *args, **kwargs)
compiling, builtins.compile = builtins.compile, counted
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from notation.cli.main import main
code = main(sys.argv[2:])
print(json.dumps({"code": code, "compiled": callers}), file=sys.stderr)
"""


def _interpreted_build() -> bool:
    """Whether the hot modules run interpreted (the pure-Python build, or a source tree)."""
    import notation.fen.reader

    return (notation.fen.reader.__file__ or "").endswith(".py")


@pytest.mark.skipif(
    _interpreted_build(),
    reason="the compiled build's start-up: interpreted, the hot modules' "
    "records (NamedTuples of postponed annotations) each compile their fields' types",
)
@pytest.mark.parametrize("run", sorted(START_UP_RUNS))
def test_the_commonest_commands_compile_no_python_source(run, tmp_path):
    """No ``compile()`` at start-up: the first one builds the interpreter's syntax-tree
    types (about 9 M instructions, more than any module of ours), and each costs about 70k
    more. typing makes one for each field of a NamedTuple whose annotations are strings,
    so the modules that define records at start-up do not postpone their annotations
    (no ``from __future__ import annotations``; docs/architecture.md, "Start-up")."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    argv, stdin = START_UP_RUNS[run]
    report = probed(COMPILE_PROBE, stdin, argv, tmp_path)
    assert report["code"] == 0
    assert report["compiled"] == [], f"{run} compiled Python source at start-up"


def test_the_full_move_reader_compiles_its_patterns_when_a_move_needs_it(tmp_path):
    """Clean games are read by character codes (the plain and lenient SAN readers): a
    one-game check compiles none of the full reader's patterns; a move only it reads
    (a drop written with a star) compiles those it tries."""
    probe = (
        "import sys; from notation.cli.main import main; from notation.moves import chess\n"
        "main(['check', sys.argv[1], '--progress', 'never']); print(chess._pattern.cache_info().currsize)"
    )
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    (tmp_path / "zh.pgn").write_text('[Event "?"]\n[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. P*e4 *\n')
    sizes = []
    for name in ("one.pgn", "zh.pgn"):
        done = subprocess.run(
            [sys.executable, "-c", probe, name], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True
        )
        sizes.append(int(done.stdout.split()[-1]))
    assert sizes[0] == 0
    assert sizes[1] > 0


def test_xiangqi_and_tablut_setups_bring_their_judges_when_met():
    for fen, variant, judge in (
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "xiangqi",
            "notation.validation.xiangqi_checks",
        ),
        ("3TTT3/4T4/4t4/T3t3T/TTttkttTT/T3t3T/4t4/4T4/3TTT3 w - - 0 1", "tablut", "notation.validation.tafl"),
    ):
        code, modules = loaded(["validate", "--variant", variant], fen + "\n")
        assert code == 0, (variant, code)
        assert judge in modules


def test_a_settings_file_and_duplicates_bring_their_modules_when_asked(tmp_path):
    """The other side of the table above: what the deferred imports serve still works."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME + "\n" + ONE_GAME)
    (tmp_path / "pyproject.toml").write_text('[tool.notation]\nexclude = ["vendor"]\n')
    code, modules = loaded(["check", "one.pgn", "--progress", "never", "--duplicates"], "", cwd=tmp_path)
    assert code == 0  # the second copy is a warning: duplicate-game
    assert {"tomllib", "fnmatch", "notation.check.duplicates", "notation.pgn.duplicates", "hashlib"} <= modules
    assert "pathlib" not in modules  # the exclude patterns are matched with os.path


INTERPRETED_PROBE = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))
from notation.cli.main import main
code = main(sys.argv[2:])
interpreted = sorted(name for name, module in list(sys.modules.items())
                     if name.startswith("notation") and (getattr(module, "__file__", None) or "").endswith(".py"))
print(json.dumps({"code": code, "interpreted": interpreted}), file=sys.stderr)
"""
# What the commonest commands still run interpreted in the compiled build, and why. Every
# other module they load is compiled: imported from another compiled module, it is set up
# in C, without importlib's search, a .pyc to unmarshal or a shim library to load (about a
# tenth of check's start-up; docs/architecture.md, "Start-up").
INTERPRETED_AT_START_UP = {
    "notation": "the package: its names are found when first asked for (a module __getattr__)",
    "notation.cli": "the executable's entry point, before anything is loaded",
    "notation.cli.main": "the command line: each command's module imported by name",
    "notation.cli.collector": "the entry point's",
    "notation.cli.plain_arguments": "the command line read as argparse would read it: Python as argparse is",
    "notation.cli.usage": "loaded by --version and --help too, which load no compiled module",
    "notation.signals": "the entry point's",
    "notation.options": "its move options found when first asked for (a module __getattr__)",
    # compiled, a cached_property is a plain property: its value made again at each use
    "notation.check.judge": "PositionJudge keeps the games' start positions as a cached_property value",
    "notation.json_codec": "orjson or the standard library's json, whichever a run has loaded",
    "notation.errors": "its errors are subclassed and caught by modules that are not compiled",
    "notation.inputs": "its errors are subclassed, and its raw streams are io's",
    "notation.lean_enum": "the enums' metaclass, a subclass of EnumType: a Python class compiled or not",
}


@pytest.mark.skipif(_interpreted_build(), reason="the compiled build's start-up")
@pytest.mark.parametrize("run", sorted(run for run, (argv, _) in START_UP_RUNS.items() if argv[0] != "normalize"))
def test_the_commonest_commands_run_compiled_modules_past_the_command_line(run, tmp_path):
    """``check``, ``convert`` and ``validate`` (the commands a CI step or a shell loop starts
    over and over); ``normalize`` runs on whole databases."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "one.pgn").write_text(ONE_GAME)
    argv, stdin = START_UP_RUNS[run]
    report = probed(INTERPRETED_PROBE, stdin, argv, tmp_path)
    assert report["code"] == 0
    command_module = f"notation.cli.{argv[0]}_cmd"
    unexpected = set(report["interpreted"]) - set(INTERPRETED_AT_START_UP) - {command_module}
    assert not unexpected, f"{run} loaded these interpreted: {sorted(unexpected)}"
