"""What every view needs from its app: settings, request schemas, the variant registry."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Response, current_app

from notation.variants import Registry

from service.config import Settings
from service.jsonio import dumps
from service.schemas import RequestSchemas, request_schemas

EXTENSION_KEY = "notation"


@dataclass(frozen=True)
class ServiceState:
    settings: Settings
    schemas: RequestSchemas
    registry: Registry

    @classmethod
    def build(cls, settings: Settings) -> ServiceState:
        """Schemas and registry (with ``settings.variant_aliases``); raises ``ConfigError``."""
        return cls(settings, request_schemas(settings), settings.registry())


def state() -> ServiceState:
    """The running app's ``ServiceState`` (inside a request or app context)."""
    return current_app.extensions[EXTENSION_KEY]


def json_response(body: object, status: int = 200) -> Response:
    return Response(dumps(body), status=status, mimetype="application/json")
