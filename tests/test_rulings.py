"""Rulings from observations: DESIGN.md "Ruling a throw" (R-I1, R-I2, R-I3)."""

from __future__ import annotations

import json

import pytest

from tablectl.game import Game, TableRules
from tablectl.rulings import Ruling, after_operator, rule_throw
from vision.observation import DieObservation, ThrowObservation


def die(value=3, hit=True, left=False, in_area=True, cocked=False, center=(100.0, 100.0),
        moved=True):
    return DieObservation(
        value=value, confidence=0.99 if value else 0.3, cocked=cocked, hit_wall=hit,
        left_area=left, at_rest_in_area=in_area, center=center,
        track=[(0, 100.0, 300.0), (1, 100.0, 100.0)], moved=moved,
    )


def obs(*dice, missing=0, extra=0, unmoved=0):
    return ThrowObservation(list(dice), start_frame=3, rest_frame=90, missing=missing,
                            extra=extra, unmoved=unmoved)


AT_REST = TableRules()
ANY_TIME = TableRules(out_of_bounds="any_time")


def test_both_hit_counts():
    r = rule_throw(obs(die(3), die(4)), AT_REST)
    assert (r.kind, r.rule, r.dice) == ("counts", None, (3, 4))
    assert r.commands() == [{"command": "throw", "dice": [3, 4]}]


def test_one_hit_counts_with_a_warning():
    r = rule_throw(obs(die(6), die(5, hit=False)), AT_REST)
    assert (r.kind, r.rule, r.dice) == ("warning", "R-I3", (6, 5))
    assert r.commands() == [
        {"command": "throw", "dice": [6, 5]},
        {"command": "warn", "rule": "R-I3"},
    ]


def test_neither_hit_is_void_even_with_a_cocked_die():
    r = rule_throw(obs(die(2, hit=False), die(None, hit=False, cocked=True)), AT_REST)
    assert (r.kind, r.rule) == ("void", "R-I3")
    assert r.commands() == [{"command": "void", "rule": "R-I3", "reason": r.reason}]


def test_out_of_bounds_at_rest_versus_any_time():
    wandered = obs(die(3), die(4, left=True, in_area=True))
    assert rule_throw(wandered, AT_REST).kind == "counts"
    r = rule_throw(wandered, ANY_TIME)
    assert (r.kind, r.rule) == ("void", "R-I1")
    outside = obs(die(3), die(4, left=True, in_area=False))
    for rules in (AT_REST, ANY_TIME):
        assert (rule_throw(outside, rules).kind, rule_throw(outside, rules).rule) == ("void", "R-I1")


def test_die_lost_after_leaving_the_area_is_void():
    lost = DieObservation(None, 0.0, False, True, True, False, None, [(0, 1.0, 1.0)])
    r = rule_throw(obs(die(3), lost, missing=1), AT_REST)
    assert (r.kind, r.rule) == ("void", "R-I1")
    assert "not found" in r.reason


@pytest.mark.parametrize("lost", [
    [DieObservation(None, 0.0, False, True, False, False, None, [(0, 300.0, 200.0)])],
    [],  # never tracked at all
], ids=["vanished in the area", "never seen"])
def test_die_missing_without_leaving_goes_to_the_operator(lost):
    # R-I2: a die under an object (a hand, a chip) is ruled by the bystander, not voided
    r = rule_throw(obs(die(3), *lost, missing=1), AT_REST)
    assert (r.kind, r.rule) == ("operator", "R-I2")
    (cmd,) = r.commands()
    assert cmd["command"] == "await_ruling" and "not found" in cmd["reason"]


@pytest.mark.parametrize("bad", [die(None), die(5, cocked=True)], ids=["unreadable", "cocked"])
def test_cocked_or_unreadable_goes_to_the_operator(bad):
    r = rule_throw(obs(die(3), bad), AT_REST)
    assert (r.kind, r.rule) == ("operator", "R-I2")
    (cmd,) = r.commands()
    assert cmd["command"] == "await_ruling" and cmd["rule"] == "R-I2"
    assert cmd["observation"]["dice"][1]["value"] == bad.value
    json.dumps(cmd)  # journal-able


def test_extra_or_unmoved_dice_go_to_the_operator_first():
    r = rule_throw(obs(die(3), die(4), die(5, hit=False), extra=1), AT_REST)
    assert (r.kind, r.rule) == ("operator", "R-I2") and "3 dice" in r.reason
    r = rule_throw(obs(die(3), die(4, moved=False, hit=False), unmoved=1), AT_REST)
    assert r.kind == "operator" and "did not move" in r.reason


def test_unknown_out_of_bounds_mode_is_refused():
    class Rules:
        out_of_bounds = "sometimes"

    with pytest.raises(ValueError, match="out_of_bounds"):
        rule_throw(obs(die(3), die(4)), Rules())


def test_ruling_to_dict_is_the_replay_shape():
    r = rule_throw(obs(die(3), die(4, hit=False)))
    assert r.to_dict() == {"kind": "warning", "rule": "R-I3", "reason": r.reason}
    with pytest.raises(ValueError):
        Ruling("maybe", None, "").commands()


def test_commands_are_accepted_by_the_game():
    """The commands a ruling gives are the game's own vocabulary."""
    game = _game_ready_to_throw()
    events = []
    for o in (obs(die(2, hit=False), die(2, hit=False)),   # void R-I3
              obs(die(3), die(1, hit=False)),               # 4 with a warning: point 4
              obs(die(None), die(2))):                      # operator
        for c in rule_throw(o, AT_REST).commands():
            events += [e["event"] for e in game.apply(c)]
    assert "throw_void" in events and "point_set" in events and "warned" in events
    assert "awaiting_ruling" in events


def test_operator_hears_of_a_one_die_wall_hit():
    r = rule_throw(obs(die(None), die(4, hit=False)), AT_REST)
    assert r.kind == "operator" and "R-I3" in r.reason
    r = rule_throw(obs(die(None), die(4)), AT_REST)
    assert r.kind == "operator" and "R-I3" not in r.reason


def _game_ready_to_throw():
    game = Game(rules=AT_REST)
    for c in ({"command": "join", "player": "ann", "buy_in": 100},
              {"command": "join", "player": "bob", "buy_in": 100},
              {"command": "shooter", "player": "ann"},
              {"command": "center_bet", "amount": 10},
              {"command": "fade", "player": "bob", "amount": 10}):
        game.apply(c)
    return game


def test_operator_ruling_after_a_one_die_wall_hit_warns_the_shooter_in_the_game():
    """R-I3 + R-I2: a cocked die and only one wall hit; the operator gives values, the table
    sends the warning the ruling carries (the real Game refuses warn while it awaits)."""
    game = _game_ready_to_throw()
    r = rule_throw(obs(die(3, cocked=True), die(1, hit=False)), AT_REST)
    assert (r.kind, r.warn_if_counted) == ("operator", "R-I3")
    (cmd,) = r.commands()
    assert cmd["command"] == "await_ruling" and cmd["observation"]["warn_if_counted"] == "R-I3"
    game.apply(cmd)
    with pytest.raises(ValueError):  # too early: the game awaits the operator
        game.apply({"command": "warn", "rule": "R-I3"})
    pending = game.state()["awaiting_ruling"]
    ruled = {"command": "operator_ruling", "by": "carl", "why": "leaning", "dice": [3, 1]}
    events = [e["event"] for e in game.apply(ruled)]
    follow = after_operator(ruled, pending)
    assert follow == r.after_operator(ruled) == [{"command": "warn", "rule": "R-I3"}]
    for c in follow:
        events += [e["event"] for e in game.apply(c)]
    assert "point_set" in events and "warned" in events
    assert game.state()["warnings"] == {"ann": {"R-I3": 1}}


def test_no_warning_when_the_operator_voids_or_both_dice_hit():
    ruled_void = {"command": "operator_ruling", "by": "carl", "why": "unclear", "void": True}
    game = _game_ready_to_throw()
    r = rule_throw(obs(die(3, cocked=True), die(1, hit=False)), AT_REST)
    game.apply(r.commands()[0])
    pending = game.state()["awaiting_ruling"]
    game.apply(ruled_void)
    assert after_operator(ruled_void, pending) == []  # a void throw does not count (R-I3)
    both = rule_throw(obs(die(3, cocked=True), die(1)), AT_REST)
    assert both.warn_if_counted is None
    assert "warn_if_counted" not in both.commands()[0]["observation"]
    ruled = {"command": "operator_ruling", "by": "carl", "why": "", "dice": [3, 1]}
    assert both.after_operator(ruled) == []
    with pytest.raises(ValueError, match="operator_ruling"):
        after_operator({"command": "throw", "dice": [3, 1]}, None)


def _any_die():
    from hypothesis import strategies as st

    return st.builds(
        die,
        value=st.one_of(st.none(), st.integers(1, 6)),
        hit=st.booleans(),
        left=st.booleans(),
        in_area=st.booleans(),
        cocked=st.booleans(),
        moved=st.booleans(),
    )


def test_a_throw_with_a_cocked_or_unread_die_is_never_paid():
    """Money safety (R-I2): whatever else the camera saw, a throw with a die flagged cocked or
    left unread is never ruled "counts" or "warning" (paid): it goes to the operator or is
    void; and a paid throw always carries the two values the camera read."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.lists(_any_die(), min_size=0, max_size=3), st.integers(0, 1), st.integers(0, 1),
           st.sampled_from([AT_REST, ANY_TIME]))
    def check(dice, missing, extra, rules):
        r = rule_throw(obs(*dice, missing=missing, extra=extra), rules)
        if r.kind in ("counts", "warning"):
            assert len(dice) == 2 and not missing and not extra
            assert not any(d.cocked or d.value is None for d in dice)
            assert r.dice == (dice[0].value, dice[1].value)
            assert all(d.at_rest_in_area and d.moved for d in dice)
        if any(d.cocked for d in dice) or any(d.value is None for d in dice):
            assert r.kind in ("operator", "void")

    check()
