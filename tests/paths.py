"""Where the repository is, for a test at any depth under tests/: ``ROOT / "fixtures"``,
``ROOT / "docs"``, ``ROOT / "pyproject.toml"``. pyproject.toml's pytest ``pythonpath``
makes this importable as ``paths``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
