"""``repair`` and ``accept``: what is dropped, what is reported, and properties."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from notation.fen.reader import read_fen
from notation.validation import repair, validate
from notation.variants import DEFAULT_REGISTRY


def setup_of(fen, variant="standard"):
    return read_fen(fen, variant).setup


def test_repair_drops_bad_rights_and_ep_with_warnings():
    setup = setup_of("4k3/8/8/8/8/8/8/4K2R w KQkq e6 0 1")
    fixed, warnings = repair(setup, "standard")
    assert fixed.castling == frozenset({7})
    assert fixed.ep_square is None
    codes = [w.code for w in warnings]
    assert codes.count("repaired-castling") == 3 and codes.count("repaired-en-passant") == 1
    assert any("a1" in w.message for w in warnings)
    assert all(w.field in ("castling", "en-passant") for w in warnings)
    assert validate(fixed, "standard") == []


def test_repair_leaves_good_setups_alone():
    setup = setup_of("rnbqkbnr/pppp1ppp/8/4pP2/8/8/PPPPP1PP/RNBQKBNR w KQkq e6 0 3")
    fixed, warnings = repair(setup, "standard")
    assert fixed is setup and warnings == []


def test_repair_does_not_hide_other_problems():
    fixed, _ = repair(setup_of("4k2P/8/8/8/8/8/8/4K3 w KQ - 0 1"), "standard")
    assert [p.code for p in validate(fixed, "standard")] == ["pawns-on-backrank"]


def test_accept():
    setup = setup_of("4k2P/8/8/8/8/8/8/4K3 w KQ - 0 1")
    assert {p.code for p in validate(setup, "standard", accept={"bad-castling-rights"})} == {"pawns-on-backrank"}


CASTLING_SQUARES = [0, 1, 2, 5, 6, 7, 56, 57, 62, 63, 20]
LICHESS = [
    "standard", "chess960", "crazyhouse", "atomic", "antichess", "kingofthehill", "threecheck", "racingkings", "horde",
]
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R b - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
]


@settings(max_examples=150, deadline=None)
@given(
    fen=st.sampled_from(FENS),
    key=st.sampled_from(LICHESS),
    rights=st.frozensets(st.sampled_from(CASTLING_SQUARES), max_size=5),
    ep=st.one_of(st.none(), st.integers(0, 63)),
)
def test_repaired_setups_have_no_castling_or_ep_problems(fen, key, rights, ep):
    variant = DEFAULT_REGISTRY.get(key)
    base = read_fen(fen.replace("[]", ""), "standard").setup
    if variant.has_pockets:
        from notation.setup import Pockets

        base = base.with_changes(pockets=Pockets())
    setup = base.with_changes(castling=rights, ep_square=ep)
    fixed, warnings = repair(setup, variant)
    codes = {p.code for p in validate(fixed, variant)}
    assert not codes & {"bad-castling-rights", "invalid-ep-square"}
    # Exactly the reported repairs were made, and repairing again changes nothing.
    dropped = len(setup.castling - fixed.castling) + (setup.ep_square != fixed.ep_square)
    assert dropped == len(warnings)
    again, more = repair(fixed, variant)
    assert again == fixed and more == []
    # Every other problem is still reported.
    repairable = {"bad-castling-rights", "invalid-ep-square", "impossible-check"}
    before = {p.code for p in validate(setup, variant)} - repairable
    assert before <= codes
