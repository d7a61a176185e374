"""The center bet: the shooter's stake against the faders' (R-C1..R-C7)."""

from __future__ import annotations


class CenterBet:
    """The shooter's center bet and the fades covering it.

    shooter: who put the bet up (he stays its owner even if someone else finishes the turn).
    amount: the shooter's stake in escrow.
    fades: fader -> units faded, in the order they first faded.
    """

    __slots__ = ("shooter", "amount", "fades")

    def __init__(self, shooter: str, amount: int, fades: dict[str, int] | None = None) -> None:
        self.shooter = shooter
        self.amount = amount
        self.fades: dict[str, int] = dict(fades) if fades else {}

    @property
    def faded(self) -> int:
        """Units covered by the faders so far."""
        return sum(self.fades.values())

    @property
    def open(self) -> int:
        """Units of the shooter's bet not yet faded."""
        return self.amount - self.faded

    def stakes(self) -> dict[str, int]:
        """Units each player has in this bet."""
        out = {self.shooter: self.amount}
        for player, units in self.fades.items():
            out[player] = out.get(player, 0) + units
        return out

    def to_dict(self) -> dict:
        return {"shooter": self.shooter, "amount": self.amount, "fades": dict(self.fades)}

    @classmethod
    def from_dict(cls, d: dict) -> CenterBet:
        return cls(d["shooter"], d["amount"], d["fades"])
