"""The center bet (R-C1..R-C8)."""

from fractions import Fraction

import pytest

from tablectl.game import Game, TableRules
from tablectl.game.errors import (
    BetsClosed,
    CenterBetError,
    FadeClaimError,
    FadeTooMuch,
    InsufficientBalance,
    UncoveredCenterBet,
)

from .helpers import center, names, refused_unchanged, run, side, table, throw


def test_R_C1_shooter_puts_the_bet_in_escrow_before_come_out():
    g = table(3)
    ev = g.apply({"command": "center_bet", "amount": 20})
    assert ev == [{"event": "center_bet_made", "player": "ann", "units": 20, "rule": "R-C1"}]
    assert g.state()["balances"]["ann"] == 980 and g.state()["escrow"]["ann"] == 20
    refused_unchanged(g, {"command": "center_bet", "amount": 5}, CenterBetError, "R-C1")


def test_R_C1_no_center_bet_while_a_point_is_pending():
    g = table(3)
    run(g, throw(2, 2))
    refused_unchanged(g, {"command": "center_bet", "amount": 5}, CenterBetError, "R-C1")


def test_R_C1_center_bet_above_balance_refused():
    g = table(3, buy_in=50)
    refused_unchanged(g, {"command": "center_bet", "amount": 51}, InsufficientBalance, "R-C1")


def test_R_C2_others_fade_any_part_but_not_the_shooter():
    g = table(3)
    center(g, 20)
    ev = g.apply({"command": "fade", "player": "bob", "amount": 7})
    assert ev[0]["covered"] == 7 and ev[0]["open"] == 13
    refused_unchanged(g, {"command": "fade", "player": "ann", "amount": 5}, CenterBetError, "R-C2")
    refused_unchanged(g, {"command": "fade", "player": "cy", "amount": 5000},
                      FadeTooMuch, "R-C6")


def test_R_C2_fade_without_a_center_bet_refused():
    g = table(3)
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 5}, CenterBetError, "R-C2")


def test_R_C2_fade_above_balance_refused():
    g = table(3, buy_in=30)
    center(g, 30)
    run(g, side("s", "line", "bob", "cy", 25, 1))
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 6},
                      InsufficientBalance, "R-C2")


def test_R_C3_faders_add_until_covered():
    g = table(4)
    center(g, 30, bob=10, cy=10)
    ev = run(g, {"command": "fade", "player": "dee", "amount": 5},
             {"command": "fade", "player": "bob", "amount": 5})
    assert ev[-1]["open"] == 0 and g.center.fades == {"bob": 15, "cy": 10, "dee": 5}


def test_R_C4_off_by_default_claim_refused():
    g = table(3)
    center(g, 10)
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 10, "claim": True},
                      FadeClaimError, "R-C4")


def test_R_C4_whole_fader_who_lost_claims_the_next_bet_first():
    g = table(3, rules=TableRules(fade_first_claim=True))
    center(g, 10, bob=10)
    run(g, throw(3, 4))  # natural: the dice win, bob (whole fader) lost
    assert g.state()["fade_claim"] == "bob"
    center(g, 20, cy=15)
    refused_unchanged(g, {"command": "fade", "player": "cy", "amount": 20, "claim": True},
                      FadeClaimError, "R-C4")
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 5, "claim": True},
                      FadeClaimError, "R-C4")
    ev = g.apply({"command": "fade", "player": "bob", "amount": 20, "claim": True})
    assert names(ev) == ["fade_returned", "faded"]
    assert ev[0] == {"event": "fade_returned", "player": "cy", "units": 15, "rule": "R-C4"}
    assert g.center.fades == {"bob": 20} and g.state()["escrow"]["cy"] == 0
    assert g.state()["fade_claim"] is None


def test_R_C5_come_out_refused_until_uncovered_part_is_settled():
    g = table(3)
    center(g, 20, bob=12)
    refused_unchanged(g, throw(3, 4), UncoveredCenterBet, "R-C5")
    refused_unchanged(g, {"command": "dice_rolling"}, UncoveredCenterBet, "R-C5")
    ev = g.apply({"command": "take_down"})
    assert ev[0]["units"] == 8 and ev[0]["amount"] == 12
    assert g.state()["balances"]["ann"] == 988
    refused_unchanged(g, {"command": "take_down"}, CenterBetError, "R-C5")
    assert names(g.apply(throw(3, 4))) == ["come_out", "natural", "center_settled"]


def test_R_C5_no_bet_returns_every_stake():
    g = table(3)
    center(g, 20, bob=5, cy=5)
    ev = g.apply({"command": "no_bet"})
    assert ev[0]["returned"] == {"ann": 20, "bob": 5, "cy": 5}
    assert g.center is None and set(g.state()["escrow"].values()) == {0}
    assert g.money_total() == 3000


def test_R_C5_take_down_unfaded_bet_removes_it():
    g = table(3)
    center(g, 20)
    run(g, {"command": "take_down"})
    assert g.center is None and g.ledger.balances["ann"] == 1000


def test_R_C6_fade_more_than_bet_refused():
    g = table(3)
    center(g, 20, bob=15)
    err = refused_unchanged(g, {"command": "fade", "player": "cy", "amount": 6}, FadeTooMuch,
                            "R-C6")
    assert str(err) == "R-C6: faders may not fade more than the shooter's bet"
    assert err.detail.startswith("the bet is 20, 15 faded, 5 open")


def test_R_C6_raise_lets_the_fading_continue():
    g = table(3)
    center(g, 20, bob=20)
    refused_unchanged(g, {"command": "raise", "amount": 20}, CenterBetError, "R-C6")
    refused_unchanged(g, {"command": "raise", "amount": 5000}, InsufficientBalance, "R-C6")
    ev = g.apply({"command": "raise", "amount": 30})
    assert ev[0]["added"] == 10 and ev[0]["open"] == 10
    run(g, {"command": "fade", "player": "cy", "amount": 10})
    assert g.ledger.escrow == {"ann": 30, "bob": 20, "cy": 10}


def test_R_C7_dice_lose_each_fader_doubles_his_stake():
    g = table(3)
    center(g, 30, bob=20, cy=10)
    ev = run(g, throw(1, 1))
    s = [e for e in ev if e["event"] == "center_settled"][0]
    assert s["winner"] == "faders" and s["amounts"] == {"bob": 20, "cy": 10, "ann": -30}
    assert g.ledger.balances == {"ann": 970, "bob": 1020, "cy": 1010}


def test_R_C7_dice_win_shooter_takes_the_center_after_point():
    g = table(3)
    center(g, 30, bob=20, cy=10)
    run(g, throw(5, 4), throw(6, 6))
    assert g.center is not None  # the center bet rides the point
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 1}, CenterBetError, "R-C2")
    ev = g.apply(throw(6, 3))
    assert ev[2]["winner"] == "dice" and ev[2]["units"] == 30
    assert g.ledger.balances == {"ann": 1030, "bob": 980, "cy": 990}


def test_R_C7_center_is_even_money_over_many_decisions():
    g = table(2, buy_in=10_000)
    seq = [(3, 4), (1, 1), (2, 2), (2, 2), (3, 3), (3, 4)]
    for d in seq:
        if g.point is None:
            center(g, 10, bob=10)
        g.apply(throw(*d))
    # ann: +10 natural, -10 craps, +10 point 4 made; 6 then seven-out: -10
    assert g.ledger.balances["ann"] == 10_000
    assert g.money_total() == 20_000


def test_R_C8_dice_win_244_of_495():
    g = table(2)
    ev = g.apply(side("r", "line", "ann", "bob", 10, 10))
    assert Fraction(ev[0]["p_win"]) == Fraction(976, 1980) == Fraction(244, 495)
    assert Fraction(ev[0]["ev_against"]) == Fraction(10 * 7, 495)  # 7/495 a unit (R-C8)


def test_center_commands_closed_while_dice_roll():
    g = table(3)
    center(g, 10, bob=10)
    run(g, {"command": "dice_rolling"})
    for cmd in ({"command": "raise", "amount": 20}, {"command": "no_bet"},
                {"command": "fade", "player": "cy", "amount": 1}):
        refused_unchanged(g, cmd, BetsClosed, "R-S0")


@pytest.mark.parametrize("amount", [0, -5, 2.5, "10", True])
def test_center_amount_must_be_whole_units(amount):
    from tablectl.game import CommandError

    g = Game()
    with pytest.raises(CommandError, match="amount"):
        g.apply({"command": "center_bet", "amount": amount})
