"""Players, seats and the rotation: R-E1, R-P1, R-O1..R-O3."""

import pytest

from tablectl.game import CommandError, Game
from tablectl.game.errors import (
    NoShooter,
    NotEnoughPlayers,
    PlayerLeft,
    SeatingError,
)

from .helpers import center, names, refused_unchanged, run, side, table, throw


def test_R_E1_a_throw_is_two_dice_faces():
    g = table(2)
    for bad in ([3], [3, 4, 5], [0, 4], [3, 7], [3.0, 4], "34"):
        with pytest.raises(CommandError, match="dice"):
            g.apply({"command": "throw", "dice": bad})
    assert g.throws == 0


def test_R_P1_come_out_needs_min_players():
    g = table(1)
    refused_unchanged(g, throw(3, 4), NotEnoughPlayers, "R-P1")
    run(g, {"command": "join", "player": "bob", "buy_in": 100})
    assert names(g.apply(throw(3, 4))) == ["come_out", "natural"]


def test_R_P1_table_rule_min_players_three():
    from tablectl.game import TableRules

    g = table(2, rules=TableRules(min_players=3))
    err = refused_unchanged(g, throw(3, 4), NotEnoughPlayers, "R-P1")
    assert "at least 3" in str(err)


def test_R_O1_no_throw_before_a_shooter_is_named():
    g = table(2, shooter=None)
    refused_unchanged(g, throw(3, 4), NoShooter, "R-O1")
    ev = g.apply({"command": "shooter", "player": "bob"})
    assert ev == [{"event": "shooter_set", "player": "bob", "rule": "R-O1"}]
    assert g.state()["shooter"] == "bob"


def test_R_O1_shooter_cannot_be_renamed_mid_turn():
    g = table(3)
    run(g, throw(4, 4))
    refused_unchanged(g, {"command": "shooter", "player": "bob"}, SeatingError, "R-O1")


def test_R_O1_dice_pass_clockwise_in_seat_order():
    g = table(3)
    run(g, throw(4, 4), throw(3, 4))  # seven-out
    assert g.state()["shooter"] == "bob"
    run(g, throw(2, 2), throw(5, 2))
    assert g.state()["shooter"] == "cy"
    run(g, throw(2, 2), throw(5, 2))
    assert g.state()["shooter"] == "ann"


def test_R_O2_newcomer_takes_a_seat_and_shoots_in_turn():
    g = table(3)
    run(g, throw(4, 4))
    ev = g.apply({"command": "join", "player": "dee", "buy_in": 50, "seat": 1})
    assert ev[0]["seat"] == 1 and g.seats == ["ann", "dee", "bob", "cy"]
    run(g, throw(3, 4))
    assert g.shooter == "dee"
    refused_unchanged(g, {"command": "join", "player": "dee", "buy_in": 5}, SeatingError, "R-O2")
    with pytest.raises(CommandError, match="seat"):
        g.apply({"command": "join", "player": "eve", "buy_in": 5, "seat": 9})
    with pytest.raises(CommandError, match="buy_in"):
        g.apply({"command": "join", "player": "eve", "buy_in": -5})


def test_R_O3_leaver_out_of_rotation_at_once_paid_when_stakes_settle():
    g = table(3, buy_in=100)
    center(g, 10, bob=10)
    run(g, side("n6", "number", "bob", "cy", 10, 12, number=6), throw(4, 4))  # point 8
    ev = g.apply({"command": "leave", "player": "bob"})
    assert names(ev) == ["left"]  # 20 of his still in escrow: no payout yet
    assert g.seats == ["ann", "cy"] and g.ledger.escrow["bob"] == 20
    refused_unchanged(g, side("x", "hardway", "bob", "cy", 1, 1, number=4), PlayerLeft, "R-O3")
    # (he may sit down again with his stakes still out: test_audit's R-O3 rejoin test)
    ev = g.apply(throw(3, 3))  # 6: bob's number bet wins 12; the center still open
    assert "cashed_out" not in names(ev)
    ev = g.apply(throw(2, 5))  # seven-out: bob's fade wins 10, nothing left in escrow
    out = [e for e in ev if e["event"] == "cashed_out"]
    assert out == [{"event": "cashed_out", "player": "bob", "units": 80 + (10 + 12) + (10 + 10),
                    "rule": "R-O3"}]
    assert "bob" not in g.state()["balances"] and g.state()["cashed_out"] == {"bob": 122}
    assert g.shooter == "cy"  # the rotation skips the leaver


def test_R_O3_leaver_without_stakes_is_paid_at_once_and_may_call_off():
    g = table(3, buy_in=100)
    run(g, side("n", "number", "cy", "bob", 5, 5, number=9))
    ev = g.apply({"command": "leave", "player": "bob"})
    assert names(ev) == ["left"]
    ev = g.apply({"command": "call_off", "id": "n", "player": "bob"})
    assert names(ev) == ["side_bet_returned", "side_bet_returned", "cashed_out"]
    assert ev[-1]["units"] == 100
    g2 = table(3, buy_in=70)
    assert g2.apply({"command": "leave", "player": "cy"})[-1] == {
        "event": "cashed_out", "player": "cy", "units": 70, "rule": "R-O3"}


def test_R_O3_shooter_leaving_passes_dice_and_returns_his_center_bet():
    g = table(3)
    center(g, 10, bob=5)
    ev = g.apply({"command": "leave", "player": "ann"})
    assert names(ev) == ["left", "center_called_off", "dice_passed", "cashed_out"]
    assert g.shooter == "bob" and ev[-1]["units"] == 1000


def test_R_O3_shooter_leaving_mid_point_next_player_throws_for_it():
    g = table(3)
    center(g, 10, cy=10)
    run(g, throw(5, 5))
    ev = g.apply({"command": "leave", "player": "ann"})
    assert names(ev) == ["left", "dice_passed"]
    assert g.shooter == "bob" and g.point == 10
    ev = g.apply(throw(6, 4))
    settled = [e for e in ev if e["event"] == "center_settled"][0]
    assert settled["amounts"] == {"cy": -10, "ann": 10}
    assert names(ev)[-1] == "cashed_out" and ev[-1]["units"] == 1010


def test_unknown_player_cannot_bet():
    g = table(2)
    refused_unchanged(g, side("s", "line", "zed", "bob", 1, 1), SeatingError, "R-S0")


def test_game_without_rules_argument_uses_defaults():
    assert Game().rules.min_players == 2
