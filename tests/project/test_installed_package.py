"""Under ``make test`` the suite runs against the installed package, not the source tree."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources

import pytest
from installed import installed_script

import notation

pytestmark = [pytest.mark.slow]

INSTALLED = bool(os.environ.get("NOTATION_INSTALLED_TEST"))


@pytest.mark.skipif(not INSTALLED, reason="only meaningful under make test")
def test_imported_from_site_packages():
    assert "site-packages" in notation.__file__


def test_typed_marker_and_contract_ship_as_package_data():
    assert resources.files("notation").joinpath("py.typed").is_file()
    spec = resources.files("notation_service").joinpath("openapi.yaml")
    assert spec.is_file() and spec.read_text(encoding="utf-8").startswith("openapi:")


def test_every_subcommand_has_help():
    script = installed_script("notation")
    for command in ("convert", "validate", "normalize", "check", "serve"):
        done = subprocess.run([script, command, "--help"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (command, done.stderr)
        assert "usage: notation " + command in done.stdout


def test_the_service_installs_under_the_project_name(tmp_path):
    # Outside the repository, with only the installed packages on the path: the service is
    # notation_service, and no top-level "service" module comes with the distribution.
    probe = (
        "import importlib.util as u; "
        "print(u.find_spec('notation_service') is not None, u.find_spec('service') is None)"
    )
    done = subprocess.run([sys.executable, "-I", "-c", probe], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]
