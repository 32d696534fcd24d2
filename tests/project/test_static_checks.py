"""mypy and ruff pass on the repository, with the configuration in pyproject.toml.

Both are dev dependencies, run from beside this interpreter; ``make test`` therefore
enforces them. Their caches go to a temporary directory, never into the source tree.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from paths import ROOT

pytestmark = [pytest.mark.slow]


def tool(name: str) -> str:
    script = Path(sys.executable).parent / name
    if not script.exists():
        pytest.skip(f"{name} is not installed beside this interpreter (pip install '.[dev]')")
    return str(script)


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_mypy_passes_on_the_package(tmp_path):
    # The files checked and the per-module strictness are in pyproject.toml ([tool.mypy]).
    done = run([tool("mypy"), "--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path)])
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_passes_on_the_repository():
    done = run([tool("ruff"), "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(ROOT)])
    assert done.returncode == 0, done.stdout + done.stderr
