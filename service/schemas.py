"""marshmallow schemas of every request and response body (marshmallow 4, ``unknown = RAISE``).

Request schemas depend on the settings (longest FEN, largest batch), so they are built by
``request_schemas(settings)``. Response schemas are fixed. ``openapi.yaml`` describes the
same shapes; the tests hold the two together through the running app.

Batch items are checked by ``BatchItems`` with plain Python rather than one nested schema
per item: at 10,000 items a nested schema costs more than converting the FENs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_dump, post_load, validate, validates_schema

from notation.fen.profiles import PROFILES, WRITER_OPTION_NAMES, WRITER_OPTIONS
from notation.move_options import MoveLanguage, MoveNotation
from notation.name_sets import Source
from notation.options import IllegalPolicy
from notation.pgn.duplicates import AddedTag, DuplicateMatch, DuplicatesPolicy, parse_by_tags
from notation.pgn.encodings import TextEncoding
from notation.pgn.export import ExportFormat
from notation.pgn.normalize import BadGamePolicy, MovesOption
from notation.pgn.repairs import BrokenGames
from notation.svg import MAX_SIZE, MIN_SIZE, CheckMark, Coordinates, Orientation
from notation.validation import CODES
from notation.views import Viewer

from .config import Settings
from .plain_load import PlainStrings

MAX_VARIANT_CHARS = 64
# POST /v1/play: the moves of one request (a long game is about 600 plies), each this long.
MAX_PLAYED_MOVES = 2000
MAX_MOVE_CHARS = 32
MOVE_NOTATIONS = [notation.value for notation in MoveNotation]
MAX_ACCEPT_CODES = 32
MAX_DUPLICATE_KEY_CHARS = 1000  # POST /v1/pgn/normalize's duplicates_by and add_tags: names
# POST /v1/board.svg: bounds of its numbers (a 4 MiB body holds fewer games; a game fewer
# plies than its movetext's token budget) and of its lists of squares.
MAX_GAME_NUMBER = 1_000_000
MAX_PLY = 100_000
MAX_SQUARES_CHARS = 1000
NOT_BLANK = re.compile(r"\s*+\S")  # text that is not only white space (openapi.yaml: pattern \S)
# Fields of a batch that only its convert operation takes.
CONVERT_ONLY_FIELDS = ("profile", *WRITER_OPTION_NAMES, "on_illegal", "repair")


class Strict(Schema):
    class Meta:
        unknown = RAISE


def enum_field(enum_type: type, **kwargs: Any) -> fields.Enum:
    return fields.Enum(enum_type, by_value=True, allow_none=False, **kwargs)


def _variant_field() -> fields.String:
    return fields.String(
        load_default="standard", allow_none=False, validate=validate.Length(min=1, max=MAX_VARIANT_CHARS)
    )


def source_field() -> fields.Enum:
    """``from``: whose variant names the request uses (``notation.name_sets.Source``); loads
    as ``source``."""
    return enum_field(Source, data_key="from", load_default=Source.DEFAULT)


def accept_field() -> fields.List:
    """Validation codes to report as warnings (the codes ``notation.validation`` knows)."""
    return fields.List(
        fields.String(validate=validate.OneOf(CODES, error="Not a validation code; choose one of: {choices}.")),
        load_default=list,
        allow_none=False,
        validate=validate.Length(max=MAX_ACCEPT_CODES),
    )


class StrictBoolean(fields.Boolean):
    """JSON ``true``/``false`` only (marshmallow's Boolean also takes 1, "yes", "on"...);
    in a query string, the words ``true`` and ``false``."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if value is True or value == "true":
            return True
        if value is False or value == "false":
            return False
        raise self.make_error("invalid")


# One enum field per writer option (``notation.fen.profiles.WRITER_OPTIONS``).
_WriterChoices = Strict.from_dict(
    {option.name: enum_field(option.choices) for option in WRITER_OPTIONS}, name="WriterChoices"
)


# mypy cannot see a class made at run time as a base class; marshmallow collects its fields.
class WriterOptions(_WriterChoices):  # type: ignore[valid-type,misc]
    """How to write the FEN (convert only). Absent options are absent from the loaded dict."""

    profile = fields.String(allow_none=False, validate=validate.OneOf(list(PROFILES)))
    on_illegal = enum_field(IllegalPolicy)
    # The flag spelling: ``repair: true`` is ``on_illegal: repair`` (JSON clients expect a
    # flag); it becomes the enum here, so nothing past the schema sees a boolean.
    repair = StrictBoolean(allow_none=False)

    @validates_schema
    def _repair_agrees(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "repair" in data and "on_illegal" in data:
            raise ValidationError({"repair": ["Give repair or on_illegal, not both."]})

    @post_load
    def _repair_as_policy(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if "repair" in data:
            data["on_illegal"] = IllegalPolicy.REPAIR if data.pop("repair") else IllegalPolicy.REFUSE
        return data


class BatchItems(fields.Field):
    """A list of FEN strings or ``{"fen": ..., "variant": ...}`` objects, at most ``max_items``.

    Loads to a list of ``(fen, variant | None)``; errors are keyed by item index.
    """

    def __init__(self, *, max_items: int, max_fen_chars: int, **kwargs: Any):
        super().__init__(**kwargs)
        self.max_items = max_items
        self.max_fen_chars = max_fen_chars

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> list[tuple[str, str | None]]:
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        if not value:
            raise ValidationError("Send at least one item.")
        if len(value) > self.max_items:
            raise ValidationError(f"At most {self.max_items} items in one batch; got {len(value)}.")
        limit = self.max_fen_chars
        out: list[tuple[str, str | None]] = []
        errors: dict[int, Any] = {}
        append = out.append
        for index, item in enumerate(value):
            if type(item) is str:
                if len(item) > limit:
                    errors[index] = [f"Longer than maximum length {limit}."]
                else:
                    append((item, None))
            elif type(item) is dict:
                problem = self._item_object_errors(item)
                if problem:
                    errors[index] = problem
                else:
                    append((item["fen"], item.get("variant")))
            else:
                errors[index] = ["Not a FEN string or an object with a fen."]
            if len(errors) >= 100:
                break
        if errors:
            raise ValidationError(errors)
        return out

    def _item_object_errors(self, item: dict) -> dict[str, list[str]]:
        errors: dict[str, list[str]] = {}
        for key in item:
            if key not in ("fen", "variant"):
                errors[key] = ["Unknown field."]
        fen = item.get("fen")
        if fen is None:
            errors["fen"] = ["Missing data for required field." if "fen" not in item else "Field may not be null."]
        elif type(fen) is not str:
            errors["fen"] = ["Not a valid string."]
        elif len(fen) > self.max_fen_chars:
            errors["fen"] = [f"Longer than maximum length {self.max_fen_chars}."]
        if "variant" in item:
            variant = item["variant"]
            if type(variant) is not str:
                errors["variant"] = ["Not a valid string."]
            elif not 1 <= len(variant) <= MAX_VARIANT_CHARS:
                errors["variant"] = [f"Length must be between 1 and {MAX_VARIANT_CHARS}."]
        return errors


def _query_words(value: Any) -> str:
    """A query parameter's text, at most ``MAX_DUPLICATE_KEY_CHARS`` characters long."""
    if not isinstance(value, str):
        raise ValidationError("Not a valid string.")
    if len(value) > MAX_DUPLICATE_KEY_CHARS:
        raise ValidationError(f"Longer than maximum length {MAX_DUPLICATE_KEY_CHARS}.")
    return value


class DuplicateKey(fields.Field):
    """``duplicates_by``: tag names separated by commas, as ``normalize --duplicates-by``
    takes them (``White,Black,Date``; the word ``prefix`` among them for prefixes); loads
    as (the tag names, ``DuplicateMatch``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> tuple[tuple[str, ...], DuplicateMatch]:
        try:
            return parse_by_tags(_query_words(value))
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


class AddedTags(fields.Field):
    """``add_tags``: ``plycount``, ``gameid`` or both separated by a comma, as ``normalize
    --add-tags`` takes them; loads as the ``AddedTag`` values in their own order."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None,
                     **kwargs: Any) -> tuple[AddedTag, ...]:
        names = {name.strip().lower() for name in _query_words(value).split(",")}
        names.discard("")
        known = {tag.value for tag in AddedTag}
        unknown = sorted(names - known)
        if unknown:
            raise ValidationError(f"Not a tag to add: {', '.join(unknown)}; choose from: {', '.join(sorted(known))}.")
        return tuple(tag for tag in AddedTag if tag.value in names)


class NormalizeQuery(WriterOptions):
    """Query parameters of POST /v1/pgn/normalize (``accept`` may repeat; ``on_illegal``
    only: a query cannot say "not both", so the ``repair`` flag stays a body option)."""

    class Meta(Strict.Meta):
        exclude = ("repair",)

    on_bad = enum_field(BadGamePolicy)
    moves = enum_field(MovesOption, load_default=MovesOption.KEEP)
    encoding = enum_field(TextEncoding, load_default=TextEncoding.KEEP)
    piece_letters = enum_field(MoveLanguage, load_default=MoveLanguage.EN)
    export = enum_field(ExportFormat, load_default=ExportFormat.KEEP)
    duplicates = enum_field(DuplicatesPolicy, load_default=DuplicatesPolicy.KEEP)
    duplicates_by = DuplicateKey(load_default=((), DuplicateMatch.SAME), allow_none=False)
    merge_tags = StrictBoolean(load_default=False, allow_none=False)
    add_tags = AddedTags(load_default=(), allow_none=False)
    broken = enum_field(BrokenGames, load_default=BrokenGames.KEEP)
    fix_results = StrictBoolean(load_default=False, allow_none=False)
    fix_tags = StrictBoolean(load_default=False, allow_none=False)
    fix_move_numbers = StrictBoolean(load_default=False, allow_none=False)
    accept = accept_field()
    source = source_field()

    @validates_schema
    def _duplicate_options_agree(self, data: dict[str, Any], **kwargs: Any) -> None:
        """As the command: ``duplicates_by`` needs duplicates looked for, ``merge_tags`` dropped."""
        policy = data.get("duplicates", DuplicatesPolicy.KEEP)
        errors: dict[str, list[str]] = {}
        tags, match = data.get("duplicates_by", ((), DuplicateMatch.SAME))
        if (tags or match is DuplicateMatch.PREFIX) and policy is DuplicatesPolicy.KEEP:
            errors["duplicates_by"] = ["Needs duplicates=drop or duplicates=mark."]
        if data.get("merge_tags") and policy is not DuplicatesPolicy.DROP:
            errors["merge_tags"] = ["Needs duplicates=drop: the tags are taken from the copies left out."]
        if errors:
            raise ValidationError(errors)


class GameRequest(Strict):
    """The body of POST /v1/pgn/game: the PGN text (its first game is read), whose variant
    names its tags use, and validation codes to let through in its FEN tag."""

    pgn = fields.String(
        required=True, allow_none=False,
        validate=validate.Regexp(NOT_BLANK, error="Holds no PGN game: send the text of one (tags and moves, or moves "
                                 "alone)."),
    )
    source = source_field()
    accept = accept_field()


class WholeNumber(fields.Integer):
    """A JSON integer (not a float, a string or a boolean) from ``least`` to ``most``."""

    def __init__(self, least: int, most: int, **kwargs: Any):
        super().__init__(strict=True, allow_none=False, validate=validate.Range(min=least, max=most), **kwargs)


class GameBoardRequest(GameRequest):
    """The body of POST /v1/board.svg: a PGN text, which of its games and which ply of that
    game's main line to draw (absent: after its last move), and the picture's options as
    GET /v1/board.svg's query names them (the last move is the game's own)."""

    game = WholeNumber(1, MAX_GAME_NUMBER, load_default=1)
    ply = WholeNumber(0, MAX_PLY)
    size = WholeNumber(MIN_SIZE, MAX_SIZE)
    orientation = enum_field(Orientation, load_default=Orientation.WHITE)
    coordinates = enum_field(Coordinates, load_default=Coordinates.SHOW)
    highlight = fields.String(load_default="", allow_none=False, validate=validate.Length(max=MAX_SQUARES_CHARS))
    check = enum_field(CheckMark, load_default=CheckMark.AUTO)
    arrows = fields.String(load_default="", allow_none=False, validate=validate.Length(max=MAX_SQUARES_CHARS))


class StartQuery(WriterOptions):
    """Query parameters of GET /v1/start: the variant, its array (a number or a seed), and
    how to write the FEN (writer options and profile; no repair: nothing is read)."""

    class Meta(Strict.Meta):
        exclude = ("repair", "on_illegal")

    variant = _variant_field()
    source = source_field()
    number = fields.Integer(strict=False, allow_none=False, validate=validate.Range(min=0, max=959))
    seed = fields.Integer(strict=False, allow_none=False, validate=validate.Range(min=0, max=2**63 - 1))
    array = fields.String(load_default="own", allow_none=False, validate=validate.OneOf(["own", "chess960"]))


@dataclass(frozen=True)
class RequestSchemas:
    convert: Schema
    validate: Schema
    batch: Schema
    view: Schema
    moves: Schema
    play: Schema
    # Loaders of convert's and validate's all-string bodies, past marshmallow (``service.plain_load``).
    plain_convert: PlainStrings
    plain_validate: PlainStrings


def request_schemas(settings: Settings) -> RequestSchemas:
    """The request schemas with the limits of ``settings``."""
    fen_length = validate.Length(max=settings.max_fen_chars)

    class ConvertRequest(WriterOptions):
        fen = fields.String(required=True, allow_none=False, validate=fen_length)
        variant = _variant_field()
        source = source_field()
        accept = accept_field()

    class ValidateRequest(Strict):
        fen = fields.String(required=True, allow_none=False, validate=fen_length)
        variant = _variant_field()
        source = source_field()
        accept = accept_field()

    class BatchRequest(WriterOptions):
        operation = fields.String(required=True, allow_none=False, validate=validate.OneOf(["convert", "validate"]))
        variant = _variant_field()
        source = source_field()
        accept = accept_field()
        items = BatchItems(
            required=True, allow_none=False, max_items=settings.max_batch, max_fen_chars=settings.max_fen_chars
        )

        @validates_schema(skip_on_field_errors=False)
        def _options_need_convert(self, data: dict[str, Any], **kwargs: Any) -> None:
            if data.get("operation") != "validate":
                return
            given = [name for name in CONVERT_ONLY_FIELDS if name in data]
            if given:
                raise ValidationError({name: ["Only for operation convert."] for name in given})
    class ViewRequest(Strict):
        fen = fields.String(required=True, allow_none=False, validate=fen_length)
        variant = fields.String(
            load_default="dark", allow_none=False, validate=validate.Length(min=1, max=MAX_VARIANT_CHARS)
        )
        side = enum_field(Viewer, required=True)
        accept = accept_field()

    class MovesRequest(Strict):
        fen = fields.String(load_default=None, allow_none=True, validate=fen_length)
        variant = _variant_field()
        source = source_field()
        chess960 = StrictBoolean(load_default=False, allow_none=False)
        notation = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(MOVE_NOTATIONS))
        squares = StrictBoolean(load_default=False, allow_none=False)

    class PlayRequest(_WriterChoices):  # type: ignore[valid-type,misc]
        fen = fields.String(load_default=None, allow_none=True, validate=fen_length)
        variant = _variant_field()
        source = source_field()
        chess960 = StrictBoolean(load_default=False, allow_none=False)
        notation = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(MOVE_NOTATIONS))
        profile = fields.String(allow_none=False, validate=validate.OneOf(list(PROFILES)))
        moves = fields.List(
            fields.String(validate=validate.Length(min=1, max=MAX_MOVE_CHARS)),
            required=True,
            allow_none=False,
            validate=validate.Length(max=MAX_PLAYED_MOVES),
        )
        strict = StrictBoolean(load_default=False, allow_none=False)

    convert_request, validate_request = ConvertRequest(), ValidateRequest()
    return RequestSchemas(
        convert_request, validate_request, BatchRequest(), ViewRequest(), MovesRequest(), PlayRequest(),
        PlainStrings(convert_request), PlainStrings(validate_request),
    )


# --- responses ---------------------------------------------------------------------------


class ProblemItem(Schema):
    """One problem found in a FEN (the library's ``Problem.to_dict()``); extra keys kept."""

    code = fields.String(required=True)
    message = fields.String(required=True)
    field = fields.String()
    column = fields.Integer()

    @post_dump(pass_original=True)
    def _keep_extra(self, data: dict[str, Any], original: Mapping[str, Any], **kwargs: Any) -> dict[str, Any]:
        for key, value in original.items():
            data.setdefault(key, value)
        return data


class DialectOut(Schema):
    pockets = fields.String(allow_none=True)
    checks = fields.String(allow_none=True)
    castling = fields.String(allow_none=True)
    counters = fields.String()
    promoted = fields.String(allow_none=True)
    chess960 = fields.Boolean()
    notation = fields.String()  # fen, or opentafl for an OpenTafl position record


class ConvertOut(Schema):
    """200 of POST /v1/fen/convert."""

    fen = fields.String(required=True)
    variant = fields.String(required=True)
    warnings = fields.List(fields.Nested(ProblemItem), required=True)
    detected = fields.Nested(DialectOut, required=True)


class ConvertItemOut(Schema):
    """One result of a convert batch: ``ConvertResult.to_dict()``, the CLI's JSON line."""

    ok = fields.Boolean(required=True)
    fen = fields.String(allow_none=True, required=True)
    variant = fields.String(allow_none=True, required=True)
    errors = fields.List(fields.Nested(ProblemItem), required=True)
    warnings = fields.List(fields.Nested(ProblemItem), required=True)
    detected = fields.Nested(DialectOut, allow_none=True, required=True)


class ValidateOut(Schema):
    """200 of POST /v1/fen/validate and one result of a validate batch."""

    valid = fields.Boolean(required=True)
    variant = fields.String(allow_none=True, required=True)
    errors = fields.List(fields.Nested(ProblemItem), required=True)
    warnings = fields.List(fields.Nested(ProblemItem), required=True)
    detected = fields.Nested(DialectOut, allow_none=True, required=True)


class MovesOut(Schema):
    """200 of POST /v1/moves: ``MovesResult.to_dict()``, the JSON line of ``notation moves``."""

    ok = fields.Boolean(required=True)
    variant = fields.String(required=True)
    notation = fields.String(required=True)
    moves = fields.List(fields.String(), required=True)
    outcome = fields.Dict(allow_none=True, required=True)


class PlayOut(Schema):
    """200 of POST /v1/play: ``PlayResult.to_dict()``, the JSON line of ``notation play``."""

    ok = fields.Boolean(required=True)
    variant = fields.String(required=True)
    fen = fields.String(required=True)
    played = fields.List(fields.String(), required=True)
    outcome = fields.Dict(allow_none=True, required=True)
    warnings = fields.List(fields.Nested(ProblemItem), required=True)


class ViewOut(Schema):
    """200 of POST /v1/fen/view: ``ViewResult.to_dict()``, the JSON line of ``notation view``."""

    ok = fields.Boolean(required=True)
    fen = fields.String(allow_none=True, required=True)
    variant = fields.String(allow_none=True, required=True)
    side = fields.String(required=True)
    errors = fields.List(fields.Nested(ProblemItem), required=True)
    warnings = fields.List(fields.Nested(ProblemItem), required=True)


class BatchSummary(Schema):
    total = fields.Integer(required=True)
    ok = fields.Integer(required=True)
    failed = fields.Integer(required=True)


class BatchOut(Schema):
    """200 of POST /v1/fen/batch; ``results`` are dumped by ``ConvertItemOut``/``ValidateOut``."""

    operation = fields.String(required=True)
    summary = fields.Nested(BatchSummary, required=True)
    results = fields.Raw(required=True)


class PieceOut(Schema):
    letter = fields.String(required=True)
    name = fields.String(required=True)
    movement = fields.String(required=True)


class GeometryOut(Schema):
    files = fields.Integer(required=True)
    ranks = fields.Integer(required=True)


class VariantReadsOut(Schema):
    positions = fields.List(fields.String(), required=True)
    pockets = fields.List(fields.String(), required=True)
    checks = fields.List(fields.String(), required=True)
    castling = fields.List(fields.String(), required=True)
    letters = fields.List(fields.String(), required=True)
    sides = fields.List(fields.String(), required=True)
    layouts = fields.List(fields.String(), required=True)
    fields_ = fields.List(fields.String(), required=True, data_key="fields", attribute="fields")


class VariantPlaysOut(Schema):
    moves = fields.List(fields.String(), required=True)
    perft = fields.Boolean(required=True)


class VariantOut(Schema):
    key = fields.String(required=True)
    name = fields.String(required=True)
    aliases = fields.List(fields.String(), required=True)
    start_fen = fields.String(required=True)
    random_start = fields.Boolean(required=True)
    pockets = fields.Boolean(required=True)
    check_counters = fields.Boolean(required=True)
    checks_to_win = fields.Integer(required=True)
    castling = fields.Boolean(required=True)
    royal = fields.String(required=True)
    promotions = fields.String(required=True)
    stalemate = fields.String(required=True)
    twists = fields.List(fields.String(), required=True)
    pieces = fields.List(fields.Nested(PieceOut), required=True)
    lichess_name = fields.String(allow_none=True, required=True)
    geometry = fields.Nested(GeometryOut, required=True)
    family = fields.String(required=True)
    profiles = fields.List(fields.String(), required=True)
    reads = fields.Nested(VariantReadsOut, required=True)
    plays = fields.Nested(VariantPlaysOut, required=True)


class VariantsOut(Schema):
    variants = fields.List(fields.Nested(VariantOut), required=True)


class HealthOut(Schema):
    status = fields.String(required=True)
    version = fields.String(required=True)


class PgnReportEntry(Schema):
    """Problems found on one input line of a game (the report of ``notation normalize``)."""

    game = fields.Integer(required=True)
    line = fields.Integer(required=True)
    errors = fields.List(fields.Nested(ProblemItem), required=True)
    warnings = fields.List(fields.Nested(ProblemItem))


class PgnGameLine(Schema):
    """One line of the POST /v1/pgn/normalize stream per game (or part of a huge game)."""

    kind = fields.String(required=True)
    game = fields.Integer(required=True)
    part = fields.Integer(required=True)
    start_line = fields.Integer(required=True)
    changed = fields.Boolean(required=True)
    rejected = fields.Boolean(required=True)
    dropped = fields.Boolean(required=True)
    text = fields.String(required=True)
    problems = fields.List(fields.Nested(PgnReportEntry), required=True)


class PgnSummaryLine(Schema):
    """The last line of the POST /v1/pgn/normalize stream."""

    kind = fields.String(required=True)
    games = fields.Integer(required=True)
    changed = fields.Integer(required=True)
    unchanged = fields.Integer(required=True)
    rejected = fields.Integer(required=True)
    dropped = fields.Integer(required=True)
    problems = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
