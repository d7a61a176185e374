"""The game's command handlers, one module per section of RULES.md.

- ``seating.py``: seating and the order of play (R-P1, R-O1..R-O3)
- ``center_bet.py``: the center bet (R-C1..R-C7)
- ``side_bets.py``: side bets (R-S0..R-S7)
- ``throw.py``: the throw and its settlement (R-T*, R-B*, R-D1), and the throw's undo record
- ``irregularities.py``: void throws, operator rulings, warnings and sanctions (R-I*, R-D3)
- ``dice.py``: passing and changing the dice (R-D2, R-X1)

``HANDLERS`` is the one registry: command name -> (parser, handler). The parser
(``fields.PARSERS``) checks the command's fields and returns them as the handler's arguments
after the game: ``handler(game, *parser(command))``. ``RUNNERS`` is what ``Game.apply`` calls:
command name -> ``run(game, command)``, that composition, except for the two commands most
journals are made of (throw, side_bet, fade, center_bet), whose sections give a runner that
checks the well-formed case inline and leaves the messages to the parser.
"""

from __future__ import annotations

from ..fields import COMMAND_NAMES, PARSERS
from . import center_bet, dice, irregularities, seating, side_bets, throw

_BY_SECTION: dict = {}
for _section in (seating, center_bet, side_bets, throw, irregularities, dice):
    _BY_SECTION.update(_section.HANDLERS)

HANDLERS = {name: (PARSERS[name], _BY_SECTION[name]) for name in COMMAND_NAMES}
if set(_BY_SECTION) != set(COMMAND_NAMES) or set(PARSERS) != set(COMMAND_NAMES):
    raise ImportError("the game's handlers, parsers and command names disagree")


def _runner(parse, handler):
    def run(game, command):
        return handler(game, *parse(command))
    run.__name__ = f"run_{handler.__name__}"
    return run


RUNNERS = {name: _runner(parse, handler) for name, (parse, handler) in HANDLERS.items()}
RUNNERS.update(throw.RUNNERS)
RUNNERS.update(side_bets.RUNNERS)
RUNNERS.update(center_bet.RUNNERS)
