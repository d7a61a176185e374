"""``tablectl demo``: the running table with the throw simulator as its camera and four bot
players (``camera.py``: the simulated camera; ``players.py``: the players and the operator)."""
