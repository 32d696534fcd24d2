"""Loading helpers for the FEN fixture tables (shared by the FEN test modules)."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def load_cases(name: str) -> list[dict]:
    with open(FIXTURES / "fen" / name, encoding="utf-8") as handle:
        return json.load(handle)["cases"]


def options_from_spec(spec: str):
    """``"profile=lichess,pockets=appended"`` -> WriteOptions."""
    from notation.fen.profiles import resolve_options

    pairs = dict(item.split("=", 1) for item in spec.split(","))
    return resolve_options(pairs.pop("profile", None), **pairs)
