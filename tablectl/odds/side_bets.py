"""Exact win probabilities of the side bets the engine accepts (R-S1..R-S7).

``side_bet_win_probability(kind, terms, point)`` is the contract (notes/contracts.md, "Odds"): the
chance that the player backing the event (``for``) wins. Every figure is exact (a
``fractions.Fraction``) and computed in closed form from the 36 throws; nothing is simulated.
Bad terms raise ValueError with a message the engine can show as a refusal.

The engine can also use :func:`proposition_terms` (validated, canonical terms with a cheap
``decide``), :func:`hardway_decision`, :func:`number_decision` and :func:`point_decision` so that
the odds and the settlement read the terms the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tablectl.odds.dice import (
    HARDWAY_NUMBERS,
    POINT_NUMBERS,
    TOTALS,
    Pair,
    describe_pair,
    outcomes_pairs,
    probability,
)
from tablectl.odds.tables import (
    dice_win_probability,
    hardway_probability,
    point_probability,
    probability_before,
)

KINDS = ("line", "come", "point", "hardway", "number", "proposition")
#: the fields each kind takes beyond the side_bet envelope (DESIGN.md, side_bet row)
KIND_FIELDS: dict[str, frozenset[str]] = {
    "line": frozenset(),
    "come": frozenset(),
    "point": frozenset(),
    "hardway": frozenset({"number"}),
    "number": frozenset({"number"}),
    "proposition": frozenset({"wins", "loses", "within"}),
}
#: side_bet command fields that are not terms; tolerated so a whole command may be passed
ENVELOPE_FIELDS = frozenset({"command", "id", "kind", "for", "against", "stakes"})
#: the longest ``within`` accepted; a longer window is no longer a "throws bet" (R-S7a)
MAX_WITHIN = 1000

Decision = str | None  # "won", "lost" or None (undecided), from the side of ``for``


@dataclass(frozen=True)
class Proposition:
    """A proposition bet's validated terms (R-S7), as sets of ordered throws.

    ``wins``/``loses``: the ordered pairs (d1, d2) that win/lose it for ``for``; ``within``: the
    number of throws it lasts (None: until a wins or loses outcome comes).
    """

    wins: frozenset[Pair]
    loses: frozenset[Pair]
    within: int | None

    def decide(self, dice: Pair | list[int], throws_seen: int) -> Decision:
        """The bet's fate after a counting throw.

        ``dice``: the throw, ``throws_seen``: how many counting throws since the bet was made,
        this one included (1 for the first). Returns "won", "lost" or None (still open).
        """
        pair = (dice[0], dice[1])
        if pair in self.wins:
            return "won"
        if pair in self.loses:
            return "lost"
        if self.within is not None and throws_seen >= self.within:
            return "lost"  # the window closed without a wins outcome (R-S7a)
        return None

    @property
    def probability(self) -> Fraction:
        """Chance ``for`` wins (see :func:`side_bet_win_probability`)."""
        return _proposition_probability(self.wins, self.loses, self.within)


def _check_number(value: object, allowed: tuple[int, ...], what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(map(str, allowed))}, got {value!r}")
    return value


def _check_point(point: object) -> int | None:
    if point is None:
        return None
    return _check_number(point, POINT_NUMBERS, "the shooter's point")


def _terms_dict(kind: object, terms: object) -> dict:
    if kind not in KIND_FIELDS:
        raise ValueError(f"unknown side bet kind {kind!r}: use one of {', '.join(KINDS)}")
    if terms is None:
        terms = {}
    if not isinstance(terms, Mapping):
        raise ValueError(f"{kind} bet terms must be a mapping of fields, got {terms!r}")
    unknown = sorted(set(terms) - KIND_FIELDS[kind] - ENVELOPE_FIELDS, key=str)
    if unknown:
        takes = ", ".join(sorted(KIND_FIELDS[kind])) or "no extra fields"
        raise ValueError(f"{kind} bet: unexpected field(s) {', '.join(map(str, unknown))}; "
                         f"a {kind} bet takes {takes}")
    return dict(terms)


def proposition_terms(terms: Mapping) -> Proposition:
    """Validate a proposition bet's ``wins``/``loses``/``within`` into a :class:`Proposition`.

    Raises ValueError when ``wins`` is missing or empty, when an entry is not a total 2..12 or a
    combination "a-b", when an outcome is in both lists (it could win and lose at once), when
    neither ``loses`` nor ``within`` is given (the bet would never lose), or when ``within`` is
    not a whole number of throws 1..MAX_WITHIN.
    """
    terms = _terms_dict("proposition", terms)
    if "wins" not in terms:
        raise ValueError('proposition bet needs "wins": the totals or combinations it backs')
    wins = outcomes_pairs(terms["wins"], "wins")
    loses_given = terms.get("loses") is not None
    loses = outcomes_pairs(terms["loses"], "loses") if loses_given else frozenset()
    within = terms.get("within")
    if within is not None:
        if isinstance(within, bool) or not isinstance(within, int):
            raise ValueError(f"within must be a whole number of throws, got {within!r}")
        if not 1 <= within <= MAX_WITHIN:
            raise ValueError(f"within must be 1..{MAX_WITHIN} throws, got {within}")
    elif not loses_given:
        raise ValueError(
            'proposition bet without "within" needs "loses": the outcomes that must not come '
            "first (e.g. [7]); otherwise it could never be decided"
        )
    both = wins & loses
    if both:
        # one name per combination: (6, 5) and (5, 6) are both "6-5"
        shown = ", ".join(sorted({describe_pair((max(p), min(p))) for p in both}))
        raise ValueError(
            f"proposition bet: outcome(s) {shown} are in both wins and loses; a throw cannot win "
            "and lose the same bet, so take them out of one list"
        )
    return Proposition(wins, loses, within)


@lru_cache(maxsize=4096)
def _proposition_probability(
    wins: frozenset[Pair], loses: frozenset[Pair], within: int | None
) -> Fraction:
    w, lose = probability(wins), probability(loses)
    if within is None:
        # each throw is a wins outcome, a loses outcome or nothing; the first decisive one
        # decides, so P = w / (w + l) (R-S7b)
        return w / (w + lose)
    # a wins outcome on throw k (k = 1..n) after k-1 throws of neither: sum of w * q^(k-1)
    q = 1 - w - lose
    if q == 1:  # cannot happen with wins non-empty; guards the division below
        return Fraction(0)
    return w * (1 - q**within) / (1 - q)


def side_bet_win_probability(kind: str, terms: Mapping | None, point: int | None) -> Fraction:
    """Chance that the side backing the event (``for``) wins a side bet made now.

    ``kind``: "line" | "come" | "point" | "hardway" | "number" | "proposition";
    ``terms``: the side_bet command's kind fields (``{"number": 8}``, ``{"wins": [7, "6-5"],
    "loses": [...], "within": 3}``; the envelope fields id/for/against/stakes are ignored);
    ``point``: the shooter's point now (None on the come-out).

    - line (R-S1): the dice pass: 244/495 on the come-out; with a point already set, the line
      is decided by that point before a 7.
    - come (R-S3): the dice pass counting from the next throw: 244/495 whatever the point.
    - point (R-S2): the shooter makes ``point`` before a 7 (needs a point).
    - hardway (R-S5): ``number`` (4, 6, 8, 10) the hard way before a 7 or an easy way.
    - number (R-S6): ``number`` (any total but 7) before a 7.
    - proposition (R-S7): see :func:`proposition_terms`.
    """
    key = _freeze(kind, terms, point)
    if key is None:  # something unhashable: validate the slow way (it will say what is wrong)
        return _compute(kind, terms, point)
    return _cached(key)


def _typed(value: object) -> object:
    # the type goes into the cache key so that 6.0 or True never hit the entry of 6 or 1
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_typed(v) for v in value))
    return (type(value).__name__, value)


def _thaw(typed: tuple) -> object:
    name, value = typed
    return [_thaw(v) for v in value] if name in ("list", "tuple") else value


def _freeze(kind: object, terms: object, point: object) -> tuple | None:
    """A hashable cache key for the arguments (envelope fields left out), or None."""
    if terms is None:
        terms = {}
    if not isinstance(terms, Mapping):
        return None
    try:
        items = tuple(
            sorted((k, _typed(v)) for k, v in terms.items() if k not in ENVELOPE_FIELDS)
        )
        key = (_typed(kind), items, _typed(point))
        hash(key)
    except TypeError:
        return None
    return key


@lru_cache(maxsize=4096)
def _cached(key: tuple) -> Fraction:
    kind_key, items, point_key = key
    return _compute(kind_key[1], {k: _thaw(v) for k, v in items}, point_key[1])


def _compute(kind: object, terms: object, point: object) -> Fraction:
    terms = _terms_dict(kind, terms)
    point = _check_point(point)
    if kind == "line":
        return dice_win_probability() if point is None else point_probability(point)
    if kind == "come":
        return dice_win_probability()
    if kind == "point":
        if point is None:
            raise ValueError("a point bet needs a point: make it after the come-out sets one (R-S2)")
        return point_probability(point)
    if kind == "hardway":
        if "number" not in terms:
            raise ValueError('hardway bet needs "number": 4, 6, 8 or 10 (R-S5)')
        return hardway_probability(_check_number(terms["number"], HARDWAY_NUMBERS, "hardway number"))
    if kind == "number":
        if "number" not in terms:
            raise ValueError('number bet needs "number": the total that must come before a 7 (R-S6)')
        allowed = tuple(t for t in TOTALS if t != 7)
        return probability_before(_check_number(terms["number"], allowed, "a number bet's total"), 7)
    return proposition_terms(terms).probability


# Cheap per-throw decisions for the engine, from the side of ``for``.


def point_decision(point: int, dice: Pair | list[int]) -> Decision:
    """A point bet (R-S2) after a throw: "won" on the point, "lost" on a 7, else None."""
    total = dice[0] + dice[1]
    return "won" if total == point else "lost" if total == 7 else None


def number_decision(number: int, dice: Pair | list[int]) -> Decision:
    """A number bet (R-S6) after a throw: "won" on ``number``, "lost" on a 7, else None."""
    return point_decision(number, dice)


def hardway_decision(number: int, dice: Pair | list[int]) -> Decision:
    """A hardway bet (R-S5) after a throw: "won" on the pair, "lost" on a 7 or ``number`` easy."""
    total = dice[0] + dice[1]
    if total == number:
        return "won" if dice[0] == dice[1] else "lost"
    return "lost" if total == 7 else None
