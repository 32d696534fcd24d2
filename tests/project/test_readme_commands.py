"""Every ``console`` block of the README runs as written, with the installed ``notation``.

A block is one bash session in a fresh directory (so files and variables carry from one
command to the next), with the installed command first on ``PATH`` and ``PORT`` set to a
free loopback port. A ``$ `` line is a command; the lines after it, up to the next command,
are what it prints: its standard output, then its standard error. An expected line ending
in ``...`` matches any line that starts with the text before it. Background jobs are
killed when the block ends, however it ends.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from installed import installed_script
from paths import ROOT

pytestmark = [pytest.mark.slow]

README = ROOT / "README.md"


def console_blocks() -> list[list[tuple[str, list[str]]]]:
    """Each block as (command, expected lines) pairs."""
    blocks = []
    for text in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in text.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        blocks.append([(command, _trimmed(expected)) for command, expected in steps])
    return blocks


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def matches(expected: list[str], actual: list[str]) -> bool:
    if len(expected) != len(actual):
        return False
    return all(
        got.startswith(want[:-3]) if want.endswith("...") else got == want
        for want, got in zip(expected, actual, strict=True)
    )


BLOCKS = console_blocks()


def test_the_readme_has_a_tour_of_commands():
    commands = [command for block in BLOCKS for command, _ in block]
    for needed in ("--input", "--variant auto", "notation check", "[tool.notation]", "notation: ignore",
                   "/readyz", "/metrics", "X-Request-ID", "notation --version", "repr("):
        assert any(needed in command for command in commands), needed


@pytest.mark.live_server
@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{n}" for n in range(len(BLOCKS))])
def test_console_block(block, tmp_path):
    script = installed_script("notation")
    lines = ["set -u", "trap 'kill $(jobs -p) 2>/dev/null' EXIT", "mkdir .readme"]
    for number, (command, _) in enumerate(block):
        lines.append(f"{{ {command}\n}} > .readme/{number}.out 2> .readme/{number}.err")
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(script).parent), str(Path(sys.executable).parent),
                                                  os.environ.get("PATH", "")]),
           "PORT": str(free_port()), "NOTATION_LOG_LEVEL": "warning"}
    done = subprocess.run(["bash", "-c", "\n".join(lines)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    for number, (command, expected) in enumerate(block):
        out = (tmp_path / ".readme" / f"{number}.out").read_text(encoding="utf-8")
        err = (tmp_path / ".readme" / f"{number}.err").read_text(encoding="utf-8")
        actual = _trimmed((out + err).splitlines())
        assert matches(expected, actual), f"$ {command}\nexpected:\n" + "\n".join(expected) + \
            "\ngot:\n" + "\n".join(actual) + f"\n(bash: {done.stderr})"
