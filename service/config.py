"""Service settings: defaults, environment variables, and the checks they must pass.

Every setting has an environment variable (``NOTATION_*``; ``PORT`` for the port). Bad
values raise ``ConfigError`` naming the variable and what it accepts, at start-up, never
during a request. Nothing here reads a request or imports Flask.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from notation.variants import Registry

    from .cors import CorsPolicy


class ConfigError(ValueError):
    """A setting with a value it cannot take; the message names the setting."""


@dataclass(frozen=True)
class Settings:
    """What an operator can tune. Limits are checked before a request body is read."""

    max_body_bytes: int = 4 * 1024 * 1024  # JSON request bodies
    max_pgn_bytes: int = 64 * 1024 * 1024  # POST /v1/pgn/normalize bodies
    max_batch: int = 10_000  # items in one POST /v1/fen/batch
    max_fen_chars: int = 512  # characters of one FEN in any request
    host: str = "127.0.0.1"
    port: int = 8080
    workers: int = 0  # worker processes, each one request at a time; 0: one per CPU
    front_ends: int = 0  # front-end processes accepting on the port, workers shared out; 0: workers // 2
    timeout: int = 60  # seconds from a request's last byte in to its answer's last byte out
    header_timeout: int = 10  # seconds to receive a request's head (from its first byte, or from accept)
    body_timeout: int = 10  # seconds without a byte of the body before 408
    keepalive_timeout: int = 5  # seconds an idle keep-alive connection is kept open
    send_timeout: int = 10  # seconds a client may take to accept a chunk of the answer
    max_connections: int = 1000  # open client connections; past it the oldest idle one is closed
    max_queue: int = 0  # requests waiting for a free worker; 0: 8 per worker; past it 503
    graceful_timeout: int = 10  # seconds in-flight requests may finish after SIGTERM/SIGINT
    log_level: str = "info"
    access_log: str = "off"  # "on": one line per request on standard error; "json": one JSON object a line
    variant_aliases: str = ""  # extra variant names: "zh960=crazyhouse,koth2=kingofthehill"
    cors_origins: str = ""  # "": no CORS; "*": any origin; else comma-separated origins (service.cors)
    metrics: str = "on"  # "on": GET /metrics answers Prometheus text; "off": 404

    def __post_init__(self) -> None:
        _at_least(self.max_body_bytes, 1024, "max_body_bytes")
        _at_least(self.max_pgn_bytes, 1024, "max_pgn_bytes")
        _at_least(self.max_batch, 1, "max_batch")
        _at_least(self.max_fen_chars, 64, "max_fen_chars")
        _at_least(self.workers, 0, "workers")
        _at_least(self.front_ends, 0, "front_ends")
        if self.front_ends > 1 and self.worker_count < 2 * self.front_ends:
            raise ConfigError(
                f"{ENV_NAMES['front_ends']}: each front end needs two workers of its own; {self.front_ends} front "
                f"ends need at least {2 * self.front_ends} workers, there are {self.worker_count}"
            )
        timeouts = ("timeout", "header_timeout", "body_timeout", "keepalive_timeout", "send_timeout")
        for name in (*timeouts, "max_connections"):
            _at_least(getattr(self, name), 1, name)
        _at_least(self.max_queue, 0, "max_queue")
        _at_least(self.graceful_timeout, 0, "graceful_timeout")
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"{ENV_NAMES['port']}: port must be between 0 and 65535, got {self.port}")
        if not self.host:
            raise ConfigError(f"{ENV_NAMES['host']}: host cannot be empty")
        if self.log_level not in LOG_LEVELS:
            raise ConfigError(
                f"{ENV_NAMES['log_level']}: choose one of {', '.join(LOG_LEVELS)}, got {self.log_level!r}"
            )
        if self.access_log not in ACCESS_LOGS:
            raise ConfigError(f"{ENV_NAMES['access_log']}: choose on, json or off, got {self.access_log!r}")
        if self.metrics not in ("on", "off"):
            raise ConfigError(f"{ENV_NAMES['metrics']}: choose on or off, got {self.metrics!r}")
        self.cors()  # a bad origin stops the service at start
        self.registry()  # a bad alias stops the service at start, not at the first request

    def alias_map(self) -> dict[str, str]:
        """``variant_aliases`` as alias -> variant; raises ``ConfigError`` on a malformed entry."""
        from notation.variants import parse_aliases

        try:
            return parse_aliases(self.variant_aliases)
        except ValueError as exc:
            raise ConfigError(f"{ENV_NAMES['variant_aliases']}: {exc}") from None

    def registry(self) -> Registry:
        """The default variant registry plus ``variant_aliases``; raises ``ConfigError``."""
        from notation.errors import NotationError
        from notation.variants import DEFAULT_REGISTRY

        aliases = self.alias_map()
        if not aliases:
            return DEFAULT_REGISTRY
        try:
            return DEFAULT_REGISTRY.with_aliases(aliases)
        except NotationError as exc:
            raise ConfigError(f"{ENV_NAMES['variant_aliases']}: {exc}") from None

    def cors(self) -> CorsPolicy:
        """The CORS policy ``cors_origins`` states; raises ``ConfigError``."""
        from .cors import CorsPolicy

        try:
            return CorsPolicy.parse(self.cors_origins)
        except ValueError as exc:
            raise ConfigError(f"{ENV_NAMES['cors_origins']}: {exc}") from None

    @property
    def worker_count(self) -> int:
        """Worker processes: ``workers``, or one per CPU when it is 0."""
        return self.workers or (os.cpu_count() or 1)

    @property
    def front_end_count(self) -> int:
        """Front-end processes: ``front_ends``, or half the workers (at least 1) when it is 0."""
        return self.front_ends or max(1, self.worker_count // 2)

    def share(self, index: int) -> Settings:
        """The settings of front end ``index`` of ``front_end_count``: its share of the
        workers, of the queue and of the connections (the shares add up to the whole)."""
        count = self.front_end_count
        if count == 1:
            return self.but(workers=self.worker_count, front_ends=1)

        def part(total: int) -> int:
            return max(1, total // count + (1 if index < total % count else 0))

        return self.but(
            workers=part(self.worker_count),
            max_queue=part(self.queue_bound),
            max_connections=part(self.max_connections),
            front_ends=1,
        )

    @property
    def queue_bound(self) -> int:
        """Requests that may wait for a free worker: ``max_queue``, or 8 per worker when it is 0."""
        return self.max_queue or 8 * self.worker_count

    def but(self, **changes: Any) -> Settings:
        """A copy with some settings replaced (checked again)."""
        return replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, overrides: Mapping[str, Any] | None = None) -> Settings:
        """Defaults overridden by the environment variables in ``ENV_NAMES``, then by
        ``overrides`` (command-line options: checked together, so that ``--workers`` counts
        when ``NOTATION_FRONT_ENDS`` is checked); raises ``ConfigError``."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for item in fields(cls):
            name = ENV_NAMES[item.name]
            raw = environ.get(name)
            if raw is None or raw.strip() == "":
                continue
            if item.type == "int":
                values[item.name] = _parse_int(name, raw)
            else:
                lowered = item.name in ("log_level", "access_log", "metrics")
                values[item.name] = raw.strip().lower() if lowered else raw.strip()
        values.update(overrides or {})
        return cls(**values)

    @staticmethod
    def removed_variables(environ: Mapping[str, str] | None = None) -> list[str]:
        """Warnings for set environment variables that no longer do anything (see ``REMOVED``)."""
        environ = os.environ if environ is None else environ
        return [
            f"{name} is set but no longer used: {why}" for name, why in REMOVED.items() if environ.get(name, "").strip()
        ]

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> Settings:
        """Settings from ``{"max_batch": 100, ...}`` over the environment; raises ``ConfigError``."""
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(config) - known)
        if unknown:
            raise ConfigError(f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls.from_env().but(**config)


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
ACCESS_LOGS = ("off", "on", "json")

ENV_NAMES: Mapping[str, str] = {
    "max_body_bytes": "NOTATION_MAX_BODY_BYTES",
    "max_pgn_bytes": "NOTATION_MAX_PGN_BYTES",
    "max_batch": "NOTATION_MAX_BATCH",
    "max_fen_chars": "NOTATION_MAX_FEN_CHARS",
    "host": "NOTATION_HOST",
    "port": "PORT",
    "workers": "NOTATION_WORKERS",
    "front_ends": "NOTATION_FRONT_ENDS",
    "timeout": "NOTATION_TIMEOUT",
    "header_timeout": "NOTATION_HEADER_TIMEOUT",
    "body_timeout": "NOTATION_BODY_TIMEOUT",
    "keepalive_timeout": "NOTATION_KEEPALIVE_TIMEOUT",
    "send_timeout": "NOTATION_SEND_TIMEOUT",
    "max_connections": "NOTATION_MAX_CONNECTIONS",
    "max_queue": "NOTATION_MAX_QUEUE",
    "graceful_timeout": "NOTATION_GRACEFUL_TIMEOUT",
    "log_level": "NOTATION_LOG_LEVEL",
    "access_log": "NOTATION_ACCESS_LOG",
    "variant_aliases": "NOTATION_VARIANT_ALIASES",
    "cors_origins": "NOTATION_CORS_ORIGINS",
    "metrics": "NOTATION_METRICS",
}

# Variables of the gunicorn-based server that the front end has no use for.
REMOVED: Mapping[str, str] = {
    "NOTATION_WORKER_CLASS": "every worker is a process serving one request at a time",
    "NOTATION_THREADS": "workers have no threads; the front end holds the connections",
}


def _parse_int(name: str, raw: str) -> int:
    text = raw.strip().replace("_", "")
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{name}: expected a whole number, got {raw!r}") from None


def _at_least(value: int, minimum: int, setting: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{ENV_NAMES[setting]}: expected a whole number, got {value!r}")
    if value < minimum:
        raise ConfigError(f"{ENV_NAMES[setting]}: must be at least {minimum}, got {value}")
