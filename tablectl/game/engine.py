"""Game: the private-craps table as a state machine. Commands in, events out (RULES.md).

Each ``_c_<command>`` handler first checks everything that could refuse the command (raising a
RuleViolation or CommandError), and only then changes state, so a refused command changes
nothing. The game is pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from .center import CenterBet
from .errors import (
    AwaitingRuling,
    BarredShooter,
    BetsClosed,
    CallOffNotAllowed,
    CenterBetError,
    CommandError,
    DiceChangeError,
    DicePassError,
    FadeClaimError,
    FadeTooMuch,
    InsufficientBalance,
    NoRulingPending,
    NoShooter,
    NotEnoughPlayers,
    PlayerLeft,
    SanctionNotOpen,
    SeatingError,
    SideBetError,
    UncoveredCenterBet,
)
from .fields import (
    COMMAND_NAMES,
    VOID_RULES,
    WARN_RULES,
    bet_id_field,
    dice_field,
    player_field,
    rule_field,
    text_field,
    units_field,
)
from .ledger import Ledger
from .rules import TableRules
from .sidebets import (
    BET_CLASSES,
    COME_POINT,
    CRAPS,
    FOR,
    KIND_RULE,
    LINE_NONE,
    NATURAL,
    POINT_MADE,
    POINT_SET,
    SEVEN_OUT,
    ComeBet,
    bet_from_dict,
    parse_terms,
    true_odds,
)

SNAPSHOT_VERSION = 1


class ThrowUndo:
    """What a counted throw may change, captured just before it (like python-chess's
    ``_BoardState``), so that the operator's override of that throw (R-I2) can put the game
    back: ``Game._revert_last_throw`` restores it, ``Game.snapshot`` writes it out.

    The bets' progress is their own ``progress()``, put back with ``restore()``; only the kinds
    whose progress a throw changes (``SideBet.keeps_progress``) are asked. The center bet is kept
    by reference: a throw only settles it (drops it), never changes it.
    """

    __slots__ = (
        "dice", "rolling", "thrown_in_turn", "last_thrower", "point", "shooter", "turn_of",
        "dice_pair", "dice_change_to", "claimant", "center", "callable", "bets", "progress",
        "balances", "escrow", "leavers",
    )

    def __init__(self, game: Game, dice: tuple[int, int]) -> None:
        self.dice = dice
        self.rolling = game.rolling
        self.thrown_in_turn = game.thrown_in_turn
        self.last_thrower = game.last_thrower
        self.point = game.point
        self.shooter = game.shooter
        self.turn_of = game.turn_of
        self.dice_pair = game.dice_pair
        self.dice_change_to = game.dice_change_to
        self.claimant = game.claimant
        self.center = game.center
        self.callable = game._callable.copy()  # come bets open to call-off (R-S4)
        bets = game.bets
        self.bets = bets.copy()
        self.progress = [(bet, bet.progress()) for bet in bets.values() if bet.keeps_progress]
        ledger = game.ledger
        self.balances = ledger.balances.copy()
        self.escrow = ledger.escrow.copy()
        # cash-outs a throw can make only when someone has left (R-O3)
        leaving = game.leaving
        self.leavers = (ledger.cashed_out.copy(), ledger.cashed_out_total,
                        leaving.copy()) if leaving else None

    def restore(self, game: Game) -> None:
        """Put ``game`` back as it was when this record was taken."""
        game.rolling = self.rolling
        game.thrown_in_turn = self.thrown_in_turn
        game.last_thrower = self.last_thrower
        game.point = self.point
        game.shooter = self.shooter
        game.turn_of = self.turn_of
        game.dice_pair = self.dice_pair
        game.dice_change_to = self.dice_change_to
        game.claimant = self.claimant
        game.center = self.center
        for bet, progress in self.progress:
            bet.restore(progress)
        game.bets = self.bets.copy()
        game._callable = self.callable.copy()
        ledger = game.ledger
        ledger.balances = self.balances.copy()
        ledger.escrow = self.escrow.copy()
        if self.leavers is not None:
            cashed_out, ledger.cashed_out_total, leaving = self.leavers
            ledger.cashed_out = cashed_out.copy()
            game.leaving = leaving.copy()
        game.throws -= 1

    def snap(self, after: dict) -> dict:
        """The game's ``snapshot()`` as it was before the throw, from ``after`` (its snapshot
        after the throw): what the throw changed comes from this record, the rest is the same."""
        before = dict(after)
        before.update(
            rolling=self.rolling, thrown_in_turn=self.thrown_in_turn,
            last_thrower=self.last_thrower, point=self.point, shooter=self.shooter,
            turn_of=self.turn_of, dice_pair=self.dice_pair, dice_change_to=self.dice_change_to,
            claimant=self.claimant, throws=after["throws"] - 1,
            center=self.center.to_dict() if self.center else None)
        progress = {id(bet): p for bet, p in self.progress}
        side_bets = []
        for bet in self.bets.values():
            d = bet.to_dict()
            if bet.keeps_progress:
                d["progress"] = dict(progress[id(bet)])
            side_bets.append(d)
        before["side_bets"] = side_bets
        ledger = dict(after["ledger"])
        ledger["balances"] = dict(self.balances)
        ledger["escrow"] = dict(self.escrow)
        if self.leavers is not None:
            cashed_out, cashed_out_total, leaving = self.leavers
            ledger["cashed_out"] = dict(cashed_out)
            ledger["cashed_out_total"] = cashed_out_total
            before["leaving"] = list(leaving)
        before["ledger"] = ledger
        return before


class Game:
    """One evening at the table.

    rules: the table rules (TableRules); defaults are RULES.md's.
    """

    __slots__ = (
        "rules", "ledger", "seats", "leaving", "shooter", "turn_of", "point", "rolling",
        "pending_ruling", "center", "bets", "used_ids", "warnings", "sanctions", "barred",
        "dice_pair", "dice_change_to", "thrown_in_turn", "claimant", "throws", "last_thrower",
        "_callable", "_seq", "_undo", "_undo_seq",
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
        self._callable: list[ComeBet] = []    # come bets open to call-off now (R-S4)
        self._seq = 0                         # commands accepted (only to date the undo record)
        self._undo: ThrowUndo | None = None   # the state before the last throw (operator override)
        self._undo_seq = -1                   # the _seq at which _undo is valid

    # ------------------------------------------------------------------ public API
    def apply(self, command: dict) -> list[dict]:
        """Play one command; return its events. Refusals raise with no state change."""
        try:
            handler = _HANDLERS[command["command"]]
        except (KeyError, TypeError, IndexError):
            handler = None
        if handler is None or type(command) is not dict:
            if type(command) is not dict:
                raise CommandError(
                    f"a command must be a JSON object, got {type(command).__name__}")
            name = command.get("command")
            if name is None:
                raise CommandError("the command has no \"command\" field naming it")
            raise CommandError(f"unknown command {name!r}; known: {', '.join(COMMAND_NAMES)}")
        events = handler(self, command)
        if self.leaving:  # R-O3: paid out as soon as nothing of his is at stake, whatever freed it
            self._pay_out_leavers(events)
        self._seq += 1
        return events

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

        Right after a throw it also holds the state before that throw and its dice (``undo``),
        so that a game rebuilt from it can still take an operator's override of that throw.
        """
        d = self._snap()
        undo = self._undo
        if undo is not None and self._undo_seq == self._seq:
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
            g._throw(*undo["dice"])
            g._undo_seq = g._seq
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
            if isinstance(bet, ComeBet) and bet.may_call_off:
                g._callable.append(bet)
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

    # ------------------------------------------------------------------ checks
    def _bets_open(self) -> None:
        """Bets are made before the dice are thrown, never while they roll (R-S0, R-I2)."""
        if self.pending_ruling is not None:
            raise AwaitingRuling("R-I2", "no bets while the operator rules on the last throw; bet "
                                         "once he has ruled (operator_ruling)")
        if self.rolling:
            raise BetsClosed("R-S0", "bets are closed while the dice roll; bet again once the "
                                     "throw is decided")

    def _not_awaiting(self) -> None:
        if self.pending_ruling is not None:
            raise AwaitingRuling(
                "R-I2", "the operator must rule on the last throw first (operator_ruling)")

    def _need_shooter(self) -> str:
        if self.shooter is None:
            raise NoShooter("R-O1", "no shooter: name who shoots with {\"command\": \"shooter\", "
                                    "\"player\": NAME}")
        return self.shooter

    def _bettor(self, player: str, rule: str) -> None:
        """``player`` may put up a new stake: seated (barred players may still bet, R-D3)."""
        if player not in self.seats:
            if player in self.ledger.balances:
                raise PlayerLeft("R-O3", f"{player} has left the table and may not make new bets "
                                         f"(he may join again)")
            raise SeatingError(rule, f"{player} is not at the table (join first)")

    def _afford(self, player: str, units: int, rule: str) -> None:
        free = self.ledger.balances[player]
        if units > free:
            raise InsufficientBalance(
                rule, f"{player} has {free} units free (not in escrow); the stake is {units}: "
                      f"stake at most {free}")

    def _can_throw(self) -> str:
        """Everything a throw (or the dice being let go) needs; returns the shooter."""
        shooter = self._need_shooter()
        if shooter in self.barred:  # defensive: barring hands the dice on at once
            raise BarredShooter("R-D3", f"{shooter} is barred from shooting; pass the dice "
                                        f"(pass_dice)")
        if self.point is None:
            if len(self.seats) < self.rules.min_players:
                raise NotEnoughPlayers(
                    "R-P1", f"a come-out needs at least {self.rules.min_players} seated players; "
                            f"{len(self.seats)} seated: wait for more to join")
            c = self.center
            if c is not None and c.open:
                raise UncoveredCenterBet(
                    "R-C5", f"{c.open} of the center bet is not faded: the shooter takes it down "
                            f"(take_down) or calls no bet (no_bet), or someone fades it")
        return shooter

    # ------------------------------------------------------------------ helpers
    def _next_eligible(self, after: str, skip: str | None = None) -> str | None:
        """The next seated, non-barred player clockwise after ``after`` (not ``after``, nor
        ``skip``: a player about to leave)."""
        seats = self.seats
        n = len(seats)
        if after not in seats:
            return None
        i = seats.index(after)
        barred = self.barred
        for k in range(1, n):
            p = seats[(i + k) % n]
            if p not in barred and p != skip:
                return p
        return None

    def _return_center(self, events: list, reason: str) -> None:
        """Call the whole center bet off: every stake back to its owner (R-C5 no bet)."""
        c = self.center
        returned = c.stakes()
        for player, units in returned.items():
            self.ledger.release(player, units)
        self.center = None
        events.append({"event": "center_called_off", "player": c.shooter, "units": c.amount,
                       "returned": returned, "reason": reason, "rule": "R-C5"})

    def _settle_center(self, dice_win: bool, events: list) -> None:
        """R-C7: the dice win, the shooter takes the center; they lose, each fader doubles."""
        c = self.center
        self.center = None
        ledger = self.ledger
        shooter = c.shooter
        amounts: dict[str, int] = {}
        if dice_win:
            ledger.release(shooter, c.amount)
            won = 0
            for fader, units in c.fades.items():
                ledger.pay(fader, shooter, units)
                amounts[fader] = amounts.get(fader, 0) - units
                won += units
            amounts[shooter] = won
            # R-C4: one player who faded the whole bet and lost may claim the next one first
            self.claimant = next(iter(c.fades)) if (
                len(c.fades) == 1 and self.rules.fade_first_claim) else None
        else:
            lost = 0
            for fader, units in c.fades.items():
                ledger.release(fader, units)
                ledger.pay(shooter, fader, units)
                amounts[fader] = amounts.get(fader, 0) + units
                lost += units
            amounts[shooter] = -lost
            self.claimant = None
        events.append({"event": "center_settled", "winner": "dice" if dice_win else "faders",
                       "player": shooter, "units": amounts[shooter], "amounts": amounts,
                       "rule": "R-C7"})

    def _pay_out_leavers(self, events: list) -> None:
        """R-O3: a player who left is paid out once nothing of his is in escrow."""
        escrow = self.ledger.escrow
        for player in [p for p in self.leaving if escrow[p] == 0]:
            self.leaving.remove(player)
            units = self.ledger.cash_out(player)
            events.append({"event": "cashed_out", "player": player, "units": units,
                           "rule": "R-O3"})

    def _hand_dice(self, to: str | None, reason: str, events: list) -> None:
        """A new turn: ``to`` shoots (R-D1, R-D2)."""
        events.append({"event": "dice_passed", "from": self.shooter, "to": to, "reason": reason})
        self.shooter = to
        self.turn_of = to
        self.thrown_in_turn = False

    def _apply_dice_change(self, events: list) -> None:
        if self.dice_change_to is not None and self.point is None and not self.rolling:
            previous, self.dice_pair = self.dice_pair, self.dice_change_to
            self.dice_change_to = None
            events.append({"event": "dice_changed", "pair": self.dice_pair, "previous": previous,
                           "rule": "R-X1"})

    # ------------------------------------------------------------------ seats (R-O*, R-P1)
    def _c_join(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        buy_in = units_field(cmd, "buy_in")
        seat = cmd.get("seat", len(self.seats))
        if type(seat) is not int or not 0 <= seat <= len(self.seats):
            raise CommandError(f"join: \"seat\" must be an index 0..{len(self.seats)} in the "
                               f"clockwise order, got {seat!r}")
        if player in self.seats:
            raise SeatingError("R-O2", f"{player} is already at the table (to take another seat, "
                                       f"leave first)")
        event = {"event": "joined", "player": player, "units": buy_in, "seat": seat,
                 "rule": "R-O2"}
        if player in self.ledger.balances:
            # R-O3/R-O2: he left with stakes still at risk and sits down again (else, with
            # everyone gone, no throw could ever decide them); his balance was kept for him
            self.leaving.remove(player)
            event["returning"] = True
        self.ledger.buy_in(player, buy_in)
        self.seats.insert(seat, player)
        return [event]

    def _c_leave(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        if player not in self.seats:
            raise SeatingError("R-O3", f"{player} is not seated at the table (only a seated player "
                                       f"can leave)")
        if player == self.shooter and (self.rolling or self.pending_ruling is not None):
            raise SeatingError("R-O3", f"{player} is shooting: he may leave once the throw is "
                                       f"decided")
        events: list[dict] = [{"event": "left", "player": player, "rule": "R-O3"}]
        if self.claimant == player:
            self.claimant = None
        seats = self.seats
        if player == self.shooter:
            # the dice go on clockwise from whose turn it is: a substitute who leaves hands them
            # on from the warned shooter's seat, not from his own (R-O1, R-I3)
            turn = self.turn_of
            anchor = turn if turn != player and turn in seats else player
            nxt = self._next_eligible(anchor, skip=player)
            if self.point is None and self.center is not None:
                self._return_center(events, "the shooter left")
            seats.remove(player)
            # Reading: with a point pending, the next player takes the dice and throws for it
            self._hand_dice(nxt, "left", events)
            if self.point is not None:
                self.thrown_in_turn = True
        elif player == self.turn_of:
            # a warned shooter leaves while a substitute finishes his turn (R-I3): the rotation
            # must still go on from his seat, so the turn is anchored on the player before it
            i = seats.index(player)
            seats.remove(player)
            self.turn_of = seats[(i - 1) % len(seats)]  # the substitute is still seated
        else:
            seats.remove(player)
        self.leaving.append(player)
        self._pay_out_leavers(events)
        return events

    def _c_shooter(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        self._not_awaiting()
        if self.shooter is not None:
            if self.rolling:
                raise BetsClosed("R-S0", "the dice are rolling; wait until the throw is decided")
            if self.point is not None or self.thrown_in_turn or self.throws:
                # R-O1: only the first shooter is chosen; after that the dice go clockwise
                raise SeatingError("R-O1", f"{self.shooter} has the dice; after the first throw "
                                           f"they go on clockwise only (he may pass_dice)")
            if self.center is not None:
                raise SeatingError("R-O1", f"{self.shooter} has a center bet out: call it off "
                                           f"(no_bet) before naming another shooter")
        if player not in self.seats:
            raise SeatingError("R-O1", f"{player} is not seated at the table (join first)")
        if player in self.barred:
            raise BarredShooter("R-D3", f"{player} is barred from shooting (he may still bet)")
        self.shooter = player
        self.turn_of = player
        self.thrown_in_turn = False
        return [{"event": "shooter_set", "player": player, "rule": "R-O1"}]

    # ------------------------------------------------------------------ center bet (R-C*)
    def _center_before_come_out(self, rule: str) -> CenterBet:
        c = self.center
        if c is None:
            raise CenterBetError(rule, "there is no center bet (the shooter puts one up with "
                                       "center_bet)")
        if self.point is not None:
            raise CenterBetError(rule, f"the center bet is faded, raised or called off before "
                                       f"the come-out; the point {self.point} is pending: wait "
                                       f"for its decision")
        return c

    def _c_center_bet(self, cmd: dict) -> list[dict]:
        amount = units_field(cmd, "amount")
        self._bets_open()
        shooter = self._need_shooter()
        if self.point is not None:
            raise CenterBetError("R-C1", f"the center bet is put up before a come-out; the point "
                                         f"{self.point} is pending: put it up after its "
                                         f"decision")
        if self.center is not None:
            raise CenterBetError("R-C1", f"there is already a center bet of {self.center.amount}"
                                         f" (raise it with raise)")
        self._afford(shooter, amount, "R-C1")
        self.ledger.put_up(shooter, amount)
        self.center = CenterBet(shooter, amount)
        return [{"event": "center_bet_made", "player": shooter, "units": amount, "rule": "R-C1"}]

    def _c_fade(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        amount = units_field(cmd, "amount")
        claim = cmd.get("claim", False)
        if type(claim) is not bool:
            raise CommandError(f"fade: \"claim\" must be true or false, got {claim!r}")
        self._bets_open()
        c = self._center_before_come_out("R-C2")
        self._bettor(player, "R-C2")
        if player == c.shooter or player == self.shooter:
            # R-C2 "any other player": the shooter, or a substitute throwing the bet, never fades
            raise CenterBetError("R-C2", f"{player} cannot fade a center bet he shoots for; "
                                         f"another player fades it, or the shooter takes down "
                                         f"the open part (take_down)")
        if claim:
            if not self.rules.fade_first_claim:
                raise FadeClaimError("R-C4", "this table does not use the first-claim rule "
                                             "(table rule fade_first_claim): fade without "
                                             "\"claim\"")
            if self.claimant != player:
                who = self.claimant or "nobody now"
                raise FadeClaimError("R-C4", f"only the player who alone faded the whole previous "
                                             f"center bet and lost may claim ({who}); fade "
                                             f"without \"claim\"")
            if amount != c.amount:
                raise FadeClaimError("R-C4", f"a claim fades the whole bet: fade {c.amount} with the "
                                             f"claim")
            own = c.fades.get(player, 0)
            self._afford(player, amount - own, "R-C4")
            events = []
            for fader, units in list(c.fades.items()):
                self.ledger.release(fader, units)
                if fader != player:
                    events.append({"event": "fade_returned", "player": fader, "units": units,
                                   "rule": "R-C4"})
            c.fades = {player: amount}
            self.ledger.put_up(player, amount)
            self.claimant = None
            events.append({"event": "faded", "player": player, "units": amount,
                           "covered": amount, "open": 0, "claim": True, "rule": "R-C4"})
            return events
        covered = c.faded
        if covered + amount > c.amount:
            raise FadeTooMuch("R-C6", "faders may not fade more than the shooter's bet",
                              f"the bet is {c.amount}, {covered} faded, {c.amount - covered} "
                              f"open; fade at most that, or the shooter raises")
        self._afford(player, amount, "R-C2")
        self.ledger.put_up(player, amount)
        c.fades[player] = c.fades.get(player, 0) + amount
        return [{"event": "faded", "player": player, "units": amount, "covered": covered + amount,
                 "open": c.amount - covered - amount, "rule": "R-C2"}]

    def _c_raise(self, cmd: dict) -> list[dict]:
        amount = units_field(cmd, "amount")
        self._bets_open()
        c = self._center_before_come_out("R-C6")
        if c.shooter not in self.seats:  # R-O3: his bet stands, but he puts up nothing new
            raise PlayerLeft("R-O3", f"{c.shooter}, whose center bet it is, has left the table: "
                                     f"he may not raise it (take_down or no_bet)")
        if amount <= c.amount:
            raise CenterBetError("R-C6", f"a raise sets a new total above the current bet "
                                         f"{c.amount}; got {amount}: give the new total")
        self._afford(c.shooter, amount - c.amount, "R-C6")
        self.ledger.put_up(c.shooter, amount - c.amount)
        added = amount - c.amount
        c.amount = amount
        return [{"event": "center_raised", "player": c.shooter, "units": amount, "added": added,
                 "open": c.open, "rule": "R-C6"}]

    def _c_take_down(self, cmd: dict) -> list[dict]:
        self._bets_open()
        c = self._center_before_come_out("R-C5")
        uncovered = c.open
        if uncovered == 0:
            raise CenterBetError("R-C5", "the center bet is fully faded: nothing to take down; "
                                         "throw the come-out")
        self.ledger.release(c.shooter, uncovered)
        c.amount -= uncovered
        if c.amount == 0:
            self.center = None
        return [{"event": "center_taken_down", "player": c.shooter, "units": uncovered,
                 "amount": c.amount, "rule": "R-C5"}]

    def _c_no_bet(self, cmd: dict) -> list[dict]:
        self._bets_open()
        self._center_before_come_out("R-C5")
        events: list[dict] = []
        self._return_center(events, "no bet")
        return events

    # ------------------------------------------------------------------ side bets (R-S*)
    def _c_side_bet(self, cmd: dict) -> list[dict]:
        # the hot path of a busy evening: one combined check of the well-formed case; the
        # detailed messages come from _side_bet_malformed
        try:
            bet_id = cmd["id"]
            kind = cmd["kind"]
            backer = cmd["for"]
            layer = cmd["against"]
            stakes = cmd["stakes"]
            rule = KIND_RULE[kind]
            stake_for = stakes[backer]
            stake_against = stakes[layer]
        except (KeyError, TypeError, IndexError):
            self._side_bet_malformed(cmd)
        if (type(backer) is not str or type(layer) is not str or not backer or not layer
                or backer == layer or not ((type(bet_id) is str and bet_id)
                                           or type(bet_id) is int)
                or type(stakes) is not dict or len(stakes) != 2
                or type(stake_for) is not int or type(stake_against) is not int
                or stake_for <= 0 or stake_against <= 0):
            self._side_bet_malformed(cmd)
        terms, key, extra = parse_terms(kind, cmd)
        if self.pending_ruling is not None or self.rolling:
            self._bets_open()
        if bet_id in self.used_ids:
            raise SideBetError("R-S0", f"side bet id {bet_id!r} is already used; give each bet "
                                       f"its own id")
        seats = self.seats
        if backer not in seats or layer not in seats:
            self._bettor(backer, "R-S0")
            self._bettor(layer, "R-S0")
        point = self.point
        if kind == "line":
            if point is not None:
                raise SideBetError("R-S1", f"right and wrong bets are made before a come-out; "
                                           f"the point {point} is pending: make a point bet "
                                           f"(kind point) or wait for its decision")
        elif kind == "point" and point is None:
            raise SideBetError("R-S2", "point bets are made once a point is set; there is none: "
                                       "bet after the come-out sets one")
        balances = self.ledger.balances
        if stake_for > balances[backer] or stake_against > balances[layer]:
            self._afford(backer, stake_for, "R-S0")
            self._afford(layer, stake_against, "R-S0")
        p_win, ev_for, ev_against = true_odds(kind, key, point, stake_for, stake_against)
        # nothing below can refuse
        if kind == "point":
            terms = {"number": point}
        self.bets[bet_id] = BET_CLASSES[kind](bet_id, backer, layer, stake_for, stake_against,
                                              terms, extra)
        self.used_ids[bet_id] = True
        balances[backer] -= stake_for  # into escrow (Ledger.put_up, inlined)
        balances[layer] -= stake_against
        escrow = self.ledger.escrow
        escrow[backer] += stake_for
        escrow[layer] += stake_against
        if not terms:
            return [{"event": "side_bet_made", "id": bet_id, "kind": kind, "for": backer,
                     "against": layer, "stakes": {backer: stake_for, layer: stake_against},
                     "p_win": p_win, "ev_for": ev_for, "ev_against": ev_against, "rule": rule}]
        event = {"event": "side_bet_made", "id": bet_id, "kind": kind, "for": backer,
                 "against": layer, "stakes": {backer: stake_for, layer: stake_against}}
        for k, v in terms.items():
            event[k] = list(v) if type(v) is list else v
        event["p_win"] = p_win
        event["ev_for"] = ev_for
        event["ev_against"] = ev_against
        event["rule"] = rule
        return [event]

    def _side_bet_malformed(self, cmd: dict) -> None:
        """Raise the CommandError saying what is wrong with a side_bet command."""
        bet_id_field(cmd)
        kind = cmd.get("kind")
        if type(kind) is not str or kind not in KIND_RULE:
            raise CommandError(f"side_bet: \"kind\" must be one of {', '.join(KIND_RULE)}, "
                               f"got {kind!r}")
        backer = player_field(cmd, "for")
        layer = player_field(cmd, "against")
        if backer == layer:
            raise CommandError("side_bet: \"for\" and \"against\" must be two different players")
        stakes = cmd.get("stakes")
        if (type(stakes) is not dict or len(stakes) != 2 or backer not in stakes
                or layer not in stakes):
            raise CommandError(f"side_bet: \"stakes\" must give both players' units, e.g. "
                               f"{{\"{backer}\": 10, \"{layer}\": 10}}, got {stakes!r}")
        raise CommandError(f"side_bet: stakes must be whole units > 0, got {stakes!r}")

    def _open_bet(self, cmd: dict):
        bet_id = bet_id_field(cmd)
        bet = self.bets.get(bet_id)
        if bet is None:
            if bet_id in self.used_ids:
                raise CallOffNotAllowed("R-S0", f"side bet {bet_id!r} is already decided")
            raise CallOffNotAllowed("R-S0", f"there is no side bet {bet_id!r} (the state's "
                                           f"side_bets lists the open ones)")
        return bet

    def _c_call_off(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        self._not_awaiting()
        if self.rolling:
            raise BetsClosed("R-S0", "a bet is called off before the deciding throw, not while "
                                     "the dice roll")
        bet = self._open_bet(cmd)
        rule = KIND_RULE[bet.kind]
        if player != bet.backer and player != bet.layer:
            raise CallOffNotAllowed(rule, f"only {bet.backer} and {bet.layer} may call off bet "
                                          f"{bet.id!r}")
        if not bet.callable_by_either():
            if bet.kind == "come":
                raise CallOffNotAllowed("R-S4", "a come bet may be called off only right after "
                                                "the shooter makes his point before its come "
                                                "point is decided")
            raise CallOffNotAllowed(rule, f"a {bet.kind} bet stands until decided; only number "
                                          f"bets (R-S6) and come bets under R-S4 may be called off")
        del self.bets[bet.id]
        if bet in self._callable:
            self._callable.remove(bet)
        self.ledger.release(bet.backer, bet.stake_for)
        self.ledger.release(bet.layer, bet.stake_against)
        events = [
            {"event": "side_bet_returned", "id": bet.id, "player": bet.backer,
             "units": bet.stake_for, "by": player, "rule": rule},
            {"event": "side_bet_returned", "id": bet.id, "player": bet.layer,
             "units": bet.stake_against, "by": player, "rule": rule},
        ]
        self._pay_out_leavers(events)
        return events

    def _c_carry(self, cmd: dict) -> list[dict]:
        player = cmd.get("player")
        if player is not None:
            player = player_field(cmd)
        self._not_awaiting()
        bet = self._open_bet(cmd)
        if player is not None and player != bet.backer and player != bet.layer:
            raise CallOffNotAllowed("R-S4", f"only {bet.backer} and {bet.layer} may carry bet "
                                            f"{bet.id!r}")
        if bet.kind != "come" or not bet.may_call_off:
            raise CallOffNotAllowed("R-S4", "only a come bet whose come point is pending when the "
                                            "shooter makes his point can be carried")
        if player is not None and bet.kept_by != (
                bet.layer if player == bet.backer else bet.backer):
            # one party keeps it: the other may still call it off until the next throw (either
            # party may call off, so one party's "carry" cannot take the other's right away)
            bet.kept_by = player
            return [{"event": "side_bet_carried", "id": bet.id, "come_point": bet.come_point,
                     "by": player, "final": False, "rule": "R-S4"}]
        bet.may_call_off = False
        bet.carried = True
        bet.kept_by = None
        self._callable.remove(bet)
        event = {"event": "side_bet_carried", "id": bet.id, "come_point": bet.come_point,
                 "final": True, "rule": "R-S4"}
        if player is not None:
            event["by"] = player
        return [event]

    # ------------------------------------------------------------------ the throw (R-B*)
    def _c_dice_rolling(self, cmd: dict) -> list[dict]:
        self._not_awaiting()
        if self.rolling:
            raise BetsClosed("R-S0", "the dice are already rolling: the throw comes next")
        shooter = self._can_throw()
        self.rolling = True
        return [{"event": "dice_rolling", "shooter": shooter, "rule": "R-S0"}]

    def _c_throw(self, cmd: dict) -> list[dict]:
        dice = cmd.get("dice")
        if type(dice) is list and len(dice) == 2:
            d1, d2 = dice
            if not (type(d1) is int and type(d2) is int and 0 < d1 < 7 and 0 < d2 < 7):
                d1, d2 = dice_field(cmd)  # raises the CommandError
        else:
            d1, d2 = dice_field(cmd)
        if self.pending_ruling is not None:
            self._not_awaiting()
        shooter = self.shooter
        if self.point is None or shooter is None:  # a point pending needs no more checks
            shooter = self._can_throw()
        who = cmd.get("player")
        if who is not None and who != shooter:
            if who in self.barred:
                raise BarredShooter("R-D3", f"{who} is barred from shooting (he may still bet)")
            raise NoShooter("R-O1", f"{who} is not the shooter; {shooter} is")
        return self._throw(d1, d2)

    def _throw(self, d1: int, d2: int) -> list[dict]:
        """A throw that counts (R-T2): the line, the center bet, the side bets."""
        self._undo = ThrowUndo(self, (d1, d2))
        self._undo_seq = self._seq + 1
        self.rolling = False
        self.thrown_in_turn = True
        self.throws += 1
        total = d1 + d2
        point = self.point
        shooter = self.last_thrower = self.shooter
        callable_now = self._callable
        if callable_now:  # R-S4: the option lapses with the next throw: the bet is carried
            for bet in callable_now:
                bet.may_call_off = False
                bet.carried = True
                bet.kept_by = None
            self._callable = []
        if point is None:
            if self.claimant is not None and self.center is None:
                self.claimant = None  # R-C4: the claim is on the next come-out only, and lapses
            events = [{"event": "come_out", "shooter": shooter, "dice": [d1, d2], "total": total}]
            if total == 7 or total == 11:
                line = NATURAL
                events.append({"event": "natural", "shooter": shooter, "total": total,
                               "rule": "R-B2"})
            elif total == 2 or total == 3 or total == 12:
                line = CRAPS
                events.append({"event": "craps", "shooter": shooter, "total": total,
                               "rule": "R-B3"})
            else:
                line = POINT_SET
                self.point = total
                events.append({"event": "point_set", "shooter": shooter, "point": total,
                               "rule": "R-B4"})
        else:
            events = [{"event": "thrown", "shooter": shooter, "dice": [d1, d2], "total": total,
                       "point": point}]
            if total == point:
                line = POINT_MADE
                self.point = None
                events.append({"event": "point_made", "shooter": shooter, "point": point,
                               "rule": "R-B5"})
            elif total == 7:
                line = SEVEN_OUT
                self.point = None
                events.append({"event": "seven_out", "shooter": shooter, "point": point,
                               "rule": "R-B6"})
            else:
                line = LINE_NONE
        if self.center is not None and line != LINE_NONE and line != POINT_SET:
            self._settle_center(line == NATURAL or line == POINT_MADE, events)
        if self.bets:
            self._settle_side_bets((d1 - 1) * 6 + d2 - 1, total, d1 == d2, line, events)
        if line == SEVEN_OUT:  # R-D1: the dice pass clockwise from whose turn it was
            turn = self.turn_of
            nxt = self._next_eligible(turn)
            if nxt is None:
                nxt = turn if turn in self.seats and turn not in self.barred else None
            self._hand_dice(nxt, "seven_out", events)
        if self.dice_change_to is not None:
            self._apply_dice_change(events)
        if self.leaving:
            self._pay_out_leavers(events)
        return events

    def _settle_side_bets(self, idx: int, total: int, hard: bool, line: int,
                          events: list) -> None:
        balances = self.ledger.balances
        escrow = self.ledger.escrow
        append = events.append
        decided = None
        for bet in self.bets.values():
            r = bet.decide(idx, total, hard, line)
            if not r:
                continue
            if r == COME_POINT:
                append({"event": "come_point_set", "id": bet.id, "come_point": total,
                        "rule": "R-S3"})
                continue
            if r == FOR:
                winner, loser, won, lost = bet.backer, bet.layer, bet.stake_against, bet.stake_for
                side, other = "for", "against"
            else:
                winner, loser, won, lost = bet.layer, bet.backer, bet.stake_for, bet.stake_against
                side, other = "against", "for"
            # the winner's own stake back and the loser's stake to him (Ledger.release/pay)
            escrow[winner] -= lost
            escrow[loser] -= won
            balances[winner] += lost + won
            rule = bet.rule
            append({"event": "side_bet_won", "id": bet.id, "player": winner, "units": won,
                    "side": side, "rule": rule})
            append({"event": "side_bet_lost", "id": bet.id, "player": loser, "units": won,
                    "side": other, "rule": rule})
            if decided is None:
                decided = [bet.id]
            else:
                decided.append(bet.id)
        if decided:
            for bet_id in decided:
                del self.bets[bet_id]
        if line == POINT_MADE:
            # R-S4: a come point still pending when the shooter makes his point
            for bet in self.bets.values():
                if bet.kind == "come" and bet.come_point is not None:
                    bet.may_call_off = True
                    self._callable.append(bet)
                    events.append({"event": "side_bet_callable", "id": bet.id,
                                   "come_point": bet.come_point, "rule": "R-S4"})

    def _revert_last_throw(self) -> None:
        """Put the game back as it was before the last counted throw (see ``ThrowUndo``)."""
        undo = self._undo
        self._undo = None
        self._undo_seq = -1
        undo.restore(self)  # come bets made callable by the throw (R-S4) too: their progress

    # ------------------------------------------------------------------ irregularities (R-I*)
    def _c_void(self, cmd: dict) -> list[dict]:
        rule = rule_field(cmd, VOID_RULES)
        reason = text_field(cmd, "reason", "")
        self._not_awaiting()
        shooter = self._need_shooter()
        self.rolling = False
        events = [{"event": "throw_void", "shooter": shooter, "rule": rule, "reason": reason}]
        if self.dice_change_to is not None:
            self._apply_dice_change(events)
        return events

    def _c_await_ruling(self, cmd: dict) -> list[dict]:
        rule = cmd.get("rule")
        if type(rule) is not str or not rule.startswith("R-"):
            raise CommandError(f"await_ruling: \"rule\" must be a rule id like \"R-I2\", "
                               f"got {rule!r}")
        reason = text_field(cmd, "reason", "")
        observation = cmd.get("observation")
        if observation is not None and type(observation) is not dict:
            raise CommandError("await_ruling: \"observation\" must be an object when given")
        if self.pending_ruling is not None:
            raise AwaitingRuling("R-I2", "the operator has not yet ruled on the last throw: "
                                         "operator_ruling first")
        shooter = self._can_throw()
        self.rolling = False
        self.pending_ruling = {"rule": rule, "reason": reason, "shooter": shooter}
        if observation is not None:
            self.pending_ruling["observation"] = observation
        event = {"event": "awaiting_ruling", "shooter": shooter, "rule": rule, "reason": reason}
        if observation is not None:
            event["observation"] = observation
        return [event]

    def _c_operator_ruling(self, cmd: dict) -> list[dict]:
        by = text_field(cmd, "by")
        why = text_field(cmd, "why", "")
        void = cmd.get("void", False)
        if type(void) is not bool:
            raise CommandError("operator_ruling: \"void\" must be true or false")
        has_dice = cmd.get("dice") is not None
        if void == has_dice:
            raise CommandError("operator_ruling: give either \"dice\": [d1, d2] or "
                               "\"void\": true")
        dice = dice_field(cmd) if has_dice else None
        pending = self.pending_ruling
        if pending is None:
            if self._undo is None or self._undo_seq != self._seq:
                raise NoRulingPending(
                    "R-I2", "no throw is waiting for the operator's ruling, and the last "
                            "command was not a throw he could override (an override must come "
                            "right after the throw, before any other command but warn)")
            return self._override(by, why, dice)
        self.pending_ruling = None
        ruled = {"event": "operator_ruled", "by": by, "why": why, "rule": pending["rule"]}
        if void:
            ruled["void"] = True
            events = [ruled, {"event": "throw_void", "shooter": self.shooter,
                              "rule": pending["rule"], "reason": why or pending["reason"]}]
            if self.dice_change_to is not None:
                self._apply_dice_change(events)
            return events
        ruled["dice"] = list(dice)
        return [ruled] + self._throw(dice[0], dice[1])

    def _override(self, by: str, why: str, dice) -> list[dict]:
        """The operator overrides the last throw (it was the last command): other dice, or
        void. Everything that throw decided is undone and the throw is played again."""
        previous = list(self._undo.dice)
        self._revert_last_throw()
        ruled = {"event": "operator_ruled", "by": by, "why": why, "rule": "R-I2",
                 "override": True, "previous": previous}
        if dice is None:
            ruled["void"] = True
            self.rolling = False
            events = [ruled, {"event": "throw_void", "shooter": self.shooter, "rule": "R-I2",
                              "reason": why or "voided by the operator"}]
            if self.dice_change_to is not None:
                self._apply_dice_change(events)
            return events
        ruled["dice"] = list(dice)
        return [ruled] + self._throw(dice[0], dice[1])

    def _c_warn(self, cmd: dict) -> list[dict]:
        rule = rule_field(cmd, WARN_RULES)
        self._not_awaiting()
        player = cmd.get("player")
        if player is None:  # the player who threw last (after a seven-out: not the new shooter)
            player = self.last_thrower or self._need_shooter()
        elif player not in self.seats:
            raise SeatingError(rule, f"{player} is not seated at the table (warn a seated player)")
        counts = self.warnings.setdefault(player, {})
        n = counts.get(rule, 0) + 1
        counts[rule] = n
        events = [{"event": "warned", "player": player, "rule": rule, "count": n}]
        if n > self.rules.warnings_before_sanction:
            open_rules = self.sanctions.setdefault(player, [])
            if rule not in open_rules:
                open_rules.append(rule)
            events.append({"event": "sanction_open", "player": player, "rule": rule,
                           "may": ["substitute", "bar"] if rule == "R-I3" else ["bar"]})
        if self._undo_seq == self._seq:
            # a warning belongs to the throw just made (the rulings send throw + warn): the
            # operator may still override that throw (R-I2)
            self._undo_seq += 1
        return events

    def _c_substitute(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        self._not_awaiting()
        if self.rolling:
            raise BetsClosed("R-S0", "the dice are rolling; appoint the substitute once they "
                                     "rest")
        shooter = self._need_shooter()
        if "R-I3" not in self.sanctions.get(shooter, ()):
            raise SanctionNotOpen("R-I3", f"{shooter} has not repeated the R-I3 offence past "
                                          f"{self.rules.warnings_before_sanction} warning(s); "
                                          f"no substitute may be appointed")
        if player not in self.seats:
            raise SeatingError("R-D3", f"{player} is not seated at the table (appoint a seated "
                                       f"player)")
        if player in self.barred:
            raise BarredShooter("R-D3", f"{player} is barred from shooting; appoint another "
                                        f"player")
        if player == shooter:
            raise SeatingError("R-D3", f"{player} is already the shooter; appoint another player")
        c = self.center
        if c is not None and player in c.fades:
            raise CenterBetError("R-C2", f"{player} fades the center bet: he may not throw "
                                         f"against his own fade; appoint another player")
        self.shooter = player
        return [{"event": "substituted", "player": player, "for": shooter, "rule": "R-I3"}]

    def _c_bar(self, cmd: dict) -> list[dict]:
        player = player_field(cmd)
        self._not_awaiting()
        if player == self.shooter and self.rolling:
            raise BetsClosed("R-S0", "the dice are rolling; bar the shooter once they rest")
        open_rules = self.sanctions.get(player)
        if not open_rules:
            raise SanctionNotOpen("R-I3", f"no sanction is open against {player} (an R-I3 or "
                                          f"R-I5 offence repeated past the warnings)")
        if player in self.barred:
            raise SanctionNotOpen(open_rules[0], f"{player} is already barred")
        self.barred.append(player)
        events = [{"event": "barred", "player": player, "rule": open_rules[0]}]
        if player == self.shooter:
            # the dice go on clockwise from whose turn it is, even when a substitute is barred
            # or the warned shooter is barred too (R-D3: barred players are skipped)
            turn = self.turn_of
            nxt = self._next_eligible(turn if turn in self.seats else player)
            if self.point is None:
                if self.center is not None:
                    self._return_center(events, "the shooter is barred")
                self._hand_dice(nxt, "barred", events)
            else:  # someone finishes the turn for the pending point (R-I3)
                self.shooter = nxt
                events.append({"event": "substituted", "player": nxt, "for": player,
                               "rule": open_rules[0]})
        return events

    # ------------------------------------------------------------------ dice (R-D*, R-X1)
    def _c_pass_dice(self, cmd: dict) -> list[dict]:
        self._not_awaiting()
        if self.rolling:
            raise DicePassError("R-D2", "the dice are rolling; pass them once the throw is decided")
        self._need_shooter()
        if self.point is not None:
            raise DicePassError("R-D2", f"the dice may not be passed while the point "
                                        f"{self.point} is pending; pass them after its "
                                        f"decision")
        nxt = self._next_eligible(self.turn_of)
        if nxt is None:
            raise DicePassError("R-D2", "no other seated player may take the dice")
        events: list[dict] = []
        if self.center is not None:
            self._return_center(events, "the dice passed")
        self._hand_dice(nxt, "voluntary", events)
        events[-1]["rule"] = "R-D2"
        return events

    def _c_change_dice(self, cmd: dict) -> list[dict]:
        n = self.rules.dice_pairs
        if n < 2:
            raise DiceChangeError("R-X1", "this table has only one pair of dice (table rule "
                                          "dice_pairs)")
        pair = cmd.get("pair")
        target = self.dice_change_to if self.dice_change_to is not None else self.dice_pair
        if pair is None:
            # new dice: the next pair after the one in use (a second call does not cancel it)
            pair = (self.dice_pair + 1) % n
            if pair == target:
                raise DiceChangeError("R-X1", f"new dice (pair {pair}) are already called for "
                                              f"the next come-out; name another \"pair\" to "
                                              f"choose other dice")
        elif type(pair) is not int or not 0 <= pair < n:
            raise CommandError(f"change_dice: \"pair\" must be 0..{n - 1}, got {pair!r}")
        if pair == target:
            raise DiceChangeError("R-X1", f"pair {pair} is already the pair for the next come-out")
        if pair == self.dice_pair:  # back to the pair in use: the called change is dropped
            self.dice_change_to = None
            return [{"event": "dice_change_cancelled", "pair": pair, "rule": "R-X1"}]
        immediate = self.point is None and not self.rolling and self.pending_ruling is None
        self.dice_change_to = pair
        if immediate:
            events: list[dict] = []
            self._apply_dice_change(events)
            return events
        return [{"event": "dice_change_called", "pair": pair,
                 "effective": "before the next come-out", "rule": "R-X1"}]


    # ------------------------------------------------------------------ the record
    def _c_refused_throw(self, cmd: dict) -> list[dict]:
        """A throw the camera saw that the rules did not allow then (nobody seated, a ruling
        pending, the dice thrown before bets closed): kept in the journal and shown, but it
        decides nothing and changes no state (the refusal's own rule is in ``rule``)."""
        rule = cmd.get("rule")
        if type(rule) is not str or not rule.startswith("R-"):
            raise CommandError(f"refused_throw: \"rule\" must be the rule id that refused the "
                               f"throw, like \"R-I2\", got {rule!r}")
        reason = text_field(cmd, "reason")
        dice = cmd.get("dice")
        if dice is not None and (type(dice) is not list or len(dice) != 2 or not all(
                d is None or (type(d) is int and 1 <= d <= 6) for d in dice)):
            raise CommandError("refused_throw: \"dice\" must be the camera's two values "
                               "(1..6 or null each) when given")
        event = {"event": "throw_refused", "shooter": self.shooter, "rule": rule,
                 "reason": reason}
        if dice is not None:
            event["dice"] = list(dice)
        return [event]

_HANDLERS = {name: getattr(Game, f"_c_{name}") for name in COMMAND_NAMES}
