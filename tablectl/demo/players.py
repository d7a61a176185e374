"""The demo's four players and its operator: they play through ``Table.submit`` like anyone at
the dashboard, so the table lives without anyone touching it.

Between throws the players make the center bet and fade it (R-C1..R-C6), make side bets of every
kind (R-S1..R-S7) and call some off (R-S4, R-S6), now and then pass the dice (R-D2) or call for
new dice (R-X1), and leave and buy in again when broke (R-O3). When a throw waits for the operator
(a cocked die, R-I2) the demo's operator looks at what really happened and answers after a
while (sometimes he voids it), unless someone at the dashboard rules first. Every refusal is
simply the rules saying no: the players go on.
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
from typing import Any

from tablectl.game import CommandError, RuleViolation
from tablectl.table import TableFault

log = logging.getLogger("tablectl.demo")

NAMES = ("Ada", "Ben", "Cleo", "Dev")
BUY_IN = 1000
BROKE = 60  # a player with less free and nothing at stake leaves and buys in again (R-O3)


def _round(view: dict) -> tuple:
    """Which throw the table last decided (its row, and how it was ruled)."""
    last = view.get("last_throw") or {}
    return last.get("throw"), last.get("kind"), str(last.get("ruled"))


class DemoPlayers:
    """Four bot players and the operator of ``tablectl demo``.

    :param table: the running Table.
    :param camera: the demo's SimulatedCamera (its ``current`` clip's truth is what the
        operator sees on the felt).
    :param speed: as the camera's: the operator's and the players' pauses shrink with it.
    :param operator_delay: seconds (at speed 1) the operator leaves a cocked die to the
        dashboard before he answers himself.
    :param look: seconds (at speed 1) the players look at a decided throw before they bet
        again: the operator's time to override it at the dashboard, which R-I2 allows only
        before any other command.
    :param seed: their choices.
    """

    def __init__(self, table: Any, camera: Any, *, speed: float = 1.0,
                 operator_delay: float = 12.0, look: float = 5.0, seed: int = 1) -> None:
        self.table = table
        self.camera = camera
        self.speed = speed
        self.operator_delay = operator_delay
        self.look = look
        self.rng = random.Random(seed)
        self._ids = itertools.count(1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._done_for: tuple | None = None  # the throw after which they last bet
        self.refused = 0

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        self._thread = threading.Thread(target=self._main, name="demo-players", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def ready(self, waited: float) -> bool:
        """For the camera: the players are done betting since the last throw (or, after 20 s
        of the camera's time, they let the shooter throw anyway)."""
        return self._done_for == _round(self.table.state()) or waited > 20.0

    def _main(self) -> None:
        seq = self.table.state()["seq"]
        self._seat_everyone()
        pending_since: float | None = None
        decided: tuple | None = None  # the throw they are looking at, and since when
        while not self._stop.is_set():
            got = self.table.events_since(seq, timeout=0.5 / self.speed)
            if got:
                seq = max(seq, max(s for s, _ in got))
            view = self.table.state()
            if view["pending_ruling"] is not None:
                if pending_since is None:
                    pending_since = self._now()
                elif self.camera_seconds(pending_since) >= self.operator_delay:
                    self._operator_rules(view)
                    pending_since = None
                continue
            pending_since = None
            if view["state"]["rolling"] or view["play_stopped"]:
                continue
            if self._done_for != _round(view):  # a throw was decided since they last bet
                if decided is None or decided[0] != _round(view):
                    decided = (_round(view), self._now())
                if self.camera_seconds(decided[1]) < self.look:
                    continue
                self._between_throws(view["state"])
                self._done_for = _round(self.table.state())

    @staticmethod
    def _now() -> float:
        return time.monotonic()

    def camera_seconds(self, since: float | None) -> float:
        return 0.0 if since is None else (self._now() - since) * self.speed

    def _send(self, command: dict, by: str) -> bool:
        try:
            self.table.submit(command, by=by)
            return True
        except (RuleViolation, CommandError) as exc:
            self.refused += 1
            log.debug("%s: %s refused: %s", by, command.get("command"), exc)
        except TableFault as exc:
            log.debug("%s: %s not made: %s", by, command.get("command"), exc)
        return False

    # ------------------------------------------------------------------ the players
    def _seat_everyone(self) -> None:
        seats = self.table.state()["state"]["seats"]
        for name in NAMES:
            if name not in seats:
                self._send({"command": "join", "player": name, "buy_in": BUY_IN}, name)
        if self.table.state()["state"]["shooter"] is None:
            self._send({"command": "shooter", "player": NAMES[0]}, NAMES[0])

    def _between_throws(self, game: dict) -> None:
        rng = self.rng
        self._rebuy(game)
        game = self.table.state()["state"]
        shooter = game["shooter"]
        if shooter is None:
            self._seat_everyone()
            return
        if game["point"] is None:
            if rng.random() < 0.06:  # R-D2: the shooter hands the dice on before his come-out
                self._send({"command": "pass_dice"}, shooter)
                game = self.table.state()["state"]
                shooter = game["shooter"]
            if rng.random() < 0.03:  # R-X1: new dice for the next come-out
                self._send({"command": "change_dice"}, rng.choice(NAMES))
            self._center_bet(game, shooter)
        self._side_bets(self.table.state()["state"])
        self._call_offs(self.table.state()["state"])

    def _rebuy(self, game: dict) -> None:
        for name in NAMES:
            free = game["balances"].get(name, 0)
            at_stake = game["escrow"].get(name, 0)
            if name in game["seats"] and free < BROKE and at_stake == 0 and \
                    name != game["shooter"]:
                if self._send({"command": "leave", "player": name}, name):
                    self._send({"command": "join", "player": name, "buy_in": BUY_IN}, name)

    def _center_bet(self, game: dict, shooter: str) -> None:
        rng = self.rng
        if game["center_bet"] is None:
            free = game["balances"].get(shooter, 0)
            amount = min(free, rng.choice((10, 20, 25, 40, 50)))
            if amount <= 0 or not self._send({"command": "center_bet", "amount": amount},
                                             shooter):
                return
        faders = [n for n in NAMES if n != shooter and n in game["seats"]]
        rng.shuffle(faders)
        for fader in faders:
            center = self.table.state()["state"]["center_bet"]
            if center is None or center["open"] <= 0:
                break
            free = self.table.state()["state"]["balances"].get(fader, 0)
            part = min(center["open"], free, rng.choice((5, 10, 15, 20, 30)))
            if part > 0:
                self._send({"command": "fade", "player": fader, "amount": part}, fader)
        center = self.table.state()["state"]["center_bet"]
        if center is not None and center["open"] > 0:  # R-C5
            if rng.random() < 0.85:
                self._send({"command": "take_down"}, shooter)
            else:
                self._send({"command": "no_bet"}, shooter)

    def _side_bets(self, game: dict) -> None:
        rng = self.rng
        if rng.random() < 0.45:
            return
        seated = [n for n in NAMES if n in game["seats"]]
        if len(seated) < 2:
            return
        backer, layer = rng.sample(seated, 2)
        point = game["point"]
        kinds = ["come", "hardway", "number", "proposition"]
        kinds.append("point" if point is not None else "line")
        kind = rng.choice(kinds)
        cmd: dict[str, Any] = {"command": "side_bet", "id": f"d{next(self._ids)}",
                               "kind": kind, "for": backer, "against": layer}
        base = rng.choice((5, 10, 20))
        stakes = (base, base)
        if kind == "point":  # R-S2: true odds against the point
            num, den = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}[point]
            stakes = (base * num, base * den)
        elif kind == "hardway":  # R-S5: 8-1 on 4 and 10, 10-1 on 6 and 8
            number = rng.choice((4, 6, 8, 10))
            cmd["number"] = number
            stakes = (base // 5 or 1, (base // 5 or 1) * (8 if number in (4, 10) else 10))
        elif kind == "number":  # R-S6
            number = rng.choice((4, 5, 6, 8, 9, 10))
            cmd["number"] = number
            ways = {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}[number]
            stakes = (base * ways, base * 6)
        elif kind == "proposition":  # R-S7: one-throw or "before" propositions
            if rng.random() < 0.5:
                cmd.update({"wins": [rng.choice(("6-5", "3-3", 2, 3, 12))], "within": 1})
                stakes = (1, 15)
            else:
                cmd.update({"wins": [4, 5, 6], "loses": [8, 9, 10]})
        cmd["stakes"] = {backer: stakes[0], layer: stakes[1]}
        self._send(cmd, backer)

    def _call_offs(self, game: dict) -> None:
        rng = self.rng
        for bet in game["side_bets"]:
            if bet.get("may_call_off"):  # R-S4: after the shooter made his point
                if rng.random() < 0.5:
                    self._send({"command": "call_off", "id": bet["id"], "player": bet["for"]},
                               bet["for"])
                else:
                    self._send({"command": "carry", "id": bet["id"]}, "operator")
            elif bet["kind"] == "number" and rng.random() < 0.1:  # R-S6
                self._send({"command": "call_off", "id": bet["id"], "player": bet["against"]},
                           bet["against"])

    # ------------------------------------------------------------------ the operator
    def _operator_rules(self, view: dict) -> None:
        """Answer a pending ruling with what really lies on the felt, or void it (R-I2)."""
        clip = getattr(self.camera, "current", None)
        truth = [d.get("value") for d in (clip.truth.get("dice", []) if clip else [])
                 if not d.get("extra")]
        if len(truth) == 2 and all(truth) and self.rng.random() < 0.8:
            command = {"command": "operator_ruling", "dice": truth,
                       "why": "read on the felt (demo operator)"}
        else:
            command = {"command": "operator_ruling", "void": True,
                       "why": "cannot tell the face (demo operator)"}
        self._send(command, "operator")
