"""Refusals of the game: a rule the command breaks, or a command that is not well formed."""

from __future__ import annotations


class CommandError(ValueError):
    """A command that is malformed or unknown (missing field, wrong type, unknown name)."""


class RuleViolation(ValueError):
    """A well-formed command the rules forbid right now; the game state is unchanged.

    ``rule`` is the RULES.md id (e.g. ``"R-C6"``); ``str(e)`` is ``"R-C6: <why>"``; ``detail``
    (or None) gives the figures of the case and what can be done instead.
    """

    def __init__(self, rule: str, message: str, detail: str | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message
        self.detail = detail


class SeatingError(RuleViolation):
    """Joining, leaving or naming the shooter is not possible as asked (R-O1..R-O3)."""


class PlayerLeft(RuleViolation):
    """A player who left the table tries to bet or shoot (R-O3)."""


class NotEnoughPlayers(RuleViolation):
    """Fewer seated players than the table's ``min_players`` for a come-out (R-P1)."""


class NoShooter(RuleViolation):
    """No shooter is set, or the named player is not the shooter (R-O1)."""


class BarredShooter(RuleViolation):
    """A barred player may bet but never shoot (R-D3, R-I3, R-I5)."""


class DicePassError(RuleViolation):
    """The dice may not be passed now (R-D2: never while a point is pending)."""


class DiceChangeError(RuleViolation):
    """A change of dice that cannot be made (R-X1, R-E2)."""


class CenterBetError(RuleViolation):
    """A center-bet command out of order (R-C1, R-C2, R-C5)."""


class FadeTooMuch(RuleViolation):
    """The faders would cover more than the shooter's bet (R-C6)."""


class FadeClaimError(RuleViolation):
    """A first-fade claim that the table rule R-C4 does not give."""


class UncoveredCenterBet(RuleViolation):
    """A come-out with part of the center bet not faded (R-C5)."""


class InsufficientBalance(RuleViolation):
    """A stake larger than what the player has free (not in escrow)."""


class BetsClosed(RuleViolation):
    """Bets are made before the dice are thrown, never while they roll (R-S0)."""


class SideBetError(RuleViolation):
    """A side bet that cannot be made as asked (R-S0..R-S7)."""


class CallOffNotAllowed(RuleViolation):
    """A side bet that may not be called off (or carried) now (R-S4, R-S6)."""


class AwaitingRuling(RuleViolation):
    """The game waits for the operator's ruling on the last throw (R-I2)."""


class NoRulingPending(RuleViolation):
    """An operator ruling with nothing to rule on (R-I2)."""


class SanctionNotOpen(RuleViolation):
    """A substitute or a bar without an offence repeated past the warnings (R-I3, R-I5)."""
