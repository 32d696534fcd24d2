"""The CI gate people can tune: ``--accept``, ``[tool.notation]`` in the checked project's
pyproject.toml, inline ``notation: ignore`` comments, a progress bar on a terminal, and
SARIF rules that link to each code's documentation; through the installed command."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from installed import installed_script
from paths import ROOT

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BAD_CASTLING = "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"  # bad-castling-rights
ZH = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
GAME = '[Event "x"]\n[FEN "{fen}"]\n\n{comment}1. e4 *\n\n'


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), "check", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=120, check=False)


@pytest.mark.slow
def test_accept_turns_an_error_into_a_warning(tmp_path):
    (tmp_path / "a.fen").write_text(f"{START}\n{BAD_CASTLING}\n")
    assert check("a.fen", cwd=tmp_path).returncode == 1
    done = check("a.fen", "--accept", "bad-castling-rights", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "bad-castling-rights" in done.stdout and "0 error(s), 2 warning(s)" in done.stderr
    assert check("a.fen", "--strict", "--accept", "bad-castling-rights", cwd=tmp_path).returncode == 1
    wrong = check("a.fen", "--accept", "no-such-code", cwd=tmp_path)
    assert wrong.returncode == 2 and "no-such-code" in wrong.stderr


@pytest.mark.slow
def test_pyproject_settings_of_the_checked_project(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "puzzles"\n\n'
        "[tool.notation]\n"
        'variant = "house"\n'
        'aliases = { house = "crazyhouse" }\n'
        'accept = ["bad-castling-rights"]\n'
        'exclude = ["vendor", "*.old.fen"]\n'
        "[tool.notation.other]\nignored = true\n"
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "zh.fen").write_text(f"{ZH}\n{BAD_CASTLING.replace(' w', '[] w')}\n")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "broken.fen").write_text("not a fen\n")
    (tmp_path / "sub" / "x.old.fen").write_text("not a fen\n")
    done = check(".", cwd=tmp_path / "sub")  # settings found in a parent directory
    assert done.returncode == 0, done.stdout + done.stderr
    assert {line.split(": ")[:2][1] for line in done.stdout.splitlines()} == {"bad-castling-rights"}
    assert done.stdout.startswith("./zh.fen:2:")
    assert "1 file(s), 2 position(s), 0 error(s), 2 warning(s), 1 excluded" in done.stderr
    everything = check(".", cwd=tmp_path)
    assert "vendor" not in everything.stdout and "2 excluded" in everything.stderr
    # the command line wins over the file and adds to it
    assert check("sub", "--variant", "standard", cwd=tmp_path).returncode == 1
    nothing_left = check("sub", "--exclude", "zh.fen", cwd=tmp_path)
    assert nothing_left.returncode == 2 and "2 excluded" in nothing_left.stderr


@pytest.mark.slow
def test_bad_settings_are_a_usage_error_naming_the_file(tmp_path):
    (tmp_path / "a.fen").write_text(f"{START}\n")
    for table, word in [('colour = "w"', "colour"), ('accept = "x"', "list of strings"),
                        ('accept = ["nope"]', "nope"), ('profile = "nope"', "nope"), ("[", "TOML")]:
        (tmp_path / "pyproject.toml").write_text(f"[tool.notation]\n{table}\n")
        done = check("a.fen", cwd=tmp_path)
        assert done.returncode == 2, table
        assert "pyproject.toml" in done.stderr and word in done.stderr and "Traceback" not in done.stderr


# TOML documents and whether each holds [tool.notation]: every spelling of the key, and
# files that mention notation elsewhere (a comment, a value, another table's key).
HOLDS_OUR_TABLE = [
    ('[tool.notation]\nvariant = "crazyhouse"\n', True),
    ('[tool."notation"]\nvariant = "crazyhouse"\n', True),
    ("[tool.'notation']\nvariant = 'crazyhouse'\n", True),
    ('[tool]\nnotation.variant = "crazyhouse"\n', True),
    ('tool.notation.variant = "crazyhouse"\n', True),
    ('tool = { notation = { variant = "crazyhouse" } }\n', True),
    ('[tool."\\u006eotation"]\nvariant = "crazyhouse"\n', True),
    ('[tool."\\U0000006eotation"]\nvariant = "crazyhouse"\n', True),
    ('[tool.notation.build]\ncompiled = []\n', True),
    ('[project]\nname = "puzzles"\n\n[tool.ruff]\nline-length = 100\n', False),
    ('[project]\ndescription = "chess notation tools"\n', False),
    ("# notation settings go here one day\n[tool.pytest.ini_options]\naddopts = '-q'\n", False),
    ('[tool.Notation]\nvariant = "crazyhouse"\n', False),  # keys are case-sensitive
    ("", False),
]


def test_a_file_that_cannot_name_the_table_is_not_parsed():
    """``may_name_our_table`` never says no to a document holding [tool.notation] (tomllib
    decides), and says no to those that cannot name it."""
    import tomllib

    from notation.check.settings import may_name_our_table

    for text, holds in HOLDS_OUR_TABLE:
        document = tomllib.loads(text)
        assert ("notation" in document.get("tool", {})) is holds, text
        data = text.encode()
        assert may_name_our_table(data) or not holds, text
        if "notation" not in text and "\\u" not in text and "\\U" not in text:
            assert not may_name_our_table(data), text


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["sub", "vendor", "a b", "x.old.fen", ".", "..", "", "zh.fen", ".hidden"]),
                min_size=1, max_size=6),
       st.sampled_from(["", "sub", "sub/deeper", "elsewhere"]))
def test_exclude_patterns_see_the_parts_pathlib_sees(names, root_below):
    """A path's parts relative to the settings' directory, read with ``os.path``, are those
    ``PurePosixPath`` gives (what the exclude patterns matched before pathlib was dropped)."""
    from pathlib import Path, PurePosixPath

    from notation.check.settings import _relative_parts

    root = os.path.join(os.getcwd(), root_below) if root_below else os.getcwd()
    for path in ("/".join(names), os.path.join(os.getcwd(), *names)):
        expected = PurePosixPath(Path(os.path.relpath(os.path.abspath(path), root)).as_posix()).parts
        assert tuple(_relative_parts(path, root)) == expected, path


@pytest.mark.slow
def test_a_pyproject_without_our_table_is_other_tools_business(tmp_path):
    """A Python project's pyproject.toml: without [tool.notation] it gives no settings and
    its TOML is not judged; with the table, broken TOML or bytes that are not UTF-8 are a
    usage error naming the file."""
    (tmp_path / "a.fen").write_text(f"{BAD_CASTLING}\n")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "games"\nversion = [\n')  # broken, not ours
    done = check("a.fen", cwd=tmp_path)
    assert done.returncode == 1 and "bad-castling-rights" in done.stdout, done.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.notation]\naccept = ["bad-castling-rights"]\nversion = [\n')
    done = check("a.fen", cwd=tmp_path)
    assert done.returncode == 2 and "pyproject.toml" in done.stderr and "TOML" in done.stderr
    assert "Traceback" not in done.stderr
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.notation]\naccept = ["bad-castling-rights"]\n# caf\xe9\n')
    done = check("a.fen", cwd=tmp_path)
    assert done.returncode == 2 and "pyproject.toml" in done.stderr and "UTF-8" in done.stderr
    assert "Traceback" not in done.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.notation]\naccept = ["bad-castling-rights"]\n')
    assert check("a.fen", cwd=tmp_path).returncode == 0


@pytest.mark.slow
def test_config_names_the_settings_file(tmp_path):
    (tmp_path / "a.fen").write_text(f"{BAD_CASTLING}\n")
    (tmp_path / "gate.toml").write_text('[tool.notation]\naccept = ["bad-castling-rights"]\n')
    assert check("a.fen", "--config", "gate.toml", cwd=tmp_path).returncode == 0


@pytest.mark.slow
def test_profile_mismatch_warns_about_positions_written_otherwise(tmp_path):
    (tmp_path / "zh.fen").write_text(f"{ZH}\n{ZH.replace('[]', '/')}\n")
    done = check("zh.fen", "--variant", "crazyhouse", "--profile", "lichess", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        f"zh.fen:1:1: profile-mismatch: lichess writes this position as {ZH.replace('[]', '/')}"
    ]


@pytest.mark.slow
def test_inline_suppression_of_one_line_and_one_game(tmp_path):
    (tmp_path / "a.fen").write_text(
        f"{BAD_CASTLING}  # notation: ignore[bad-castling-rights]\n"
        f"{BAD_CASTLING} # notation: ignore\n"
        f"{BAD_CASTLING} # notation: ignore[opposite-check]\n"
    )
    done = check("a.fen", cwd=tmp_path)
    assert done.returncode == 1
    assert [line.split(":")[1] for line in done.stdout.splitlines()] == ["3", "3"]  # one per castling right
    assert "4 suppressed" in done.stderr
    pgn = GAME.format(fen=START, comment="") + GAME.format(fen=START, comment="{notation: ignore[missing-setup]} ")
    (tmp_path / "games.pgn").write_text(pgn)
    done = check("games.pgn", cwd=tmp_path)
    assert [line.split(":")[1] for line in done.stdout.splitlines()] == ["2"]  # the first game's FEN tag


@pytest.mark.slow
def test_progress_bar_only_on_a_terminal(tmp_path):
    (tmp_path / "a.fen").write_text(f"{START}\n" * 20000)
    piped = check("a.fen", cwd=tmp_path)
    assert piped.returncode == 0 and "check:" not in piped.stderr.replace("notation check:", "")
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal's size
    try:
        process = subprocess.Popen([installed_script("notation"), "check", "a.fen"], cwd=tmp_path,
                                   stdout=subprocess.DEVNULL, stderr=secondary, stdin=subprocess.DEVNULL)
        os.close(secondary)
        secondary = -1
        seen = b""
        deadline = time.monotonic() + 120  # a bound on the loop, not a timing assertion
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:  # the terminal closed: the process has ended
                    break
                if not chunk:
                    break
                seen += chunk
            elif process.poll() is not None:
                break
        assert process.wait(timeout=120) == 0
    finally:
        os.close(primary)
        if secondary >= 0:
            os.close(secondary)
    text = seen.decode("utf-8", "replace")
    assert re.search(r"check: +\d+%", text), text
    assert "1 file(s), 20000 position(s), 0 error(s)" in text


@pytest.mark.slow
def test_sarif_rules_link_to_each_codes_documentation(tmp_path):
    (tmp_path / "a.fen").write_text(f"{BAD_CASTLING}\nnot a fen\n")
    (tmp_path / "g.pgn").write_text(GAME.format(fen=START, comment=""))
    done = check(".", "--format", "sarif", cwd=tmp_path)
    rules = json.loads(done.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert {rule["id"] for rule in rules} == {"bad-castling-rights", "fen-syntax", "missing-setup"}
    for rule in rules:
        uri = rule["helpUri"]
        assert re.fullmatch(r"https://\S+/(validation|check)\.md#[a-z-]+", uri), uri
        page, anchor = uri.rsplit("/", 1)[1].split("#")
        doc = (ROOT / "docs" / page).read_text(encoding="utf-8")
        headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).strip().replace(" ", "-")
                    for h in re.findall(r"^#+ (.*)$", doc, flags=re.M)}
        assert anchor in headings, (anchor, headings)
        assert f"`{rule['id']}`" in doc
