"""Reading the fields of a command dict; each helper raises CommandError saying what is wrong."""

from __future__ import annotations

from .errors import CommandError
from .sidebets import KIND_RULE, parse_terms

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


# ---------------------------------------------------------------------- one parser per command
# Each takes the command dict and returns its fields, checked, as the arguments of the
# command's handler; Game.apply calls it before the handler, so a malformed command is refused
# (CommandError) before any rule is looked at. Only what needs the game's state (a seat index
# beyond the seats there are, a pair of dice the table does not have) is checked later.

def _no_fields(cmd: dict) -> tuple:
    return ()


def _player(cmd: dict) -> tuple[str]:
    return (player_field(cmd),)


def _amount(cmd: dict) -> tuple[int]:
    return (units_field(cmd, "amount"),)


def _optional_player(cmd: dict) -> str | None:
    return None if cmd.get("player") is None else player_field(cmd)


def parse_join(cmd: dict) -> tuple[str, int, int | None]:
    player = player_field(cmd)
    buy_in = units_field(cmd, "buy_in")
    seat = cmd.get("seat")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise CommandError(f"join: \"seat\" must be an index 0, 1, ... in the clockwise order, "
                           f"got {seat!r}")
    return player, buy_in, seat


def parse_fade(cmd: dict) -> tuple[str, int, bool]:
    player = player_field(cmd)
    amount = units_field(cmd, "amount")
    claim = cmd.get("claim", False)
    if type(claim) is not bool:
        raise CommandError(f"fade: \"claim\" must be true or false, got {claim!r}")
    return player, amount, claim


def parse_side_bet(cmd: dict) -> tuple:
    """(id, kind, backer, layer, stake_for, stake_against, terms, key, extra): the checks in
    the order a player would mend them, each with its own message."""
    bet_id = cmd.get("id")
    if not ((type(bet_id) is str and bet_id) or type(bet_id) is int):
        bet_id_field(cmd)  # raises, saying what the id must be
    kind = cmd.get("kind")
    if type(kind) is not str or kind not in KIND_RULE:
        raise CommandError(f"side_bet: \"kind\" must be one of {', '.join(KIND_RULE)}, "
                           f"got {kind!r}")
    backer = cmd.get("for")
    if type(backer) is not str or not backer:
        player_field(cmd, "for")
    layer = cmd.get("against")
    if type(layer) is not str or not layer:
        player_field(cmd, "against")
    if backer == layer:
        raise CommandError("side_bet: \"for\" and \"against\" must be two different players")
    stakes = cmd.get("stakes")
    if (type(stakes) is not dict or len(stakes) != 2 or backer not in stakes
            or layer not in stakes):
        raise CommandError(f"side_bet: \"stakes\" must give both players' units, e.g. "
                           f"{{\"{backer}\": 10, \"{layer}\": 10}}, got {stakes!r}")
    stake_for = stakes[backer]
    stake_against = stakes[layer]
    if (type(stake_for) is not int or type(stake_against) is not int or stake_for <= 0
            or stake_against <= 0):
        raise CommandError(f"side_bet: stakes must be whole units > 0, got {stakes!r}")
    terms, key, extra = parse_terms(kind, cmd)
    return bet_id, kind, backer, layer, stake_for, stake_against, terms, key, extra


def parse_call_off(cmd: dict) -> tuple[str, str | int]:
    return player_field(cmd), bet_id_field(cmd)


def parse_carry(cmd: dict) -> tuple[str | int, str | None]:
    return bet_id_field(cmd), _optional_player(cmd)


def parse_throw(cmd: dict) -> tuple[int, int, str | None]:
    # sections.throw.run_throw checks the well-formed throw inline; this says what is wrong
    d1, d2 = dice_field(cmd)
    who = cmd.get("player")
    return d1, d2, None if who is None else player_field(cmd)


def parse_void(cmd: dict) -> tuple[str, str]:
    return rule_field(cmd, VOID_RULES), text_field(cmd, "reason", "")


def _rule_id(cmd: dict, what: str) -> str:
    rule = cmd.get("rule")
    if type(rule) is not str or not rule.startswith("R-"):
        raise CommandError(f"{_name(cmd)}: \"rule\" must be {what}, got {rule!r}")
    return rule


def parse_await_ruling(cmd: dict) -> tuple[str, str, dict | None]:
    rule = _rule_id(cmd, "a rule id like \"R-I2\"")
    reason = text_field(cmd, "reason", "")
    observation = cmd.get("observation")
    if observation is not None and type(observation) is not dict:
        raise CommandError("await_ruling: \"observation\" must be an object when given")
    return rule, reason, observation


def parse_operator_ruling(cmd: dict) -> tuple[str, str, tuple[int, int] | None]:
    """(by, why, dice): dice None for a void."""
    by = text_field(cmd, "by")
    why = text_field(cmd, "why", "")
    void = cmd.get("void", False)
    if type(void) is not bool:
        raise CommandError("operator_ruling: \"void\" must be true or false")
    has_dice = cmd.get("dice") is not None
    if void == has_dice:
        raise CommandError("operator_ruling: give either \"dice\": [d1, d2] or \"void\": true")
    return by, why, dice_field(cmd) if has_dice else None


def parse_warn(cmd: dict) -> tuple[str, str | None]:
    return rule_field(cmd, WARN_RULES), _optional_player(cmd)


def parse_change_dice(cmd: dict) -> tuple[int | None]:
    pair = cmd.get("pair")
    if pair is not None and (type(pair) is not int or pair < 0):
        raise CommandError(f"change_dice: \"pair\" must be the number of a pair of dice "
                           f"(0, 1, ...), got {pair!r}")
    return (pair,)


def parse_refused_throw(cmd: dict) -> tuple[str, str, list | None]:
    rule = _rule_id(cmd, "the rule id that refused the throw, like \"R-I2\"")
    reason = text_field(cmd, "reason")
    dice = cmd.get("dice")
    if dice is not None and (type(dice) is not list or len(dice) != 2 or not all(
            d is None or (type(d) is int and 1 <= d <= 6) for d in dice)):
        raise CommandError("refused_throw: \"dice\" must be the camera's two values "
                           "(1..6 or null each) when given")
    return rule, reason, dice


PARSERS = {
    "join": parse_join,
    "leave": _player,
    "shooter": _player,
    "center_bet": _amount,
    "fade": parse_fade,
    "raise": _amount,
    "take_down": _no_fields,
    "no_bet": _no_fields,
    "side_bet": parse_side_bet,
    "call_off": parse_call_off,
    "carry": parse_carry,
    "dice_rolling": _no_fields,
    "throw": parse_throw,
    "void": parse_void,
    "await_ruling": parse_await_ruling,
    "operator_ruling": parse_operator_ruling,
    "warn": parse_warn,
    "substitute": _player,
    "bar": _player,
    "pass_dice": _no_fields,
    "change_dice": parse_change_dice,
    "refused_throw": parse_refused_throw,
}
