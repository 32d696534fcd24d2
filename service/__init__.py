"""The HTTP service: ``create_app(config=None)`` builds the Flask app (see docs/service.md)."""

from .app import create_app

__all__ = ["create_app"]
