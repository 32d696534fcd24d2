"""The README's Python example runs, and each ``expression  # -> value`` comment in it holds."""

from __future__ import annotations

import ast
import re

from paths import ROOT

README = ROOT / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_python_example_holds():
    blocks = python_blocks()
    assert blocks
    checked = 0
    for block in blocks:
        lines = block.splitlines()
        namespace: dict = {}
        for statement in ast.parse(block).body:
            last = lines[statement.end_lineno - 1]
            _, arrow, expected = last.partition("# -> ")
            source = ast.get_source_segment(block, statement)
            if arrow and isinstance(statement, ast.Expr):
                value = eval(source, namespace)  # noqa: S307 - our own README
                assert repr(value) == expected.strip() or str(value) == expected.strip(), (source, value)
                checked += 1
            else:
                exec(source, namespace)  # noqa: S102 - our own README
    assert checked >= 6
