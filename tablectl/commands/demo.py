"""``tablectl demo [--port N] [--journal FILE] [--speed X]``: the running table on its own.

The same table as ``tablectl run``, with the throw simulator as its camera (a throw rendered in
real time every few seconds at ``--speed 1``), mock signal lights (gpiozero's MockFactory), a
fresh journal in a temporary folder unless ``--journal`` is given, and four demo players who
join, shoot in turn, make and fade center bets and make and call off side bets of every kind.
Now and then a throw is void, earns a one-wall warning, leaves the area, or leaves a die cocked
for the operator (the demo's operator answers after a while unless someone does it first at
the dashboard). Prints ``dashboard: http://HOST:PORT/`` and ``operator PIN: NNNNNN``; Ctrl-C
(or SIGTERM) stops it.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo", help="run the table with simulated throws and four demo players",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, default=8765, help="dashboard port (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="dashboard address (default 127.0.0.1; 0.0.0.0 lets phones on the "
                        "LAN in)")
    p.add_argument("--journal", type=Path, default=None, metavar="FILE",
                   help="journal to use or resume (default: a fresh one in a temporary folder)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="1 is real time; 2 plays twice as fast (default 1)")
    p.add_argument("--seed", type=int, default=1, help="the simulated evening's seed")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from tablectl.commands.run import run_until_stopped, setup_logging
    from tablectl.config import ConfigError, load_config
    from tablectl.demo.camera import SimulatedCamera
    from tablectl.demo.players import DemoPlayers
    from tablectl.journal import JournalError
    from tablectl.table import Table, TableFault

    if args.speed <= 0:
        print("tablectl demo: --speed must be positive, e.g. 1 or 2", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print("tablectl demo: --port must be 1..65535", file=sys.stderr)
        return 2
    setup_logging()
    try:
        config = load_config(None)
    except ConfigError as exc:
        print(f"tablectl demo: {exc}", file=sys.stderr)
        return 2
    journal = args.journal
    if journal is None:
        journal = Path(tempfile.mkdtemp(prefix="tablectl-demo-")) / "journal.sqlite"
    print(f"journal: {journal}", flush=True)
    camera = SimulatedCamera(config.camera.size if config.camera.source == "simulator"
                             else (640, 480), fps=60.0, speed=args.speed, seed=args.seed)
    from gpiozero.pins.mock import MockFactory

    from tablectl.lights import Lights

    lights = Lights(config.lights.pins, active_high=config.lights.active_high,
                    pin_factory=MockFactory())
    try:
        from tablectl.table import dice_readers

        table = Table.from_config(config, journal_path=journal, source=camera, lights=lights,
                                  readers=dice_readers(config.dice.profiles),
                                  calibration=camera.calibration, keep_images=300)
    except (JournalError, TableFault, OSError, ValueError) as exc:
        print(f"tablectl demo: {exc}", file=sys.stderr)
        return 2
    players = DemoPlayers(table, camera, speed=args.speed, seed=args.seed)
    camera.ready = players.ready
    return run_until_stopped(table, args.host, args.port, also=players)
