"""side_bet_win_probability for every kind (R-S1..R-S7), cross-checked against chains solved
independently from the bets' raw dice rules (tests/odds/chain.py)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tablectl.odds import (
    hardway_decision,
    number_decision,
    odds_against,
    outcome_pairs,
    point_decision,
    proposition_terms,
    side_bet_win_probability,
)
from tests.odds.chain import (
    LOSE,
    THROWS,
    WIN,
    before_seven_step,
    bracket,
    hardway_step,
    line_step,
    matches,
    proposition_step,
    solve,
)

POINTS = (4, 5, 6, 8, 9, 10)


@pytest.mark.parametrize("point", [None, *POINTS])
def test_line_bet(point):
    p = side_bet_win_probability("line", {}, point)
    start = "comeout" if point is None else point
    assert p == solve(start, line_step)
    low, still_open = bracket(start, line_step, 80)
    assert low <= p <= low + still_open and still_open < Fraction(1, 10**6)


@pytest.mark.parametrize("point", [None, *POINTS])
def test_come_bet_is_a_new_line_from_the_next_throw_whatever_the_point(point):
    # R-S3: the next throw is the come bet's own come-out, so the shooter's point is irrelevant
    assert side_bet_win_probability("come", {}, point) == solve("comeout", line_step)


@pytest.mark.parametrize("point", POINTS)
def test_point_bet_r_s2(point):
    p = side_bet_win_probability("point", {}, point)
    assert p == solve("open", before_seven_step(point))
    assert odds_against(p) == {4: "2-1", 10: "2-1", 5: "3-2", 9: "3-2", 6: "6-5", 8: "6-5"}[point]


def test_point_bet_needs_a_point():
    with pytest.raises(ValueError, match="needs a point"):
        side_bet_win_probability("point", {}, None)


@pytest.mark.parametrize("number", [4, 6, 8, 10])
def test_hardway_bet_r_s5(number):
    p = side_bet_win_probability("hardway", {"number": number}, None)
    assert p == solve("open", hardway_step(number))
    low, still_open = bracket("open", hardway_step(number), 80)
    assert low <= p <= low + still_open and still_open < Fraction(1, 10**6)
    assert odds_against(p) == ("8-1" if number in (4, 10) else "10-1")
    assert side_bet_win_probability("hardway", {"number": number}, 6) == p  # point irrelevant


@pytest.mark.parametrize("number", [2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
def test_number_bet_r_s6(number):
    p = side_bet_win_probability("number", {"number": number}, None)
    assert p == solve("open", before_seven_step(number))


@pytest.mark.parametrize(
    ("kind", "terms", "point", "message"),
    [
        ("bogus", {}, None, "unknown side bet kind 'bogus'"),
        ("hardway", {}, None, 'needs "number"'),
        ("hardway", {"number": 5}, None, "hardway number must be one of 4, 6, 8, 10"),
        ("hardway", {"number": True}, None, "hardway number"),
        ("number", {"number": 7}, None, "total must be one of"),
        ("number", {"number": "8"}, None, "got '8'"),
        ("number", {}, None, 'needs "number"'),
        ("line", {}, 7, "the shooter's point must be one of"),
        ("line", {"number": 4}, None, "unexpected field"),
        ("hardway", {"number": 4, "wins": [4]}, None, "unexpected field"),
        ("line", [1], None, "must be a mapping"),
        ("proposition", {"loses": [7]}, None, 'needs "wins"'),
        ("proposition", {"wins": [8]}, None, 'needs "loses"'),
        ("proposition", {"wins": [], "loses": [7]}, None, "wins is empty"),
        ("proposition", {"wins": [8], "loses": []}, None, "loses is empty"),
        ("proposition", {"wins": 8.5, "loses": [7]}, None, "wins must be a total, a comb"),
        ("proposition", {"wins": [13], "loses": [7]}, None, "wins: a total must be a total 2..12"),
        ("proposition", {"wins": ["7-7"], "loses": [7]}, None, "faces must be 1..6"),
        ("proposition", {"wins": ["six"], "loses": [7]}, None, "not understood"),
        ("proposition", {"wins": [8.0], "loses": [7]}, None, "not understood"),
        ("proposition", {"wins": [[8]], "loses": [7]}, None, "not understood"),
        ("proposition", {"wins": [6], "loses": ["3-3"]}, None, "3-3 are in both wins and loses"),
        ("proposition", {"wins": ["6-5"], "loses": [11]}, None, "outcome(s) 6-5 are in both"),
        ("proposition", {"wins": [8], "within": 0}, None, "within must be 1.."),
        ("proposition", {"wins": [8], "within": "3"}, None, "whole number of throws"),
        ("proposition", {"wins": [8], "within": 10**6}, None, "within must be 1.."),
    ],
)
def test_bad_terms_are_refused_with_a_clear_message(kind, terms, point, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        side_bet_win_probability(kind, terms, point)


def test_whole_command_envelope_is_tolerated():
    command = {"command": "side_bet", "id": "b1", "kind": "hardway", "for": "ann",
               "against": "bob", "stakes": {"ann": 1, "bob": 10}, "number": 6}
    assert side_bet_win_probability("hardway", command, None) == Fraction(1, 11)


def test_combination_reads_either_order():
    assert outcome_pairs("6-5") == outcome_pairs("5-6") == {(6, 5), (5, 6)}
    assert outcome_pairs("3-3") == {(3, 3)}
    assert outcome_pairs(4) == {(1, 3), (3, 1), (2, 2)}


# Propositions: R-S7 (a) within n throws, (b) before other numbers.

ENTRIES = st.one_of(
    st.integers(2, 12),
    st.tuples(st.integers(1, 6), st.integers(1, 6)).map(lambda t: f"{t[0]}-{t[1]}"),
)


def _overlaps(wins, loses) -> bool:
    return any(
        any(matches(w, p) for w in wins) and any(matches(x, p) for x in loses) for p in THROWS
    )


@settings(max_examples=120, deadline=None)
@given(
    wins=st.lists(ENTRIES, min_size=1, max_size=4),
    loses=st.one_of(st.none(), st.lists(ENTRIES, min_size=1, max_size=4)),
    within=st.one_of(st.none(), st.integers(1, 5)),
)
def test_proposition_matches_its_chain(wins, loses, within):
    terms = {"wins": wins}
    if loses is not None:
        terms["loses"] = loses
    if within is not None:
        terms["within"] = within
    if loses is None and within is None:
        with pytest.raises(ValueError, match='needs "loses"'):
            side_bet_win_probability("proposition", terms, None)
        return
    if loses is not None and _overlaps(wins, loses):
        with pytest.raises(ValueError, match="in both wins and loses"):
            side_bet_win_probability("proposition", terms, None)
        return
    event("valid terms")
    p = side_bet_win_probability("proposition", terms, None)
    assert p == solve(0, proposition_step(wins, loses, within))
    # the engine's per-throw decision reads the terms the same way as the probability
    bet = proposition_terms(terms)

    def by_decide(seen, pair):
        fate = bet.decide(pair, seen + 1)
        return WIN if fate == "won" else LOSE if fate == "lost" else seen + 1 if within else seen

    assert p == solve(0, by_decide)


def test_proposition_examples_from_the_source():
    # one-throw bets on any craps / 11 (R-Q3 figures as propositions, R-S7a)
    p = side_bet_win_probability("proposition", {"wins": [2, 3, 12], "within": 1}, None)
    assert odds_against(p) == "8-1"
    p = side_bet_win_probability("proposition", {"wins": ["6-5"], "within": 1}, None)
    assert odds_against(p) == "17-1"
    # 12 before 4 (R-Q1): 3-1
    p = side_bet_win_probability("proposition", {"wins": [12], "loses": [4]}, None)
    assert odds_against(p) == "3-1"
    # a three-throw bet on the pair of threes: 1 - (35/36)^3
    p = side_bet_win_probability("proposition", {"wins": ["3-3"], "within": 3}, None)
    low, still_open = bracket(0, proposition_step(["3-3"], None, 3), 3)
    assert p == low and still_open == 0


def test_proposition_decide_window_and_precedence():
    bet = proposition_terms({"wins": [11], "loses": [7], "within": 2})
    assert bet.decide((5, 6), 1) == "won"
    assert bet.decide((3, 4), 1) == "lost"
    assert bet.decide((2, 2), 1) is None
    assert bet.decide([2, 2], 2) == "lost"  # the window closed


def test_simple_decisions():
    assert hardway_decision(8, (4, 4)) == "won"
    assert hardway_decision(8, (5, 3)) == "lost"
    assert hardway_decision(8, (1, 6)) == "lost"
    assert hardway_decision(8, (1, 1)) is None
    assert point_decision(6, (2, 4)) == "won" and point_decision(6, (2, 5)) == "lost"
    assert number_decision(11, (5, 6)) == "won" and number_decision(11, (5, 5)) is None


def test_cache_never_lets_a_float_or_bool_pass_as_a_total():
    assert side_bet_win_probability("number", {"number": 6}, None) == Fraction(5, 11)
    assert side_bet_win_probability("number", {"number": 6}, None) == Fraction(5, 11)  # cached
    for bad in (6.0, True):
        with pytest.raises(ValueError, match="total must be one of"):
            side_bet_win_probability("number", {"number": bad}, None)
    assert side_bet_win_probability("proposition", {"wins": [2], "within": 1}, None) == Fraction(
        1, 36
    )
    with pytest.raises(ValueError, match="wins: outcome True"):
        side_bet_win_probability("proposition", {"wins": [True], "within": 1}, None)


def test_unhashable_terms_still_get_a_clear_message():
    with pytest.raises(ValueError, match="wins must be a total, a combination or a list"):
        side_bet_win_probability("proposition", {"wins": {"a": 1}, "loses": [7]}, None)
    # a single outcome is a group of one; a set of outcomes is read like a list
    assert side_bet_win_probability("proposition", {"wins": 8, "loses": 7}, None) == Fraction(
        5, 11
    )
    assert side_bet_win_probability("proposition", {"wins": {12}, "loses": {4}}, None) == (
        Fraction(1, 4)
    )
