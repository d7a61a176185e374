"""The journal replays its rows through Game.replay (verify, a start) and rebuilds through
Game.rebuild (after a failed commit): a row this engine refuses, or whose events differ, is
named by its seq; snapshots taken after a throw (its undo record) still verify; and the state
a failed commit rebuilds keeps the last throw open to the operator's override (R-I2)."""

from __future__ import annotations

import pytest

from tablectl.journal import Journal, JournalError, canonical, verify
from tests.journal.helpers import OPENING, rewrite_command
from tests.support.journal_sessions import generate_session


def written(path, commands, **options):
    with Journal.open(path, **options) as j:
        for c in commands:
            j.apply(c)


def test_rewriting_a_row_as_it_was_leaves_a_sound_journal(journal_path):
    written(journal_path, OPENING, snapshot_every=3)
    rewrite_command(journal_path, 5, OPENING[4])  # the helper itself: the same command
    report = verify(journal_path)
    assert report.ok and report.replayed, report.summary()


@pytest.mark.parametrize(("seq", "command", "says"), [
    (5, {"command": "center_bet", "amount": 5000}, "refuses the recorded command now"),
    (7, {"command": "throw", "dice": [3, 9]}, "refuses the recorded command now"),
    (7, {"command": "throw", "dice": [5, 6]}, "other events than the recorded ones"),
])
def test_verify_names_the_row_the_replay_stops_at(journal_path, seq, command, says):
    written(journal_path, OPENING)
    rewrite_command(journal_path, seq, command)
    report = verify(journal_path)
    assert [(p.kind, p.seq) for p in report.problems] == [("replay", seq)]
    assert says in report.problems[0].message
    assert not report.replayed


@pytest.mark.parametrize(("seq", "command", "says"), [
    (5, {"command": "center_bet", "amount": 5000}, "replaying row 5 fails"),
    (7, {"command": "throw", "dice": [5, 6]}, "replaying row 7 gives other events"),
])
def test_a_start_names_the_row_its_replay_stops_at(journal_path, seq, command, says):
    written(journal_path, OPENING)
    rewrite_command(journal_path, seq, command)
    with pytest.raises(JournalError, match=says):
        Journal.open(journal_path)


def test_snapshots_after_throws_verify_and_a_start_resumes_from_them(journal_path):
    commands = generate_session(5, 80)
    written(journal_path, commands, snapshot_every=3)
    report = verify(journal_path)
    assert report.ok and report.replayed, report.summary()
    assert report.snapshots > 0
    with Journal.open(journal_path) as j:
        resumed = canonical(j.game.snapshot())
    with Journal.open(journal_path, snapshot_every=10**6) as j:  # the same, replayed
        assert canonical(j.game.snapshot()) == resumed


def test_a_failed_commit_rebuilds_the_state_and_keeps_the_last_throw_overridable(
        journal_path):
    with Journal.open(journal_path, snapshot_every=10**6) as j:
        for c in OPENING:  # the last is a throw: 3-4, a natural
            j.apply(c)
        before = canonical(j.game.snapshot())
        conn = j._conn
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's real SQLITE_FULL
        ruling = {"command": "operator_ruling", "by": "op", "why": "cocked", "dice": [1, 1]}
        with pytest.raises(JournalError):  # a long observation: the row needs new pages
            j.apply(ruling, observation={"note": "x" * 20_000})
        assert canonical(j.game.snapshot()) == before  # rebuilt: the undo record too
        conn.execute("PRAGMA max_page_count = 1073741823")
        events = j.apply(ruling)  # R-I2: the override still applies to the throw
    assert events[0]["override"] and events[0]["previous"] == [3, 4]
    assert any(e["event"] == "craps" for e in events)
