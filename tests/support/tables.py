"""Helpers shared by the tests of the running table and of the dashboard."""

from __future__ import annotations

# two players seated, ann shoots, her center bet of 10 faded in full (R-O1, R-C1, R-C2)
OPENING = [
    {"command": "join", "player": "ann", "buy_in": 100},
    {"command": "join", "player": "bob", "buy_in": 100},
    {"command": "shooter", "player": "ann"},
    {"command": "center_bet", "amount": 10},
    {"command": "fade", "player": "bob", "amount": 10},
]


def play(table, commands, by="script"):
    """Submit each command to the real ``Table``; return all their events."""
    events = []
    for c in commands:
        events += table.submit(c, by=by)
    return events
