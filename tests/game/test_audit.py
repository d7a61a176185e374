"""Audit of the rules engine: one adversarial scenario per rule doubt (RULES.md ids).

Each test plays a real Game the way a player trying to cheat, or a bug losing money, would, and
checks the refusal (rule id, nothing changed) or the exact money that moves.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablectl.game import CommandError, Game, RuleViolation, TableRules
from tablectl.game.errors import (
    AwaitingRuling,
    BarredShooter,
    BetsClosed,
    CallOffNotAllowed,
    CenterBetError,
    DiceChangeError,
    DicePassError,
    FadeClaimError,
    FadeTooMuch,
    InsufficientBalance,
    NoRulingPending,
    NoShooter,
    NotEnoughPlayers,
    PlayerLeft,
    SanctionNotOpen,
    SeatingError,
    SideBetError,
    UncoveredCenterBet,
)

from .helpers import center, names, refused_unchanged, run, side, table, throw


def money(g: Game) -> int:
    """Everything ever bought in must be on the table or cashed out."""
    return g.money_total() + g.ledger.cashed_out_total


def by_name(events: list[dict], name: str) -> list[dict]:
    return [e for e in events if e["event"] == name]


def sanction(g: Game, player: str, rule: str = "R-I3") -> None:
    """Warn ``player`` past the table's warnings so his sanction opens."""
    for _ in range(g.rules.warnings_before_sanction + 1):
        g.apply({"command": "warn", "rule": rule, "player": player})


# ---------------------------------------------------------------- equipment, players, order
def test_R_E1_a_throw_needs_exactly_two_faces():
    g = table(2)
    for bad in ([3], [3, 4, 5], [0, 4], [3, 7], [3.0, 4], ["3", 4], [True, 4]):
        before = g.snapshot()
        with pytest.raises(CommandError):
            g.apply({"command": "throw", "dice": bad})
        assert g.snapshot() == before


def test_R_E2_one_pair_in_use_dice_pair_is_one_index():
    g = table(2, rules=TableRules(dice_pairs=3))
    run(g, {"command": "change_dice", "pair": 2})
    assert g.state()["dice_pair"] == 2 and g.state()["dice_change_pending"] is None
    with pytest.raises(CommandError):
        g.apply({"command": "change_dice", "pair": 3})


def test_R_P1_come_out_refused_when_players_leave_below_min_but_point_finishes():
    g = table(3, rules=TableRules(min_players=3))
    run(g, throw(2, 2))  # point 4
    run(g, {"command": "leave", "player": "cy"})
    assert names(g.apply(throw(2, 2)))[-1] == "point_made"  # a pending point is thrown out
    refused_unchanged(g, throw(3, 4), NotEnoughPlayers, "R-P1")
    refused_unchanged(g, {"command": "dice_rolling"}, NotEnoughPlayers, "R-P1")
    # barred players are seated players: they count for R-P1 (they may still bet, R-D3)
    g2 = table(2)
    sanction(g2, "bob")
    run(g2, {"command": "bar", "player": "bob"})
    assert names(g2.apply(throw(3, 4)))[-1] == "natural"


def test_R_O1_shooter_cannot_jump_the_rotation_after_the_first_throw():
    g = table(4)
    run(g, throw(3, 3), throw(3, 4))  # ann sevens out: bob has the dice
    assert g.state()["shooter"] == "bob"
    # dee names himself shooter before bob throws: that skips bob and cy
    err = refused_unchanged(g, {"command": "shooter", "player": "dee"}, SeatingError, "R-O1")
    assert "pass_dice" in str(err)


def test_R_O1_first_shooter_may_be_changed_by_agreement_before_any_throw():
    g = table(3)
    run(g, {"command": "void", "rule": "R-I3", "reason": "no wall"})
    assert g.apply({"command": "shooter", "player": "cy"})[0]["player"] == "cy"


def test_R_O2_newcomer_joins_mid_point_and_shoots_in_his_turn():
    g = table(2)
    run(g, throw(4, 4), {"command": "join", "player": "cy", "buy_in": 100, "seat": 1})
    assert g.state()["seats"] == ["ann", "cy", "bob"]
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0]["to"] == "cy"


def test_R_O3_leaver_with_a_fade_is_paid_when_the_center_is_called_off():
    g = table(3, buy_in=100)
    center(g, 30, bob=20, cy=10)
    run(g, {"command": "leave", "player": "bob"})
    assert "bob" in g.state()["leaving"]
    ev = g.apply({"command": "no_bet"})
    # nothing of bob's is at stake any more: paid out at once, not at some later throw
    assert by_name(ev, "cashed_out") == [
        {"event": "cashed_out", "player": "bob", "units": 100, "rule": "R-O3"}]
    assert "bob" not in g.state()["balances"] and money(g) == 300


def test_R_O3_leaver_with_a_fade_is_paid_after_the_pass_of_the_dice():
    g = table(3, buy_in=100)
    center(g, 30, bob=30)
    run(g, {"command": "leave", "player": "bob"})
    ev = g.apply({"command": "pass_dice"})
    assert by_name(ev, "cashed_out")[0]["units"] == 100


def test_R_O3_fader_who_left_keeps_his_stake_at_risk_and_wins_it():
    g = table(3, buy_in=100)
    center(g, 30, bob=20, cy=10)
    run(g, {"command": "leave", "player": "bob"})
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 1}, PlayerLeft, "R-O3")
    ev = g.apply(throw(1, 1))  # craps: faders double
    assert by_name(ev, "cashed_out") == [
        {"event": "cashed_out", "player": "bob", "units": 120, "rule": "R-O3"}]
    assert g.state()["balances"] == {"ann": 70, "cy": 110}


def test_R_O3_player_who_left_with_stakes_may_sit_down_again():
    g = table(2, buy_in=100)
    run(g, throw(2, 2), side("n", "number", "ann", "bob", 10, 10, number=10))
    run(g, {"command": "leave", "player": "bob"}, {"command": "leave", "player": "ann"})
    assert g.state()["seats"] == [] and g.state()["shooter"] is None
    # both have stakes at risk that only a throw can decide: they may take their seats again
    run(g, {"command": "join", "player": "ann", "buy_in": 5},
        {"command": "join", "player": "bob", "buy_in": 5})
    assert g.state()["leaving"] == [] and g.state()["balances"] == {"ann": 95, "bob": 95}
    run(g, {"command": "shooter", "player": "ann"})
    ev = g.apply(throw(5, 5))
    assert by_name(ev, "side_bet_won")[0]["player"] == "ann"
    assert money(g) == 210


def test_R_O3_all_players_leave_money_stays_accounted():
    g = table(3, buy_in=100)
    center(g, 30, bob=20, cy=10)
    run(g, throw(3, 3), side("h", "hardway", "bob", "cy", 5, 40, number=6))
    for p in ("ann", "bob", "cy"):
        run(g, {"command": "leave", "player": p})
    st = g.state()
    assert st["shooter"] is None and st["seats"] == []
    assert sum(st["escrow"].values()) == 30 + 30 + 45
    assert money(g) == 300
    refused_unchanged(g, throw(3, 3), NoShooter, "R-O1")
    # a newcomer may take the dice and finish the point: the stakes are decided and paid out
    run(g, {"command": "join", "player": "dee", "buy_in": 10},
        {"command": "shooter", "player": "dee"})
    ev = g.apply(throw(3, 3))
    assert {e["player"] for e in by_name(ev, "cashed_out")} == {"ann", "bob", "cy"}
    cashed = g.state()["cashed_out"]
    assert cashed == {"ann": 130, "bob": 120, "cy": 50}  # point made, hard 6


def test_R_O3_warned_shooter_leaving_while_substitute_shoots_keeps_rotation():
    g = table(4)
    sanction(g, "ann")
    run(g, {"command": "substitute", "player": "cy"}, throw(3, 3))
    run(g, {"command": "leave", "player": "ann"})
    ev = g.apply(throw(3, 4))  # cy sevens out for ann's turn: bob, ann's left, is next
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"


def test_R_O3_substitute_leaving_mid_point_dice_go_on_from_the_warned_shooter():
    g = table(4)
    sanction(g, "ann")
    run(g, {"command": "substitute", "player": "cy"}, throw(3, 3))
    ev = g.apply({"command": "leave", "player": "cy"})
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"
    assert g.state()["shooter"] == "bob" and g.state()["point"] == 6


def test_R_O3_shooter_cannot_leave_while_his_throw_rolls_or_awaits():
    g = table(2)
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, {"command": "leave", "player": "ann"}, SeatingError, "R-O3")
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "cocked"})
    refused_unchanged(g, {"command": "leave", "player": "ann"}, SeatingError, "R-O3")


# ---------------------------------------------------------------- throw and line
def test_R_T1_void_is_no_throw_for_the_come_out_or_propositions():
    g = table(2)
    run(g, side("p", "proposition", "ann", "bob", 1, 10, wins=[12], within=1))
    for rule in ("R-I1", "R-I2", "R-I3"):
        run(g, {"command": "void", "rule": rule, "reason": "x"})
    st = g.state()
    assert st["throws"] == 0 and st["phase"] == "come_out"
    assert st["side_bets"][0]["throws_seen"] == 0


def test_R_T2_total_of_faces_order_does_not_matter():
    for d in ((1, 3), (3, 1), (2, 2)):
        g = table(2)
        assert g.apply(throw(*d))[-1] == {"event": "point_set", "shooter": "ann", "point": 4,
                                          "rule": "R-B4"}


def test_R_B1_void_first_throw_leaves_the_next_throw_a_come_out():
    g = table(2)
    run(g, {"command": "void", "rule": "R-I1", "reason": "off the table"})
    assert names(g.apply(throw(5, 6)))[:2] == ["come_out", "natural"]
    # a new shooter after a seven-out starts with a come-out
    run(g, throw(2, 2), throw(3, 4))
    assert g.state()["shooter"] == "bob" and g.apply(throw(6, 6))[0]["event"] == "come_out"


def test_R_B2_natural_keeps_the_dice():
    g = table(2)
    ev = g.apply(throw(5, 6))
    assert names(ev) == ["come_out", "natural"] and g.state()["shooter"] == "ann"


def test_R_B3_craps_keeps_the_dice_and_twelve_is_craps():
    g = table(2)
    for d in ((6, 6), (1, 2), (1, 1)):
        assert names(g.apply(throw(*d))) == ["come_out", "craps"]
    assert g.state()["shooter"] == "ann" and g.state()["point"] is None


def test_R_B4_eleven_and_two_after_the_point_have_no_bearing():
    g = table(2)
    run(g, throw(4, 5))
    for d in ((5, 6), (1, 1), (6, 6), (1, 2), (4, 4)):
        assert names(g.apply(throw(*d))) == ["thrown"]
    assert g.state()["point"] == 9


def test_R_B5_point_made_any_way_keeps_the_dice():
    g = table(2)
    run(g, throw(2, 4))
    assert names(g.apply(throw(5, 1)))[-1] == "point_made"
    assert g.state()["shooter"] == "ann" and g.state()["point"] is None


def test_R_B6_seven_out_passes_even_with_a_substitute_to_next_after_turn():
    g = table(3)
    sanction(g, "ann")
    run(g, {"command": "substitute", "player": "cy"}, throw(2, 2))
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0] == {"event": "dice_passed", "from": "cy", "to": "bob",
                                             "reason": "seven_out"}
    assert g.state()["turn_of"] == "bob"


# ---------------------------------------------------------------- passing and changing dice
def test_R_D1_barred_shooter_skipped_by_the_rotation():
    g = table(4)
    sanction(g, "bob", "R-I5")
    run(g, {"command": "bar", "player": "bob"}, throw(2, 2))
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0]["to"] == "cy"
    refused_unchanged(g, {"command": "shooter", "player": "bob"}, SeatingError, "R-O1")


def test_R_D2_no_pass_with_a_point_pending_returns_center_when_allowed():
    g = table(3, buy_in=100)
    center(g, 20, bob=20)
    ev = g.apply({"command": "pass_dice"})
    assert by_name(ev, "center_called_off")[0]["returned"] == {"ann": 20, "bob": 20}
    assert g.state()["shooter"] == "bob" and g.state()["escrow"] == {"ann": 0, "bob": 0, "cy": 0}
    run(g, throw(4, 6))
    err = refused_unchanged(g, {"command": "pass_dice"}, DicePassError, "R-D2")
    assert "10" in str(err)


def test_R_D3_substitute_finishes_turn_and_then_the_dice_move_on():
    g = table(4)
    sanction(g, "ann")
    run(g, {"command": "substitute", "player": "dee"})
    run(g, throw(4, 4), throw(4, 4))  # dee makes ann's point and keeps shooting her turn
    assert g.state()["shooter"] == "dee" and g.state()["turn_of"] == "ann"
    run(g, throw(2, 3))
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"
    assert g.state()["shooter"] == g.state()["turn_of"] == "bob"


def test_R_D3_bar_needs_an_open_sanction_and_barred_player_still_bets():
    g = table(3)
    refused_unchanged(g, {"command": "bar", "player": "bob"}, SanctionNotOpen, "R-I3")
    sanction(g, "bob", "R-I5")
    run(g, {"command": "bar", "player": "bob"})
    run(g, side("l", "line", "bob", "cy", 10, 10))
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, SanctionNotOpen, "R-I3")


def test_R_X1_change_called_mid_point_waits_and_a_second_call_does_not_cancel_it():
    g = table(2)
    run(g, throw(3, 3))
    ev = g.apply({"command": "change_dice", "player": "bob"})
    assert names(ev) == ["dice_change_called"] and g.state()["dice_pair"] == 0
    # another player also calls for new dice: the change stays called, not cancelled
    with pytest.raises(DiceChangeError) as info:
        g.apply({"command": "change_dice", "player": "ann"})
    assert info.value.rule == "R-X1"
    assert g.state()["dice_change_pending"] == 1
    assert "dice_changed" not in names(g.apply(throw(2, 2)))  # mid-point: waits
    assert "dice_changed" in names(g.apply(throw(3, 3)))  # decision: before the next come-out
    assert g.state()["dice_pair"] == 1


def test_R_X1_change_then_void_on_come_out_takes_effect():
    g = table(2)
    run(g, {"command": "dice_rolling"}, {"command": "change_dice"})
    assert g.state()["dice_change_pending"] == 1
    ev = g.apply({"command": "void", "rule": "R-I1", "reason": "off"})
    assert names(ev) == ["throw_void", "dice_changed"]


# ---------------------------------------------------------------- the center bet
def test_R_C1_center_bet_above_balance_and_only_by_the_shooter_refused():
    g = table(2, buy_in=50)
    refused_unchanged(g, {"command": "center_bet", "amount": 51}, InsufficientBalance, "R-C1")
    run(g, {"command": "center_bet", "amount": 50})
    refused_unchanged(g, {"command": "center_bet", "amount": 10}, CenterBetError, "R-C1")


def test_R_C2_shooter_cannot_fade_his_own_bet_nor_the_substitute_throwing_it():
    g = table(3)
    run(g, {"command": "center_bet", "amount": 20})
    refused_unchanged(g, {"command": "fade", "player": "ann", "amount": 5}, CenterBetError, "R-C2")
    sanction(g, "ann")
    run(g, {"command": "substitute", "player": "bob"})
    # bob now throws ann's center bet: fading it would be betting against his own throw
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 5}, CenterBetError, "R-C2")


def test_R_C2_fader_may_not_become_the_substitute_throwing_against_his_fade():
    g = table(3)
    center(g, 20, bob=20)
    sanction(g, "ann")
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, CenterBetError, "R-C2")


def test_R_C2_fade_above_free_balance_refused_escrow_does_not_count():
    g = table(3, buy_in=50)
    center(g, 50, bob=10)
    run(g, side("x", "number", "bob", "cy", 30, 30, number=6))
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 11},
                      InsufficientBalance, "R-C2")


def test_R_C3_several_faders_fill_the_bet_exactly():
    g = table(4)
    ev = center(g, 30, bob=10, cy=15, dee=5)
    assert ev[-1]["open"] == 0 and ev[-1]["covered"] == 30
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 1}, FadeTooMuch, "R-C6")


def test_R_C4_claim_after_losing_a_whole_fade_displaces_earlier_faders():
    g = table(3, buy_in=100, rules=TableRules(fade_first_claim=True))
    center(g, 20, bob=20)
    run(g, throw(5, 6))  # dice win: bob, who faded it all, lost
    center(g, 30, cy=10)
    # cy did not lose a whole fade: he may not claim
    refused_unchanged(g, {"command": "fade", "player": "cy", "amount": 30, "claim": True},
                      FadeClaimError, "R-C4")
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 20, "claim": True},
                      FadeClaimError, "R-C4")
    ev = g.apply({"command": "fade", "player": "bob", "amount": 30, "claim": True})
    assert by_name(ev, "fade_returned") == [
        {"event": "fade_returned", "player": "cy", "units": 10, "rule": "R-C4"}]
    assert g.state()["center_bet"]["fades"] == {"bob": 30}
    assert g.state()["escrow"] == {"ann": 30, "bob": 30, "cy": 0} and money(g) == 300
    # a claim is used once
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 30, "claim": True},
                      FadeClaimError, "R-C4")


def test_R_C4_two_faders_who_lost_give_no_claim():
    g = table(3, rules=TableRules(fade_first_claim=True))
    center(g, 20, bob=10, cy=10)
    run(g, throw(3, 4))
    assert g.state()["fade_claim"] is None


def test_R_C5_take_down_after_partial_fading_settles_only_the_faded_part():
    g = table(4, buy_in=100)
    center(g, 50, bob=10, cy=15)
    refused_unchanged(g, throw(3, 4), UncoveredCenterBet, "R-C5")
    ev = g.apply({"command": "take_down"})
    assert ev[0]["units"] == 25 and ev[0]["amount"] == 25
    ev = g.apply(throw(1, 2))  # craps: each fader his stake back and as much from ann
    settled = by_name(ev, "center_settled")[0]
    assert settled["amounts"] == {"bob": 10, "cy": 15, "ann": -25}
    assert g.state()["balances"] == {"ann": 75, "bob": 110, "cy": 115, "dee": 100}


def test_R_C6_raise_after_partial_fading_and_fading_goes_on():
    g = table(3, buy_in=100)
    center(g, 20, bob=15)
    refused_unchanged(g, {"command": "fade", "player": "cy", "amount": 6}, FadeTooMuch, "R-C6")
    refused_unchanged(g, {"command": "raise", "amount": 20}, CenterBetError, "R-C6")
    refused_unchanged(g, {"command": "raise", "amount": 101}, InsufficientBalance, "R-C6")
    ev = g.apply({"command": "raise", "amount": 40})
    assert ev[0]["open"] == 25
    run(g, {"command": "fade", "player": "cy", "amount": 25})
    ev = g.apply(throw(6, 5))
    assert by_name(ev, "center_settled")[0]["amounts"] == {"bob": -15, "cy": -25, "ann": 40}
    assert g.state()["balances"] == {"ann": 140, "bob": 85, "cy": 75}


def test_R_C7_center_settles_at_the_point_decision_not_before():
    g = table(3, buy_in=100)
    center(g, 20, bob=12, cy=8)
    ev = g.apply(throw(2, 3))
    assert not by_name(ev, "center_settled")
    assert g.state()["escrow"] == {"ann": 20, "bob": 12, "cy": 8}
    ev = g.apply(throw(4, 3))
    assert by_name(ev, "center_settled")[0]["amounts"] == {"bob": 12, "cy": 8, "ann": -20}
    assert g.state()["balances"] == {"ann": 80, "bob": 112, "cy": 108}


def test_R_C8_dice_win_probability_is_244_of_495():
    from tablectl.odds import side_bet_win_probability

    assert side_bet_win_probability("line", {}, None) == Fraction(244, 495)
    assert Fraction(1, 2) - Fraction(244, 495) == Fraction(7, 990)  # half of 1.414%


# ---------------------------------------------------------------- side bets
def test_R_S0_side_bet_above_free_balance_or_while_rolling_or_by_leaver_refused():
    g = table(3, buy_in=50)
    center(g, 40, bob=40)
    refused_unchanged(g, side("a", "line", "bob", "cy", 11, 10), InsufficientBalance, "R-S0")
    refused_unchanged(g, side("a", "line", "cy", "ann", 10, 11), InsufficientBalance, "R-S0")
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, side("a", "line", "cy", "ann", 5, 5), BetsClosed, "R-S0")
    run(g, throw(3, 3), side("h", "hardway", "cy", "ann", 1, 1, number=4),
        {"command": "leave", "player": "cy"})
    refused_unchanged(g, side("b", "number", "cy", "bob", 5, 5, number=8), PlayerLeft, "R-O3")


def test_R_S1_line_bet_after_the_come_out_refused_and_decided_with_a_new_shooter():
    g = table(3)
    run(g, side("r", "line", "bob", "cy", 10, 10), throw(2, 2))
    refused_unchanged(g, side("r2", "line", "bob", "cy", 10, 10), SideBetError, "R-S1")
    run(g, {"command": "leave", "player": "ann"})  # bob takes the dice for the point 4
    ev = g.apply(throw(1, 3))
    assert by_name(ev, "side_bet_won")[0]["player"] == "bob"


def test_R_S2_point_bet_before_a_point_refused_decided_by_seven_out():
    g = table(2)
    refused_unchanged(g, side("p", "point", "ann", "bob", 10, 20), SideBetError, "R-S2")
    run(g, throw(5, 5))
    ev = g.apply(side("p", "point", "ann", "bob", 10, 20))
    assert ev[0]["number"] == 10 and ev[0]["p_win"] == "1/3" and ev[0]["ev_for"] == "0/1"
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "side_bet_won")[0] == {"event": "side_bet_won", "id": "p",
                                              "player": "bob", "units": 10, "side": "against",
                                              "rule": "R-S2"}


def test_R_S3_come_wins_on_seven_out():
    g = table(2, buy_in=100)
    run(g, throw(3, 3), side("c", "come", "bob", "ann", 10, 10))
    ev = g.apply(throw(3, 4))  # the shooter's seven-out is the come bet's natural
    assert "seven_out" in names(ev)
    assert by_name(ev, "side_bet_won")[0]["player"] == "bob"
    assert g.state()["balances"] == {"ann": 90, "bob": 110}


def test_R_S3_come_bet_made_on_the_come_out_plays_like_the_line():
    g = table(2)
    run(g, side("c", "come", "bob", "ann", 10, 10))
    ev = g.apply(throw(4, 4))
    assert by_name(ev, "come_point_set")[0]["come_point"] == 8
    ev = g.apply(throw(5, 3))  # the shooter's point and the come point together
    assert "point_made" in names(ev) and by_name(ev, "side_bet_won")[0]["player"] == "bob"
    assert not by_name(ev, "side_bet_callable")


def test_R_S3_come_craps_does_not_touch_the_line():
    g = table(2)
    run(g, throw(2, 3), side("c", "come", "bob", "ann", 10, 10))
    ev = g.apply(throw(6, 6))
    assert names(ev)[0] == "thrown" and g.state()["point"] == 5
    assert by_name(ev, "side_bet_won")[0]["player"] == "ann"


def test_R_S4_call_off_only_by_a_party_carry_by_a_stranger_refused():
    g = table(3, buy_in=100)
    run(g, throw(2, 2), side("c", "come", "bob", "cy", 10, 10), throw(3, 3))
    ev = g.apply(throw(2, 2))  # point made, come point 6 pending
    assert by_name(ev, "side_bet_callable")[0]["come_point"] == 6
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "ann"},
                      CallOffNotAllowed, "R-S3")
    refused_unchanged(g, {"command": "carry", "id": "c", "player": "ann"},
                      CallOffNotAllowed, "R-S4")
    ev = g.apply({"command": "call_off", "id": "c", "player": "bob"})
    assert [e["units"] for e in ev] == [10, 10] and money(g) == 300
    assert g.state()["balances"] == {"ann": 100, "bob": 100, "cy": 100}


def test_R_S4_option_closes_once_the_dice_roll():
    g = table(2)
    run(g, throw(2, 2), side("c", "come", "bob", "ann", 10, 10), throw(3, 3), throw(2, 2))
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "bob"}, BetsClosed, "R-S0")


def test_R_S5_hardway_easy_loses_hard_wins_on_come_out_too():
    g = table(2, buy_in=100)
    run(g, side("h", "hardway", "bob", "ann", 10, 90, number=6))
    ev = g.apply(throw(3, 3))  # a hard 6 on the come-out: bets work on every throw
    assert by_name(ev, "side_bet_won")[0] == {"event": "side_bet_won", "id": "h",
                                              "player": "bob", "units": 90, "side": "for",
                                              "rule": "R-S5"}
    run(g, side("h2", "hardway", "bob", "ann", 10, 10, number=10))
    ev = g.apply(throw(6, 4))
    assert by_name(ev, "side_bet_won")[0]["player"] == "ann"
    assert g.state()["balances"] == {"ann": 20, "bob": 180}


def test_R_S6_number_call_off_refused_while_rolling_or_awaiting():
    g = table(2)
    run(g, side("n", "number", "ann", "bob", 5, 6, number=6))
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, {"command": "call_off", "id": "n", "player": "bob"}, BetsClosed, "R-S0")
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "cocked"})
    refused_unchanged(g, {"command": "call_off", "id": "n", "player": "bob"},
                      AwaitingRuling, "R-I2")
    run(g, {"command": "operator_ruling", "by": "op", "void": True})
    run(g, {"command": "call_off", "id": "n", "player": "bob"})
    assert g.state()["side_bets"] == []


def test_R_S7_within_counts_only_counted_throws_and_expires_exactly():
    g = table(2)
    run(g, side("p", "proposition", "bob", "ann", 1, 10, wins=["3-3"], within=2))
    run(g, {"command": "void", "rule": "R-I3", "reason": "no wall"}, throw(2, 4))  # easy 6
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "cocked"},
        {"command": "operator_ruling", "by": "op", "void": True})
    assert g.state()["side_bets"][0]["throws_seen"] == 1
    ev = g.apply(throw(2, 2))
    assert by_name(ev, "side_bet_won")[0]["player"] == "ann"


# ---------------------------------------------------------------- true odds
def test_R_Q1_higher_before_lower_odds():
    g = table(2)
    ev = g.apply(side("q", "proposition", "ann", "bob", 1, 3, wins=[12], loses=[4]))
    assert ev[0]["p_win"] == "1/4" and ev[0]["ev_for"] == "0/1"


def test_R_Q2_hardway_four_is_8_to_1():
    g = table(2)
    ev = g.apply(side("q", "hardway", "ann", "bob", 1, 8, number=4))
    assert ev[0]["p_win"] == "1/9" and ev[0]["ev_for"] == "0/1"


def test_R_Q3_any_craps_one_throw_is_8_to_1():
    g = table(2)
    ev = g.apply(side("q", "proposition", "ann", "bob", 1, 8, wins=[2, 3, 12], within=1))
    assert ev[0]["p_win"] == "1/9" and ev[0]["ev_against"] == "0/1"


# ---------------------------------------------------------------- irregularities
def test_R_I1_void_while_rolling_reopens_bets():
    g = table(2)
    run(g, {"command": "dice_rolling"}, {"command": "void", "rule": "R-I1", "reason": "left"})
    run(g, side("a", "line", "ann", "bob", 1, 1))
    assert g.state()["rolling"] is False


def test_R_I2_awaiting_ruling_blocks_bets_throws_and_warns():
    g = table(3)
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "cocked"})
    for cmd, exc in ((throw(3, 4), AwaitingRuling), ({"command": "center_bet", "amount": 5},
                                                      AwaitingRuling),
                     (side("s", "line", "bob", "cy", 1, 1), AwaitingRuling),
                     ({"command": "void", "rule": "R-I1", "reason": "x"}, AwaitingRuling),
                     ({"command": "pass_dice"}, AwaitingRuling),
                     ({"command": "await_ruling", "rule": "R-I2", "reason": "x"}, AwaitingRuling)):
        refused_unchanged(g, cmd, exc, "R-I2")
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "4 up", "dice": [4, 3]})
    assert names(ev) == ["operator_ruled", "come_out", "natural"]
    assert g.state()["awaiting_ruling"] is None and g.state()["throws"] == 1


def test_R_I2_override_after_the_warning_of_that_throw_still_possible():
    g = table(2, buy_in=100)
    center(g, 10, bob=10)
    # the rulings pipeline plays a one-wall throw as throw + warn (R-I3)
    run(g, throw(3, 4), {"command": "warn", "rule": "R-I3"})
    assert g.state()["balances"] == {"ann": 110, "bob": 90}
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "it was a 2",
                  "dice": [1, 1]})
    assert ev[0]["override"] is True and ev[0]["previous"] == [3, 4]
    assert g.state()["balances"] == {"ann": 90, "bob": 110}
    assert g.state()["warnings"] == {"ann": {"R-I3": 1}}  # the warning stands
    restored = Game.from_snapshot(g.snapshot())
    assert restored.snapshot() == g.snapshot()


def test_R_I2_override_refused_once_a_bet_followed_the_throw():
    g = table(2)
    run(g, throw(3, 4), side("a", "line", "ann", "bob", 1, 1))
    refused_unchanged(g, {"command": "operator_ruling", "by": "op", "dice": [1, 1]},
                      NoRulingPending, "R-I2")


def test_R_I2_override_of_a_seven_out_gives_the_dice_back():
    g = table(3, buy_in=100)
    center(g, 20, bob=20)
    run(g, throw(2, 2))
    ev = g.apply(throw(3, 4))
    assert g.state()["shooter"] == "bob" and by_name(ev, "dice_passed")
    ev = g.apply({"command": "operator_ruling", "by": "op", "dice": [1, 3]})
    assert "point_made" in names(ev)
    assert g.state()["shooter"] == "ann" and g.state()["balances"]["ann"] == 120
    assert money(g) == 300


def test_R_I3_second_one_wall_throw_opens_the_sanction_not_the_first():
    g = table(3)
    run(g, throw(3, 3))
    ev = g.apply({"command": "warn", "rule": "R-I3"})
    assert names(ev) == ["warned"]
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, SanctionNotOpen, "R-I3")
    ev = g.apply({"command": "warn", "rule": "R-I3"})
    assert names(ev) == ["warned", "sanction_open"]
    ev = g.apply({"command": "bar", "player": "ann"})  # mid-point: bob finishes the turn
    assert by_name(ev, "substituted")[0]["player"] == "bob"
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"  # next after ann (barred)


def test_R_I4_wall_then_object_counts():
    g = table(2)
    assert names(g.apply(throw(6, 5))) == ["come_out", "natural"]


def test_R_I5_knock_aside_sanction_is_a_bar_not_a_substitute():
    g = table(3)
    sanction(g, "ann", "R-I5")
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, SanctionNotOpen, "R-I3")
    ev = g.apply({"command": "bar", "player": "ann"})
    assert ev[0] == {"event": "barred", "player": "ann", "rule": "R-I5"}
    assert g.state()["shooter"] == "bob"
    refused_unchanged(g, throw(3, 4) | {"player": "ann"}, BarredShooter, "R-D3")


# ---------------------------------------------------------------- refusal messages
REFUSALS = [
    # (setup commands, refused command)
    ([], {"command": "fade", "player": "bob", "amount": 5}),
    ([{"command": "center_bet", "amount": 10}], {"command": "fade", "player": "bob", "amount": 11}),
    ([{"command": "center_bet", "amount": 10}], {"command": "fade", "player": "ann", "amount": 5}),
    ([{"command": "center_bet", "amount": 10}], throw(3, 4)),
    ([], {"command": "center_bet", "amount": 5000}),
    ([throw(2, 2)], {"command": "pass_dice"}),
    ([throw(2, 2)], {"command": "center_bet", "amount": 5}),
    ([], side("p", "point", "ann", "bob", 1, 1)),
    ([throw(2, 2)], side("p", "line", "ann", "bob", 1, 1)),
    ([], {"command": "bar", "player": "bob"}),
    ([], {"command": "substitute", "player": "bob"}),
    ([{"command": "dice_rolling"}], side("p", "line", "ann", "bob", 1, 1)),
    ([{"command": "await_ruling", "rule": "R-I2", "reason": "x"}], throw(3, 4)),
    ([], {"command": "operator_ruling", "by": "op", "dice": [1, 1]}),
    ([side("n", "line", "ann", "bob", 1, 1)], {"command": "call_off", "id": "n",
                                               "player": "ann"}),
    ([], {"command": "call_off", "id": "zz", "player": "ann"}),
    ([], {"command": "join", "player": "ann", "buy_in": 5}),
    ([throw(2, 2)], {"command": "shooter", "player": "bob"}),
]


@pytest.mark.parametrize("setup, command", REFUSALS)
def test_refusals_name_the_rule_and_say_what_to_do(setup, command):
    g = table(2)
    run(g, *setup)
    with pytest.raises(RuleViolation) as info:
        g.apply(command)
    e = info.value
    text = str(e) + " " + (e.detail or "")
    assert e.rule.startswith("R-") and str(e).startswith(e.rule + ": ")
    # what to do: a command to use, a wait, or the figures to stay within
    hints = ("(", "once", "first", "until", "only", "at most", "join", "wait", "before", "when",
             "after", "may", "raise", "take_down", "no_bet", "operator_ruling", "pass_dice")
    assert any(h in text for h in hints), text


def test_R_D3_barred_substitute_dice_go_on_from_the_warned_shooter():
    g = table(4)
    sanction(g, "ann")
    sanction(g, "cy", "R-I5")
    run(g, {"command": "substitute", "player": "cy"}, {"command": "bar", "player": "ann"})
    ev = g.apply({"command": "bar", "player": "cy"})  # before a come-out: a new turn for bob
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"
    g = table(4)
    sanction(g, "ann")
    sanction(g, "cy", "R-I5")
    run(g, {"command": "substitute", "player": "cy"}, throw(5, 5))
    ev = g.apply({"command": "bar", "player": "cy"})  # mid-point: bob finishes ann's turn
    assert by_name(ev, "substituted")[0]["player"] == "bob"
    assert g.state()["turn_of"] == "ann"
    ev = g.apply(throw(3, 4))
    assert by_name(ev, "dice_passed")[0]["to"] == "bob"


def test_R_C4_claim_lapses_after_a_come_out_without_a_center_bet():
    g = table(3, rules=TableRules(fade_first_claim=True))
    center(g, 20, bob=20)
    run(g, throw(5, 6))
    assert g.state()["fade_claim"] == "bob"
    run(g, throw(5, 6))  # the next come-out had no center bet: that was the claim's come-out
    assert g.state()["fade_claim"] is None
    center(g, 20)
    refused_unchanged(g, {"command": "fade", "player": "bob", "amount": 20, "claim": True},
                      FadeClaimError, "R-C4")


def test_R_S4_one_partys_carry_does_not_take_the_others_call_off_away():
    g = table(3, buy_in=100)
    run(g, throw(2, 2), side("c", "come", "bob", "cy", 10, 10), throw(5, 5), throw(2, 2))
    ev = g.apply({"command": "carry", "id": "c", "player": "cy"})
    assert ev[0]["final"] is False and ev[0]["by"] == "cy"
    # bob (a come point 10 against him) may still call it off before the next throw
    ev = g.apply({"command": "call_off", "id": "c", "player": "bob"})
    assert names(ev) == ["side_bet_returned", "side_bet_returned"]
    # both parties carrying closes the option at once
    run(g, throw(2, 2), side("d", "come", "bob", "cy", 10, 10), throw(5, 5), throw(2, 2))
    assert g.state()["side_bets"][0]["may_call_off"] is True
    run(g, {"command": "carry", "id": "d", "player": "bob"})
    restored = Game.from_snapshot(g.snapshot())
    assert restored.snapshot() == g.snapshot()
    ev = g.apply({"command": "carry", "id": "d", "player": "cy"})
    assert ev[0]["final"] is True
    refused_unchanged(g, {"command": "call_off", "id": "d", "player": "bob"},
                      CallOffNotAllowed, "R-S4")


def test_R_S4_override_of_the_lapsing_throw_restores_a_half_carry():
    g = table(2, buy_in=100)
    run(g, throw(2, 2), side("c", "come", "bob", "ann", 10, 10), throw(3, 3), throw(2, 2),
        {"command": "carry", "id": "c", "player": "ann"}, throw(1, 2))
    assert g.state()["side_bets"][0]["carried"] is True
    run(g, {"command": "operator_ruling", "by": "op", "void": True})
    bet = g.state()["side_bets"][0]
    assert bet["may_call_off"] is True and bet["kept_by"] == "ann" and bet["carried"] is False
    run(g, {"command": "call_off", "id": "c", "player": "bob"})
    assert money(g) == 200 and g.state()["escrow"] == {"ann": 0, "bob": 0}


def test_R_O3_owner_of_the_center_bet_who_left_cannot_raise_it():
    g = table(3, buy_in=100)
    sanction(g, "ann")
    center(g, 20, cy=10)
    run(g, {"command": "substitute", "player": "bob"}, {"command": "leave", "player": "ann"})
    refused_unchanged(g, {"command": "raise", "amount": 40}, PlayerLeft, "R-O3")
    ev = g.apply({"command": "take_down"})  # the uncovered part goes back to her
    assert ev[0]["units"] == 10 and g.state()["escrow"]["ann"] == 10


def test_R_O3_everyone_leaves_before_the_come_out_all_paid_in_full():
    g = table(3, buy_in=100)
    center(g, 30, bob=20, cy=10)
    run(g, side("n", "number", "bob", "cy", 5, 5, number=6))
    events = run(g, {"command": "leave", "player": "bob"}, {"command": "leave", "player": "cy"},
                 {"command": "call_off", "id": "n", "player": "cy"},
                 {"command": "leave", "player": "ann"})
    paid = {e["player"]: e["units"] for e in by_name(events, "cashed_out")}
    assert paid == {"ann": 100, "bob": 100, "cy": 100}
    assert g.state()["balances"] == {} and g.state()["escrow"] == {} and g.money_total() == 0
    # a new evening at the same table: anyone may be named shooter again
    run(g, {"command": "join", "player": "dee", "buy_in": 50},
        {"command": "join", "player": "bob", "buy_in": 50},
        {"command": "shooter", "player": "bob"})
    assert g.state()["shooter"] == "bob"
