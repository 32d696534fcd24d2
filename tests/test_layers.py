"""The layer order of docs/architecture.md holds: no module imports from a layer above it.

The contract lives in pyproject.toml (``[tool.importlinter]``); import-linter (a dev
dependency) checks it over the package importable from this interpreter, function-level
imports included.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_no_module_imports_from_a_layer_above_it():
    script = Path(sys.executable).parent / "lint-imports"
    if not script.exists():
        pytest.skip("import-linter is not installed beside this interpreter (pip install '.[dev]')")
    done = subprocess.run(
        [str(script), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def test_tests_import_their_helpers_as_modules_not_through_sys_path():
    # pyproject.toml's pytest ``pythonpath`` puts tests/ on the path once; a test that edits
    # sys.path itself hides which copy of a module it runs.
    edits = ("sys.path." + "insert(", "sys.path." + "append(")
    found = [
        f"{path.name}:{number}"
        for path in sorted((ROOT / "tests").glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(edit in line for edit in edits)
    ]
    assert not found, found
