"""``notation moves``, ``play`` and ``perft`` run as a user runs them (the installed
script, real pipes): output, errors naming the move, its ply and the position, exit codes,
and the JSON-lines mode."""

from __future__ import annotations

import json
import subprocess

import pytest
from installed import installed_script

pytestmark = [pytest.mark.slow]


def notation(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script("notation"), *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_moves_of_the_start_in_each_notation_in_one_order() -> None:
    san = notation("moves").stdout.split()
    uci = notation("moves", "--notation", "uci").stdout.split()
    lan = notation("moves", "--notation", "lan").stdout.split()
    assert len(san) == len(uci) == len(lan) == 20
    assert (san[0], uci[0], lan[0]) == ("Na3", "b1a3", "Nb1-a3")
    assert "e4" in san and "e2e4" in uci and "e2-e4" in lan
    assert [u[:2] for u in uci] == sorted((u[:2] for u in uci), key=lambda s: (s[1], s[0]))


def test_moves_of_a_finished_game_say_so() -> None:
    done = notation("moves", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert done.returncode == 0 and done.stdout == ""
    assert "checkmate" in done.stderr and "0-1" in done.stderr


def test_moves_refuses_an_illegal_fen_and_an_unknown_notation() -> None:
    bad = notation("moves", "8/8/8/8/8/8/8/8 w - - 0 1")
    assert bad.returncode == 1 and "missing-king" in bad.stderr and "Traceback" not in bad.stderr
    xq = notation("moves", "--variant", "xiangqi", "--notation", "lan", "--json", stdin='{"notation": "opentafl"}\n')
    assert json.loads(xq.stdout)["errors"][0]["code"] == "bad-notation"


def test_play_prints_the_fen_reached_and_warns_of_lenient_readings() -> None:
    done = notation("play", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "0-0")
    assert done.returncode == 0
    assert done.stdout == "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4\n"
    assert "castling-with-zeros" in done.stderr and "ply 7" in done.stderr


def test_play_names_the_first_illegal_move_its_ply_and_position() -> None:
    done = notation("play", "e4", "e5", "Qxh1")
    assert done.returncode == 1 and done.stdout == ""
    assert "illegal-move" in done.stderr and "Qxh1" in done.stderr and "ply 3" in done.stderr
    assert "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq" in done.stderr


def test_play_from_a_fen_in_a_variant_in_a_profile() -> None:
    fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    done = notation("play", fen, "P@e4", "--variant", "crazyhouse", "--profile", "xboard")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[p] b KQkq")


def test_play_json_lines_answer_each_line() -> None:
    lines = "\n".join(
        [
            json.dumps({"variant": "atomic", "moves": ["e4", "d5", "exd5"]}),
            json.dumps({"moves": ["e4", "e4"]}),
            "not json",
            json.dumps({"moves": [4]}),
        ]
    )
    done = notation("play", "--json", stdin=lines + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1 and len(answers) == 4
    assert answers[0]["ok"] and answers[0]["fen"].startswith("rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b")
    assert answers[1]["errors"][0]["code"] == "illegal-move" and answers[1]["errors"][0]["ply"] == 2
    assert answers[2]["errors"][0]["code"] == "bad-input" and answers[3]["errors"][0]["code"] == "bad-input"


def test_perft_counts_and_divides() -> None:
    assert notation("perft", "--depth", "3").stdout == "8902\n"
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert notation("perft", kiwipete, "--depth", "2").stdout == "2039\n"
    divided = notation("perft", "--depth", "2", "--divide").stdout.splitlines()
    assert "e2e4: 20" in divided and divided[-1] == "400" and len(divided) == 22


def test_perft_refuses_a_deep_count_by_its_estimate_not_its_depth() -> None:
    done = notation("perft", "--depth", "20")
    assert done.returncode == 1 and "would count about 1e+26 paths" in done.stderr and "--max-nodes" in done.stderr
    answer = json.loads(notation("perft", "--json", stdin='{"depth": 30}\n').stdout)
    assert answer["errors"][0]["code"] == "depth-too-large" and answer["errors"][0]["limit"] == 10**10
    assert notation("perft", "--depth", "201").returncode == 2  # past the recursion's bound: a usage error


def test_perft_refuses_a_depth_that_would_run_for_hours() -> None:
    answer = json.loads(notation("perft", "--json", stdin='{"depth": 8}\n').stdout)
    error = answer["errors"][0]
    assert error["code"] == "depth-too-large" and error["estimate"] > error["limit"] == 10**10


def test_play_passes_with_a_null_move_and_refuses_one_where_none_exists() -> None:
    # On a command line "--" ends the options (argparse), so a null move is written Z0 there.
    done = notation("play", "e4", "Z0", "d4")
    assert done.returncode == 0 and done.stdout.startswith("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b")
    xiangqi = notation("play", "--variant", "xiangqi", "h2e2", "Z0")
    assert xiangqi.returncode == 1 and "bad-move-syntax" in xiangqi.stderr and "ply 2" in xiangqi.stderr


def test_auto_guesses_the_variant_from_the_fen_as_convert_does() -> None:
    zh = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    done = notation("moves", "--variant", "auto", zh, "--notation", "uci")
    assert done.returncode == 0 and "P@e4" in done.stdout.split()
    assert "guessed-variant" in done.stderr and "Crazyhouse" in done.stderr
    plain = notation("perft", "--variant", "auto", "--depth", "2", "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert plain.stdout == "66\n" and plain.stderr == ""
    answer = json.loads(notation("perft", "--json", stdin=json.dumps({"fen": zh, "variant": "auto"}) + "\n").stdout)
    assert answer["variant"] == "crazyhouse" and answer["warnings"][0]["code"] == "guessed-variant"


def test_an_opentafl_capture_list_is_a_move_not_a_position() -> None:
    # A record's capture list has '/' in it; only a position has a space or a board of ranks.
    start = notation("play", "--variant", "tablut", "e2-c2")
    assert start.returncode == 0, start.stderr
    with_captures = notation("play", "--variant", "tablut", "e2-c2xc3/c1")
    assert with_captures.returncode == 0 and with_captures.stdout == start.stdout
    assert "wrong-captures" in with_captures.stderr and "fen-syntax" not in with_captures.stderr


def test_an_overlong_json_line_is_answered_without_being_held() -> None:
    lines = '{"moves": ["' + "e4" * 40_000 + '"]}\n' + json.dumps({"moves": ["e4"]}) + "\n"
    done = notation("play", "--json", stdin=lines)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1 and len(answers) == 2
    assert answers[0]["errors"][0]["code"] == "line-too-long" and answers[0]["line"] == 1
    assert answers[1]["ok"]
