"""Small builders for game tests (real Game, no mocks)."""

from __future__ import annotations

from tablectl.game import Game, TableRules

PLAYERS = ("ann", "bob", "cy", "dee")


def table(n: int = 3, buy_in: int = 1000, rules: TableRules | None = None,
          shooter: str | None = "ann") -> Game:
    """A game with the first ``n`` of ann, bob, cy, dee seated in that order."""
    g = Game(rules or TableRules())
    for p in PLAYERS[:n]:
        g.apply({"command": "join", "player": p, "buy_in": buy_in})
    if shooter:
        g.apply({"command": "shooter", "player": shooter})
    return g


def run(g: Game, *commands: dict) -> list[dict]:
    """Apply the commands in order; all their events."""
    events: list[dict] = []
    for c in commands:
        events.extend(g.apply(c))
    return events


def names(events: list[dict]) -> list[str]:
    return [e["event"] for e in events]


def throw(d1: int, d2: int) -> dict:
    return {"command": "throw", "dice": [d1, d2]}


def center(g: Game, amount: int, **fades: int) -> list[dict]:
    """The shooter bets ``amount`` in the center and the named players fade."""
    cmds = [{"command": "center_bet", "amount": amount}]
    cmds += [{"command": "fade", "player": p, "amount": a} for p, a in fades.items()]
    return run(g, *cmds)


def side(bet_id, kind: str, backer: str, layer: str, stake_for: int, stake_against: int,
         **terms) -> dict:
    cmd = {"command": "side_bet", "id": bet_id, "kind": kind, "for": backer, "against": layer,
           "stakes": {backer: stake_for, layer: stake_against}}
    cmd.update(terms)
    return cmd


def refused_unchanged(g: Game, command: dict, exc_type, rule: str):
    """Assert the command is refused citing ``rule`` and leaves the snapshot as it was."""
    import pytest

    before = g.snapshot()
    with pytest.raises(exc_type) as info:
        g.apply(command)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(f"{rule}: ")
    assert g.snapshot() == before
    return info.value
