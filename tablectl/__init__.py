"""tablectl: the controller of a home private-craps table.

Layers (see DESIGN.md): ``tablectl.game`` is the pure rules engine, ``tablectl.odds`` the exact
odds, ``tablectl.journal`` the SQLite journal, ``tablectl.rulings`` turns camera observations into
rulings, and ``tablectl.cli`` the ``tablectl`` command.
"""

__version__ = "0.1.0"
