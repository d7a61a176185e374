"""The crash test, short version (``bench/crash.py`` runs the long one with 1,000 kills).

A child plays a generated 10,000-throw session with bets through the journal; it is killed
with SIGKILL at random moments and restarted. After every kill: integrity ok, chain intact, no
acknowledged command lost, none applied twice, money conserved; after every restart: the state
the child rebuilt equals a clean replay. See tests/support/journal_crash.py.

The journal lies on tmpfs (/dev/shm) when there is one: a SIGKILL leaves the page cache intact,
so the disk's sync latency would only slow the test without testing more (power-loss durability
is SQLite's ``synchronous=FULL``, asserted in test_journal.py). Without tmpfs the session is
shorter to keep the suite fast.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.journal_crash import run_crash_campaign


@pytest.fixture
def crash_dir(tmp_path: Path):
    shm = Path("/dev/shm")
    if shm.is_dir():
        try:
            path = Path(tempfile.mkdtemp(prefix="tablectl-crash-", dir=shm))
        except OSError:
            path = None
        if path is not None:
            yield path, 10_000
            shutil.rmtree(path, ignore_errors=True)
            return
    yield tmp_path, 1_500


def test_sigkill_at_random_moments_loses_nothing_acknowledged(crash_dir):
    workdir, throws = crash_dir
    result = run_crash_campaign(workdir, seed=20261130, throws=throws, kills=8,
                                delay=(0.1, 1.0))
    assert result.failures == [], "\n".join(result.failures)
    assert result.kills == 8
    # every kill is followed by a restart, except one that lands after the session is done
    assert result.restarts == result.kills - result.killed_after_done
    assert result.killed_after_done <= 1
    assert result.resumes_checked >= 1  # restarts that got far enough to report their state
    assert result.final_rows == result.commands
    assert (result.lost, result.duplicated, result.chain_failures, result.state_mismatches,
            result.money_mismatches) == (0, 0, 0, 0, 0)
