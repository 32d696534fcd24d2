"""Duplicate games (``normalize --duplicates``, ``notation.pgn.duplicates``): databases of every
variant family from several sources (fixtures/pgn/duplicates_cases.json), the same game in
SAN, UCI, LAN, German letters, WXF and ICCS, copies with other tags, games one move apart;
the finder's memory per game; python-chess's main lines as an oracle on random games."""

from __future__ import annotations

import io
import json
import os
import random
import tempfile
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from paths import ROOT

from notation.move_options import MoveLanguage
from notation.pgn.duplicate_jobs import with_copies, with_copies_in
from notation.pgn.duplicates import (
    AddedTag,
    DuplicateFinder,
    DuplicateMatch,
    DuplicateSettings,
    DuplicatesPolicy,
    GameLocation,
    IdentityFrom,
    MergeTags,
    parse_by_tags,
)
from notation.pgn.identity import IdentityReader
from notation.pgn.normalize import NormalizeOptions, normalize_text
from notation.pgn.prefixes import LongestLines, Occurrences, PrefixLine, PrefixSpool, find_extensions, rolled
from notation.pgn.splitter import iter_games
from notation.pgn.tag_edits import set_tags
from notation.variants import DEFAULT_REGISTRY

CASES = json.loads((ROOT / "fixtures" / "pgn" / "duplicates_cases.json").read_text(encoding="utf-8"))


def _options(case: dict, policy: DuplicatesPolicy, by_tags: tuple[str, ...] = ()) -> NormalizeOptions:
    return NormalizeOptions.create(move_letters=case.get("piece_letters", "en"),
                                   duplicates=DuplicateSettings(policy, by_tags, "db.pgn"))


def _found(report: list[dict]) -> list[list[int]]:
    """[later game, first game] of each duplicate-game warning."""
    return [[entry["game"], warning["first"]["game"]] for entry in report for warning in entry.get("warnings", [])
            if warning["code"] == "duplicate-game"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"].split(":")[0] for case in CASES])
def test_mark_names_the_first_copy_of_each_later_one(case):
    text = "".join(case["games"])
    out, summary, report = normalize_text(text, _options(case, DuplicatesPolicy.MARK))
    assert _found(report) == case["duplicates"]
    assert summary.problems["duplicate-game"] == len(case["duplicates"])
    plain, _, _ = normalize_text(text, _options(case, DuplicatesPolicy.KEEP))
    assert out == plain  # marking changes no byte


@pytest.mark.parametrize("case", CASES, ids=[case["name"].split(":")[0] for case in CASES])
def test_drop_keeps_the_first_of_each_set_in_input_order(case):
    dropped = {later for later, _first in case["duplicates"]}
    kept = "".join(game for number, game in enumerate(case["games"], 1) if number not in dropped)
    out, summary, report = normalize_text("".join(case["games"]), _options(case, DuplicatesPolicy.DROP))
    expected, _, _ = normalize_text(kept, _options(case, DuplicatesPolicy.KEEP))
    assert out == expected
    assert summary.games == len(case["games"])
    assert all("left out of the output" in w["message"] for e in report for w in e.get("warnings", [])
               if w["code"] == "duplicate-game")


@pytest.mark.parametrize("case", [case for case in CASES if "by_tags" in case], ids=lambda case: case["name"][:20])
def test_duplicates_by_tags_needs_those_tags_equal_too(case):
    by = tuple(case["by_tags"])
    _, _, report = normalize_text("".join(case["games"]), _options(case, DuplicatesPolicy.MARK, by))
    assert _found(report) == case["duplicates_by_tags"]


def test_a_game_in_german_letters_is_the_same_game_as_in_english():
    english = next(case for case in CASES if case["name"].startswith("standard:"))
    german = next(case for case in CASES if case.get("same_as") == "standard")
    (first,) = list(iter_games(english["games"][0]))
    (deutsch,) = list(iter_games(german["games"][0]))
    assert "Sf3" in deutsch.text
    in_english = IdentityReader(DEFAULT_REGISTRY).identity(first)
    in_german = IdentityReader(DEFAULT_REGISTRY, letters=MoveLanguage.DE).identity(deutsch)
    assert in_english is not None and in_english == in_german


@pytest.mark.parametrize(("text", "why"), [
    ('[Variant "Nonesuch"]\n\n1. e4 *\n', "unknown variant"),
    ('[Event "x"]\n\n1. e4 e5 2. Qxf7 *\n', "an illegal main-line move"),
    ('[Variant "Chess960"]\n\n1. e4 *\n', "a drawn start without FEN"),
    ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[SetUp "1"]\n\n*\n', "an illegal start"),
])
def test_games_without_an_identity_are_never_duplicates(text, why):
    options = NormalizeOptions.create(duplicates=DuplicateSettings(DuplicatesPolicy.DROP))
    _, summary, _ = normalize_text(text * 3, options)
    assert "duplicate-game" not in summary.problems, why


def test_an_error_in_a_variation_leaves_the_main_line_its_identity():
    text = '[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. e4 (1. Qxf7) e5 *\n'
    _, summary, _ = normalize_text(text, NormalizeOptions.create(duplicates=DuplicateSettings(DuplicatesPolicy.MARK)))
    assert summary.problems["duplicate-game"] == 1


def test_games_without_moves_from_the_same_start_are_copies():
    text = '[Event "a"]\n\n*\n\n[Event "b"]\n\n1-0\n\n[Event "c"]\n[Variant "Crazyhouse"]\n\n*\n'
    _, _, report = normalize_text(text, NormalizeOptions.create(duplicates=DuplicateSettings(DuplicatesPolicy.MARK)))
    assert _found(report) == [[2, 1]]


def test_the_duplicate_warning_joins_the_report_entry_of_its_line():
    text = '[Event "a"]\n\n1. e4 *\n\n[Event "b"] [Site "x"] 1. e4 *\n'
    _, _, report = normalize_text(text, NormalizeOptions.create(duplicates=DuplicateSettings(DuplicatesPolicy.MARK)))
    (entry,) = [entry for entry in report if entry["game"] == 2]
    assert entry["line"] == 5
    assert [w["code"] for w in entry["warnings"]][0] == "duplicate-game"
    assert "pgn-missing-blank-line" in [w["code"] for w in entry["warnings"]]


def test_by_tags_are_checked_as_tag_names():
    assert parse_by_tags("White, Black,Date") == (("White", "Black", "Date"), DuplicateMatch.SAME)
    assert parse_by_tags("prefix,White") == (("White",), DuplicateMatch.PREFIX)
    with pytest.raises(ValueError, match="not a tag name"):
        parse_by_tags("White,Bl ack")


# -- prefixes: found over the whole input first (duplicate_jobs), the longest kept ---------------------

def _with_verdicts(tmp_path, text: str, options: NormalizeOptions, jobs: int = 1) -> NormalizeOptions:
    path = tmp_path / "db.pgn"
    path.write_text(text, encoding="utf-8")
    fd = os.open(path, os.O_RDONLY)
    try:
        return with_copies(options, fd, jobs)
    finally:
        os.close(fd)


@pytest.mark.parametrize("case", CASES, ids=[case["name"].split(":")[0] for case in CASES])
def test_prefixes_are_copies_of_the_longest_game(case, tmp_path):
    text = "".join(case["games"])
    settings = DuplicateSettings(DuplicatesPolicy.MARK, match=DuplicateMatch.PREFIX)
    options = _with_verdicts(tmp_path, text, NormalizeOptions.create(move_letters=case.get("piece_letters", "en"),
                                                                      duplicates=settings))
    _, _, report = normalize_text(text, options)
    assert sorted(_found(report)) == sorted(case["duplicates"] + case["prefixes"])
    prefixes = [[e["game"], w["first"]["game"]] for e in report for w in e["warnings"] if w.get("prefix")]
    assert sorted(prefixes) == sorted(case["prefixes"])


PREFIX_CHAIN = "".join(f'[Event "{n}"]\n\n{moves}\n\n' for n, moves in enumerate([
    "1. e4 e5 *", "1. e4 e5 2. Nf3 *", "1. e4 *", "1. d4 *", "1. e4 e5 2. Nf3 Nc6 *", "1. e2e4 e7e5 2. g1f3 *",
    "1. e4 e5 2. Nf3 Nc6 *", "1. e4 c5 *"], 1))


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_longest_is_kept_at_its_own_place_and_every_shorter_one_dropped(tmp_path, jobs):
    settings = DuplicateSettings(DuplicatesPolicy.DROP, match=DuplicateMatch.PREFIX)
    options = _with_verdicts(tmp_path, PREFIX_CHAIN, NormalizeOptions.create(duplicates=settings), jobs)
    out, summary, report = normalize_text(PREFIX_CHAIN, options)
    assert [line for line in out.splitlines() if line.startswith("[")] == ['[Event "4"]', '[Event "5"]',
                                                                            '[Event "8"]']
    assert sorted(_found(report)) == [[1, 5], [2, 5], [3, 5], [6, 5], [7, 5]]
    assert summary.problems["duplicate-game"] == 5


def test_prefixes_need_the_whole_input_first():
    settings = DuplicateSettings(DuplicatesPolicy.DROP, match=DuplicateMatch.PREFIX)
    with pytest.raises(ValueError, match="whole input"):
        normalize_text(PREFIX_CHAIN, NormalizeOptions.create(duplicates=settings))


def test_the_finder_holds_a_bounded_number_of_bytes_per_distinct_game():
    games = 20_000
    seeds = [random.Random(n) for n in range(games)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        finder = DuplicateFinder()
        for number, seed in enumerate(seeds, 1):  # each key made here: it is held by the finder alone
            assert finder.first(seed.randbytes(16), GameLocation("db.pgn", number * 12, number)) is None
        grown = tracemalloc.get_traced_memory()[0] - before
        copies = [random.Random(n).randbytes(16) for n in range(games)]
        held = tracemalloc.get_traced_memory()[0]
        for number, key in enumerate(copies, 1):  # later copies add nothing
            assert finder.first(key, GameLocation("db.pgn", 10**9, 10**8)) == ("db.pgn", number * 12, number)
        added = tracemalloc.get_traced_memory()[0] - held
    finally:
        tracemalloc.stop()
    assert len(finder) == games
    assert 100 < grown / games < DuplicateFinder.BYTES_PER_GAME  # some 150 bytes: the key, the table, the place
    assert added < 64 * 1024


# -- python-chess as the oracle: the same sets of duplicates on random standard games -------------------

def _random_games(count: int) -> list[str]:
    """Random legal games written by python-chess, many sharing main lines, some one move
    shorter, with comments, variations and other tags; the same game in UCI now and then."""
    import chess
    import chess.pgn

    rng = random.Random(52)
    lines: list[list[chess.Move]] = []
    for _ in range(count // 4):
        board = chess.Board()
        moves = []
        for _ in range(rng.randrange(0, 14)):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(move)
            board.push(move)
        lines.append(moves)
    out = []
    for number in range(count):
        moves = list(rng.choice(lines))
        if moves and rng.random() < 0.2:
            moves.pop()
        game = chess.pgn.Game()
        game.headers["Event"] = f"oracle {number}"
        game.headers["White"] = rng.choice(["a", "b"])
        node = game
        for move in moves:
            if rng.random() < 0.1:
                node.comment = "a remark"
            if rng.random() < 0.1 and node.board().legal_moves.count() > 1:
                other = next(m for m in node.board().legal_moves if m != move)
                node.add_variation(other)
            node = node.add_main_variation(move)
        text = str(game)
        if rng.random() < 0.2:
            text = text.split("\n\n")[0] + "\n\n" + " ".join(m.uci() for m in moves) + " *"
        out.append(text + "\n\n")
    return out


@pytest.mark.oracle
def test_python_chess_finds_the_same_duplicates():
    import chess.pgn

    games = _random_games(400)
    first_of: dict[tuple, int] = {}
    expected = []
    for number, text in enumerate(games, 1):
        game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None and not game.errors
        key = (game.board().epd(), tuple(move.uci() for move in game.mainline_moves()))
        if key in first_of:
            expected.append([number, first_of[key]])
        else:
            first_of[key] = number
    _, _, report = normalize_text("".join(games),
                                  NormalizeOptions.create(duplicates=DuplicateSettings(DuplicatesPolicy.MARK)))
    assert len(expected) > 100
    assert _found(report) == expected


# -- --merge-tags: the kept game takes the tags it lacks from its dropped copies ---------------------

MERGE = (
    '[Event "Club"]\n[White "Ana"]\n[Black "Bo"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'
    '[Event "Club ch"]\r\n[Date "2024.01.05"]\r\n[WhiteElo "2100"]\r\n[Variant "Standard"]\r\n\r\n'
    '1. e4 e5 2. Nf3 Nc6 1-0\r\n\r\n'
    '[Date "2024.01.06"]\n[ECO "C44"]\n\n1. e2e4 e7e5 2. g1f3 b8c6 *\n\n'
    '[Event "Solo"]\n\n1. d4 *\n\n'
    '[Event "Line"] 1. e4 e5 2. Nf3 Nc6 *\n'
)


@pytest.mark.parametrize("jobs", [1, 2])
def test_merge_tags_fills_the_kept_game_and_reports_conflicts(tmp_path, jobs):
    settings = DuplicateSettings(DuplicatesPolicy.DROP, merge=MergeTags.MISSING)
    options = _with_verdicts(tmp_path, MERGE, NormalizeOptions.create(duplicates=settings), jobs)
    out, summary, report = normalize_text(MERGE, options)
    assert out == ('[Event "Club"]\n[White "Ana"]\n[Black "Bo"]\n[Date "2024.01.05"]\n[ECO "C44"]\n'
                   '[WhiteElo "2100"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Event "Solo"]\n\n1. d4 *\n\n')
    assert summary.problems["duplicate-game"] == 3
    (conflict,) = [w for e in report for w in e["warnings"] if w["code"] == "duplicate-tag-conflict"]
    assert conflict["tag"] == "Date" and "'2024.01.06'" in conflict["message"]
    assert [e["game"] for e in report if any(w["code"] == "duplicate-tag-conflict" for w in e["warnings"])] == [1]


@pytest.mark.parametrize(("text", "tags", "expected"), [
    ('[A "1"]\r\n[B "2"]\r\n\r\n1. e4 *\r\n', (("C", "3"),), '[A "1"]\r\n[B "2"]\r\n[C "3"]\r\n\r\n1. e4 *\r\n'),
    ('[Event "e"]\n[ECO "A00"]\n[WhiteElo "1"]\n\n*\n', (("PlyCount", "0"), ("NotationId", "ab")),
     '[Event "e"]\n[ECO "A00"]\n[NotationId "ab"]\n[PlyCount "0"]\n[WhiteElo "1"]\n\n*\n'),
    ('[Event "e"]\n[WhiteElo "1"]\n[ECO "A00"]\n\n*\n', (("PlyCount", "0"), ("Date", "?")),
     '[Event "e"]\n[WhiteElo "1"]\n[ECO "A00"]\n[PlyCount "0"]\n[Date "?"]\n\n*\n'),
    ('[A "1"] 1. e4 *\n', (("C", 'x"y'),), '[C "x\\"y"]\n[A "1"] 1. e4 *\n'),
    ('1. e4 *\n', (("C", "3"),), '[C "3"]\n1. e4 *\n'),
    ('[A "1"]', (("C", "3"),), '[C "3"]\n[A "1"]'),
])
def test_inserted_tags_move_no_other_byte(text, tags, expected):
    assert set_tags(text, tags) == expected


# -- --add-tags plycount,gameid, and a later run's finder reading NotationId ----------------------------

ADD = DuplicateSettings(add_tags=(AddedTag.PLYCOUNT, AddedTag.GAMEID))


@pytest.mark.parametrize("case", CASES, ids=[case["name"].split(":")[0] for case in CASES])
def test_added_identity_tags_let_a_later_run_find_the_same_copies(case):
    letters = case.get("piece_letters", "en")
    tagged, summary, _ = normalize_text("".join(case["games"]),
                                        NormalizeOptions.create(move_letters=letters, duplicates=ADD))
    assert summary.changed == len(case["games"])
    again, second, _ = normalize_text(tagged, NormalizeOptions.create(move_letters=letters, duplicates=ADD))
    assert again == tagged and second.changed == 0  # written once, kept after
    from_tags = DuplicateSettings(DuplicatesPolicy.MARK, identity_from=IdentityFrom.TAG)
    _, _, report = normalize_text(tagged, NormalizeOptions.create(duplicates=from_tags))  # English letters: unread
    assert _found(report) == case["duplicates"]


def test_plycount_is_set_right_and_a_game_without_identity_gets_no_tag():
    text = ('[Event "a"]\n[PlyCount "7"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n'
            '[Event "b"]\n\n1. e4 e5 2. Qxf7 *\n')
    out, _, _ = normalize_text(text, NormalizeOptions.create(duplicates=ADD))
    first, second = out.split("\n\n[Event")
    assert '[NotationId "' in first and '[PlyCount "3"]\n\n1. e4' in first  # after the roster, in ASCII order
    assert "PlyCount" not in second and "NotationId" not in second


def test_a_stale_identity_tag_is_read_as_written_only_when_asked():
    text = ('[NotationId "00000000000000000000000000000000"]\n\n1. e4 *\n\n'
            '[NotationId "00000000000000000000000000000000"]\n\n1. d4 *\n\n'
            '[NotationId "not hex"]\n\n1. d4 *\n')
    by_moves = DuplicateSettings(DuplicatesPolicy.MARK)
    by_tags = DuplicateSettings(DuplicatesPolicy.MARK, identity_from=IdentityFrom.TAG)
    assert _found(normalize_text(text, NormalizeOptions.create(duplicates=by_moves))[2]) == [[3, 2]]
    assert _found(normalize_text(text, NormalizeOptions.create(duplicates=by_tags))[2]) == [[2, 1]]


def test_merged_and_added_tags_keep_the_export_format_s_order():
    export_options = NormalizeOptions.create(export="full", duplicates=ADD)
    out, _, _ = normalize_text(MERGE.split("[Event \"Solo\"]")[0], export_options)
    first = out.split("\n\n")[0].splitlines()
    names = [line[1:].split(" ")[0] for line in first]
    assert names[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert names[7:] == sorted(names[7:]) and {"PlyCount", "NotationId"} <= set(names)


def test_the_prefix_spool_gives_back_every_game_in_order_across_its_flushes():
    rng = random.Random(5)
    games = [(rng.randrange(10**6), PrefixLine(rng.randbytes(rng.randrange(20, 90)),
                                               rng.randbytes(rng.randrange(0, 3) * 9),
                                               rng.randbytes(5 * rng.randrange(0, 300))))
             for _ in range(3_000)]
    with PrefixSpool() as spool:  # some 2.5 MB of lines: flushed to disk several times
        for index, line in games:
            spool.add(index, line)
        assert list(spool.games()) == games


def _kept(lines: list[PrefixLine], every_digest: bool) -> list[int]:
    """Each line's kept key: by find_extensions, or by every prefix's digest looked up."""
    finder = DuplicateFinder()
    longest = LongestLines()
    indexes = []
    with PrefixSpool() as spool:
        for number, line in enumerate(lines, 1):
            index = finder.add(line.prefix_key(len(line.moves) // 5), GameLocation("", number, number))
            longest.add(index, len(line.moves) // 5, line.whole_hash())
            spool.add(index, line)
            indexes.append(index)
        if not every_digest:
            find_extensions(spool, finder, longest)
            return [longest.kept(index) for index in indexes]
    for index, line in zip(indexes, lines, strict=True):
        for plies in range(len(line.moves) // 5):
            prefix = finder.index_of(line.prefix_key(plies))
            if prefix is not None:
                longest.extended(prefix, index)
    return [longest.kept(index) for index in indexes]


def test_prefixes_are_found_through_the_line_hashes_as_by_every_digest():
    rng = random.Random(11)
    starts = [b"chess\nstart-a\n", b"crazyhouse\nstart-b\n"]
    lines = []
    for _ in range(400):
        if lines and rng.random() < 0.6:  # a prefix or an extension of a line seen, maybe under other tags
            seen = rng.choice(lines)
            cut = rng.randrange(0, len(seen.moves) // 5 + 1) * 5
            moves = seen.moves[:cut] + (rng.randbytes(5 * rng.randrange(0, 4)) if rng.random() < 0.5 else b"")
            values = seen.values if rng.random() < 0.8 else b"\x00other"
            lines.append(PrefixLine(seen.start, values, moves))
        else:
            lines.append(PrefixLine(rng.choice(starts), rng.choice([b"", b"\x00Carlsen"]),
                                    rng.randbytes(5 * rng.randrange(0, 12))))
    by_hashes = _kept(lines, every_digest=False)
    assert by_hashes == _kept(lines, every_digest=True)
    kept_elsewhere = [index for index, kept in enumerate(by_hashes) if kept != index]
    assert len(kept_elsewhere) > 50  # the table finds real prefixes, not only lines kept as themselves


def test_a_prefix_key_is_the_key_of_the_shorter_game():
    reader = IdentityReader(DEFAULT_REGISTRY)
    short, long = (next(iter_games(text)) for text in ("1. e4 e5 2. Nf3 *\n", "1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n"))
    short_line, long_line = reader.line(short), reader.line(long)
    assert short_line is not None and long_line is not None
    whole = PrefixLine(long_line.start, b"", long_line.moves)
    assert whole.prefix_key(3) == reader.identity(short).digest
    assert whole.prefix_key(5) == reader.identity(long).digest
    shorter = PrefixLine(short_line.start, b"", short_line.moves)
    assert rolled(whole.seed(), long_line.moves, 0, 15) == shorter.whole_hash()


# -- several inputs: one finder over them all, the answer for the inputs concatenated ------------------

ENGLISH_GAMES = [game for case in CASES if "piece_letters" not in case for game in case["games"]]


def _pairs(reports: list[tuple[str, list[dict]]], before: dict[str, int]) -> list[tuple[int, int, bool]]:
    """(copy, kept, prefix) of every duplicate-game, games numbered over the inputs in order."""
    return sorted((before[name] + entry["game"], before[warning["first"]["input"]] + warning["first"]["game"],
                   bool(warning.get("prefix")))
                  for name, report in reports for entry in report for warning in entry["warnings"]
                  if warning["code"] == "duplicate-game")


@settings(max_examples=examples(40))
@given(st.lists(st.sampled_from(ENGLISH_GAMES), min_size=2, max_size=14), st.lists(st.integers(0, 14), max_size=2),
       st.sampled_from(list(DuplicateMatch)), st.sampled_from([DuplicatesPolicy.MARK, DuplicatesPolicy.DROP]),
       st.booleans())
def test_several_inputs_give_the_answer_of_their_concatenation(games, cuts, match, policy, merge):
    merge_tags = MergeTags.MISSING if merge and policy is DuplicatesPolicy.DROP else MergeTags.NONE
    options = NormalizeOptions.create(duplicates=DuplicateSettings(policy, match=match, merge=merge_tags))
    bounds = [0, *sorted({min(cut, len(games)) for cut in cuts}), len(games)]
    texts = ["".join(games[a:b]) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    names = [f"part-{index}.pgn" for index in range(len(texts))]
    with tempfile.TemporaryDirectory() as folder:
        fds = []
        try:
            for name, text in zip([*names, "whole.pgn"], [*texts, "".join(texts)], strict=True):
                path = os.path.join(folder, name)
                with open(path, "w", encoding="utf-8") as out:
                    out.write(text)
                fds.append(os.open(path, os.O_RDONLY))
            each = with_copies_in(options, list(zip(names, fds[:-1], strict=True)), 1)
            (whole,) = with_copies_in(options, [("whole.pgn", fds[-1])], 1)
        finally:
            for fd in fds:
                os.close(fd)
    outputs, reports, before = [], [], {"whole.pgn": 0}
    for name, text, own in zip(names, texts, each, strict=True):
        before[name] = sum(1 for _ in iter_games("".join(texts[:names.index(name)])))
        out, _, report = normalize_text(text, own)
        outputs.append(out)
        reports.append((name, report))
    want, want_summary, want_report = normalize_text("".join(texts), whole)
    assert "".join(outputs) == want
    assert _pairs(reports, before) == _pairs([("whole.pgn", want_report)], before)
    conflicts = sum(warning["code"] == "duplicate-tag-conflict"
                    for _, report in reports for entry in report for warning in entry["warnings"])
    assert conflicts == want_summary.problems["duplicate-tag-conflict"]


def test_the_places_of_prefix_games_hold_36_bytes_a_game():
    games = 50_000
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        occurrences = Occurrences()
        for number in range(games):
            occurrences.add(number * 12, 1, number, number // 2, number // 1000)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 30 < grown / games < 40  # four 8-byte arrays and one 4-byte one (growth slack aside)
