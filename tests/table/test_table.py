"""The Table's commands, state and event stream over a real SQLite journal (no camera)."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

from tablectl import table as table_module
from tablectl.game import RuleViolation
from tablectl.journal import Journal
from tablectl.table import Table, TableFault
from tests.support.tables import OPENING, play

COCKED = {"command": "await_ruling", "rule": "R-I2", "reason": "die 2 is cocked",
          "observation": {"dice": [{"value": 3, "cocked": False, "confidence": 0.99,
                                    "center": [300.0, 200.0]},
                                   {"value": None, "cocked": True, "confidence": 0.4,
                                    "center": [340.0, 210.0]}],
                          "warn_if_counted": "R-I3"}}


def committed_seq(path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT max(seq) FROM journal").fetchone()[0] or 0
    finally:
        conn.close()


def test_a_throw_that_counts_settles_the_center_bet(table):
    play(table, OPENING)
    events = table.submit({"command": "throw", "dice": [5, 6]})
    names = [e["event"] for e in events]
    assert names == ["come_out", "natural", "center_settled"]  # R-B2, R-C7
    view = table.state()
    assert view["seq"] == len(OPENING) + 1
    assert view["state"]["balances"] == {"ann": 110, "bob": 90}
    assert view["last_throw"]["kind"] == "counts"
    assert view["last_throw"]["throw"] == view["seq"]
    assert view["play_stopped"] is None and view["camera"]["ok"] and view["journal"]["ok"]


def test_subscribers_hear_only_what_is_on_disk(table, journal_path):
    play(table, OPENING)
    heard = []

    def listen():
        got = table.events_since(len(OPENING), timeout=5)
        # read through a connection of its own: the row must already be committed
        heard.append((got, committed_seq(journal_path)))

    t = threading.Thread(target=listen)
    t.start()
    time.sleep(0.1)
    table.submit({"command": "throw", "dice": [2, 2]})
    t.join(5)
    (got, on_disk), = heard
    assert [e["event"] for _, e in got] == ["come_out", "point_set"]
    assert {s for s, _ in got} == {len(OPENING) + 1} and on_disk == len(OPENING) + 1


def test_a_refusal_changes_nothing(table):
    play(table, OPENING)
    before = table.state()
    with pytest.raises(RuleViolation) as err:
        table.submit({"command": "fade", "player": "bob", "amount": 5})  # R-C6
    assert err.value.rule == "R-C6"
    assert table.state() == before
    assert table.events_since(before["seq"], timeout=0.05) == []


def test_events_since_times_out_and_replays_older_rows(journal_path, monkeypatch):
    monkeypatch.setattr(table_module, "EVENTS_KEPT", 2)
    with Table(Journal.open(journal_path)) as t:
        play(t, OPENING)
        start = time.monotonic()
        assert t.events_since(len(OPENING), timeout=0.2) == []
        assert time.monotonic() - start >= 0.19
        # rows 1..3 are no longer in memory: read back from the journal, in order
        got = t.events_since(0, timeout=0)
        assert [s for s, _ in got] == [1, 2, 3, 4, 5]
        assert got[0][1]["event"] == "joined" and got[-1][1]["event"] == "faded"


def test_journal_that_cannot_be_written_stops_play_and_resumes(table):
    play(table, OPENING)
    before = table.state()
    statuses = []
    t = threading.Thread(target=lambda: statuses.extend(
        table.events_since(before["seq"], timeout=5)))
    t.start()
    time.sleep(0.1)
    conn = table._journal._conn  # SQLite's own switch makes the write path read-only
    conn.execute("PRAGMA query_only = 1")
    with pytest.raises(TableFault, match="journal cannot be written"):
        table.submit({"command": "throw", "dice": [3, 4]})
    t.join(5)
    view = table.state()
    assert view["journal"]["ok"] is False and "read" in view["journal"]["fault"]
    assert view["play_stopped"].startswith("journal fault")
    assert view["state"] == before["state"] and view["seq"] == before["seq"]  # nothing changed
    assert statuses and statuses[0][1]["event"] == "table_status"
    assert statuses[0][1]["journal"]["ok"] is False
    conn.execute("PRAGMA query_only = 0")
    table.submit({"command": "throw", "dice": [3, 4]})
    view = table.state()
    assert view["journal"] == {"ok": True, "fault": None} and view["play_stopped"] is None
    assert view["seq"] == before["seq"] + 1


def test_operator_values_on_a_one_wall_throw_warn_the_shooter(table):
    play(table, OPENING)
    table.submit({"command": "dice_rolling"}, by="camera")
    table.submit(COCKED, by="camera")
    pending = table.state()["pending_ruling"]
    assert pending["throw"] == len(OPENING) + 2 and pending["rule"] == "R-I2"
    assert [d["cocked"] for d in pending["dice"]] == [False, True]
    with pytest.raises(RuleViolation):  # the next throw waits for the operator (R-I2)
        table.submit({"command": "throw", "dice": [1, 1]})
    events = table.submit({"command": "operator_ruling", "dice": [3, 4]}, by="operator")
    names = [e["event"] for e in events]
    assert names[0] == "operator_ruled" and "natural" in names and names[-1] == "warned"
    view = table.state()
    assert view["pending_ruling"] is None
    assert view["state"]["warnings"] == {"ann": {"R-I3": 1}}
    assert view["last_throw"]["kind"] == "operator" and view["last_throw"]["ruled"] == [3, 4]
    assert table.audit()[0]["who"] == "operator"


def test_a_voided_ruling_gives_no_warning(table):
    play(table, OPENING)
    table.submit(COCKED, by="camera")
    events = table.submit({"command": "operator_ruling", "void": True, "why": "cannot tell"},
                          by="operator")
    assert [e["event"] for e in events] == ["operator_ruled", "throw_void"]
    view = table.state()
    assert view["state"]["warnings"] == {} and view["last_throw"]["kind"] == "void"


def test_open_sanctions_are_shown_and_nothing_is_decided(table):
    play(table, OPENING + [{"command": "throw", "dice": [4, 4]}])
    table.submit({"command": "warn", "rule": "R-I3"})
    table.submit({"command": "throw", "dice": [2, 3]})
    table.submit({"command": "warn", "rule": "R-I3"})  # the repeat opens the sanction (R-I3)
    view = table.state()
    assert view["sanctions"] == {"ann": ["R-I3"]}
    assert view["state"]["shooter"] == "ann" and view["state"]["barred"] == []


def test_a_restart_resumes_a_pending_ruling(journal_path):
    with Table(Journal.open(journal_path)) as t:
        play(t, OPENING)
        t.submit(COCKED, by="camera")
        before = t.state()
    with Table(Journal.open(journal_path)) as t:
        after = t.state()
        assert after == before
        assert after["pending_ruling"]["throw"] == len(OPENING) + 1
        t.submit({"command": "operator_ruling", "dice": [6, 6]}, by="operator")
        assert t.state()["state"]["warnings"] == {"ann": {"R-I3": 1}}


def test_close_is_idempotent_and_ends_play(journal_path):
    t = Table(Journal.open(journal_path))
    t.close()
    t.close()
    with pytest.raises(TableFault, match="closed"):
        t.submit(OPENING[0])


def test_new_dice_are_read_with_their_own_profile(journal_path):
    from vision.simulator import Table as SimTable
    from vision.tracker import ThrowTracker

    pair0, pair1 = object(), object()  # a reader per pair (R-E2); only their identity matters
    tracker = ThrowTracker(SimTable((640, 480)).calibration, reader=pair0)
    with Table(Journal.open(journal_path), tracker=tracker, readers=[pair0, pair1]) as t:
        play(t, OPENING)
        events = t.submit({"command": "change_dice"})  # at the come-out: at once (R-X1)
        assert events[0]["event"] == "dice_changed" and events[0]["pair"] == 1
        assert tracker.reader is pair1
    tracker.reader = None
    with Table(Journal.open(journal_path), tracker=tracker, readers=[pair0, pair1]) as t:
        assert t.state()["state"]["dice_pair"] == 1 and tracker.reader is pair1


def test_the_lamps_hear_only_what_is_on_disk(journal_path):
    from tests.table.conftest import RecordingLights

    shown = []
    lights = RecordingLights(on_show=lambda states: shown.append(
        (dict(states), committed_seq(journal_path))))
    with Table(Journal.open(journal_path), lights=lights) as t:
        play(t, OPENING)
        t.submit({"command": "throw", "dice": [2, 2]})
        seq = t.state()["seq"]
    point = [(states, on_disk) for states, on_disk in shown if states.get("point_4") == "on"]
    assert point and point[0][1] == seq  # the point lamp lit once its throw was committed
    assert lights.closed


def test_dice_that_did_not_move_go_to_the_operator_with_an_alert(table):
    from vision.observation import DieObservation, ThrowObservation

    def lying(value, x):
        return DieObservation(value, 0.99, False, True, False, True, (x, 200.0), moved=False)

    play(table, OPENING)
    table.play_observation(ThrowObservation([lying(3, 300.0), lying(4, 360.0)], 10, 40,
                                            unmoved=2))
    view = table.state()
    assert view["pending_ruling"]["rule"] == "R-I2"
    assert view["alert"] == "2 dice did not move since the last throw: were the dice thrown?"
    assert view["lights"]["warning"] == "blink" and view["lights"]["ruling"] == "on"
    # the next throw waits for the operator: kept as refused (R-I2), the ruling still pending
    moved = [DieObservation(v, 0.99, False, True, False, True, (x, 220.0))
             for v, x in ((5, 280.0), (6, 380.0))]
    events = table.play_observation(ThrowObservation(moved, 60, 90))
    assert events[0]["event"] == "throw_refused" and events[0]["rule"] == "R-I2"
    assert table.state()["pending_ruling"]["throw"] == view["pending_ruling"]["throw"]
    table.submit({"command": "operator_ruling", "void": True, "why": "not thrown"},
                 by="operator")
    assert table.state()["alert"] is None


def test_an_override_of_the_last_throw_is_shown_on_that_throw(table):
    play(table, OPENING)
    table.submit({"command": "throw", "dice": [1, 1]})  # craps: the faders win (R-B3, R-C7)
    n = table.state()["seq"]
    events = table.submit({"command": "operator_ruling", "dice": [5, 6], "why": "misread"},
                          by="operator")
    assert events[0]["override"] is True and "natural" in [e["event"] for e in events]
    last = table.state()["last_throw"]
    assert last["throw"] == n and last["kind"] == "operator" and last["ruled"] == [5, 6]
    assert table.state()["state"]["balances"] == {"ann": 110, "bob": 90}


def test_a_restart_finds_a_ruling_asked_for_long_ago(journal_path):
    with Table(Journal.open(journal_path)) as t:
        play(t, OPENING)
        t.submit(COCKED, by="camera")
        n = t.state()["seq"]
        for i in range(450):  # the ruling waits while players come and go (R-O2, R-O3)
            t.submit({"command": "join", "player": f"guest{i}", "buy_in": 1})
    with Table(Journal.open(journal_path)) as t:
        assert t.state()["pending_ruling"]["throw"] == n


VOID_OUT = {"command": "void", "rule": "R-I1", "reason": "die 2 came to rest outside the area"}


def test_a_void_throw_made_to_count_settles_and_is_shown_on_that_throw(table):
    play(table, OPENING)
    table.submit({"command": "dice_rolling"}, by="camera")
    table.submit(VOID_OUT, by="camera")
    n = table.state()["seq"]
    assert table.state()["last_throw"]["kind"] == "void"
    events = table.submit({"command": "operator_ruling", "dice": [1, 1], "why": "it stayed in"},
                          by="operator")
    assert events[0]["previous"] == {"void": True, "rule": "R-I1",
                                     "reason": "die 2 came to rest outside the area"}
    last = table.state()["last_throw"]
    assert last["throw"] == n and last["kind"] == "operator" and last["ruled"] == [1, 1]
    # craps: bob's fade wins ann's 10 (R-B3, R-C7)
    assert table.state()["state"]["balances"] == {"ann": 90, "bob": 110}
    entry = table.audit()[-1]
    assert entry["kind"] == "override" and entry["previous"]["rule"] == "R-I1"
    assert table.recall(1)[0]["throws"][-1]["previous"]["void"] is True


def test_a_warning_right_after_a_void_keeps_it_open_and_a_restart_knows(journal_path):
    with Table(Journal.open(journal_path)) as t:
        play(t, OPENING)
        t.submit(VOID_OUT, by="camera")
        t.submit({"command": "warn", "rule": "R-I3"}, by="operator")
        before = t.state()
        assert before["last_throw"]["kind"] == "void" and before["last_throw"]["warned"] == "R-I3"
    with Table(Journal.open(journal_path)) as t:
        assert t.state() == before
        events = t.submit({"command": "operator_ruling", "dice": [5, 6], "why": "in"},
                          by="operator")
        assert "natural" in [e["event"] for e in events]
        assert "warned" not in t.state()["last_throw"]


def test_the_audit_names_rulings_overrides_and_who_sent_a_warning(table):
    play(table, OPENING)
    table.submit(COCKED, by="camera")  # one die hit the wall: R-I3 is due if it counts
    table.submit({"command": "operator_ruling", "dice": [2, 2], "why": "a 4"}, by="operator")
    table.submit({"command": "warn", "rule": "R-I3"}, by="camera")  # a repeat, from the camera
    table.submit({"command": "throw", "dice": [2, 5]})
    table.submit({"command": "operator_ruling", "dice": [2, 2], "why": "misread"},
                 by="operator")
    entries = table.audit()
    assert [(e["kind"], e["command"], e["who"]) for e in entries] == [
        ("ruling", "operator_ruling", "operator"),
        ("sanction", "warn", "table"),   # the warning the table adds by R-I3
        ("sanction", "warn", "camera"),
        ("override", "operator_ruling", "operator"),
    ]
    assert entries[-1]["previous"] == [2, 5]
