"""``NormalizeOptions``: a read-only value, equal by its fields, copied with changes by
``with_changes`` (a plain class: ``normalize`` defines it at start-up, where a dataclass
would bring ``dataclasses``)."""

from __future__ import annotations

import pytest

from notation.pgn.duplicates import DuplicateSettings
from notation.pgn.normalize import DEFAULT_OPTIONS, MovesOption, NormalizeOptions


def test_options_are_equal_by_their_fields_and_hash_alike():
    one = NormalizeOptions.create("lichess", moves="uci", accept=["castling-rights"])
    other = NormalizeOptions.create("lichess", moves="uci", accept=["castling-rights"])
    assert one == other and hash(one) == hash(other)
    assert one != NormalizeOptions.create("lichess", moves="san", accept=["castling-rights"])
    assert NormalizeOptions() == DEFAULT_OPTIONS == NormalizeOptions.create()


def test_with_changes_copies_the_rest_and_leaves_the_original_as_it_was():
    options = NormalizeOptions.create("xboard", moves="lan")
    named = options.with_changes(duplicates=DuplicateSettings(source="games.pgn"))
    assert named.duplicates.source == "games.pgn"
    assert options.duplicates.source != "games.pgn"
    assert (named.profile, named.write, named.moves) == ("xboard", options.write, MovesOption.LAN)
    assert named.with_changes(duplicates=options.duplicates) == options


def test_with_changes_refuses_a_name_that_is_not_a_field():
    with pytest.raises(TypeError, match="NormalizeOptions has no field"):
        DEFAULT_OPTIONS.with_changes(movez="uci")


def test_the_repr_names_every_field():
    text = repr(NormalizeOptions.create("lichess"))
    assert text.startswith("NormalizeOptions(profile='lichess', write=")
    assert "duplicates=" in text
