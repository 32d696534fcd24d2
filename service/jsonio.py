"""JSON text out: one encoder for every response body.

ASCII-only output (non-ASCII escaped as ``\\uXXXX``) so that any string a client sent,
lone surrogates included, can be echoed back in a message without an encoding failure.

orjson writes it when its output is ASCII already (nearly always: FENs, codes and the
library's messages are ASCII), many times faster than the standard library on a batch of
10,000 results; the standard encoder writes everything else (non-ASCII text, lone
surrogates, integers past 64 bits, non-string keys), so the bytes are the same either
way. One difference: a float NaN or infinity is written as ``null`` where orjson takes the
value, instead of raising (no answer of the service holds one).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))
_DEL = b"\x7f"  # ASCII, but the standard encoder escapes it: such output is left to it


def dumps_bytes(obj: Any) -> bytes:
    """Compact ASCII JSON of ``obj`` as bytes; raises ``TypeError``/``ValueError`` on what
    JSON cannot hold (see the module docstring for NaN)."""
    try:
        out = orjson.dumps(obj)
    except TypeError:  # orjson.JSONEncodeError: what only the standard encoder takes, or nothing does
        return _ENCODER.encode(obj).encode("ascii")
    if out.isascii() and _DEL not in out:
        return out
    return _ENCODER.encode(obj).encode("ascii")


def dumps(obj: Any) -> str:
    """Compact JSON text of ``obj`` (ASCII); raises as ``dumps_bytes``."""
    return dumps_bytes(obj).decode("ascii")
