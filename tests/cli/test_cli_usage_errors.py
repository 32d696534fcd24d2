"""A command line the command cannot take is answered with that command's own usage and
exit status 2, whatever the command (argparse would otherwise answer an unknown option of
a command with the top-level usage, which names no option)."""

from __future__ import annotations

import subprocess

import pytest
from installed import installed_script

from notation.cli.usage import SUMMARIES

pytestmark = [pytest.mark.slow]


@pytest.mark.parametrize("command", sorted(SUMMARIES))
def test_an_unknown_option_gets_the_commands_own_usage(command: str) -> None:
    done = subprocess.run(
        [installed_script("notation"), command, "--no-such-option"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"usage: notation {command} ")
    # The unknown option, or an argument the command needs (view's --side) said first.
    assert f"notation {command}: error: " in done.stderr
    assert "--no-such-option" in done.stderr or "required" in done.stderr
    assert "Traceback" not in done.stderr
