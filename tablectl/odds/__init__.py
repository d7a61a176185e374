"""Exact odds of private craps (RULES.md R-Q1..R-Q3, R-C8, R-S1..R-S7). Pure: no I/O.

``side_bet_win_probability(kind, terms, point)`` is the contract the game uses (the chance that
the side backing a side bet's event wins, as a ``fractions.Fraction``); ``odds_report()`` is what
``tablectl odds --json`` prints.
"""

from tablectl.odds.dice import (
    ALL_PAIRS,
    CRAPS_TOTALS,
    HARDWAY_NUMBERS,
    NATURAL_TOTALS,
    POINT_NUMBERS,
    outcome_pairs,
    outcomes_pairs,
    total_pairs,
    ways,
)
from tablectl.odds.side_bets import (
    KINDS,
    Proposition,
    hardway_decision,
    number_decision,
    point_decision,
    proposition_terms,
    side_bet_win_probability,
)
from tablectl.odds.tables import (
    dice_win_probability,
    fraction_text,
    hardway_probability,
    odds_against,
    odds_before,
    odds_report,
    one_roll,
    point_probability,
    probability_before,
    shooter_disadvantage,
    table1,
    table2,
)

__all__ = [
    "ALL_PAIRS",
    "CRAPS_TOTALS",
    "HARDWAY_NUMBERS",
    "KINDS",
    "NATURAL_TOTALS",
    "POINT_NUMBERS",
    "Proposition",
    "dice_win_probability",
    "fraction_text",
    "hardway_decision",
    "hardway_probability",
    "number_decision",
    "odds_against",
    "odds_before",
    "odds_report",
    "one_roll",
    "outcome_pairs",
    "outcomes_pairs",
    "point_decision",
    "point_probability",
    "probability_before",
    "proposition_terms",
    "shooter_disadvantage",
    "side_bet_win_probability",
    "table1",
    "table2",
    "total_pairs",
    "ways",
]
