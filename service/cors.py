"""Cross-origin resource sharing (the Fetch standard's CORS protocol), off unless configured.

``NOTATION_CORS_ORIGINS`` is empty (the default: no CORS header is ever sent, browsers keep
pages of other origins from reading answers), ``*`` (any origin, without credentials), or a
comma-separated list of origins (``https://a.example,https://b.example``) matched exactly.
``CorsPolicy.headers`` gives the headers for an answer to a request with an ``Origin``
header; ``preflight`` those of the answer to an ``OPTIONS`` preflight request. Raises
``ValueError`` for an origin that is not ``scheme://host[:port]``. Nothing here reads sockets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS"
ALLOWED_HEADERS = "Content-Type, Content-Encoding, Accept-Encoding, X-Request-ID"
EXPOSED_HEADERS = "X-Request-ID, Retry-After"
MAX_AGE_SECONDS = 600
_ORIGIN = re.compile(r"[a-z][a-z0-9+.-]*://[^/\s?#]+")


@dataclass(frozen=True)
class CorsPolicy:
    """Which origins may read answers: none, any (``any_origin``), or those listed."""

    origins: frozenset[str] = frozenset()
    any_origin: bool = False

    @classmethod
    def parse(cls, text: str) -> CorsPolicy:
        """The policy a ``NOTATION_CORS_ORIGINS`` value states; raises ``ValueError``."""
        entries = [entry.strip().rstrip("/") for entry in text.split(",") if entry.strip()]
        if entries == ["*"]:
            return cls(any_origin=True)
        for entry in entries:
            if entry == "*" or not _ORIGIN.fullmatch(entry.lower()):
                raise ValueError(f"expected '*' or origins like https://app.example, got {entry!r}")
        return cls(origins=frozenset(entry.lower() for entry in entries))

    @property
    def enabled(self) -> bool:
        return self.any_origin or bool(self.origins)

    def allows(self, origin: str | None) -> bool:
        return origin is not None and (self.any_origin or origin.lower() in self.origins)

    def headers(self, origin: str | None) -> list[tuple[str, str]]:
        """Headers for an answer to a request from ``origin`` (none when not allowed)."""
        if not self.enabled:
            return []
        vary = [] if self.any_origin else [("Vary", "Origin")]
        if not self.allows(origin):
            return vary
        allowed = "*" if self.any_origin else str(origin)
        return [("Access-Control-Allow-Origin", allowed), ("Access-Control-Expose-Headers", EXPOSED_HEADERS), *vary]

    def preflight(self, origin: str | None) -> list[tuple[str, str]]:
        """Headers for the 204 answer to a preflight ``OPTIONS`` request."""
        if not self.allows(origin):
            return self.headers(origin)
        return [
            *self.headers(origin),
            ("Access-Control-Allow-Methods", ALLOWED_METHODS),
            ("Access-Control-Allow-Headers", ALLOWED_HEADERS),
            ("Access-Control-Max-Age", str(MAX_AGE_SECONDS)),
        ]
