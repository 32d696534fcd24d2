"""The runtime must not depend on GPL code: python-chess is a test and bench oracle only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from paths import ROOT

import notation

import notation_service

GPL_MODULES = {"chess", "chessops", "shakmaty", "pyffish"}


def runtime_sources():
    for package in (notation, notation_service):
        yield from Path(package.__file__).resolve().parent.rglob("*.py")


@pytest.mark.slow
def test_no_runtime_module_imports_gpl_code():
    offenders = []
    for path in runtime_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            offenders += [f"{path}: {name}" for name in names if name.split(".")[0] in GPL_MODULES]
    assert offenders == []
    assert sum(1 for _ in runtime_sources()) > 40


def test_gpl_oracles_are_dev_dependencies_only():
    """python-chess and pyffish (Fairy-Stockfish) are installed with the dev extra only."""
    import re
    import tomllib

    pyproject = ROOT / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]

    def names(requirements):
        return {re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower() for requirement in requirements}

    assert not names(project["dependencies"]) & {"chess", "python-chess", "pyffish"}
    assert names(project["optional-dependencies"]["dev"]) >= {"chess", "pyffish"}
