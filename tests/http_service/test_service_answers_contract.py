"""Every operation of openapi.yaml answers, in success and in error, as the contract says:
a table of real requests, each answer checked by ``contract.check_answer`` (status, media
type, and the body against its schema as OpenAPI 3.0.3 reads it), and each operation's
500 answer. The other service tests check their answers too (``service_fixtures.client``);
this table makes sure no operation is left out."""

from __future__ import annotations

import gzip
import json
import socket

import pytest
from contract import CHECKED, ContractBroken, ContractClient, check_answer, spec
from service_fixtures import FIXTURES, TEST_SETTINGS, app, client  # noqa: F401  (pytest fixtures)

from notation_service import create_app

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ZH = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R/ w KQkq - 2 2"
JSON = {"Content-Type": "application/json"}
PGN = {"Content-Type": "application/x-chess-pgn"}
GAME_WITH_ALL = (
    '[Event "every member"]\n[Variant "Crazyhouse"]\n\n'
    "1. e4 { [%clk 0:02:55] } e5 (1... d5 2. exd5) 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Na5 "
    "6. d3 h6 7. Nf3 e4 8. dxe4 Nxc4 9. P@e2 Qxd5 10. Qxh7 *\n"
)
XIANGQI_GAME = (FIXTURES / "pgn" / "games" / "xiangqi.pgn").read_text(encoding="utf-8")
TAFL = '[Variant "Tablut"]\n\n1. e2-e3 *\n'

# (operationId, method, path, keyword arguments of the client's call, the status expected)
ANSWERS = [
    ("healthz", "GET", "/healthz", {}, 200),
    ("readyz", "GET", "/readyz", {}, 200),
    ("metrics", "GET", "/metrics", {}, 200),
    ("openapi", "GET", "/openapi.yaml", {}, 200),
    ("openapiJson", "GET", "/openapi.json", {}, 200),
    ("listVariants", "GET", "/v1/variants", {}, 200),
    ("startPosition", "GET", "/v1/start?variant=chess960&seed=7", {}, 200),
    ("startPosition", "GET", "/v1/start?variant=kingscorner&number=3", {}, 200),
    ("startPosition", "GET", "/v1/start?variant=chess960&number=960", {}, 422),
    ("startPosition", "GET", "/v1/start?variant=nope", {}, 422),
    ("convertFen", "POST", "/v1/fen/convert", {"json": {"fen": ZH, "variant": "crazyhouse"}}, 200),
    ("convertFen", "POST", "/v1/fen/convert", {"json": {"fen": START[:-3], "variant": "auto"}}, 200),
    ("convertFen", "POST", "/v1/fen/convert", {"json": {"fen": "rnbqkbnr/8 w - - 0 1"}}, 422),
    ("convertFen", "POST", "/v1/fen/convert", {"json": {"fen": START, "variant": "nope"}}, 422),
    ("convertFen", "POST", "/v1/fen/convert", {"json": {"fen": START, "colour": "w"}}, 422),
    ("convertFen", "POST", "/v1/fen/convert", {"data": b"{", "headers": JSON}, 400),
    ("convertFen", "POST", "/v1/fen/convert", {"data": b"{}", "headers": {"Content-Type": "text/plain"}}, 415),
    (
        "convertFen",
        "POST",
        "/v1/fen/convert",
        {"data": b" " * (TEST_SETTINGS["max_body_bytes"] + 1), "headers": JSON},
        413,
    ),
    ("validateFen", "POST", "/v1/fen/validate", {"json": {"fen": START}}, 200),
    ("validateFen", "POST", "/v1/fen/validate", {"json": {"fen": "8/8 w - -", "variant": "nope"}}, 200),
    ("validateFen", "POST", "/v1/fen/validate", {"json": {"fen": 3}}, 422),
    (
        "validateFen",
        "POST",
        "/v1/fen/validate",
        {"data": gzip.compress(b"{")[:-4], "headers": {**JSON, "Content-Encoding": "gzip"}},
        400,
    ),
    ("viewFen", "POST", "/v1/fen/view", {"json": {"fen": START, "side": "white"}}, 200),
    ("viewFen", "POST", "/v1/fen/view", {"json": {"fen": "x", "side": "black"}}, 200),
    ("viewFen", "POST", "/v1/fen/view", {"json": {"fen": START}}, 422),
    (
        "batchFen",
        "POST",
        "/v1/fen/batch",
        {"json": {"operation": "convert", "items": [START, {"fen": ZH, "variant": "zh"}, "x"]}},
        200,
    ),
    ("batchFen", "POST", "/v1/fen/batch", {"json": {"operation": "validate", "items": [START, "x"]}}, 200),
    ("batchFen", "POST", "/v1/fen/batch", {"json": {"operation": "convert", "items": []}}, 422),
    ("listMoves", "POST", "/v1/moves", {"json": {"fen": ZH, "variant": "crazyhouse", "squares": True}}, 200),
    ("listMoves", "POST", "/v1/moves", {"json": {"variant": "xiangqi", "notation": "iccs"}}, 200),
    ("listMoves", "POST", "/v1/moves", {"json": {"fen": "x"}}, 422),
    ("listMoves", "POST", "/v1/moves", {"json": {"notation": "wxf"}}, 422),
    ("playMoves", "POST", "/v1/play", {"json": {"moves": ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]}}, 200),
    ("playMoves", "POST", "/v1/play", {"json": {"moves": ["e4", "e4"]}}, 422),
    ("playMoves", "POST", "/v1/play", {"json": {"moves": "e4"}}, 422),
    (
        "normalizePgn",
        "POST",
        "/v1/pgn/normalize?moves=check",
        {"data": GAME_WITH_ALL + "\n1. e4 e4 *\n", "headers": PGN},
        200,
    ),
    ("normalizePgn", "POST", "/v1/pgn/normalize?moves=san&on_bad=reject", {"data": XIANGQI_GAME, "headers": PGN}, 200),
    ("normalizePgn", "POST", "/v1/pgn/normalize?moves=sideways", {"data": "*\n", "headers": PGN}, 422),
    ("normalizePgn", "POST", "/v1/pgn/normalize", {"data": "*\n", "headers": JSON}, 415),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": GAME_WITH_ALL}}, 200),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": "1. e4 e5 2. Ke3 Nf6 *"}}, 200),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": '[Variant "nope"]\n\n1. e4 *'}}, 200),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": XIANGQI_GAME}}, 200),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": TAFL}}, 200),
    ("pgnGame", "POST", "/v1/pgn/game", {"json": {"pgn": " "}}, 422),
    ("pgnGame", "POST", "/v1/pgn/game", {"data": b"\xff", "headers": JSON}, 400),
    ("boardSvg", "GET", f"/v1/board.svg?fen={START}&last_move=e2e4&arrows=g1f3", {}, 200),
    ("boardSvg", "GET", "/v1/board.svg?fen=x", {}, 422),
    ("boardSvg", "GET", "/v1/board.svg", {}, 422),
    ("gameBoardSvg", "POST", "/v1/board.svg", {"json": {"pgn": GAME_WITH_ALL, "ply": 3, "size": 200}}, 200),
    ("gameBoardSvg", "POST", "/v1/board.svg", {"json": {"pgn": "1. e4 e5 2. Ke3 *"}}, 422),
    ("gameBoardSvg", "POST", "/v1/board.svg", {"json": {"pgn": "1. e4 *", "ply": 9}}, 422),
    ("gameBoardSvg", "POST", "/v1/board.svg", {"json": {"pgn": '[Variant "nope"]\n\n1. e4 *'}}, 422),
    ("page", "GET", "/", {}, 200),
    ("pageAsset", "GET", "/page/page.js", {}, 200),
    ("pageAsset", "GET", "/page/page.css", {}, 200),
    ("pageAsset", "GET", "/page/nothing.js", {}, 404),
    ("docs", "GET", "/docs", {}, 200),
    ("docsAsset", "GET", "/docs/swagger-ui.css", {}, 200),
    ("docsAsset", "GET", "/docs/LICENSE", {}, 200),
    ("docsAsset", "GET", "/docs/nothing.js", {}, 404),
]


def operation_ids() -> list[str]:
    return [op["operationId"] for item in spec()["paths"].values() for op in item.values() if "operationId" in op]


@pytest.mark.parametrize(("operation_id", "method", "path", "call", "status"), ANSWERS, ids=lambda x: str(x)[:40])
def test_answer_keeps_the_contract(client, operation_id, method, path, call, status):
    response = client.open(path, method=method, **call)  # the client checks it against the contract
    assert response.status_code == status, response.get_data(as_text=True)[:2000]
    assert operation_id in CHECKED and status in CHECKED[operation_id]


def test_every_operation_has_a_success_and_an_error_answer_in_the_table():
    statuses: dict[str, set[int]] = {}
    for operation_id, *_, status in ANSWERS:
        statuses.setdefault(operation_id, set()).add(status)
    assert sorted(statuses) == sorted(operation_ids())
    assert len(statuses) == 21
    # Errors the app itself can give; the others' are the server's (408, 503, 504) and 500.
    parameterless = {"healthz", "readyz", "metrics", "openapi", "openapiJson", "listVariants", "page", "docs"}
    for operation_id, seen in statuses.items():
        assert any(200 <= status < 300 for status in seen), operation_id
        if operation_id not in parameterless:
            assert any(status >= 400 for status in seen), operation_id


def test_board_svg_not_modified_keeps_the_contract(client):
    first = client.get(f"/v1/board.svg?fen={START}")
    again = client.get(f"/v1/board.svg?fen={START}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and 304 in CHECKED["boardSvg"]


def test_metrics_off_answers_404_as_the_contract_says():
    application = create_app({**TEST_SETTINGS, "metrics": "off"})
    application.test_client_class = ContractClient
    response = application.test_client().get("/metrics")
    assert response.status_code == 404 and 404 in CHECKED["metrics"]


@pytest.mark.parametrize("operation_id", sorted(set(operation_ids())))
def test_a_failure_of_the_service_answers_500_as_the_contract_says(app, operation_id):
    # Every operation documents 500 (a failure of the service itself, never caused by input).
    method, path, call = next((m, p, c) for o, m, p, c, s in ANSWERS if o == operation_id and s < 300)
    app.config["TESTING"] = False
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def fail(*_args, **_kwargs):
        raise RuntimeError("a bug")

    for endpoint in list(app.view_functions):
        if endpoint != "static":
            app.view_functions[endpoint] = fail
    response = app.test_client().open(path, method=method, **call)
    assert response.status_code == 500 and 500 in CHECKED[operation_id], response.get_data(as_text=True)


def test_the_checker_refuses_what_the_contract_does_not_allow():
    # A null problem beside allOf, as the contract once had it, is what this catches.
    with pytest.raises(ContractBroken, match="not documented"):
        check_answer("POST", "/v1/pgn/game", 201, "application/json", b"{}")
    with pytest.raises(ContractBroken, match="media type"):
        check_answer("GET", "/healthz", 200, "text/html", b"")
    with pytest.raises(ContractBroken, match=r"plies/0/problem"):
        ply = {
            "ply": 1,
            "number": 1,
            "color": "w",
            "move": "e4",
            "line": 1,
            "column": 1,
            "san": "e4",
            "uci": "e2e4",
            "fen": START,
            "last_move": "e2e4",
            "squares": None,
            "check": [],
            "warnings": [],
            "problem": 3,
            "variations": [],
        }
        body = {
            "game": 1,
            "start_line": 1,
            "more_games": False,
            "tags": [],
            "variant": "standard",
            "variant_name": "Standard",
            "initial_fen": START,
            "plies": [ply],
            "result": None,
            "outcome": None,
            "ok": True,
            "problems": [],
        }
        check_answer("POST", "/v1/pgn/game", 200, "application/json", json.dumps(body).encode())


# --- the answers of a live `notation serve`: the front end's own errors too ------------------


def raw_answer(port: int, data: bytes) -> tuple[int, str, bytes]:
    """(status, media type, body) of the one answer to ``data``, read until the server closes."""
    from test_service_front import WAIT, read_to_close

    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as sock:
        sock.sendall(data)
        answer = read_to_close(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        body = dechunk(body)
    return int(lines[0].split()[1]), headers.get("content-type", "").split(";")[0], body


def dechunk(data: bytes) -> bytes:
    out = b""
    while True:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            return out
        out, data = out + data[:size], data[size + 2 :]


@pytest.mark.slow
@pytest.mark.live_server
def test_a_live_server_answers_as_the_contract_says():
    from test_service_front import giant_game, served

    for running in served(1, tracebacks=True, NOTATION_TIMEOUT="1", NOTATION_BODY_TIMEOUT="1",
                          NOTATION_MAX_PGN_BYTES=str(64 * 1024 * 1024)):
        port = running.port
        pgn = giant_game(15)
        cases = [
            # (method, path, request bytes, the status expected)
            ("POST", "/v1/pgn/normalize",
             b"POST /v1/pgn/normalize?moves=check HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
             b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(GAME_WITH_ALL) + GAME_WITH_ALL.encode(), 200),
            ("POST", "/v1/pgn/game",
             b'POST /v1/pgn/game HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n'
             b'Content-Length: 16\r\n\r\n{"pgn": "1. e4"}', 200),
            ("GET", "/healthz", b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200),
            ("GET", "/metrics", b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 200),
            # The front end's own: a body that does not arrive (408), one past the limit (413),
            # work past NOTATION_TIMEOUT (504).
            ("POST", "/v1/fen/convert",
             b"POST /v1/fen/convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 100\r\n\r\n{", 408),
            ("POST", "/v1/pgn/game",
             b"POST /v1/pgn/game HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
             b"Content-Length: 99999999\r\n\r\n", 413),
            ("POST", "/v1/pgn/normalize",
             b"POST /v1/pgn/normalize HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
             b"Content-Length: %d\r\n\r\n" % len(pgn) + pgn, 504),
        ]
        for method, path, data, expected in cases:
            status, media_type, body = raw_answer(port, data)
            assert status == expected, (path, status, body[:500])
            check_answer(method, path, status, media_type, body)
