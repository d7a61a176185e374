"""The engine quotes this package's exact odds on every side bet it accepts (contract "Odds")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tablectl.odds import side_bet_win_probability

game_module = pytest.importorskip("tablectl.game")
if not hasattr(game_module, "Game"):
    pytest.skip("the game engine is not built yet", allow_module_level=True)


@pytest.mark.parametrize(
    "terms",
    [
        {"kind": "line"},
        {"kind": "come"},
        {"kind": "hardway", "number": 10},
        {"kind": "number", "number": 9},
        {"kind": "proposition", "wins": ["6-5", 12], "within": 2},
        {"kind": "proposition", "wins": [12], "loses": [4]},
    ],
)
def test_side_bet_made_carries_the_exact_p_win(terms):
    game = game_module.Game()
    for player in ("ann", "bob"):
        game.apply({"command": "join", "player": player, "buy_in": 1000})
    game.apply({"command": "shooter", "player": "ann"})
    command = {"command": "side_bet", "id": "x", "for": "ann", "against": "bob",
               "stakes": {"ann": 10, "bob": 7}, **terms}
    (made,) = [e for e in game.apply(command) if e["event"] == "side_bet_made"]
    kind = terms["kind"]
    p = side_bet_win_probability(kind, {k: v for k, v in terms.items() if k != "kind"}, None)
    assert Fraction(made["p_win"]) == p
    assert Fraction(made["ev_for"]) == p * 7 - (1 - p) * 10  # contract: EV of "for"
