"""The center bet (R-C1..R-C7): the shooter's stake, the fades covering it, its settlement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..center import CenterBet
from ..errors import CenterBetError, FadeClaimError, FadeTooMuch, PlayerLeft
from ..fields import PARSERS, parse_fade

if TYPE_CHECKING:
    from ..engine import Game


def center_before_come_out(game: Game, rule: str) -> CenterBet:
    c = game.center
    if c is None:
        raise CenterBetError(rule, "there is no center bet (the shooter puts one up with "
                                   "center_bet)")
    if game.point is not None:
        raise CenterBetError(rule, f"the center bet is faded, raised or called off before "
                                   f"the come-out; the point {game.point} is pending: wait "
                                   f"for its decision")
    return c


def return_center(game: Game, events: list, reason: str) -> None:
    """Call the whole center bet off: every stake back to its owner (R-C5 no bet)."""
    c = game.center
    returned = c.stakes()
    for player, units in returned.items():
        game.ledger.release(player, units)
    game.center = None
    events.append({"event": "center_called_off", "player": c.shooter, "units": c.amount,
                   "returned": returned, "reason": reason, "rule": "R-C5"})


def settle_center(game: Game, dice_win: bool, events: list) -> None:
    """R-C7: the dice win, the shooter takes the center; they lose, each fader doubles."""
    c = game.center
    game.center = None
    # Ledger.release and Ledger.pay inlined, as in the side bets' settlement (a call each
    # about 300 machine instructions)
    accounts = game.ledger.accounts
    shooter = c.shooter
    fades = c.fades
    if dice_win:
        won = sum(fades.values())
        for fader, units in fades.items():
            accounts[fader].escrow -= units
        account = accounts[shooter]
        account.escrow -= c.amount
        account.balance += c.amount + won
        # R-C4: one player who faded the whole bet and lost may claim the next one first
        game.claimant = next(iter(fades)) if (
            len(fades) == 1 and game.rules.fade_first_claim) else None
    else:
        won = -sum(fades.values())
        for fader, units in fades.items():
            account = accounts[fader]
            account.escrow -= units  # his stake back and as much of the shooter's
            account.balance += units + units
        accounts[shooter].escrow += won
        game.claimant = None
    if game.quiet:  # Game.rebuild: no events
        return
    # what each won (the shooter) or lost (a fader: his fade), the faders first
    sign = -1 if dice_win else 1
    amounts = {fader: sign * units for fader, units in fades.items()}
    amounts[shooter] = won
    events.append({"event": "center_settled", "winner": "dice" if dice_win else "faders",
                   "player": shooter, "units": won, "amounts": amounts, "rule": "R-C7"})


def center_bet(game: Game, amount: int) -> list[dict]:
    # about one a come-out: the checks that pass go by in a comparison each, the helpers with
    # the messages run only for a bet they refuse, as side_bet does (bench/rules.py: 145
    # bytecodes a center bet against 188, and 189 a fade against 271)
    if game.pending_ruling is not None or game.rolling:
        game.check_bets_open()
    shooter = game.shooter
    if shooter is None:
        game.check_shooter()
    if game.point is not None:
        raise CenterBetError("R-C1", f"the center bet is put up before a come-out; the point "
                                     f"{game.point} is pending: put it up after its "
                                     f"decision")
    if game.center is not None:
        raise CenterBetError("R-C1", f"there is already a center bet of {game.center.amount}"
                                     f" (raise it with raise)")
    account = game.ledger.accounts[shooter]
    if amount > account.balance:
        game.check_funds(shooter, amount, "R-C1")
    account.balance -= amount  # Ledger.put_up inlined (one call less a center bet)
    account.escrow += amount
    game.center = CenterBet(shooter, amount)
    if game.quiet:  # Game.rebuild: no events (an empty tuple: no new list)
        return ()
    return [{"event": "center_bet_made", "player": shooter, "units": amount, "rule": "R-C1"}]


def run_center_bet(game: Game, command: dict) -> list[dict]:
    """The center_bet command: a whole number of units checked inline (``fields._amount``
    says what is wrong with any other)."""
    amount = command.get("amount")
    if type(amount) is int and amount > 0:
        return center_bet(game, amount)
    return center_bet(game, *PARSERS["center_bet"](command))


def run_fade(game: Game, command: dict) -> list[dict]:
    """The fade command: a well-formed fade without a claim checked inline (``parse_fade``
    says what is wrong with any other)."""
    player = command.get("player")
    amount = command.get("amount")
    if (type(player) is str and player and type(amount) is int and amount > 0
            and "claim" not in command):
        return fade(game, player, amount, False)
    return fade(game, *parse_fade(command))


def fade(game: Game, player: str, amount: int, claim: bool) -> list[dict]:
    if game.pending_ruling is not None or game.rolling:  # the passing checks inline
        game.check_bets_open()
    c = game.center
    if c is None or game.point is not None:
        c = center_before_come_out(game, "R-C2")
    if player not in game.seats:
        game.check_bettor(player, "R-C2")
    if player == c.shooter or player == game.shooter:
        # R-C2 "any other player": the shooter, or a substitute throwing the bet, never fades
        raise CenterBetError("R-C2", f"{player} cannot fade a center bet he shoots for; "
                                     f"another player fades it, or the shooter takes down "
                                     f"the open part (take_down)")
    if claim:
        if not game.rules.fade_first_claim:
            raise FadeClaimError("R-C4", "this table does not use the first-claim rule "
                                         "(table rule fade_first_claim): fade without "
                                         "\"claim\"")
        if game.claimant != player:
            who = game.claimant or "nobody now"
            raise FadeClaimError("R-C4", f"only the player who alone faded the whole previous "
                                         f"center bet and lost may claim ({who}); fade "
                                         f"without \"claim\"")
        if amount != c.amount:
            raise FadeClaimError("R-C4", f"a claim fades the whole bet: fade {c.amount} with the "
                                         f"claim")
        own = c.fades.get(player, 0)
        game.check_funds(player, amount - own, "R-C4")
        events = []
        for fader, units in list(c.fades.items()):
            game.ledger.release(fader, units)
            if fader != player:
                events.append({"event": "fade_returned", "player": fader, "units": units,
                               "rule": "R-C4"})
        c.fades = {player: amount}
        game.ledger.put_up(player, amount)
        game.claimant = None
        events.append({"event": "faded", "player": player, "units": amount,
                       "covered": amount, "open": 0, "claim": True, "rule": "R-C4"})
        return events
    covered = sum(c.fades.values())  # CenterBet.faded inline: a property is a call through C
    if covered + amount > c.amount:
        raise FadeTooMuch("R-C6", "faders may not fade more than the shooter's bet",
                          f"the bet is {c.amount}, {covered} faded, {c.amount - covered} "
                          f"open; fade at most that, or the shooter raises")
    account = game.ledger.accounts[player]
    if amount > account.balance:
        game.check_funds(player, amount, "R-C2")
    account.balance -= amount  # Ledger.put_up inlined (one call less a fade)
    account.escrow += amount
    c.fades[player] = c.fades.get(player, 0) + amount
    if game.quiet:  # Game.rebuild: no events (an empty tuple: no new list)
        return ()
    return [{"event": "faded", "player": player, "units": amount, "covered": covered + amount,
             "open": c.amount - covered - amount, "rule": "R-C2"}]


def raise_bet(game: Game, amount: int) -> list[dict]:
    game.check_bets_open()
    c = center_before_come_out(game, "R-C6")
    if c.shooter not in game.seats:  # R-O3: his bet stands, but he puts up nothing new
        raise PlayerLeft("R-O3", f"{c.shooter}, whose center bet it is, has left the table: "
                                 f"he may not raise it (take_down or no_bet)")
    if amount <= c.amount:
        raise CenterBetError("R-C6", f"a raise sets a new total above the current bet "
                                     f"{c.amount}; got {amount}: give the new total")
    game.check_funds(c.shooter, amount - c.amount, "R-C6")
    game.ledger.put_up(c.shooter, amount - c.amount)
    added = amount - c.amount
    c.amount = amount
    return [{"event": "center_raised", "player": c.shooter, "units": amount, "added": added,
             "open": c.open, "rule": "R-C6"}]


def take_down(game: Game) -> list[dict]:
    game.check_bets_open()
    c = center_before_come_out(game, "R-C5")
    uncovered = c.open
    if uncovered == 0:
        raise CenterBetError("R-C5", "the center bet is fully faded: nothing to take down; "
                                     "throw the come-out")
    game.ledger.release(c.shooter, uncovered)
    c.amount -= uncovered
    if c.amount == 0:
        game.center = None
    return [{"event": "center_taken_down", "player": c.shooter, "units": uncovered,
             "amount": c.amount, "rule": "R-C5"}]


def no_bet(game: Game) -> list[dict]:
    game.check_bets_open()
    center_before_come_out(game, "R-C5")
    events: list[dict] = []
    return_center(game, events, "no bet")
    return events


HANDLERS = {"center_bet": center_bet, "fade": fade, "raise": raise_bet, "take_down": take_down,
            "no_bet": no_bet}
RUNNERS = {"center_bet": run_center_bet, "fade": run_fade}
