"""The library's game API (``notation.read_games``, ``open_games``, ``write_game``): games read
with their moves and the positions before and after each, the same problems ``check`` and
``normalize --moves`` find, written back in any notation; against python-chess (a test-only
oracle) on seeded random games with variations."""

from __future__ import annotations

import bz2
import gzip
import io
import random

import chess
import chess.pgn
import chess.variant
import pytest
import zstandard
from paths import ROOT

import notation
from notation.fen.writer import write_fen
from notation.inputs import InputError
from notation.pgn import gameread, gamewrite
from notation.pgn.gamemoves import read_game_moves
from notation.pgn.gamestart import StartPositions
from notation.pgn.movetext import Budget
from notation.pgn.movewalk import Level
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.pgn.splitter import iter_games
from notation.variants import DEFAULT_REGISTRY

ZH = """[Event "Casual game"]
[Variant "ZH"]

1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4 (3. Bc4 Be7) exd4) 3. Bc4 Nf6 4. 0-0 Nxe4 5. Nc3 Nxc3 {[%clk 0:02:55]}
6. dxc3 N*d6 *
"""

BAD = """[Event "bad"]

1. e4 e5 2. Qxh1 (2. Nf3 Nc6) 3. Nf3 *
"""


def _fen(position) -> str:
    return write_fen(position.to_setup(), position.variant).fen


def _all_moves(line):
    for move in line:
        yield move
        for variation in move.variations:
            yield from _all_moves(variation)


def test_the_names_are_exported():
    assert notation.read_games is gameread.read_games
    assert notation.open_games is gameread.open_games
    assert notation.write_game is gamewrite.write_game
    assert notation.PgnGame is gameread.PgnGame and notation.PlayedMove is gameread.PlayedMove


def test_a_game_its_tags_variant_and_moves():
    (game,) = notation.read_games(ZH)
    assert game.number == 1 and game.start_line == 1 and game.text == ZH
    assert game.tags == {"Event": "Casual game", "Variant": "ZH"}
    assert game.variant.key == "crazyhouse" and game.start.variant.key == "crazyhouse"
    assert [move.text for move in game.moves] == [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "0-0", "Nxe4", "Nc3", "Nxc3", "dxc3", "N*d6",
    ]
    assert [move.ply for move in game.moves] == list(range(1, 13))
    assert [move.san for move in game.moves][6] == "O-O"
    assert game.moves[-1].uci == "N@d6" and game.moves[-1].write("lan") == "N@d6"
    assert [w.code for w in game.moves[6].warnings] == ["castling-with-zeros"]
    assert (game.moves[-1].line, game.moves[-1].column) == (5, 9)
    assert game.ok and game.end is game.moves[-1].after


def test_each_move_goes_from_the_position_before_it_to_the_one_after():
    (game,) = notation.read_games(ZH)
    position = game.start
    for move in game.moves:
        assert move.before is position
        assert _fen(move.before.play(move.move)) == _fen(move.after) == move.fen
        position = move.after
    for move in _all_moves(game.moves):
        assert _fen(move.before.play(move.move)) == _fen(move.after)


def test_variations_hang_under_the_move_they_replace():
    (game,) = notation.read_games(ZH)
    nc6 = game.moves[3]
    assert [[m.text for m in line] for line in nc6.variations] == [["d6", "d4", "exd4"]]
    d4 = nc6.variations[0][1]
    assert [[m.text for m in line] for line in d4.variations] == [["Bc4", "Be7"]]
    assert nc6.variations[0][0].before is nc6.before  # read from the branch point
    assert nc6.variations[0][0].ply == nc6.ply


def test_problems_are_those_check_and_normalize_find():
    text = ZH + "\n" + BAD
    games = list(notation.read_games(text))
    starts = StartPositions(DEFAULT_REGISTRY)
    for game, raw in zip(games, iter_games(text), strict=True):
        found = read_game_moves(raw.text, raw.start_line, starts.start(game.variant, None),
                                result_tag=raw.tag("Result"))
        assert [(p.code, p.line, p.column, p.ply) for p in game.problems] == [
            (placed.problem.code, placed.line, placed.column, placed.problem.ply) for placed in found.problems
        ]
    _, _, report = normalize_text(text, NormalizeOptions.create(moves="check"))
    reported = sorted((entry["game"], entry["line"], p["code"]) for entry in report
                      for kind in ("errors", "warnings") for p in entry.get(kind, []))
    ours = sorted((game.number, p.line, p.code) for game in games for p in game.problems)
    assert ours == reported


def test_problems_come_in_text_order_whatever_order_they_were_found_in():
    # The Result tag is judged after the moves, so its warning is found last, though it
    # stands first; the mate mark left out on Qh4 is found on the way.
    text = '[Event "x"]\n[Result "1-0"]\n\n1. f3 e5 2. g4 Qh4 1-0\n'
    (raw,) = iter_games(text)
    found = read_game_moves(raw.text, raw.start_line, StartPositions(DEFAULT_REGISTRY).start(
        DEFAULT_REGISTRY.get("standard"), None), result_tag=raw.tag("Result"))
    assert [(placed.problem.code, placed.line, placed.column) for placed in found.problems] == [
        ("wrong-result", 2, 10), ("wrong-check-mark", 4, 16),
    ]


def test_a_failed_move_ends_its_line_and_is_a_problem():
    (game,) = notation.read_games(BAD)
    assert not game.ok and game.end is None
    assert [m.text for m in game.moves] == ["e4", "e5"]  # the variation replacing Qxh1 is checked, not kept
    (problem,) = game.problems
    assert (problem.code, problem.level, problem.ply, problem.move) == ("illegal-move", Level.ERROR, 3, "Qxh1")
    assert problem.fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    with pytest.raises(ValueError, match="cannot be rewritten"):
        game.write("uci")


def test_set_up_problems_are_placed_at_their_tag():
    text = ('[Variant "nosuch"]\n\n1. e4 *\n\n'
            '[FEN "4k3/8/8/8/8/8/8/4KK2 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 *\n\n'
            '[Variant "Chess960"]\n\n1. e4 *\n')
    unknown, kings, drawn = notation.read_games(text)
    assert unknown.variant is None and unknown.start is None and unknown.moves == []
    assert [(p.code, p.line, p.column) for p in unknown.problems] == [("unknown-variant", 1, 11)]
    assert kings.start is None and kings.moves == [] and not kings.ok
    # the FEN's problem at its tag, then once that the moves are not checked (at the first move)
    assert [(p.code, p.level, p.line) for p in kings.problems] == [
        ("too-many-kings", Level.ERROR, 5), ("unknown-start", Level.WARNING, 8)]
    assert drawn.start is None and [p.code for p in drawn.problems] == ["unknown-start"] and drawn.ok


def test_moves_pasted_alone_are_a_game_of_the_default_variant():
    (game,) = notation.read_games("1. e4 e5 2. Nf3\n")
    assert [m.san for m in game.moves] == ["e4", "e5", "Nf3"]
    assert [p.code for p in game.damage] == ["pgn-no-tags", "pgn-missing-result"]
    (game,) = notation.read_games("1. e4 e5 *\n", variant="kingofthehill")
    assert game.variant.key == "kingofthehill"


def test_the_budget_bounds_a_game():
    (game,) = notation.read_games("1. e4 e5 2. Nf3 Nc6 *\n", budget=Budget(max_tokens=4))
    assert [p.code for p in game.problems] == ["pgn-movetext-too-long"] and game.end is None
    assert [m.text for m in game.moves] == ["e4", "e5"]


def test_moves_are_read_once_and_only_when_asked(monkeypatch):
    calls = []
    real = gameread.read_game_moves
    monkeypatch.setattr(gameread, "read_game_moves", lambda *a, **k: calls.append(1) or real(*a, **k))
    games = list(notation.read_games(ZH + "\n" + BAD))
    assert [g.tags["Event"] for g in games] == ["Casual game", "bad"] and calls == []
    games[0].moves, games[0].problems, games[0].end
    assert calls == [1]


@pytest.mark.parametrize("notation_name", ["san", "lan", "uci"])
def test_write_rewrites_the_moves_as_normalize_does(notation_name):
    (game,) = notation.read_games(ZH.replace('"ZH"', '"Crazyhouse"'))
    out, _, _ = normalize_text(game.text, NormalizeOptions.create(moves=notation_name))
    assert game.write(notation_name) == out
    assert game.write() == game.text
    assert "{[%clk 0:02:55]}" in game.write(notation_name)


def test_write_refuses_what_it_cannot_write():
    (game,) = notation.read_games(ZH)
    with pytest.raises(ValueError):
        game.write("wxf")  # not a chess notation
    with pytest.raises(ValueError):
        game.write("klingon")
    with pytest.raises(ValueError):
        game.write("san", profile="nosuch")
    assert "N*d6" not in game.write("san", profile="lichess") and "N@d6" in game.write("san", profile="lichess")


@pytest.mark.parametrize("compress", [None, gzip.compress, bz2.compress, zstandard.ZstdCompressor().compress],
                         ids=["plain", "gz", "bz2", "zst"])
def test_open_games_reads_plain_and_compressed_files(tmp_path, compress):
    data = (ZH + "\n" + BAD).encode()
    path = tmp_path / "games.pgn"
    path.write_bytes(data if compress is None else compress(data))
    def summary(games):
        return [(g.tags, [m.text for m in g.moves], [p.code for p in g.problems]) for g in games]

    opened = summary(notation.open_games(str(path)))
    assert opened == summary(notation.read_games(ZH + "\n" + BAD)) and len(opened) == 2


def test_open_games_raises_for_a_file_it_cannot_read(tmp_path):
    with pytest.raises(InputError):
        list(notation.open_games(str(tmp_path / "missing.pgn")))


# --- against python-chess ---------------------------------------------------------------------

VARIANTS = {
    "standard": chess.Board,
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "atomic": chess.variant.AtomicBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "antichess": chess.variant.AntichessBoard,
    "horde": chess.variant.HordeBoard,
    "racingkings": chess.variant.RacingKingsBoard,
}


def _random_game(key: str, seed: int) -> chess.pgn.Game:
    rng = random.Random(seed)
    board = VARIANTS[key]()
    game = chess.pgn.Game.from_board(board)
    node: chess.pgn.GameNode = game
    for _ in range(rng.randint(5, 60)):
        moves = list(node.board().legal_moves)
        if not moves or node.board().is_variant_end():
            break
        move = rng.choice(moves)
        if rng.random() < 0.15 and len(moves) > 1:
            node.add_variation(rng.choice([m for m in moves if m != move]))
        node = node.add_main_variation(move)
    return game


@pytest.mark.parametrize("key", sorted(VARIANTS))
@pytest.mark.parametrize("seed", range(3))
def test_the_moves_and_positions_are_python_chess_ones(key, seed):
    theirs = _random_game(key, seed)
    (game,) = notation.read_games(str(theirs) + "\n")
    assert game.ok, game.problems
    assert [m.uci for m in game.moves] == [m.uci() for m in theirs.mainline_moves()]
    for ours, node in zip(game.moves, theirs.mainline(), strict=True):
        assert ours.fen.split()[:4] == node.board().fen().split()[:4]
        assert [[m.uci for m in line][:1] for line in ours.variations] == [
            [v.move.uci()] for v in node.parent.variations[1:]
        ]


@pytest.mark.parametrize("key", sorted(VARIANTS))
@pytest.mark.parametrize("notation_name", ["san", "lan", "uci"])
def test_write_game_reads_back_and_python_chess_reads_it(key, notation_name):
    theirs = _random_game(key, 7)
    start = notation.open_position(None, key)
    moves = [m.uci() for m in theirs.mainline_moves()]
    text = notation.write_game(start, moves, tags={"Event": "written"}, notation=notation_name, reading="uci")
    assert all(len(line) <= gamewrite.LINE_WIDTH for line in text.splitlines())
    (game,) = notation.read_games(text)
    assert game.tags["Event"] == "written" and game.ok, game.problems
    assert [m.uci for m in game.moves] == moves
    if notation_name == "san":
        back = chess.pgn.read_game(io.StringIO(text))
        assert back.errors == []
        assert [m.uci() for m in back.mainline_moves()] == moves
        assert back.headers["Result"] == game.tags["Result"]


def test_write_game_from_a_set_up_with_black_to_move():
    start = notation.open_position("4k3/8/8/8/8/8/8/4K2R b K - 0 12", "standard")
    text = notation.write_game(start, ["Kd7", "O-O", "Kc6"])
    assert text.splitlines()[-1] == "12... Kd7 13. O-O Kc6 *"
    assert '[FEN "4k3/8/8/8/8/8/8/4K2R b K - 0 12"]' in text and '[SetUp "1"]' in text
    (game,) = notation.read_games(text)
    assert [m.san for m in game.moves] == ["Kd7", "O-O", "Kc6"]


def test_write_game_writes_the_result_the_moves_reach():
    start = notation.open_position(None, "standard")
    text = notation.write_game(start, ["f3", "e5", "g4", "Qh4#"])
    assert text.splitlines()[-1] == "1. f3 e5 2. g4 Qh4# 0-1" and '[Result "0-1"]' in text
    assert notation.write_game(start, ["e4"], result="1/2-1/2").endswith("1. e4 1/2-1/2\n")


def test_write_game_refuses_bad_moves():
    start = notation.open_position(None, "standard")
    with pytest.raises(notation.MoveError):
        notation.write_game(start, ["e4", "Qxh1"])
    with pytest.raises(ValueError):
        notation.write_game(start, [notation.Move(12, 36)], notation="wxf")


def test_the_docs_example_holds():
    """docs/pgn.md's game API example runs, and each ``expression  # -> value`` in it holds
    (the value on the expression's line or on the comment line after it)."""
    import ast
    import re

    docs = (ROOT / "docs" / "pgn.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", docs, flags=re.S) if "read_games" in b]
    lines = block.splitlines()
    namespace: dict = {}
    checked = 0
    for statement in ast.parse(block).body:
        source = ast.get_source_segment(block, statement)
        same = lines[statement.end_lineno - 1].partition("# -> ")[2]
        after = lines[statement.end_lineno].strip() if statement.end_lineno < len(lines) else ""
        expected = same or (after.removeprefix("# -> ") if after.startswith("# -> ") else "")
        if expected and isinstance(statement, ast.Expr):
            assert repr(eval(source, namespace)) == expected.strip(), source  # noqa: S307 - our own docs
            checked += 1
        else:
            exec(source, namespace)  # noqa: S102 - our own docs
    assert checked >= 6
