"""The demo over many throws: does its memory stay flat?

    .venv/bin/python bench/demo_memory.py [--throws 600] [--every 100]

Runs ``tablectl demo``'s table in this process as fast as rendering allows (the simulated camera
unpaced, the players and the demo's operator at a high speed): the Table with a real journal,
the tracker and the dice reader, the four players. Prints the process's resident memory (RSS)
every ``--every`` throws, after a first batch that loads everything. At --speed 1 a throw comes
every 5 s or so: 600 throws are nearly an hour of the demo.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablectl.demo.camera import SimulatedCamera  # noqa: E402
from tablectl.demo.players import DemoPlayers  # noqa: E402
from tablectl.journal import Journal  # noqa: E402
from tablectl.table import Table  # noqa: E402
from vision.dice import DiceReader  # noqa: E402


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--throws", type=int, default=600)
    p.add_argument("--every", type=int, default=100)
    args = p.parse_args()
    speed = 1000.0
    camera = SimulatedCamera((640, 480), 60.0, speed=speed, seed=3, pause=1.0,
                             sleep=lambda s: None)
    folder = Path(tempfile.mkdtemp(prefix="bench-demo-"))
    table = Table(Journal.open(folder / "journal.sqlite"), source=camera,
                  calibration=camera.calibration, readers=[DiceReader()], keep_images=300)
    players = DemoPlayers(table, camera, speed=speed, operator_delay=1.0, seed=3)
    camera.ready = players.ready
    players.start()
    table.start()
    began = time.monotonic()
    first = None
    print(f"demo table, {args.throws} throws, RSS every {args.every} throws:")
    try:
        mark = args.every
        while camera.throws < args.throws:
            time.sleep(0.5)
            if camera.throws >= mark:
                gc.collect()
                now = rss_mb()
                first = first if first is not None else now
                view = table.state()
                print(f"  {camera.throws:5d} throws, {view['seq']:6d} rows, "
                      f"{time.monotonic() - began:6.0f} s: RSS {now:7.1f} MB "
                      f"({now - first:+.1f} MB since {args.every})", flush=True)
                mark += args.every
    finally:
        players.stop()
        table.close()
    print(f"refusals the players met (the rules saying no): {players.refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
