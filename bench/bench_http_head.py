"""The front end's HTTP work on one request, in process: the head scanner, the connection's
parser (``RequestReader``, llhttp through httptools) and ``AnswerWriter``, against h11 (the
pure-Python reader and writer the front end used before) on a connection reused from
request to request (the scanner still keeps the limits). The head and answer are a single
convert's, as bench_service sends and answers it; CPU time a request, best of ROUNDS taken
in turns. docs/architecture.md ("Fast paths and what they buy") quotes the figures.

    python bench/bench_http_head.py [--rounds 7] [--requests 5000]
"""

from __future__ import annotations

import argparse
import time

import h11

from notation_service.http_answer import AnswerWriter
from notation_service.http_head import HeadScanner
from notation_service.http_request import RequestReader

HEAD = (
    b"POST /v1/fen/convert HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
    b"Content-Length: 90\r\n\r\n"
)
BODY = b"x" * 90
ANSWER_HEADERS = [
    ("Content-Type", "application/json"),
    ("Content-Length", "300"),
    ("X-Request-ID", "0123456789abcdef0123456789abcdef"),
    ("Date", "Mon, 01 Jan 2024 00:00:00 GMT"),
]
ANSWER = b"y" * 300


def llhttp(reader: RequestReader) -> None:
    inbox = bytearray(HEAD + BODY)
    length = HeadScanner().scan(inbox)
    assert length is not None
    request = reader.read_head(bytes(inbox[:length]))
    del inbox[:length]
    while not reader.complete:
        reader.feed_body(bytes(inbox[:reader.body_piece(inbox)]))
    writer = AnswerWriter(request.method, request.http_version, request.close)
    writer.head(200, ANSWER_HEADERS) + writer.data(ANSWER) + writer.end()
    assert writer.reusable()


def h11_alone(connection: h11.Connection) -> None:
    inbox = bytearray(HEAD + BODY)
    length = HeadScanner().scan(inbox)
    assert length is not None
    connection.receive_data(bytes(inbox))
    while type(connection.next_event()) is not h11.EndOfMessage:
        pass
    encoded = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in ANSWER_HEADERS]
    connection.send(h11.Response(status_code=200, headers=encoded, reason=b"OK"))
    connection.send(h11.Data(data=ANSWER))
    connection.send(h11.EndOfMessage())
    connection.start_next_cycle()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--requests", type=int, default=5000)
    args = parser.parse_args(argv)
    connection = h11.Connection(h11.SERVER)
    reader = RequestReader()
    runs = {"llhttp": lambda: llhttp(reader), "h11 alone": lambda: h11_alone(connection)}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.rounds):
        for name, run in runs.items():
            began = time.process_time()
            for _ in range(args.requests):
                run()
            best[name] = min(best[name], (time.process_time() - began) / args.requests)
    ours, general = best["llhttp"] * 1e6, best["h11 alone"] * 1e6
    print("http head and answer (front end, one single convert, in process, CPU time)")
    print(f"  the front end (scanner, llhttp, AnswerWriter): {ours:6.1f} us a request")
    print(f"  h11 (scanner, h11 read and write):             {general:6.1f} us a request")
    print(f"  llhttp and the writer save {general - ours:.1f} us a request")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
