"""The journal: one committed transaction per accepted command, replay on open, the hash chain,
snapshots, and what a damaged or unwritable journal does."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl.game import CommandError, Game, RuleViolation, TableRules
from tablectl.journal import (
    SNAPSHOTS_KEPT,
    Journal,
    JournalError,
    canonical,
    read_rows,
    row_hash,
    verify,
)
from tests.journal.helpers import OPENING, file_bytes, same_state
from tests.support.journal_sessions import generate_session


class StepClock:
    """A wall clock for tests: 2026-01-01 00:00:00 UTC, one second more at each reading."""

    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def play(journal: Journal, commands: list[dict]) -> None:
    for command in commands:
        journal.apply(command)


def clean_game(commands: list[dict], rules: TableRules | None = None) -> Game:
    game = Game(rules=rules)
    for command in commands:
        game.apply(json.loads(canonical(command)))
    return game


def raw(path: Path) -> sqlite3.Connection:
    """A plain SQLite connection, to damage a journal the way an editor or a disk would."""
    return sqlite3.connect(path, isolation_level=None)


def leave_wal(path: Path, commands: list[dict]) -> None:
    """Play ``commands`` into the journal in a child that exits without closing it (like a power
    cut after the commits), so the rows stay in the -wal file."""
    code = (
        "import json, os, sys\n"
        "from tablectl.journal import Journal\n"
        "j = Journal.open(sys.argv[1])\n"
        "for line in sys.stdin:\n"
        "    j.apply(json.loads(line))\n"
        "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, text=True,
                   input="".join(json.dumps(c) + "\n" for c in commands),
                   cwd=Path(__file__).resolve().parents[2])


# --------------------------------------------------------------------------- writing and replay

def test_storage_settings_wal_and_full_sync(journal_path):
    with Journal.open(journal_path) as j:
        settings = j.settings()
    assert settings["journal_mode"] == "wal"
    assert settings["synchronous"] == 2  # FULL: the WAL is synced at every commit
    assert settings["user_version"] == 1


def test_commands_replay_to_the_same_state_after_reopen(journal_path):
    commands = generate_session(3, 60)
    with Journal.open(journal_path) as j:
        play(j, commands)
        before = canonical(j.game.snapshot())
        assert j.seq == len(commands)
    with Journal.open(journal_path) as j:
        assert canonical(j.game.snapshot()) == before
        assert same_state(j.game, clean_game(commands))
        assert j.seq == len(commands)
    assert [r.command for r in read_rows(journal_path)] == [
        json.loads(canonical(c)) for c in commands]


def test_each_row_keeps_events_time_and_throw_extras(journal_path):
    clock = StepClock()
    observation = {"dice": [{"value": 3, "hit_wall": True}, {"value": 4, "hit_wall": True}]}
    with Journal.open(journal_path, clock=clock) as j:
        play(j, OPENING[:-1])
        events = j.apply(OPENING[-1], observation=observation, image="snaps/throw-7.png")
    rows = list(read_rows(journal_path))
    last = rows[-1]
    assert last.events == events and any(e["event"] == "natural" for e in events)
    assert last.extra == {"observation": observation, "image": "snaps/throw-7.png"}
    # the clock is read once per row; creation read it first
    assert [r.time for r in rows[:2]] == ["2026-01-01T00:00:02.000000Z",
                                          "2026-01-01T00:00:03.000000Z"]


def test_refused_command_writes_nothing_and_changes_nothing(journal_path):
    with Journal.open(journal_path) as j:
        play(j, OPENING[:5])  # ann shoots 20
        state = canonical(j.game.snapshot())
        with pytest.raises(RuleViolation) as refused:  # R-C6: more than the shooter's bet
            j.apply({"command": "fade", "player": "bob", "amount": 25})
        assert refused.value.rule == "R-C6"
        with pytest.raises(CommandError):
            j.apply({"command": "fade", "player": "bob", "amount": {1, 2}})  # not JSON
        assert j.seq == 5 and canonical(j.game.snapshot()) == state
    assert [r.seq for r in read_rows(journal_path)] == [1, 2, 3, 4, 5]


def test_rows_chain_their_hashes(journal_path):
    with Journal.open(journal_path) as j:
        play(j, OPENING)
    rows = list(read_rows(journal_path))
    for before, row in zip(rows, rows[1:], strict=False):
        assert row.prev_hash == before.hash
    last = rows[-1]
    assert last.hash == row_hash(last.prev_hash, last.seq, last.time, canonical(last.command),
                                 canonical(last.events), canonical(last.extra))


def test_waiting_for_a_ruling_survives_a_restart(journal_path):
    with Journal.open(journal_path) as j:
        play(j, OPENING[:6])
        j.apply({"command": "await_ruling", "rule": "R-I2", "reason": "a die is cocked"})
    with Journal.open(journal_path) as j:
        assert j.game.state()["awaiting_ruling"]["rule"] == "R-I2"
        with pytest.raises(RuleViolation) as refused:  # no throw until the operator rules
            j.apply({"command": "throw", "dice": [3, 4]})
        assert refused.value.rule == "R-I2"
        events = j.apply({"command": "operator_ruling", "by": "olga", "why": "4 on top",
                          "dice": [3, 4]})
        assert [e["event"] for e in events][:3] == ["operator_ruled", "come_out", "natural"]


@pytest.mark.parametrize("every", [1, 1000])
def test_a_void_throw_can_be_made_to_count_after_a_restart(journal_path, every):
    """From a snapshot taken right after the void (every command), or from the rows replayed:
    the void's record is there, and verify replays the override to the events recorded."""
    void = {"command": "void", "rule": "R-I1", "reason": "die 2 came to rest outside the area"}
    with Journal.open(journal_path, snapshot_every=every) as j:
        play(j, OPENING[:6] + [void])
    with Journal.open(journal_path, snapshot_every=every) as j:
        assert j.replayed == (0 if every == 1 else len(OPENING[:6]) + 1)
        events = j.apply({"command": "operator_ruling", "by": "olga", "why": "it stayed in",
                          "dice": [5, 6]})
        assert events[0]["previous"] == {"void": True, "rule": "R-I1",
                                         "reason": "die 2 came to rest outside the area"}
        assert [e["event"] for e in events][1:3] == ["come_out", "natural"]
    report = verify(journal_path)
    assert report.ok and report.replayed


def test_snapshots_start_from_the_newest_and_old_ones_are_dropped(journal_path):
    commands = generate_session(5, 40)
    with Journal.open(journal_path, snapshot_every=10) as j:
        play(j, commands)
    n = len(commands)
    with Journal.open(journal_path, snapshot_every=10) as j:
        assert j.resumed_from == n - n % 10
        assert j.replayed == n % 10
        assert same_state(j.game, clean_game(commands))
    with raw(journal_path) as db:
        kept = [s for (s,) in db.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert kept == [n - n % 10 - 10 * k for k in reversed(range(SNAPSHOTS_KEPT))]
    report = verify(journal_path)
    assert report.ok and report.replayed and report.snapshots == SNAPSHOTS_KEPT


def test_rules_are_recorded_and_other_rules_are_refused(journal_path):
    rules = TableRules(warnings_before_sanction=0)
    with Journal.open(journal_path, rules=rules) as j:
        play(j, OPENING)
    with Journal.open(journal_path) as j:  # None: the journal's own rules
        assert j.game.rules == rules
    with pytest.raises(JournalError, match="other table rules"):
        Journal.open(journal_path, rules=TableRules())


def test_a_second_writer_is_refused(journal_path):
    with Journal.open(journal_path) as first, Journal.open(journal_path) as second:
        first.apply(OPENING[0])
        state = canonical(second.game.snapshot())
        with pytest.raises(JournalError, match="another process"):
            second.apply(OPENING[1])
        assert canonical(second.game.snapshot()) == state  # restored: memory matches disk
    assert [r.seq for r in read_rows(journal_path)] == [1]


def test_creation_cut_off_before_its_first_commit_starts_anew(journal_path):
    # an SQLite file in WAL mode with no table: what a crash inside the creation leaves
    with raw(journal_path) as db:
        db.execute("PRAGMA journal_mode=WAL")
    report = verify(journal_path)
    assert report.ok and report.rows == 0
    assert list(read_rows(journal_path)) == []
    with Journal.open(journal_path) as j:
        play(j, OPENING)
    assert verify(journal_path).ok


# --------------------------------------------------------------------------- damage is detected

def _seven_rows(path: Path) -> None:
    with Journal.open(path) as j:
        play(j, OPENING)


def _damage_refuses_start(path: Path, kind: str, seq: int | None) -> None:
    report = verify(path)
    assert not report.ok
    assert (kind, seq) in [(p.kind, p.seq) for p in report.problems], report.summary()
    before = file_bytes(path)
    with pytest.raises(JournalError) as err:
        Journal.open(path)
    message = str(err.value)
    assert "damaged" in message and "journal verify" in message and "journal export" in message
    assert file_bytes(path) == before  # never reset, repaired or overwritten


def test_an_edited_row_is_detected(journal_path):
    _seven_rows(journal_path)
    with raw(journal_path) as db:  # bob "faded" 2 instead of 20
        db.execute("UPDATE journal SET command = replace(command, '\"amount\":20', "
                   "'\"amount\":2') WHERE seq = 6")
    _damage_refuses_start(journal_path, "hash", 6)


def test_a_missing_row_is_a_gap(journal_path):
    _seven_rows(journal_path)
    with raw(journal_path) as db:
        db.execute("DELETE FROM journal WHERE seq = 4")
    _damage_refuses_start(journal_path, "gap", 5)


def test_a_duplicated_row_is_detected(journal_path):
    _seven_rows(journal_path)
    with raw(journal_path) as db:  # the throw recorded a second time
        db.execute("INSERT INTO journal SELECT 8, time, command, events, extra, prev_hash, hash "
                   "FROM journal WHERE seq = 7")
    _damage_refuses_start(journal_path, "link", 8)


def test_rows_lost_from_the_end_are_detected(journal_path):
    _seven_rows(journal_path)
    with raw(journal_path) as db:
        db.execute("DELETE FROM journal WHERE seq = 7")
    _damage_refuses_start(journal_path, "head", 7)


def test_an_edited_snapshot_is_detected(journal_path):
    with Journal.open(journal_path, snapshot_every=3) as j:
        play(j, OPENING)
    with raw(journal_path) as db:
        db.execute("UPDATE snapshots SET state = replace(state, '200', '900') WHERE seq = 6")
    _damage_refuses_start(journal_path, "snapshot", 6)


def test_a_truncated_wal_is_refused_and_left_as_found(journal_path):
    leave_wal(journal_path, OPENING)
    wal = journal_path.with_name(journal_path.name + "-wal")
    assert wal.stat().st_size > 0
    with wal.open("r+b") as fh:  # cut the last commits off, in the middle of a frame
        fh.truncate(wal.stat().st_size - 3000)
    before = file_bytes(journal_path)
    with pytest.raises(JournalError) as err:
        Journal.open(journal_path)
    assert "committed but are gone" in str(err.value)
    assert "-wal" in str(err.value)
    assert file_bytes(journal_path) == before


def test_an_intact_wal_left_by_a_power_cut_resumes(journal_path):
    leave_wal(journal_path, OPENING)
    with Journal.open(journal_path) as j:
        assert j.seq == len(OPENING)
        assert same_state(j.game, clean_game(OPENING))


def test_a_newer_schema_is_refused_unchanged(journal_path):
    _seven_rows(journal_path)
    with raw(journal_path) as db:
        db.execute("PRAGMA user_version = 2")
    before = file_bytes(journal_path)
    with pytest.raises(JournalError, match="newer tablectl"):
        Journal.open(journal_path)
    with pytest.raises(JournalError, match="newer tablectl"):
        verify(journal_path)
    assert file_bytes(journal_path) == before


def test_files_that_are_not_journals_are_refused(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("ann 20, bob fades\n" * 50)
    with pytest.raises(JournalError, match="not a tablectl journal"):
        Journal.open(text)
    assert text.read_text() == "ann 20, bob fades\n" * 50
    other = tmp_path / "other.db"
    with raw(other) as db:
        db.execute("CREATE TABLE songs(name TEXT)")
    with pytest.raises(JournalError, match="not a tablectl journal"):
        Journal.open(other)
    with pytest.raises(JournalError, match="does not exist"):
        verify(tmp_path / "missing.db")
    with pytest.raises(JournalError, match="directory .* does not exist"):
        Journal.open(tmp_path / "no" / "such" / "dir.db")


# --------------------------------------------------------------------------- unwritable disks

def _refuse_writes_then_recover(j: Journal, path: Path, block, unblock, cause: str) -> None:
    """With writes blocked, a command is not recorded, the game keeps its state and the error
    says why; once unblocked, play goes on and the chain is sound."""
    play(j, OPENING[:5])
    state = canonical(j.game.snapshot())
    block()
    with pytest.raises(JournalError) as err:  # a long observation: the row needs new pages
        j.apply({"command": "fade", "player": "bob", "amount": 20},
                observation={"note": "x" * 20_000})
    assert cause in str(err.value) and "NOT recorded" in str(err.value)
    assert canonical(j.game.snapshot()) == state and j.seq == 5
    unblock()
    j.apply({"command": "fade", "player": "bob", "amount": 20})
    j.apply({"command": "throw", "dice": [6, 5]})
    assert j.seq == 7
    report = verify(path)
    assert report.ok, report.summary()


def test_read_only_journal_refuses_commits_cleanly(journal_path):
    with Journal.open(journal_path) as j:
        conn = j._conn  # the write path: SQLite's own query_only switch makes it read-only
        _refuse_writes_then_recover(
            j, journal_path, lambda: conn.execute("PRAGMA query_only = 1"),
            lambda: conn.execute("PRAGMA query_only = 0"), "read-only")


def test_full_disk_refuses_commits_cleanly(journal_path):
    with Journal.open(journal_path) as j:
        conn = j._conn  # the write path: SQLite's page limit gives the real SQLITE_FULL

        def block() -> None:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages}")

        _refuse_writes_then_recover(
            j, journal_path, block, lambda: conn.execute("PRAGMA max_page_count = 1073741823"),
            "disk is full")


def test_a_lost_journal_is_not_silently_started_anew(journal_path):
    _seven_rows(journal_path)
    journal_path.unlink()  # the database gone, its head record left: a lost journal
    with pytest.raises(JournalError, match="lost or truncated"):
        Journal.open(journal_path)
    assert not journal_path.exists()
    journal_path.with_name(journal_path.name + "-head").unlink()  # the operator's decision
    with Journal.open(journal_path) as j:
        assert j.seq == 0


def test_commands_from_several_threads_are_committed_one_at_a_time(journal_path):
    import threading

    with Journal.open(journal_path) as j:
        def seat(prefix: str) -> None:
            for n in range(15):
                j.apply({"command": "join", "player": f"{prefix}{n}", "buy_in": 10})

        threads = [threading.Thread(target=seat, args=(p,)) for p in "abcd"]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert j.seq == 60 and j.game.money_total() == 600
    report = verify(journal_path)
    assert report.ok and report.rows == 60


def test_a_damaged_page_stops_the_start_and_export_saves_the_sound_rows(journal_path):
    import io

    from tablectl.journal import export_commands

    commands = generate_session(2, 120)
    with Journal.open(journal_path) as j:
        play(j, commands)
    size = journal_path.stat().st_size
    with journal_path.open("r+b") as fh:  # a bad sector in the middle of the file
        fh.seek(size // 2)
        fh.write(b"\xff" * 300)
    report = verify(journal_path)
    assert not report.ok
    assert any(p.kind == "integrity" for p in report.problems)
    with pytest.raises(JournalError, match="damaged"):
        Journal.open(journal_path)
    out = io.StringIO()
    written, _ = export_commands(journal_path, out)
    assert written == report.sound_seq < len(commands)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [
        json.loads(canonical(c)) for c in commands[:written]]


def test_head_record_lagging_after_a_crash_is_fine_but_a_foreign_one_is_not(journal_path,
                                                                              tmp_path):
    from tablectl.journal import _encode_head

    _seven_rows(journal_path)
    rows = list(read_rows(journal_path))
    head = journal_path.with_name(journal_path.name + "-head")
    # killed between the commit of row 7 and the head record's update
    head.write_bytes(_encode_head(6, rows[5].hash))
    report = verify(journal_path)
    assert report.ok and report.head_record == "behind"
    with Journal.open(journal_path) as j:
        assert j.seq == 7
    assert verify(journal_path).head_record == "ok"  # rewritten at open
    # a torn head record (power cut while writing it) cannot name rows: read as unknown
    head.write_bytes(b"tablectl-head 1 7 " + b"\0" * 40)
    assert verify(journal_path).head_record == "unreadable"
    with Journal.open(journal_path) as j:
        assert j.seq == 7
    # another journal of the same length put in its place: the head names another row 7
    other = tmp_path / "other.db"
    with Journal.open(other, clock=StepClock()) as j:
        play(j, OPENING)
    head.write_bytes(_encode_head(7, rows[6].hash))
    other.with_name("other.db-head").write_bytes(head.read_bytes())
    report = verify(other)
    assert [(p.kind, p.seq) for p in report.problems] == [("head", 7)]
    with pytest.raises(JournalError, match="rewritten"):
        Journal.open(other)
