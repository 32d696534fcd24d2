"""Compile the hot modules (reader, writer, Setup, rules, validation) with mypyc.

The ``.py`` sources ship as well, and the compiled modules behave the same: the whole test
suite runs against both (``make test``). Compiling makes read + validate + write about 1.6x
faster (bench/bench_validate.py).

All or nothing: ``NOTATION_PURE=1`` skips compilation, and when mypy or the C compiler
fails the build installs the pure-Python package instead, with a warning, and removes any
half-built extension (the compiled modules share one library, so a partial build would
not import). ``NOTATION_REQUIRE_COMPILED=1`` turns that fallback into an error, which is
how ``make test`` makes sure the fast build really happened.
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

HOT = [
    "notation/fen/reader.py",
    "notation/fen/ranks.py",
    "notation/fen/writer.py",
    "notation/fen/castling.py",
    "notation/setup.py",
    "notation/rules/attacks.py",
    "notation/rules/bitboard.py",
    "notation/rules/checkers.py",
    "notation/rules/en_passant.py",
    "notation/rules/position.py",
    "notation/validation/__init__.py",
    "notation/validation/castling.py",
    "notation/validation/checkers.py",
    "notation/validation/context.py",
    "notation/validation/check_counters.py",
    "notation/validation/en_passant.py",
    "notation/validation/kings.py",
    "notation/validation/material.py",
    "notation/validation/race.py",
]

REQUIRE_COMPILED = os.environ.get("NOTATION_REQUIRE_COMPILED") == "1"


def fall_back(reason: str) -> None:
    message = f"notation: compiling with mypyc failed ({reason}); installing the slower pure-Python package"
    if REQUIRE_COMPILED:
        raise SystemExit(message + " (refused: NOTATION_REQUIRE_COMPILED=1)")
    banner = "*" * 78
    print(f"\n{banner}\nWARNING: {message}\n{banner}\n", file=sys.stderr)


class AllOrNothingBuildExt(build_ext):
    """Build every extension, or none of them."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers, a compile error
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []
            fall_back(f"{type(exc).__name__}: {exc}")


ext_modules = []
if os.environ.get("NOTATION_PURE") != "1":
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify(HOT, opt_level="3", debug_level="0", group_name="notation")
    except (ImportError, SystemExit) as exc:  # no mypy, or mypy found type errors
        fall_back(repr(exc))
        ext_modules = []

setup(ext_modules=ext_modules, cmdclass={"build_ext": AllOrNothingBuildExt})
