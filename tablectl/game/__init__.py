"""The private-craps rules engine (RULES.md): pure, commands in, events out.

- ``rules.py``: TableRules, the table rules with RULES.md's defaults
- ``errors.py``: RuleViolation (a rule forbids the command; one subclass per idea) and CommandError
- ``ledger.py``: balances and escrow in integer units
- ``center.py``: the center bet and its fades
- ``sidebets.py``: side bet kinds, their per-throw decision and true odds
- ``fields.py``: reading and checking the fields of a command, one parser per command
- ``sections/``: the command handlers, one module per section of RULES.md, and their registry
- ``engine.py``: Game, the state machine: the state, ``apply``, ``state()``, snapshots and the
  checks the sections share (docs/commands.md lists commands and events)
"""

from .engine import Game
from .errors import CommandError, RuleViolation
from .rules import TableRules

__all__ = ["Game", "TableRules", "RuleViolation", "CommandError"]
