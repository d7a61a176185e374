"""Lights on gpiozero's MockFactory: the mock pins' state history in each situation."""

from __future__ import annotations

import logging
import os
import time

import pytest
from gpiozero import LED

from tablectl import lights as lights_module
from tablectl.lights import LAMP_ROLES, Lights, LightsError, lamp_states

from .conftest import DEFAULT_PINS, play, seated, view

CENTER = ({"command": "center_bet", "amount": 20}, {"command": "fade", "player": "bob",
                                                    "amount": 20})


@pytest.fixture
def lights(factory):
    lamps = Lights(DEFAULT_PINS, pin_factory=factory, blink_s=0.01, beep_s=0.01)
    yield lamps
    lamps.close()


def history(factory, role: str) -> list[bool]:
    return [s.state for s in factory.pin(DEFAULT_PINS[role]).states]


def wait_for(factory, role: str, n: int, timeout: float = 10.0) -> list[bool]:
    """The pin's history once it holds at least n states (blink and beep run in threads)."""
    end = time.monotonic() + timeout
    while len(history(factory, role)) < n and time.monotonic() < end:
        time.sleep(0.005)
    return history(factory, role)


def steady(factory, *except_roles: str) -> None:
    """Every lamp but ``except_roles`` was never lit."""
    for role in LAMP_ROLES:
        if role not in except_roles:
            factory.pin(DEFAULT_PINS[role]).assert_states([False])


def test_every_lamp_starts_off(factory, lights):
    assert lights.roles == tuple(DEFAULT_PINS)
    steady(factory)
    factory.pin(DEFAULT_PINS["buzzer"]).assert_states([False])


def test_come_out_lights_throw(factory, lights):
    lights.show(lamp_states(view(play(seated(), *CENTER))))
    factory.pin(17).assert_states([False, True])
    steady(factory, "throw")


def test_point_set_lights_the_board_and_leaves_throw_alone(factory, lights):
    game = play(seated(), *CENTER)
    lights.show(lamp_states(view(game)))
    play(game, {"command": "throw", "dice": [4, 5]})
    lights.show(lamp_states(view(game, last_throw={"kind": "counts", "dice": [4, 5]})))
    factory.pin(DEFAULT_PINS["point_9"]).assert_states([False, True])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True])  # not rewritten
    steady(factory, "throw", "point_9")
    play(game, {"command": "throw", "dice": [6, 3]})  # the point made: back to the come-out
    lights.show(lamp_states(view(game, last_throw={"kind": "counts", "dice": [6, 3]})))
    factory.pin(DEFAULT_PINS["point_9"]).assert_states([False, True, False])


def test_dice_rolling_turns_throw_off_and_wait_on(factory, lights):
    game = play(seated(), *CENTER)
    lights.show(lamp_states(view(game)))
    play(game, {"command": "dice_rolling"})
    lights.show(lamp_states(view(game)))
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True, False])
    factory.pin(DEFAULT_PINS["wait"]).assert_states([False, True])
    steady(factory, "throw", "wait")


def test_void_blinks_no_roll_until_the_dice_roll_again(factory, lights):  # R-I3
    game = play(seated(), *CENTER, {"command": "dice_rolling"})
    lights.show(lamp_states(view(game)))
    play(game, {"command": "void", "rule": "R-I3", "reason": "neither die hit the wall"})
    void = {"kind": "void", "rule": "R-I3"}
    lights.show(lamp_states(view(game, last_throw=void)))
    blinks = wait_for(factory, "no_roll", 6)
    assert blinks[:6] == [False, True, False, True, False, True]
    lights.show(lamp_states(view(game, last_throw=void)))  # unchanged: the blink goes on
    assert len(wait_for(factory, "no_roll", len(blinks) + 4)) >= len(blinks) + 4
    play(game, {"command": "dice_rolling"})
    lights.show(lamp_states(view(game, last_throw=void)))
    done = history(factory, "no_roll")
    assert done[-1] is False
    time.sleep(0.05)
    assert history(factory, "no_roll") == done  # the blinking stopped
    factory.pin(DEFAULT_PINS["wait"]).assert_states([False, True, False, True])
    assert factory.pin(DEFAULT_PINS["throw"]).state is False


def test_warning_blinks_and_the_buzzer_beeps_once(factory, lights):  # R-I3
    game = play(seated(), *CENTER, {"command": "throw", "dice": [5, 3]},
                {"command": "warn", "rule": "R-I3"})
    warned = {"kind": "warning", "rule": "R-I3"}
    lights.show(lamp_states(view(game, last_throw=warned)))
    assert wait_for(factory, "warning", 5)[:5] == [False, True, False, True, False]
    assert wait_for(factory, "buzzer", 3) == [False, True, False]
    lights.show(lamp_states(view(game, last_throw=warned, alert="a third die")))  # still on
    time.sleep(0.05)
    assert history(factory, "buzzer") == [False, True, False]
    factory.pin(DEFAULT_PINS["point_8"]).assert_states([False, True])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True])
    # off, then on again (the next throw's warning): a second beep
    play(game, {"command": "dice_rolling"})
    lights.show(lamp_states(view(game, last_throw=warned)))
    assert lights.shown["warning"] == "off"
    play(game, {"command": "throw", "dice": [6, 1]}, {"command": "join", "player": "dee",
                                                      "buy_in": 10})
    lights.show(lamp_states(view(game, alert="the dice did not move since the last throw")))
    assert wait_for(factory, "buzzer", 5) == [False, True, False, True, False]


def test_pending_ruling_lights_ruling_alone(factory, lights):  # R-I2
    game = play(seated(), *CENTER)
    lights.show(lamp_states(view(game)))
    play(game, {"command": "await_ruling", "rule": "R-I2", "reason": "a die is cocked"})
    lights.show(lamp_states(view(game, pending_ruling={"throw": 4, "rule": "R-I2"},
                                 last_throw={"kind": "operator"})))
    factory.pin(DEFAULT_PINS["ruling"]).assert_states([False, True])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True, False])
    steady(factory, "ruling", "throw")
    play(game, {"command": "operator_ruling", "dice": [3, 4], "by": "operator"})
    lights.show(lamp_states(view(game)))
    factory.pin(DEFAULT_PINS["ruling"]).assert_states([False, True, False])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True, False, True])


def test_camera_fault_lights_fault_alone_but_the_point(factory, lights):
    game = play(seated(), *CENTER, {"command": "throw", "dice": [2, 2]})
    lights.show(lamp_states(view(game)))
    lights.show(lamp_states(view(game, camera={"ok": False, "fault": "no frames for 2 s"},
                                 play_stopped="camera fault: no frames for 2 s")))
    factory.pin(DEFAULT_PINS["fault"]).assert_states([False, True])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True, False])
    factory.pin(DEFAULT_PINS["point_4"]).assert_states([False, True])
    steady(factory, "fault", "throw", "point_4")
    lights.show(lamp_states(view(game)))  # the camera is back: play resumes
    factory.pin(DEFAULT_PINS["fault"]).assert_states([False, True, False])
    factory.pin(DEFAULT_PINS["throw"]).assert_states([False, True, False, True])


def test_shutdown_turns_every_lamp_off_and_releases_the_pins(factory, lights):
    game = play(seated(), *CENTER, {"command": "throw", "dice": [2, 2]})
    lights.show(lamp_states(view(game, last_throw={"kind": "warning"})))
    wait_for(factory, "warning", 3)
    lights.close()
    for role, pin in DEFAULT_PINS.items():
        mock = factory.pin(pin)
        assert mock.state is False, role
        assert mock.function == "input", role  # released
    assert history(factory, "throw") == [False, True, False]
    assert history(factory, "point_4") == [False, True, False]
    lights.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        lights.show({})
    LED(DEFAULT_PINS["throw"], pin_factory=factory).close()  # the pin can be claimed again


def test_show_twice_writes_nothing(factory, lights):
    states = lamp_states(view(play(seated(), *CENTER)))
    lights.show(states)
    before = {role: history(factory, role) for role in DEFAULT_PINS}
    lights.show(dict(states))
    assert {role: history(factory, role) for role in DEFAULT_PINS} == before


def test_active_low_inverts_the_pins(factory):
    with Lights({"throw": 17, "fault": 25}, active_high=False, pin_factory=factory) as lamps:
        lamps.show({"throw": "on"})
        factory.pin(17).assert_states([False, True, False])  # high at claim = off, then low
        factory.pin(25).assert_states([False, True])
    assert factory.pin(17).function == "input"  # released


def test_roles_are_optional(factory):
    with Lights({"throw": 17}, pin_factory=factory) as lamps:
        lamps.show(lamp_states(view(seated(), camera={"ok": False})))
        assert lamps.shown["fault"] == "on"  # known even without a lamp
        factory.pin(17).assert_states([False])


@pytest.mark.parametrize("pins, message", [
    ({"go": 17}, "unknown light role 'go'"),
    ({"throw": "17"}, "BCM GPIO number"),
    ({"throw": 17, "wait": 17}, "both on GPIO 17"),
])
def test_bad_pins_are_refused_with_the_fix(factory, pins, message):
    with pytest.raises(ValueError, match=message):
        Lights(pins, pin_factory=factory)


def test_a_pin_in_use_names_the_role_and_releases_the_others(factory):
    holder = LED(27, pin_factory=factory)
    try:
        with pytest.raises(LightsError, match=r"GPIO 27 for the 'wait' light"):
            Lights({"throw": 17, "wait": 27}, pin_factory=factory)
        LED(17, pin_factory=factory).close()  # throw's pin was given back
    finally:
        holder.close()


def test_bad_states_are_refused(factory, lights):
    with pytest.raises(ValueError, match="state must be one of"):
        lights.show({"throw": "green"})
    with pytest.raises(ValueError, match="unknown lamp roles"):
        lights.show({"buzzer": "on"})


def test_off_the_pi_mock_pins_said_once(monkeypatch, caplog):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(lights_module, "raspberry_pi_model", lambda: None)
    monkeypatch.setattr(lights_module, "_mock_factory", None)
    caplog.set_level(logging.INFO, logger="tablectl.lights")
    from gpiozero.pins.mock import MockFactory

    with Lights({"throw": 17}) as first:
        assert isinstance(first.pin_factory, MockFactory)
        first.show({"throw": "on"})
        assert first.pin_factory.pin(17).state is True
    with Lights({"throw": 17}) as second:
        assert second.pin_factory is first.pin_factory
    said = [r for r in caplog.records if "MockFactory" in r.getMessage()]
    assert len(said) == 1
    first.pin_factory.close()


def test_on_a_pi_gpiozero_chooses_the_factory(monkeypatch, caplog):
    monkeypatch.setattr(lights_module, "raspberry_pi_model", lambda: "Raspberry Pi 5 Model B")
    caplog.set_level(logging.INFO, logger="tablectl.lights")
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # gpiozero's default, made to be mock
    monkeypatch.delenv("LG_WD", raising=False)  # lgpio's folder: the working one, else this
    previous = Device.pin_factory
    try:
        with Lights({"throw": 17}) as lamps:
            assert os.access(os.environ["LG_WD"], os.W_OK)
            assert lamps.pin_factory is None  # left to gpiozero
            assert type(Device.pin_factory).__name__ == "MockFactory"
        assert not [r for r in caplog.records if "MockFactory" in r.getMessage()]
    finally:
        if Device.pin_factory is not previous:
            Device.pin_factory.close()
            Device.pin_factory = previous
