"""``POST /v1/pgn/normalize``: the PGN normaliser (``notation.pgn.normalize``) over a PGN
body, answered as a stream of JSON lines (``application/x-ndjson``). ``moves`` is the CLI's
``--moves`` (``keep``, ``check``, ``san``, ``lan``, ``uci``, ``iccs``, ``wxf``, ``opentafl``),
``export`` its ``--export`` (``keep``, ``full``, ``reduced``), and so on for each option, named
as the command's long option with ``_`` for ``-``: the same options give the same bytes as
``notation normalize``.

Memory stays bounded whatever the body (up to ``NOTATION_MAX_PGN_BYTES``):

- The body is first read whole, decoded from its ``Content-Encoding``, into a temporary
  file (``bodies.spool_body``: in memory up to 1 MiB, on disk past that). Reading it all
  before answering means a client that sends its whole request before reading the answer
  cannot deadlock (we would otherwise block writing to it while it blocks writing to
  us), and a body too large once decoded (413) or corrupt (400) is refused before the
  200 status is sent.
- The file is then decoded as UTF-8 a block at a time (``bodies.utf8_blocks``; bytes that
  are not UTF-8 are kept as lone surrogates U+DC80..U+DCFF, Python's
  ``surrogateescape``, read as Windows-1252 and reported once a game with code
  ``pgn-windows-1252``, as ``notation normalize`` does; ``encoding=utf-8`` writes such a
  game's ``text`` transcoded, as ``--encoding utf-8``), and the blocks are fed to the
  normaliser, which holds one game (or one part of a game too large to hold,
  ``Limits.max_game_chars``) at a time.
- Each game is written as one JSON line as soon as it is done, a long game's ``text``
  encoded a slice at a time; lines are gathered into pieces of about 64 KiB before they
  are handed to the server; one summary line ends the stream.

Every step is a generator pulled by the server: when the server closes the response (the
client went away), the work stops at the next piece and the temporary file is closed.
Options are query parameters, checked before anything is read.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import IO, Any

from flask import Blueprint, Response

from notation.fen.profiles import WRITER_OPTION_NAMES
from notation.options import IllegalPolicy
from notation.pgn.duplicates import DuplicateSettings, MergeTags
from notation.pgn.normalize import BadGamePolicy, GameResult, NormalizeOptions, Summary, normalize
from notation.pgn.repairs import Repair

from ..bodies import load_query, require_media_type, single_query, spool_body, utf8_blocks
from ..jsonio import dumps
from ..schemas import NormalizeQuery, PgnGameLine, PgnSummaryLine
from ..state import state

blueprint = Blueprint("pgn", __name__, url_prefix="/v1/pgn")
log = logging.getLogger("service")

PGN_MEDIA_TYPES = ("application/x-chess-pgn", "application/vnd.chess-pgn", "text/plain")
NDJSON = "application/x-ndjson"
REPEATABLE = frozenset({"accept"})
# The repairs' flags (``fix_results=true``), each the command's ``--fix-...``.
REPAIR_FLAGS = {"fix_results": Repair.RESULTS, "fix_tags": Repair.TAGS, "fix_move_numbers": Repair.MOVE_NUMBERS}
OUTPUT_CHARS = 1 << 16  # lines are gathered into pieces of about this many characters
TEXT_SLICE = 1 << 16  # a game's text is JSON-encoded this many characters at a time


_query = NormalizeQuery()
_game_line = PgnGameLine()
_summary_line = PgnSummaryLine()


@blueprint.post("/normalize")
def normalize_pgn() -> Response:
    options = _options()
    require_media_type(PGN_MEDIA_TYPES)
    body = spool_body()
    if options.duplicates.whole_input_first:
        options = _with_copies(options, body)
    response = Response(_gathered(_lines(utf8_blocks(body), options)), mimetype=NDJSON)
    response.call_on_close(body.close)
    return response


def _options() -> NormalizeOptions:
    data = load_query(_query, single_query(REPEATABLE))
    writer: dict[str, Any] = {name: data.get(name) for name in WRITER_OPTION_NAMES}
    return NormalizeOptions.create(
        data.get("profile"),
        on_bad=data.get("on_bad", BadGamePolicy.KEEP),
        on_illegal=data.get("on_illegal", IllegalPolicy.REFUSE),
        registry=state().registry_for(data["source"]),
        accept=data["accept"],
        moves=data["moves"],
        encoding=data["encoding"],
        move_letters=data["piece_letters"],
        export=data["export"],
        duplicates=_duplicates(data),
        broken=data["broken"],
        repairs=[repair for flag, repair in REPAIR_FLAGS.items() if data[flag]],
        **writer,
    )


def _duplicates(data: dict[str, Any]) -> DuplicateSettings:
    """What happens to later copies of a game within the body, as ``normalize --duplicates``
    says; a copy names its first game by line alone (the body has no file name)."""
    by_tags, match = data["duplicates_by"]
    merge = MergeTags.MISSING if data["merge_tags"] else MergeTags.NONE
    return DuplicateSettings(data["duplicates"], by_tags, "", match=match, merge=merge, add_tags=data["add_tags"])


def _with_copies(options: NormalizeOptions, body: IO[bytes]) -> NormalizeOptions:
    """``options`` with the copies found over the whole body first (prefixes, merged tags:
    ``duplicate_jobs.with_copies``, one process), as ``normalize`` finds them in a file; the
    body is read again from its start by the normalising pass. A body held in memory goes to
    its temporary file, which the finder reads at offsets."""
    from notation.pgn.duplicate_jobs import with_copies

    try:
        descriptor = body.fileno()
        body.flush()
        found = with_copies(options, descriptor, 1)
        body.seek(0)
    except BaseException:
        body.close()
        raise
    return found


def _gathered(pieces: Iterator[str]) -> Iterator[str]:
    """``pieces`` joined into strings of about ``OUTPUT_CHARS`` (fewer, larger writes);
    closing it closes ``pieces``."""
    buffer: list[str] = []
    size = 0
    try:
        for piece in pieces:
            buffer.append(piece)
            size += len(piece)
            if size >= OUTPUT_CHARS:
                yield "".join(buffer)
                buffer, size = [], 0
        if buffer:
            yield "".join(buffer)
    finally:
        pieces.close()  # type: ignore[attr-defined]


def _lines(blocks: Iterator[str], options: NormalizeOptions) -> Iterator[str]:
    """The response's text in pieces: each game line, then the summary (or an error) line."""
    summary = Summary()
    try:
        for result in normalize(blocks, options):
            summary.add(result)
            yield from _game_line_pieces(_game_line.dump(_game(result)))
    except Exception as exc:  # noqa: BLE001 - the status is already sent: end with an error line
        log.error("unexpected error while normalising a PGN stream", exc_info=exc)
        yield dumps(
            {
                "kind": "error",
                "type": "about:blank",
                "title": "Internal Server Error",
                "status": 500,
                "detail": "the service failed while normalising; the games above are complete, the rest is missing",
            }
        ) + "\n"
        return
    yield dumps(_summary_line.dump({"kind": "summary", **summary.to_dict()})) + "\n"


def _game_line_pieces(line: dict[str, Any]) -> Iterator[str]:
    """``dumps(line) + "\\n"`` in pieces, the ``text`` member a slice at a time (a game may
    hold millions of characters; JSON escapes each character on its own, so the pieces
    join to exactly the whole)."""
    names = list(line)
    at = names.index("text")
    before = ",".join(dumps(name) + ":" + dumps(line[name]) for name in names[:at])
    after = ",".join(dumps(name) + ":" + dumps(line[name]) for name in names[at + 1:])
    head = "{" + before + ("," if before else "") + '"text":"'
    tail = '"' + ("," if after else "") + after + "}\n"
    text = line["text"]
    yield head
    for start in range(0, len(text), TEXT_SLICE):
        yield dumps(text[start:start + TEXT_SLICE])[1:-1]
    yield tail


def _game(result: GameResult) -> dict[str, Any]:
    return {
        "kind": "game",
        "game": result.number,
        "part": result.part,
        "start_line": result.start_line,
        "changed": result.changed,
        "rejected": result.rejected,
        "dropped": result.dropped,
        "text": result.text,
        "problems": result.report,
    }
