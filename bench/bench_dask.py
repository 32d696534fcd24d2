"""`notation normalize --dask` throughput with 1 and 2 workers, and the cost per GB that follows.

The database is bench_pgn's (seeded random games in nine variants, lichess-style), 200 MB.
Each run is the installed command as a subprocess against a local Dask cluster started
here beforehand (its start-up is a real cluster's too, so it is left out), writing parts
to a temporary directory; the planning pass (cut points, line counts) is included. One
process without Dask (`notation normalize DB -o OUT`) is the baseline.

Printed: MB/s of PGN over the run's wall time, and MB/s per CPU second the workers spent
(their own ``getrusage``, planning pass and Dask's overhead in the worker included): what
one worker does on a core of its own, as on a cluster, whatever else this machine runs.
From that, the cost per GB of PGN at ``--price`` per worker-hour (one single-threaded
worker is one core). Figures, never assertions: this machine is shared and noisy, which
moves the wall figures far more than the CPU ones.

    python bench/bench_dask.py [--megabytes 200] [--partition 32MiB] [--price 0.04]
"""

from __future__ import annotations

import argparse
import logging
import resource
import sys
import tempfile
from pathlib import Path

from bench_pgn import build_database
from common import timed_process

WORKERS = (1, 2)


def _command() -> list[str]:
    script = Path(sys.executable).parent / "notation"
    return [str(script)] if script.exists() else [sys.executable, "-m", "notation"]


def _timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (the command's own, children included) of one command."""
    elapsed, cpu, status, errors = timed_process([*_command(), *args], b"")
    if status not in (0, 1):
        raise RuntimeError(f"notation {' '.join(args)} failed: {errors.decode(errors='replace').strip()}")
    return elapsed, cpu


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _on_cluster(workers: int, database: Path, partition: str, out: Path) -> tuple[float, float]:
    """Wall seconds of the command, and CPU seconds its work took on the workers."""
    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        before = client.run(_own_cpu)
        wall, _ = _timed(["normalize", str(database), "--profile", "xboard", "--dask", cluster.scheduler_address,
                          "--partition-size", partition, "-o", str(out), "--summary", "none"])
        after = client.run(_own_cpu)
    return wall, sum(after.values()) - sum(before.values())


def main(argv: list[str] | None = None) -> dict[int, float]:
    parser = argparse.ArgumentParser()
    parser.add_argument("--megabytes", type=int, default=200, help="database size in MB (default: 200)")
    parser.add_argument("--partition", default="32MiB", help="--partition-size for the runs (default: 32MiB)")
    parser.add_argument("--price", type=float, default=0.04,
                        help="price of one worker (one core) per hour, in dollars (default: 0.04)")
    args = parser.parse_args(argv or [])
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "db.pgn"
        build_database(database, args.megabytes)
        megabytes = database.stat().st_size / 1e6
        one = str(Path(tmp) / "one.pgn")
        single = _timed(["normalize", str(database), "--profile", "xboard", "-o", one,
                         "--progress", "never", "--summary", "none"])
        runs = {n: _on_cluster(n, database, args.partition, Path(tmp) / f"parts{n}") for n in WORKERS}
    print(f"PGN normalize --dask ({megabytes:.0f} MB database, profile xboard, --partition-size {args.partition})")
    print(f"  one process, no Dask  {megabytes / single[0]:7.1f} MB/s wall   "
          f"{megabytes / single[1]:7.1f} MB/s per CPU second")
    rates = {}
    for workers, (wall, cpu) in runs.items():
        rates[workers] = megabytes / wall
        per_core = megabytes / cpu
        seconds_per_gb = 1000 / per_core
        cost = args.price * seconds_per_gb / 3600
        print(f"  {workers} worker{'s' if workers > 1 else ' '}             {rates[workers]:7.1f} MB/s wall   "
              f"{per_core:7.1f} MB/s per worker CPU second   {seconds_per_gb:6.0f} worker-seconds per GB   "
              f"${cost:.4f} per GB at ${args.price}/worker-hour")
    print(f"  wall speed-up 1 -> 2 workers {rates[2] / rates[1]:.2f}x (2 cores shared with other work here)")
    return rates


if __name__ == "__main__":
    main(sys.argv[1:])
