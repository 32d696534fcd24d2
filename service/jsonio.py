"""JSON text out: one encoder for every response body.

ASCII-only output (non-ASCII escaped as ``\\uXXXX``) so that any string a client sent,
lone surrogates included, can be echoed back in a message without an encoding failure.
"""

from __future__ import annotations

import json
from typing import Any

_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def dumps(obj: Any) -> str:
    """Compact JSON text of ``obj``; raises ``TypeError``/``ValueError`` on what JSON cannot hold."""
    return _ENCODER.encode(obj)
