"""The Table drives the real Lights (gpiozero MockFactory pins): what each pin does as the game
goes (come-out, point set, dice rolling, void, warning, pending ruling, camera fault, shutdown)."""

from __future__ import annotations

import time

import pytest

from tablectl.config import DEFAULT_PINS
from tablectl.journal import Journal
from tablectl.lights import Lights
from tablectl.table import Table
from tests.support.tables import OPENING, play
from tests.table.clips import S, ScriptedCamera, session, source_done, wait_until
from tests.table.test_table import COCKED

mock = pytest.importorskip("gpiozero.pins.mock")


@pytest.fixture
def pins():
    factory = mock.MockFactory()
    lights = Lights(DEFAULT_PINS, pin_factory=factory, blink_s=0.01, beep_s=0.01)
    return factory, lights


def lit(factory) -> set[str]:
    """The roles whose pin is high now."""
    return {role for role, pin in DEFAULT_PINS.items() if factory.pin(pin).state}


def toggles(factory, role: str, within: float = 0.2) -> bool:
    """The role's pin blinks: it goes both high and low within ``within`` seconds."""
    pin = factory.pin(DEFAULT_PINS[role])
    pin.clear_states()
    time.sleep(within)
    return {s.state for s in pin.states[1:]} == {True, False}


def test_the_lamps_follow_the_game(journal_path, pins):
    factory, lights = pins
    t = Table(Journal.open(journal_path), lights=lights)
    assert lit(factory) == set()  # nobody to shoot
    play(t, OPENING)
    assert lit(factory) == {"throw"}  # come-out: bets settled, throw now
    t.submit({"command": "dice_rolling"})
    assert lit(factory) == {"wait"}  # dice moving, bets closed (R-S0)
    t.submit({"command": "throw", "dice": [2, 2]})
    assert lit(factory) == {"throw", "point_4"}  # the point board shows the point (R-B4)
    t.submit({"command": "void", "rule": "R-I3", "reason": "neither die hit the wall"})
    assert "throw" not in lit(factory) and toggles(factory, "no_roll")
    assert factory.pin(DEFAULT_PINS["point_4"]).state  # the point still stands
    buzzer = factory.pin(DEFAULT_PINS["buzzer"])
    buzzer.clear_states()
    t.submit({"command": "throw", "dice": [1, 2]})
    t.submit({"command": "warn", "rule": "R-I3"})  # a throw that counts with a warning
    assert t.state()["last_throw"]["kind"] == "warning"
    assert toggles(factory, "warning")
    assert any(s.state for s in buzzer.states[1:])  # it beeped when the warning came on
    t.submit(COCKED, by="camera")
    assert lit(factory) == {"ruling", "point_4"}  # the operator must rule (R-I2)
    t.close()
    assert lit(factory) == set()  # shutdown: every lamp off


def test_a_camera_fault_lights_the_fault_lamp_until_the_camera_is_back(journal_path, pins):
    factory, lights = pins
    clips = session(7, [S.BOTH_HIT, S.BOTH_HIT, S.BOTH_HIT])
    fault = factory.pin(DEFAULT_PINS["fault"])
    seen = {}
    camera = ScriptedCamera(clips, fault_at=(1, 3), hooks={
        1: lambda: seen.setdefault("before", lit(factory)),
        2: lambda: seen.setdefault("during", (lit(factory), t.state()["lights"]))})
    t = Table(Journal.open(journal_path), source=camera, calibration=clips[0].calibration,
              lights=lights, reopen_backoff=(0.05, 0.05))
    with t:
        play(t, OPENING)
        t.start()
        wait_until(lambda: source_done(t))
        assert camera.opened == 2
        lamps, virtual = seen["during"]
        assert "fault" not in seen["before"]
        assert "fault" in lamps and "throw" not in lamps and virtual["fault"] == "on"
        # off when the camera came back, on again when its frames ran out for good
        assert [s.state for s in fault.states] == [False, True, False, True]
