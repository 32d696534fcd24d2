"""``notation select`` and ``select_games`` on a database of every variant family: the games
each criterion picks (fixtures/selection/select_cases.json), written byte for byte, in input
order; the library gives the same games; selecting and inverting partition the input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.cli.main import main
from notation.pgn.gameread import read_games
from notation.selection import Criteria, Keep, parse_plies, parse_tag_test, select_games

DATABASE = ROOT / "fixtures" / "selection" / "database.pgn"
CASES = json.loads((ROOT / "fixtures" / "selection" / "select_cases.json").read_text(encoding="utf-8"))["cases"]
TEXT = DATABASE.read_bytes().decode("utf-8")
GAMES = {game.number: game.text for game in read_games(TEXT)}


def _select(tmp_path, database: str, *args: str) -> str:
    source = tmp_path / "in.pgn"
    source.write_bytes(database.encode("utf-8", "surrogateescape"))
    out = tmp_path / "out.pgn"
    assert main(["select", str(source), *args, "-o", str(out), "--summary", "none"]) == 0
    return out.read_bytes().decode("utf-8", "surrogateescape")


def test_the_database_holds_every_family_and_the_texts_make_it_up():
    assert len(GAMES) == 14
    assert "".join(GAMES.values()) == TEXT
    variants = {game.variant.key for game in read_games(TEXT) if game.variant is not None}
    assert variants == {"standard", "chess960", "crazyhouse", "threecheck", "atomic", "xiangqi", "tablut"}


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_select_writes_the_games_each_criterion_picks(tmp_path, case):
    written = _select(tmp_path, TEXT, *case["args"])
    assert written == "".join(GAMES[number] for number in case["selected"])


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_inverted_selection_writes_the_other_games(tmp_path, case):
    if "--invert" in case["args"]:
        pytest.skip("inverted already")
    written = _select(tmp_path, TEXT, *case["args"], "--invert")
    assert written == "".join(text for number, text in GAMES.items() if number not in case["selected"])


def test_the_library_picks_what_the_command_picks():
    criteria = Criteria(tags=(parse_tag_test("Event=Spring Open"),), plies=parse_plies("6:"))
    assert [game.number for game in select_games(read_games(TEXT), criteria)] == [1, 2, 3]
    others = Criteria(variants=frozenset({"crazyhouse"}), keep=Keep.OTHERS)
    assert [game.number for game in select_games(read_games(TEXT), others)] == [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14]
    reaching = Criteria(reaches=("rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR[Pp] w KQkq - 0 1",))
    assert [game.number for game in select_games(read_games(TEXT), reaching)] == [8, 9]
    problems = Criteria(problems=frozenset({"illegal-move"}))
    assert [game.number for game in select_games(read_games(TEXT), problems)] == [5]


_ENDINGS = st.sampled_from(["\n", "\r\n"])
_CRITERIA = st.sampled_from([case["args"] for case in CASES])


@settings(deadline=None, max_examples=examples(25))
@given(order=st.lists(st.sampled_from(sorted(GAMES)), min_size=0, max_size=12), ending=_ENDINGS, args=_CRITERIA)
def test_output_games_are_the_input_s_own_texts_in_order_and_invert_is_the_rest(tmp_path_factory, order, ending,
                                                                              args):
    """Any database made of these games (repeated, reordered, with either line ending):
    the games written are the input's game texts, byte for byte, in input order, and
    those written with and without --invert make up the input, each game once."""
    texts = [GAMES[number].replace("\n", ending) for number in order]
    database = "".join(texts)
    tmp = tmp_path_factory.mktemp("db")
    chosen = _select(tmp, database, *args)
    if "--invert" in args:
        args = [arg for arg in args if arg != "--invert"]
        chosen = _select(tmp, database, *args)
    others = _select(tmp, database, *args, "--invert")
    wanted = {number for case in CASES if case["args"] == args for number in case["selected"]}
    assert chosen == "".join(text for number, text in zip(order, texts, strict=True) if number in wanted)
    assert others == "".join(text for number, text in zip(order, texts, strict=True) if number not in wanted)


@pytest.mark.parametrize(("args", "message"), [
    (["--tag", "White"], "write NAME=VALUE"),
    (["--tag", "=x"], "write NAME=VALUE"),
    (["--tag", "White~("], "is not valid"),
    (["--plies", "x:3"], "whole numbers"),
    (["--plies", "9:3"], "MIN is more than MAX"),
    (["--variant", "nosuchchess"], "--variant"),
    (["--has-problem", "no-such-code"], "unknown code"),
    (["--reaches", "not a fen"], "--reaches"),
    (["--reaches", "8/8/8/8/8/8/8/8 w - - 0 1"], "not a legal position"),
    (["--reaches", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--variant", "xiangqi"],
     "not a legal position"),
    (["--jobs", "0"], "--jobs"),
])
def test_a_bad_command_line_is_a_usage_error_with_a_message(tmp_path, capsys, args, message):
    with pytest.raises(SystemExit) as stopped:
        main(["select", str(DATABASE), *args, "-o", str(tmp_path / "out.pgn")])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error
    assert not (tmp_path / "out.pgn").exists()


def test_the_example_in_the_docs_runs(capsys):
    import re

    docs = (ROOT / "docs" / "pgn.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", docs, flags=re.S) if "select_games" in b]
    exec(block, {"path": str(DATABASE)})  # noqa: S102 - the docs' own example
    assert capsys.readouterr().out == "8 dropper\n"


@pytest.mark.parametrize("args", [
    ["--tag", "White~^Carls"],
    ["--reaches", "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", "--invert"],
])
def test_jobs_give_what_one_process_gives_across_small_chunks_and_a_long_stretch(args):
    """Chunks of a few games for the workers, and a game longer than a chunk may be (a
    comment of 20,000 characters), which the parent judges itself between them."""
    from notation.cli.main import build_parser
    from notation.cli.select_cmd import criteria_from
    from notation.selection.jobs import Counts, selected_text
    from notation.selection.select import Selector

    criteria = criteria_from(build_parser(["select"]).parse_args(["select", "-", *args]))
    huge = '[Event "Long"]\n[White "Carlsen, Magnus"]\n[Result "*"]\n\n1. e4 {' + "x" * 20_000 + "} e5 *\n\n"
    text = TEXT * 7 + huge + TEXT * 5
    blocks = [text[at:at + 999] for at in range(0, len(text), 999)]
    one, two = Counts(), Counts()
    alone = "".join(selected_text(blocks, Selector(criteria), one))
    shared = "".join(selected_text(blocks, Selector(criteria), two, jobs=2, chunk_chars=3000,
                                   longest_chunk_chars=6000))
    assert alone and shared == alone
    assert (two.games, two.written) == (one.games, one.written)
    assert one.games == 14 * 12 + 1
