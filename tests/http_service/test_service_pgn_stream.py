"""POST /v1/pgn/normalize reads its body as a stream: the answer is byte for byte what the
old whole-body path gave (decode the whole body, normalise the whole text, one JSON line
per game), however the body falls across blocks, and the work stops when the server
closes the response."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from service_fixtures import FIXTURES, TEST_SETTINGS

from notation.pgn.normalize import BadGamePolicy, NormalizeOptions, Summary, normalize

from notation_service import create_app
from notation_service.bodies import SPOOL_IN_MEMORY, utf8_blocks
from notation_service.resources import pgn as pgn_resource
from notation_service.schemas import PgnGameLine, PgnSummaryLine

PGN_FILES = sorted((FIXTURES / "pgn").glob("*.pgn"))
BIG_LIMIT = 4 * 1024 * 1024
BLOCK = 1 << 18  # the bytes utf8_blocks reads at a time in the service
QUERIES = {
    "": NormalizeOptions.create(),
    "profile=lichess": NormalizeOptions.create("lichess"),
    "profile=xboard&pockets=rank-zero&on_bad=reject": NormalizeOptions.create(
        "xboard", pockets="rank-zero", on_bad=BadGamePolicy.REJECT
    ),
}


def whole_body_answer(body: bytes, options: NormalizeOptions) -> bytes:
    """The answer as the service gave it before it streamed: the whole body decoded at
    once, normalised as one text, each line ``json.dumps`` of the schema's dump."""
    text = body.decode("utf-8", "surrogateescape")
    summary = Summary()
    lines = []
    for result in normalize(text, options):
        summary.add(result)
        line = {
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
        lines.append(json.dumps(PgnGameLine().dump(line), ensure_ascii=True, separators=(",", ":")) + "\n")
    lines.append(
        json.dumps(PgnSummaryLine().dump({"kind": "summary", **summary.to_dict()}), separators=(",", ":")) + "\n"
    )
    return "".join(lines).encode("ascii")


@pytest.fixture(scope="module")
def big_client():
    application = create_app({**TEST_SETTINGS, "max_pgn_bytes": BIG_LIMIT})
    application.config["TESTING"] = True
    return application.test_client()


def post(client, body: bytes, query: str = ""):
    return client.post(
        "/v1/pgn/normalize" + (f"?{query}" if query else ""), data=body, content_type="application/x-chess-pgn"
    )


def _straddling(games: bytes) -> bytes:
    """Fixture games repeated past several service blocks, with a two-byte character, a
    four-byte character and bytes that are not UTF-8 astride each block boundary."""
    body = bytearray(games * (BLOCK * 5 // len(games)))
    tricky = [b"\xc3\xa9", b"\xf0\x9f\x98\x80", b"\xff\xfe", b"\xe2\x82", b"\xc3\xa9\x80"]
    for number, boundary in enumerate(range(BLOCK, len(body) - 8, BLOCK)):
        piece = tricky[number % len(tricky)]
        body[boundary - 1 : boundary - 1 + len(piece)] = piece
    return bytes(body)


def _long_game() -> bytes:
    """One game whose text is several JSON slices long, every kind of character in it."""
    comment = ('é€😀\t"\\ plain ' * 40_000).encode() + b"\xff\xc3(" * 5000
    return b'[Event "long"]\n[Variant "crazyhouse"]\n\n1. e4 {' + comment + b"} *\n"


ALL_GAMES = b"".join(path.read_bytes().rstrip(b"\n") + b"\n\n" for path in PGN_FILES)
CASES = {path.name: path.read_bytes() for path in PGN_FILES}
CASES["all fixtures, blocks cut inside characters"] = _straddling(ALL_GAMES)
CASES["one game of over half a million characters"] = _long_game()
CASES["not UTF-8 anywhere, no newline"] = bytes(range(0x80, 0x100)) * 4000
CASES["CRLF and lone CR"] = ALL_GAMES.replace(b"\n", b"\r\n")[: BLOCK + 7] + ALL_GAMES.replace(b"\n", b"\r")


@pytest.mark.slow
@pytest.mark.parametrize("query", QUERIES, ids=[q or "default" for q in QUERIES])
@pytest.mark.parametrize("name", CASES)
def test_streamed_answer_is_byte_identical_to_the_whole_body_answer(big_client, name, query):
    body = CASES[name]
    assert len(body) <= BIG_LIMIT
    response = post(big_client, body, query)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_data() == whole_body_answer(body, QUERIES[query])


def test_the_table_reaches_what_it_means_to():
    """The cases go past the in-memory spool, the read block and a JSON slice."""
    assert len(CASES["all fixtures, blocks cut inside characters"]) > max(SPOOL_IN_MEMORY, 4 * BLOCK)
    assert (
        len(CASES["one game of over half a million characters"].decode("utf-8", "surrogateescape"))
        > 8 * pgn_resource.TEXT_SLICE
    )


PIECES = [
    b"\xc3\xa9",
    b"\xe2\x82\xac",
    b"\xf0\x9f\x98\x80",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xf0\x9f",
    b"\x80",
    b"\xed\xa0\x80",
    b'[Event "x"]\n',
    b'[Variant "zh"]\n',
    b"\n",
    b"\r",
    b"\r\n",
    b"1. e4 {c} *\n",
    b"a",
    b"{",
    b"}",
]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(body=st.lists(st.sampled_from(PIECES), max_size=60).map(b"".join), size=st.integers(1, 17))
def test_blocks_cut_anywhere_decode_as_the_whole(body, size):
    blocks = list(utf8_blocks(io.BytesIO(body), size))
    assert all(0 < len(block) <= size + 3 for block in blocks)
    assert "".join(blocks) == body.decode("utf-8", "surrogateescape")
    options = QUERIES[""]
    streamed = [(r.number, r.part, r.text, r.report) for r in normalize(iter(blocks), options)]
    whole = [(r.number, r.part, r.text, r.report) for r in normalize(body.decode("utf-8", "surrogateescape"), options)]
    assert streamed == whole


@pytest.mark.slow
def test_closing_the_response_stops_the_work_and_closes_the_body(big_client, monkeypatch):
    pulled, closed, spooled = [], [], []
    real_normalize, real_spool = pgn_resource.normalize, pgn_resource.spool_body

    def watched_normalize(blocks, options):
        try:
            for result in real_normalize(blocks, options):
                pulled.append(result.number)
                yield result
        finally:
            closed.append(True)

    def watched_spool():
        spooled.append(real_spool())
        return spooled[-1]

    monkeypatch.setattr(pgn_resource, "normalize", watched_normalize)
    monkeypatch.setattr(pgn_resource, "spool_body", watched_spool)
    body = ALL_GAMES * (BIG_LIMIT // len(ALL_GAMES))
    games = len(list(normalize(body.decode("utf-8", "surrogateescape"))))
    response = big_client.post("/v1/pgn/normalize", data=body, content_type="text/plain", buffered=False)
    first = next(iter(response.response))
    assert first.startswith(b'{"kind":"game"')
    assert 0 < len(pulled) < games // 10 and not closed and not spooled[0].closed
    response.close()
    assert closed == [True] and spooled[0].closed
    assert len(pulled) < games // 10


def test_an_error_after_the_status_ends_the_stream_with_an_error_line(big_client, monkeypatch):
    def failing(blocks, options):
        yield from real(blocks, options)
        raise RuntimeError("boom")

    real = pgn_resource.normalize
    monkeypatch.setattr(pgn_resource, "normalize", failing)
    lines = post(big_client, ALL_GAMES).get_data().decode().splitlines()
    assert json.loads(lines[-1])["kind"] == "error"
    assert all(json.loads(line)["kind"] == "game" for line in lines[:-1])
    assert len(lines) - 1 == len(list(real(ALL_GAMES.decode("utf-8", "surrogateescape"), QUERIES[""])))
