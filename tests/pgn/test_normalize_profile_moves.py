"""The notation a profile implies for ``normalize``'s moves (``PROFILE_MOVES``): ``opentafl``
rewrites tafl games in OpenTafl records and ``wxf`` Xiangqi games in WXF, leaving the other
games' moves unread; every other profile, and no profile, keeps the moves; ``--moves``
always wins."""

from __future__ import annotations

import pytest

from notation.cli.main import main
from notation.pgn.normalize import PROFILE_MOVES, MovesOption, NormalizeOptions, normalize_text
from notation.variants import RuleFamily

TAFL = '[Event "t"]\n[Variant "Tablut"]\n\n1. E2-C2 e3-a3 *\n\n'
TAFL_OPENTAFL = '[Event "t"]\n[Variant "Tablut"]\n\n1. e2-c2 e3-a3 *\n\n'
CHESS = '[Event "c"]\n\n1. e4 e5 2. 0-0 *\n\n'  # an illegal move: reported only when chess moves are read
XIANGQI = '[Event "x"]\n[Variant "Xiangqi"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n'
XIANGQI_WXF = '[Event "x"]\n[Variant "Xiangqi"]\n\n1. C2=5 H8+7 2. H2+3 R9=8 *\n\n'
MIXED = TAFL + CHESS + XIANGQI


def test_the_table():
    assert dict(PROFILE_MOVES) == {
        "opentafl": (MovesOption.OPENTAFL, RuleFamily.TAFL),
        "wxf": (MovesOption.WXF, RuleFamily.XIANGQI),
    }


@pytest.mark.parametrize(("profile", "moves", "family"), [
    (None, MovesOption.KEEP, None),
    ("python-chess", MovesOption.KEEP, None),
    ("lichess", MovesOption.KEEP, None),
    ("opentafl", MovesOption.OPENTAFL, RuleFamily.TAFL),
    ("wxf", MovesOption.WXF, RuleFamily.XIANGQI),
])
def test_options_take_the_profiles_notation_when_none_is_asked(profile, moves, family):
    options = NormalizeOptions.create(profile)
    assert (options.moves, options.moves_family) == (moves, family)
    asked = NormalizeOptions.create(profile, moves="check")
    assert (asked.moves, asked.moves_family) == (MovesOption.CHECK, None)


@pytest.mark.parametrize(("profile", "expected"), [
    ("opentafl", TAFL_OPENTAFL + CHESS + XIANGQI),
    ("wxf", TAFL + CHESS + XIANGQI_WXF),
    ("lichess", MIXED),
    ("python-chess", MIXED),
])
def test_only_the_profiles_family_is_rewritten(profile, expected):
    out, summary, report = normalize_text(MIXED, NormalizeOptions.create(profile))
    assert out == expected
    codes = sorted(p["code"] for entry in report for kind in ("errors", "warnings") for p in entry.get(kind, []))
    assert codes == {"opentafl": ["square-case"], "wxf": []}.get(profile, [])  # the chess game is not read


def test_asking_for_moves_reads_every_family(tmp_path, capsys):
    source = tmp_path / "mixed.pgn"
    source.write_text(MIXED, encoding="utf-8")
    assert main(["normalize", str(source), "--profile", "wxf", "--progress", "never", "--summary", "none"]) == 0
    assert capsys.readouterr().out == TAFL + CHESS + XIANGQI_WXF
    code = main(["normalize", str(source), "--profile", "wxf", "--moves", "wxf", "--progress", "never",
                 "--summary", "none"])
    assert code == 1  # the chess game's illegal move is found now
    out = capsys.readouterr().out
    assert XIANGQI_WXF in out and CHESS in out


def test_the_profiles_notation_survives_jobs(tmp_path, capsys):
    source = tmp_path / "mixed.pgn"
    source.write_text(MIXED * 50, encoding="utf-8")
    outputs = []
    for jobs in ("1", "2"):
        assert main(["normalize", str(source), "--profile", "opentafl", "--jobs", jobs, "--progress", "never",
                     "--summary", "none"]) == 0  # the square-case warnings alone pass, as in check
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == (TAFL_OPENTAFL + CHESS + XIANGQI) * 50
