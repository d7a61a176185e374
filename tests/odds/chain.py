"""An independent check for the odds: solve a bet's Markov chain from its raw dice rules.

A bet is described only by ``step(state, (d1, d2))``, returning WIN, LOSE or the next state. The
chance of WIN from ``start`` is found by exact Gaussian elimination over Fractions (method 1) or
by pushing the probability mass through ``depth`` throws (method 2, a bracket [low, low + open]).
Neither uses the closed forms of ``tablectl.odds``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

WIN, LOSE = "WIN", "LOSE"
THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]
ONE = Fraction(1, 36)

Step = Callable[[Hashable, tuple[int, int]], Hashable]


def _states(start: Hashable, step: Step) -> list[Hashable]:
    seen, todo = [start], [start]
    while todo:
        state = todo.pop()
        for pair in THROWS:
            nxt = step(state, pair)
            if nxt not in (WIN, LOSE) and nxt not in seen:
                seen.append(nxt)
                todo.append(nxt)
    return seen


def solve(start: Hashable, step: Step) -> Fraction:
    """P(WIN) from ``start``: x_s = sum over throws of 1/36 * (1 | 0 | x_next)."""
    states = _states(start, step)
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    # rows of [A | b] for (I - P) x = b
    rows = [[Fraction(0)] * (n + 1) for _ in range(n)]
    for i, state in enumerate(states):
        rows[i][i] += 1
        for pair in THROWS:
            nxt = step(state, pair)
            if nxt == WIN:
                rows[i][n] += ONE
            elif nxt != LOSE:
                rows[i][index[nxt]] -= ONE
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return rows[index[start]][n]


def bracket(start: Hashable, step: Step, depth: int) -> tuple[Fraction, Fraction]:
    """(P(won within ``depth`` throws), P(still open after ``depth`` throws)), exactly."""
    mass: dict[Hashable, Fraction] = {start: Fraction(1)}
    won = Fraction(0)
    for _ in range(depth):
        nxt_mass: dict[Hashable, Fraction] = {}
        for state, m in mass.items():
            for pair in THROWS:
                nxt = step(state, pair)
                if nxt == WIN:
                    won += m * ONE
                elif nxt != LOSE:
                    nxt_mass[nxt] = nxt_mass.get(nxt, Fraction(0)) + m * ONE
        mass = nxt_mass
    return won, sum(mass.values(), Fraction(0))


# The bets' raw rules, written from RULES.md directly.


def line_step(state, pair):
    """R-B2..R-B6 from the side of the dice: state "comeout" or the point."""
    total = pair[0] + pair[1]
    if state == "comeout":
        if total in (7, 11):
            return WIN
        if total in (2, 3, 12):
            return LOSE
        return total
    if total == state:
        return WIN
    return LOSE if total == 7 else state


def before_seven_step(number):
    def step(state, pair):
        total = pair[0] + pair[1]
        return WIN if total == number else LOSE if total == 7 else state

    return step


def hardway_step(number):
    def step(state, pair):
        total = pair[0] + pair[1]
        if total == number:
            return WIN if pair[0] == pair[1] else LOSE
        return LOSE if total == 7 else state

    return step


def matches(entry, pair) -> bool:
    """R-S7 entries read independently of tablectl: a total, or a combination in either order."""
    if isinstance(entry, int):
        return pair[0] + pair[1] == entry
    a, b = (int(x) for x in entry.split("-"))
    return sorted(pair) == sorted((a, b))


def proposition_step(wins, loses, within):
    """State = throws seen so far."""

    def step(seen, pair):
        if any(matches(e, pair) for e in wins):
            return WIN
        if any(matches(e, pair) for e in loses or ()):
            return LOSE
        if within is not None and seen + 1 >= within:
            return LOSE
        return seen + 1 if within is not None else seen

    return step
