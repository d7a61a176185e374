"""The line: come-out, point, seven-out (R-T1, R-T2, R-B1..R-B6)."""

import pytest

from .helpers import names, run, table, throw


def test_R_T2_result_is_the_sum_of_the_faces():
    g = table(2)
    ev = g.apply(throw(2, 6))
    assert ev[0] == {"event": "come_out", "shooter": "ann", "dice": [2, 6], "total": 8}
    assert g.point == 8


def test_R_T1_a_void_throw_decides_nothing_shooter_throws_again():
    g = table(2)
    run(g, throw(4, 4))
    before = g.snapshot()
    ev = g.apply({"command": "void", "rule": "R-I3", "reason": "neither die hit the back wall"})
    assert names(ev) == ["throw_void"]
    after = g.snapshot()
    # the void changes nothing (the throw count included), except that the 8 may no longer
    # be overridden by the operator: the void may (R-I2)
    assert before.pop("undo")["dice"] == [4, 4]
    assert after.pop("undo")["void"] == {"void": True, "rule": "R-I3",
                                         "reason": "neither die hit the back wall"}
    assert after == before
    assert g.shooter == "ann" and g.point == 8


def test_R_B1_first_throw_of_shooter_and_after_decisions_is_come_out():
    g = table(2)
    assert names(g.apply(throw(1, 1)))[0] == "come_out"   # new shooter
    assert names(g.apply(throw(5, 6)))[0] == "come_out"   # after a missout
    assert names(g.apply(throw(2, 2)))[0] == "come_out"   # after a natural
    assert names(g.apply(throw(1, 2)))[0] == "thrown"     # point 4 pending
    assert names(g.apply(throw(3, 1)))[0] == "thrown"     # makes the point
    assert names(g.apply(throw(3, 1)))[0] == "come_out"   # after the point is made


@pytest.mark.parametrize("dice", [(3, 4), (5, 6), (1, 6), (6, 5)])
def test_R_B2_natural_on_come_out_dice_win_shooter_keeps_dice(dice):
    g = table(2)
    ev = g.apply(throw(*dice))
    assert names(ev) == ["come_out", "natural"] and ev[1]["rule"] == "R-B2"
    assert g.point is None and g.shooter == "ann"


@pytest.mark.parametrize("dice", [(1, 1), (1, 2), (6, 6)])
def test_R_B3_craps_on_come_out_missout_keeps_dice(dice):
    g = table(2)
    ev = g.apply(throw(*dice))
    assert names(ev) == ["come_out", "craps"] and ev[1]["rule"] == "R-B3"
    assert g.point is None and g.shooter == "ann"


@pytest.mark.parametrize("total", [4, 5, 6, 8, 9, 10])
def test_R_B4_other_totals_set_the_point_and_others_do_not_matter(total):
    g = table(2)
    d1 = min(6, total - 1)
    ev = g.apply(throw(d1, total - d1))
    assert names(ev) == ["come_out", "point_set"] and ev[1]["point"] == total
    for other in (2, 3, 11, 12):  # no bearing on the line (R-B4)
        if other != total:
            d = min(6, other - 1)
            assert names(g.apply(throw(d, other - d))) == ["thrown"]
    assert g.point == total


def test_R_B5_point_repeated_before_seven_dice_win():
    g = table(2)
    run(g, throw(6, 3), throw(2, 2))
    ev = g.apply(throw(4, 5))
    assert names(ev) == ["thrown", "point_made"] and ev[1]["rule"] == "R-B5"
    assert g.point is None and g.shooter == "ann"


def test_R_B6_seven_before_point_seven_out_dice_pass():
    g = table(2)
    run(g, throw(6, 3))
    ev = g.apply(throw(1, 6))
    assert names(ev) == ["thrown", "seven_out", "dice_passed"]
    assert ev[1]["rule"] == "R-B6" and ev[2]["reason"] == "seven_out"
    assert g.shooter == "bob" and g.point is None
