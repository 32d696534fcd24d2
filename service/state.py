"""What every view needs from its app: settings, request schemas, the variant registry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Response, current_app

from notation.name_sets import Source, registry_for
from notation.variants import Registry

from .config import Settings
from .jsonio import dumps_bytes
from .schemas import RequestSchemas, request_schemas

EXTENSION_KEY = "notation"


@dataclass(frozen=True)
class ServiceState:
    settings: Settings
    schemas: RequestSchemas
    registry: Registry
    # The registry of each source's names (a request's ``from``), each with the settings' aliases.
    registries: Mapping[Source, Registry]

    @classmethod
    def build(cls, settings: Settings) -> ServiceState:
        """Schemas and registries (with ``settings.variant_aliases``); raises ``ConfigError``."""
        registry = settings.registry()
        aliases = settings.alias_map()
        registries = {
            source: registry if source is Source.DEFAULT else registry_for(source).with_aliases(aliases)
            for source in Source
        }
        return cls(settings, request_schemas(settings), registry, registries)

    def registry_for(self, source: Source) -> Registry:
        """The registry that reads variant names as ``source`` writes them."""
        return self.registries[source]


def state() -> ServiceState:
    """The running app's ``ServiceState`` (inside a request or app context)."""
    return current_app.extensions[EXTENSION_KEY]


def json_response(body: object, status: int = 200) -> Response:
    return Response(dumps_bytes(body), status=status, mimetype="application/json")
