"""Service settings: defaults, environment variables, and the checks they must pass.

Every setting has an environment variable (``NOTATION_*``; ``PORT`` for the port). Bad
values raise ``ConfigError`` naming the variable and what it accepts, at start-up, never
during a request. Nothing here reads a request or imports Flask.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping


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
    workers: int = 0  # 0: one per CPU
    worker_class: str = "gthread"  # gthread: threads and keep-alive; sync: one request per process at a time
    threads: int = 4  # threads per gthread worker
    timeout: int = 60  # seconds a gunicorn worker may spend on one request
    log_level: str = "info"
    access_log: str = "off"  # "on": gunicorn access log to standard error
    variant_aliases: str = ""  # extra variant names: "zh960=crazyhouse,koth2=kingofthehill"

    def __post_init__(self) -> None:
        _at_least(self.max_body_bytes, 1024, "max_body_bytes")
        _at_least(self.max_pgn_bytes, 1024, "max_pgn_bytes")
        _at_least(self.max_batch, 1, "max_batch")
        _at_least(self.max_fen_chars, 64, "max_fen_chars")
        _at_least(self.workers, 0, "workers")
        _at_least(self.threads, 1, "threads")
        _at_least(self.timeout, 1, "timeout")
        if not 0 <= self.port <= 65535:
            raise ConfigError(f"{ENV_NAMES['port']}: port must be between 0 and 65535, got {self.port}")
        if not self.host:
            raise ConfigError(f"{ENV_NAMES['host']}: host cannot be empty")
        if self.log_level not in LOG_LEVELS:
            raise ConfigError(f"{ENV_NAMES['log_level']}: choose one of {', '.join(LOG_LEVELS)}, got {self.log_level!r}")
        if self.worker_class not in WORKER_CLASSES:
            raise ConfigError(f"{ENV_NAMES['worker_class']}: choose one of {', '.join(WORKER_CLASSES)}, got {self.worker_class!r}")
        if self.access_log not in ("on", "off"):
            raise ConfigError(f"{ENV_NAMES['access_log']}: choose on or off, got {self.access_log!r}")
        self.registry()  # a bad alias stops the service at start, not at the first request

    def alias_map(self) -> dict[str, str]:
        """``variant_aliases`` as alias -> variant; raises ``ConfigError`` on a malformed entry."""
        from notation.variants import parse_alias_option

        aliases: dict[str, str] = {}
        for entry in self.variant_aliases.split(","):
            if not entry.strip():
                continue
            try:
                alias, target = parse_alias_option(entry)
            except ValueError as exc:
                raise ConfigError(f"{ENV_NAMES['variant_aliases']}: {exc}") from None
            aliases[alias] = target
        return aliases

    def registry(self):
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

    @property
    def worker_count(self) -> int:
        """Gunicorn worker processes: ``workers``, or one per CPU when it is 0."""
        return self.workers or (os.cpu_count() or 1)

    def but(self, **changes: Any) -> "Settings":
        """A copy with some settings replaced (checked again)."""
        return replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        """Defaults overridden by the environment variables in ``ENV_NAMES``; raises ``ConfigError``."""
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
                values[item.name] = raw.strip().lower() if item.name in ("log_level", "access_log", "worker_class") else raw.strip()
        return cls(**values)

    @classmethod
    def from_mapping(cls, config: Mapping[str, Any]) -> "Settings":
        """Settings from ``{"max_batch": 100, ...}`` over the environment; raises ``ConfigError``."""
        known = {item.name for item in fields(cls)}
        unknown = sorted(set(config) - known)
        if unknown:
            raise ConfigError(f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls.from_env().but(**config)


WORKER_CLASSES = ("gthread", "sync")
LOG_LEVELS = ("debug", "info", "warning", "error", "critical")

ENV_NAMES: Mapping[str, str] = {
    "max_body_bytes": "NOTATION_MAX_BODY_BYTES",
    "max_pgn_bytes": "NOTATION_MAX_PGN_BYTES",
    "max_batch": "NOTATION_MAX_BATCH",
    "max_fen_chars": "NOTATION_MAX_FEN_CHARS",
    "host": "NOTATION_HOST",
    "port": "PORT",
    "workers": "NOTATION_WORKERS",
    "worker_class": "NOTATION_WORKER_CLASS",
    "threads": "NOTATION_THREADS",
    "timeout": "NOTATION_TIMEOUT",
    "log_level": "NOTATION_LOG_LEVEL",
    "access_log": "NOTATION_ACCESS_LOG",
    "variant_aliases": "NOTATION_VARIANT_ALIASES",
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
