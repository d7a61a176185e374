"""Money in integer units: each player's free balance and his stakes held in escrow."""

from __future__ import annotations


class Account:
    """One player's money at the table.

    player: whose it is. balance: units free to stake. escrow: units at stake in open bets.
    """

    __slots__ = ("player", "balance", "escrow")

    def __init__(self, player: str, balance: int = 0, escrow: int = 0) -> None:
        self.player = player
        self.balance = balance
        self.escrow = escrow

    def __repr__(self) -> str:
        return f"Account({self.player!r}, balance={self.balance}, escrow={self.escrow})"


class Ledger:
    """Balances (free units) and escrow (units at stake) per player.

    Every stake moves from a balance into escrow when put up, and out of escrow when the bet is
    decided (to the winner's balance), taken down or called off (back to its owner). So the sum
    of balances and escrow changes only by buy-ins and cash-outs.

    accounts: player -> his ``Account``, in the order the players first bought in. A player's
    balance and escrow are one record, so that a stake moved is one dict lookup a player, not
    one for his balance and one for his escrow, and an open side bet holds its parties'
    accounts, so that its settlement looks none up (docs/commands.md "Speed"). So an account
    is never replaced while the player has one: ``set_money`` puts the money back in place.
    """

    __slots__ = ("accounts", "cashed_out", "bought_in_total", "cashed_out_total")

    def __init__(self) -> None:
        self.accounts: dict[str, Account] = {}
        self.cashed_out: dict[str, int] = {}
        self.bought_in_total = 0
        self.cashed_out_total = 0

    @property
    def balances(self) -> dict[str, int]:
        """Player -> free units (a new dict: change them through the verbs)."""
        return {player: a.balance for player, a in self.accounts.items()}

    @property
    def escrow(self) -> dict[str, int]:
        """Player -> units at stake (a new dict: change them through the verbs)."""
        return {player: a.escrow for player, a in self.accounts.items()}

    def buy_in(self, player: str, units: int) -> None:
        """Credit ``units`` brought to the table by ``player``."""
        account = self.accounts.get(player)
        if account is None:
            account = self.accounts[player] = Account(player)
        account.balance += units
        self.bought_in_total += units

    def put_up(self, player: str, units: int) -> None:
        """Move ``units`` of ``player``'s balance into escrow (the caller checked the balance)."""
        account = self.accounts[player]
        account.balance -= units
        account.escrow += units

    def release(self, player: str, units: int) -> None:
        """Return ``units`` of ``player``'s escrow to his balance (taken down, called off, won back)."""
        account = self.accounts[player]
        account.escrow -= units
        account.balance += units

    def cash_out(self, player: str) -> int:
        """Pay out ``player``'s whole balance and close his account (escrow must be empty)."""
        units = self.accounts.pop(player).balance
        self.cashed_out[player] = self.cashed_out.get(player, 0) + units
        self.cashed_out_total += units
        return units

    def total(self) -> int:
        """Units on the table: all balances plus all escrow."""
        return sum(a.balance + a.escrow for a in self.accounts.values())

    def money(self) -> list[tuple[Account, int, int]]:
        """Every account with its balance and escrow now, in order: what ``set_money`` puts
        back (a throw's undo)."""
        return [(a, a.balance, a.escrow) for a in self.accounts.values()]

    def set_money(self, money: list[tuple[Account, int, int]]) -> None:
        """Every account as ``money()`` gave it, the same objects (open bets hold them), and
        those closed since opened again."""
        accounts = {}
        for account, balance, escrow in money:
            account.balance = balance
            account.escrow = escrow
            accounts[account.player] = account
        self.accounts = accounts

    def to_dict(self) -> dict:
        return {
            "balances": self.balances,
            "escrow": self.escrow,
            "cashed_out": dict(self.cashed_out),
            "bought_in_total": self.bought_in_total,
            "cashed_out_total": self.cashed_out_total,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Ledger:
        ledger = cls()
        escrow = d["escrow"]
        if set(escrow) != set(d["balances"]):
            raise ValueError("ledger snapshot is inconsistent: the players with a balance "
                             "are not the players with an escrow")
        ledger.accounts = {player: Account(player, balance, escrow[player])
                           for player, balance in d["balances"].items()}
        ledger.cashed_out = dict(d["cashed_out"])
        ledger.bought_in_total = d["bought_in_total"]
        ledger.cashed_out_total = d["cashed_out_total"]
        return ledger
