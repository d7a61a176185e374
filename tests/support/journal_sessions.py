"""A seeded generator of legal game sessions (lists of commands) for the journal's tests.

The session is built by driving a live Game, so every command in it is one the rules accept when
played in order from an empty table: players seated, center bets faded (sometimes taken down),
side bets of every kind, carried / called-off come bets, voids (R-I1, R-I3), throws the camera
could not rule (R-I2) ruled by the operator, warnings and the sanctions they open (substitute,
bar; R-I3), dice passed and changed (R-D2, R-X1), players leaving and newcomers joining (R-O2,
R-O3). The same seed gives the same list.
"""

from __future__ import annotations

import random
import sys

from tablectl.game import Game, RuleViolation, TableRules

PLAYERS = ("ann", "bob", "cy", "dee")
BUY_IN = 100_000
OPERATOR = "olga"

PROPOSITIONS = (
    {"wins": [2, 3, 12], "within": 1},
    {"wins": ["6-5"], "within": 1},
    {"wins": ["3-3"], "within": 3},
    {"wins": [12], "loses": [4]},
    {"wins": [5, 9], "loses": [7]},
)


class SessionBuilder:
    """Plays a random but legal evening on a live Game and keeps the accepted commands."""

    def __init__(self, seed: int, rules: TableRules | None = None) -> None:
        self.rng = random.Random(seed)
        self.game = Game(rules=rules or TableRules())
        self.commands: list[dict] = []
        self.next_id = 0
        self.newcomers = 0

    def do(self, command: dict) -> list[dict] | None:
        try:
            events = self.game.apply(command)
        except RuleViolation:
            return None  # refused: not part of the session
        self.commands.append(command)
        return events

    # ---- pieces of play
    def center_bet(self, state: dict) -> None:
        rng = self.rng
        if rng.random() < 0.1:
            return  # no center bet this come-out
        amount = rng.randint(5, 60)
        if self.do({"command": "center_bet", "amount": amount}) is None:
            return
        faders = [p for p in state["seats"] if p != state["shooter"]]
        rng.shuffle(faders)
        left = amount
        for fader in faders[: rng.randint(1, 3)]:
            part = left if rng.random() < 0.5 else rng.randint(1, left)
            if self.do({"command": "fade", "player": fader, "amount": part}) is not None:
                left -= part
            if left == 0:
                break
        if left > 0:
            self.do({"command": "take_down"} if rng.random() < 0.8 else {"command": "no_bet"})

    def side_bet(self, state: dict) -> None:
        rng = self.rng
        backer, layer = rng.sample(state["seats"], 2)
        kinds = ["come", "hardway", "number", "proposition"]
        kinds.append("line" if state["point"] is None else "point")
        kind = rng.choice(kinds)
        self.next_id += 1
        command = {"command": "side_bet", "id": f"b{self.next_id}", "kind": kind,
                   "for": backer, "against": layer,
                   "stakes": {backer: rng.randint(1, 20), layer: rng.randint(1, 20)}}
        if kind == "hardway":
            command["number"] = rng.choice((4, 6, 8, 10))
        elif kind == "number":
            command["number"] = rng.choice((4, 5, 6, 8, 9, 10))
        elif kind == "proposition":
            command.update(rng.choice(PROPOSITIONS))
        self.do(command)

    def come_bet_options(self, state: dict) -> None:
        for bet in state["side_bets"]:
            if bet.get("may_call_off"):
                if self.rng.random() < 0.8:
                    self.do({"command": "carry", "id": bet["id"]})
                else:
                    self.do({"command": "call_off", "id": bet["id"], "player": bet["for"]})

    def seating(self, state: dict) -> None:
        """Now and then a player leaves (R-O3) and a newcomer takes a seat (R-O2)."""
        rng = self.rng
        if rng.random() < 0.004:
            others = [p for p in state["seats"] if p != state["shooter"]]
            if len(state["seats"]) > 3 and others:
                self.do({"command": "leave", "player": rng.choice(others)})
        if len(self.game.state()["seats"]) < 4 or rng.random() < 0.001:
            self.newcomers += 1
            self.do({"command": "join", "player": f"guest{self.newcomers}", "buy_in": BUY_IN,
                     "seat": rng.randint(0, len(self.game.state()["seats"]))})

    def sanction(self, state: dict, player: str) -> None:
        """The sanction a repeated offence opened: a substitute, or (rarely) a bar (R-I3)."""
        eligible = [p for p in state["seats"] if p not in state["barred"]]
        if self.rng.random() < 0.2 and len(eligible) > 3:
            self.do({"command": "bar", "player": player, "by": OPERATOR,
                     "why": "second throw that missed the wall"})
        else:
            nxt = [p for p in eligible if p != player]
            if nxt:
                self.do({"command": "substitute", "player": self.rng.choice(nxt),
                         "by": OPERATOR, "why": "players appointed a substitute"})

    def throw(self, state: dict) -> None:
        rng = self.rng
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        r = rng.random()
        if r < 0.03:
            self.do({"command": "void", "rule": rng.choice(("R-I1", "R-I3")),
                     "reason": "a die left the area" if r < 0.015 else "no die hit the wall"})
            return
        if r < 0.05:
            if self.do({"command": "await_ruling", "rule": "R-I2",
                        "reason": "a die is cocked against the wall"}) is None:
                return
            ruling = {"command": "operator_ruling", "by": OPERATOR, "why": "read from the side"}
            if rng.random() < 0.8:
                ruling["dice"] = dice
            else:
                ruling.update(void=True, why="cannot tell the top face")
            self.do(ruling)
            return
        if r < 0.08:
            events = self.do({"command": "warn", "rule": "R-I3", "by": OPERATOR,
                              "why": "only one die hit the wall"})
            for event in events or ():
                if event["event"] == "sanction_open":
                    self.sanction(state, event["player"])
            state = self.game.state()
        if rng.random() < 0.3:
            self.do({"command": "dice_rolling"})
        self.do({"command": "throw", "dice": dice})

    def build(self, throws: int) -> list[dict]:
        """Play until ``throws`` throws have counted; return the accepted commands."""
        rng = self.rng
        for player in PLAYERS:
            self.do({"command": "join", "player": player, "buy_in": BUY_IN})
        self.do({"command": "shooter", "player": PLAYERS[0]})
        while self.game.throws < throws:
            state = self.game.state()
            if state["shooter"] is None:
                eligible = [p for p in state["seats"] if p not in state["barred"]]
                self.do({"command": "shooter", "player": rng.choice(eligible)})
                state = self.game.state()
            self.seating(state)
            state = self.game.state()
            if state["point"] is None:
                if rng.random() < 0.02:
                    self.do({"command": "pass_dice"})
                if rng.random() < 0.01:
                    self.do({"command": "change_dice"})
                state = self.game.state()
                if state["center_bet"] is None:
                    self.center_bet(state)
            state = self.game.state()
            for _ in range(rng.randint(0, 3)):
                self.side_bet(state)
            self.come_bet_options(self.game.state())
            self.throw(self.game.state())
        return self.commands


def generate_session(seed: int, throws: int) -> list[dict]:
    """The commands of a legal session of ``throws`` counted throws, from ``seed``."""
    return SessionBuilder(seed).build(throws)


if __name__ == "__main__":  # a quick look: python -m tests.support.journal_sessions SEED THROWS
    import json

    for cmd in generate_session(int(sys.argv[1]), int(sys.argv[2])):
        print(json.dumps(cmd))
