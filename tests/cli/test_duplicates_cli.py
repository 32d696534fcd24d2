"""``normalize --duplicates`` and ``check --duplicates`` as users run them: the command in a
subprocess, real files, several inputs, ``--jobs``, standard input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from paths import ROOT

CASES = json.loads((ROOT / "fixtures" / "pgn" / "duplicates_cases.json").read_text(encoding="utf-8"))
ENGLISH = [case for case in CASES if "piece_letters" not in case]


def _run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


@pytest.fixture
def database(tmp_path):
    """Every English case's games, the whole set written twice (a merged database)."""
    text = "".join(game for case in ENGLISH for game in case["games"])
    path = tmp_path / "merged.pgn"
    path.write_text(text * 2, encoding="utf-8")
    return path


def test_drop_with_jobs_writes_the_bytes_one_process_writes(database, tmp_path):
    one = _run(["normalize", str(database), "--duplicates", "drop", "-o", str(tmp_path / "one.pgn"),
                "--report", str(tmp_path / "one.jsonl")])
    two = _run(["normalize", str(database), "--duplicates", "drop", "--jobs", "2", "-o", str(tmp_path / "two.pgn"),
                "--report", str(tmp_path / "two.jsonl")])
    assert one.returncode == two.returncode == 0, one.stderr
    assert (tmp_path / "one.pgn").read_bytes() == (tmp_path / "two.pgn").read_bytes()
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one.stderr == two.stderr
    games = sum(len(case["games"]) for case in ENGLISH)
    copies = sum(len(case["duplicates"]) for case in ENGLISH)
    assert f"duplicate-game {games + copies}" in one.stderr.decode()  # the second half: every game a copy
    assert f"0 rejected, {games + copies} dropped;" in one.stderr.decode()
    assert (tmp_path / "one.pgn").read_text(encoding="utf-8").count("[Event ") == games - copies


def test_drop_from_standard_input_and_mark_keeps_every_byte(database):
    data = database.read_bytes()
    dropped = _run(["normalize", "-", "--duplicates", "drop"], data)
    assert dropped.returncode == 0
    assert len(dropped.stdout) < len(data) // 2
    marked = _run(["normalize", "-", "--duplicates", "mark"], data)
    plain = _run(["normalize", "-"], data)
    assert marked.stdout == plain.stdout
    assert "duplicate-game" in marked.stderr.decode() and "duplicate-game" not in plain.stderr.decode()


def test_strict_fails_a_database_with_copies(database):
    done = _run(["normalize", str(database), "--duplicates", "mark", "--strict", "-o", os.devnull])
    assert done.returncode == 1


def test_check_names_the_first_copy_across_files(tmp_path):
    case = ENGLISH[0]
    first, second = tmp_path / "a.pgn", tmp_path / "b.pgn"
    first.write_text(case["games"][0], encoding="utf-8")
    second.write_text("".join(case["games"][1:]), encoding="utf-8")
    done = _run(["check", str(first), str(second), "--duplicates"])
    assert done.returncode == 0, done.stdout
    lines = [line for line in done.stdout.decode().splitlines() if "duplicate-game" in line]
    assert len(lines) == len(case["duplicates"])
    assert lines[0].startswith(f"{second}:1:1: duplicate-game: the same game as game 1 ({first}, line 1)")
    quiet = _run(["check", str(first), str(second)])
    assert "duplicate-game" not in quiet.stdout.decode()


def test_check_duplicates_in_json(tmp_path):
    path = tmp_path / "db.pgn"
    path.write_text("".join(CASES[-1]["games"]) * 2, encoding="utf-8")
    done = _run(["check", str(path), "--duplicates", "--format", "json"])
    found = [p for p in json.loads(done.stdout)["problems"] if p["code"] == "duplicate-game"]
    assert [p["severity"] for p in found] == ["warning"] * len(found) and len(found) == 4


@pytest.mark.parametrize("args", [
    ["--duplicates-by", "White"],
    ["--duplicates", "drop", "--duplicates-by", "Wh ite"],
])
def test_usage_errors(database, args):
    done = _run(["normalize", str(database), *args])
    assert done.returncode == 2
    assert b"--duplicates-by" in done.stderr and b"Traceback" not in done.stderr


_RUN_WITH_PIECE_SIZE = (
    "import sys\n"
    "import notation.pgn.pieces as pieces\n"
    "pieces.RANGE_BYTES = int(sys.argv[1])  # a regular file is cut into pieces of this size\n"
    "from notation.cli.main import main\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


@pytest.mark.parametrize("policy", ["drop", "mark"])
def test_jobs_over_many_small_pieces_with_damaged_games(tmp_path, policy):
    games = [game for case in ENGLISH for game in case["games"]]
    damaged = ['[Event "bad"]\n[FEN "8/8/8/8 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 *\n\n',
               '[Event "bad move"]\n\n1. e4 e5 2. Ke3 *\n\n', "stray words\n\n", '[Variant "Nonesuch"]\n\n1. e4 *\n\n']
    text = "".join(games + damaged + games[::-1] + damaged + games)
    source = tmp_path / "db.pgn"
    source.write_text(text, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    outputs = []
    for jobs in ("1", "2"):
        out, report = tmp_path / f"out-{jobs}.pgn", tmp_path / f"report-{jobs}.jsonl"
        done = subprocess.run(
            [sys.executable, "-c", _RUN_WITH_PIECE_SIZE, "600", "normalize", str(source), "-o", str(out), "--report",
             str(report), "--jobs", jobs, "--duplicates", policy, "--reject-to", str(tmp_path / f"bad-{jobs}.pgn"),
             "--moves", "check"], capture_output=True, env=env, timeout=300)
        assert done.returncode == 1, done.stderr  # the damaged games' errors
        outputs.append((out.read_bytes(), report.read_bytes(), (tmp_path / f"bad-{jobs}.pgn").read_bytes(),
                        done.stderr))
    assert outputs[0] == outputs[1]
    assert b"duplicate-game" in outputs[0][3]


def test_prefixes_from_standard_input_and_a_file_agree(database, tmp_path):
    args = ["--duplicates", "drop", "--duplicates-by", "prefix", "--report", str(tmp_path / "r.jsonl")]
    from_file = _run(["normalize", str(database), *args, "-o", str(tmp_path / "a.pgn")])
    report = (tmp_path / "r.jsonl").read_bytes()
    from_stdin = _run(["normalize", "-", *args, "--jobs", "2"], database.read_bytes())
    assert from_file.returncode == from_stdin.returncode == 0
    assert from_stdin.stdout == (tmp_path / "a.pgn").read_bytes()
    assert (tmp_path / "r.jsonl").read_bytes() == report.replace(str(database).encode(), b"standard input")
    prefixes = sum(len(case["prefixes"]) for case in ENGLISH)
    assert report.count(b'"prefix": true') == 2 * prefixes
    checked = _run(["check", str(database), "--duplicates", "--duplicates-by", "prefix"])
    assert checked.returncode == 0
    assert checked.stdout.count(b"duplicate-game") == report.count(b'"duplicate-game"')
    assert checked.stdout.count(b"a prefix of game") == 2 * prefixes


def test_add_tags_with_jobs_and_standard_input(database, tmp_path):
    one = _run(["normalize", str(database), "--add-tags", "plycount,gameid", "-o", str(tmp_path / "one.pgn")])
    two = _run(["normalize", "-", "--add-tags", "gameid,plycount", "--jobs", "2"], database.read_bytes())
    assert one.returncode == two.returncode == 0
    assert two.stdout == (tmp_path / "one.pgn").read_bytes()
    assert two.stdout.count(b"[NotationId ") == two.stdout.count(b"[Event ")
    marked = _run(["normalize", str(tmp_path / "one.pgn"), "--duplicates", "mark", "--identity-from", "tag",
                   "--jobs", "2", "-o", os.devnull])
    copies = sum(len(case["games"]) + len(case["duplicates"]) for case in ENGLISH)
    assert f"duplicate-game {copies}" in marked.stderr.decode()


@pytest.mark.parametrize(("args", "says"), [
    (["--add-tags", "plycount,eco"], b"--add-tags"),
    (["--duplicates", "mark", "--merge-tags"], b"--merge-tags"),
    (["--duplicates", "drop", "--duplicates-by", "prefix", "--identity-from", "tag"], b"--identity-from"),
])
def test_more_usage_errors(database, args, says):
    done = _run(["normalize", str(database), *args])
    assert done.returncode == 2 and says in done.stderr and b"Traceback" not in done.stderr


def test_check_with_jobs_reports_what_one_process_reports(tmp_path):
    """Pieces of a large file, whole small files and a suppressed copy: the workers record
    each game's key, the parent decides in input order."""
    games = [game for case in ENGLISH for game in case["games"]]
    silenced = games[0].replace("\n\n", "\n\n{notation: ignore[duplicate-game]} ", 1)
    big = tmp_path / "big.pgn"
    big.write_text("".join(games * 3 + [silenced] + games[::-1]), encoding="utf-8")
    small = tmp_path / "small.pgn"
    small.write_text("".join(games[:5]), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    outputs = []
    for jobs in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", _RUN_WITH_PIECE_SIZE, "900", "check", str(small), str(big), "--duplicates",
             "--jobs", jobs, "--format", "json"], capture_output=True, env=env, timeout=300)
        outputs.append((done.returncode, done.stdout, done.stderr))
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0][1])
    found = [p for p in report["problems"] if p["code"] == "duplicate-game"]
    assert report["summary"]["suppressed"] == 1 and report["summary"]["errors"] == 0
    distinct = len({p["message"].split(":")[0] for p in found})
    assert len(found) > 3 * len(games) and distinct > 5
