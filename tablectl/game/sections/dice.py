"""The dice (R-D1, R-D2, R-X1): passing them on, changing to another pair."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CommandError, DiceChangeError, DicePassError
from .center_bet import return_center
from .seating import hand_dice, next_eligible

if TYPE_CHECKING:
    from ..engine import Game


def apply_dice_change(game: Game, events: list) -> None:
    """The called change takes effect, if the next throw is a come-out (R-X1)."""
    if game.dice_change_to is not None and game.point is None and not game.rolling:
        previous, game.dice_pair = game.dice_pair, game.dice_change_to
        game.dice_change_to = None
        events.append({"event": "dice_changed", "pair": game.dice_pair, "previous": previous,
                       "rule": "R-X1"})


def pass_dice(game: Game) -> list[dict]:
    game.check_no_ruling_pending()
    if game.rolling:
        raise DicePassError("R-D2", "the dice are rolling; pass them once the throw is decided")
    game.check_shooter()
    if game.point is not None:
        raise DicePassError("R-D2", f"the dice may not be passed while the point "
                                    f"{game.point} is pending; pass them after its "
                                    f"decision")
    nxt = next_eligible(game, game.turn_of)
    if nxt is None:
        raise DicePassError("R-D2", "no other seated player may take the dice")
    events: list[dict] = []
    if game.center is not None:
        return_center(game, events, "the dice passed")
    hand_dice(game, nxt, "voluntary", events)
    events[-1]["rule"] = "R-D2"
    return events


def change_dice(game: Game, pair: int | None) -> list[dict]:
    n = game.rules.dice_pairs
    if n < 2:
        raise DiceChangeError("R-X1", "this table has only one pair of dice (table rule "
                                      "dice_pairs)")
    target = game.dice_change_to if game.dice_change_to is not None else game.dice_pair
    if pair is None:
        # new dice: the next pair after the one in use (a second call does not cancel it)
        pair = (game.dice_pair + 1) % n
        if pair == target:
            raise DiceChangeError("R-X1", f"new dice (pair {pair}) are already called for "
                                          f"the next come-out; name another \"pair\" to "
                                          f"choose other dice")
    elif pair >= n:
        raise CommandError(f"change_dice: \"pair\" must be 0..{n - 1}, got {pair!r}")
    if pair == target:
        raise DiceChangeError("R-X1", f"pair {pair} is already the pair for the next come-out")
    if pair == game.dice_pair:  # back to the pair in use: the called change is dropped
        game.dice_change_to = None
        return [{"event": "dice_change_cancelled", "pair": pair, "rule": "R-X1"}]
    immediate = game.point is None and not game.rolling and game.pending_ruling is None
    game.dice_change_to = pair
    if immediate:
        events: list[dict] = []
        apply_dice_change(game, events)
        return events
    return [{"event": "dice_change_called", "pair": pair,
             "effective": "before the next come-out", "rule": "R-X1"}]


HANDLERS = {"pass_dice": pass_dice, "change_dice": change_dice}
