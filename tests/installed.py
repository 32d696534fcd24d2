"""Finding the installed console script, for tests that run the command as a user would.

Under ``make test`` (``NOTATION_INSTALLED_TEST=1``) the script must exist beside the
interpreter; elsewhere a test that needs it is skipped rather than run against a stale one.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def installed_script(name: str) -> str:
    script = Path(sys.executable).parent / name
    if script.exists():
        return str(script)
    if os.environ.get("NOTATION_INSTALLED_TEST"):
        pytest.fail(f"{name} is not installed beside {sys.executable}")
    pytest.skip(f"{name} console script not installed beside this interpreter")
