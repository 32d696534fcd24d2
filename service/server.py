"""Running the app under gunicorn, configured in code (no gunicorn.conf.py, no argv parsing).

``serve(settings)`` blocks until gunicorn stops (SIGINT/SIGTERM). Worker processes each
build their own app (``create_app`` runs after the fork). Gunicorn's own errors at start-up
(an address in use) end the process with its message on standard error.
"""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.config import KNOWN_SETTINGS as _KNOWN

KNOWN_SETTINGS = frozenset(setting.name for setting in _KNOWN)  # settings this gunicorn has

from service.config import Settings


class NotationServer(BaseApplication):
    """A gunicorn application whose options come from ``Settings``."""

    def __init__(self, settings: Settings):
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        for key, value in gunicorn_options(self.settings).items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from service.app import create_app

        return create_app(self.settings)


def gunicorn_options(settings: Settings) -> dict[str, Any]:
    """Gunicorn settings for ``settings``: worker processes, keep-alive, bounded request lines."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    options = {
        "bind": [f"{host}:{settings.port}"],
        "workers": settings.worker_count,
        "worker_class": settings.worker_class,
        "threads": settings.threads,
        "timeout": settings.timeout,
        "graceful_timeout": 10,
        "keepalive": 5,
        "limit_request_line": 8190,
        "limit_request_fields": 100,
        "limit_request_field_size": 8190,
        "loglevel": settings.log_level,
        "accesslog": "-" if settings.access_log == "on" else None,
        "errorlog": "-",
        "proc_name": "notation-service",
        "preload_app": False,
        # gunicorn 23+ opens a control socket in $HOME by default; two servers would share it.
        "control_socket_disable": True,
    }
    return {key: value for key, value in options.items() if key in KNOWN_SETTINGS}


def serve(settings: Settings) -> None:
    """Serve until stopped; returns when gunicorn exits."""
    NotationServer(settings).run()
