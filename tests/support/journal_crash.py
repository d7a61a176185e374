"""The crash campaign shared by the test suite (short) and ``bench/crash.py`` (1,000 kills).

A child process (``journal_crash_child.py``) plays a generated session through a journal; the
parent kills it with SIGKILL at random moments and restarts it. After every kill the parent checks, on
the journal as the kill left it (read-only, so the check changes nothing):

- ``PRAGMA integrity_check`` ok and the hash chain intact (``verify``);
- no acknowledged command lost: the journal holds at least every seq the child printed;
- none applied twice, none skipped: the new rows' commands are exactly the session's next ones;
- total money conserved: buy-ins minus cash-outs recorded equals balances plus escrow;

and on every restart, that the state the child rebuilt (snapshot + replay) equals a clean replay
of the same commands on a fresh Game.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tablectl.game import Game
from tablectl.journal import Journal, canonical, read_rows, verify
from tests.support.journal_sessions import generate_session

CHILD = Path(__file__).resolve().parent / "journal_crash_child.py"
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class CrashResult:
    commands: int = 0            # commands in the session
    kills: int = 0               # SIGKILLs that hit a running child
    restarts: int = 0            # child starts after a kill
    resumes_checked: int = 0     # restarts whose rebuilt state was compared with a clean replay
    acknowledged: int = 0        # highest seq the children acknowledged
    killed_before_ack: int = 0   # kills that left a committed but unacknowledged row
    killed_after_done: int = 0   # kills that landed after the child reported the session done
    lost: int = 0                # acknowledged commands missing from the journal
    duplicated: int = 0          # rows that are not the session's next command
    chain_failures: int = 0
    state_mismatches: int = 0
    money_mismatches: int = 0
    final_rows: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"{name}: {getattr(self, name)}" for name in (
            "commands", "kills", "restarts", "resumes_checked", "acknowledged",
            "killed_before_ack", "killed_after_done", "lost", "duplicated", "chain_failures", "state_mismatches",
            "money_mismatches", "final_rows")] + [f"seconds: {self.seconds:.1f}"]


def _digest(game: Game) -> str:
    return hashlib.sha256(canonical(game.snapshot()).encode()).hexdigest()


class _Reference:
    """A clean replay of the session's commands, advanced as the journal grows."""

    def __init__(self, commands: list[dict]) -> None:
        self.commands = commands
        self.game = Game()
        self.seq = 0

    def advance(self, seq: int) -> None:
        for command in self.commands[self.seq:seq]:
            self.game.apply(json.loads(canonical(command)))
        self.seq = seq


def _wait_for_lines(child: subprocess.Popen, out_path: Path, lines: int,
                    limit: float = 120.0) -> None:
    """Wait until the child has written ``lines`` whole lines (the resume line, then one per
    acknowledged command), or has ended."""
    started = time.perf_counter()
    while time.perf_counter() - started < limit and child.poll() is None:
        if out_path.read_bytes().count(b"\n") >= lines:
            return
        time.sleep(0.002)


def run_crash_campaign(workdir: Path, *, seed: int, throws: int, kills: int,
                       delay: tuple[float, float] = (0.05, 1.2), snapshot_every: int = 200,
                       progress=None, code_root: Path = ROOT) -> CrashResult:
    """Play a ``throws``-throw session through a journal in ``workdir``, killing the child
    ``kills`` times, then let it finish. ``delay``: the range (seconds after a child's start)
    of the kill moments. ``progress``: called with a text line now and then (or None).
    ``code_root``: the checkout whose code the child runs (a frozen copy for long runs)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    result = CrashResult()
    commands = generate_session(seed, throws)
    result.commands = len(commands)
    session = workdir / "session.jsonl"
    session.write_text("".join(canonical(c) + "\n" for c in commands), encoding="utf-8")
    journal = workdir / "table.db"
    reference = _Reference(commands)
    expected_resume: tuple[int, str, int] | None = (0, _digest(reference.game), 0)
    checked_rows = 0
    bought_in = cashed_out = 0
    env = dict(os.environ, PYTHONPATH=str(code_root))
    child_script = code_root / CHILD.relative_to(ROOT)
    done = False
    attempt = 0
    while not done:
        out_path = workdir / f"child-{attempt}.out"
        with out_path.open("wb") as out:
            child = subprocess.Popen(
                [sys.executable, str(child_script), str(session), str(journal),
                 "--snapshot-every", str(snapshot_every)],
                stdout=out, stderr=subprocess.PIPE, env=env)
        if attempt > 0:
            result.restarts += 1
        if result.kills < kills:
            # half the kills at any moment from the start (also while the journal is being
            # opened and replayed), half while commands are being committed
            wait = rng.uniform(*delay)
            # a kill comes before the child has committed a share of what is left, counted in
            # acknowledged commands rather than seconds, so that a fast machine cannot finish
            # the session before every kill has landed
            left = max(1, len(commands) - result.acknowledged)
            share = max(1, left // (2 * (kills - result.kills) + 1))
            if rng.random() < 0.5:
                # while committing: after a random part of that share
                _wait_for_lines(child, out_path, 1 + rng.randint(1, share))
                wait = rng.uniform(0.0, 0.005)
            else:
                # at any moment from the start (also while the journal is opened and replayed),
                # unless the share is committed first
                _wait_for_lines(child, out_path, 1 + share, limit=wait)
                wait = 0.0
            try:
                child.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                child.send_signal(signal.SIGKILL)
                child.wait()
                result.kills += 1
        else:
            child.wait()
        stderr = child.stderr.read().decode(errors="replace")
        child.stderr.close()
        if child.returncode not in (0, -signal.SIGKILL):
            result.failures.append(f"child {attempt} failed ({child.returncode}): {stderr[-2000:]}")
            break
        lines = out_path.read_text().split("\n")
        out_path.unlink()
        complete = lines[:-1]  # the last piece has no newline yet: not a whole line
        acked = 0
        for line in complete:
            if line.startswith("resume "):
                _, seq, digest, money = line.split()
                got = (int(seq), digest, int(money))
                if expected_resume is not None:
                    result.resumes_checked += 1
                    if got[:2] != expected_resume[:2]:
                        result.state_mismatches += 1
                        result.failures.append(f"restart {attempt}: resumed at {got[:2]}, a clean "
                                               f"replay gives {expected_resume[:2]}")
                    if got[2] != expected_resume[2]:
                        result.money_mismatches += 1
                        result.failures.append(f"restart {attempt}: money {got[2]}, expected "
                                               f"{expected_resume[2]}")
            elif line.startswith("done "):
                done = True
            elif line:
                acked = max(acked, int(line))
        result.acknowledged = max(result.acknowledged, acked)
        if done and child.returncode == -signal.SIGKILL:
            # the kill came between the child's "done" and its exit: no restart follows
            result.killed_after_done += 1

        # --- the journal as the kill left it (read-only checks)
        report = verify(journal, replay=False) if journal.exists() else None
        if report is None:
            rows = 0
        elif not report.ok:
            result.chain_failures += 1
            result.failures.append(f"after kill {result.kills}: {report.summary()}")
            break
        else:
            rows = report.rows
        if rows < result.acknowledged:
            result.lost += result.acknowledged - rows
            result.failures.append(f"after kill {result.kills}: {result.acknowledged} acknowledged "
                                   f"but the journal holds {rows}")
        if not done and rows > max(acked, checked_rows):
            result.killed_before_ack += 1  # killed between the commit and its acknowledgement
        if rows > checked_rows:
            for row in read_rows(journal, since=checked_rows):
                expected = commands[row.seq - 1] if row.seq <= len(commands) else None
                if expected is None or canonical(expected) != canonical(row.command):
                    result.duplicated += 1
                    result.failures.append(f"row {row.seq} is not the session's command "
                                           f"{row.seq}: {row.command}")
                    break
                for event in row.events:
                    if event["event"] == "joined":
                        bought_in += event["units"]
                    elif event["event"] == "cashed_out":
                        cashed_out += event["units"]
            checked_rows = rows
        reference.advance(rows)
        money = reference.game.money_total()
        if money != bought_in - cashed_out:
            result.money_mismatches += 1
            result.failures.append(f"after kill {result.kills}: money on the table {money}, "
                                   f"buy-ins minus cash-outs {bought_in - cashed_out}")
        expected_resume = (rows, _digest(reference.game), money)
        if result.failures:
            break
        attempt += 1
        if progress and attempt % 50 == 0:
            progress(f"  {attempt} runs, {result.kills} kills, {rows}/{len(commands)} commands, "
                     f"{time.perf_counter() - started:.0f} s")

    if not result.failures:
        final = verify(journal, replay=True)
        if not final.ok:
            result.chain_failures += 1
            result.failures.append(f"final verify: {final.summary()}")
        with Journal.open(journal) as j:
            result.final_rows = j.seq
            clean = Game()
            for command in commands:
                clean.apply(json.loads(canonical(command)))
            if j.seq != len(commands) or _digest(j.game) != _digest(clean):
                result.state_mismatches += 1
                result.failures.append("final state differs from a clean replay of the session")
    result.seconds = time.perf_counter() - started
    return result
