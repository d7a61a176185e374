"""R-Q1..R-Q3 and R-C8: the tables against the figures RULES.md states, and against chains."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablectl.odds import (
    dice_win_probability,
    odds_against,
    odds_before,
    odds_report,
    probability_before,
    shooter_disadvantage,
)
from tests.odds.chain import before_seven_step, hardway_step, line_step, solve


def _row(table, key, value):
    return next(r for r in table if r[key] == value)


def test_dice_win_is_244_of_495_as_r_c8_states():
    p = dice_win_probability()
    assert p == Fraction(244, 495) == Fraction(976, 1980)  # R-C8: not the source's misprinted 970
    assert p == solve("comeout", line_step)  # the line's chain solved independently


def test_shooter_disadvantage_is_28_of_1980():
    d = shooter_disadvantage()
    assert d == Fraction(7, 495) == Fraction(28, 1980)
    assert round(float(d) * 100, 3) == 1.414  # the percentage the source quotes (R-C8)


@pytest.mark.parametrize(
    ("numbers", "odds"), [((4, 10), "2-1"), ((5, 9), "3-2"), ((6, 8), "6-5")]
)
def test_point_odds_before_seven_match_r_s2(numbers, odds):
    table1 = odds_report()["table1"]
    for n in numbers:
        assert _row(table1, "total", n)["before_seven_against"] == odds
        assert odds_against(solve("open", before_seven_step(n))) == odds


def test_table1_ways_and_one_throw_odds_from_enumeration():
    table1 = odds_report()["table1"]
    assert [r["total"] for r in table1] == list(range(2, 13))
    for row in table1:
        t = row["total"]
        ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t)
        assert row["ways"] == ways
        assert row["one_roll_against"] == odds_against(Fraction(ways, 36))
        if t == 7:
            assert row["before_seven_against"] is None
        else:
            assert row["before_seven_against"] == odds_against(solve("open", before_seven_step(t)))
    assert _row(table1, "total", 2)["one_roll_against"] == "35-1"
    assert _row(table1, "total", 7)["one_roll_against"] == "5-1"
    assert _row(table1, "total", 6)["one_roll_against"] == "31-5"  # reduced, not 31-5 of 36


def test_higher_total_before_lower_as_r_q1_states():
    assert odds_before(12, 4) == "3-1"
    assert odds_before(4, 12) == "1-3"  # odds-on reads smaller figure first


def test_any_pair_of_totals_matches_its_chain():
    for a in range(2, 13):
        for b in range(2, 13):
            if a == b:
                continue

            def step(state, pair, a=a, b=b):
                total = pair[0] + pair[1]
                return "WIN" if total == a else "LOSE" if total == b else state

            assert probability_before(a, b) == solve("open", step)


def test_before_rejects_same_total_and_non_totals():
    with pytest.raises(ValueError, match="cannot come before itself"):
        probability_before(6, 6)
    with pytest.raises(ValueError, match="2..12"):
        probability_before(13, 7)
    with pytest.raises(ValueError, match="numbers 2..12"):
        probability_before("6-5", 7)


@pytest.mark.parametrize(("number", "odds"), [(4, "8-1"), (10, "8-1"), (6, "10-1"), (8, "10-1")])
def test_table2_hardways_match_r_s5(number, odds):
    row = _row(odds_report()["table2"], "number", number)
    assert row["against"] == odds
    assert row["ways_hard"] == 1 and row["ways_seven"] == 6
    assert row["ways_hard"] + row["ways_easy"] == _row(odds_report()["table1"], "total", number)[
        "ways"
    ]
    assert row["losing_ways"] == row["ways_easy"] + row["ways_seven"]
    assert odds_against(solve("open", hardway_step(number))) == odds


def test_one_throw_odds_match_r_q3():
    assert odds_report()["one_roll"] == {
        "specific_pair": "35-1",
        "specific_combination": "17-1",
        "any_craps": "8-1",
    }


def test_odds_against_reduces_and_rejects_certainties():
    assert odds_against(Fraction(4, 36)) == "8-1"
    assert odds_against(Fraction(1, 2)) == "1-1"
    for p in (0, 1, Fraction(3, 2)):
        with pytest.raises(ValueError, match="strictly between 0 and 1"):
            odds_against(p)
