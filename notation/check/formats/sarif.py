"""``sarif``: a SARIF 2.1.0 log for code-scanning tools (GitHub code scanning and others).

One run of the ``notation`` driver. Its rules are the codes met, each with a description
and its default level; each result names its rule, level, message and one physical
location (artifact URI, start line and column in Unicode code points). Artifacts are listed
once each; relative paths become relative URIs based on ``%SRCROOT%``, absolute paths
``file://`` URIs. The log is written at ``finish()``; the run's ``properties`` hold what
it read (files, games, plies, positions) and its counts of errors and warnings.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from notation import __version__
from notation.check.problem import CheckProblem, describe
from notation.check.sources import STDIN_NAME

if TYPE_CHECKING:
    from notation.check.runner import Summary

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"


def artifact_location(path: str) -> dict[str, str]:
    """The SARIF ``artifactLocation`` of a path as the user named it."""
    if path == STDIN_NAME:
        return {"uri": "stdin"}
    if os.path.isabs(path):
        return {"uri": pathlib.Path(path).as_uri()}
    posix = pathlib.PurePath(os.path.normpath(path)).as_posix()
    return {"uri": quote(posix), "uriBaseId": SRCROOT}


# Where each code is documented: the FEN reader's and the validator's codes in
# docs/validation.md, every other code (PGN damage, the check's own) in docs/check.md.
VALIDATION_PAGE = "validation.md#codes"
CHECK_PAGE = "check.md#what-is-reported"


@functools.cache
def documentation_url() -> str | None:
    """The ``Documentation`` project URL of the installed package's metadata (pyproject.toml's
    ``[project.urls]``), without a trailing ``/``; None when the metadata has none."""
    from importlib import metadata  # here, not at start-up: every ``check`` imports this module

    try:
        entries = metadata.metadata("notation").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        entries = []
    for entry in entries:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return url.strip().rstrip("/")
    return None


def help_uri(code: str) -> str | None:
    """The absolute URL of the documentation of ``code`` (a SARIF rule's ``helpUri``), or
    None without a documentation URL."""
    from notation.validation import CODES

    base = documentation_url()
    if base is None:
        return None
    page = VALIDATION_PAGE if code in CODES or code in ("fen-syntax", "unknown-variant") else CHECK_PAGE
    return f"{base}/{page}"


class SarifFormat:
    def __init__(self, out: TextIO):
        self._out = out
        self._results: list[dict[str, Any]] = []
        self._rules: dict[str, dict[str, Any]] = {}
        self._rule_index: dict[str, int] = {}
        self._artifacts: dict[str, int] = {}
        self._artifact_list: list[dict[str, Any]] = []

    def problem(self, problem: CheckProblem) -> None:
        level = problem.severity.value
        if problem.code not in self._rule_index:
            self._rule_index[problem.code] = len(self._rules)
            rule = {
                "id": problem.code,
                "name": problem.code,
                "shortDescription": {"text": describe(problem.code)},
                "defaultConfiguration": {"level": level},
            }
            uri = help_uri(problem.code)
            if uri is not None:
                rule["helpUri"] = uri
            self._rules[problem.code] = rule
        if problem.path not in self._artifacts:
            self._artifacts[problem.path] = len(self._artifact_list)
            self._artifact_list.append({"location": artifact_location(problem.path)})
        location = dict(artifact_location(problem.path), index=self._artifacts[problem.path])
        self._results.append(
            {
                "ruleId": problem.code,
                "ruleIndex": self._rule_index[problem.code],
                "level": level,
                "message": {"text": problem.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": location,
                            "region": {"startLine": problem.line, "startColumn": problem.column},
                        }
                    }
                ],
            }
        )

    def log(self) -> dict[str, Any]:
        """The SARIF log of the problems seen so far."""
        return {
            "$schema": SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "notation",
                            "version": __version__,
                            "rules": list(self._rules.values()),
                        }
                    },
                    "columnKind": "unicodeCodePoints",
                    "artifacts": self._artifact_list,
                    "results": self._results,
                }
            ],
        }

    def finish(self, summary: Summary | None = None) -> None:
        log = self.log()
        if summary is not None:  # what the run read, as the run's property bag (SARIF 2.1.0, 3.8)
            log["runs"][0]["properties"] = summary.to_dict()
        json.dump(log, self._out, indent=2, ensure_ascii=False)
        self._out.write("\n")
        self._out.flush()
