"""Views of the running table built from the real game, and lights on gpiozero's mock pins."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from tablectl.game import Game, TableRules

# the brief's default pins (firmware_config/table.toml, docs/hardware.md)
DEFAULT_PINS = {"throw": 17, "wait": 27, "no_roll": 22, "ruling": 23, "warning": 24,
                "fault": 25, "buzzer": 12, "point_4": 5, "point_5": 6, "point_6": 13,
                "point_8": 19, "point_9": 26, "point_10": 21}


def view(game: Game, **table) -> dict:
    """``Table.state()``'s shape (without "lights") around the game's state; ``table`` gives
    the table's own fields (last_throw, pending_ruling, camera, journal, play_stopped, alert)."""
    out = {"seq": 1, "state": game.state(), "pending_ruling": None, "last_throw": None,
           "camera": {"ok": True, "fault": None}, "journal": {"ok": True, "fault": None},
           "play_stopped": None, "alert": None, "sanctions": {}}
    out.update(table)
    return out


def seated(n: int = 3, shooter: str | None = "ann", rules: TableRules | None = None) -> Game:
    """A game with ann, bob, cy (the first n) seated and ann shooting."""
    game = Game(rules or TableRules())
    for player in ("ann", "bob", "cy", "dee")[:n]:
        game.apply({"command": "join", "player": player, "buy_in": 1000})
    if shooter:
        game.apply({"command": "shooter", "player": shooter})
    return game


def play(game: Game, *commands: dict) -> Game:
    for command in commands:
        game.apply(command)
    return game


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()
