"""``notation serve``: run the HTTP service, its front end and worker processes (see docs/service.md)."""

from __future__ import annotations

import sys

from notation.cli.options import add_alias_option
from notation.cli.usage import SUMMARIES, UsageError, bad_value
from notation.variants import parse_aliases

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing here
if TYPE_CHECKING:
    import argparse

DESCRIPTION = """\
Serve the HTTP API (POST /v1/fen/convert, /v1/fen/validate, /v1/fen/batch, ...) until
SIGTERM or SIGINT: asyncio front ends hold the connections and enforce the timeouts and
size limits; worker processes (one request at a time each) run the app. Options override
the environment variables of the same settings (NOTATION_HOST, PORT, NOTATION_WORKERS,
NOTATION_FRONT_ENDS, NOTATION_TIMEOUT; --variant-alias adds to NOTATION_VARIANT_ALIASES);
every other setting comes from the environment (NOTATION_MAX_BODY_BYTES,
NOTATION_HEADER_TIMEOUT, ...; see `notation docs service`).
Exit status: 0 after a clean stop, 1 if it cannot listen or its workers cannot start,
2 usage or configuration error."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help=SUMMARIES["serve"],
        description=DESCRIPTION,
    )
    parser.add_argument("--host", metavar="H", help="address to listen on (default: $NOTATION_HOST or 127.0.0.1)")
    parser.add_argument("--port", metavar="P", type=_port, help="port to listen on (default: $PORT or 8080)")
    parser.add_argument(
        "--workers", metavar="N", type=_workers, help="worker processes (default: $NOTATION_WORKERS or one per CPU)"
    )
    parser.add_argument(
        "--front-ends",
        metavar="N",
        type=_workers,
        help="front-end processes accepting on the port, each with its share of the workers (two or more) "
        "(default: $NOTATION_FRONT_ENDS or half the workers)",
    )
    parser.add_argument(
        "--timeout",
        metavar="S",
        type=_seconds,
        help="seconds a request may take once read (default: $NOTATION_TIMEOUT or 60)",
    )
    add_alias_option(parser)
    parser.set_defaults(run=run)


SERVICE_EXTRA = "pip install 'notation[service]'"


def run(args: argparse.Namespace) -> int:
    try:
        from notation_service.config import ConfigError, Settings
        from notation_service.server import ServeError, serve
    except ImportError as exc:  # installed without the service extra
        missing = exc.name or "a module"
        raise UsageError(f"the HTTP service needs {missing} (the service extra): {SERVICE_EXTRA}") from None

    names = ("host", "port", "workers", "front_ends", "timeout")
    changes = {name: value for name in names if (value := getattr(args, name)) is not None}
    try:
        parse_aliases(args.variant_alias)  # malformed entries are named as the user gave them
    except ValueError as exc:
        raise UsageError(f"--variant-alias: {exc}") from None
    try:
        settings = Settings.from_env(overrides=changes)
        if args.variant_alias:
            changes["variant_aliases"] = ",".join(filter(None, [settings.variant_aliases, *args.variant_alias]))
        settings = settings.but(**changes)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    try:
        serve(settings)
    except ServeError as exc:
        sys.stderr.write(f"notation serve: {exc}\n")
        return 1
    return 0


def _port(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise bad_value(f"a port is between 0 and 65535, got {text}")
    return value


def _workers(text: str) -> int:
    """At least 1: a count of workers or of front ends."""
    value = _whole(text)
    if value < 1:
        raise bad_value(f"at least 1, got {text}")
    return value


def _seconds(text: str) -> int:
    value = _whole(text)
    if value < 1:
        raise bad_value(f"at least 1 second, got {text}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise bad_value(f"expected a whole number, got {text!r}") from None
