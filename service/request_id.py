"""``X-Request-ID``: the id that ties a request to its answer and its log lines.

A client's id is kept when it is 1 to ``MAX_LENGTH`` characters of letters, digits and
``-._:+=/`` (what tracing systems send: UUIDs, W3C trace ids, base64); anything else is
replaced by a new one, as is a missing id, so a log line can never be forged through it.
New ids are random UUID4s in hex. Nothing here reads sockets or settings.
"""

from __future__ import annotations

import random
import re

HEADER = "X-Request-ID"
MAX_LENGTH = 128
_ACCEPTED = re.compile(rf"[A-Za-z0-9\-._:+=/]{{1,{MAX_LENGTH}}}")


def new_id() -> str:
    """A random UUID4 in hex, as ``uuid.uuid4().hex`` has it, from ``random`` (seeded from
    the OS, again after a fork): an id need not be secret, and os.urandom is a system call."""
    number = (random.getrandbits(128) & _KEEP) | _VERSION_AND_VARIANT
    return f"{number:032x}"


_KEEP = ~((0xF000 << 64) | (0xC000 << 48))  # the version nibble and the variant bits
_VERSION_AND_VARIANT = (4 << 76) | (0x8000 << 48)  # version 4, RFC 4122 variant


def request_id(given: str | None) -> str:
    """The client's id if it is acceptable (see the module doc), else a new one."""
    if given is not None and _ACCEPTED.fullmatch(given):
        return given
    return new_id()
