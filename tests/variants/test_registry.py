"""The variant registry: the aliases producers use (lichess, CQLi, PGN tags), lookup rules, user aliases."""

from __future__ import annotations

import copy
import pickle

import pytest
from test_compiled_build import compiled

from notation import DEFAULT_REGISTRY, UnknownVariantError, find_variant, read_fen
from notation.variants import Movement, normalize_name

ALIASES = {
    "standard": ["Chess", "Classical", "Normal", "Standard", "From Position", "wild/0"],
    "chess960": ["Chess960", "Fischerandom", "chess 960", "Fischerrandom", "Fischer Random", "wild/fr"],
    "crazyhouse": ["Crazyhouse", "Crazy House", "House", "ZH", "zh", "crazyhouse"],
    "atomic": ["Atom", "Atomic", "Atomic Chess"],
    "antichess": ["Antichess", "Anti", "Anti chess"],
    "giveaway": ["Giveaway", "Give away", "Giveaway Chess", "Give away chess"],
    "suicide": ["Suicide", "Suicide Chess", "suicide"],
    "losers": ["Losers", "losers"],
    "kingofthehill": ["King of the Hill", "kingOfTheHill", "KOTH", "Kingofthehill"],
    "threecheck": ["Three-Check", "Three Check", "ThreeCheck", "Three Check Chess", "3-Check", "3 Check", "3check"],
    "racingkings": ["Race", "Racing", "RacingKings", "Racing Kings", "Racingkings"],
    "horde": ["Horde", "Horde Chess"],
    "knightmate": ["knightmate", "Knightmate Chess"],
    "extinction": ["Extinction Chess"],
    "grasshopper": ["Grasshopper Chess"],
    "kingscorner": ["King's Corner", "Kings Corner"],
}


@pytest.mark.parametrize("key,name", [(k, n) for k, names in ALIASES.items() for n in names])
def test_every_alias_resolves(key, name):
    assert find_variant(name).key == key


def test_lookup_ignores_case_spaces_dashes_underscores():
    assert find_variant("  KING_of-the hill ").key == "kingofthehill"
    assert normalize_name("Three-Check_Chess") == "threecheckchess"


def test_every_start_fen_reads_in_its_variant():
    for variant in DEFAULT_REGISTRY:
        assert read_fen(variant.start_fen, variant).variant is variant


def test_display_names_follow_lichess_then_cqli():
    names = {v.key: v.name for v in DEFAULT_REGISTRY}
    assert names["threecheck"] == "Three-check" and names["kingofthehill"] == "King of the Hill"
    assert names["giveaway"] == "Giveaway" and names["losers"] == "Losers"


def test_unknown_name_lists_closest():
    with pytest.raises(UnknownVariantError) as caught:
        find_variant("atomik")
    assert caught.value.suggestions[0] == "Atomic"
    assert "did you mean Atomic" in str(caught.value)


@pytest.mark.slow
def test_a_refused_name_is_refused_again_alike_without_searching_again(monkeypatch):
    """A misspelt --variant asks for the same unknown name on every line: the closest names
    are searched for once, each refusal is a new error with the same suggestions, and the
    names kept are bounded."""
    import difflib

    import notation.variants as variants

    registry = variants.Registry()
    searched: list[str] = []
    real = difflib.get_close_matches  # what the search for suggestions runs (imported when first needed)

    def counting(word, possibilities, n=3, cutoff=0.6):
        searched.append(word)
        return real(word, possibilities, n, cutoff)

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    errors = []
    for _ in range(3):
        with pytest.raises(UnknownVariantError) as caught:
            registry.find("crazyhose")
        errors.append(caught.value)
    assert searched == ["crazyhose"]
    assert errors[0] is not errors[1] and errors[0].suggestions is not errors[1].suggestions
    assert errors[0].suggestions[0] == "Crazyhouse" and "did you mean Crazyhouse" in str(errors[0])
    assert all(e.suggestions == errors[0].suggestions and str(e) == str(errors[0]) for e in errors)
    assert registry.find("Crazyhouse").key == "crazyhouse"  # a found name is unaffected
    for n in range(variants._SPELLINGS_KEPT + 50):
        with pytest.raises(UnknownVariantError):
            registry.find(f"nosuch{n}")
    assert len(registry._refused) == variants._SPELLINGS_KEPT


def test_user_aliases_extend_a_copy():
    registry = DEFAULT_REGISTRY.with_aliases({"zh960": "crazyhouse", "Bughouse-ish": "ZH"})
    assert registry.find("ZH960").key == "crazyhouse"
    assert registry.find("bughouseish").key == "crazyhouse"
    with pytest.raises(UnknownVariantError):
        DEFAULT_REGISTRY.find("zh960")


def test_user_alias_to_unknown_variant_is_an_error():
    with pytest.raises(UnknownVariantError):
        DEFAULT_REGISTRY.with_aliases({"foo": "nonsense"})


def test_pieces_and_royalty_are_data():
    knightmate = find_variant("knightmate")
    assert knightmate.piece_kind("K").movement is Movement.KNIGHT
    assert knightmate.piece_kind("m").movement is Movement.KING
    assert find_variant("grasshopper").piece_kind("g").movement is Movement.GRASSHOPPER
    assert find_variant("extinction").royal == "" and find_variant("antichess").royal == ""
    assert find_variant("horde").armies[0].royal_count == 0


def test_variants_are_hashable_and_equal_entries_hash_alike():
    standard = find_variant("standard")
    twin = standard.replace()
    assert twin == standard and twin is not standard
    assert hash(twin) == hash(standard)
    assert {standard: 1}[twin] == 1
    assert len({v for v in DEFAULT_REGISTRY}) == len(DEFAULT_REGISTRY)


def test_per_variant_caches_stay_bounded_however_many_variants_are_made():
    # Custom registries make new Variant objects; the caches keyed on them must not grow
    # past their bound (they used to be dicts keyed on id(variant), growing for ever).
    from notation import validate, write_fen
    from notation.fen import reader
    from notation.rules import attack_view, chess960, variant_rules

    caches = (reader._PLANS, attack_view._PIECE_MAPS, chess960._START_ARRAYS, variant_rules._RULES)
    standard = find_variant("standard")
    copies = []
    for n in range(300):
        variant = standard.replace(key=f"standard-copy-{n}")
        setup = read_fen(standard.start_fen, variant).setup
        assert validate(setup, variant) == []
        assert write_fen(setup, variant).fen == standard.start_fen
        assert not chess960.is_chess960(setup.cells, setup.castling, (), variant)
        copies.append(variant)  # kept alive: the caches may not lean on ids being reused
    for cache in caches:
        assert 0 < len(cache) <= cache.limit, (cache, len(cache))


def test_a_variant_is_a_read_only_value_copied_with_replace():
    crazyhouse = find_variant("crazyhouse")
    twin = crazyhouse.replace(key="twinhouse", name="Twinhouse")
    assert (twin.key, twin.name, twin.twists, twin.pieces) == ("twinhouse", "Twinhouse", crazyhouse.twists,
                                                               crazyhouse.pieces)
    assert twin != crazyhouse and twin.replace(key="crazyhouse", name="Crazyhouse") == crazyhouse
    assert repr(crazyhouse).startswith("Variant(key='crazyhouse', name='Crazyhouse', aliases=(")
    with pytest.raises(TypeError):
        crazyhouse.replace(no_such_field=1)
    assert crazyhouse.name == "Crazyhouse"


@pytest.mark.skipif(not compiled("notation.variants"), reason="interpreted, Final fields are read-only to mypy only")
def test_no_field_of_a_variant_can_be_changed_in_the_compiled_build():
    crazyhouse = find_variant("crazyhouse")
    with pytest.raises(AttributeError):
        crazyhouse.name = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        crazyhouse.has_pockets = False  # type: ignore[misc]
    assert crazyhouse.name == "Crazyhouse" and crazyhouse.has_pockets


def test_a_variant_pickles_and_copies_to_an_equal_variant():
    for variant in DEFAULT_REGISTRY:
        again = pickle.loads(pickle.dumps(variant))
        assert again == variant and hash(again) == hash(variant)
        assert (again.piece_letters, again.board_letters, again.has_pockets) == (
            variant.piece_letters, variant.board_letters, variant.has_pockets)
        assert copy.deepcopy(variant) == variant


def test_a_registry_pickles_with_its_aliases():
    registry = DEFAULT_REGISTRY.with_aliases({"zh960": "crazyhouse"})
    with pytest.raises(UnknownVariantError):
        registry.find("crazyhose")
    again = pickle.loads(pickle.dumps(registry))
    assert [v.key for v in again] == [v.key for v in registry]
    assert again.find("zh960") == registry.find("zh960") == find_variant("crazyhouse")
    assert again.default == registry.default
    with pytest.raises(UnknownVariantError, match="Crazyhouse"):
        again.find("crazyhose")
