"""``POST /v1/pgn/normalize`` with the database options of ``notation normalize`` (the
export format, duplicates, broken games, repairs), over a small real-shaped database
(fixtures/service/database.pgn: a game, its copy in UCI with other tags, a board feed cut
short of it, a game whose Result tag contradicts its mate, a game with an illegal move).
The same options give the same bytes as the command: test_service_cli_parity.py."""

from __future__ import annotations

import json

import pytest
from service_fixtures import FIXTURES, app, assert_problem, client  # noqa: F401  (pytest fixtures)

DATABASE = (FIXTURES / "service" / "database.pgn").read_bytes()
INVALID_REQUEST = "tag:notation,2025:problem:invalid-request"


def normalized(client, query: str, data: bytes = DATABASE) -> tuple[list[dict], dict]:
    """The game lines and the summary line ``POST /v1/pgn/normalize?query`` answers."""
    response = client.post(f"/v1/pgn/normalize?{query}", data=data, content_type="application/x-chess-pgn")
    assert response.status_code == 200, response.get_data(as_text=True)
    lines = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert lines[-1]["kind"] == "summary"
    return lines[:-1], lines[-1]


def output(games: list[dict]) -> str:
    return "".join(game["text"] for game in games if not game["rejected"])


def codes(game: dict) -> list[str]:
    return [problem["code"] for entry in game["problems"] for kind in ("errors", "warnings")
            for problem in entry.get(kind, [])]


def refused(client, query: str) -> list[str]:
    """The parameters the 422 of ``query`` names."""
    response = client.post(f"/v1/pgn/normalize?{query}", data=DATABASE, content_type="application/x-chess-pgn")
    problem = assert_problem(response, 422, INVALID_REQUEST)
    return [error["parameter"] for error in problem["errors"]]


# --- export ------------------------------------------------------------------------------

def test_export_full_lays_every_game_out_as_the_standard_says(client):
    games, summary = normalized(client, "export=full")
    assert games[0]["text"].endswith(
        '[ECO "C23"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 {threatening mate} 3... Nf6 $4 4. Qxf7# 1-0\n\n')
    assert "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0" in games[1]["text"]  # the UCI copy, in SAN
    assert games[4]["text"] == DATABASE.decode().split("\n\n", 8)[-1]  # its illegal move keeps it as read
    assert summary["games"] == 5 and summary["problems"]["illegal-move"] == 1


def test_export_reduced_keeps_the_roster_and_the_moves_alone(client):
    games, _ = normalized(client, "export=reduced")
    first = games[0]["text"]
    assert "ECO" not in first and "{threatening mate}" not in first and "$4" not in first
    assert first.startswith('[Event "Spring club match"]\n[Site "Porto"]\n[Date "2024.03.09"]\n[Round "1"]\n')
    assert "\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n" in first


def test_export_keep_is_the_default_and_changes_no_layout(client):
    default, _ = normalized(client, "")
    kept, _ = normalized(client, "export=keep")
    assert output(default) == output(kept) == DATABASE.decode()


@pytest.mark.parametrize("value", ["FULL", "export", "", "full,reduced"])
def test_a_bad_export_value_is_422_naming_it(client, value):
    assert refused(client, f"export={value}") == ["export"]


def test_export_given_twice_is_422(client):
    assert refused(client, "export=full&export=reduced") == ["export"]


# --- duplicates (and every option's bad values) ---------------------------------------------

def test_duplicates_drop_leaves_the_uci_copy_out_and_names_the_first(client):
    games, summary = normalized(client, "duplicates=drop")
    assert [game["text"] == "" for game in games] == [False, True, False, False, False]
    warning = next(problem for entry in games[1]["problems"] for problem in entry["warnings"]
                   if problem["code"] == "duplicate-game")
    assert warning["first"] == {"input": "", "line": 1, "game": 1}
    assert warning["message"].startswith("the same game as game 1 (line 1): the same variant, start and main line")
    assert games[1]["problems"][0]["line"] == 12 and games[1]["dropped"] and not games[1]["rejected"]
    assert not any(game["dropped"] for game in games if game["game"] != 2)
    assert output(games).count("[Event ") == 4 and "e2e4" not in output(games)
    assert summary["problems"] == {"duplicate-game": 1}
    assert summary["dropped"] == 1 and summary["games"] == summary["changed"] + summary["unchanged"] + 1


def test_duplicates_mark_keeps_every_game(client):
    games, summary = normalized(client, "duplicates=mark")
    assert output(games) == DATABASE.decode()
    assert [codes(game) for game in games] == [[], ["duplicate-game"], [], [], []]


def test_duplicates_by_prefix_finds_the_feed_cut_short(client):
    games, _ = normalized(client, "duplicates=drop&duplicates_by=prefix")
    assert [game["text"] == "" for game in games] == [False, True, True, False, False]
    prefix = next(problem for entry in games[2]["problems"] for problem in entry["warnings"])
    assert prefix["prefix"] is True and prefix["first"]["game"] == 1


def test_duplicates_by_a_tag_tells_apart_copies_with_other_values(client):
    """Game 2's Event (and Date, as written) differ from game 1's: by Event, it is not a copy."""
    games, summary = normalized(client, "duplicates=drop&duplicates_by=Event")
    assert all(game["text"] for game in games) and "duplicate-game" not in summary["problems"]
    games, _ = normalized(client, "duplicates=drop&duplicates_by=White,Black,Round")
    assert games[1]["text"] == ""


def test_merge_tags_gives_the_game_kept_the_tags_it_lacks(client):
    database = DATABASE.replace(b'[Result "1-0"]\n\n1. e2e4', b'[Result "1-0"]\n[Annotator "Club bulletin"]\n\n1. e2e4')
    games, _ = normalized(client, "duplicates=drop&merge_tags=true", database)
    assert '[Annotator "Club bulletin"]' in games[0]["text"] and games[1]["text"] == ""


def test_add_tags_writes_plycount_and_the_identity(client):
    games, _ = normalized(client, "add_tags=gameid,plycount")
    assert '[PlyCount "7"]' in games[0]["text"] and '[PlyCount "7"]' in games[1]["text"]
    ids = [line for game in games[:2] for line in game["text"].splitlines() if line.startswith("[NotationId")]
    assert len(ids) == 2 and ids[0] == ids[1]  # the same game in SAN and in UCI: one identity


@pytest.mark.parametrize(("query", "parameter"), [
    ("duplicates=DROP", "duplicates"),
    ("duplicates=remove", "duplicates"),
    ("duplicates_by=White", "duplicates_by"),
    ("duplicates=mark&duplicates_by=White%20Elo", "duplicates_by"),
    ("merge_tags=true", "merge_tags"),
    ("duplicates=mark&merge_tags=true", "merge_tags"),
    ("duplicates=drop&merge_tags=yes", "merge_tags"),
    ("add_tags=plycount,eco", "add_tags"),
    ("duplicates=drop&duplicates=mark", "duplicates"),
    ("broken=cut", "broken"),
    ("broken=", "broken"),
    ("fix_results=1", "fix_results"),
    ("fix_tags=yes", "fix_tags"),
    ("fix_move_numbers=True", "fix_move_numbers"),
    ("fix_tags=true&fix_tags=false", "fix_tags"),
])
def test_bad_database_options_are_422_naming_them(client, query, parameter):
    assert refused(client, query) == [parameter]


# --- broken games and repairs ---------------------------------------------------------------

def test_broken_truncate_cuts_the_game_before_its_illegal_move(client):
    games, summary = normalized(client, "broken=truncate")
    assert games[4]["text"].endswith(
        "6. Nf3 Nbd7 {game cut here: illegal-move at ply 13 'Qxh7': 'Qxh7' is not a legal move here} *\n")
    assert '[Result "*"]' in games[4]["text"] and codes(games[4]) == ["game-truncated"]
    assert "illegal-move" not in summary["problems"]


def test_broken_drop_leaves_the_game_out(client):
    games, summary = normalized(client, "broken=drop")
    assert games[4]["rejected"] and games[4]["text"] == "" and codes(games[4]) == ["game-dropped"]
    assert summary["rejected"] == 1 and output(games).count("[Event ") == 4


def test_fix_results_gives_the_mate_its_result(client):
    games, summary = normalized(client, "fix_results=true")
    assert '[Result "0-1"]' in games[3]["text"] and games[3]["text"].endswith("Qh4# 0-1\n\n")
    assert summary["problems"]["result-fixed"] == 1
    unfixed, _ = normalized(client, "")
    assert '[Result "1-0"]' in unfixed[3]["text"]


def test_fix_tags_writes_the_date_in_full(client):
    games, _ = normalized(client, "fix_tags=true")
    assert '[Date "2024.03.09"]' in games[1]["text"] and codes(games[1]) == ["tag-fixed"]


def test_fix_move_numbers_renumbers_from_the_start(client):
    game = b'[Event "feed"]\n[Result "*"]\n\n1. e4 e5 3. Nf3 Nc6 7. Bb5 *\n'
    games, summary = normalized(client, "fix_move_numbers=true", game)
    assert games[0]["text"].endswith("1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n")
    assert summary["problems"]["move-numbers-fixed"] == 1


def test_every_option_at_once(client):
    query = ("export=full&moves=san&duplicates=drop&duplicates_by=prefix&merge_tags=true&add_tags=plycount"
             "&broken=truncate&fix_results=true&fix_tags=true&fix_move_numbers=true")
    games, summary = normalized(client, query)
    assert summary["games"] == 5 and [game["text"] == "" for game in games] == [False, True, True, False, False]
    assert '[Result "0-1"]' in games[3]["text"] and "{game cut here" in games[4]["text"]
