"""The console's command forms: for each command its fields and the rules that can refuse it.

The page draws one form per entry; ``static/operator.js`` turns a form into the command's JSON
(``data-type`` says how: ``units`` and ``int`` become numbers, ``dice`` two faces, ``outcomes``
a list of totals and combinations, ``stakes`` the side bet's two stakes).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l


@dataclass(frozen=True)
class Field:
    name: str
    type: str          # player, units, int, text, rule, dice, kind, outcomes, id, stake_for...
    label: object
    required: bool = True
    choices: tuple = ()


@dataclass(frozen=True)
class Form:
    command: str
    title: object
    fields: tuple
    rules: tuple        # the rules that refuse it when they are not met
    group: str


PLAYER = Field("player", "player", _l("player"))

FORMS = (
    Form("join", _l("Seat a player"), (PLAYER, Field("buy_in", "units", _l("buy-in (units)")),
         Field("seat", "int", _l("seat (0 = first; empty = last)"), False)),
         ("R-O2",), "seats"),
    Form("leave", _l("A player leaves"), (PLAYER,), ("R-O3",), "seats"),
    Form("shooter", _l("Who shoots first"), (PLAYER,), ("R-O1", "R-D3"), "seats"),
    Form("center_bet", _l("Center bet"), (Field("amount", "units", _l("amount (units)")),),
         ("R-C1", "R-S0"), "center"),
    Form("fade", _l("Fade"), (PLAYER, Field("amount", "units", _l("amount (units)"))),
         ("R-C2", "R-C6", "R-C4"), "center"),
    Form("raise", _l("Raise the center bet"),
         (Field("amount", "units", _l("new total (units)")),), ("R-C6",), "center"),
    Form("take_down", _l("Take down the unfaded part"), (), ("R-C5",), "center"),
    Form("no_bet", _l("No bet (call everything off)"), (), ("R-C5",), "center"),
    Form("side_bet", _l("Side bet between two players"), (
        Field("id", "id", _l("bet id")),
        Field("kind", "kind", _l("kind")),
        Field("for", "player", _l("backs the event (for)")),
        Field("against", "player", _l("against")),
        Field("stake_for", "stake_for", _l("stake of the backer")),
        Field("stake_against", "stake_against", _l("stake against")),
        Field("number", "int", _l("number (hardway, number bet)"), False),
        Field("wins", "outcomes", _l("wins on (proposition: 8, 6-5, 3-3)"), False),
        Field("loses", "outcomes", _l("loses on (proposition, optional)"), False),
        Field("within", "int", _l("within n throws (proposition, optional)"), False),
    ), ("R-S0", "R-S1", "R-S2", "R-S5", "R-S6", "R-S7"), "side"),
    Form("call_off", _l("Call off a side bet"), (Field("id", "id", _l("bet id")), PLAYER),
         ("R-S6", "R-S4"), "side"),
    Form("carry", _l("Carry a come bet on"), (Field("id", "id", _l("bet id")),
         Field("player", "player", _l("player"), False)), ("R-S4",), "side"),
    Form("throw", _l("Enter a throw by hand"), (Field("dice", "dice", _l("dice")),),
         ("R-P1", "R-C5", "R-I2"), "dice"),
    Form("void", _l("Void the throw"), (
        Field("rule", "rule", _l("rule"), choices=("R-I1", "R-I2", "R-I3")),
        Field("reason", "text", _l("reason"))), ("R-I1", "R-I2", "R-I3"), "dice"),
    Form("pass_dice", _l("Pass the dice"), (), ("R-D2",), "dice"),
    Form("change_dice", _l("Change the dice"), (Field("pair", "int", _l("pair (empty = next)"),
         False),), ("R-X1", "R-E2"), "dice"),
    Form("warn", _l("Warn the shooter"), (
        Field("rule", "rule", _l("rule"), choices=("R-I3", "R-I5")),), ("R-I3", "R-I5"),
        "sanctions"),
    Form("substitute", _l("A substitute finishes the turn"), (PLAYER,), ("R-I3", "R-D3"),
         "sanctions"),
    Form("bar", _l("Bar a shooter"), (PLAYER,), ("R-I3", "R-I5", "R-D3"), "sanctions"),
)

GROUPS = (
    ("seats", _l("Seats")), ("center", _l("Center bet")), ("side", _l("Side bets")),
    ("dice", _l("Dice and throws")), ("sanctions", _l("Warnings and sanctions")),
)
