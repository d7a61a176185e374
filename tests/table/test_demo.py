"""The demo: its players keep the table alive, its camera shows every case, and
``tablectl demo`` runs as a process with the dashboard until SIGTERM."""

from __future__ import annotations

import json
import random
import time
import urllib.request

from tablectl.demo.camera import SimulatedCamera
from tablectl.demo.players import NAMES, DemoPlayers
from tablectl.game import RuleViolation
from tablectl.journal import Journal
from tablectl.table import Table
from tests.table.clips import S, wait_until
from tests.table.test_run import ROOT, free_port
from vision.dice import DiceReader

KINDS = {"line", "point", "come", "hardway", "number", "proposition"}


def test_the_players_bet_every_way_between_throws(journal_path):
    """Scripted throws (no camera): the players seat, shoot in turn, bet, fade, call off."""
    rng = random.Random(5)
    with Table(Journal.open(journal_path)) as t:
        players = DemoPlayers(t, camera=None, speed=50.0, seed=3)
        players.start()
        try:
            for _ in range(160):
                wait_until(lambda: players.ready(0.0), timeout=20)
                try:
                    t.submit({"command": "dice_rolling"})
                except RuleViolation as exc:  # kept as the camera would (the players go on)
                    t.submit({"command": "refused_throw", "rule": exc.rule, "reason": "test"})
                    continue
                t.submit({"command": "throw", "dice": [rng.randint(1, 6), rng.randint(1, 6)]})
        finally:
            players.stop()
        rows = t.journal_rows()
    commands = [r.command for r in rows]
    names = {c["command"] for c in commands}
    assert {"join", "shooter", "center_bet", "fade", "side_bet", "call_off"} <= names
    assert {c["kind"] for c in commands if c["command"] == "side_bet"} == KINDS
    shooters = {e["to"] for r in rows for e in r.events if e["event"] == "dice_passed"}
    assert len(shooters) >= 3  # the dice went round the table (R-D1)
    settled = [e for r in rows for e in r.events if e["event"] == "center_settled"]
    assert len(settled) >= 20
    assert {c["player"] for c in commands if c["command"] == "join"} == set(NAMES)


def test_the_players_leave_the_operator_time_to_override_a_throw(journal_path):
    """R-I2: an override must come right after the throw. The players look at a decided throw
    for a while before they bet again, so the operator at the dashboard can still correct it."""
    with Table(Journal.open(journal_path)) as t:
        players = DemoPlayers(t, camera=None, speed=1.0, look=1.5, seed=3)
        players.start()
        try:
            wait_until(lambda: players.ready(0.0), timeout=20)
            t.submit({"command": "dice_rolling"})
            t.submit({"command": "throw", "dice": [3, 4]})  # a natural: a new center bet is due
            decided = t.state()["seq"]
            time.sleep(0.5)  # an operator who saw the throw on his phone and taps at once
            assert t.state()["seq"] == decided, "the players bet before the operator could look"
            t.submit({"command": "operator_ruling", "dice": [5, 6], "why": "an 11, not a 7"},
                     by="operator")
            wait_until(lambda: players.ready(0.0), timeout=20)  # then they bet again
        finally:
            players.stop()
        rows = t.journal_rows()
    assert any(r.command["command"] == "operator_ruling" for r in rows)
    assert rows[-1].seq > decided + 1


def test_the_demo_camera_shows_every_case_and_its_operator_rules(journal_path):
    cases = [S.BOTH_HIT, S.ONE_HITS, S.NONE_HITS, S.OUT_OF_AREA, S.COCKED_DIE, S.BOTH_HIT]
    camera = SimulatedCamera((640, 480), 60.0, speed=1000.0, seed=2, pause=0.3,
                             choose=lambda n: cases[n % len(cases)], sleep=lambda s: None)
    t = Table(Journal.open(journal_path), source=camera, calibration=camera.calibration,
              readers=[DiceReader()])
    players = DemoPlayers(t, camera, speed=1000.0, operator_delay=0.5, seed=1)
    camera.ready = players.ready
    with t:
        players.start()
        t.start()
        try:
            wait_until(lambda: camera.throws > len(cases), timeout=120)
        finally:
            players.stop()
            camera.close()
        rows = [r for r in t.journal_rows() if r.extra.get("by") in ("camera", "operator")]
    kinds = [r.extra["ruling"]["kind"] for r in rows if "ruling" in r.extra]
    rules = {r.command.get("rule") for r in rows if r.command["command"] == "void"}
    assert {"counts", "warning", "void", "operator"} <= set(kinds)
    assert {"R-I1", "R-I3"} <= rules
    ruled = [r for r in rows if r.command["command"] == "operator_ruling"]
    assert ruled and "demo operator" in ruled[0].command["why"]


def test_tablectl_demo_serves_the_table_until_sigterm(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import threading

    port = free_port()
    journal = tmp_path / "demo.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablectl", "demo", "--port", str(port), "--speed", "4",
         "--journal", str(journal)], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out: list[str] = []
    threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True).start()
    try:
        wait_until(lambda: any(line.startswith("operator PIN: ") for line in out), timeout=60)
        assert f"dashboard: http://127.0.0.1:{port}/\n" in out

        def throws() -> int:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5) as r:
                view = json.load(r)
            return view["state"]["throws"] + (view["last_throw"] is not None)

        wait_until(lambda: throws() >= 2, timeout=90)
    finally:
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=10)
    # bounded by the stop's own time-outs summed (the server's 5 s, the camera's 2 s, the
    # pictures' 1.5 s), not by a guess at the machine's speed: a stop that hangs fails it
    assert code == 0 and time.monotonic() - began < 8.5
    with Table(Journal.open(journal)) as t:
        assert set(t.state()["state"]["seats"]) == set(NAMES)

