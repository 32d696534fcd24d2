"""Memory of reading compressed input: a zstd bomb against the input layer's bound.

The bomb: 1 GiB of one repeated byte, zstd level 19, written as a stream (no content size in
the frame header), a few KiB on disk. Each run is a fresh process reading it to the end
through ``notation.inputs.InputFile`` (the layer every command uses), in 64 KiB reads;
the figure is that process's peak RSS (``ru_maxrss``) and how much it exceeds a process
that only opens the file, next to zstandard's own ``decompressobj`` fed 4 KiB steps (how
the reader worked before its steps were bounded).

Then the price of the bound: CPU time to read a 20 MB random PGN (zstd level 3, about
2.6:1) through ``InputFile`` with the bounded steps, and with 4 KiB steps.

    python bench/bench_inputs.py [--gib 1]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import zstandard

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from notation import inputs  # noqa: E402

READ_ALL = """
import resource, sys
from notation.inputs import InputFile
with InputFile(sys.argv[1]) as source:
    total = 0
    while chunk := source.binary.read1(1 << 16):
        total += len(chunk)
print(total, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

BASELINE = """
import resource, sys
from notation.inputs import InputFile
with InputFile(sys.argv[1]) as source:
    pass
print(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

OLD_BASELINE = """
import resource, sys, zstandard
data = open(sys.argv[1], "rb").read()
obj = zstandard.ZstdDecompressor().decompressobj()
print(0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

OLD_STEPS = """
import resource, sys, zstandard
data = open(sys.argv[1], "rb").read()
obj = zstandard.ZstdDecompressor().decompressobj()
total = 0
for start in range(0, len(data), 4096):
    total += len(obj.decompress(data[start:start + 4096]))
print(total, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def bomb(path: Path, gib: int) -> None:
    with open(path, "wb") as out, zstandard.ZstdCompressor(level=19).stream_writer(out, closefd=False) as writer:
        chunk = b"x" * (1 << 20)  # not zeros: pages of zeros may never count in RSS
        for _ in range(gib * 1024):
            writer.write(chunk)


def run(code: str, path: Path) -> tuple[int, int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, check=True)
    total, rss_kib = out.stdout.split()
    return int(total), int(rss_kib)


def random_pgn(games: int = 40_000) -> bytes:
    rng = random.Random(1)
    moves = [f"{p}{f}{r}" for p in "NBRQK" for f in "abcdefgh" for r in "12345678"]
    moves += [f"{f}{r}" for f in "abcdefgh" for r in "12345678"]
    out = []
    for i in range(games):
        text = " ".join(f"{n}. {rng.choice(moves)} {rng.choice(moves)}" for n in range(1, rng.randint(20, 60)))
        out.append(f'[Event "Rated {i}"]\n[White "p{rng.randint(1, 10**6)}"]\n[Result "*"]\n\n{text} *\n\n')
    return "".join(out).encode()


def read_cpu_seconds(path: Path, feed: int) -> float:
    class Reader(inputs.ZstdReader):
        def __init__(self, raw):
            super().__init__(raw, feed)

    original = inputs.ZstdReader
    inputs.ZstdReader = Reader  # type: ignore[misc]
    try:
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            with inputs.InputFile(str(path)) as source:
                for _block in source.blocks():
                    pass
            best = min(best, time.process_time() - started)
        return best
    finally:
        inputs.ZstdReader = original  # type: ignore[misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=int, default=1, help="size of the bomb's output in GiB (default 1)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bomb.pgn.zst"
        bomb(path, args.gib)
        print(f"bomb: {path.stat().st_size} bytes of zstd -> {args.gib} GiB")
        for name, baseline, code in (
            ("notation.inputs, 64 KiB reads", BASELINE, READ_ALL),
            ("decompressobj, 4 KiB per step", OLD_BASELINE, OLD_STEPS),
        ):
            _, base = run(baseline, path)
            total, peak = run(code, path)
            print(f"{name}: peak RSS {peak / 1024:.1f} MiB, {(peak - base) / 1024:+.1f} MiB over the same "
                  f"process only opening the file (read {total} bytes)")
        text = random_pgn()
        path = Path(tmp) / "random.pgn.zst"
        path.write_bytes(zstandard.ZstdCompressor(level=3).compress(text))
        print(f"random PGN: {len(text) / 1e6:.1f} MB, {path.stat().st_size / 1e6:.1f} MB of zstd")
        for feed in (inputs.ZSTD_FEED, 4096):
            seconds = read_cpu_seconds(path, feed)
            print(f"  read with {feed}-byte steps: {seconds:.3f} s CPU ({len(text) / seconds / 1e6:.0f} MB/s of text)")


if __name__ == "__main__":
    main()
