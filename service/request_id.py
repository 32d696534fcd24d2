"""``X-Request-ID``: the id that ties a request to its answer and its log lines.

A client's id is kept when it is 1 to ``MAX_LENGTH`` characters of letters, digits and
``-._:+=/`` (what tracing systems send: UUIDs, W3C trace ids, base64); anything else is
replaced by a new one, as is a missing id, so a log line can never be forged through it.
New ids are random UUID4s in hex. Nothing here reads sockets or settings.
"""

from __future__ import annotations

import re
import uuid

HEADER = "X-Request-ID"
MAX_LENGTH = 128
_ACCEPTED = re.compile(rf"[A-Za-z0-9\-._:+=/]{{1,{MAX_LENGTH}}}")


def new_id() -> str:
    return uuid.uuid4().hex


def request_id(given: str | None) -> str:
    """The client's id if it is acceptable (see the module doc), else a new one."""
    if given is not None and _ACCEPTED.fullmatch(given):
        return given
    return new_id()
