"""What ``--help`` points to is installed: ``notation docs TOPIC`` prints it, and
``notation --version`` names the version; through the installed command."""

from __future__ import annotations

import os
import re
import subprocess
from importlib import resources
from pathlib import Path

import pytest
from installed import installed_script
from paths import ROOT

import notation
from notation.cli.docs_cmd import TOPICS

pytestmark = [pytest.mark.slow]

COMMANDS = ("convert", "validate", "normalize", "check", "serve", "start", "docs")


def notation_command(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), *args], capture_output=True, text=True, timeout=120)


def help_texts() -> dict[str, str]:
    texts = {"": notation_command("--help").stdout}
    for command in COMMANDS:
        done = notation_command(command, "--help")
        assert done.returncode == 0, done.stderr
        texts[command] = done.stdout
    return texts


def test_version():
    done = notation_command("--version")
    assert (done.returncode, done.stdout) == (0, f"notation {notation.__version__}\n")


def test_every_document_help_names_is_printed_as_in_the_repository():
    named = {topic for text in help_texts().values() for topic in re.findall(r"notation docs (\w+)", text)}
    assert {"readme", "validation", "check", "service", "pgn"} <= named
    for topic in named:
        done = notation_command("docs", topic)
        assert done.returncode == 0, done.stderr
        source = ROOT / TOPICS[topic] if topic == "readme" else ROOT / "docs" / TOPICS[topic]
        assert done.stdout == source.read_text(encoding="utf-8")


def test_no_help_points_at_a_source_path_alone():
    for command, text in help_texts().items():
        for path in re.findall(r"(?:docs/\w+\.md|README)", text):
            assert "notation docs" in text, (command, path)


def test_docs_lists_every_topic_with_an_existing_file():
    done = notation_command("docs")
    rows = [line.split(None, 1) for line in done.stdout.splitlines()]
    assert [topic for topic, _ in rows] == list(TOPICS)
    assert all(Path(path).is_file() for _, path in rows)


@pytest.mark.skipif(not os.environ.get("NOTATION_INSTALLED_TEST"), reason="the wheel's contents: under make test")
def test_the_wheel_ships_the_documents():
    for name in TOPICS.values():
        assert resources.files("notation").joinpath("docs", name).is_file(), name
