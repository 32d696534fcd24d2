"""What each fast path buys its whole command: the command's cost with the fast path, and
without it (its general path taking every input), measured in one run on the installed
build (compiled where it was built so: the first line says which).

A fast path cannot be switched off in the product without editing it, so each is measured
by parts: the whole command as users run it (``with``), and, in a process of its own, the
fast path's part and the general path's part on the command's own inputs; ``without`` is
``with - fast + general``. A part is counted as what its path costs beyond what both share:

- FEN reader (``notation convert --json`` and ``validate --json`` on bench_pipeline's mixed
  lines, bench/mixed_workload.py; and a single ``POST /v1/fen/convert``): fast, the field
  split (``reader._plain_fields``/``_extended_fields``) and the regex (``fen_pattern``)
  where the split declines, on every line; general, the pyparsing grammar
  (``fen_grammar(groups).parse_string``) on every line the fast path reads (the lines it
  refuses go through the grammar either way, which is shared);
- on the same lines, the FEN reader's other pairs and their neighbours: the fields by
  ``str.split`` beside the regex alone (``fen-fields``), a FEN cut short explained without
  the grammar beside the grammar (``fen-errors``), the 8x8 placement's C-speed reading beside
  the character reader (``placement``), the usual JSON line read and its answer written
  without a JSON library beside the library's path (``plain-json``), and, on the same lines
  with every ``/`` escaped (as PHP writes them: no line is plain), orjson beside the
  standard library's ``json`` (``json``);
- PGN splitter (``notation check`` on bench_movetext's database): fast, ``iter_games``;
  general, ``state_machine.iter_games_slow``; each game's text, problems and the tags check
  looks for (``find_tags``) read as ``check_game`` reads them (a fast game's tags are read
  on demand);
- SAN reader (``notation check`` and ``normalize --moves san`` on the same database): every
  move of every game (main lines and variations, from the positions the walk plays) read
  by ``read_move`` (the plain reader first, the full one where it declines: fast) or by the
  full reader alone (``_Reader(...).read()``: general);
- SAN writer (``normalize --moves san``): a move read as plain SAN kept as written
  (``MoveWriter.move_text``) beside ``write_move`` on every move (``san-write``);
- the worker's answer past Flask (``POST /v1/fen/convert``, bench_service's body): a worker
  (``wsgi_worker.Worker``) serving single converts from a channel in process, with
  ``FastPath`` (fast) and without (general: the Flask app through WSGI); the whole request
  is a live ``notation serve --workers 1`` answering them from keep-alive sockets (CPU of
  the serving layer and the worker, from /proc, as bench_service reads it).

Two measures of each: instructions counted by valgrind's callgrind (bench_instructions:
the same count whatever else the machine runs; a part is the count of a process running
it less that of the same process stopping before it; ``PYTHONHASHSEED`` fixed), and CPU
time (best of REPEATS; a part is timed around its loop, one pass a process: caches on
positions start cold, as in the command). A live server cannot run under callgrind here,
so the service's whole request is CPU time only; its parts are counted both ways.
``share`` is what the fast path saves, as a part of the command's cost without it:
``(without - with) / without``. A pair that buys under 10% goes (docs/architecture.md,
"Fast paths and what they buy").

    python bench/bench_fast_paths.py [--lines 5000] [--games 2000] [--requests 2000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


LINES = 5_000
GAMES = 2_000
REQUESTS = 2_000
REPEATS = 3
THRESHOLD = 0.10  # a fast path buying less than this share of its command goes
_ENV = {"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}


# -- the parts, each run in a process of its own (``--part NAME MODE FILE``) ------------------


def _fen_inputs(path: Path) -> list[tuple[str, Any]]:
    from notation.variants import DEFAULT_REGISTRY

    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        found.append((item["fen"], DEFAULT_REGISTRY.find(item.get("variant", "standard"))))
    return found


def _fen_fields(text: str, pockets: bool, checks: bool, pattern: Any) -> Any:
    """The fields of ``text`` as the reader's fast path finds them: by ``str.split``
    (``_plain_fields``, ``_extended_fields``), else by the regex; None where neither does
    (the grammar then explains why)."""
    from notation.fen import reader

    fields: Any = reader._extended_fields(text, pockets, checks) if pockets or checks else reader._plain_fields(text)
    if fields is None:
        match = None if reader._surely_cut_short(text) else pattern.fullmatch(text)
        if match is not None:
            fields = match.groupdict() if pockets or checks else match.groups()
    return fields


def _fen_plans(path: Path) -> list[tuple[str, Any, bool, bool, Any, frozenset[str], bool]]:
    """Per line of ``path``: text, variant, pockets, checks, pattern, grammar groups, and
    whether the fast path finds its fields."""
    from notation.fen import grammar, reader

    plans = []
    for text, variant in _fen_inputs(path):
        pockets, checks = variant.has_pockets, variant.has_check_counters
        pattern = reader.pattern_for(pockets, checks)
        found = not re.search(reader._CONTROL, text) and _fen_fields(text, pockets, checks, pattern) is not None
        plans.append((text, variant, pockets, checks, pattern, reader._GROUPS[pockets, checks], found))
    for groups in reader._GROUPS.values():  # pyparsing imported and the grammars built before the count
        grammar.fen_grammar(groups)
    return plans


def _fen_part(path: Path) -> dict[str, Callable[[], object]]:
    """The FEN reader's two paths to a line's fields over the lines of ``path`` (JSON lines
    of fen, variant): the fast path (split, then regex) on every line; the grammar on every
    line the fast path reads (the others go to the grammar either way)."""
    from notation.fen import grammar

    plans = _fen_plans(path)

    def fast() -> object:
        return sum(_fen_fields(text, pockets, checks, pattern) is not None
                   for text, _, pockets, checks, pattern, _, _ in plans)

    def general() -> object:
        return sum(len(grammar.fen_grammar(groups).parse_string(text).as_dict())
                   for text, _, _, _, _, groups, found in plans if found)

    return {"fast": fast, "general": general}


def _fen_fields_part(path: Path) -> dict[str, Callable[[], object]]:
    """Inside the FEN reader's fast path: the fields found by ``str.split`` first, the regex
    where it declines (fast), or by the regex alone (general), on every line."""
    from notation.fen import reader

    plans = _fen_plans(path)

    def pattern_only() -> object:
        kept = 0
        for text, _, pockets, checks, pattern, _, _ in plans:
            match = None if reader._surely_cut_short(text) else pattern.fullmatch(text)
            if match is not None:
                kept += len(match.groupdict() if pockets or checks else match.groups())
        return kept

    def split_first() -> object:
        return sum(_fen_fields(text, pockets, checks, pattern) is not None
                   for text, _, pockets, checks, pattern, _, _ in plans)

    return {"fast": split_first, "general": pattern_only}


def _fen_errors_part(path: Path) -> dict[str, Callable[[], object]]:
    """The reader's error path on the lines of ``path`` whose fields it cannot find: a FEN
    cut short explained without the grammar (``_missing_field_error``; the grammar for
    the rest: fast), or every such line explained by the grammar (general)."""
    from notation.errors import FenSyntaxError
    from notation.fen import reader
    from notation.variants import DEFAULT_REGISTRY

    failing = [(text, variant, groups) for text, variant, _, _, _, groups, found in _fen_plans(path)
               if not found and text.strip() and not re.search(reader._CONTROL, text)]
    quick = []
    def explained(explaining: Callable[[str, frozenset[str], Any], FenSyntaxError | None], text: str,
                  groups: frozenset[str], variant: Any) -> bool:
        """Whether ``explaining`` finds the text's error (returned, or raised for a field
        before the last one wrong on its own)."""
        try:
            return explaining(text, groups, variant) is not None
        except FenSyntaxError:
            return True

    quick = [(text, variant, groups) for text, variant, groups in failing
             if explained(reader._missing_field_error, text, groups, variant)]

    def explain(explaining: Callable[[str, frozenset[str], Any], FenSyntaxError | None], lines: list[Any]) -> int:
        return sum(explained(explaining, text, groups, variant) for text, variant, groups in lines)

    def fast() -> object:
        return explain(reader._missing_field_error, failing)

    def general() -> object:
        return explain(lambda text, groups, variant: reader._grammar_parse_error(text, groups, variant,
                                                                                 DEFAULT_REGISTRY), quick)

    return {"fast": fast, "general": general}


def _placement_part(path: Path) -> dict[str, Callable[[], object]]:
    """The placement of every line of ``path`` whose fields the reader finds, read by
    ``_Reader.read_placement`` (the 8x8 board's C-speed ways, the character reader where
    they decline: fast) or by ``read_placement_slowly`` alone (general)."""
    from notation.errors import FenSyntaxError
    from notation.fen import reader

    readers = []
    for text, variant, _, _, pattern, _, found in _fen_plans(path):
        match = pattern.fullmatch(text) if found else None
        if match is not None:
            readers.append((reader._Reader(text, match, variant), match.group("placement")))

    def read(slowly: bool) -> object:
        count = 0
        for placement_reader, placement in readers:
            # A placement's error is returned, for the field reader to raise.
            found = (placement_reader.read_placement_slowly(placement) if slowly
                     else placement_reader.read_placement(placement))
            count += 1 if isinstance(found, FenSyntaxError) else len(found[0])
        return count

    return {"fast": lambda: read(False), "general": lambda: read(True)}


def _json_part(path: Path) -> dict[str, Callable[[], object]]:
    """Each line of ``path`` read from JSON as ``convert --json`` reads a line the plain
    path leaves to the JSON library (the file is the mixed lines as PHP's ``json_encode``
    writes them, every ``/`` escaped: no line is plain), by orjson
    (``json_codec.line_functions``: fast) or by the standard library's ``json``
    (``json_codec.loads`` where orjson is missing: general); their answers are plain, so
    the plain path writes them either way."""
    from notation import json_codec

    raw = path.read_bytes().splitlines()
    functions = json_codec.line_functions()
    assert functions is not None, "orjson is not installed: nothing to compare"
    json_codec.loads(raw[0])  # orjson's, and (below) the standard library's json, imported before the count
    saved, json_codec.orjson = json_codec.orjson, None  # type: ignore[attr-defined]
    json_codec.loads(raw[0])
    json_codec.orjson = saved  # type: ignore[attr-defined]

    def fast() -> object:
        loads = functions.loads
        return sum(len(loads(line)) for line in raw)

    def general() -> object:
        json_codec.orjson = None  # type: ignore[attr-defined]  # as on a platform without orjson
        return sum(len(json_codec.loads(line)) for line in raw)

    return {"fast": fast, "general": general}


def _plain_json_part(path: Path) -> dict[str, Callable[[], object]]:
    """Each line of ``path`` read and its ``convert --json`` answer written as the command
    does: by the plain path (``plain_json.read_fen_object``, ``answer_line``: fast), or by
    the JSON library's (``notation.cli.jsonl``'s line codec, a new one: the standard
    library's ``json`` for the first lines, then orjson, imported within the count, as a
    command pays for it: general; this process has imported ``json`` already, so its
    import, about a millisecond, is left out). Both make each line's ``FenInput``."""
    from notation.cli import plain_json
    from notation.cli.answers import located
    from notation.cli.input_lines import FenInput, _json_object_input
    from notation.cli.jsonl import LineCodec
    from notation.operations import convert_fen

    raw = path.read_bytes().splitlines(keepends=True)
    found = [plain_json.read_fen_object(line) for line in raw]
    assert all(item is not None for item in found), "a line of the mix is not plain"
    results = [convert_fen(fen, variant or "standard") for fen, variant in found]  # type: ignore[misc]
    assert "orjson" not in sys.modules, "orjson was imported before the count"

    def fast() -> object:
        size = 0
        for number, line in enumerate(raw, start=1):
            fen, variant = plain_json.read_fen_object(line)  # type: ignore[misc]
            item = FenInput(fen, "standard" if variant is None else variant, number)
            size += len(plain_json.answer_line(results[number - 1], item.line, item.source) or "")
        return size

    def general() -> object:
        codec = LineCodec()
        size = 0
        for number, line in enumerate(raw, start=1):
            item = _json_object_input(codec.load().loads(line), "standard", number)
            functions = codec.load()
            size += len(functions.dumps(located(item, results[number - 1].to_dict()), None, functions.newline).decode())
        return size

    return {"fast": fast, "general": general}


def _games_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _splitter_part(path: Path) -> dict[str, Callable[[], object]]:
    """The splitter's two paths over the database at ``path``, each game read as check reads it."""
    from notation.check.games import _WANTED_TAGS
    from notation.pgn.splitter import iter_games
    from notation.pgn.state_machine import iter_games_slow

    text = _games_text(path)

    def consume(games: Any) -> object:
        count = 0
        for game in games:
            count += len(game.read_text) + len(game.problems) + len(list(game.find_tags(_WANTED_TAGS)))
        return count

    return {"fast": lambda: consume(iter_games(text)), "general": lambda: consume(iter_games_slow(text))}


class _Collect:
    """A movewalk visitor keeping each move's position before it and its word."""

    def __init__(self, moves: list[tuple[Any, str]]) -> None:
        self.moves = moves

    def played(self, offset: int, word: str, read: Any, before: Any, after: Any, ply: int) -> None:
        self.moves.append((before, word))

    def failed(self, offset: int) -> None:
        pass

    def marked(self, warning: Any) -> None:
        pass

    def opened(self) -> None:
        pass

    def closed(self) -> None:
        pass


def _walk_database(path: Path, visitor: Any) -> None:
    """Every chess game of the database at ``path`` walked as ``check`` walks it, ``visitor`` told of each move."""
    from notation.check.games import _WANTED_TAGS
    from notation.errors import NotationError
    from notation.pgn.gamemoves import read_game_moves
    from notation.pgn.gamestart import StartPositions
    from notation.pgn.splitter import iter_games
    from notation.variants import DEFAULT_REGISTRY, RuleFamily

    starts = StartPositions(DEFAULT_REGISTRY)
    for game in iter_games(_games_text(path)):
        tags = {tag.name: tag.value for tag in game.find_tags(_WANTED_TAGS)}
        try:
            variant = DEFAULT_REGISTRY.find(tags.get("Variant", "standard"))
        except NotationError:
            continue
        start = starts.start(variant, tags.get("FEN"))
        if start.position is not None and variant.family is RuleFamily.CHESS:
            read_game_moves(game.read_text, game.start_line, start, visitor=visitor)


def _san_part(path: Path) -> dict[str, Callable[[], object]]:
    """The SAN readers over every chess move of the database at ``path``, each read once
    from a position the walk played (what a move's reading computes and keeps on its
    position is computed afresh, as in the command)."""
    from notation.errors import MoveError
    from notation.move_options import MoveNotation
    from notation.moves.chess import _Reader, read_move

    moves: list[tuple[Any, str]] = []
    _walk_database(path, _Collect(moves))
    san = MoveNotation.SAN

    def fast() -> object:
        count = 0
        for position, word in moves:
            try:
                count += len(read_move(position, word, san).warnings)
            except MoveError:
                count += 1
        return count

    def general() -> object:
        count = 0
        for position, word in moves:
            try:
                count += len(_Reader(position, word, san).read().warnings)
            except MoveError:
                count += 1
        return count

    return {"fast": fast, "general": general}


class _CollectRead(_Collect):
    """A movewalk visitor keeping each move's position before it, its word and its reading."""

    def played(self, offset: int, word: str, read: Any, before: Any, after: Any, ply: int) -> None:
        self.moves.append((before, word, read))


def _san_write_part(path: Path) -> dict[str, Callable[[], object]]:
    """``normalize --moves san``'s writing of every chess move of the database at ``path``:
    a move read as plain SAN kept as written (``MoveWriter.move_text``: fast) or every move
    written again (``write_move``: general)."""
    from notation.move_options import MoveNotation
    from notation.moves.chess import write_move
    from notation.pgn.movewrite import writer_for

    moves: list[Any] = []
    _walk_database(path, _CollectRead(moves))
    san = MoveNotation.SAN
    writer = writer_for(san, "")

    def fast() -> object:
        return sum(len(writer.move_text(position, read, word, True)) for position, word, read in moves)

    def general() -> object:
        return sum(len(write_move(position, read.move, san, pawn_drop=writer.pawn_drop)) for position, _, read in moves)

    return {"fast": fast, "general": general}


def convert_body() -> bytes:
    """bench_service's single convert: a standard FEN of its corpus, the lichess profile."""
    from bench_service import corpus

    return json.dumps({"fen": corpus(1)[0], "variant": "standard", "profile": "lichess"}).encode()


class _Channel:
    """A worker's channel in process: ``count`` convert requests, then the end."""

    def __init__(self, head: bytes, body: bytes, count: int) -> None:
        from notation_service import wire

        self.frames = [(wire.REQUEST, head), (wire.BODY, body)] * count
        self.frames.reverse()
        self.wire = wire
        self.sent = 0

    def receive(self) -> tuple[int, bytes] | None:
        return self.frames.pop() if self.frames else None

    def send_raw(self, frames: bytes) -> None:
        self.sent += len(frames)

    def send(self, kind: int, payload: bytes = b"") -> None:
        self.sent += len(self.wire.frame(kind, payload))

    def send_json(self, kind: int, value: object) -> None:
        self.sent += len(self.wire.json_frame(kind, value))

    def cancel_requested(self) -> bool:
        return False


def _worker_part(path: Path) -> dict[str, Callable[[], object]]:
    """A worker answering ``path``'s count of single converts, past Flask or through it."""
    from notation_service import create_app
    from notation_service.config import Settings
    from notation_service.wsgi_worker import FastPath, Worker, tune_collector

    count = int(path.read_text())
    body = convert_body()
    head = json.dumps({
        "method": "POST", "target": "/v1/fen/convert", "version": "1.1",
        "headers": [["Host", "127.0.0.1:8080"], ["Content-Type", "application/json"],
                    ["Content-Length", str(len(body))]],
        "client": ["127.0.0.1", 5000], "server": ["127.0.0.1", 8080], "body": {"length": len(body), "file": None},
    }).encode()
    app = create_app(Settings(log_level="warning"))
    fast_path = FastPath(app)
    for fast in (fast_path, None):  # each path answered once before the count (first-use imports)
        Worker(app, _Channel(head, body, 1), fast).serve_forever()  # type: ignore[arg-type]
    tune_collector()

    def serve(fast: Any) -> object:
        channel = _Channel(head, body, count)
        Worker(app, channel, fast).serve_forever()  # type: ignore[arg-type]
        return channel.sent

    return {"fast": lambda: serve(fast_path), "general": lambda: serve(None)}


def _service_fen_part(path: Path) -> dict[str, Callable[[], object]]:
    """The FEN reader's two paths on bench_service's convert body, ``path``'s count of times."""
    count = int(path.read_text())
    fen = json.loads(convert_body())["fen"]
    lines = Path(tempfile.mkdtemp()) / "lines.jsonl"
    lines.write_text("\n".join([json.dumps({"fen": fen, "variant": "standard"})] * count) + "\n", encoding="utf-8")
    return _fen_part(lines)


PARTS: dict[str, Callable[[Path], dict[str, Callable[[], object]]]] = {
    "fen": _fen_part, "fen-fields": _fen_fields_part, "fen-errors": _fen_errors_part,
    "placement": _placement_part, "json": _json_part, "plain-json": _plain_json_part,
    "splitter": _splitter_part, "san": _san_part, "san-write": _san_write_part, "worker": _worker_part,
    "service-fen": _service_fen_part,
}


def run_part(name: str, mode: str, path: Path) -> None:
    """Prepare part ``name`` on ``path``, then run ``mode`` (fast, general; none: stop
    there) once; prints the CPU seconds of that run."""
    paths = PARTS[name](path)
    gc.collect()
    gc.freeze()  # what was prepared lives on: the collector walks it no more (as the CLI freezes its start-up)
    if mode == "none":
        print(0.0)
        return
    started = time.process_time()
    paths[mode]()
    print(time.process_time() - started)


# -- the measurements ------------------------------------------------------------------------


def _build() -> str:
    probe = "import notation.pgn.splitter as m; print('compiled' if m.__file__.endswith(('.so', '.pyd')) else 'pure')"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd="/")
    return done.stdout.strip() or "unknown"


def _part_argv(name: str, mode: str, path: Path) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--part", name, mode, str(path)]


def _part_seconds(name: str, path: Path, repeats: int) -> dict[str, float]:
    """The least CPU seconds of each path's loop over ``repeats`` processes, in turns."""
    best = {"fast": float("inf"), "general": float("inf")}
    for _ in range(repeats):
        for mode in best:
            done = subprocess.run(_part_argv(name, mode, path), capture_output=True, text=True, cwd="/",
                                  env=dict(os.environ, **_ENV), check=True)
            best[mode] = min(best[mode], float(done.stdout.split()[-1]))
    return best


def _part_instructions(name: str, path: Path) -> dict[str, int]:
    """Instructions of each path: a process running it less the same process stopping before it."""
    from bench_instructions import instructions

    counted = {mode: instructions(_part_argv(name, mode, path), Path(os.devnull))
               for mode in ("none", "fast", "general")}
    return {mode: counted[mode] - counted["none"] for mode in ("fast", "general")}


def _whole_seconds(argv: list[str], stdin: Path, repeats: int) -> float:
    # Imported here, not at the top: it imports python-chess, and with it dataclasses and
    # inspect, which a part's process must not have (orjson's import brings them to a command).
    from common import timed_process

    best = float("inf")
    for _ in range(repeats):
        _, cpu, status, errors = timed_process(argv, stdin)
        if status not in (0, 1):
            raise SystemExit(f"bench_fast_paths: {' '.join(argv)} failed ({status}): {errors.decode()[-500:]}")
        best = min(best, cpu)
    return best


def _line(command: str, unit: str, whole: float, fast: float, general: float) -> str:
    without = whole - fast + general
    share = (without - whole) / without
    verdict = "keep" if share >= THRESHOLD else "under 10%: goes"
    return (f"    {command:34} {unit:12} with {whole:12,.3f}  without {without:12,.3f}  "
            f"(fast part {fast:10,.3f}, general part {general:10,.3f})  without/with {without / whole:5.2f}x  "
            f"share bought {share:6.1%}  {verdict}")


_WHOLE: dict[str, tuple[float, int | None]] = {}  # command -> (CPU seconds, instructions): each measured once


def _whole(argv: list[str], stdin: Path, repeats: int, counting: bool) -> tuple[float, int | None]:
    key = " ".join(argv) + " < " + str(stdin)
    if key not in _WHOLE:
        from bench_instructions import instructions

        seconds = _whole_seconds(argv, stdin, repeats)
        _WHOLE[key] = (seconds, instructions(argv, stdin) if counting else None)
    return _WHOLE[key]


def _report(title: str, commands: list[tuple[str, list[str], Path]], part: str, part_path: Path, repeats: int,
            counting: bool) -> None:
    """One pair: each command's whole cost with the fast path and without it."""
    print(f"  {title}")
    seconds = _part_seconds(part, part_path, repeats)
    counts = _part_instructions(part, part_path) if counting else None
    for name, argv, stdin in commands:
        whole_seconds, whole_count = _whole(argv, stdin, repeats, counting)
        print(_line(name, "CPU s", whole_seconds, seconds["fast"], seconds["general"]))
        if counts is not None and whole_count is not None:
            print(_line(name, "instr (M)", whole_count / 1e6, counts["fast"] / 1e6, counts["general"] / 1e6))


def _live_request_seconds(requests: int) -> tuple[float, float]:
    """CPU seconds a single convert costs a live ``notation serve --workers 1``: (serving
    layer, worker), as bench_service reads them from /proc."""
    from bench_service import raw_load, start_server
    from processes import cpu_seconds, free_port, split_processes, stop_server

    body = convert_body()
    port = free_port()
    request = (f"POST /v1/fen/convert HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode("ascii") + body
    process = start_server(port, 1)
    try:
        raw_load(port, request, 4, 30, 200)  # warm up
        serving, workers = split_processes(process.pid)
        before = (sum(map(cpu_seconds, serving)), sum(map(cpu_seconds, workers)))
        latencies, _, failed = raw_load(port, request, 4, 60, requests)
        after = (sum(map(cpu_seconds, serving)), sum(map(cpu_seconds, workers)))
    finally:
        stop_server(process)
    if failed or not latencies:
        raise SystemExit(f"bench_fast_paths: {failed} of {len(latencies)} converts were not answered 200")
    return (after[0] - before[0]) / len(latencies), (after[1] - before[1]) / len(latencies)


def _service(requests: int, repeats: int, counting: bool, directory: Path) -> None:
    """The worker's answer past Flask, and the FEN reader, against a live single convert."""
    count_path = directory / "requests.txt"
    count_path.write_text(str(requests))
    serving, worker = _live_request_seconds(requests)
    whole = serving + worker
    print(f"  a live POST /v1/fen/convert (notation serve --workers 1, {requests:,} requests from 4 keep-alive "
          f"sockets): CPU a request {whole * 1e6:.0f} us (serving layer {serving * 1e6:.0f} us, "
          f"worker {worker * 1e6:.0f} us)")
    for title, part in (("worker answering past Flask (wsgi_worker.FastPath)", "worker"),
                        ("FEN reader, in the same request", "service-fen")):
        seconds = _part_seconds(part, count_path, repeats)
        print(f"  {title}")
        print(_line("POST /v1/fen/convert, a request", "CPU us", whole * 1e6, seconds["fast"] / requests * 1e6,
                    seconds["general"] / requests * 1e6))
        if counting:
            counts = _part_instructions(part, count_path)
            print(f"    {'':34} {'instr (k)':12} fast part {counts['fast'] / requests / 1e3:8,.1f}k a request, "
                  f"general part {counts['general'] / requests / 1e3:8,.1f}k a request "
                  f"(general/fast {counts['general'] / counts['fast']:5.2f}x; the whole live request is not counted)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=LINES)
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--requests", type=int, default=REQUESTS)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--only", nargs="*", default=["fen", "splitter", "san", "service"],
                        help="fen (every FEN pair), splitter, san, service, or one FEN pair by its part's name")
    parser.add_argument("--part", nargs=3, metavar=("NAME", "MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv or [])
    if args.part:
        run_part(args.part[0], args.part[1], Path(args.part[2]))
        return
    import bench_pgn
    from mixed_workload import lines

    counting = shutil.which("valgrind") is not None
    notation = str(Path(sys.executable).with_name("notation"))
    print(f"fast paths: each command's cost with its fast path and without it (installed build {_build()}; "
          f"CPU time best of {args.repeats}; "
          + ("instructions by callgrind)" if counting else "valgrind is not installed: no instruction counts)"))
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        fen_parts = ("fen", "fen-fields", "fen-errors", "placement", "plain-json", "json")
        if set(fen_parts) & set(args.only):
            mixed = directory / "mixed.jsonl"
            mixed.write_text("\n".join(lines(args.lines)) + "\n", encoding="utf-8")
            escaped = directory / "escaped.jsonl"  # as PHP's json_encode writes them: every "/" as "\/"
            escaped.write_text(mixed.read_text(encoding="utf-8").replace("/", "\\/"), encoding="utf-8")
            commands = [("convert --json", [notation, "convert", "--json"], mixed),
                        ("validate --json", [notation, "validate", "--json"], mixed)]
            for title, part, inputs, runs in (
                ("FEN reader: fields by split and regex beside the pyparsing grammar", "fen", mixed, commands),
                ("FEN reader, inside that fast path: fields by str.split beside the regex alone", "fen-fields", mixed,
                 commands),
                ("FEN reader's errors: a FEN cut short explained without the grammar beside the grammar", "fen-errors",
                 mixed, commands),
                ("FEN reader's placement: the 8x8 board's C-speed reading beside the character reader", "placement",
                 mixed, commands),
                ("JSON lines: the usual line read and its answer written without a JSON library, beside the "
                 "JSON library's path", "plain-json", mixed, commands),
                ("JSON lines the plain path leaves to the library (every \"/\" escaped, as PHP writes them): "
                 "orjson beside the standard library's json", "json", escaped,
                 [(name, argv, escaped) for name, argv, _ in commands]),
            ):
                if "fen" in args.only or part in args.only:
                    _report(f"{title}: {args.lines:,} mixed lines", runs, part, inputs, args.repeats, counting)
        if {"splitter", "san"} & set(args.only):
            database = directory / "games.pgn"
            bench_pgn.build_games(database, args.games)
            check = ("check", [notation, "check", str(database), "--progress", "never"], Path(os.devnull))
            normalize = ("normalize --moves san", [notation, "normalize", str(database), "--moves", "san", "-o",
                                                   os.devnull, "--progress", "never", "--summary", "none"],
                         Path(os.devnull))
            size = f"bench_movetext's database, {args.games:,} games, {database.stat().st_size / 1e6:.1f} MB"
            if "splitter" in args.only:
                _report(f"PGN splitter (iter_games) beside the state machine (iter_games_slow): {size}",
                        [check], "splitter", database, args.repeats, counting)
            if "san" in args.only:
                _report(f"SAN reader (read_plain_san) beside the full move reader: {size}",
                        [check, normalize], "san", database, args.repeats, counting)
                _report(f"SAN writer: a plain SAN move kept as written beside every move written again: {size}",
                        [normalize], "san-write", database, args.repeats, counting)
        if "service" in args.only:
            _service(args.requests, args.repeats, counting, directory)


if __name__ == "__main__":
    main(sys.argv[1:])
