"""Irregular throws, warnings, substitutes and bars (R-I1..R-I5, R-D3), operator rulings."""

import pytest

from tablectl.game import CommandError, TableRules
from tablectl.game.errors import (
    AwaitingRuling,
    BarredShooter,
    NoRulingPending,
    SanctionNotOpen,
    SeatingError,
)

from .helpers import center, names, refused_unchanged, run, side, table, throw


def test_R_I1_out_of_bounds_throw_is_void_and_shooter_throws_again():
    g = table(3)
    center(g, 10, bob=10)
    run(g, side("w", "proposition", "bob", "cy", 1, 1, wins=[7], within=1))
    ev = g.apply({"command": "void", "rule": "R-I1", "reason": "a die came to rest off the table"})
    assert ev == [{"event": "throw_void", "shooter": "ann", "rule": "R-I1",
                   "reason": "a die came to rest off the table"}]
    assert g.center is not None and "w" in g.bets and g.throws == 0
    with pytest.raises(CommandError, match="R-I1, R-I2, R-I3"):
        g.apply({"command": "void", "rule": "R-I5", "reason": "x"})


def test_R_I1_table_rule_out_of_bounds_setting():
    assert TableRules.from_mapping({"out_of_bounds": "any_time"}).out_of_bounds == "any_time"


def test_R_I2_operator_rules_a_value_for_the_cocked_die():
    g = table(3)
    center(g, 10, bob=10)
    ev = g.apply({"command": "await_ruling", "rule": "R-I2", "reason": "die 2 cocked",
                  "observation": {"dice": [{"value": 4}, {"value": None, "cocked": True}]}})
    assert ev[0]["event"] == "awaiting_ruling" and g.state()["awaiting_ruling"]["rule"] == "R-I2"
    refused_unchanged(g, throw(3, 4), AwaitingRuling, "R-I2")
    refused_unchanged(g, {"command": "no_bet"}, AwaitingRuling, "R-I2")
    refused_unchanged(g, {"command": "await_ruling", "rule": "R-I2", "reason": "again"},
                      AwaitingRuling, "R-I2")
    with pytest.raises(CommandError, match="either"):
        g.apply({"command": "operator_ruling", "by": "op", "why": "?", "dice": [4, 3],
                 "void": True})
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "leaning on 3",
                  "dice": [4, 3]})
    assert names(ev) == ["operator_ruled", "come_out", "natural", "center_settled"]
    assert ev[0] == {"event": "operator_ruled", "by": "op", "why": "leaning on 3",
                     "rule": "R-I2", "dice": [4, 3]}
    run(g, {"command": "center_bet", "amount": 5})
    refused_unchanged(g, {"command": "operator_ruling", "by": "op", "void": True},
                      NoRulingPending, "R-I2")


def test_R_I2_operator_cannot_decide_throw_is_void():
    g = table(3)
    run(g, throw(4, 4), {"command": "dice_rolling"},
        {"command": "await_ruling", "rule": "R-I2", "reason": "under the glass"})
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "cannot tell", "void": True})
    assert names(ev) == ["operator_ruled", "throw_void"] and g.point == 8
    assert names(g.apply(throw(4, 4)))[-1] == "point_made"


def test_R_I3_neither_die_hit_the_wall_void():
    g = table(3)
    ev = g.apply({"command": "void", "rule": "R-I3", "reason": "neither die hit the back wall"})
    assert ev[0]["rule"] == "R-I3" and g.state()["warnings"] == {}


def test_R_I3_one_die_warned_repeat_opens_sanction_then_substitute():
    g = table(3)
    run(g, throw(4, 4))
    ev = g.apply({"command": "warn", "rule": "R-I3"})
    assert ev == [{"event": "warned", "player": "ann", "rule": "R-I3", "count": 1}]
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, SanctionNotOpen, "R-I3")
    run(g, throw(2, 3))
    ev = g.apply({"command": "warn", "rule": "R-I3"})
    assert names(ev) == ["warned", "sanction_open"] and ev[1]["may"] == ["substitute", "bar"]
    refused_unchanged(g, {"command": "substitute", "player": "ann"}, SeatingError, "R-D3")
    ev = g.apply({"command": "substitute", "player": "cy"})
    assert ev == [{"event": "substituted", "player": "cy", "for": "ann", "rule": "R-I3"}]
    assert g.state()["shooter"] == "cy" and g.state()["turn_of"] == "ann"
    run(g, throw(4, 4), throw(1, 1))  # cy makes ann's point and keeps shooting her turn
    ev = g.apply(throw(3, 4))  # natural
    run(g, throw(5, 5))
    ev = g.apply(throw(3, 4))  # seven-out ends ann's turn: the dice go on from ann to bob
    assert ev[-1]["event"] == "dice_passed" and ev[-1]["to"] == "bob"


def test_R_I3_table_rule_warnings_before_sanction():
    g = table(3, rules=TableRules(warnings_before_sanction=2))
    for n in (1, 2):
        assert g.apply({"command": "warn", "rule": "R-I3"}) == [
            {"event": "warned", "player": "ann", "rule": "R-I3", "count": n}]
    assert names(g.apply({"command": "warn", "rule": "R-I3"})) == ["warned", "sanction_open"]


def test_R_I3_bar_mid_point_next_player_finishes_the_turn():
    g = table(3, rules=TableRules(warnings_before_sanction=0))
    center(g, 10, cy=10)
    run(g, throw(4, 5), {"command": "warn", "rule": "R-I3"})
    ev = g.apply({"command": "bar", "player": "ann"})
    assert names(ev) == ["barred", "substituted"] and g.shooter == "bob" and g.point == 9
    ev = g.apply(throw(5, 4))
    assert [e for e in ev if e["event"] == "center_settled"][0]["amounts"] == {
        "cy": -10, "ann": 10}


def test_R_I4_wall_then_object_throw_counts_normally():
    # the ruling layer rules such a throw "counts": the game plays it as any throw, no warning
    g = table(3)
    assert names(g.apply(throw(6, 5))) == ["come_out", "natural"]
    assert g.state()["warnings"] == {} and g.throws == 1


def test_R_I5_knock_aside_counts_as_dice_lie_second_time_may_bar():
    g = table(3)
    run(g, throw(2, 2), {"command": "warn", "rule": "R-I5"})
    refused_unchanged(g, {"command": "bar", "player": "ann"}, SanctionNotOpen, "R-I3")
    run(g, throw(1, 5))
    ev = g.apply({"command": "warn", "rule": "R-I5"})
    assert ev[1] == {"event": "sanction_open", "player": "ann", "rule": "R-I5", "may": ["bar"]}
    refused_unchanged(g, {"command": "substitute", "player": "bob"}, SanctionNotOpen, "R-I3")
    run(g, throw(2, 2))  # she makes the point: no point pending now
    ev = g.apply({"command": "bar", "player": "ann"})
    assert names(ev) == ["barred", "dice_passed"] and ev[0]["rule"] == "R-I5"
    assert g.shooter == "bob" and g.state()["barred"] == ["ann"]
    refused_unchanged(g, {"command": "bar", "player": "ann"}, SanctionNotOpen, "R-I5")


def test_R_D3_barred_player_may_bet_but_never_shoot():
    g = table(3, rules=TableRules(warnings_before_sanction=0))
    run(g, {"command": "warn", "rule": "R-I5"}, {"command": "bar", "player": "ann"})
    refused_unchanged(g, {"command": "shooter", "player": "ann"}, BarredShooter, "R-D3")
    refused_unchanged(g, {"command": "throw", "dice": [3, 4], "player": "ann"},
                      BarredShooter, "R-D3")
    run(g, {"command": "warn", "rule": "R-I3"})  # bob now has a sanction open too
    refused_unchanged(g, {"command": "substitute", "player": "ann"}, BarredShooter, "R-D3")
    center(g, 10, ann=10)  # ann fades: she may bet
    ev = g.apply(throw(3, 4))
    assert ev[-1]["amounts"] == {"ann": -10, "bob": 10}


def test_R_D3_substitute_appointed_by_the_players():
    g = table(4, rules=TableRules(warnings_before_sanction=0))
    run(g, {"command": "warn", "rule": "R-I3"})
    ev = g.apply({"command": "substitute", "player": "dee"})
    assert ev[0]["player"] == "dee" and ev[0]["for"] == "ann"
    run(g, throw(4, 4), throw(3, 4))  # seven-out: the turn of ann ends; next after ann
    assert g.shooter == "bob"


def test_R_I3_warning_after_a_seven_out_goes_to_who_threw():
    g = table(3)
    run(g, throw(4, 4), throw(3, 4))  # the ruling layer sends throw then warn
    ev = g.apply({"command": "warn", "rule": "R-I3"})
    assert ev[0]["player"] == "ann" and g.shooter == "bob"


def test_R_I2_operator_overrides_the_last_throw_with_other_dice():
    g = table(3)
    center(g, 10, bob=10)
    run(g, side("n", "number", "cy", "bob", 5, 5, number=11), throw(5, 6))  # natural, n won
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "die 2 showed 1",
                  "dice": [5, 1]})
    assert ev[0] == {"event": "operator_ruled", "by": "op", "why": "die 2 showed 1",
                     "rule": "R-I2", "override": True, "previous": [5, 6], "dice": [5, 1]}
    assert names(ev)[1:] == ["come_out", "point_set"]
    straight = table(3)
    center(straight, 10, bob=10)
    run(straight, side("n", "number", "cy", "bob", 5, 5, number=11), throw(5, 1))
    assert g.snapshot() == straight.snapshot()


def test_R_I2_operator_voids_the_last_throw_and_nothing_it_decided_stands():
    g = table(3, buy_in=100)
    center(g, 10, bob=10)
    run(g, {"command": "leave", "player": "bob"}, throw(3, 4))  # bob is paid out on the 7
    assert g.state()["cashed_out"] == {"bob": 90}
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "no wall", "void": True})
    assert names(ev) == ["operator_ruled", "throw_void"]
    assert g.state()["cashed_out"] == {} and g.ledger.escrow == {"ann": 10, "bob": 10, "cy": 0}
    assert g.throws == 0 and g.center.fades == {"bob": 10}


def test_R_I2_override_survives_a_snapshot_round_trip():
    import json

    from tablectl.game import Game

    g = table(3)
    run(g, throw(4, 4), side("c", "come", "bob", "cy", 5, 5), throw(3, 3), throw(4, 4))
    restored = Game.from_snapshot(json.loads(json.dumps(g.snapshot())))
    assert restored.snapshot() == g.snapshot()
    override = {"command": "operator_ruling", "by": "op", "why": "x", "dice": [6, 1]}
    assert restored.apply(override) == g.apply(override)
    assert restored.snapshot() == g.snapshot() and g.shooter == "bob"


# ---------------------------------------------------------------- overriding a void (R-I2)
VOID_R_I1 = {"command": "void", "rule": "R-I1", "reason": "die 2 came to rest outside the area"}


def _count_it(dice, why="the die lay inside the line"):
    return {"command": "operator_ruling", "by": "op", "why": why, "dice": dice}


def test_R_I2_operator_makes_a_void_throw_count_as_if_it_had_counted():
    def setup():
        g = table(3)
        center(g, 10, bob=10)
        run(g, side("n", "number", "cy", "bob", 5, 5, number=11),
            side("p", "proposition", "bob", "cy", 1, 15, wins=["5-6"], within=1))
        return g

    g = setup()
    run(g, {"command": "dice_rolling"}, VOID_R_I1)
    ev = g.apply(_count_it([6, 5]))
    assert ev[0] == {"event": "operator_ruled", "by": "op", "why": "the die lay inside the line",
                     "rule": "R-I2", "override": True,
                     "previous": {"void": True, "rule": "R-I1",
                                  "reason": "die 2 came to rest outside the area"},
                     "dice": [6, 5]}
    straight = setup()
    straight_events = run(straight, {"command": "dice_rolling"}, throw(6, 5))
    # the center bet, both side bets and the come-out: the same as a throw that counted
    assert ev[1:] == straight_events[1:]
    assert "center_settled" in names(ev) and g.bets == {} and g.throws == 1
    assert g.snapshot() == straight.snapshot()
    assert g.money_total() == straight.money_total()


def test_R_I2_a_void_made_to_count_can_be_a_seven_out_and_pass_the_dice():
    g = table(3)
    run(g, throw(4, 4), {"command": "void", "rule": "R-I3",
                         "reason": "neither die hit the back wall"})
    ev = g.apply(_count_it([3, 4], "both hit the wall"))
    assert names(ev)[1:] == ["thrown", "seven_out", "dice_passed"] and g.shooter == "bob"
    straight = table(3)
    run(straight, throw(4, 4), throw(3, 4))
    assert g.snapshot() == straight.snapshot()


def test_R_I2_what_the_void_changed_is_put_back_a_change_of_dice_included():
    def setup():
        g = table(3, rules=TableRules(dice_pairs=2))
        run(g, {"command": "dice_rolling"}, {"command": "change_dice"})
        return g

    g = setup()
    ev = g.apply(VOID_R_I1)
    assert names(ev) == ["throw_void", "dice_changed"] and g.dice_pair == 1
    ev = g.apply(_count_it([4, 4]))
    # the 8 is a point: the change waits for the next come-out again (R-X1)
    assert names(ev)[1:] == ["come_out", "point_set"]
    assert g.dice_pair == 0 and g.dice_change_to == 1 and not g.rolling
    straight = setup()
    straight.apply(throw(4, 4))
    assert g.snapshot() == straight.snapshot()


def test_R_I2_a_void_may_be_overridden_after_its_warning_but_not_after_play_went_on():
    g = table(3)
    run(g, VOID_R_I1, {"command": "warn", "rule": "R-I3"})
    assert names(g.apply(_count_it([2, 2])))[1:] == ["come_out", "point_set"]
    g = table(3)
    run(g, VOID_R_I1, {"command": "center_bet", "amount": 5})
    refused_unchanged(g, _count_it([2, 2]), NoRulingPending, "R-I2")


def test_R_I2_voiding_a_void_is_refused_saying_it_is_void_already():
    g = table(3)
    g.apply(VOID_R_I1)
    refused_unchanged(g, {"command": "operator_ruling", "by": "op", "why": "?", "void": True},
                      NoRulingPending, "R-I2")
    with pytest.raises(NoRulingPending, match=r"void already \(R-I1: die 2 came to rest"):
        g.apply({"command": "operator_ruling", "by": "op", "why": "?", "void": True})
    assert names(g.apply(_count_it([1, 1])))[1:] == ["come_out", "craps"]  # still open


def test_R_I2_a_void_made_to_count_is_refused_when_a_come_out_was_not_allowed():
    from tablectl.game.errors import UncoveredCenterBet

    g = table(3)
    center(g, 10, bob=4)  # 6 not faded: no come-out may count (R-C5)
    g.apply(VOID_R_I1)
    refused_unchanged(g, _count_it([3, 4]), UncoveredCenterBet, "R-C5")


def test_R_I2_the_operators_own_void_and_a_voided_override_can_be_overridden_again():
    g = table(3)
    run(g, {"command": "await_ruling", "rule": "R-I2", "reason": "die 1 cocked"},
        {"command": "operator_ruling", "by": "op", "why": "cannot tell", "void": True})
    ev = g.apply(_count_it([5, 5], "seen again on the picture"))
    assert ev[0]["previous"] == {"void": True, "rule": "R-I2", "reason": "cannot tell"}
    assert g.point == 10 and g.pending_ruling is None
    ev = g.apply({"command": "operator_ruling", "by": "op", "why": "no wall", "void": True})
    assert ev[0]["previous"] == [5, 5] and g.point is None and g.throws == 0
    ev = g.apply(_count_it([6, 4], "it hit the wall after all"))
    assert ev[0]["previous"]["void"] is True and g.point == 10 and g.throws == 1


def test_R_I2_a_void_override_survives_a_snapshot_round_trip_and_old_snapshots_load():
    import json

    from tablectl.game import Game

    g = table(3, rules=TableRules(dice_pairs=2))
    run(g, throw(5, 5), throw(5, 5), {"command": "dice_rolling"}, {"command": "change_dice"},
        VOID_R_I1)
    snap = json.loads(json.dumps(g.snapshot()))
    assert snap["undo"]["void"]["rule"] == "R-I1"
    restored = Game.from_snapshot(snap)
    assert restored.snapshot() == g.snapshot()
    assert restored.apply(_count_it([3, 4])) == g.apply(_count_it([3, 4]))
    assert restored.snapshot() == g.snapshot()
    old = table(3)  # a snapshot as before: a void kept no record
    old.apply(VOID_R_I1)
    legacy = dict(old.snapshot(), undo=None)
    refused_unchanged(Game.from_snapshot(legacy), _count_it([3, 4]), NoRulingPending, "R-I2")


@pytest.mark.parametrize("tail", [
    [VOID_R_I1, _count_it([3, 4])],
    [VOID_R_I1, {"command": "warn", "rule": "R-I3"}, _count_it([4, 4])],
    [VOID_R_I1, {"command": "warn", "rule": "R-I3"}, {"command": "center_bet", "amount": 5}],
    [throw(4, 4), VOID_R_I1, throw(2, 2), VOID_R_I1, _count_it([6, 2])],
])
def test_R_I2_replay_and_rebuild_play_a_void_override_as_apply_does(tail):
    from tablectl.game import Game

    head = [{"command": "join", "player": p, "buy_in": 100} for p in ("ann", "bob")]
    commands = head + [{"command": "shooter", "player": "ann"}] + tail
    applied = Game()
    events = [applied.apply(c) for c in commands]
    replayed = Game()
    assert list(replayed.replay(commands)) == events
    rebuilt = Game()
    assert rebuilt.rebuild(commands) == len(commands)
    assert replayed.snapshot() == rebuilt.snapshot() == applied.snapshot()
