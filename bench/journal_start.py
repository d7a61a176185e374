"""A table's start on a long journal: its chain checked in one process against several, and the
journal length from which several pay (the break-even of ``PARALLEL_CHAIN_ROWS``).

    .venv/bin/python bench/journal_start.py --throws 20000          # builds a journal first
    .venv/bin/python bench/journal_start.py --journal /path/table.db --prefixes 10000,40000

The journal is copied to a temporary folder (the given file is never written). Each line is
timed alternately in one process, ``--repeat`` times: the check a start makes
(``verify(replay=False)``: integrity, chain, head, snapshots) with one process and with the
processes a start uses here, then ``Journal.open`` itself as ``tablectl run`` calls it. With
``--prefixes``, the same check on copies cut to that many rows. Wall time, and CPU time of all
the processes (the workers' included); the load average is printed, as the figures depend on
the cores the other jobs leave free.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from bench.rules import JournalBuilder, all_cpu  # noqa: E402
from tablectl.game import TableRules  # noqa: E402
from tablectl.journal import Journal, _chain_processes, verify  # noqa: E402


def timed(run) -> tuple[float, float]:
    start, cpu = time.perf_counter(), all_cpu()
    run()
    return time.perf_counter() - start, all_cpu() - cpu


def cut(source: Path, rows: int, folder: Path) -> Path:
    """A copy of the journal with its first ``rows`` rows (and their snapshots) only."""
    path = folder / f"first-{rows}.db"
    with sqlite3.connect(source) as db:
        db.execute("VACUUM INTO ?", (str(path),))
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute("DELETE FROM journal WHERE seq > ?", (rows,))
        db.execute("DELETE FROM snapshots WHERE seq > ?", (rows,))
        db.execute("VACUUM")
    return path


def line(label: str, results: dict[str, list[tuple[float, float]]]) -> str:
    parts = [label]
    for name, runs in results.items():
        walls = [w for w, _ in runs]
        cpus = [c for _, c in runs]
        parts.append(f"{name}: wall best {min(walls):.3f} median {statistics.median(walls):.3f}"
                     f", CPU median {statistics.median(cpus):.3f} s")
    return " | ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--journal", type=Path, help="a journal to start on (copied)")
    parser.add_argument("--throws", type=int, default=20_000,
                        help="without --journal: build one of this many throws (default 20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--prefixes", default="",
                        help="comma-separated row counts to time the check on as well")
    args = parser.parse_args(argv)
    processes = _chain_processes()
    with tempfile.TemporaryDirectory(prefix="tablectl-bench-start-") as tmp:
        folder = Path(tmp)
        path = folder / "table.db"
        if args.journal is not None:
            if not args.journal.is_file():
                parser.error(f"--journal {args.journal}: no such file")
            for suffix in ("", "-wal", "-head"):
                src = args.journal.with_name(args.journal.name + suffix)
                if src.exists():
                    shutil.copyfile(src, path.with_name(path.name + suffix))
        else:
            commands = JournalBuilder(1).build(args.throws)
            with Journal.open(path, TableRules()) as writer:
                writer.apply_all(commands)
        print(f"journal start benchmark: {processes} process(es) usable here, load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
        targets = [(path, "whole journal")]
        for rows in filter(None, (p.strip() for p in args.prefixes.split(","))):
            targets.append((cut(path, int(rows), folder), f"first {int(rows):,} rows"))
        for target, label in targets:
            results: dict[str, list[tuple[float, float]]] = {"1 process": [],
                                                             f"{processes} processes": []}
            for _ in range(args.repeat):
                for name, n in zip(results, (1, processes), strict=True):
                    results[name].append(timed(functools.partial(
                        verify, target, replay=False, processes=n, parallel_rows=1)))
            report = verify(target, replay=False, processes=1)
            print(line(f"  check of {label} ({report.rows:,} rows)", results))
        opens: dict[str, list[tuple[float, float]]] = {"Journal.open": []}
        opened: list[Journal] = []
        for _ in range(args.repeat):
            opens["Journal.open"].append(timed(lambda: opened.append(Journal.open(path))))
            opened[-1].close()
        print(line(f"  start (checked by {opened[-1].chain_processes} process(es))", opens))
        print(f"  (load average at the end {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
