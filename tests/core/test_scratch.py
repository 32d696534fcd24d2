"""A run's temporary files: where none can be made, the command says so and what to do, as
an error of its environment (exit status 3), never an internal error."""

from __future__ import annotations

import tempfile

import pytest

from notation.cli.main import main
from notation.scratch import ScratchUnavailable, scratch_directory, scratch_file


@pytest.fixture
def nowhere(tmp_path, monkeypatch):
    """``tempfile``'s directory made one that does not exist (as a TMPDIR gone away)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))


def test_a_directory_and_a_file_are_made_private_and_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with scratch_directory("notation-test-") as directory:
        assert directory.startswith(str(tmp_path / "notation-test-"))
        (tmp_path / directory / "piece.pgn").write_text("*\n")
    with scratch_file("notation-test-") as spool:
        spool.write(b"keys")
        spool.seek(0)
        assert spool.read() == b"keys"
    assert list(tmp_path.iterdir()) == []


def test_none_can_be_made(nowhere):
    with pytest.raises(ScratchUnavailable, match=r"cannot make a temporary file \(.*\); set TMPDIR"):
        with scratch_directory("notation-test-"):
            pass
    with pytest.raises(ScratchUnavailable, match="set TMPDIR to a writable directory"):
        scratch_file("notation-test-")


@pytest.mark.parametrize("argv", [["check", "--jobs", "2"], ["normalize", "-o", "out.pgn", "--jobs", "2"]],
                         ids=["check", "normalize"])
def test_a_command_says_what_to_do_not_internal_error(tmp_path, nowhere, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games.pgn").write_text('[Event "?"]\n\n1. e4 e5 *\n\n' * 20)
    command, *options = argv
    assert main([command, "games.pgn", *options, "--progress", "never"]) == 3
    err = capsys.readouterr().err
    assert err.startswith(f"notation {command}: error: cannot make a temporary file (")
    assert "set TMPDIR to a writable directory" in err and "internal error" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.pgn"]  # no output left behind
