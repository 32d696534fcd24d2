"""Where a C compiler exists, the installed hot modules must be the mypyc-compiled ones.

setup.py falls back to pure Python when compiling fails (so a machine without a compiler
still installs); this test keeps that fallback from hiding a broken build on machines
that have one. ``NOTATION_PURE=1`` marks the deliberate pure-Python run.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from paths import ROOT


def hot_modules() -> list[str]:
    """The module names of the compiled list in pyproject.toml (the list setup.py builds)."""
    with open(ROOT / "pyproject.toml", "rb") as pyproject:
        paths = tomllib.load(pyproject)["tool"]["notation"]["build"]["compiled"]
    return [path.removesuffix(".py").replace("/", ".").removesuffix(".__init__") for path in paths]


HOT = hot_modules()


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
        # setup.py builds the list in pyproject.toml, nothing more and nothing less.
        assert every_compiled_module() == set(HOT)


def test_every_listed_module_exists():
    listed = [ROOT / (name.replace(".", "/") + ".py") for name in HOT]
    missing = [path for path in listed if not path.is_file() and not (path.with_suffix("") / "__init__.py").is_file()]
    assert not missing


def every_compiled_module() -> set[str]:
    """Modules of the installed ``notation`` package that are not loaded from ``.py`` files."""
    import notation

    names = {"notation"} | {info.name for info in pkgutil.walk_packages(notation.__path__, "notation.")}
    # notation.__main__ runs the command line when imported: it is never compiled anyway.
    return {name for name in names - {"notation.__main__"} if compiled(name)}


def installed_libraries() -> list[Path]:
    """The shared libraries of the installed package: mypyc's group library beside the
    package, and each compiled module's own."""
    import notation

    package = Path(notation.__path__[0])
    return sorted([*package.parent.glob("notation__mypyc*.so"), *package.rglob("*.so")])


@pytest.mark.skipif(not os.environ.get("NOTATION_INSTALLED_TEST"), reason="only meaningful on the installed package")
def test_the_installed_library_keeps_no_branch_counters():
    """setup.py's profile-guided build compiles the library with GCC's counters, trains it,
    and compiles it again without them: a library that still counted would write a file
    of counts at the end of every command. None of it may be the counting build."""
    libraries = installed_libraries()
    if os.environ.get("NOTATION_PURE") == "1" or not compiler_available():
        return
    assert libraries
    counting = [path.name for path in libraries if b"__gcov_" in path.read_bytes()]
    assert not counting, f"built with -fprofile-generate and shipped so: {counting}"


def test_the_profile_workload_runs_to_its_end(tmp_path):
    """The workload setup.py trains the compiled build on (bench/profile_workload.py): should
    a command it runs change or fail, the build would quietly compile without the profile.
    It runs on the installed package here, from a directory of its own."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "profile_workload.py"), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "games.pgn").stat().st_size > 100_000


def gcc_available() -> bool:
    """Whether the C compiler setup.py builds with is GCC (the one it profiles with)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    try:
        done = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError:
        return False
    return "Free Software Foundation" in done.stdout


@pytest.mark.skipif(not os.environ.get("NOTATION_INSTALLED_TEST"), reason="only meaningful on the installed package")
def test_the_compiled_build_is_profile_guided_where_gcc_builds_it():
    """setup.py compiles without the profile when any step of the profiled build fails, and
    pip hides its message: ``notation/build.json`` says what happened, and where GCC built
    the library the profile must have been used (``NOTATION_PGO=0`` asks for a build
    without it)."""
    import notation

    if os.environ.get("NOTATION_PURE") == "1" or not compiler_available():
        return
    record = Path(notation.__path__[0]) / "build.json"
    assert record.is_file(), "setup.py's build_ext records every compiled build"
    built = json.loads(record.read_text(encoding="utf-8"))
    if gcc_available() and os.environ.get("NOTATION_PGO", "1") != "0":
        assert built["profile_guided"], built["note"]
