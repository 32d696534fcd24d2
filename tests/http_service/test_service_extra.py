"""The HTTP service is an extra: the library and CLI install without Flask, marshmallow and
httptools, and ``notation serve`` without them says what to install."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from paths import ROOT

pytestmark = [pytest.mark.slow]

SERVICE_MODULES = ("flask", "marshmallow", "httptools", "yaml", "flask_swagger_ui")

# Runs the CLI as the console script does, with the service's dependencies made unimportable.
WITHOUT_SERVICE = """
import sys
for name in {modules!r}:
    sys.modules[name] = None
from notation.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_service_dependencies_are_an_extra_not_the_runtime():
    runtime = " ".join(project()["dependencies"])
    service = " ".join(project()["optional-dependencies"]["service"])
    for name in SERVICE_MODULES:
        distribution = {"yaml": "PyYAML", "flask_swagger_ui": "flask-swagger-ui"}.get(name, name)
        assert distribution not in runtime
        assert distribution in service
    assert "notation[service]" in project()["optional-dependencies"]["dev"]


def run_without_service(*args: str) -> subprocess.CompletedProcess[str]:
    code = WITHOUT_SERVICE.format(modules=SERVICE_MODULES)
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )


@pytest.mark.parametrize("missing", SERVICE_MODULES)
def test_serve_without_the_extra_says_what_to_install(missing):
    code = WITHOUT_SERVICE.format(modules=(missing,))
    done = subprocess.run(
        [sys.executable, "-c", code, "serve", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'notation[service]'" in done.stderr
    assert missing in done.stderr
    assert "Traceback" not in done.stderr


def test_the_cli_works_without_the_service_dependencies():
    done = run_without_service("validate", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert (done.returncode, done.stdout.strip()) == (0, "valid"), done.stderr
