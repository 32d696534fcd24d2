"""What each producer profile calls each variant in a PGN ``Variant`` tag: data, not code.

``variant_tag_name(profile, variant, from_setup)`` is the one lookup. A profile's names
come from a registry field (lichess: ``Variant.lichess_name``) or its own table; a variant
missing from both gets the registry's display name (``Variant.name``), which is what
python-chess writes and what lichess, CQLi, SCID and python-chess all read.

``from_position`` is the name a profile gives a game of the ``pgn_default`` variant
(Standard) that starts from a set-up (a ``FEN`` tag): lichess writes ``From Position``; the
others keep the standard name.

``names_960`` is what a profile calls a variant's Chess960 flavour (a game whose set-up
counts as Chess960, ``chess960=True``). Most programs have one such name only, for
standard chess (``Chess960``, ``fischerandom``, handled by the ``chess960`` entry), and
write other variants' 960 games under the variant's own name (lichess, python-chess); the
``fairy-stockfish`` profile uses the keys of pychess-variants, the Fairy-Stockfish server
(``crazyhouse960``, ``atomic960``). All of them resolve as registry aliases.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

from notation.variants import Variant

_NO_NAMES: Mapping[str, str] = MappingProxyType({})


class VariantNaming:
    """One profile's names: the registry field holding them, else variant key -> tag value;
    and its name for set-ups of the default variant. Read-only; a plain class rather than a
    frozen dataclass, as ``normalize`` defines it at start-up (docs/architecture.md,
    "Start-up")."""

    def __init__(self, names: Mapping[str, str] = _NO_NAMES, from_position: str | None = None,
                 names_960: Mapping[str, str] = _NO_NAMES,
                 registry_field: Literal["lichess_name"] | None = None) -> None:
        self.names: Final = names
        self.from_position: Final = from_position
        self.names_960: Final = names_960
        self.registry_field: Final = registry_field


# lichess: the registry's ``lichess_name`` (lichess's scalachess Variant names).
_LICHESS = VariantNaming(from_position="From Position", registry_field="lichess_name")

# XBoard/WinBoard and the engines and GUIs that follow it (cutechess, Fairy-Stockfish):
# lower-case names of the Chess Engine Communication Protocol's `variant` command (`normal`,
# `fischerandom`, `3check`).
_XBOARD = VariantNaming(
    MappingProxyType(
        {
            "standard": "normal",
            "chess960": "fischerandom",
            "crazyhouse": "crazyhouse",
            "atomic": "atomic",
            "antichess": "antichess",
            "giveaway": "giveaway",
            "suicide": "suicide",
            "losers": "losers",
            "kingofthehill": "kingofthehill",
            "threecheck": "3check",
            "racingkings": "racingkings",
            "horde": "horde",
            "knightmate": "knightmate",
            "extinction": "extinction",
            "grasshopper": "grasshopper",
        }
    )
)

# Fairy-Stockfish: the XBoard names; Chess960 flavours as pychess-variants (the server
# built on Fairy-Stockfish) keys them: the Fairy-Stockfish variant name followed by "960".
_FAIRY_STOCKFISH = VariantNaming(
    _XBOARD.names,
    names_960=MappingProxyType(
        {
            "crazyhouse": "crazyhouse960",
            "atomic": "atomic960",
            "kingofthehill": "kingofthehill960",
            "threecheck": "3check960",
            "horde": "horde960",
        }
    ),
)

# CQLi's spellings (the CQLi manual) where they differ from the display names.
_CQLI = VariantNaming(MappingProxyType({"threecheck": "Three-Check"}))

NAMINGS: Mapping[str, VariantNaming] = MappingProxyType(
    {
        "lichess": _LICHESS,
        "xboard": _XBOARD,
        "fairy-stockfish": _FAIRY_STOCKFISH,
        "cqli": _CQLI,
        "python-chess": VariantNaming(),
        "chesscom": VariantNaming(),
        "scid": VariantNaming(),
    }
)


_NO_NAMING = VariantNaming()  # an unknown profile's: every variant by its registry name


def variant_tag_name(profile: str, variant: Variant, *, from_setup: bool, chess960: bool = False) -> str:
    """The ``Variant`` tag value ``profile`` writes for a game of ``variant``.

    ``from_setup`` says the game has a ``FEN`` tag (it matters for standard games only);
    ``chess960`` that its set-up counts as Chess960 (``names_960``).
    Never raises: unknown profiles and variants fall back to ``variant.name``.
    """
    naming = NAMINGS.get(profile, _NO_NAMING)
    if chess960 and variant.key in naming.names_960:
        return naming.names_960[variant.key]
    if from_setup and variant.pgn_default and naming.from_position:
        return naming.from_position
    if naming.registry_field is not None:
        name = getattr(variant, naming.registry_field)
        if name:
            return name
    return naming.names.get(variant.key, variant.name)
