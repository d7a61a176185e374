"""What the pages show, worked out from the table's state and its journal rows.

``JournalCache`` keeps the journal's rows read so far and reads only the new ones
(``table.journal_rows(since)``); the pages and the statistics share it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from fractions import Fraction

THROW_EVENTS = ("come_out", "thrown")
MEANINGS = ("natural", "craps", "point_set", "point_made", "seven_out")


class JournalCache:
    """The journal's rows, oldest first, read incrementally and shared by every request."""

    def __init__(self, table) -> None:
        self._table = table
        self._lock = threading.Lock()
        self._rows: list = []

    def rows(self) -> list:
        with self._lock:
            since = self._rows[-1].seq if self._rows else 0
            new = list(self._table.journal_rows(since))
            self._rows.extend(r for r in new if r.seq > since)
            return self._rows


@dataclass
class Throw:
    """One throw the journal recorded: counted, void, waiting for a ruling, or refused."""

    seq: int
    dice: list | None
    total: int | None
    meaning: str             # natural, craps, point_set, point_made, seven_out, no_decision,
    #                          void, awaiting, refused
    shooter: str | None = None
    rule: str | None = None
    reason: str | None = None
    image_seq: int | None = None  # the row holding its picture
    ruled_by: str | None = None
    settled: list = field(default_factory=list)


def throws_of(rows) -> list[Throw]:
    """Every throw in ``rows`` (oldest first). An operator's override replaces the throw it
    overrides."""
    out: list[Throw] = []
    for row in rows:
        names = [e.get("event") for e in row.events]
        image = row.seq if "image" in (row.extra or {}) else None
        throw = None
        for e in row.events:
            name = e.get("event")
            if name in THROW_EVENTS:
                meaning = next((n for n in names if n in MEANINGS), "no_decision")
                throw = Throw(row.seq, list(e.get("dice") or []), e.get("total"), meaning,
                              e.get("shooter"), image_seq=image)
            elif name == "throw_void":
                throw = Throw(row.seq, None, None, "void", e.get("shooter"), e.get("rule"),
                              e.get("reason"), image_seq=image)
            elif name == "awaiting_ruling":
                throw = Throw(row.seq, None, None, "awaiting", e.get("shooter"), e.get("rule"),
                              e.get("reason"), image_seq=image)
            elif name == "throw_refused":
                throw = Throw(row.seq, e.get("dice"), None, "refused", e.get("shooter"),
                              e.get("rule"), e.get("reason"), image_seq=image)
        if throw is None:
            continue
        ruled = next((e for e in row.events if e.get("event") == "operator_ruled"), None)
        if ruled is not None:
            throw.ruled_by = ruled.get("by")
            throw.reason = ruled.get("why") or throw.reason
            if out and (ruled.get("override") or out[-1].meaning == "awaiting"):
                # the ruling decides the throw the camera saw: keep its picture
                if throw.image_seq is None:
                    throw.image_seq = out[-1].image_seq
                out.pop()
        throw.settled = [e for e in row.events if e.get("event", "").endswith(
            ("_settled", "_won", "_lost", "_returned", "_called_off"))]
        out.append(throw)
    return out


def side_bet_terms(rows) -> dict:
    """side bet id -> its ``side_bet_made`` event (the true odds the engine computed)."""
    made = {}
    for row in rows:
        for e in row.events:
            if e.get("event") == "side_bet_made":
                made[e.get("id")] = e
    return made


def next_shooter(state: dict) -> str | None:
    """Who gets the dice after this turn: the next seated, unbarred player clockwise (R-O1)."""
    seats = state.get("seats") or []
    turn = state.get("turn_of") or state.get("shooter")
    barred = set(state.get("barred") or [])
    if not seats:
        return None
    start = seats.index(turn) if turn in seats else -1
    for k in range(1, len(seats) + 1):
        p = seats[(start + k) % len(seats)]
        if p not in barred and p != turn:
            return p
    return None


def fraction(text: str | None) -> Fraction | None:
    try:
        return Fraction(text) if text is not None else None
    except (ValueError, ZeroDivisionError):
        return None


def bet_odds(bet: dict, made: dict | None) -> dict:
    """The true odds of an open side bet: p of the backer's side, each side's edge in units."""
    p = fraction(made.get("p_win")) if made else None
    ev_for = fraction(made.get("ev_for")) if made else None
    if p is None:
        return {"p_for": None}
    stakes = bet.get("stakes") or {}
    sf = stakes.get(bet.get("for"), 0)
    sa = stakes.get(bet.get("against"), 0)
    if ev_for is None:
        ev_for = p * sa - (1 - p) * sf
    favoured = bet.get("for") if ev_for > 0 else bet.get("against") if ev_for < 0 else None
    return {
        "p_for": float(p), "p_against": float(1 - p), "p_text": f"{p.numerator}/{p.denominator}",
        "ev_for": float(ev_for), "ev_against": float(-ev_for), "favoured": favoured,
        "edge": abs(float(ev_for)),
        # as a share of what the favoured side risks
        "edge_pct": (abs(float(ev_for)) / (sf if ev_for > 0 else sa) * 100) if ev_for else 0.0,
    }


def center_view(center: dict | None) -> dict | None:
    if not center:
        return None
    fades = center.get("fades") or {}
    covered = sum(fades.values())
    return {"shooter": center.get("shooter"), "amount": center.get("amount", 0),
            "fades": fades, "covered": covered,
            "unfaded": max(0, center.get("amount", 0) - covered), "open": center.get("open")}


def players_view(state: dict) -> list[dict]:
    balances = state.get("balances") or {}
    escrow = state.get("escrow") or {}
    names = list(dict.fromkeys(list(state.get("seats") or []) + list(balances)))
    warnings = state.get("warnings") or {}
    sanctions = state.get("sanctions_open") or {}
    barred = set(state.get("barred") or [])
    leaving = set(state.get("leaving") or [])
    out = []
    for name in names:
        out.append({
            "name": name, "balance": balances.get(name, 0), "escrow": escrow.get(name, 0),
            "shooter": name == state.get("shooter"),
            "warnings": sum((warnings.get(name) or {}).values()),
            "warned_rules": sorted(warnings.get(name) or {}),
            "sanction": sanctions.get(name) or [], "barred": name in barred,
            "leaving": name in leaving,
        })
    return out
