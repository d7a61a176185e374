"""Reading the fields of a command dict; each helper raises CommandError saying what is wrong."""

from __future__ import annotations

from .errors import CommandError

# every command the game knows, in the order of docs/commands.md
COMMAND_NAMES = (
    "join", "leave", "shooter", "center_bet", "fade", "raise", "take_down", "no_bet",
    "side_bet", "call_off", "carry", "dice_rolling", "throw", "void", "await_ruling",
    "operator_ruling", "warn", "substitute", "bar", "pass_dice", "change_dice", "refused_throw",
)

VOID_RULES = ("R-I1", "R-I2", "R-I3")
WARN_RULES = ("R-I3", "R-I5")


def _name(cmd: dict) -> str:
    return cmd.get("command", "?")


def player_field(cmd: dict, field: str = "player") -> str:
    """A player's name: a non-empty string."""
    value = cmd.get(field)
    if type(value) is not str or not value:
        raise CommandError(f"{_name(cmd)}: \"{field}\" must be a player's name (a non-empty "
                           f"string), got {value!r}")
    return value


def units_field(cmd: dict, field: str) -> int:
    """A positive whole number of units (money is never fractional)."""
    value = cmd.get(field)
    if type(value) is not int or value <= 0:
        raise CommandError(f"{_name(cmd)}: \"{field}\" must be a whole number of units > 0, "
                           f"got {value!r}")
    return value


def text_field(cmd: dict, field: str, default: str | None = None) -> str:
    """A string; required unless a default is given."""
    value = cmd.get(field, default)
    if type(value) is not str or (default is None and not value):
        raise CommandError(f"{_name(cmd)}: \"{field}\" must be a non-empty string, got {value!r}")
    return value


def dice_field(cmd: dict) -> tuple[int, int]:
    """Two die faces 1..6 as ``[d1, d2]``."""
    value = cmd.get("dice")
    if (type(value) not in (list, tuple) or len(value) != 2
            or not all(type(d) is int and 1 <= d <= 6 for d in value)):
        raise CommandError(f"{_name(cmd)}: \"dice\" must be two faces 1..6 like [3, 4], "
                           f"got {value!r}")
    return value[0], value[1]


def rule_field(cmd: dict, allowed: tuple[str, ...]) -> str:
    """A rule id among ``allowed``."""
    value = cmd.get("rule")
    if value not in allowed:
        raise CommandError(f"{_name(cmd)}: \"rule\" must be one of {', '.join(allowed)}, "
                           f"got {value!r}")
    return value


def bet_id_field(cmd: dict) -> str | int:
    """A side bet's id: a non-empty string or an integer."""
    value = cmd.get("id")
    if not ((type(value) is str and value) or type(value) is int):
        raise CommandError(f"{_name(cmd)}: \"id\" must name the side bet (a string or an "
                           f"integer), got {value!r}")
    return value
