"""Side bets between two players (R-S0..R-S7) and their true odds (R-Q1..R-Q3)."""

from fractions import Fraction

import pytest

from tablectl.game import CommandError
from tablectl.game.errors import (
    AwaitingRuling,
    BetsClosed,
    CallOffNotAllowed,
    InsufficientBalance,
    SideBetError,
)

from .helpers import names, refused_unchanged, run, side, table, throw


def decided(events, bet_id):
    """(winner, units won) of a side bet among the events, or None."""
    won = [e for e in events if e["event"] == "side_bet_won" and e["id"] == bet_id]
    return (won[0]["player"], won[0]["units"]) if won else None


def test_R_S0_stakes_in_escrow_and_event_carries_true_odds():
    g = table(3)
    ev = g.apply(side("h6", "hardway", "bob", "cy", 10, 90, number=6))
    e = ev[0]
    assert e["stakes"] == {"bob": 10, "cy": 90} and e["number"] == 6
    p = Fraction(e["p_win"])
    assert p == Fraction(1, 11)  # 10-1 against (R-S5)
    assert Fraction(e["ev_for"]) == p * 90 - (1 - p) * 10 == -Fraction(e["ev_against"])
    assert g.ledger.escrow == {"ann": 0, "bob": 10, "cy": 90}


def test_R_S0_side_bet_while_the_dice_roll_refused():
    g = table(3)
    run(g, {"command": "dice_rolling"})
    err = refused_unchanged(g, side("x", "number", "bob", "cy", 5, 5, number=6), BetsClosed,
                            "R-S0")
    assert "while the dice roll" in str(err)
    run(g, throw(3, 3))
    assert names(g.apply(side("x", "number", "bob", "cy", 5, 5, number=6))) == ["side_bet_made"]


def test_R_S0_no_bet_while_awaiting_a_ruling_and_stake_above_balance_refused():
    g = table(3, buy_in=20)
    refused_unchanged(g, side("x", "come", "bob", "cy", 21, 5), InsufficientBalance, "R-S0")
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "die under the ashtray"})
    refused_unchanged(g, side("x", "come", "bob", "cy", 5, 5), AwaitingRuling, "R-I2")


def test_R_S0_ids_are_never_reused_and_shooter_may_bet():
    g = table(3)
    run(g, side("a", "line", "ann", "bob", 5, 5), throw(3, 4))
    refused_unchanged(g, side("a", "line", "ann", "bob", 5, 5), SideBetError, "R-S0")


@pytest.mark.parametrize("bad, match", [
    ({"kind": "parlay"}, "kind"),
    ({"against": "bob"}, "two different players"),
    ({"stakes": {"bob": 5}}, "stakes"),
    ({"stakes": {"bob": 5, "cy": 0}}, "whole units"),
    ({"kind": "hardway", "number": 5}, "4, 6, 8, 10"),
    ({"kind": "number", "number": 7}, "other than 7"),
    ({"kind": "proposition"}, "wins"),
    ({"kind": "proposition", "wins": [8]}, "within"),
    ({"kind": "proposition", "wins": [8, "4-4"], "loses": ["4-4", 7]}, "share an outcome"),
    ({"kind": "proposition", "wins": ["7-1"], "within": 1}, "combination"),
    ({"kind": "proposition", "wins": [13], "within": 1}, "2..12"),
    ({"kind": "proposition", "wins": [8], "within": 0}, "within"),
    ({"id": None}, "id"),
])
def test_R_S0_malformed_side_bets_are_command_errors(bad, match):
    g = table(3)
    cmd = side("ok", "come", "bob", "cy", 5, 5)
    cmd.update(bad)
    before = g.snapshot()
    with pytest.raises(CommandError, match=match):
        g.apply(cmd)
    assert g.snapshot() == before


def test_R_S1_right_and_wrong_decided_like_the_line():
    g = table(3)
    run(g, side("r1", "line", "bob", "cy", 10, 10), side("r2", "line", "cy", "bob", 10, 10))
    ev = g.apply(throw(2, 1))  # missout: wrong wins
    assert decided(ev, "r1") == ("cy", 10) and decided(ev, "r2") == ("bob", 10)
    run(g, side("r4", "line", "bob", "cy", 10, 10), throw(4, 4))
    refused_unchanged(g, side("r5", "line", "bob", "cy", 1, 1), SideBetError, "R-S1")
    ev = run(g, throw(1, 1), throw(6, 2))  # point 8 made: right wins
    assert decided(ev, "r4") == ("bob", 10)


def test_R_S2_point_bets_only_with_a_point_and_their_odds():
    g = table(3)
    refused_unchanged(g, side("p", "point", "bob", "cy", 5, 5), SideBetError, "R-S2")
    expected = {4: Fraction(1, 3), 10: Fraction(1, 3), 5: Fraction(2, 5), 9: Fraction(2, 5),
                6: Fraction(5, 11), 8: Fraction(5, 11)}  # 2-1, 3-2, 6-5 against
    for i, (pt, p) in enumerate(sorted(expected.items())):
        g2 = table(3)
        d = min(6, pt - 1)
        run(g2, throw(d, pt - d))
        ev = g2.apply(side(f"p{i}", "point", "bob", "cy", 5, 5))
        assert Fraction(ev[0]["p_win"]) == p and ev[0]["number"] == pt
    run(g, throw(5, 5), side("p", "point", "cy", "bob", 10, 20))
    ev = g.apply(throw(3, 4))
    assert decided(ev, "p") == ("bob", 10)


def test_R_S3_come_bet_seven_on_its_come_out_wins_even_at_seven_out():
    g = table(3)
    run(g, throw(4, 4), side("c", "come", "bob", "cy", 10, 10))
    ev = g.apply(throw(3, 4))
    assert "seven_out" in names(ev) and decided(ev, "c") == ("bob", 10)


def test_R_S3_come_bet_craps_loses_and_come_point_is_decided_by_number_or_seven():
    g = table(3)
    run(g, throw(4, 4), side("c1", "come", "bob", "cy", 10, 10),
        side("c2", "come", "bob", "cy", 10, 10))
    ev = g.apply(throw(1, 2))
    assert names(ev) == ["thrown", "side_bet_won", "side_bet_lost", "side_bet_won",
                         "side_bet_lost"]
    assert decided(ev, "c1") == ("cy", 10) and g.point == 8
    run(g, side("c3", "come", "bob", "cy", 10, 10), side("c4", "come", "cy", "bob", 10, 10))
    ev = g.apply(throw(2, 3))
    assert [e["come_point"] for e in ev if e["event"] == "come_point_set"] == [5, 5]
    ev = g.apply(throw(4, 1))
    assert decided(ev, "c3") == ("bob", 10) and decided(ev, "c4") == ("cy", 10)


def test_R_S4_come_bet_callable_when_shooter_makes_his_point():
    g = table(3)
    run(g, throw(4, 4), side("c", "come", "bob", "cy", 10, 15), throw(3, 3))  # come point 6
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "bob"},
                      CallOffNotAllowed, "R-S4")
    ev = g.apply(throw(5, 3))  # the shooter makes his 8 before the come 6
    assert names(ev)[-1] == "side_bet_callable"
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "ann"},
                      CallOffNotAllowed, "R-S3")
    ev = g.apply({"command": "call_off", "id": "c", "player": "cy"})
    assert [(e["player"], e["units"]) for e in ev] == [("bob", 10), ("cy", 15)]
    assert g.bets == {} and sum(g.ledger.escrow.values()) == 0


def test_R_S4_carried_come_bet_loses_to_seven_on_next_come_out():
    g = table(3)
    run(g, throw(4, 4), side("c", "come", "bob", "cy", 10, 10), throw(3, 3), throw(5, 3))
    ev = g.apply({"command": "carry", "id": "c"})
    assert ev[0]["event"] == "side_bet_carried" and ev[0]["come_point"] == 6
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "bob"},
                      CallOffNotAllowed, "R-S4")
    ev = g.apply(throw(3, 4))  # a natural for the line, but the carried come bet loses
    assert "natural" in names(ev) and decided(ev, "c") == ("cy", 10)


def test_R_S4_option_lapses_with_the_next_throw_bet_keeps_working():
    g = table(3)
    run(g, throw(4, 4), side("c", "come", "bob", "cy", 10, 10), throw(3, 3), throw(5, 3))
    run(g, throw(5, 5))  # next come-out: point 10; the come bet is carried
    refused_unchanged(g, {"command": "call_off", "id": "c", "player": "bob"},
                      CallOffNotAllowed, "R-S4")
    refused_unchanged(g, {"command": "carry", "id": "c"}, CallOffNotAllowed, "R-S4")
    assert decided(g.apply(throw(1, 5)), "c") == ("bob", 10)


@pytest.mark.parametrize("number, p", [(4, Fraction(1, 9)), (6, Fraction(1, 11)),
                                       (8, Fraction(1, 11)), (10, Fraction(1, 9))])
def test_R_S5_hardway_odds_8_1_and_10_1(number, p):
    g = table(3)
    ev = g.apply(side("h", "hardway", "bob", "cy", 1, 1, number=number))
    assert Fraction(ev[0]["p_win"]) == p


def test_R_S5_hardway_wins_hard_loses_easy_or_seven():
    g = table(3)
    run(g, side("h1", "hardway", "bob", "cy", 1, 10, number=8),
        side("h2", "hardway", "bob", "cy", 1, 10, number=6),
        side("h3", "hardway", "bob", "cy", 1, 8, number=4))
    ev = g.apply(throw(6, 2))  # easy 8
    assert decided(ev, "h1") == ("cy", 1) and decided(ev, "h2") is None
    ev = g.apply(throw(3, 3))  # hard 6
    assert decided(ev, "h2") == ("bob", 10)
    ev = run(g, throw(5, 1), throw(3, 4))  # easy 6 does not touch the 4; then seven
    assert decided(ev, "h3") == ("cy", 1)


def test_R_S6_number_before_seven_and_call_off_by_either_party():
    g = table(3)
    run(g, side("n5", "number", "bob", "cy", 10, 15, number=5),
        side("n9", "number", "cy", "bob", 10, 15, number=9),
        side("n11", "number", "cy", "bob", 3, 45, number=11))
    ev = g.apply({"command": "call_off", "id": "n9", "player": "bob"})
    assert ev[0]["rule"] == "R-S6" and ev[0]["by"] == "bob"
    ev = run(g, throw(2, 2), throw(4, 1))
    assert decided(ev, "n5") == ("bob", 15)
    refused_unchanged(g, {"command": "call_off", "id": "n5", "player": "bob"},
                      CallOffNotAllowed, "R-S0")
    refused_unchanged(g, {"command": "call_off", "id": "zz", "player": "bob"},
                      CallOffNotAllowed, "R-S0")
    run(g, {"command": "dice_rolling"})
    refused_unchanged(g, {"command": "call_off", "id": "n11", "player": "bob"},
                      BetsClosed, "R-S0")


def test_R_S6_other_bets_cannot_be_called_off():
    g = table(3)
    run(g, side("h", "hardway", "bob", "cy", 1, 1, number=4))
    refused_unchanged(g, {"command": "call_off", "id": "h", "player": "bob"},
                      CallOffNotAllowed, "R-S5")


def test_R_S7_one_throw_specific_combination_either_order():
    g = table(3)
    run(g, side("a", "proposition", "bob", "cy", 1, 17, wins=["5-6"], within=1),
        side("b", "proposition", "bob", "cy", 1, 35, wins=["3-3"], within=1))
    ev = g.apply(throw(6, 5))
    assert decided(ev, "a") == ("bob", 17) and decided(ev, "b") == ("cy", 1)


def test_R_S7_within_n_throws_counts_only_counted_throws():
    g = table(3)
    run(g, side("w", "proposition", "bob", "cy", 5, 5, wins=[2, 3, 12], within=2))
    run(g, {"command": "void", "rule": "R-I1", "reason": "off the table"})
    assert decided(g.apply(throw(2, 2)), "w") is None
    ev = g.apply(throw(2, 3))
    assert decided(ev, "w") == ("cy", 5)


def test_R_S7_groups_before_other_groups_and_x_before_seven():
    g = table(3)
    run(g, side("g", "proposition", "bob", "cy", 5, 5, wins=[4, 5, 6], loses=[8, 9, 10]),
        side("x", "proposition", "cy", "bob", 5, 6, wins=[6], loses=[7]),
        side("hi", "proposition", "bob", "cy", 3, 1, wins=[12], loses=[4]))
    ev = g.apply(throw(1, 1))
    assert all(decided(ev, i) is None for i in "gxhi")
    ev = g.apply(throw(4, 2))
    assert decided(ev, "g") == ("bob", 5) and decided(ev, "x") == ("cy", 6)
    ev = g.apply(throw(3, 1))
    assert decided(ev, "hi") == ("cy", 3)


def test_R_S7_within_and_loses_together():
    g = table(3)
    run(g, side("p", "proposition", "bob", "cy", 5, 5, wins=[8], loses=[7], within=3))
    ev = run(g, throw(1, 1), throw(1, 2), throw(1, 3))  # three throws, no 8, no 7
    assert decided(ev, "p") == ("cy", 5)


def test_R_Q1_number_before_seven_odds_table1():
    g = table(3)
    # odds against before a 7: 4: 2-1, 5: 3-2, 6: 6-5, 2: 6-1, 3: 3-1, 11: 3-1, 12: 6-1
    expected = {4: Fraction(1, 3), 5: Fraction(2, 5), 6: Fraction(5, 11), 2: Fraction(1, 7),
                3: Fraction(1, 4), 11: Fraction(1, 4), 12: Fraction(1, 7)}
    for n, p in expected.items():
        ev = g.apply(side(f"n{n}", "number", "bob", "cy", 1, 1, number=n))
        assert Fraction(ev[0]["p_win"]) == p
    ev = g.apply(side("hl", "proposition", "bob", "cy", 1, 1, wins=[12], loses=[4]))
    assert Fraction(ev[0]["p_win"]) == Fraction(1, 4)  # 12 before 4: 3-1 against


def test_R_Q2_hardway_odds_table2_losing_ways_to_one():
    g = table(3)
    ev = g.apply(side("h", "hardway", "bob", "cy", 1, 1, number=10))
    assert Fraction(ev[0]["p_win"]) == Fraction(1, 1 + 2 + 6)  # 1 hard, 2 easy, 6 sevens


def test_R_Q3_one_throw_odds():
    g = table(3)
    cases = {"p33": (["3-3"], Fraction(1, 36)), "p65": (["6-5"], Fraction(1, 18)),
             "craps": ([2, 3, 12], Fraction(1, 9))}
    for i, (wins, p) in cases.items():
        ev = g.apply(side(i, "proposition", "bob", "cy", 1, 1, wins=wins, within=1))
        assert Fraction(ev[0]["p_win"]) == p


def test_R_S0_settlement_events_name_player_and_units():
    g = table(3)
    run(g, side("n", "number", "bob", "cy", 4, 6, number=4))
    ev = g.apply(throw(2, 2))
    won, lost = ev[-2], ev[-1]
    assert won == {"event": "side_bet_won", "id": "n", "player": "bob", "units": 6,
                   "side": "for", "rule": "R-S6"}
    assert lost == {"event": "side_bet_lost", "id": "n", "player": "cy", "units": 6,
                    "side": "against", "rule": "R-S6"}
    assert g.ledger.balances == {"ann": 1000, "bob": 1006, "cy": 994}


def test_R_S7_lookalike_values_are_not_taken_from_the_parse_cache():
    g = table(3)
    run(g, side("ok", "proposition", "bob", "cy", 1, 1, wins=[8], within=1))
    run(g, side("ok2", "proposition", "bob", "cy", 1, 1, wins=[8], loses=[7, 4]))
    for i, bad in enumerate(({"wins": [8.0], "within": 1}, {"wins": [True], "within": 1},
                             {"wins": [8], "within": True}, {"wins": 8.0, "within": 1},
                             {"wins": [8], "loses": [7, 4.0]},
                             {"wins": [8], "loses": [7.0, 4]})):
        cmd = side(f"bad{i}", "proposition", "bob", "cy", 1, 1, **bad)
        with pytest.raises(CommandError):
            g.apply(cmd)
    ev = g.apply(side("single", "proposition", "bob", "cy", 1, 1, wins="4-4", loses=7))
    assert ev[0]["wins"] == ["4-4"] and ev[0]["loses"] == [7]
