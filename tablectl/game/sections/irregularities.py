"""Irregularities (R-I1..R-I5, R-D3): void throws, the operator's rulings and overrides,
warnings and the sanctions they open (a substitute, a bar), and throws the rules refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import (
    AwaitingRuling,
    BarredShooter,
    BetsClosed,
    CenterBetError,
    NoRulingPending,
    SanctionNotOpen,
    SeatingError,
)
from .center_bet import return_center
from .dice import apply_dice_change
from .seating import hand_dice, next_eligible
from .throw import revert_last_throw, throw_counts

if TYPE_CHECKING:
    from ..engine import Game


class VoidUndo:
    """What a void throw changes (R-I1..R-I3), captured just before it, so that the operator's
    override of that void (R-I2: he saw the throw was fine) can make the throw count as if the
    camera had counted it: ``restore`` puts the game back, ``Game.snapshot`` writes it out.

    A void decides nothing (RULES.md): it only lets the dice rest (``rolling``) and lets a
    called change of dice take effect (R-X1); ``rule`` and ``reason`` say why it was void.
    """

    __slots__ = ("rule", "reason", "rolling", "dice_pair", "dice_change_to")

    def __init__(self, game: Game, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        self.rolling = game.rolling
        self.dice_pair = game.dice_pair
        self.dice_change_to = game.dice_change_to

    def restore(self, game: Game) -> None:
        """Put ``game`` back as it was when this record was taken."""
        game.rolling = self.rolling
        game.dice_pair = self.dice_pair
        game.dice_change_to = self.dice_change_to

    def ruling(self) -> dict:
        """The void ruling overridden: the ``previous`` of the override's event."""
        return {"void": True, "rule": self.rule, "reason": self.reason}

    def snap(self, after: dict) -> dict:
        """The game's ``snapshot()`` as it was before the void, from ``after`` (its snapshot
        after the void)."""
        return dict(after, rolling=self.rolling, dice_pair=self.dice_pair,
                    dice_change_to=self.dice_change_to)


def void_throw(game: Game, rule: str, reason: str, events: list) -> None:
    """The throw is void (nothing checked here): the dice rest, a called change of dice takes
    effect (R-X1), and the record for an override is kept (unless a replay says none can
    follow, as for a counted throw: ``Game.keep_undo``)."""
    if game.keep_undo:
        game.undo = VoidUndo(game, rule, reason)
        game.undo_valid_at = game.commands_applied + 1
    else:
        game.undo = None
        game.undo_valid_at = -1
    game.rolling = False
    events.append({"event": "throw_void", "shooter": game.shooter, "rule": rule,
                   "reason": reason})
    if game.dice_change_to is not None:
        apply_dice_change(game, events)


def void(game: Game, rule: str, reason: str) -> list[dict]:
    game.check_no_ruling_pending()
    game.check_shooter()
    events: list[dict] = []
    void_throw(game, rule, reason, events)
    return events


def await_ruling(game: Game, rule: str, reason: str, observation: dict | None) -> list[dict]:
    if game.pending_ruling is not None:
        raise AwaitingRuling("R-I2", "the operator has not yet ruled on the last throw: "
                                     "operator_ruling first")
    shooter = game.check_throw_allowed()
    game.rolling = False
    game.pending_ruling = {"rule": rule, "reason": reason, "shooter": shooter}
    if observation is not None:
        game.pending_ruling["observation"] = observation
    event = {"event": "awaiting_ruling", "shooter": shooter, "rule": rule, "reason": reason}
    if observation is not None:
        event["observation"] = observation
    return [event]


def operator_ruling(game: Game, by: str, why: str,
                    dice: tuple[int, int] | None) -> list[dict]:
    """The operator rules on the throw waiting for him, or overrides the throw just made,
    counted or void (R-I2): ``dice`` the values he reads, None for a void."""
    pending = game.pending_ruling
    if pending is None:
        if game.undo is None or game.undo_valid_at != game.commands_applied:
            raise NoRulingPending(
                "R-I2", "no throw is waiting for the operator's ruling, and the last "
                        "command was not a throw he could override (an override must come "
                        "right after the throw, before any other command but warn)")
        if type(game.undo) is VoidUndo:
            return override_void(game, by, why, dice)
        return override(game, by, why, dice)
    ruled = {"event": "operator_ruled", "by": by, "why": why, "rule": pending["rule"]}
    if dice is None:
        game.pending_ruling = None
        ruled["void"] = True
        events = [ruled]
        void_throw(game, pending["rule"], why or pending["reason"], events)
        return events
    game.pending_ruling = None
    ruled["dice"] = list(dice)
    return [ruled] + throw_counts(game, dice[0], dice[1])


def override(game: Game, by: str, why: str, dice: tuple[int, int] | None) -> list[dict]:
    """The operator overrides the last throw, which counted (it was the last command): other
    dice, or void. Everything that throw decided is undone and the throw is played again."""
    previous = list(game.undo.dice)
    revert_last_throw(game)
    ruled = {"event": "operator_ruled", "by": by, "why": why, "rule": "R-I2",
             "override": True, "previous": previous}
    if dice is None:
        ruled["void"] = True
        events = [ruled]
        void_throw(game, "R-I2", why or "voided by the operator", events)
        return events
    ruled["dice"] = list(dice)
    return [ruled] + throw_counts(game, dice[0], dice[1])


def override_void(game: Game, by: str, why: str, dice: tuple[int, int] | None) -> list[dict]:
    """The operator overrides the last throw, which was void (it was the last command): it
    counts with ``dice``, everything as if it had counted. What the void changed is put back
    first (``VoidUndo``)."""
    undo = game.undo
    if dice is None:
        raise NoRulingPending(
            "R-I2", f"the last throw is void already ({undo.rule}: {undo.reason}); to make "
                    f"it count, give the dice the operator read (\"dice\": [d1, d2])")
    # a void does not check what a counted throw needs (a come-out's players, the center bet
    # faded): check it now, before anything changes
    game.check_throw_allowed()
    previous = undo.ruling()
    revert_last_throw(game)
    ruled = {"event": "operator_ruled", "by": by, "why": why, "rule": "R-I2",
             "override": True, "previous": previous, "dice": list(dice)}
    return [ruled] + throw_counts(game, dice[0], dice[1])


def warn(game: Game, rule: str, player: str | None) -> list[dict]:
    game.check_no_ruling_pending()
    if player is None:  # the player who threw last (after a seven-out: not the new shooter)
        player = game.last_thrower or game.check_shooter()
    elif player not in game.seats:
        raise SeatingError(rule, f"{player} is not seated at the table (warn a seated player)")
    counts = game.warnings.setdefault(player, {})
    n = counts.get(rule, 0) + 1
    counts[rule] = n
    events = [{"event": "warned", "player": player, "rule": rule, "count": n}]
    if n > game.rules.warnings_before_sanction:
        open_rules = game.sanctions.setdefault(player, [])
        if rule not in open_rules:
            open_rules.append(rule)
        events.append({"event": "sanction_open", "player": player, "rule": rule,
                       "may": ["substitute", "bar"] if rule == "R-I3" else ["bar"]})
    if game.undo_valid_at == game.commands_applied:
        # a warning belongs to the throw just made (the rulings send throw + warn): the
        # operator may still override that throw (R-I2)
        game.undo_valid_at += 1
    return events


def substitute(game: Game, player: str) -> list[dict]:
    game.check_no_ruling_pending()
    if game.rolling:
        raise BetsClosed("R-S0", "the dice are rolling; appoint the substitute once they "
                                 "rest")
    shooter = game.check_shooter()
    if "R-I3" not in game.sanctions.get(shooter, ()):
        raise SanctionNotOpen("R-I3", f"{shooter} has not repeated the R-I3 offence past "
                                      f"{game.rules.warnings_before_sanction} warning(s); "
                                      f"no substitute may be appointed")
    if player not in game.seats:
        raise SeatingError("R-D3", f"{player} is not seated at the table (appoint a seated "
                                   f"player)")
    if player in game.barred:
        raise BarredShooter("R-D3", f"{player} is barred from shooting; appoint another "
                                    f"player")
    if player == shooter:
        raise SeatingError("R-D3", f"{player} is already the shooter; appoint another player")
    c = game.center
    if c is not None and player in c.fades:
        raise CenterBetError("R-C2", f"{player} fades the center bet: he may not throw "
                                     f"against his own fade; appoint another player")
    game.shooter = player
    return [{"event": "substituted", "player": player, "for": shooter, "rule": "R-I3"}]


def bar(game: Game, player: str) -> list[dict]:
    game.check_no_ruling_pending()
    if player == game.shooter and game.rolling:
        raise BetsClosed("R-S0", "the dice are rolling; bar the shooter once they rest")
    open_rules = game.sanctions.get(player)
    if not open_rules:
        raise SanctionNotOpen("R-I3", f"no sanction is open against {player} (an R-I3 or "
                                      f"R-I5 offence repeated past the warnings)")
    if player in game.barred:
        raise SanctionNotOpen(open_rules[0], f"{player} is already barred")
    game.barred.append(player)
    events = [{"event": "barred", "player": player, "rule": open_rules[0]}]
    if player == game.shooter:
        # the dice go on clockwise from whose turn it is, even when a substitute is barred
        # or the warned shooter is barred too (R-D3: barred players are skipped)
        turn = game.turn_of
        nxt = next_eligible(game, turn if turn in game.seats else player)
        if game.point is None:
            if game.center is not None:
                return_center(game, events, "the shooter is barred")
            hand_dice(game, nxt, "barred", events)
        else:  # someone finishes the turn for the pending point (R-I3)
            game.shooter = nxt
            events.append({"event": "substituted", "player": nxt, "for": player,
                           "rule": open_rules[0]})
    return events


def refused_throw(game: Game, rule: str, reason: str, dice: list | None) -> list[dict]:
    """A throw the camera saw that the rules did not allow then (nobody seated, a ruling
    pending, the dice thrown before bets closed): kept in the journal and shown, but it
    decides nothing and changes no state (the refusal's own rule is in ``rule``)."""
    event = {"event": "throw_refused", "shooter": game.shooter, "rule": rule,
             "reason": reason}
    if dice is not None:
        event["dice"] = list(dice)
    return [event]


HANDLERS = {"void": void, "await_ruling": await_ruling, "operator_ruling": operator_ruling,
            "warn": warn, "substitute": substitute, "bar": bar, "refused_throw": refused_throw}
