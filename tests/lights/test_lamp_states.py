"""lamp_states: the table's public state -> what each lamp shows (tablectl.lights' precedence)."""

from __future__ import annotations

import pytest

from tablectl.lights import LAMP_ROLES, ROLES, lamp_states

from .conftest import play, seated, view

CENTER = ({"command": "center_bet", "amount": 20}, {"command": "fade", "player": "bob",
                                                    "amount": 20})
SIGNAL = ("throw", "wait", "no_roll", "ruling", "fault")


def lit(states: dict) -> dict:
    return {role: s for role, s in states.items() if s != "off"}


def test_every_lamp_role_and_not_the_buzzer():
    states = lamp_states(view(seated()))
    assert set(states) == set(LAMP_ROLES) == set(ROLES) - {"buzzer"}


def test_come_out_with_the_center_bet_faded_the_shooter_may_throw():  # R-B1, R-C3
    assert lit(lamp_states(view(play(seated(), *CENTER)))) == {"throw": "on"}


def test_come_out_with_no_center_bet_the_shooter_may_throw():
    assert lit(lamp_states(view(seated()))) == {"throw": "on"}


def test_an_unfaded_center_bet_means_bets_are_being_made():  # R-C2, R-C5
    game = play(seated(), {"command": "center_bet", "amount": 20},
                {"command": "fade", "player": "bob", "amount": 5})
    assert lit(lamp_states(view(game))) == {"wait": "on"}


def test_point_set_lights_its_lamp_alone_on_the_board():  # R-B4
    for dice, lamp in (([2, 2], "point_4"), ([4, 1], "point_5"), ([3, 3], "point_6"),
                       ([6, 2], "point_8"), ([5, 4], "point_9"), ([6, 4], "point_10")):
        game = play(seated(), *CENTER, {"command": "throw", "dice": dice})
        states = lamp_states(view(game, last_throw={"throw": 3, "kind": "counts", "dice": dice}))
        assert lit(states) == {"throw": "on", lamp: "on"}


def test_the_point_made_clears_the_board():  # R-B5
    game = play(seated(), *CENTER, {"command": "throw", "dice": [3, 3]},
                {"command": "throw", "dice": [4, 2]})
    assert lit(lamp_states(view(game))) == {"throw": "on"}


def test_dice_rolling_closes_bets():  # R-S0
    game = play(seated(), *CENTER, {"command": "dice_rolling"})
    assert lit(lamp_states(view(game))) == {"wait": "on"}


def test_a_void_blinks_no_roll_until_the_next_throw_begins():  # R-I3
    game = play(seated(), *CENTER, {"command": "void", "rule": "R-I3",
                                    "reason": "neither die hit the back wall"})
    last = {"throw": 4, "kind": "void", "rule": "R-I3"}
    assert lit(lamp_states(view(game, last_throw=last))) == {"no_roll": "blink"}
    play(game, {"command": "dice_rolling"})
    assert lit(lamp_states(view(game, last_throw=last))) == {"wait": "on"}


def test_a_refused_throw_blinks_no_roll_over_the_open_bet():
    game = play(seated(), {"command": "center_bet", "amount": 20})
    last = {"throw": 3, "kind": "refused", "rule": "R-C5"}
    assert lit(lamp_states(view(game, last_throw=last))) == {"no_roll": "blink"}


def test_a_warning_blinks_beside_the_signal_until_the_next_throw():  # R-I3
    game = play(seated(), *CENTER, {"command": "throw", "dice": [5, 3]},
                {"command": "warn", "rule": "R-I3"})
    last = {"throw": 4, "kind": "warning", "rule": "R-I3"}
    assert lit(lamp_states(view(game, last_throw=last))) == {
        "throw": "on", "warning": "blink", "point_8": "on"}
    play(game, {"command": "dice_rolling"})
    assert lit(lamp_states(view(game, last_throw=last))) == {"wait": "on", "point_8": "on"}


def test_an_alert_blinks_warning_and_holds_the_throw():
    states = lamp_states(view(play(seated(), *CENTER),
                              alert="the dice did not move since the last throw"))
    assert lit(states) == {"warning": "blink"}


def test_a_pending_ruling_outranks_the_rest():  # R-I2
    game = play(seated(), *CENTER, {"command": "await_ruling", "rule": "R-I2",
                                    "reason": "a die is cocked"})
    pending = {"throw": 5, "image": "/api/throws/5/image", "dice": [], "rule": "R-I2",
               "reason": "a die is cocked"}
    assert lit(lamp_states(view(game, pending_ruling=pending,
                                last_throw={"kind": "operator"}))) == {"ruling": "on"}
    # the game's own record of it is enough
    assert lit(lamp_states(view(game))) == {"ruling": "on"}


@pytest.mark.parametrize("fault", [
    {"camera": {"ok": False, "fault": "camera frontend has timed out"}},
    {"journal": {"ok": False, "fault": "disk full"}},
    {"play_stopped": "camera fault"},
])
def test_a_fault_outranks_everything_and_the_point_stands(fault):
    game = play(seated(), *CENTER, {"command": "throw", "dice": [5, 5]},
                {"command": "await_ruling", "rule": "R-I2", "reason": "cocked"})
    states = lamp_states(view(game, pending_ruling={"throw": 6}, **fault))
    assert lit(states) == {"fault": "on", "point_10": "on"}


@pytest.mark.parametrize("game", [
    pytest.param(lambda: seated(shooter=None), id="no shooter"),
    pytest.param(lambda: seated(n=1), id="one seated (R-P1)"),
    pytest.param(lambda: play(seated(), {"command": "leave", "player": "bob"},
                              {"command": "leave", "player": "cy"}), id="alone again"),
])
def test_nobody_may_throw_leaves_the_signal_dark(game):
    states = lamp_states(view(game()))
    assert all(states[role] == "off" for role in SIGNAL)


def test_min_players_is_the_table_rule():  # R-P1
    game = seated(n=2)
    assert lamp_states(view(game))["throw"] == "on"
    assert lamp_states(view(game), min_players=3)["throw"] == "off"


def test_exactly_one_signal_lamp_whatever_the_state():
    game = play(seated(), {"command": "center_bet", "amount": 20})
    for extra in ({}, {"alert": "x"}, {"last_throw": {"kind": "void"}},
                  {"pending_ruling": {"throw": 1}}, {"camera": {"ok": False}}):
        states = lamp_states(view(game, **extra))
        assert sum(states[r] != "off" for r in SIGNAL) == 1, (extra, states)


def test_pure_ignores_lights_and_changes_nothing():
    v = view(play(seated(), *CENTER), lights={"fault": "on"})
    before = repr(v)
    assert lamp_states(v)["fault"] == "off"
    assert repr(v) == before
