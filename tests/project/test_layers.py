"""The layer order of docs/architecture.md holds: no module imports from a layer above it.

The contract lives in pyproject.toml (``[tool.importlinter]``); import-linter (a dev
dependency) checks it over the package importable from this interpreter, function-level
imports included. No module imports another that, directly or not, imports it back, not
even through an import inside a function (``KNOWN_CYCLES`` would list any allowed; none is).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from paths import ROOT

pytestmark = [pytest.mark.slow]


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


def test_tests_import_their_helpers_as_modules():
    # pyproject.toml's pytest ``pythonpath`` puts tests/ and its folders on the path once; a
    # test that edits the interpreter's module search path itself hides which copy of a
    # module it runs.
    prefix = "sys" + ".path."
    edits = (prefix + "insert(", prefix + "append(")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(edit in line for edit in edits)
    ]
    assert not found, found


def test_every_folder_of_tests_is_on_the_path_and_every_module_name_is_unique():
    # A test imports a helper, or another test's module, by its bare name: the name must be
    # findable from any folder and mean one file.
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    modules = [path for path in (ROOT / "tests").rglob("*.py") if "artifacts" not in path.parts]
    folders = {path.parent.relative_to(ROOT).as_posix() for path in modules}
    assert sorted(folders - set(options["pythonpath"])) == []
    names = [path.name for path in modules if path.name != "conftest.py"]
    assert sorted({name for name in names if names.count(name) > 1}) == []
    # With tests/ on the path a folder is also a namespace package of its name: none may take
    # a name the code looks up (the service's Flask app is named "service", the name of its
    # source directory, which the installed package does not have).
    taken = {"notation", "notation_service", "service", "bench"}
    assert sorted({Path(folder).name for folder in folders} & taken) == []


# Cycles allowed through a function-level import: none.
KNOWN_CYCLES: list[set[str]] = []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _imports(module: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``module`` imports, at module level or inside functions
    (imports under ``if TYPE_CHECKING:`` never run and are left out)."""
    found: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if _type_checking_only(child):
                pending.extend(getattr(child, "orelse", []))
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(package[: len(package) - child.level + 1] + ([base] if base else []))
                for alias in child.names:
                    found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
            pending.append(child)
    return {name for name in found if name in modules and name != module}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles_not_even_through_function_level_imports():
    # import-linter's layers do not forbid a cycle inside one package; an import moved into a
    # function to dodge one still ties the two modules together.
    paths = {_module_name(path): path for path in (ROOT / "notation").rglob("*.py")}
    graph = {module: _imports(module, path, set(paths)) for module, path in paths.items()}
    cycles = [sorted(cycle) for cycle in _cycles(graph) if cycle not in KNOWN_CYCLES]
    assert not cycles, cycles
