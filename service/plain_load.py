"""A shortcut past marshmallow for request bodies made only of plain strings.

A single convert or validate is nearly always ``{"fen": ..., "variant": ..., "profile":
...}``, and marshmallow spends longer loading that than the library spends on the FEN.
``PlainStrings(schema).load(body)`` loads such a body with the schema's own validators
and defaults, and declines (returns ``None``) anything else: a body that is not an object,
a member that is not one of the schema's plain ``String`` fields (no ``data_key``), a
value that is not a string or that a validator refuses, a required field missing. A
declined body goes to the schema, which says what is wrong, so every error is the
schema's own.

Only for schemas whose hooks leave such bodies alone: the convert and validate request
schemas, whose hooks concern ``repair`` and ``on_illegal`` (never plain strings).
tests/http_service/test_service_plain_load.py checks that what this loads is what the schema loads.
Raises nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing


class PlainStrings:
    """The loader of ``schema``'s all-string bodies (see the module docstring)."""

    def __init__(self, schema: Schema):
        self.validators: dict[str, list[Callable[[Any], Any]]] = {}
        self.required: tuple[str, ...] = ()
        self.defaults: list[tuple[str, Any]] = []  # (name, value or a factory for one)
        required = []
        for name, field in schema.load_fields.items():
            if type(field) is fields.String and field.data_key is None and not field.allow_none:
                self.validators[name] = list(field.validators)
                if field.required:
                    required.append(name)
            if field.load_default is not missing:
                self.defaults.append((name, field.load_default))
        self.required = tuple(required)

    def load(self, body: Any) -> dict[str, Any] | None:
        """What the schema would load from ``body``, or ``None`` when it is not all plain strings."""
        if type(body) is not dict:
            return None
        validators = self.validators
        for name, value in body.items():
            checks = validators.get(name)
            if checks is None or type(value) is not str:
                return None
            for check in checks:
                try:
                    check(value)
                except ValidationError:
                    return None
        for name in self.required:
            if name not in body:
                return None
        loaded = dict(body)
        for name, default in self.defaults:
            if name not in loaded:
                loaded[name] = default() if callable(default) else default
        return loaded
