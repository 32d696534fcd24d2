"""The tags that decide how a game is read, found whatever the case of their names.

``Variant``, ``FEN`` and ``SetUp`` choose the rules and the start; ``Result`` is what the
moves are checked against. The PGN standard's tag names are case-sensitive (section 8.1.1),
but files from some programs write ``[variant "Crazyhouse"]``, ``[fen "..."]`` or
``[Setup "1"]``. Every reader of this package (``check``, ``normalize``, ``read_games``,
the duplicate finder, ``select``) takes them as the standard tags, the first of each
name counting, and the commands that report problems report such a name as
``miscased-tag`` (``normalize --fix-tags`` writes it in its standard case). Nothing here
raises.
"""

from __future__ import annotations

from typing import Final

from notation.pgn.games import RawGame
from notation.pgn.tags import Tag

KEY_TAGS: Final = ("Variant", "FEN", "SetUp", "Result")
# For RawGame.find_tags: the key tags, any case; and the two that choose the variant and start.
KEY_TAGS_ANY_CASE: Final = "(?i:variant|fen|setup|result)"
SETUP_TAGS_ANY_CASE: Final = "(?i:variant|fen)"
MISCASED_TAG: Final = "miscased-tag"

_BY_LOWER: Final = {name.lower(): name for name in KEY_TAGS}


def key_tag_name(name: str) -> str:
    """The standard spelling of a key tag's name (``variant`` -> ``Variant``); ``name``
    itself when it is no key tag."""
    return _BY_LOWER.get(name.lower(), name)


def miscased_message(written: str, standard: str) -> str:
    """What ``miscased-tag`` says of a tag name ``written`` where ``standard`` is meant."""
    return f"tag {written} should be spelled {standard}: most readers match tag names exactly and would ignore it"


def setup_tags(game: RawGame) -> tuple[Tag | None, Tag | None]:
    """``game``'s first ``Variant`` tag and first ``FEN`` tag, their names in any case."""
    variant_tag = fen_tag = None
    for tag in game.find_tags(SETUP_TAGS_ANY_CASE):
        if tag.name.lower() == "variant":
            variant_tag = tag if variant_tag is None else variant_tag
        elif fen_tag is None:
            fen_tag = tag
    return variant_tag, fen_tag
