"""``tablectl run [--config FILE]``: the table for an evening.

One process with the camera, the tracker, the rulings, the game, the journal, the lights and the
dashboard, configured by ``/etc/tablectl/table.toml`` where install.sh wrote it, else the
checkout's ``firmware_config/table.toml`` (docs/configuration.md). It prints
``dashboard: http://HOST:PORT/`` and, the first time, ``operator PIN: NNNNNN``. SIGTERM or
Ctrl-C stops it cleanly (camera stopped, journal closed, lamps off, exit status 0); started again
on the same journal it resumes the evening exactly where it was, a pending ruling still pending.
Exit status 2 when the configuration or the journal cannot be used (the message says why).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help="run the table: camera, rulings, game, journal, lights, dashboard",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help="the table's TOML configuration (default: /etc/tablectl/table.toml "
                        "where install.sh wrote it, else the checkout's "
                        "firmware_config/table.toml)")
    p.set_defaults(func=run)


def setup_logging() -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


class FrameTap:
    """The camera's frame source as the table reads it, keeping the last frame for the
    dashboard's calibration screen (the table itself hands out no frames)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self._last = None

    def __iter__(self):
        for frame in self.source:
            self._last = frame.image
            yield frame

    def latest(self) -> Any:
        """The last frame the camera gave (BGR), or None before the first."""
        return self._last

    def close(self) -> None:
        self.source.close()

    def __getattr__(self, name: str) -> Any:  # e.g. the simulator's calibration
        return getattr(self.source, name)


def serve(table: Any, host: str, port: int, calibrator: Any = None) -> Any:
    """Start the dashboard on the table and print where it is (and a new operator PIN)."""
    from web.serve import start

    server = start(table, host=host, port=port, state_dir=table.state_dir,
                   calibrator=calibrator)
    print(f"dashboard: {server.url}", flush=True)
    if server.new_pin:
        print(f"operator PIN: {server.new_pin}", flush=True)
    print(server.qr_text(), flush=True)  # a phone at the table scans the address
    return server


def run_until_stopped(table: Any, host: str, port: int, *, also: Any = None,
                      calibrator: Any = None) -> int:
    """Serve the dashboard, start the camera (and ``also``, an object with start/stop), then
    wait for SIGTERM or Ctrl-C and stop everything in order: exit status 0."""
    stop = threading.Event()

    def on_signal(signum, frame) -> None:
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    server = None
    try:
        server = serve(table, host, port, calibrator)
        table.start()
        if also is not None:
            also.start()
        logging.getLogger("tablectl").info("table running; SIGTERM or Ctrl-C stops it")
        while not stop.wait(0.5):
            pass
        logging.getLogger("tablectl").info("stopping")
        return 0
    finally:
        if also is not None:
            also.stop()
        if server is not None:
            server.stop(timeout=1.5)
        seq = table.state()["seq"]
        table.close()
        logging.getLogger("tablectl").info("stopped: camera off, lamps off, journal closed at "
                                           "row %d", seq)
        for s, handler in previous.items():
            signal.signal(s, handler)


def run(args: argparse.Namespace) -> int:
    from tablectl.config import ConfigError, load_config
    from tablectl.journal import JournalError
    from tablectl.table import Table, TableFault, camera_source
    from web.calibrate import Calibrator

    setup_logging()
    try:
        config = load_config(args.config)
        source = camera_source(config.camera)
        tap = FrameTap(source) if source is not None else None
        table = Table.from_config(config, source=tap)
    except (ConfigError, JournalError, TableFault, OSError, ValueError) as exc:
        print(f"tablectl run: {exc}", file=sys.stderr)
        return 2
    calibrator = Calibrator(tap.latest, config.path) if tap is not None else None
    return run_until_stopped(table, config.dashboard.host, config.dashboard.port,
                             calibrator=calibrator)
