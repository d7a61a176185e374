"""The chain checked in parallel processes gives the same report as checked in one, for a sound
journal and for every way the journal's tests damage one; a worker that cannot start or fails
leaves its range to the parent."""

from __future__ import annotations

import shutil
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from tablectl import journal as journal_module
from tablectl.journal import Journal, _encode_head, read_rows, verify
from tests.support.journal_sessions import generate_session

SNAPSHOT_EVERY = 40
NAMES = ("Zoë", "Jürgen", "Ñandú", "李")  # stored as multi-byte UTF-8: hashed as written


@pytest.fixture(scope="module")
def sound(tmp_path_factory) -> Path:
    """A journal of a few hundred rows, snapshots every 40, names beyond ASCII at the end."""
    path = tmp_path_factory.mktemp("chain") / "table.db"
    commands = generate_session(5, 120)
    commands += [{"command": "join", "player": name, "buy_in": 100} for name in NAMES]
    with Journal.open(path, snapshot_every=SNAPSHOT_EVERY) as j:
        j.apply_all(commands)
    return path


def _rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT max(seq) FROM journal").fetchone()[0]


def _cuts(rows: int, processes: int) -> list[int]:
    """The first seq of each range after the first, as the check splits ``rows`` rows."""
    step = rows // processes
    return [1 + i * step for i in range(1, processes)]


def _sql(*statements: str):
    def damage(db: sqlite3.Connection, path: Path, n: int) -> None:
        for statement in statements:
            db.execute(statement.format(n=n, b=_cuts(n, 3)[0], c=_cuts(n, 3)[1], mid=n // 2))
    return damage


def _bad_sector(fraction: float):
    def damage(db: sqlite3.Connection, path: Path, n: int) -> None:
        db.close()
        size = path.stat().st_size
        with path.open("r+b") as fh:
            fh.seek(int(size * fraction) // 4096 * 4096)  # a page from its header on
            fh.write(b"\xff" * 300)
    return damage


def _foreign_head(db: sqlite3.Connection, path: Path, n: int) -> None:
    rows = {r.seq: r.hash for r in read_rows(path)}
    path.with_name(path.name + "-head").write_bytes(_encode_head(n, rows[n - 1]))


def _head_behind(db: sqlite3.Connection, path: Path, n: int) -> None:
    rows = {r.seq: r.hash for r in read_rows(path)}
    path.with_name(path.name + "-head").write_bytes(_encode_head(n - 1, rows[n - 1]))


# {b} and {c}: the first rows of the second and third of three ranges; {n} the last row
DAMAGE = {
    "sound": _sql(),
    "edited row in the first range": _sql(
        "UPDATE journal SET time = '2026-01-01T00:00:00.000000Z' WHERE seq = 7"),
    "edited first row of a range": _sql(
        "UPDATE journal SET extra = '{{\"x\":1}}' WHERE seq = {b}"),
    "edited last row of a range": _sql(
        "UPDATE journal SET events = '[]' WHERE seq = {b} - 1"),
    "edited name beyond ASCII": _sql(
        "UPDATE journal SET command = replace(command, 'Jürgen', 'Jurgen') "
        "WHERE command LIKE '%Jürgen%'"),
    "hash written in capitals": _sql("UPDATE journal SET hash = upper(hash) WHERE seq = {c}"),
    "first row removed": _sql("DELETE FROM journal WHERE seq = 1"),
    "first row of a range removed": _sql("DELETE FROM journal WHERE seq = {b}"),
    "last row of a range removed": _sql("DELETE FROM journal WHERE seq = {c} - 1"),
    "a whole range removed": _sql("DELETE FROM journal WHERE seq BETWEEN {b} - 2 AND {c} + 3"),
    "rows lost from the end": _sql("DELETE FROM journal WHERE seq > {n} - 5"),
    "duplicated row": _sql(
        "UPDATE journal SET prev_hash = (SELECT prev_hash FROM journal WHERE seq = {b} - 1), "
        "hash = (SELECT hash FROM journal WHERE seq = {b} - 1), "
        "command = (SELECT command FROM journal WHERE seq = {b} - 1) WHERE seq = {b}"),
    "relinked row": _sql("UPDATE journal SET prev_hash = hash WHERE seq = {mid}"),
    "two rows swapped": _sql(
        "UPDATE journal SET seq = -1 WHERE seq = {c}",
        "UPDATE journal SET seq = {c} WHERE seq = {c} + 1",
        "UPDATE journal SET seq = {c} + 1 WHERE seq = -1"),
    "damage everywhere": _sql(
        "DELETE FROM journal WHERE seq = 3",
        "UPDATE journal SET events = '[]' WHERE seq IN ({b}, {b} + 1, {c} + 7)",
        "UPDATE journal SET prev_hash = 'x' WHERE seq = {n}"),
    "edited snapshot": _sql(
        "UPDATE snapshots SET state = replace(state, '1', '2') WHERE seq = "
        "(SELECT max(seq) FROM snapshots)"),
    "snapshot bound to another row": _sql(
        "UPDATE snapshots SET row_hash = (SELECT hash FROM journal WHERE seq = 5)"),
    "meta entry missing": _sql("DELETE FROM meta WHERE key = 'created'"),
    "foreign head record": _foreign_head,
    "head record behind": _head_behind,
    "bad sector, first quarter": _bad_sector(0.25),
    "bad sector, middle": _bad_sector(0.5),
    "bad sector, last quarter": _bad_sector(0.8),
}


SOUND = ("sound", "head record behind")  # a head record one row behind: a crash after a commit


def _damaged(sound: Path, tmp_path: Path, name: str) -> Path:
    path = tmp_path / "table.db"
    for suffix in ("", "-wal", "-head"):
        src = sound.with_name(sound.name + suffix)
        if src.exists():
            shutil.copyfile(src, path.with_name(path.name + suffix))
    n = _rows(path)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        DAMAGE[name](db, path, n)
    finally:
        db.close()
    return path


@pytest.mark.parametrize("name", list(DAMAGE))
def test_parallel_check_reports_what_the_serial_one_does(sound, tmp_path, name):
    path = _damaged(sound, tmp_path, name)
    serial = verify(path, replay=False, processes=1)
    assert serial.chain_processes == 1
    assert (name in SOUND) == serial.ok, serial.summary()
    for processes in (2, 3):
        parallel = verify(path, replay=False, processes=processes, parallel_rows=1)
        assert parallel == serial, f"{processes} processes:\n{parallel.summary()}\n" \
                                   f"one:\n{serial.summary()}"
        assert [str(p) for p in parallel.problems] == [str(p) for p in serial.problems]
        if name != "meta entry missing":  # no chain to check there
            assert parallel.chain_processes == processes


def test_a_damaged_journal_refuses_the_start_with_the_same_message(sound, tmp_path):
    path = _damaged(sound, tmp_path, "damage everywhere")
    messages = []
    for processes in (1, 3):
        report = verify(path, replay=False, processes=processes, parallel_rows=1)
        messages.append(report.summary())
    assert messages[0] == messages[1]
    assert "gap: row 4: rows 3..3 are missing" in messages[0]


def test_a_long_journal_starts_checked_by_several_processes(sound, tmp_path, monkeypatch):
    path = _damaged(sound, tmp_path, "sound")
    monkeypatch.setattr(journal_module, "PARALLEL_CHAIN_ROWS", 1)
    monkeypatch.setattr(journal_module, "_chain_processes", lambda: 3)
    with Journal.open(path) as j:
        assert j.chain_processes == 3 and j.seq == _rows(path)
    monkeypatch.setattr(journal_module, "PARALLEL_CHAIN_ROWS", _rows(path) + 1)
    with Journal.open(path) as j:  # below the threshold: one process
        assert j.chain_processes == 1


@pytest.mark.parametrize("executable", ["/nonexistent/python3", "/bin/false"])
def test_workers_that_cannot_start_or_fail_leave_their_ranges_to_the_parent(
        sound, tmp_path, monkeypatch, executable):
    path = _damaged(sound, tmp_path, "damage everywhere")
    serial = verify(path, replay=False, processes=1)
    monkeypatch.setattr(sys, "executable", executable)
    parallel = verify(path, replay=False, processes=3, parallel_rows=1)
    assert parallel == serial
    assert parallel.chain_processes == 1


def test_a_frozen_interpreter_checks_in_one_process(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert journal_module._chain_processes() == 1
    monkeypatch.delattr(sys, "frozen")
    assert 1 <= journal_module._chain_processes() <= journal_module.MAX_CHAIN_PROCESSES


def test_a_stuck_worker_is_given_up_and_its_range_checked_by_the_parent(
        sound, tmp_path, monkeypatch):
    path = _damaged(sound, tmp_path, "damage everywhere")
    serial = verify(path, replay=False, processes=1)
    stuck = tmp_path / "stuck-python"
    stuck.write_text("#!/bin/sh\nexec sleep 60\n")
    stuck.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(stuck))
    monkeypatch.setattr(journal_module, "WORKER_GRACE_S", 0.5)
    began = time.monotonic()
    parallel = verify(path, replay=False, processes=3, parallel_rows=1)
    assert time.monotonic() - began < 20  # not the workers' 60 s
    assert parallel == serial
    assert parallel.chain_processes == 1


def test_the_message_sqlite_builds_is_the_one_row_hash_hashes(sound, tmp_path):
    from tablectl.journal_chain import _CHAIN_SQL

    path = _damaged(sound, tmp_path, "sound")
    with sqlite3.connect(path, isolation_level=None) as db:  # texts a row could hold
        db.execute("UPDATE journal SET extra = '' WHERE seq = 2")
        db.execute("UPDATE journal SET time = ? WHERE seq = 3", ("zero\x00byte ß",))
        db.execute("UPDATE journal SET command = '{\"player\":\"李 Zoë\"}' WHERE seq = 4")
    db = sqlite3.connect(path, isolation_level=None)
    try:
        texts = db.execute("SELECT seq, time, command, events, extra, prev_hash FROM journal "
                           "ORDER BY seq").fetchall()
        db.text_factory = bytes
        built = db.execute(_CHAIN_SQL + " ORDER BY seq").fetchall()
    finally:
        db.close()
    assert len(texts) == len(built) == _rows(path)
    for (seq, time_, command, events, extra, prev_hash), row in zip(texts, built, strict=True):
        expected = "\n".join((prev_hash, str(seq), time_, command, events, extra))
        assert row[3] == expected.encode("utf-8"), seq
