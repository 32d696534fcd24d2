"""`notation normalize --dask`: one process against Dask clusters of 1 to N workers, plain and `.zst`.

The database is bench_pgn's (seeded random games in nine variants, lichess-style), 200 MB
by default, normalised with every move checked (``--moves check``: the work a dump is put
on a cluster for), plain and compressed with zstd (as lichess publishes its dumps). For
each worker count N from 1 to the cores present:

- ``local:N``: the whole command with ``--dask local:N``, starting its own cluster;
- ``scheduler + N``: a ``dask scheduler`` and N ``dask worker`` processes (one thread each,
  as on a cluster) started here beforehand, the command run against the scheduler (the
  cluster's start-up, paid once per cluster, is left out), and the CPU seconds the workers
  spent (their own ``getrusage``, read with ``client.run``).

One process without Dask (``notation normalize DB -o OUT``) is the baseline. Each run is the
installed command (the one beside this interpreter) as a subprocess, writing its parts to a
temporary directory. Printed: MB/s of PGN over the wall time, the speed-up over one process,
and for the ``scheduler + N`` runs MB/s per worker CPU second, the cost per GB at
``--price`` per worker-hour (one single-threaded worker is one core) and the command's own
CPU seconds (for a ``.zst``, its decompressing and cutting), and the build the command
runs (compiled or pure Python). Figures, never
assertions: on a shared machine the wall figures move with the other work (the load
average is printed).

    python bench/bench_dask.py [--megabytes 200] [--partition-size auto] [--moves check] [--workers 1,2]

``--sweep 1MiB,2MiB,...`` measures partition sizes instead (docs/scale.md, Partition size):
``normalize --moves check`` and ``check`` on the database (100 MB is a fair size), one
process, then a scheduler and ``--workers`` workers (2 by default), started afresh for each
run, at each size (``auto``: the command's default); the least wall time and the least
worker CPU seconds of ``--repeat`` runs, since other work on the machine only adds to both.

    python bench/bench_dask.py --megabytes 100 --sweep 1MiB,2MiB,4MiB,8MiB,16MiB,auto --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench_pgn import build_database
from common import timed_process

TIMEOUT = 120  # seconds for a scheduler or a worker to come up


def _command() -> list[str]:
    script = Path(sys.executable).parent / "notation"
    return [str(script)] if script.exists() else [sys.executable, "-m", "notation"]


def _timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (the command's own, children included) of one command."""
    elapsed, cpu, status, errors = timed_process([*_command(), *args], b"")
    if status not in (0, 1):
        raise RuntimeError(f"notation {' '.join(args)} failed: {errors.decode(errors='replace').strip()}")
    return elapsed, cpu


def _own_cpu():
    """A function giving the CPU seconds of the process it runs in: a lambda, so that Dask
    sends it by value (a worker cannot import this file)."""
    return lambda: sum(resource.getrusage(resource.RUSAGE_SELF)[:2])


@contextlib.contextmanager
def _cluster(workers: int, root: Path) -> Iterator[str]:
    """A scheduler and ``workers`` single-threaded workers, each its own process; the address."""
    dask = str(Path(sys.executable).parent / "dask")
    info = root / f"scheduler-{workers}.json"
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", str(info)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)]
    try:
        address = _wait(lambda: json.loads(info.read_text())["address"] if info.exists() else None)
        for _ in range(workers):
            processes.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                                               "--no-dashboard"], stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
        from distributed import Client

        with Client(address, timeout=TIMEOUT) as client:
            client.wait_for_workers(workers, timeout=TIMEOUT)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait(ready):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError, KeyError):
            value = ready()
            if value:
                return value
        time.sleep(0.1)
    raise RuntimeError("the Dask scheduler did not start")


def _on_scheduler(address: str, args: list[str]) -> tuple[float, float, float]:
    """Wall seconds of the command against ``address``, the CPU seconds its workers spent,
    and the command's own CPU seconds."""
    from distributed import Client

    with Client(address, timeout=TIMEOUT) as client:
        before = client.run(_own_cpu())
        wall, command = _timed([*args, "--dask", address])
        after = client.run(_own_cpu())
    return wall, sum(after.values()) - sum(before.values()), command


def _zst(path: Path) -> Path:
    import zstandard

    target = path.with_name(path.name + ".zst")
    with open(path, "rb") as source, open(target, "wb") as out:
        zstandard.ZstdCompressor(level=3).copy_stream(source, out)
    return target


def _build() -> str:
    """Which build of the package the command runs: compiled (mypyc) or pure Python."""
    probe = subprocess.run([sys.executable, "-c", "import notation.moves.chess as m; print(m.__file__)"],
                           capture_output=True, text=True, cwd=tempfile.gettempdir(), check=False)
    return "compiled build" if probe.stdout.strip().endswith((".so", ".pyd")) else "pure-Python build"


@contextlib.contextmanager
def _database(megabytes: int) -> Iterator[tuple[Path, Path, float]]:
    """A temporary directory holding bench_pgn's database of about ``megabytes`` MB: the
    directory, the database and its size in MB."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        database = root / "db.pgn"
        build_database(database, megabytes)
        yield root, database, database.stat().st_size / 1e6


def sweep(args: argparse.Namespace) -> dict[str, float]:
    """Partition sizes: ``normalize --moves check`` and ``check`` with one process, then
    against a fresh scheduler and ``args.workers`` workers per run; the least of
    ``args.repeat`` runs."""
    workers = int(args.workers or 2)
    sizes = args.sweep.split(",")
    load_before = os.getloadavg()[0]
    rates: dict[str, float] = {}
    lines: list[str] = []
    with _database(args.megabytes) as (root, database, megabytes):
        commands = {
            "normalize --moves check": lambda out: ["normalize", str(database), "--profile", "xboard", "--moves",
                                                    "check", "--summary", "none", "-o", str(out)],
            "check": lambda out: ["check", str(database)],
        }
        runs = iter(range(1_000_000))
        for name, command in commands.items():
            lines.append(f"  {name}")
            single = [_timed([*command(root / f"one-{next(runs)}.pgn"), "--progress", "never"])
                      for _ in range(args.repeat)]
            alone, cpu = min(w for w, _ in single), min(c for _, c in single)
            rates[f"{name} one process"] = megabytes / alone
            lines.append(f"    one process, no Dask  {megabytes / alone:6.2f} MB/s wall  ({alone:5.2f} s wall, "
                         f"{cpu:5.2f} s CPU)")
            for size in sizes:
                sizing = [] if size == "auto" else ["--partition-size", size]
                measured = []
                for _ in range(args.repeat):
                    with _cluster(workers, root) as address:
                        measured.append(_on_scheduler(address, [*command(root / f"out-{next(runs)}"), *sizing]))
                wall, cpu = min(m[0] for m in measured), min(m[1] for m in measured)
                rates[f"{name} {size}"] = megabytes / wall
                lines.append(f"    {size:>6}, {workers} workers    {megabytes / wall:6.2f} MB/s wall  "
                             f"({wall:5.2f} s wall, {alone / wall:4.2f}x one process)   {cpu:5.2f} s worker CPU   "
                             f"{megabytes / cpu:6.2f} MB/s per worker CPU second")
    print(f"--partition-size ({megabytes:.0f} MB database, {_build()}, scheduler + {workers} workers started "
          f"afresh for each run, least of {args.repeat} runs, {os.cpu_count()} cores)")
    print("\n".join(lines))
    print(f"  load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after "
          f"({os.cpu_count()} cores: above about half a core, other work shares them)")
    return rates


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=200, help="database size in MB (default: 200)")
    parser.add_argument("--partition-size", default=None,
                        help="--partition-size for the runs (default: the command's own default)")
    parser.add_argument("--moves", default="check", help="--moves for every run (default: check)")
    parser.add_argument("--workers", default=None,
                        help="worker counts, comma-separated (default: 1 to the cores present)")
    parser.add_argument("--price", type=float, default=0.04,
                        help="price of one worker (one core) per hour, in dollars (default: 0.04)")
    parser.add_argument("--sweep", default=None,
                        help="partition sizes to compare, comma-separated (e.g. 1MiB,4MiB,auto): see above")
    parser.add_argument("--repeat", type=int, default=3, help="with --sweep: runs per figure (default: 3)")
    args = parser.parse_args(argv or [])
    if args.sweep:
        return sweep(args)
    counts = ([int(n) for n in args.workers.split(",")] if args.workers
              else list(range(1, (os.cpu_count() or 1) + 1)))
    load_before = os.getloadavg()[0]
    rates: dict[str, float] = {}
    lines: list[str] = []
    with _database(args.megabytes) as (root, database, megabytes):
        inputs = {"plain": database, ".zst": _zst(database)}
        common = ["--profile", "xboard", "--moves", args.moves, "--summary", "none"]
        sizing = ["--partition-size", args.partition_size] if args.partition_size else []
        for kind, path in inputs.items():
            single = _timed(["normalize", str(path), *common, "-o", str(root / "one.pgn"), "--progress", "never"])
            rates[f"{kind} one process"] = megabytes / single[0]
            lines.append(f"  {kind:5}  one process, no Dask   {megabytes / single[0]:7.2f} MB/s wall   "
                         f"({single[0]:6.1f} s wall, {single[1]:6.1f} s CPU)")
            for workers in counts:
                out = root / f"local-{kind}-{workers}"
                wall, _ = _timed(["normalize", str(path), *common, *sizing, "--dask", f"local:{workers}",
                                  "-o", str(out)])
                rates[f"{kind} local:{workers}"] = megabytes / wall
                lines.append(f"  {kind:5}  --dask local:{workers:<2}        {megabytes / wall:7.2f} MB/s wall   "
                             f"({wall:6.1f} s, {single[0] / wall:4.2f}x one process, cluster start-up included)")
                with _cluster(workers, root) as address:
                    out = root / f"cluster-{kind}-{workers}"
                    wall, cpu, command = _on_scheduler(address, ["normalize", str(path), *common, *sizing,
                                                                 "-o", str(out)])
                per_core = megabytes / cpu
                seconds_per_gb = 1000 / per_core
                rates[f"{kind} scheduler+{workers}"] = megabytes / wall
                lines.append(f"  {kind:5}  scheduler + {workers:<2} workers {megabytes / wall:7.2f} MB/s wall   "
                             f"({wall:6.1f} s, {single[0] / wall:4.2f}x one process)   "
                             f"{per_core:6.2f} MB/s per worker CPU second   {seconds_per_gb:6.0f} worker-s per GB   "
                             f"${args.price * seconds_per_gb / 3600:.4f} per GB at ${args.price}/worker-hour   "
                             f"command {command:5.1f} s CPU")
    partition = args.partition_size or "the default"
    print(f"PGN normalize --dask ({megabytes:.0f} MB database, profile xboard, --moves {args.moves}, "
          f"--partition-size {partition}, {_build()}, {os.cpu_count()} cores)")
    print("\n".join(lines))
    print(f"  load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after "
          f"({os.cpu_count()} cores: above about half a core, other work shares them)")
    return rates


if __name__ == "__main__":
    main(sys.argv[1:])
