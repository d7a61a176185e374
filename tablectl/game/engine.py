"""Game: the private-craps table as a state machine. Commands in, events out (RULES.md).

``Game`` keeps the state, ``apply`` (one registry of handlers, ``sections.RUNNERS``: the
command's fields are parsed and checked first, then its handler runs), ``state()``,
``snapshot()`` and the checks the sections share. Each handler (``sections/``, one module per
section of RULES.md) first checks everything that could refuse the command (raising a
RuleViolation or CommandError), and only then changes state, so a refused command changes
nothing. The game is pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator
from itertools import chain
from typing import NoReturn

from .center import CenterBet
from .errors import (
    AwaitingRuling,
    BarredShooter,
    BetsClosed,
    CommandError,
    InsufficientBalance,
    NoShooter,
    NotEnoughPlayers,
    PlayerLeft,
    SeatingError,
    UncoveredCenterBet,
)
from .fields import COMMAND_NAMES
from .ledger import Ledger
from .rules import TableRules
from .sections import RUNNERS
from .sections.irregularities import VoidUndo, void_throw
from .sections.seating import pay_out_leavers
from .sections.throw import ThrowUndo, throw_counts
from .sidebets import SideBet, bet_from_dict

SNAPSHOT_VERSION = 1
# the commands that read the last throw's undo record: the override, and warn, which keeps the
# override open across it (sections/irregularities.py)
UNDO_READERS = frozenset({"operator_ruling", "warn"})
# the commands that can make a throw count or void it (sections/throw.py throw_counts,
# sections/irregularities.py void_throw), so keep its undo
THROW_COMMANDS = frozenset({"throw", "operator_ruling", "void"})
# the runners that read or set commands_applied (Game.rebuild writes it before them)
UNDO_RUNNERS = frozenset(RUNNERS[name] for name in THROW_COMMANDS | UNDO_READERS)
_END = object()  # Game.replay: after the last command


def unknown_command(command) -> NoReturn:
    """Raise the CommandError for a command with no runner (not a dict, no or an unknown name)."""
    # from None: Game.rebuild calls this while it handles the runner lookup's KeyError, which
    # would say nothing more than the refusal
    if type(command) is not dict:
        raise CommandError(
            f"a command must be a JSON object, got {type(command).__name__}") from None
    name = command.get("command")
    if name is None:
        raise CommandError("the command has no \"command\" field naming it") from None
    raise CommandError(f"unknown command {name!r}; known: {', '.join(COMMAND_NAMES)}") from None


class Game:
    """One evening at the table.

    rules: the table rules (TableRules); defaults are RULES.md's.
    """

    __slots__ = (
        "rules", "ledger", "seats", "leaving", "shooter", "turn_of", "point", "rolling",
        "pending_ruling", "center", "bets", "used_ids", "warnings", "sanctions", "barred",
        "dice_pair", "dice_change_to", "thrown_in_turn", "claimant", "throws", "last_thrower",
        "callable_bets", "commands_applied", "undo", "undo_valid_at", "keep_undo",
        "quiet",
    )

    def __init__(self, rules: TableRules | None = None) -> None:
        self.rules = rules if rules is not None else TableRules()
        self.ledger = Ledger()
        self.seats: list[str] = []            # seated players, clockwise (R-O1)
        self.leaving: list[str] = []          # left, not yet paid out: stakes in escrow (R-O3)
        self.shooter: str | None = None       # who throws now
        self.turn_of: str | None = None       # whose turn it is (differs with a substitute, R-I3)
        self.point: int | None = None         # None: the next throw is a come-out (R-B1)
        self.rolling = False                  # dice let go: bets closed (R-S0)
        self.pending_ruling: dict | None = None  # the operator must rule (R-I2)
        self.center: CenterBet | None = None
        self.bets: dict = {}                  # open side bets by id, in the order made
        self.used_ids: dict = {}              # every side bet id ever made (ids are not reused)
        self.warnings: dict[str, dict[str, int]] = {}
        self.sanctions: dict[str, list[str]] = {}  # player -> rules whose sanction is open
        self.barred: list[str] = []
        self.dice_pair = 0
        self.dice_change_to: int | None = None  # a change waiting for the next come-out (R-X1)
        self.thrown_in_turn = False
        self.claimant: str | None = None      # R-C4: may claim the whole next center bet
        self.throws = 0                       # counted throws so far
        self.last_thrower: str | None = None  # who made the last counted throw (for warn)
        self.callable_bets: list[SideBet] = []  # come bets open to call-off now (R-S4)
        self.commands_applied = 0             # commands accepted (only to date the undo record)
        self.undo: ThrowUndo | VoidUndo | None = None  # before the last throw (an override)
        self.undo_valid_at = -1               # the commands_applied at which undo is valid
        self.keep_undo = True                 # False: the next throw keeps no undo (replay)
        self.quiet = False                    # True: rebuild() plays; the hot paths build no events

    # ------------------------------------------------------------------ public API
    def apply(self, command: dict) -> list[dict]:
        """Play one command; return its events. Refusals raise with no state change."""
        try:
            run = RUNNERS[command["command"]]
        except (KeyError, TypeError, IndexError):
            run = None
        if run is None or type(command) is not dict:
            unknown_command(command)
        events = run(self, command)  # the fields first: malformed is refused first
        if self.leaving:  # R-O3: paid out as soon as nothing of his is at stake, whatever freed it
            pay_out_leavers(self, events)
        self.commands_applied += 1
        return events

    def replay(self, commands: Iterable[dict], *,
               snapshots_after: Container[int] = ()) -> Iterator[list[dict]]:
        """Play ``commands`` in order (a journal's, from the state this game is in), yielding
        each one's events: the same events and the same game as ``apply`` one by one.

        Only the undo record of a throw (what an operator's override puts back, R-I2) is left
        out where nothing can read it: a throw keeps it when it is the last command, when the
        command after it is an ``operator_ruling`` or a ``warn``, or when its position (0 for
        the first command) is in ``snapshots_after`` (``snapshot()`` writes it out there). So
        read ``snapshot()`` between commands only at those positions, and play on with
        ``apply`` only once the replay is through (a replay left early may have dropped the
        last throw's record).

        A refused command raises what ``apply`` raises and ends the replay; the game then holds
        the commands before it (but an override of the last of them may not be possible).
        """
        # apply() inlined: one call less a command; the command after each one read by the
        # loop itself, and the undo decided only for the commands that can make a throw count
        # (the loop is still about 13% of bench/rules.py's rebuild, counted in bytecodes)
        runners = RUNNERS
        start = self.commands_applied
        it = chain(commands, (_END,))
        command = next(it)
        for following in it:
            try:
                name = command["command"]
                run = runners[name]
            except (KeyError, TypeError, IndexError):
                run = None
            if run is None or type(command) is not dict:
                unknown_command(command)
            if name in THROW_COMMANDS:
                self.keep_undo = (following is _END
                                  or self.commands_applied - start in snapshots_after
                                  or type(following) is not dict
                                  or following.get("command") in UNDO_READERS)
                try:
                    events = run(self, command)
                finally:
                    self.keep_undo = True
            else:
                events = run(self, command)
            if self.leaving:
                pay_out_leavers(self, events)
            self.commands_applied += 1
            yield events
            command = following

    def rebuild(self, commands: Iterable[dict]) -> int:
        """Play ``commands`` in order for the state they leave (a journal's, as after a failed
        commit), and return how many were played: the same game as ``apply`` one by one.

        What only events would show is skipped: the throw, its settlement and the bets made
        build no events, a side bet is not priced (though terms that cannot be priced are still
        refused), and a throw keeps its undo record only as ``replay`` says. A refused command
        raises what ``apply`` raises, as in ``replay``.
        """
        # replay()'s loop without the generator (the events are not yielded to be dropped),
        # and the count of commands played kept in a local, written to commands_applied only
        # for the commands that read it (valgrind, bench/rules.py: docs/commands.md "Speed")
        runners = RUNNERS
        undo_runners = UNDO_RUNNERS
        self.quiet = True
        before = played = self.commands_applied
        it = chain(commands, (_END,))
        command = next(it)
        try:
            for following in it:
                if type(command) is not dict:
                    unknown_command(command)
                try:
                    run = runners[command["command"]]
                except (KeyError, TypeError):
                    unknown_command(command)
                if run in undo_runners:  # they date the undo record by commands_applied
                    self.commands_applied = played
                    # the undo kept only as replay() keeps it
                    self.keep_undo = (following is _END or type(following) is not dict
                                      or following.get("command") in UNDO_READERS)
                events = run(self, command)
                if self.leaving:
                    pay_out_leavers(self, events)
                played += 1
                command = following
        finally:
            self.commands_applied = played
            self.keep_undo = True
            self.quiet = False
        return self.commands_applied - before

    def money_total(self) -> int:
        """All balances plus all escrow (cash-outs are in ledger.cashed_out_total)."""
        return self.ledger.total()

    def state(self) -> dict:
        """The public view of the table (JSON-able)."""
        c = self.center
        return {
            "phase": "come_out" if self.point is None else "point",
            "shooter": self.shooter,
            "turn_of": self.turn_of,
            "point": self.point,
            "rolling": self.rolling,
            "awaiting_ruling": dict(self.pending_ruling) if self.pending_ruling else None,
            "seats": list(self.seats),
            "balances": dict(self.ledger.balances),
            "escrow": dict(self.ledger.escrow),
            "cashed_out": dict(self.ledger.cashed_out),
            "leaving": list(self.leaving),
            "center_bet": None if c is None else {
                "shooter": c.shooter, "amount": c.amount, "fades": dict(c.fades), "open": c.open},
            "side_bets": [b.public() for b in self.bets.values()],
            "warnings": {p: dict(w) for p, w in self.warnings.items()},
            "sanctions_open": {p: list(r) for p, r in self.sanctions.items()},
            "barred": list(self.barred),
            "dice_pair": self.dice_pair,
            "dice_change_pending": self.dice_change_to,
            "fade_claim": self.claimant if self.rules.fade_first_claim else None,
            "throws": self.throws,
        }

    def snapshot(self) -> dict:
        """The full internal state (JSON-able); ``Game.from_snapshot`` rebuilds it.

        Right after a throw it also holds the state before that throw and its dice, or its
        void ruling (``undo``), so that a game rebuilt from it can still take an operator's
        override of that throw.
        """
        d = self._snap()
        undo = self.undo
        if undo is not None and self.undo_valid_at == self.commands_applied:
            if type(undo) is VoidUndo:
                d["undo"] = {"void": undo.ruling(), "state": undo.snap(d)}
            else:
                d["undo"] = {"dice": list(undo.dice), "state": undo.snap(d)}
        else:
            d["undo"] = None
        return d

    def _snap(self) -> dict:
        return {
            "version": SNAPSHOT_VERSION,
            "rules": self.rules.to_mapping(),
            "ledger": self.ledger.to_dict(),
            "seats": list(self.seats),
            "leaving": list(self.leaving),
            "shooter": self.shooter,
            "turn_of": self.turn_of,
            "point": self.point,
            "rolling": self.rolling,
            "pending_ruling": dict(self.pending_ruling) if self.pending_ruling else None,
            "center": self.center.to_dict() if self.center else None,
            "side_bets": [b.to_dict() for b in self.bets.values()],
            "used_ids": list(self.used_ids),
            "warnings": {p: dict(w) for p, w in self.warnings.items()},
            "sanctions": {p: list(r) for p, r in self.sanctions.items()},
            "barred": list(self.barred),
            "dice_pair": self.dice_pair,
            "dice_change_to": self.dice_change_to,
            "thrown_in_turn": self.thrown_in_turn,
            "claimant": self.claimant,
            "throws": self.throws,
            "last_thrower": self.last_thrower,
        }

    @classmethod
    def from_snapshot(cls, d: dict) -> Game:
        """Rebuild a game from ``snapshot()``."""
        if d.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"game snapshot version {d.get('version')!r} is not "
                             f"{SNAPSHOT_VERSION}; it was written by another tablectl version")
        undo = d.get("undo")
        if undo:
            # the state before the last throw, and that throw again: the override stays possible
            g = cls._from_snap(undo["state"])
            if "void" in undo:
                void_throw(g, undo["void"]["rule"], undo["void"]["reason"], [])
            else:
                throw_counts(g, *undo["dice"])
            g.undo_valid_at = g.commands_applied
            if g._snap() != {k: v for k, v in d.items() if k != "undo"}:
                raise ValueError("game snapshot is inconsistent: its state is not the state "
                                 "before the last throw plus that throw")
            return g
        return cls._from_snap(d)

    @classmethod
    def _from_snap(cls, d: dict) -> Game:
        if d.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"game snapshot version {d.get('version')!r} is not "
                             f"{SNAPSHOT_VERSION}; it was written by another tablectl version")
        g = cls(TableRules.from_mapping(d["rules"]))
        g.ledger = Ledger.from_dict(d["ledger"])
        g.seats = list(d["seats"])
        g.leaving = list(d["leaving"])
        g.shooter = d["shooter"]
        g.turn_of = d["turn_of"]
        g.point = d["point"]
        g.rolling = d["rolling"]
        g.pending_ruling = dict(d["pending_ruling"]) if d["pending_ruling"] else None
        g.center = CenterBet.from_dict(d["center"]) if d["center"] else None
        for bd in d["side_bets"]:
            bet = bet_from_dict(bd)
            g.bets[bet.id] = bet
            if bet.kind == "come" and bet.may_call_off:
                g.callable_bets.append(bet)
        g.used_ids = dict.fromkeys(d["used_ids"], True)
        g.warnings = {p: dict(w) for p, w in d["warnings"].items()}
        g.sanctions = {p: list(r) for p, r in d["sanctions"].items()}
        g.barred = list(d["barred"])
        g.dice_pair = d["dice_pair"]
        g.dice_change_to = d["dice_change_to"]
        g.thrown_in_turn = d["thrown_in_turn"]
        g.claimant = d["claimant"]
        g.throws = d["throws"]
        g.last_thrower = d["last_thrower"]
        return g

    # ------------------------------------------------------------------ the shared checks
    # What the sections' handlers check before they change anything: each raises the refusal.
    def check_bets_open(self) -> None:
        """Bets are made before the dice are thrown, never while they roll (R-S0, R-I2)."""
        if self.pending_ruling is not None:
            raise AwaitingRuling("R-I2", "no bets while the operator rules on the last throw; bet "
                                         "once he has ruled (operator_ruling)")
        if self.rolling:
            raise BetsClosed("R-S0", "bets are closed while the dice roll; bet again once the "
                                     "throw is decided")

    def check_no_ruling_pending(self) -> None:
        """No throw is waiting for the operator's ruling (R-I2)."""
        if self.pending_ruling is not None:
            raise AwaitingRuling(
                "R-I2", "the operator must rule on the last throw first (operator_ruling)")

    def check_shooter(self) -> str:
        """Someone has the dice (R-O1); returns him."""
        if self.shooter is None:
            raise NoShooter("R-O1", "no shooter: name who shoots with {\"command\": \"shooter\", "
                                    "\"player\": NAME}")
        return self.shooter

    def check_bettor(self, player: str, rule: str) -> None:
        """``player`` may put up a new stake: seated (barred players may still bet, R-D3)."""
        if player not in self.seats:
            if player in self.ledger.balances:
                raise PlayerLeft("R-O3", f"{player} has left the table and may not make new bets "
                                         f"(he may join again)")
            raise SeatingError(rule, f"{player} is not at the table (join first)")

    def check_funds(self, player: str, units: int, rule: str) -> None:
        """``player`` has ``units`` free (not in escrow) to stake; ``rule`` is cited if not."""
        free = self.ledger.balances[player]
        if units > free:
            raise InsufficientBalance(
                rule, f"{player} has {free} units free (not in escrow); the stake is {units}: "
                      f"stake at most {free}")

    def check_throw_allowed(self) -> str:
        """Everything a throw (or the dice being let go) needs; returns the shooter."""
        shooter = self.check_shooter()
        if shooter in self.barred:  # defensive: barring hands the dice on at once
            raise BarredShooter("R-D3", f"{shooter} is barred from shooting; pass the dice "
                                        f"(pass_dice)")
        if self.point is None:
            if len(self.seats) < self.rules.min_players:
                raise NotEnoughPlayers(
                    "R-P1", f"a come-out needs at least {self.rules.min_players} seated players; "
                            f"{len(self.seats)} seated: wait for more to join")
            c = self.center
            # CenterBet.open inline: a property is a call through C here (a come-out each)
            if c is not None and c.amount != sum(c.fades.values()):
                raise UncoveredCenterBet(
                    "R-C5", f"{c.open} of the center bet is not faded: the shooter takes it down "
                            f"(take_down) or calls no bet (no_bet), or someone fades it")
        return shooter
