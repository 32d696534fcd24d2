"""A player's view in Dark Chess: the table of views and view readings
(fixtures/views/cases.json), properties over random positions, and the installed
``notation view`` command (the service: test_service_view.py)."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from installed import installed_script
from service_fixtures import load_fixture

from notation.errors import NotationError
from notation.fen.reader import read_fen
from notation.operations import convert_fen, validate_fen, view_fen
from notation.validation import FINISHED_GAME_CODES
from notation.views import UNSEEN, NoViewError, Viewer, read_view, validate_view, view_of, visible, write_view

CASES = load_fixture("views", "cases.json")
VIEWS = CASES["views"]
READINGS = CASES["reading"]


# -- the table ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", VIEWS, ids=[f"{c['side']}:{c['fen']}" for c in VIEWS])
def test_view_of_a_full_position(case):
    result = view_fen(case["fen"], case["variant"], Viewer(case["side"]))
    assert result.ok, result.errors
    assert result.fen == case["view"]
    # A view of a view is the same view.
    again = view_fen(result.fen, case["variant"], Viewer(case["side"]))
    assert again.ok and again.fen == case["view"]


@pytest.mark.parametrize("case", READINGS, ids=[f"{c['side']}:{c['view']}" for c in READINGS])
def test_reading_a_view(case):
    try:
        view = read_view(case["view"], case["variant"], Viewer(case["side"]))
        problems = validate_view(view)
    except NotationError as exc:
        problems = exc.problems
    assert sorted({p.code for p in problems}) == sorted(set(case["codes"]))
    text = " | ".join(p.message for p in problems)
    for expected in case.get("messages", []):
        assert expected in text


def test_a_view_fen_error_names_field_and_column():
    result = view_fen("????????/????????/????????/???????/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "dark", Viewer.WHITE)
    assert not result.ok
    (error,) = result.errors
    assert (error.code, error.field, error.column) == ("fen-syntax", "placement", 28)


def test_an_illegal_full_position_gets_its_problems_not_a_view():
    result = view_fen("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "dark", Viewer.BLACK)
    assert not result.ok and [p.code for p in result.errors] == ["too-many-kings"]


def test_a_captured_king_is_a_warning_and_the_view_is_written():
    result = view_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 9", "dark", Viewer.WHITE)
    assert result.ok
    assert [p.code for p in result.warnings] == ["king-captured"]
    assert "king-captured" in FINISHED_GAME_CODES


def test_no_view_without_fog():
    setup = read_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").setup
    with pytest.raises(NoViewError) as caught:
        view_of(setup, "standard", Viewer.WHITE)
    assert caught.value.code == "no-view"


# -- properties ---------------------------------------------------------------------------

PIECES = "QRBNP"


@st.composite
def dark_positions(draw):
    """Legal Dark Chess (or finished Dark Crazy Screen) positions: two kings, some pieces."""
    variant = draw(st.sampled_from(["dark", "darkcrazyscreen"]))
    cells = ["."] * 64
    squares = draw(st.permutations(range(64)))
    cells[squares[0]] = "K"
    cells[squares[1]] = "k"
    count = draw(st.integers(0, 20))
    for sq in squares[2 : 2 + count]:
        letter = draw(st.sampled_from(PIECES))
        if letter == "P" and sq >> 3 in (0, 7):
            continue
        cells[sq] = letter if draw(st.booleans()) else letter.lower()
    ranks = []
    for rank in range(7, -1, -1):
        row, run = "", 0
        for cell in cells[rank * 8 : rank * 8 + 8]:
            if cell == ".":
                run += 1
                continue
            row += (str(run) if run else "") + cell
            run = 0
        ranks.append(row + (str(run) if run else ""))
    turn = draw(st.sampled_from("wb"))
    pocket = "[]" if variant == "darkcrazyscreen" else ""
    fen = f"{'/'.join(ranks)}{pocket} {turn} - - 0 1"
    assume(validate_fen(fen, variant).valid)
    return variant, fen


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(dark_positions(), st.sampled_from(list(Viewer)))
def test_a_view_never_shows_an_unseen_piece(position, viewer):
    variant, fen = position
    full = read_fen(fen, variant).setup
    view = view_of(full, variant, viewer)
    seen = visible(full, view.variant, viewer)
    own = "PNBRQK" if viewer is Viewer.WHITE else "pnbrqk"
    for sq in range(64):
        if sq in view.unseen:
            assert not seen >> sq & 1
            assert full.cells[sq] not in own  # the viewer always sees its own pieces
            assert view.setup.cells[sq] == "."
        else:
            assert seen >> sq & 1
            assert view.setup.cells[sq] == full.cells[sq]
    written = write_view(view)
    board = written.split()[0].split("[")[0]
    assert board.count(UNSEEN) == len(view.unseen)


@pytest.mark.slow
@settings(max_examples=examples(150))
@given(dark_positions(), st.sampled_from(list(Viewer)))
def test_a_view_fen_round_trips_and_is_a_valid_view(position, viewer):
    variant, fen = position
    view = view_of(read_fen(fen, variant).setup, variant, viewer)
    written = write_view(view)
    back = read_view(written, variant, viewer)
    assert back == view
    assert write_view(back) == written
    assert [p for p in validate_view(back) if p.code not in FINISHED_GAME_CODES] == []
    assert view_fen(written, variant, viewer).fen == written


# -- front ends ---------------------------------------------------------------------------


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), "view", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_installed_command_writes_the_view_and_exits_0():
    case = VIEWS[1]
    done = _cli(case["fen"], "--variant", case["variant"], "--side", case["side"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == case["view"] + "\n"


def test_installed_command_json_lines_and_exit_1_for_a_bad_line():
    lines = [json.dumps({"fen": case["fen"], "variant": case["variant"]}) for case in VIEWS[:3]]
    lines.append("not a fen")
    done = _cli("--side", "white", "--json", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 4
    assert [a["ok"] for a in answers] == [True, True, True, False]
    assert answers[3]["errors"][0]["code"] == "fen-syntax" and answers[3]["errors"][0]["column"] == 2
    assert all(a["side"] == "white" for a in answers)
    assert [a["line"] for a in answers] == [1, 2, 3, 4]


def test_installed_command_says_an_error_once_on_its_line():
    done = _cli("--side", "white", stdin=VIEWS[1]["fen"] + "\nnot a fen\n")
    assert done.returncode == 1
    first, second = done.stdout.splitlines()
    assert second.startswith("error: line 2: fen-syntax: ")
    assert done.stderr == ""


@pytest.mark.slow
def test_installed_command_usage_errors_exit_2():
    assert _cli("x").returncode == 2  # --side is required
    assert _cli("x", "--side", "grey").returncode == 2
    done = _cli("x", "--side", "white", "--accept", "no-such-code")
    assert done.returncode == 2 and "unknown code" in done.stderr


def test_installed_command_warns_on_stderr_for_a_captured_king():
    done = _cli("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 9", "--side", "white")
    assert done.returncode == 0
    assert "king-captured" in done.stderr


def test_dark_keeps_an_en_passant_square_whose_capture_exposes_the_king():
    """No check in Dark Chess: taking en passant is legal even when it opens the rank to
    the own king, so the legal-only writer keeps the square that Standard drops."""
    fen = "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 2"
    assert convert_fen(fen, "standard").fen == "4k3/8/8/KPp4r/8/8/8/8 w - - 0 2"
    assert convert_fen(fen, "dark").fen == fen
