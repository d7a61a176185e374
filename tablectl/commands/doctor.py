"""``tablectl doctor [--config FILE] [--blink]``: check the camera, the lights, config.txt, the
calibration, the journal's disk, the clock and the dashboard's port, each with its fix.

Exit status 0 when nothing failed (warnings allowed), 1 when a check failed, 2 when the
configuration cannot be read. Off a Raspberry Pi it checks the throw simulator and gpiozero's
mock pins instead of the camera and the lamps, and says so.
"""

from __future__ import annotations

import argparse
from pathlib import Path

# where install.sh puts the table's configuration on the Pi
INSTALLED_CONFIG = Path("/etc/tablectl/table.toml")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "doctor",
        help="check that this machine can run the table (camera, lights, disk, clock, port)",
        description="Check the camera (size and frame rate measured, exposure fixed), the "
        "lights' pins, config.txt, the calibration, the journal's folder and free space, the "
        "clock and the dashboard's port. Each check prints ok, warning or FAILURE with its fix; "
        "exit status 0 when nothing failed.",
    )
    p.add_argument("--config", type=Path, default=None, metavar="FILE",
                   help=f"the table's configuration (default: {INSTALLED_CONFIG} when it "
                   "exists, else the checkout's firmware_config/table.toml)")
    p.add_argument("--blink", action="store_true",
                   help="light each lamp once in turn (and beep the buzzer), naming it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablectl.config import ConfigError, load_config
    from tablectl.doctor import FAILURE, WARNING, Machine, diagnose, report

    path = args.config
    if path is None and INSTALLED_CONFIG.is_file():
        path = INSTALLED_CONFIG
    try:
        config = load_config(path)
    except ConfigError as exc:
        print(f"FAILURE  config       {exc}")
        return 2
    machine = Machine.here()
    board = machine.pi_model or "not a Raspberry Pi (simulator and mock pins stand in)"
    print(f"tablectl doctor: {board}; configuration {config.path}")
    findings = diagnose(config, machine, blink=args.blink, say=lambda line: print(line,
                                                                                  flush=True))
    for line in report(findings):
        print(line)
    failed = sum(f.status == FAILURE for f in findings)
    warned = sum(f.status == WARNING for f in findings)
    print(f"{len(findings) - failed - warned} ok, {warned} warning(s), {failed} failure(s)")
    return 1 if failed else 0
