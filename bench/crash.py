"""Crash benchmark of the journal: 1,000 SIGKILLs of a table playing through its journal.

    .venv/bin/python bench/crash.py                    # 1,000 kills, 10,000-throw sessions
    .venv/bin/python bench/crash.py --kills 50         # a quick run
    .venv/bin/python bench/crash.py --dir /dev/shm     # on tmpfs (faster; same SIGKILL proof)

A child process plays a generated session (10,000 throws with center bets, side bets, voids,
operator rulings, sanctions) through the journal; it is killed with SIGKILL at random moments
(half of them from its start, so some land while it opens and replays the journal, half while
it commits) and restarted, until it finishes; then the next session starts, until the number
of kills is reached. After every kill the journal is checked read-only (integrity, chain, no
acknowledged command lost, none applied twice or skipped, money conserved) and after every
restart the state the child rebuilt is compared with a clean replay (tests/support/
journal_crash.py, shared with the tests). Target: every count of a failure is 0.

It then times ``Journal.open`` on the last finished session's journal, with its snapshots and
with them removed (a full replay), the "long evening starts in well under a second" figure.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# A long run freezes the code under test: the children (restarted a thousand times) and this
# process import a copy of tablectl and the test helpers, so edits made meanwhile in the
# checkout cannot change the code half-way through.
FROZEN = Path(tempfile.mkdtemp(prefix="tablectl-crash-code-"))
shutil.copytree(ROOT / "tablectl", FROZEN / "tablectl",
                ignore=shutil.ignore_patterns("__pycache__"))
shutil.copytree(ROOT / "tests" / "support", FROZEN / "tests" / "support",
                ignore=shutil.ignore_patterns("__pycache__"))
(FROZEN / "tests" / "__init__.py").write_text("")
sys.path.insert(0, str(FROZEN))

from tablectl.journal import Journal  # noqa: E402
from tests.support.journal_crash import CrashResult, run_crash_campaign  # noqa: E402

COUNTS = ("kills", "restarts", "resumes_checked", "killed_before_ack", "lost", "duplicated",
          "chain_failures", "state_mismatches", "money_mismatches")
FAILURE_COUNTS = ("lost", "duplicated", "chain_failures", "state_mismatches",
                  "money_mismatches")


def time_open(path: Path, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        Journal.open(path).close()
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--throws", type=int, default=10_000, help="throws per session")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None,
                        help="where the journals go (default: a temporary directory on disk)")
    parser.add_argument("--max-delay", type=float, default=0.6,
                        help="kill moments are uniform in [0, this] seconds")
    args = parser.parse_args(argv)

    base = Path(tempfile.mkdtemp(prefix="tablectl-crash-", dir=args.dir))
    total = CrashResult()
    sessions = completed = commands = 0
    failures: list[str] = []
    last_journal: Path | None = None
    started = time.perf_counter()
    print(f"crash benchmark: {args.kills} kills, {args.throws}-throw sessions, journals in {base}")
    try:
        while total.kills < args.kills and not failures:
            workdir = base / f"session-{sessions}"
            workdir.mkdir()
            result = run_crash_campaign(
                workdir, seed=args.seed + sessions, throws=args.throws,
                kills=args.kills - total.kills, delay=(0.0, args.max_delay),
                progress=lambda line: print(line, flush=True), code_root=FROZEN)
            sessions += 1
            for name in COUNTS:
                setattr(total, name, getattr(total, name) + getattr(result, name))
            commands += result.final_rows
            failures += result.failures
            if result.final_rows == result.commands and not result.failures:
                completed += 1
                if last_journal is not None:
                    shutil.rmtree(last_journal.parent, ignore_errors=True)
                last_journal = workdir / "table.db"
            print(f"session {sessions}: {result.commands} commands, {result.kills} kills, "
                  f"{result.seconds:.0f} s, failures {len(result.failures)}", flush=True)
        elapsed = time.perf_counter() - started
        print()
        print(f"sessions: {sessions} ({completed} played to the end), commands committed and "
              f"checked: {commands}")
        for name in COUNTS:
            print(f"{name}: {getattr(total, name)}")
        print(f"elapsed: {elapsed:.0f} s")
        if last_journal is not None:
            with_snapshots = time_open(last_journal)
            bare = last_journal.with_name("bare.db")
            shutil.copyfile(last_journal, bare)
            for suffix in ("-head",):
                shutil.copyfile(str(last_journal) + suffix, str(bare) + suffix)
            with sqlite3.connect(bare) as db:
                db.execute("DELETE FROM snapshots")
            without = time_open(bare)
            with Journal.open(last_journal) as j:
                rows = j.seq
            print(f"Journal.open of a finished {rows}-command journal: {with_snapshots:.3f} s "
                  f"with snapshots (every 200), {without:.3f} s replaying everything")
        ok = not failures and all(getattr(total, name) == 0 for name in FAILURE_COUNTS)
        for failure in failures[:10]:
            print(f"FAILURE: {failure}")
        print("result: " + ("PASS (no failure in any count)" if ok else "FAIL"))
        return 0 if ok else 1
    finally:
        shutil.rmtree(base, ignore_errors=True)
        shutil.rmtree(FROZEN, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
