"""The ``tablectl`` command: a thin dispatcher over ``tablectl.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys

# The order here is the order of ``tablectl --help``.
SUBCOMMANDS = (
    "run", "demo", "play", "odds", "read", "replay", "calibrate", "recall", "journal", "dice",
    "pin", "doctor",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablectl",
        description="Controller of a home private-craps table (rules engine, dice camera, journal).",
    )
    sub = parser.add_subparsers(dest="subcommand", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        module_name = f"tablectl.commands.{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # a subcommand not built yet is simply absent
            if exc.name == module_name:
                continue
            raise
        module.register(sub)
    for command in sub.choices.values():
        # the commands' descriptions are their module docstrings: no reST quoting on a terminal
        if command.description:
            command.description = command.description.replace("``", "")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # `tablectl play ... | head` is not an error
        return 0


if __name__ == "__main__":
    sys.exit(main())
