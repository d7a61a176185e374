"""Passing and changing the dice (R-D1, R-D2, R-X1, R-E2)."""

import pytest

from tablectl.game import CommandError, TableRules
from tablectl.game.errors import AwaitingRuling, DiceChangeError, DicePassError

from .helpers import center, names, refused_unchanged, run, table, throw


def test_R_D1_seven_out_passes_to_next_clockwise_skipping_barred():
    g = table(4, rules=TableRules(warnings_before_sanction=0))
    run(g, {"command": "shooter", "player": "cy"})
    run(g, throw(2, 2), throw(3, 4))
    assert g.shooter == "dee"
    run(g, {"command": "warn", "rule": "R-I5", "player": "ann"},
        {"command": "bar", "player": "ann"})
    run(g, throw(2, 2), throw(3, 4))
    assert g.shooter == "bob"  # ann is barred: skipped


def test_R_D2_pass_before_throwing_and_after_a_decision():
    g = table(3)
    ev = g.apply({"command": "pass_dice"})
    assert ev == [{"event": "dice_passed", "from": "ann", "to": "bob", "reason": "voluntary",
                   "rule": "R-D2"}]
    run(g, throw(5, 6))  # natural: a decision
    assert names(g.apply({"command": "pass_dice"})) == ["dice_passed"]
    assert g.shooter == "cy"


def test_R_D2_passing_with_a_point_pending_refused():
    g = table(3)
    run(g, throw(4, 5))
    err = refused_unchanged(g, {"command": "pass_dice"}, DicePassError, "R-D2")
    assert "point 9 is pending" in str(err)


def test_R_D2_passing_returns_the_unthrown_center_bet():
    g = table(3)
    center(g, 10, bob=10)
    ev = g.apply({"command": "pass_dice"})
    assert names(ev) == ["center_called_off", "dice_passed"]
    assert g.money_total() == 3000 and sum(g.ledger.escrow.values()) == 0


def test_R_D2_no_pass_while_rolling_or_awaiting_ruling():
    g = table(3)
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, {"command": "pass_dice"}, DicePassError, "R-D2")
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "cocked die"})
    refused_unchanged(g, {"command": "pass_dice"}, AwaitingRuling, "R-I2")


def test_R_E2_R_X1_change_before_come_out_takes_effect_at_once():
    g = table(2, rules=TableRules(dice_pairs=3))
    ev = g.apply({"command": "change_dice"})
    assert ev == [{"event": "dice_changed", "pair": 1, "previous": 0, "rule": "R-X1"}]
    ev = g.apply({"command": "change_dice", "pair": 0})
    assert ev[0]["pair"] == 0
    refused_unchanged(g, {"command": "change_dice", "pair": 0}, DiceChangeError, "R-X1")
    with pytest.raises(CommandError, match="pair"):
        g.apply({"command": "change_dice", "pair": 3})


def test_R_X1_change_called_mid_point_waits_for_the_next_come_out():
    g = table(2)
    run(g, throw(3, 3))
    ev = g.apply({"command": "change_dice", "player": "bob"})
    assert names(ev) == ["dice_change_called"] and g.dice_pair == 0
    assert names(g.apply(throw(2, 2))) == ["thrown"] and g.dice_pair == 0
    ev = g.apply(throw(5, 1))  # point made: the next throw is a come-out
    assert names(ev) == ["thrown", "point_made", "dice_changed"] and g.dice_pair == 1


def test_R_X1_change_called_while_come_out_rolls_waits():
    g = table(2)
    run(g, {"command": "dice_rolling"})
    assert names(g.apply({"command": "change_dice"})) == ["dice_change_called"]
    assert names(g.apply(throw(4, 4))) == ["come_out", "point_set"]
    assert g.dice_pair == 0
    assert names(g.apply(throw(4, 3)))[-1] == "dice_changed"


def test_R_X1_called_change_cancelled_by_asking_for_the_pair_in_use():
    g = table(2)
    run(g, throw(3, 3), {"command": "change_dice"})
    assert names(g.apply({"command": "change_dice", "pair": 0})) == ["dice_change_cancelled"]
    assert g.dice_change_to is None


def test_R_X1_single_pair_table_cannot_change():
    g = table(2, rules=TableRules(dice_pairs=1))
    refused_unchanged(g, {"command": "change_dice"}, DiceChangeError, "R-X1")
