"""Seating and the order of play (R-P1, R-O1..R-O3): who sits, who shoots, who is paid out.

Handlers take the game and the command's fields as ``fields.PARSERS`` checked them; each
checks what could refuse it before it changes anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BarredShooter, BetsClosed, CommandError, SeatingError
from .center_bet import return_center

if TYPE_CHECKING:
    from ..engine import Game


def next_eligible(game: Game, after: str, skip: str | None = None) -> str | None:
    """The next seated, non-barred player clockwise after ``after`` (not ``after``, nor
    ``skip``: a player about to leave)."""
    seats = game.seats
    n = len(seats)
    if after not in seats:
        return None
    i = seats.index(after)
    barred = game.barred
    for k in range(1, n):
        p = seats[(i + k) % n]
        if p not in barred and p != skip:
            return p
    return None


def hand_dice(game: Game, to: str | None, reason: str, events: list) -> None:
    """A new turn: ``to`` shoots (R-D1, R-D2)."""
    events.append({"event": "dice_passed", "from": game.shooter, "to": to, "reason": reason})
    game.shooter = to
    game.turn_of = to
    game.thrown_in_turn = False


def pay_out_leavers(game: Game, events: list) -> None:
    """R-O3: a player who left is paid out once nothing of his is in escrow."""
    accounts = game.ledger.accounts
    for player in [p for p in game.leaving if accounts[p].escrow == 0]:
        game.leaving.remove(player)
        units = game.ledger.cash_out(player)
        events.append({"event": "cashed_out", "player": player, "units": units,
                       "rule": "R-O3"})


def join(game: Game, player: str, buy_in: int, seat: int | None) -> list[dict]:
    if seat is None:
        seat = len(game.seats)
    elif seat > len(game.seats):
        raise CommandError(f"join: \"seat\" must be an index 0..{len(game.seats)} in the "
                           f"clockwise order, got {seat!r}")
    if player in game.seats:
        raise SeatingError("R-O2", f"{player} is already at the table (to take another seat, "
                                   f"leave first)")
    event = {"event": "joined", "player": player, "units": buy_in, "seat": seat,
             "rule": "R-O2"}
    if player in game.ledger.accounts:
        # R-O3/R-O2: he left with stakes still at risk and sits down again (else, with
        # everyone gone, no throw could ever decide them); his balance was kept for him
        game.leaving.remove(player)
        event["returning"] = True
    game.ledger.buy_in(player, buy_in)
    game.seats.insert(seat, player)
    return [event]


def leave(game: Game, player: str) -> list[dict]:
    if player not in game.seats:
        raise SeatingError("R-O3", f"{player} is not seated at the table (only a seated player "
                                   f"can leave)")
    if player == game.shooter and (game.rolling or game.pending_ruling is not None):
        raise SeatingError("R-O3", f"{player} is shooting: he may leave once the throw is "
                                   f"decided")
    events: list[dict] = [{"event": "left", "player": player, "rule": "R-O3"}]
    if game.claimant == player:
        game.claimant = None
    seats = game.seats
    if player == game.shooter:
        # the dice go on clockwise from whose turn it is: a substitute who leaves hands them
        # on from the warned shooter's seat, not from his own (R-O1, R-I3)
        turn = game.turn_of
        anchor = turn if turn != player and turn in seats else player
        nxt = next_eligible(game, anchor, skip=player)
        if game.point is None and game.center is not None:
            return_center(game, events, "the shooter left")
        seats.remove(player)
        # Reading: with a point pending, the next player takes the dice and throws for it
        hand_dice(game, nxt, "left", events)
        if game.point is not None:
            game.thrown_in_turn = True
    elif player == game.turn_of:
        # a warned shooter leaves while a substitute finishes his turn (R-I3): the rotation
        # must still go on from his seat, so the turn is anchored on the player before it
        i = seats.index(player)
        seats.remove(player)
        game.turn_of = seats[(i - 1) % len(seats)]  # the substitute is still seated
    else:
        seats.remove(player)
    game.leaving.append(player)
    pay_out_leavers(game, events)
    return events


def shooter(game: Game, player: str) -> list[dict]:
    game.check_no_ruling_pending()
    if game.shooter is not None:
        if game.rolling:
            raise BetsClosed("R-S0", "the dice are rolling; wait until the throw is decided")
        if game.point is not None or game.thrown_in_turn or game.throws:
            # R-O1: only the first shooter is chosen; after that the dice go clockwise
            raise SeatingError("R-O1", f"{game.shooter} has the dice; after the first throw "
                                       f"they go on clockwise only (he may pass_dice)")
        if game.center is not None:
            raise SeatingError("R-O1", f"{game.shooter} has a center bet out: call it off "
                                       f"(no_bet) before naming another shooter")
    if player not in game.seats:
        raise SeatingError("R-O1", f"{player} is not seated at the table (join first)")
    if player in game.barred:
        raise BarredShooter("R-D3", f"{player} is barred from shooting (he may still bet)")
    game.shooter = player
    game.turn_of = player
    game.thrown_in_turn = False
    return [{"event": "shooter_set", "player": player, "rule": "R-O1"}]


HANDLERS = {"join": join, "leave": leave, "shooter": shooter}
