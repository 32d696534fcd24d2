"""A rewrite's replacements (``TextEdits``) and how ``normalize`` applies them with its other
changes: the pieces joined as one replacement where nothing else falls among the moves, a
merge otherwise, both giving what applying every change in sorted order gives."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notation.pgn.normalize import NormalizeOptions, _Edits, normalize_text
from notation.pgn.text_edits import NO_EDITS, TextEdits

GAME = '[Event "e"]\n[Result "*"]\n\n1. e2-e4 e7-e5 2. Ng1-f3 *\n'


def test_replacements_are_kept_as_the_text_they_make():
    origin = GAME.index("1.")
    edits = TextEdits(GAME, origin)
    assert not edits and len(edits) == 0 and edits.last_start() == -1 and list(edits) == []
    for word, new in (("e2-e4", "e4"), ("e7-e5", "e5"), ("Ng1-f3", "Nf3")):
        start = GAME.index(word)
        edits.replace(start, start + len(word), new)
    assert len(edits) == 3 and edits
    assert edits.pieces == ["1. ", "e4", " ", "e5", " 2. ", "Nf3"]
    assert edits.lengths == [5, 5, 6]
    rewritten = GAME[:origin] + "".join(edits.pieces) + GAME[edits.done:]
    assert rewritten == '[Event "e"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n'
    third = GAME.index("Ng1-f3")
    assert edits.last_start() == third
    assert list(edits) == edits.spans() == [
        (GAME.index("e2-e4"), GAME.index("e2-e4") + 5, "e4"),
        (GAME.index("e7-e5"), GAME.index("e7-e5") + 5, "e5"),
        (third, third + 6, "Nf3"),
    ]
    assert repr(edits) == f"TextEdits({edits.spans()!r})"


def test_the_last_replacement_takes_in_what_follows_it():
    text = "1. exd6 e.p. Nf6 *"
    edits = TextEdits(text, 0)
    edits.replace(3, 7, "e5d6")
    edits.extend_last(text.index(" Nf6"))  # the mark written apart goes with the move's old text
    assert edits.spans() == [(3, 12, "e5d6")]
    assert "".join(edits.pieces) + text[edits.done:] == "1. e5d6 Nf6 *"


def test_equal_when_their_replacements_are():
    one, two = TextEdits("abcdef", 1), TextEdits("abcdef", 1)
    one.replace(2, 3, "X")
    assert one != two and two == NO_EDITS
    two.replace(2, 3, "X")
    assert one == two and one != [(2, 3, "X")]
    assert not NO_EDITS and list(NO_EDITS) == []


def test_a_pickled_copy_is_equal():
    edits = TextEdits(GAME, 0)
    edits.replace(GAME.index("e2-e4"), GAME.index("e2-e4") + 5, "e4")
    assert pickle.loads(pickle.dumps(edits)) == edits


def _applied(source: str, moves: list[tuple[int, int, str]], changes: list[tuple[int, int, int, str]]) -> str:
    """Every change applied in the order a sort of them all gives (a move's order is 1)."""
    out, done = [], 0
    for start, _, end, new in sorted([(start, 1, end, new) for start, end, new in moves] + changes):
        out.append(source[done:start])
        out.append(new)
        done = end
    out.append(source[done:])
    return "".join(out)


@st.composite
def _edits_and_changes(draw):
    source = draw(st.text(alphabet="ab \n", max_size=40))
    origin = draw(st.integers(0, len(source)))
    moves = TextEdits(source, origin)
    at = origin
    for _ in range(draw(st.integers(0, 5))):
        if at >= len(source):
            break
        start = draw(st.integers(at, len(source) - 1))
        end = draw(st.integers(start + 1, len(source)))
        moves.replace(start, end, draw(st.sampled_from(["", "X", "YY"])))
        at = end
    changes = []
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(0, len(source)))
        end = draw(st.integers(start, min(len(source), start + 3)))
        changes.append((start, draw(st.integers(0, 2)), end, draw(st.sampled_from(["", "T", "[U]\n"]))))
    return source, moves, changes


@given(_edits_and_changes())
def test_the_moves_pieces_and_the_other_changes_give_what_a_sort_of_them_all_gives(case):
    source, moves, changes = case
    edits = _Edits(source)
    edits.changes.extend(changes)
    edits.replace_moves(moves)
    assert edits.text() == _applied(source, moves.spans(), changes)
    # Moves read from another text of the same offsets (bytes read as Windows-1252) place
    # their spans only: the text written is this one.
    copy = TextEdits("".join(reversed(source)), moves.origin)
    for start, end, new in moves:
        copy.replace(start, end, new)
    elsewhere = _Edits(source)
    elsewhere.changes.extend(changes)
    elsewhere.replace_moves(copy)
    assert elsewhere.text() == _applied(source, moves.spans(), changes)


def test_a_second_run_of_moves_goes_with_the_other_changes():
    edits = _Edits("abcdef")
    first, second = TextEdits("abcdef", 0), TextEdits("abcdef", 0)
    first.replace(0, 1, "A")
    second.replace(4, 5, "E")
    edits.replace_moves(first)
    edits.replace_moves(second)
    assert edits.text() == "AbcdEf"


@pytest.mark.parametrize(
    ("pgn", "expected"),
    [
        # A tag line added before the moves: their pieces copied in.
        ('[Variant "Standard"]\n\n1. e2-e4 *\n', '[Variant "Standard"]\n[Result "*"]\n\n1. e2e4 *\n'),
        # The result token mended behind the last move: still copied in, the token after them.
        ('[Result "1-0"]\n\n1. e2-e4 e7-e5 *\n', '[Result "1-0"]\n\n1. e2e4 e7e5 1-0\n'),
        # The tag and the token mended to the mate the moves end in.
        ('[Result "*"]\n\n1. f2-f3 e7-e5 2. g2-g4 Qd8-h4# *\n', '[Result "0-1"]\n\n1. f2f3 e7e5 2. g2g4 d8h4 0-1\n'),
    ],
)
def test_normalize_writes_the_moves_with_its_other_changes(pgn, expected):
    out, _, _ = normalize_text(pgn, NormalizeOptions.create(moves="uci", repairs=["results"]))
    assert out == expected
