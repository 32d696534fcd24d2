"""What the documents promise holds: every topic `notation docs` lists prints its installed
file (tafl and scale included), docs/service.md names the `/metrics` content type the
service really sends and lists every endpoint of openapi.yaml, and an option of another
command is refused with the command's own usage."""

from __future__ import annotations

import http.client
import re
import subprocess
import urllib.parse
from pathlib import Path

import pytest
import yaml
from browser import serve
from installed import installed_script
from paths import ROOT

from notation.cli.docs_cmd import TOPICS

pytestmark = [pytest.mark.slow]

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def notation(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([installed_script("notation"), *args], capture_output=True, text=True, timeout=120)


def source_of(topic: str) -> Path:
    return ROOT / TOPICS[topic] if topic == "readme" else ROOT / "docs" / TOPICS[topic]


@pytest.mark.parametrize("topic", list(TOPICS))
def test_docs_prints_every_topic_it_lists(topic):
    done = notation("docs", topic)
    assert done.returncode == 0, done.stderr
    assert done.stdout == source_of(topic).read_text(encoding="utf-8")


def test_every_guide_the_readme_links_is_a_topic():
    linked = set(re.findall(r"\]\(docs/(\w+)\.md", (ROOT / "README.md").read_text(encoding="utf-8")))
    assert {"tafl", "scale"} <= linked
    files = {TOPICS[topic].removesuffix(".md") for topic in TOPICS}
    assert linked <= files
    assert {path.stem for path in (ROOT / "docs").glob("*.md")} <= files


def test_an_option_of_another_command_gets_the_commands_own_usage():
    done = notation("validate", "--profile", "lichess", "x")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("usage: notation validate ")
    assert done.stderr.rstrip().endswith("notation validate: error: unrecognized arguments: --profile")
    assert "{convert,validate" not in done.stderr  # not the top-level usage, which lists the commands


def guide() -> str:
    return (ROOT / "docs" / "service.md").read_text(encoding="utf-8")


def endpoint_rows() -> dict[str, str]:
    """The rows of docs/service.md's Endpoints table: "METHOD /path" -> the row."""
    section = guide().split("\n## Endpoints\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        found = re.match(r"\| `(GET|POST|HEAD|PUT|DELETE) (/[^`?]*)", line)
        if found:
            rows[f"{found[1]} {found[2]}"] = line
    return rows


def test_the_guide_lists_every_endpoint_of_the_contract():
    spec = yaml.safe_load((ROOT / "service" / "openapi.yaml").read_text(encoding="utf-8"))
    operations = {f"{method.upper()} {path}" for path, item in spec["paths"].items() for method in item
                  if method in HTTP_METHODS}
    rows = endpoint_rows()
    assert {"POST /v1/fen/view", "POST /v1/board.svg", "GET /v1/board.svg"} <= set(rows)
    assert sorted(operations - set(rows)) == []
    assert sorted(set(rows) - operations) == []


@pytest.fixture(scope="module")
def base_url():
    yield from serve()


@pytest.mark.live_server
def test_the_guide_names_the_metrics_content_type_the_service_sends(base_url):
    address = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        connection.request("GET", "/metrics")
        response = connection.getresponse()
        response.read()
        sent = response.getheader("Content-Type")
    finally:
        connection.close()
    assert response.status == 200
    assert f"`{sent}`" in endpoint_rows()["GET /metrics"], sent
