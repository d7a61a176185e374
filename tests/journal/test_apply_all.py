"""Journal.apply_all: many commands committed in one transaction write the rows, snapshots and
state that ``apply`` one by one writes, or nothing at all."""

from __future__ import annotations

import sqlite3

import pytest

from tablectl.game import CommandError, RuleViolation
from tablectl.journal import Journal, JournalError, canonical, read_rows, verify
from tests.journal.test_journal import StepClock
from tests.support.journal_sessions import generate_session


def rows_and_snapshots(path):
    rows = [(r.seq, r.time, r.command, r.events, r.extra, r.prev_hash, r.hash)
            for r in read_rows(path)]
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        snapshots = conn.execute("SELECT * FROM snapshots ORDER BY seq").fetchall()
    finally:
        conn.close()
    return rows, snapshots


def test_apply_all_writes_what_apply_one_by_one_writes(tmp_path):
    commands = generate_session(5, 80)
    one, many = tmp_path / "one.db", tmp_path / "many.db"
    with Journal.open(one, clock=StepClock(), snapshot_every=50) as j:
        for command in commands:
            j.apply(command)
    with Journal.open(many, clock=StepClock(), snapshot_every=50) as j:
        # the meta table's creation time is the first reading of both clocks: same genesis
        assert j.apply_all(commands) == len(commands)
        assert j.seq == len(commands)
        state = canonical(j.game.snapshot())
    assert rows_and_snapshots(many) == rows_and_snapshots(one)
    assert verify(many).ok
    with Journal.open(many) as j:  # resumes from its newest snapshot, as any journal
        assert canonical(j.game.snapshot()) == state
        assert j.resumed_from > 0


def test_a_refused_command_in_apply_all_writes_none_of_them(tmp_path):
    path = tmp_path / "t.db"
    commands = generate_session(6, 20)
    with Journal.open(path, snapshot_every=7) as j:
        j.apply_all(commands[:10])
        before = canonical(j.game.snapshot())
        refused = {"command": "throw", "dice": [9, 9]}
        with pytest.raises(CommandError) as caught:
            j.apply_all(commands[10:] + [refused])
        assert "dice" in str(caught.value)
        assert j.seq == 10
        assert canonical(j.game.snapshot()) == before  # the game as before the batch
        j.apply_all(commands[10:])  # and it plays on from there
        assert j.seq == len(commands)
    assert [r.command["command"] for r in read_rows(path)] == [c["command"] for c in commands]
    assert verify(path).ok


def test_apply_all_refuses_when_another_process_wrote_the_journal(tmp_path):
    path = tmp_path / "t.db"
    commands = generate_session(7, 10)
    with Journal.open(path) as j:
        j.apply(commands[0])
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("INSERT INTO journal(seq, time, command, events, extra, prev_hash, hash) "
                      "VALUES (2, 't', '{}', '[]', '{}', 'x', 'y')")
        other.close()
        with pytest.raises(JournalError, match="another process"):
            j.apply_all(commands[1:])
        assert j.seq == 1


def test_the_chain_check_hashes_names_beyond_ascii_as_they_are_written(tmp_path):
    # the check hashes the stored UTF-8 bytes; the writer hashes the text: the same message
    path = tmp_path / "t.db"
    commands = [{"command": "join", "player": name, "buy_in": 100}
                for name in ("Zoë", "Jürgen", "Ñandú", "李")]
    commands.append({"command": "shooter", "player": "Zoë"})
    with Journal.open(path) as j:
        j.apply_all(commands)
    report = verify(path)
    assert report.ok and report.rows == 5 and report.sound_seq == 5
    with sqlite3.connect(path, isolation_level=None) as db:  # Jürgen becomes Jurgen
        db.execute("UPDATE journal SET command = replace(command, 'Jürgen', 'Jurgen') "
                   "WHERE seq = 2")
    report = verify(path)
    assert [(p.kind, p.seq) for p in report.problems] == [("hash", 2)]
    assert report.sound_seq == 1


# --------------------------------------------------------------------------- apply_batch

def test_apply_batch_commits_the_accepted_and_returns_each_refusal(tmp_path):
    """A refused command in a batch writes nothing and is returned as its RuleViolation (with
    the rule it cites); the others are committed, rows as ``apply`` writes them one by one."""
    commands = generate_session(8, 40)
    refused = {"command": "fade", "player": "nobody", "amount": 5}  # not seated (R-O1 area)
    batch = commands[:20] + [refused] + commands[20:]
    one, many = tmp_path / "one.db", tmp_path / "many.db"
    with Journal.open(one, clock=StepClock(), snapshot_every=9) as j:
        for command in commands:
            j.apply(command)
    with Journal.open(many, clock=StepClock(), snapshot_every=9) as j:
        results = j.apply_batch(batch)
        assert j.seq == len(commands)
    assert len(results) == len(batch)
    assert isinstance(results[20], RuleViolation) and results[20].rule.startswith("R-")
    assert all(type(r) is list for i, r in enumerate(results) if i != 20)
    assert rows_and_snapshots(many) == rows_and_snapshots(one)
    assert verify(many).ok


def test_a_malformed_command_in_apply_batch_commits_none_of_them(tmp_path):
    path = tmp_path / "t.db"
    commands = generate_session(9, 20)
    with Journal.open(path) as j:
        j.apply_batch(commands[:10])
        before = canonical(j.game.snapshot())
        with pytest.raises(CommandError):
            j.apply_batch(commands[10:15] + [{"command": "throw", "dice": [9, 9]}])
        assert j.seq == 10 and canonical(j.game.snapshot()) == before
        j.apply_batch(commands[10:])
    assert [r.command["command"] for r in read_rows(path)] == [c["command"] for c in commands]
    assert verify(path).ok
