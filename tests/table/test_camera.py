"""End to end: simulated throws through the whole Table (tracker, dice reader, rulings, game)
into a real SQLite journal, with the pictures saved and served."""

from __future__ import annotations

import pytest

from tablectl.journal import Journal, verify
from tablectl.table import Table
from tests.support.tables import OPENING, play
from tests.table.clips import S, ScriptedCamera, session, source_done, wait_until

pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def reader():
    from vision.dice import DiceReader

    return DiceReader()


@pytest.fixture(scope="module")
def evening():
    # seed 7 reads: 3+2 (point 5), void R-I3, 3+2 one wall (point made, R-I3), void R-I1,
    # a die cocked on the other (3+3), a die cocked against the wall (2+3)
    return session(7, [S.BOTH_HIT, S.NONE_HITS, S.ONE_HITS, S.OUT_OF_AREA, S.COCKED_DIE,
                       S.COCKED_WALL])


def camera_table(path, clips, reader, **kw):
    camera = ScriptedCamera(clips, **{k: v for k, v in kw.items() if k in ("hooks", "fault_at")})
    t = Table(Journal.open(path), source=camera, calibration=clips[0].calibration,
              readers=[reader], reopen_backoff=(0.05, 0.2))
    return t, camera


def camera_rows(table):
    return [(r.command["command"], r) for r in table.journal_rows() if r.extra.get("by") == "camera"]


def test_an_evening_of_throws(journal_path, evening, reader):
    answers = []

    def operator_rules_the_cocked_die():
        wait_until(lambda: t.state()["pending_ruling"] is not None)
        answers.append(t.state()["pending_ruling"])
        t.submit({"command": "operator_ruling", "dice": [3, 3], "why": "die leans on the other"},
                 by="operator")

    t, camera = camera_table(journal_path, evening, reader,
                             hooks={5: operator_rules_the_cocked_die})
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        throws = [(name, r) for name, r in camera_rows(t) if name != "dice_rolling"]
        names = [name for name, _ in throws]
        assert names == ["throw", "void", "throw", "warn", "void", "await_ruling",
                         "await_ruling"]
        by_name = iter(r for _, r in throws)
        first = next(by_name)
        assert first.command["dice"] == [3, 2]
        assert [e["event"] for e in first.events] == ["come_out", "point_set"]  # R-B4
        void = next(by_name)
        assert void.command["rule"] == "R-I3" and [e["event"] for e in void.events] == [
            "throw_void"]
        made = next(by_name)
        assert made.command["dice"] == [3, 2]  # one die hit the wall: counts (R-I3)
        settled = [e for e in made.events if e["event"] == "center_settled"]
        assert settled and settled[0]["winner"] == "dice"  # R-B5, R-C7
        assert next(by_name).events[0] == {"event": "warned", "player": "ann", "rule": "R-I3",
                                           "count": 1}
        out = next(by_name)
        assert out.command["rule"] == "R-I1"
        cocked = next(by_name)
        assert "cocked" in cocked.command["reason"]
        # every throw row keeps the camera's observation and a picture served as a PNG
        for _, r in throws:
            if r.command["command"] != "warn":
                assert r.extra["observation"]["dice"]
                assert t.throw_image(r.seq)[:8] == b"\x89PNG\r\n\x1a\n"
        assert answers[0]["throw"] == cocked.seq
        assert answers[0]["image"] == f"/api/throws/{cocked.seq}/image"
        assert any(d["cocked"] for d in answers[0]["dice"])
        ruled = [r for r in t.journal_rows() if r.command["command"] == "operator_ruling"][0]
        assert ruled.seq == cocked.seq + 1 and ruled.command["by"] == "operator"
        view = t.state()
        # the second cocked throw waits for the operator; the balances are the point made
        assert view["pending_ruling"]["throw"] == throws[-1][1].seq
        assert view["last_throw"]["kind"] == "operator"
        assert view["state"]["balances"] == {"ann": 110, "bob": 90}
        events = t.submit({"command": "operator_ruling", "void": True, "why": "cannot tell"},
                          by="operator")
        assert [e["event"] for e in events] == ["operator_ruled", "throw_void"]
        assert t.state()["pending_ruling"] is None
    assert verify(journal_path).ok


def test_a_pending_ruling_refuses_the_next_throw(journal_path, evening, reader):
    t, _ = camera_table(journal_path, evening[4:6], reader)
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        rows = [r for name, r in camera_rows(t) if name != "dice_rolling"]
        assert [r.command["command"] for r in rows] == ["await_ruling", "refused_throw"]
        refused = rows[1]
        assert refused.command["rule"] == "R-I2"
        assert refused.events[0]["event"] == "throw_refused"
        assert refused.extra["observation"] and t.throw_image(refused.seq)
        view = t.state()
        assert view["pending_ruling"]["throw"] == rows[0].seq  # still the first throw
        assert view["pending_ruling"]["raw_image"] == f"/api/throws/{rows[0].seq}/raw"
        assert view["last_throw"]["kind"] == "refused"
        # the throw for the operator keeps its rest frame as taken, for `tablectl dice learn`
        # and the console's close-ups; a refused throw has none
        assert t.throw_image(rows[0].seq, raw=True) != t.throw_image(rows[0].seq)
        assert t.throw_image(rows[0].seq, raw=True)[:8] == b"\x89PNG\r\n\x1a\n"
        assert t.throw_image(refused.seq, raw=True) is None
        import cv2

        t.close()  # every picture written
        raw = cv2.imread(rows[0].extra["raw_image"])
        annotated = cv2.imread(rows[0].extra["image"])
        assert raw.shape == annotated.shape == (480, 640, 3)
        assert (raw != annotated).any()  # the outlines are drawn on the annotated one only
        assert "raw_image" not in refused.extra


def test_nobody_seated_the_throw_is_kept_as_refused(journal_path, evening, reader):
    t, _ = camera_table(journal_path, evening[:1], reader)
    with t:
        t.start()
        wait_until(lambda: source_done(t))
        (name, row), = camera_rows(t)
        assert name == "refused_throw" and row.command["rule"] == "R-O1"
        assert row.command["dice"] == [3, 2] and t.state()["state"]["throws"] == 0


def test_a_camera_fault_mid_throw_invents_nothing_and_play_resumes(journal_path, evening,
                                                                   reader):
    seen = {}

    def after_the_fault():
        seen["state"] = t.state()

    # clip 1 (a throw that would be void) is cut 10 frames after the dice were let go
    cut = evening[1].truth["release_frame"] + 10
    t, camera = camera_table(journal_path, [evening[0], evening[1], evening[2]], reader,
                             fault_at=(1, cut), hooks={2: after_the_fault})
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        during = seen["state"]
        assert during["camera"]["ok"] is False and "stopped delivering" in during["camera"][
            "fault"]
        assert during["play_stopped"].startswith("camera fault")
        assert camera.opened == 2  # reopened after the back-off
        throws = [r for name, r in camera_rows(t) if name not in ("dice_rolling", "warn")]
        # the first throw and the one after the camera came back; nothing for the cut one
        assert [r.command["command"] for r in throws] == ["throw", "throw"]
        assert [r.command["dice"] for r in throws] == [[3, 2], [3, 2]]
        assert during["seq"] < throws[1].seq


def test_a_throw_seen_while_the_journal_cannot_be_written_is_held_then_kept(
        journal_path, evening, reader):
    seen = {}

    def journal_goes_read_only():
        t._journal._conn.execute("PRAGMA query_only = 1")  # SQLite's own switch

    def journal_comes_back():
        wait_until(lambda: not t.state()["journal"]["ok"])
        seen["during"] = t.state()
        t._journal._conn.execute("PRAGMA query_only = 0")
        # the held throw is retried on the first frame after its back-off; unpaced frames could
        # all come before it and end the source with the throw still held
        if t._held is not None:
            deadline = t._held[-1]
            wait_until(lambda: t._clock() >= deadline)

    t, _ = camera_table(journal_path, evening[:3], reader,
                        hooks={0: journal_goes_read_only, 2: journal_comes_back})
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        during = seen["during"]
        assert during["play_stopped"].startswith("journal fault")
        assert during["seq"] == len(OPENING)  # nothing was recorded meanwhile
        first = [r for name, r in camera_rows(t) if name == "throw"][0]
        # the throw of clip 0, seen while the journal was read-only, with its observation
        assert first.command["dice"] == [3, 2] and first.extra["observation"]["dice"]
        assert t.state()["journal"] == {"ok": True, "fault": None}


def test_a_third_die_goes_to_the_operator_with_an_alert(journal_path, reader):
    clips = session(4, [S.EXTRA_DIE])
    t, _ = camera_table(journal_path, clips, reader)
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        view = t.state()
        assert view["pending_ruling"] is not None and view["pending_ruling"]["rule"] == "R-I2"
        assert "3 dice" in view["alert"]
        assert view["lights"]["warning"] == "blink"  # the alert (its source has ended: fault)
        t.submit({"command": "operator_ruling", "void": True, "why": "a stray die"},
                 by="operator")
        assert t.state()["alert"] is None
