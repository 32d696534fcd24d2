"""The move options live in ``notation.move_options``; ``notation.options`` and the package
still hand them out, the same classes, to code written when they lived there."""

from __future__ import annotations

import subprocess
import sys

import pytest

from notation import move_options


@pytest.mark.parametrize("name", ["CastlingMode", "MoveLanguage", "MoveNotation"])
def test_a_move_option_is_found_where_it_was(name):
    from notation import options

    assert getattr(options, name) is getattr(move_options, name)


def test_the_package_hands_out_the_same_classes():
    import notation

    assert notation.MoveNotation is move_options.MoveNotation
    assert notation.CastlingMode is move_options.CastlingMode


def test_an_unknown_name_is_still_refused():
    from notation import options

    with pytest.raises(AttributeError, match="NoSuchStyle"):
        options.NoSuchStyle  # noqa: B018


def test_importing_the_fen_options_defines_no_move_option():
    done = subprocess.run(
        [sys.executable, "-c", "import sys, notation.options; print('notation.move_options' in sys.modules)"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    assert done.stdout.strip() == "False"
