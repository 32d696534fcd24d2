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

With GCC the library is compiled profile-guided: once with counters on its branches,
then, after bench/profile_workload.py has run on that build, again with the branches laid
out as they were taken. ``NOTATION_PGO=0`` compiles once; so does any failure of the
profiled build (with a message), and clang (whose counts need a tool of their own).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

with open(Path(__file__).resolve().parent / "pyproject.toml", "rb") as pyproject:
    HOT: list[str] = tomllib.load(pyproject)["tool"]["notation"]["build"]["compiled"]


# The workload the compiled build is profiled on (GCC's profile-guided optimisation: the
# library is compiled twice, the second time laid out for the branches this workload takes).
PROFILE_WORKLOAD = ROOT / "bench" / "profile_workload.py"


def _profile_guided(compiler: str | None) -> str | None:
    """None where the library is to be compiled with a profile, else why not: GCC only
    (clang's profiles need a tool of their own to merge), the workload present (a source
    distribution ships it), and ``NOTATION_PGO`` not ``0`` (a build twice as fast, its
    library slower)."""
    if os.environ.get("NOTATION_PGO", "1") == "0":
        return "NOTATION_PGO=0"
    if not PROFILE_WORKLOAD.is_file():
        return f"no {PROFILE_WORKLOAD.name} in the sources"
    if compiler is None:
        return "not a Unix compiler"
    try:
        version = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{compiler} --version failed ({exc})"
    return None if "Free Software Foundation" in version else f"{compiler} is not GCC"


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
        compiler = self.compiler.compiler_so[0] if self.compiler.compiler_type == "unix" else None
        note = _profile_guided(compiler)
        if note is None:
            try:
                self._build_profile_guided()
                self._record(True, "built with GCC's profile of bench/profile_workload.py")
                return
            except Exception as exc:  # noqa: BLE001 - any failure: the build without the profile
                note = f"the profile-guided build failed ({exc})"
                print(f"notation: {note}; compiling without it", file=sys.stderr)
                self.force = True  # every object again, without the profile's flags
        super().build_extensions()
        self._record(False, note)

    def _record(self, profile_guided: bool, note: str) -> None:
        """Say in the package (``notation/build.json``) whether the profile was used, and
        why not: pip hides the build's messages, and a test reads this."""
        if self.inplace:
            return
        target = Path(self.build_lib) / "notation" / "build.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"profile_guided": profile_guided, "note": note}) + "\n", encoding="utf-8")

    def _build_profile_guided(self) -> None:
        """Compile with GCC's counters, run bench/profile_workload.py on that build, then
        compile again with the branches laid out as the workload took them. Raises where
        any step fails (the caller then compiles without the profile)."""
        plain = {ext.name: (list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in self.extensions}
        try:
            with tempfile.TemporaryDirectory(prefix="notation-profile-") as profile:
                counting = [f"-fprofile-generate={profile}", "-fprofile-update=single"]
                self._with_flags(plain, counting, ["-fprofile-generate"])
                self.force = True  # objects built before (an earlier run's) are compiled again
                super().build_extensions()
                self._run_profile_workload()
                laid_out = [f"-fprofile-use={profile}", "-fprofile-partial-training", "-Wno-missing-profile"]
                self._with_flags(plain, laid_out, [])
                super().build_extensions()
        except BaseException:
            self._with_flags(plain, [], [])  # the build without the profile takes the flags as they were
            raise

    def _with_flags(self, plain: dict[str, tuple[list[str], list[str]]], compile_args: list[str],
                    link_args: list[str]) -> None:
        for ext in self.extensions:
            compiled, linked = plain[ext.name]
            ext.extra_compile_args = [*compiled, *compile_args]
            ext.extra_link_args = [*linked, *link_args]

    def _run_profile_workload(self) -> None:
        """The workload, on the library just built (first on ``sys.path``), in a process of
        its own that ends as Python ends (the counters are written then). No bytecode is
        written into the build (it would be packaged); the hash seed is fixed, so that
        the same sources give the same profile. Raises ``CalledProcessError`` or
        ``TimeoutExpired`` where it fails."""
        built = str(ROOT) if self.inplace else os.path.abspath(self.build_lib)
        # First on the path, before what pip's isolated build puts there (the build's own
        # dependencies, librt and pyparsing among them, which a fresh environment lacks).
        search = os.pathsep.join(path for path in (built, os.environ.get("PYTHONPATH")) if path)
        env = {**os.environ, "PYTHONPATH": search, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
        with tempfile.TemporaryDirectory(prefix="notation-workload-") as work:
            subprocess.run(
                [sys.executable, str(PROFILE_WORKLOAD), work], env=env, cwd=work, check=True,
                stdout=subprocess.DEVNULL, timeout=900,
            )

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
