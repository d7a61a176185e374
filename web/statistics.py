"""The dice's record from the journal: totals against 1/36..6/36, faces, a chi-square test, hands.

Pure (no Flask): rows in, numbers out; ``totals_chart_svg`` draws the chart as inline SVG.
Past throws never predict the next one: the test only asks whether these dice look fair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from html import escape

TOTALS = tuple(range(2, 13))
WAYS = {t: 6 - abs(t - 7) for t in TOTALS}  # ways of making each total, out of 36
EVENING_GAP = timedelta(hours=6)            # a pause this long starts a new evening
# a verdict needs at least this many expected throws in every class (the chi-square rule)
MIN_EXPECTED = 5
# below this p-value (per test; two tests are made) the dice look biased
BIASED_P = 0.005


def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(1000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (x >= a + 1), Lentz's method."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_p(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom."""
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1:
        return max(0.0, 1.0 - _gamma_series(a, x))
    return min(1.0, _gamma_fraction(a, x))


@dataclass
class Test:
    statistic: float
    dof: int
    p_value: float
    enough: bool  # every class expects at least MIN_EXPECTED


def chi_square(observed: list[int], expected_share: list[Fraction]) -> Test:
    n = sum(observed)
    expected = [float(s) * n for s in expected_share]
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)
    dof = len(observed) - 1
    enough = n > 0 and min(expected) >= MIN_EXPECTED
    return Test(stat, dof, chi_square_p(stat, dof) if n else 1.0, enough)


@dataclass
class Hand:
    shooter: str
    throws: int = 0
    points_made: int = 0
    first_seq: int = 0
    ended: str | None = None  # seven_out, passed, or None while it goes on


@dataclass
class Record:
    """The counted throws of some rows."""

    throws: int = 0
    totals: dict = field(default_factory=lambda: dict.fromkeys(TOTALS, 0))
    faces: dict = field(default_factory=lambda: dict.fromkeys(range(1, 7), 0))
    hands: list = field(default_factory=list)

    @property
    def totals_test(self) -> Test:
        return chi_square([self.totals[t] for t in TOTALS], [Fraction(WAYS[t], 36) for t in TOTALS])

    @property
    def faces_test(self) -> Test:
        return chi_square([self.faces[f] for f in range(1, 7)], [Fraction(1, 6)] * 6)

    @property
    def verdict(self) -> str:
        """'too_few', 'biased' or 'fair'."""
        tests = (self.totals_test, self.faces_test)
        if not any(t.enough for t in tests):
            return "too_few"
        if any(t.enough and t.p_value < BIASED_P for t in tests):
            return "biased"
        return "fair"

    @property
    def min_throws(self) -> int:
        """Throws needed before the faces test can say anything."""
        return math.ceil(MIN_EXPECTED * 6 / 2)

    @property
    def longest_hand(self) -> Hand | None:
        return max(self.hands, key=lambda h: (h.throws, -h.first_seq), default=None)


def _time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None


def evening_rows(rows: list) -> list:
    """The rows of the last evening: those after the last pause of EVENING_GAP or more."""
    start = 0
    prev = None
    for i, row in enumerate(rows):
        t = _time(row.time)
        if t is not None and prev is not None and t - prev >= EVENING_GAP:
            start = i
        prev = t if t is not None else prev
    return rows[start:]


def _was_void(previous) -> bool:
    """Whether an override's ``previous`` is a void ruling (else the dice that counted)."""
    return isinstance(previous, dict) and bool(previous.get("void"))


def record(rows: list) -> Record:
    """Count the counted throws (and hands) in ``rows``; an override replaces its throw."""
    rec = Record()
    hand: Hand | None = None
    counted: list[tuple[int, int, int]] = []  # (seq, d1, d2) of each counted throw
    for row in rows:
        for e in row.events:
            name = e.get("event")
            if (name == "operator_ruled" and e.get("override") and counted
                    and not _was_void(e.get("previous"))):
                # the override undoes the last counted throw; its new dice (if any) follow
                # (an override of a void undoes no counted throw: its dice just follow)
                _, d1, d2 = counted.pop()
                rec.throws -= 1
                rec.totals[d1 + d2] -= 1
                rec.faces[d1] -= 1
                rec.faces[d2] -= 1
                if hand is not None and hand.throws:
                    hand.throws -= 1
            elif name in ("come_out", "thrown"):
                dice = e.get("dice") or []
                if len(dice) != 2:
                    continue
                d1, d2 = int(dice[0]), int(dice[1])
                counted.append((row.seq, d1, d2))
                rec.throws += 1
                rec.totals[d1 + d2] += 1
                rec.faces[d1] += 1
                rec.faces[d2] += 1
                shooter = e.get("shooter") or "?"
                if hand is None or hand.shooter != shooter or hand.ended:
                    hand = Hand(shooter, first_seq=row.seq)
                    rec.hands.append(hand)
                hand.throws += 1
            elif name == "point_made" and hand is not None:
                hand.points_made += 1
            elif name == "dice_passed" and hand is not None and not hand.ended:
                hand.ended = "seven_out" if e.get("reason") == "seven_out" else "passed"
    return rec


def totals_chart_svg(rec: Record, *, title: str, observed_label: str, expected_label: str
                     ) -> str:
    """Bars: each total's share of the throws; a dark tick at its expected share (ways/36)."""
    w, h = 360, 210
    left, right, top, bottom = 30, 8, 26, 30
    pw, ph = w - left - right, h - top - bottom
    n = rec.throws
    shares = {t: (rec.totals[t] / n if n else 0.0) for t in TOTALS}
    top_share = max([6 / 36 * 1.25] + list(shares.values()))
    step = pw / len(TOTALS)
    bar = step * 0.62
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" '
             f'class="chart" aria-label="{escape(title)}">',
             f'<title>{escape(title)}</title>']
    grid = 0.05 if top_share <= 0.25 else 0.1 if top_share <= 0.5 else 0.2
    for k in range(1, 6):
        frac = k * grid
        if frac > top_share:
            break
        y = top + ph - frac / top_share * ph
        parts.append(f'<line x1="{left}" x2="{w - right}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'class="grid"/>')
        parts.append(f'<text x="{left - 4}" y="{y + 3:.1f}" class="axis" '
                     f'text-anchor="end">{round(frac * 100)}%</text>')
    for i, t in enumerate(TOTALS):
        x = left + i * step + (step - bar) / 2
        bh = shares[t] / top_share * ph
        parts.append(f'<rect x="{x:.1f}" y="{top + ph - bh:.1f}" width="{bar:.1f}" '
                     f'height="{bh:.1f}" class="bar"><title>{t}: {rec.totals[t]}</title></rect>')
        ey = top + ph - WAYS[t] / 36 / top_share * ph
        parts.append(f'<line x1="{x - 3:.1f}" x2="{x + bar + 3:.1f}" y1="{ey:.1f}" '
                     f'y2="{ey:.1f}" class="expected"/>')
        parts.append(f'<text x="{x + bar / 2:.1f}" y="{h - bottom + 14}" class="axis" '
                     f'text-anchor="middle">{t}</text>')
        if n:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{top + ph - bh - 3:.1f}" '
                         f'class="count" text-anchor="middle">{rec.totals[t]}</text>')
    parts.append(f'<line x1="{left}" x2="{w - right}" y1="{top + ph}" y2="{top + ph}" '
                 f'class="base"/>')
    parts.append(f'<rect x="{left}" y="6" width="10" height="10" class="bar"/>'
                 f'<text x="{left + 14}" y="15" class="legend">{escape(observed_label)}</text>'
                 f'<line x1="{left + 150}" x2="{left + 166}" y1="11" y2="11" class="expected"/>'
                 f'<text x="{left + 170}" y="15" class="legend">{escape(expected_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)
