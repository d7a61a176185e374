"""The true-odds reference tables of RULES.md (R-Q1..R-Q3) and the line's true odds (R-C8).

Every figure is computed from the 36 ordered throws of two dice, never typed in; the tests check
the results against the figures RULES.md states.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from tablectl.odds.dice import (
    CRAPS_TOTALS,
    HARDWAY_NUMBERS,
    NATURAL_TOTALS,
    POINT_NUMBERS,
    TOTALS,
    outcome_pairs,
    outcomes_pairs,
    probability,
    ways,
)


def odds_against(p: Fraction) -> str:
    """Odds against an event of probability ``p``, reduced: ``1/36`` -> ``"35-1"``.

    An odds-on event reads with the smaller figure first (``3/4`` -> ``"1-3"``). ``p`` must be
    strictly between 0 and 1 (a sure or impossible event has no odds).
    """
    p = Fraction(p)
    if not 0 < p < 1:
        raise ValueError(f"odds need a probability strictly between 0 and 1, got {p}")
    ratio = (1 - p) / p  # Fraction reduces it
    return f"{ratio.numerator}-{ratio.denominator}"


def probability_before(first: int, second: int) -> Fraction:
    """Chance that total ``first`` is thrown before total ``second`` (R-Q1).

    Throws showing neither total have no bearing, so it is ways(first) / (ways(first) +
    ways(second)). ``first`` and ``second``: different totals 2..12.
    """
    for total in (first, second):
        if isinstance(total, bool) or not isinstance(total, int):
            raise ValueError(f"give two totals as numbers 2..12, got {total!r}")
    a, b = outcome_pairs(first), outcome_pairs(second)
    if first == second:
        raise ValueError(f"a total cannot come before itself ({first} before {second})")
    return probability(a) / (probability(a) + probability(b))


def odds_before(first: int, second: int) -> str:
    """Odds against ``first`` before ``second`` (R-Q1): ``odds_before(12, 4) == "3-1"``,
    ``odds_before(4, 12) == "1-3"``, ``odds_before(6, 7) == "6-5"``."""
    return odds_against(probability_before(first, second))


def point_probability(point: int) -> Fraction:
    """Chance the shooter makes ``point`` (4, 5, 6, 8, 9 or 10) before a 7 (R-B4..R-B6, R-S2)."""
    if isinstance(point, bool) or point not in POINT_NUMBERS:
        raise ValueError(f"a point is one of {', '.join(map(str, POINT_NUMBERS))}, got {point!r}")
    return probability_before(point, 7)


@lru_cache(maxsize=1)
def dice_win_probability() -> Fraction:
    """Chance the dice win a line decision from the come-out (R-C8): 244/495.

    A natural wins at once (R-B2), craps loses (R-B3), any other total becomes the point and
    must come again before a 7 (R-B4..R-B6).
    """
    p = probability(outcomes_pairs(list(NATURAL_TOTALS)))
    for point in POINT_NUMBERS:
        p += probability(outcome_pairs(point)) * point_probability(point)
    return p


def shooter_disadvantage() -> Fraction:
    """The shooter's edge against him on an even-money center bet (R-C8): 1 - 2 * 244/495."""
    p = dice_win_probability()
    return (1 - p) - p


def hardway_probability(number: int) -> Fraction:
    """Chance ``number`` (4, 6, 8, 10) comes the hard way before a 7 or an easy way (R-S5)."""
    if isinstance(number, bool) or number not in HARDWAY_NUMBERS:
        raise ValueError(
            f"a hardway number is one of {', '.join(map(str, HARDWAY_NUMBERS))}, got {number!r}"
        )
    hard = outcome_pairs(f"{number // 2}-{number // 2}")
    losing = outcome_pairs(7) | (outcome_pairs(number) - hard)
    return probability(hard) / (probability(hard) + probability(losing))


def table1() -> list[dict]:
    """R-Q1 per total 2..12: ways of 36, odds against in one throw, odds against before a 7."""
    rows = []
    for total in TOTALS:
        rows.append(
            {
                "total": total,
                "ways": ways(total),
                "one_roll_against": odds_against(probability(outcome_pairs(total))),
                # a 7 cannot come "before a 7": no odds (DESIGN.md: null)
                "before_seven_against": None if total == 7 else odds_before(total, 7),
            }
        )
    return rows


def table2() -> list[dict]:
    """R-Q2 per hardway number: ways hard, easy ways, ways of 7, losing ways, odds against."""
    rows = []
    for number in HARDWAY_NUMBERS:
        hard = len(outcome_pairs(f"{number // 2}-{number // 2}"))
        easy = ways(number) - hard
        seven = ways(7)
        rows.append(
            {
                "number": number,
                "ways_hard": hard,
                "ways_easy": easy,
                "ways_seven": seven,
                "losing_ways": easy + seven,
                "against": odds_against(hardway_probability(number)),
            }
        )
    return rows


def one_roll() -> dict:
    """R-Q3 one-throw odds: a specific pair (3+3), a specific combination (6+5), any craps."""
    return {
        "specific_pair": odds_against(probability(outcome_pairs("3-3"))),
        "specific_combination": odds_against(probability(outcome_pairs("6-5"))),
        "any_craps": odds_against(probability(outcomes_pairs(list(CRAPS_TOTALS)))),
    }


def fraction_text(p: Fraction) -> str:
    """A fraction as ``"num/den"`` (the form events and ``tablectl odds --json`` use)."""
    p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def odds_report() -> dict:
    """Everything ``tablectl odds --json`` prints, in DESIGN.md's shape."""
    return {
        "table1": table1(),
        "table2": table2(),
        "one_roll": one_roll(),
        "dice_win": fraction_text(dice_win_probability()),
        "shooter_disadvantage": fraction_text(shooter_disadvantage()),
    }
