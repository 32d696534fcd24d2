"""``notation normalize`` as a user runs it: files, compression, standard streams, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from paths import ROOT

from notation.cli.main import main
from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, normalize_text
from notation.pgn.streams import read_text, write_text

pytestmark = [pytest.mark.slow]

FIXTURES = ROOT / "fixtures" / "pgn"


def _expected(name: str, profile: str) -> str:
    """The output the library gives for a fixture database."""
    out, _, _ = normalize_text(read_text(str(FIXTURES / name)), NormalizeOptions.create(profile))
    return out


@pytest.mark.parametrize("suffix_in", ["", ".gz", ".bz2", ".zst"])
@pytest.mark.parametrize("suffix_out", ["", ".gz", ".bz2", ".zst"])
def test_compressed_round_trips(tmp_path, suffix_in, suffix_out):
    source = tmp_path / f"in.pgn{suffix_in}"
    write_text(str(source), read_text(str(FIXTURES / "xboard_engines.pgn")))
    target = tmp_path / f"out.pgn{suffix_out}"
    assert main(["normalize", str(source), "-o", str(target), "--profile", "lichess", "--progress", "never"]) == 0
    assert read_text(str(target)) == _expected("xboard_engines.pgn", "lichess")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([source.name, target.name])  # no temp files left


def test_report_and_rejects_files(tmp_path, capsys):
    report, rejects, out = tmp_path / "report.jsonl", tmp_path / "rejects.pgn", tmp_path / "out.pgn"
    code = main(["normalize", str(FIXTURES / "malformed.pgn"), "-o", str(out), "--profile", "lichess",
                 "--report", str(report), "--reject-to", str(rejects), "--progress", "never", "--summary", "json"])
    assert code == 1
    summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert summary["games"] == 13 and summary["rejected"] == 5
    entries = [json.loads(line) for line in report.read_text().splitlines()]
    assert all(set(e) >= {"game", "line", "errors"} for e in entries)
    assert {e["game"] for e in entries if any(x["code"] == "unknown-variant" for x in e["errors"])} == {8}
    expected_out, _, _ = normalize_text(read_text(str(FIXTURES / "malformed.pgn")),
                                        NormalizeOptions.create("lichess", on_bad=BadGamePolicy.REJECT))
    assert read_text(str(out)) == expected_out
    assert rejects.read_text().count("[Event ") == 5
    # every input byte went to the output or the rejects file, as it was or rewritten
    original = (FIXTURES / "malformed.pgn").read_bytes()
    assert len(out.read_bytes()) + len(rejects.read_bytes()) >= len(original)


def test_in_place_keeps_a_backup_and_refuses_to_overwrite_it(tmp_path, capsys):
    path = tmp_path / "db.pgn.gz"
    write_text(str(path), read_text(str(FIXTURES / "fics_setup.pgn")))
    before = path.read_bytes()
    assert main(["normalize", str(path), "--in-place", "--profile", "lichess", "--progress", "never"]) == 0
    assert (tmp_path / "db.pgn.gz.bak").read_bytes() == before
    assert read_text(str(path)) == _expected("fics_setup.pgn", "lichess")
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # still gzip
    with pytest.raises(SystemExit) as exit_info:
        main(["normalize", str(path), "--in-place"])
    assert exit_info.value.code == 2
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["normalize", "/no/such/file.pgn"], "cannot read '/no/such/file.pgn'"),
        (["normalize", "{fixture}", "-o", "/no/such/dir/out.pgn"], "cannot write '/no/such/dir/out.pgn'"),
        (["normalize", "{fixture}", "-o", "{fixture}"], "use --in-place"),
        (["normalize", "-", "--in-place"], "standard input"),
        (["normalize", "{fixture}", "--jobs", "0"], "--jobs"),
        (["normalize", "{fixture}", "--variant-alias", "nonsense"], "ALIAS=VARIANT"),
        (["normalize", "{tmpdir}"], "is a directory"),
    ],
)
def test_unusable_paths_and_options_exit_2_with_one_line(tmp_path, capsys, argv, message):
    fixture = str(FIXTURES / "lichess_variants.pgn")
    argv = [a.replace("{fixture}", fixture).replace("{tmpdir}", str(tmp_path)) for a in argv]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_truncated_compressed_input_is_an_error_and_writes_nothing(tmp_path, capsys):
    source = tmp_path / "in.pgn.zst"
    write_text(str(source), read_text(str(FIXTURES / "lichess_variants.pgn")) * 50)
    source.write_bytes(source.read_bytes()[:-20])
    target = tmp_path / "out.pgn"
    with pytest.raises(SystemExit) as exit_info:
        main(["normalize", str(source), "-o", str(target), "--progress", "never"])
    assert exit_info.value.code == 2
    assert "ends early (truncated file)" in capsys.readouterr().err
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["in.pgn.zst"]


def _run(args: list[str], stdin: bytes) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "notation", *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


def test_standard_streams_keep_bytes_and_stay_quiet_in_pipes():
    data = (FIXTURES / "malformed.pgn").read_bytes()
    done = _run(["normalize", "-", "--profile", "lichess"], data)
    assert done.returncode == 1
    expected, _, _ = normalize_text(data.decode("utf-8", "surrogateescape"), NormalizeOptions.create("lichess"))
    assert done.stdout == expected.encode("utf-8", "surrogateescape")
    err = done.stderr.decode()
    assert err.startswith("notation normalize: 13 games read") and len(err.strip().splitlines()) == 1  # no bar


def test_jobs_give_the_same_bytes_as_one_process(tmp_path):
    games = read_text(str(FIXTURES / "lichess_variants.pgn")) + read_text(str(FIXTURES / "fics_setup.pgn"))
    source = tmp_path / "big.pgn.zst"
    write_text(str(source), games * 400)
    one, two = tmp_path / "one.pgn", tmp_path / "two.pgn"
    assert main(["normalize", str(source), "-o", str(one), "--profile", "xboard", "--progress", "never"]) == 0
    assert main(["normalize", str(source), "-o", str(two), "--profile", "xboard", "--jobs", "2",
                 "--progress", "never"]) == 0
    assert one.read_bytes() == two.read_bytes() and one.stat().st_size > 0
