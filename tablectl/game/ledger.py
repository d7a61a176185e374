"""Money in integer units: each player's free balance and his stakes held in escrow."""

from __future__ import annotations


class Ledger:
    """Balances (free units) and escrow (units at stake) per player.

    Every stake moves from a balance into escrow when put up, and out of escrow when the bet is
    decided (to the winner's balance), taken down or called off (back to its owner). So the sum
    of balances and escrow changes only by buy-ins and cash-outs.
    """

    __slots__ = ("balances", "escrow", "cashed_out", "bought_in_total", "cashed_out_total")

    def __init__(self) -> None:
        self.balances: dict[str, int] = {}
        self.escrow: dict[str, int] = {}
        self.cashed_out: dict[str, int] = {}
        self.bought_in_total = 0
        self.cashed_out_total = 0

    def buy_in(self, player: str, units: int) -> None:
        """Credit ``units`` brought to the table by ``player``."""
        self.balances[player] = self.balances.get(player, 0) + units
        self.escrow.setdefault(player, 0)
        self.bought_in_total += units

    def put_up(self, player: str, units: int) -> None:
        """Move ``units`` of ``player``'s balance into escrow (the caller checked the balance)."""
        self.balances[player] -= units
        self.escrow[player] += units

    def release(self, player: str, units: int) -> None:
        """Return ``units`` of ``player``'s escrow to his balance (taken down, called off, won back)."""
        self.escrow[player] -= units
        self.balances[player] += units

    def pay(self, loser: str, winner: str, units: int) -> None:
        """Move ``units`` of ``loser``'s escrow to ``winner``'s balance."""
        self.escrow[loser] -= units
        self.balances[winner] += units

    def cash_out(self, player: str) -> int:
        """Pay out ``player``'s whole balance and close his account (escrow must be empty)."""
        units = self.balances.pop(player)
        del self.escrow[player]
        self.cashed_out[player] = self.cashed_out.get(player, 0) + units
        self.cashed_out_total += units
        return units

    def total(self) -> int:
        """Units on the table: all balances plus all escrow."""
        return sum(self.balances.values()) + sum(self.escrow.values())

    def to_dict(self) -> dict:
        return {
            "balances": dict(self.balances),
            "escrow": dict(self.escrow),
            "cashed_out": dict(self.cashed_out),
            "bought_in_total": self.bought_in_total,
            "cashed_out_total": self.cashed_out_total,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Ledger:
        ledger = cls()
        ledger.balances = dict(d["balances"])
        ledger.escrow = dict(d["escrow"])
        ledger.cashed_out = dict(d["cashed_out"])
        ledger.bought_in_total = d["bought_in_total"]
        ledger.cashed_out_total = d["cashed_out_total"]
        return ledger
