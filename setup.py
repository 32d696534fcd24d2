"""Compile the hot modules (reader, writer, Setup, rules, validation, the pipeline, the
line loop of convert and validate) with mypyc, and the modules check, convert and validate
load at start-up (a compiled module imported from another is set up in C, without
importlib's search and a .pyc to unmarshal).

The modules compiled are listed once, in pyproject.toml under ``[tool.notation.build]``.
The ``.py`` sources ship as well, and the compiled modules behave the same: the whole test
suite runs against both (``make test``). Compiling makes read + validate + write, and
whole ``convert --json`` commands, about 3x faster: ``make bench`` prints the
figures (bench/bench_build.py, compiled vs the same work on the pure-Python sources;
bench/bench_pipeline.py's "mypyc" lines).

All or nothing: ``NOTATION_PURE=1`` skips compilation, and when mypy or the C compiler
fails the build installs the pure-Python package instead, with a warning, and removes any
half-built extension (the compiled modules share one library, so a partial build would
not import). ``make test`` does not accept that fallback where a C compiler exists:
tests/project/test_compiled_build.py fails when the installed hot modules are pure Python there.
"""

import os
import shutil
import sys
import tomllib
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

with open(Path(__file__).resolve().parent / "pyproject.toml", "rb") as pyproject:
    HOT: list[str] = tomllib.load(pyproject)["tool"]["notation"]["build"]["compiled"]


def fall_back(reason: str) -> None:
    message = f"notation: compiling with mypyc failed ({reason}); installing the slower pure-Python package"
    banner = "*" * 78
    print(f"\n{banner}\nWARNING: {message}\n{banner}\n", file=sys.stderr)


class AllOrNothingBuildExt(build_ext):
    """Build every extension, or none of them."""

    def build_extensions(self) -> None:
        # The compiled modules share one library and reach each other's functions by symbol;
        # only each module's PyInit_ must be seen from outside (Python's PyMODINIT_FUNC marks
        # it so, and the per-module shims find the rest through capsules). Hidden, the rest
        # are bound when the library is linked, not looked up one by one each time a command
        # starts, and calls between modules no longer go through the PLT (nor can the
        # compiler assume them replaceable, which kept it from inlining them). On Linux its
        # calls into libpython go through the GOT directly, not by a PLT stub each.
        if self.compiler.compiler_type == "unix":
            flags = ["-fvisibility=hidden", *(["-fno-plt"] if sys.platform.startswith("linux") else [])]
            for ext in self.extensions:
                ext.extra_compile_args = [*ext.extra_compile_args, *flags]
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers, a compile error
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []
            fall_back(f"{type(exc).__name__}: {exc}")


class BuildPyWithDocs(build_py):
    """Ship README.md and docs/*.md inside the package (``notation/docs/``), so that what
    ``notation --help`` points to is installed: ``notation docs TOPIC`` prints it."""

    def run(self) -> None:
        super().run()
        if self.dry_run:
            return
        target = Path(self.build_lib) / "notation" / "docs"
        target.mkdir(parents=True, exist_ok=True)
        for source in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
            shutil.copyfile(source, target / source.name)


ext_modules = []
if os.environ.get("NOTATION_PURE") != "1":
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify(HOT, opt_level="3", debug_level="0", group_name="notation")
    except (ImportError, SystemExit) as exc:  # no mypy, or mypy found type errors
        fall_back(repr(exc))
        ext_modules = []

# The repository keeps the HTTP service in service/; it is installed as notation_service so
# that it never collides with another top-level "service" module.
PACKAGES = find_packages(include=["notation", "notation.*"]) + [
    "notation_service" + name.removeprefix("service") for name in find_packages(include=["service", "service.*"])
] + ["notation_service.web"]  # the page's files (package data; no Python in it)

setup(
    packages=PACKAGES,
    package_dir={"notation_service": "service"},
    ext_modules=ext_modules,
    cmdclass={"build_ext": AllOrNothingBuildExt, "build_py": BuildPyWithDocs},
)
