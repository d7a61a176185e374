"""The statistics: chi-square p-values without scipy, counts from the journal's rows, hands,
the evening, the verdict, the chart; and the page."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pytest

from tests.support.tables import OPENING, play
from web import statistics as st


@pytest.mark.parametrize(("x", "dof", "p"), [
    (18.307, 10, 0.05), (23.209, 10, 0.01), (11.070, 5, 0.05), (15.086, 5, 0.01),
    (3.940, 10, 0.95), (1.145, 5, 0.95), (0.0, 5, 1.0),
])
def test_chi_square_p_matches_the_tables(x, dof, p):
    assert st.chi_square_p(x, dof) == pytest.approx(p, rel=2e-3, abs=1e-18)


@pytest.mark.parametrize("x", [0.5, 4.0, 9.9, 18.0, 40.0, 100.0])
def test_chi_square_p_for_even_dof_is_the_poisson_sum(x):
    # Q(k, x/2) = exp(-x/2) * sum_{i<k} (x/2)^i / i!  for dof = 2k
    h = x / 2
    exact = math.exp(-h) * sum(h ** i / math.factorial(i) for i in range(5))
    assert st.chi_square_p(x, 10) == pytest.approx(exact, rel=1e-9)


@dataclass
class Row:
    seq: int
    events: list
    time: str = "2026-12-01T20:00:00Z"
    command: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def throw_row(seq, shooter, d1, d2, *more):
    return Row(seq, [{"event": "thrown", "shooter": shooter, "dice": [d1, d2],
                      "total": d1 + d2}, *[{"event": m} for m in more]])


def test_record_counts_throws_faces_and_hands():
    rows = [
        throw_row(1, "ann", 2, 2), throw_row(2, "ann", 4, 4), throw_row(3, "ann", 3, 4),
        Row(4, [{"event": "dice_passed", "reason": "seven_out", "to": "bob"}]),
        throw_row(5, "bob", 6, 5),
    ]
    rows[1].events.append({"event": "point_made"})
    rec = st.record(rows)
    assert rec.throws == 4
    assert rec.totals[4] == 1 and rec.totals[8] == 1 and rec.totals[7] == 1 and rec.totals[11] == 1
    assert rec.faces == {1: 0, 2: 2, 3: 1, 4: 3, 5: 1, 6: 1}
    assert [(h.shooter, h.throws, h.points_made, h.ended) for h in rec.hands] == [
        ("ann", 3, 1, "seven_out"), ("bob", 1, 0, None)]
    assert rec.longest_hand.shooter == "ann"


def test_an_override_replaces_the_throw_it_overrides():
    rows = [throw_row(1, "ann", 6, 6),
            Row(2, [{"event": "operator_ruled", "override": True, "dice": [6, 5]},
                    {"event": "thrown", "shooter": "ann", "dice": [6, 5], "total": 11}])]
    rec = st.record(rows)
    assert rec.throws == 1 and rec.totals[12] == 0 and rec.totals[11] == 1
    assert rec.hands[0].throws == 1


def test_an_override_of_a_void_throw_adds_its_throw_and_undoes_none():
    rows = [throw_row(1, "ann", 6, 6),
            Row(2, [{"event": "throw_void", "shooter": "ann", "rule": "R-I1"}]),
            Row(3, [{"event": "operator_ruled", "override": True, "dice": [6, 5],
                     "previous": {"void": True, "rule": "R-I1", "reason": "out"}},
                    {"event": "thrown", "shooter": "ann", "dice": [6, 5], "total": 11}])]
    rec = st.record(rows)
    assert rec.throws == 2 and rec.totals[12] == 1 and rec.totals[11] == 1
    assert rec.hands[0].throws == 2


def test_the_feed_says_a_void_throw_was_made_to_count(app):
    from web import texts
    event = {"event": "operator_ruled", "by": "op", "why": "it stayed in", "rule": "R-I2",
             "override": True, "previous": {"void": True, "rule": "R-I1", "reason": "out"},
             "dice": [6, 5]}
    with app.test_request_context("/?lang=en"):
        assert texts.describe(event) == (
            "the operator makes the void throw (R-I1) count: 6 + 5 (it stayed in)")
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        assert texts.describe(event).startswith("оператор засчитывает недействительный бросок")


def test_the_feed_names_the_rule_that_refused_a_throw_in_the_readers_language(app):
    from web import texts
    event = {"event": "throw_refused", "shooter": "ann", "rule": "R-S0",
             "reason": "the dice were thrown before bets closed"}
    with app.test_request_context("/", headers={"Accept-Language": "ru"}):
        said = texts.describe(event)
    assert "R-S0: побочную ставку два игрока заключают до броска" in said, said
    assert "the dice were thrown before bets closed" in said  # the game's own words


def test_the_evening_starts_after_a_long_pause():
    rows = [Row(1, [], "2026-11-30T20:00:00Z"), Row(2, [], "2026-11-30T23:00:00Z"),
            Row(3, [], "2026-12-01T19:00:00Z"), Row(4, [], "2026-12-01T19:05:00Z")]
    assert [r.seq for r in st.evening_rows(rows)] == [3, 4]


def fair_rows(n_cycles: int) -> list:
    rows, seq = [], 0
    for _ in range(n_cycles):
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                seq += 1
                rows.append(throw_row(seq, "ann", d1, d2))
    return rows


def test_verdicts():
    assert st.record(fair_rows(0)).verdict == "too_few"
    fair = st.record(fair_rows(6))  # every combination 6 times: perfectly fair
    assert fair.verdict == "fair" and fair.totals_test.p_value == pytest.approx(1.0)
    loaded = fair_rows(6) + [throw_row(1000 + i, "ann", 6, 6) for i in range(40)]
    rec = st.record(loaded)
    assert rec.verdict == "biased" and rec.totals_test.p_value < 1e-6


def test_the_chart_has_a_bar_and_an_expected_mark_per_total():
    svg = st.totals_chart_svg(st.record(fair_rows(1)), title="t <x>", observed_label="o",
                              expected_label="e")
    assert svg.count('class="bar"><title>') == 11 and svg.count('class="expected"') == 12
    assert "t &lt;x&gt;" in svg and "<x>" not in svg


def test_the_page_says_the_past_does_not_predict(client, table):
    play(table, OPENING + [{"command": "throw", "dice": [3, 4]}])
    html = client.get("/stats").data.decode()
    assert "Dice have no memory" in html and "1 counted throw" in html
    assert html.count("<svg") >= 2 and "Too few throws to tell yet" in html
    ru = client.get("/stats?lang=ru").data.decode()
    assert "У костей нет памяти" in ru


def test_the_chart_spreads_the_totals_across_its_width():
    svg = st.totals_chart_svg(st.record(fair_rows(1)), title="t", observed_label="o",
                              expected_label="e")
    xs = [float(x) for x in re.findall(r'<rect x="([\d.]+)"[^>]*class="bar"><title>', svg)]
    assert len(xs) == 11
    slot = (360 - 30 - 8) / 11  # the plot's width over the eleven totals
    gaps = [b - a for a, b in zip(xs[:-1], xs[1:], strict=True)]
    assert all(g == pytest.approx(slot, abs=0.2) for g in gaps), gaps


def test_the_tests_speak_from_the_throws_docs_dashboard_md_names():
    rows = fair_rows(5)  # 180 throws
    assert st.record(rows[:14]).verdict == "too_few"
    fifteen = st.record(rows[:15])
    assert fifteen.faces_test.enough and not fifteen.totals_test.enough
    assert fifteen.verdict != "too_few"
    assert not st.record(rows[:179]).totals_test.enough
    assert st.record(rows).totals_test.enough
