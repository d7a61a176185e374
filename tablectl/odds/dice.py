"""Outcomes of one throw of two dice, as ordered pairs ``(d1, d2)``.

Everything here is exact: a throw is one of the 36 equally likely ordered pairs, and the chance of
a set of outcomes is ``Fraction(len(pairs), 36)``. The parsing of ``wins``/``loses`` entries
(R-S7: a total made any way, or a specific combination such as ``"6-5"`` or ``"3-3"``) lives here
so the engine and the odds agree on what an entry means.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

Pair = tuple[int, int]

FACES = range(1, 7)
#: every throw, as ordered pairs (d1, d2); each has probability 1/36 (R-T2)
ALL_PAIRS: frozenset[Pair] = frozenset((a, b) for a in FACES for b in FACES)
TOTALS = range(2, 13)
#: the point numbers (R-B4)
POINT_NUMBERS = (4, 5, 6, 8, 9, 10)
#: the hardway numbers (R-S5)
HARDWAY_NUMBERS = (4, 6, 8, 10)
#: come-out craps (R-B3)
CRAPS_TOTALS = (2, 3, 12)
#: come-out naturals (R-B2)
NATURAL_TOTALS = (7, 11)


@lru_cache(maxsize=64)
def total_pairs(total: int) -> frozenset[Pair]:
    """The ordered pairs whose faces add up to ``total`` (empty outside 2..12)."""
    return frozenset(p for p in ALL_PAIRS if p[0] + p[1] == total)


def ways(total: int) -> int:
    """Ways out of 36 of throwing ``total`` (R-Q1): 1 for 2 and 12 ... 6 for 7."""
    return len(total_pairs(total))


def probability(pairs: Iterable[Pair]) -> Fraction:
    """Chance that one throw lands on one of ``pairs``."""
    return Fraction(len(frozenset(pairs) & ALL_PAIRS), 36)


def _check_total(total: object, what: str) -> int:
    if isinstance(total, bool) or not isinstance(total, int):
        raise ValueError(f"{what} must be a whole-number total 2..12, got {total!r}")
    if total not in TOTALS:
        raise ValueError(f"{what} must be a total 2..12, got {total}")
    return total


@lru_cache(maxsize=256)
def _entry_pairs(entry: int | str) -> frozenset[Pair]:
    if isinstance(entry, int):
        return total_pairs(_check_total(entry, "a total"))
    text = entry.strip()
    parts = text.replace("+", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(
            f"outcome {entry!r} is not understood: give a total as a number (8) or a specific "
            'combination as "a-b" with faces 1..6 ("6-5", "3-3")'
        )
    a, b = (int(p) for p in parts)
    if a not in FACES or b not in FACES:
        raise ValueError(f"outcome {entry!r}: die faces must be 1..6")
    # a combination is the same whichever die shows which face ("6-5" == "5-6", R-S7)
    return frozenset({(a, b), (b, a)})


def outcome_pairs(entry: object) -> frozenset[Pair]:
    """The ordered pairs meant by one ``wins``/``loses`` entry (R-S7).

    ``entry``: a total as an int (``8``: any way of making 8) or a specific combination as a
    string ``"a-b"`` (``"6-5"`` means 6+5 either way round, ``"3-3"`` the pair of threes).
    Raises ValueError saying what is wrong for anything else.
    """
    if isinstance(entry, bool) or not isinstance(entry, int | str):
        raise ValueError(
            f"outcome {entry!r} is not understood: give a total as a number (8) or a specific "
            'combination as a string "a-b" ("6-5", "3-3")'
        )
    return _entry_pairs(entry)


def outcomes_pairs(entries: object, name: str = "outcomes") -> frozenset[Pair]:
    """The union of the ordered pairs of a list of entries (see :func:`outcome_pairs`).

    ``entries``: a list (or tuple) of totals and combinations, or a single one; ``name`` names
    it in errors
    (``"wins"``/``"loses"``). An empty list is an error: it could never happen.
    """
    if isinstance(entries, int | str) and not isinstance(entries, bool):
        entries = [entries]  # a single total or combination is a group of one
    if not isinstance(entries, list | tuple | set | frozenset):
        raise ValueError(
            f"{name} must be a total, a combination or a list of them, got {entries!r}"
        )
    if not entries:
        raise ValueError(f"{name} is empty: list at least one total (8) or combination (\"6-5\")")
    pairs: set[Pair] = set()
    for entry in entries:  # each entry is type-checked before its (cached) parse
        try:
            pairs |= outcome_pairs(entry)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
    return frozenset(pairs)


def describe_pair(pair: Pair) -> str:
    """``(6, 5)`` -> ``"6-5"``, for messages."""
    return f"{pair[0]}-{pair[1]}"
