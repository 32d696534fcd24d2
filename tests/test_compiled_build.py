"""Where a C compiler exists, the installed hot modules must be the mypyc-compiled ones.

setup.py falls back to pure Python when compiling fails (so a machine without a compiler
still installs); this test keeps that fallback from hiding a broken build on machines
that have one. ``NOTATION_PURE=1`` marks the deliberate pure-Python run.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sysconfig

import pytest

HOT = [
    "notation.fen.reader", "notation.fen.ranks", "notation.fen.writer", "notation.fen.castling",
    "notation.setup", "notation.rules.attacks", "notation.rules.bitboard", "notation.rules.checkers",
    "notation.rules.en_passant", "notation.rules.position", "notation.validation",
    "notation.validation.castling", "notation.validation.checkers", "notation.validation.context",
    "notation.validation.check_counters", "notation.validation.en_passant", "notation.validation.kings",
    "notation.validation.material", "notation.validation.race",
]


def compiler_available() -> bool:
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) is not None


def compiled(module: str) -> bool:
    origin = importlib.import_module(module).__file__ or ""
    return not origin.endswith(".py")


@pytest.mark.skipif(not os.environ.get("NOTATION_INSTALLED_TEST"), reason="only meaningful on the installed package")
def test_hot_modules_are_compiled_where_they_can_be():
    states = {module: compiled(module) for module in HOT}
    if os.environ.get("NOTATION_PURE") == "1":
        assert not any(states.values()), states
    elif compiler_available():
        missing = [module for module, done in states.items() if not done]
        assert not missing, (
            f"a C compiler is here but {len(missing)} hot modules are pure Python: the mypyc build fell "
            f"back (reinstall with pip install -v . and look for 'compiling with mypyc failed'): {missing}"
        )


def test_the_hot_module_list_matches_setup_py():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "setup.py").read_text(encoding="utf-8")
    listed = {line.strip().strip('",')[:-3].replace("/", ".").removesuffix(".__init__") for line in text.splitlines() if line.strip().startswith('"notation/')}
    assert listed == set(HOT)
