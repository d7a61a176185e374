"""``tablectl pin reset [--config FILE]``: a new operator PIN for the dashboard.

The PIN's hash, the dashboard's sessions and its failed-login count live in the table's state
folder (the journal's folder, as ``tablectl run`` uses it). A reset prints the new PIN once,
ends every operator session and clears the failed-login count.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "pin", help="set a new operator PIN for the dashboard",
        description="Manage the dashboard's operator PIN (stored hashed in the state folder).")
    sub = p.add_subparsers(dest="pin_command", required=True, metavar="ACTION")
    reset = sub.add_parser("reset", help="set a new PIN, print it once, end every session")
    reset.add_argument("--config", type=Path, default=None, metavar="FILE",
                       help="the table's table.toml (default: firmware_config/table.toml)")
    reset.add_argument("--state-dir", type=Path, default=None, metavar="DIR",
                       help="the state folder (default: the folder of the config's journal)")
    reset.set_defaults(func=run_reset)


def state_dir_of(config_path: Path | None) -> Path:
    """The folder holding the PIN: the journal's folder of the table's config."""
    from tablectl.config import load_config

    config = load_config(config_path)
    return Path(config.journal.path).parent


def run_reset(args: argparse.Namespace) -> int:
    from web.security import reset_pin

    state_dir = args.state_dir
    if state_dir is None:
        from tablectl.config import ConfigError

        try:
            state_dir = state_dir_of(args.config)
        except ConfigError as exc:
            print(f"tablectl pin reset: {exc}", file=sys.stderr)
            return 2
    try:
        pin = reset_pin(state_dir)
    except OSError as exc:
        print(f"tablectl pin reset: cannot write the PIN in {state_dir}: {exc.strerror}; "
              f"run it as the user that runs the table, or give --state-dir", file=sys.stderr)
        return 2
    print(f"operator PIN: {pin}")
    print(f"(stored hashed in {state_dir}; every operator session has ended)")
    return 0
