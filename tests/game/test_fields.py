"""Every command's fields are checked once, before any rule: a malformed command is refused as
malformed (CommandError, nothing changed) even when a rule would also refuse it now."""

from __future__ import annotations

import pytest

from tablectl.game import CommandError, TableRules
from tablectl.game.fields import COMMAND_NAMES, PARSERS
from tablectl.game.sections import HANDLERS
from tests.game.helpers import center, run, side, table, throw


def test_one_parser_and_one_handler_per_command():
    assert tuple(PARSERS) == COMMAND_NAMES
    assert tuple(HANDLERS) == COMMAND_NAMES
    assert all(HANDLERS[name][0] is PARSERS[name] for name in COMMAND_NAMES)


def awaiting_ruling():
    """A table where every rule that checks for a pending ruling (R-I2) refuses."""
    g = table(3)
    center(g, 10, bob=10)
    run(g, {"command": "dice_rolling"},
        {"command": "await_ruling", "rule": "R-I2", "reason": "die 2 cocked"})
    return g


@pytest.mark.parametrize("command, field", [
    (side("s1", "number", "bob", "cy", 10, 0, number=4), "stakes"),
    (side("s1", "number", "bob", "cy", 10, 10, number=7), "number"),
    (side("s1", "kin", "bob", "cy", 10, 10), "kind"),
    ({"command": "call_off", "player": "bob", "id": None}, "id"),
    ({"command": "carry", "id": "c1", "player": 7}, "player"),
    ({"command": "fade", "player": "bob", "amount": 5, "claim": "yes"}, "claim"),
    ({"command": "throw", "dice": [3, 4], "player": ["ann"]}, "player"),
    ({"command": "warn", "rule": "R-I3", "player": ""}, "player"),
    ({"command": "void", "rule": "R-I9"}, "rule"),
    ({"command": "change_dice", "pair": "next"}, "pair"),
    ({"command": "join", "player": "eve", "buy_in": 5, "seat": -1}, "seat"),
    ({"command": "refused_throw", "rule": "R-I2", "reason": "x", "dice": [0, 3]}, "dice"),
])
def test_malformed_is_refused_before_the_rules(command, field):
    g = awaiting_ruling()
    before = g.snapshot()
    with pytest.raises(CommandError, match=field):
        g.apply(command)
    assert g.snapshot() == before


def test_a_pair_the_table_does_not_have_is_malformed_even_with_one_pair():
    g = table(3, rules=TableRules(dice_pairs=1))
    with pytest.raises(CommandError, match="pair"):
        g.apply({"command": "change_dice", "pair": "x"})


def test_a_well_formed_command_then_meets_the_rules():
    g = awaiting_ruling()
    with pytest.raises(Exception) as info:
        g.apply(side("s1", "number", "bob", "cy", 10, 10, number=4))
    assert not isinstance(info.value, CommandError) and info.value.rule == "R-I2"
    run(g, {"command": "operator_ruling", "by": "op", "dice": [2, 2]}, throw(3, 4))


@pytest.mark.parametrize("fields", [
    {"kind": 4}, {"kind": ["number"]}, {"kind": None},
    {"for": ["bob"]}, {"for": 7}, {"against": ("cy",)}, {"against": None},
])
def test_a_side_bet_field_of_the_wrong_type_gets_the_parsers_error(fields):
    # on an open table, where run_side_bet's one condition (which asks no type() of the kind
    # and the players) is what a well-formed bet goes through; apply and rebuild alike
    from tablectl.game.fields import parse_side_bet

    command = side("s1", "number", "bob", "cy", 10, 10, number=4)
    command.update(fields)
    with pytest.raises(CommandError) as parsed:
        parse_side_bet(command)
    for play in ("apply", "rebuild"):
        g = table(3)
        before = g.snapshot()
        with pytest.raises(CommandError) as refused:
            g.apply(command) if play == "apply" else g.rebuild([command])
        assert str(refused.value) == str(parsed.value)
        assert g.snapshot() == before
