"""The throw and its settlement (R-T1, R-T2, R-B1..R-B6, R-D1): the line, then the center bet
and the side bets the throw decides; and the record that lets the operator override it (R-I2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BarredShooter, BetsClosed, NoShooter
from ..fields import parse_throw
from ..sidebets import CRAPS, LINE_NONE, NATURAL, POINT_MADE, POINT_SET, SEVEN_OUT
from .center_bet import settle_center
from .dice import apply_dice_change
from .seating import hand_dice, next_eligible, pay_out_leavers
from .side_bets import settle_side_bets

if TYPE_CHECKING:
    from ..engine import Game


# the snapshot keys of ThrowUndo.line, in its order
LINE_FIELDS = ("rolling", "thrown_in_turn", "last_thrower", "point", "shooter", "turn_of",
               "dice_pair", "dice_change_to", "claimant", "center")


class ThrowUndo:
    """What a counted throw may change, captured just before it (like python-chess's
    ``_BoardState``), so that the operator's override of that throw (R-I2) can put the game
    back: ``revert_last_throw`` restores it, ``Game.snapshot`` writes it out.

    The bets' progress is their own ``progress()``, put back with ``restore()``, taken only
    from the bets the throw changes, just before it changes them (a bet may be taken twice, a
    come bet whose come point is set by the point made: restored last first). The center bet is
    kept by reference: a throw only settles it (drops it), never changes it.
    """

    __slots__ = ("dice", "line", "callable", "bets", "progress", "money", "leavers")

    def __init__(self, game: Game, dice: tuple[int, int]) -> None:
        self.dice = dice
        # the scalars a throw may change, in one tuple (LINE_FIELDS): one store, not ten
        self.line = (game.rolling, game.thrown_in_turn, game.last_thrower, game.point,
                     game.shooter, game.turn_of, game.dice_pair, game.dice_change_to,
                     game.claimant, game.center)
        # the list itself, not a copy: throw_counts gives the game a new one (R-S4)
        self.callable = game.callable_bets
        bets = game.bets
        self.bets = bets.copy()
        # the bets' progress: taken here for every bet a throw can change only when come bets
        # are callable (the throw first lapses their option, R-S4); else settle_side_bets takes
        # it from the bets it changes, as it changes them (bench/rules.py: about 1.1 progress()
        # calls a throw instead of 1.3)
        self.progress = [(bet, bet.progress()) for bet in bets.values()
                         if bet.keeps_progress] if game.callable_bets else []
        ledger = game.ledger
        self.money = ledger.money()
        # cash-outs a throw can make only when someone has left (R-O3)
        leaving = game.leaving
        self.leavers = (ledger.cashed_out.copy(), ledger.cashed_out_total,
                        leaving.copy()) if leaving else None

    def restore(self, game: Game) -> None:
        """Put ``game`` back as it was when this record was taken."""
        (game.rolling, game.thrown_in_turn, game.last_thrower, game.point, game.shooter,
         game.turn_of, game.dice_pair, game.dice_change_to, game.claimant,
         game.center) = self.line
        for bet, progress in reversed(self.progress):
            bet.restore(progress)
        game.bets = self.bets.copy()
        game.callable_bets = self.callable.copy()
        ledger = game.ledger
        ledger.set_money(self.money)
        if self.leavers is not None:
            cashed_out, ledger.cashed_out_total, leaving = self.leavers
            ledger.cashed_out = cashed_out.copy()
            game.leaving = leaving.copy()
        game.throws -= 1

    def snap(self, after: dict) -> dict:
        """The game's ``snapshot()`` as it was before the throw, from ``after`` (its snapshot
        after the throw): what the throw changed comes from this record, the rest is the same."""
        before = dict(after)
        before.update(zip(LINE_FIELDS, self.line, strict=True))
        before["throws"] = after["throws"] - 1
        center = self.line[-1]
        before["center"] = center.to_dict() if center else None
        progress: dict = {}
        for bet, p in self.progress:
            progress.setdefault(id(bet), p)  # the first taken: before the throw changed it
        side_bets = []
        for bet in self.bets.values():
            d = bet.to_dict()
            p = progress.get(id(bet))
            if p is not None:  # else the throw did not change it
                d["progress"] = dict(p)
            side_bets.append(d)
        before["side_bets"] = side_bets
        ledger = dict(after["ledger"])
        ledger["balances"] = {a.player: balance for a, balance, _ in self.money}
        ledger["escrow"] = {a.player: escrow for a, _, escrow in self.money}
        if self.leavers is not None:
            cashed_out, cashed_out_total, leaving = self.leavers
            ledger["cashed_out"] = dict(cashed_out)
            ledger["cashed_out_total"] = cashed_out_total
            before["leaving"] = list(leaving)
        before["ledger"] = ledger
        return before


def dice_rolling(game: Game) -> list[dict]:
    game.check_no_ruling_pending()
    if game.rolling:
        raise BetsClosed("R-S0", "the dice are already rolling: the throw comes next")
    shooter = game.check_throw_allowed()
    game.rolling = True
    return [{"event": "dice_rolling", "shooter": shooter, "rule": "R-S0"}]


def throw(game: Game, d1: int, d2: int, who: str | None) -> list[dict]:
    if game.pending_ruling is not None:
        game.check_no_ruling_pending()
    shooter = game.shooter
    if game.point is None or shooter is None:  # a point pending needs no more checks
        shooter = game.check_throw_allowed()
    if who is not None and who != shooter:
        if who in game.barred:
            raise BarredShooter("R-D3", f"{who} is barred from shooting (he may still bet)")
        raise NoShooter("R-O1", f"{who} is not the shooter; {shooter} is")
    return throw_counts(game, d1, d2)


def run_throw(game: Game, command: dict) -> list[dict]:
    """The throw command: the well-formed throw by the shooter checked inline, the most
    frequent command (parse_throw says what is wrong with any other)."""
    try:  # a subscript, not get(): no method call
        dice = command["dice"]
    except KeyError:
        dice = None
    # the two fields alone (no "player" to check): len() is cheaper than a lookup of "player";
    # anything more goes to parse_throw, which ignores unknown fields as this path did
    if type(dice) is list and len(dice) == 2 and len(command) == 2:
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 0 < d1 < 7 and 0 < d2 < 7:
            if game.point is not None and game.pending_ruling is None and (
                    game.shooter is not None):
                return throw_counts(game, d1, d2)  # a point pending: nothing to check
            return throw(game, d1, d2, None)
    return throw(game, *parse_throw(command))


def throw_counts(game: Game, d1: int, d2: int) -> list[dict]:
    """A throw that counts (R-T2): the line, the center bet, the side bets."""
    if game.keep_undo:
        undo = game.undo = ThrowUndo(game, (d1, d2))
        game.undo_valid_at = game.commands_applied + 1
        keep = None if game.callable_bets else undo.progress.append
    else:  # Game.replay: no override can follow this throw, so nothing is kept for one
        game.undo = None
        game.undo_valid_at = -1
        keep = None
    game.rolling = False
    game.thrown_in_turn = True
    game.throws += 1
    total = d1 + d2
    point = game.point
    shooter = game.last_thrower = game.shooter
    callable_now = game.callable_bets
    if callable_now:  # R-S4: the option lapses with the next throw: the bet is carried
        for bet in callable_now:
            bet.may_call_off = False
            bet.carried = True
            bet.kept_by = None
    game.callable_bets = []  # a new list: the undo record keeps the old one
    if point is None:
        if game.claimant is not None and game.center is None:
            game.claimant = None  # R-C4: the claim is on the next come-out only, and lapses
        if total == 7 or total == 11:
            line = NATURAL
        elif total == 2 or total == 3 or total == 12:
            line = CRAPS
        else:
            line = POINT_SET
            game.point = total
    elif total == point:
        line = POINT_MADE
        game.point = None
    elif total == 7:
        line = SEVEN_OUT
        game.point = None
    else:
        line = LINE_NONE
    # Game.rebuild (quiet) reads no events: the throw's own are not built
    events = [] if game.quiet else line_events(shooter, d1, d2, total, point, line)
    if game.center is not None and line != LINE_NONE and line != POINT_SET:
        settle_center(game, line == NATURAL or line == POINT_MADE, events)
    if game.bets:
        # table_key(dice_index(d1, d2), line), inline: line * 36 + (d1 - 1) * 6 + d2 - 1
        settle_side_bets(game, line * 36 + d1 * 6 + d2 - 7, total, line, events, keep)
    if line == SEVEN_OUT:  # R-D1: the dice pass clockwise from whose turn it was
        turn = game.turn_of
        nxt = next_eligible(game, turn)
        if nxt is None:
            nxt = turn if turn in game.seats and turn not in game.barred else None
        hand_dice(game, nxt, "seven_out", events)
    if game.dice_change_to is not None:
        apply_dice_change(game, events)
    if game.leaving:
        pay_out_leavers(game, events)
    return events


def line_events(shooter: str, d1: int, d2: int, total: int, point: int | None,
                line: int) -> list[dict]:
    """The throw's own events: the come-out or the throw with a point pending, and what it
    did to the line (R-B2..R-B6)."""
    if point is None:
        events = [{"event": "come_out", "shooter": shooter, "dice": [d1, d2], "total": total}]
        if line == NATURAL:
            events.append({"event": "natural", "shooter": shooter, "total": total,
                           "rule": "R-B2"})
        elif line == CRAPS:
            events.append({"event": "craps", "shooter": shooter, "total": total,
                           "rule": "R-B3"})
        else:
            events.append({"event": "point_set", "shooter": shooter, "point": total,
                           "rule": "R-B4"})
        return events
    events = [{"event": "thrown", "shooter": shooter, "dice": [d1, d2], "total": total,
               "point": point}]
    if line == POINT_MADE:
        events.append({"event": "point_made", "shooter": shooter, "point": point,
                       "rule": "R-B5"})
    elif line == SEVEN_OUT:
        events.append({"event": "seven_out", "shooter": shooter, "point": point,
                       "rule": "R-B6"})
    return events


def revert_last_throw(game: Game) -> None:
    """Put the game back as it was before the last counted throw (see ``ThrowUndo``)."""
    undo = game.undo
    game.undo = None
    game.undo_valid_at = -1
    undo.restore(game)  # come bets made callable by the throw (R-S4) too: their progress


HANDLERS = {"dice_rolling": dice_rolling, "throw": throw}
RUNNERS = {"throw": run_throw}
