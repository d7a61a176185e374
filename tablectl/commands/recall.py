"""``tablectl recall``: the last decisions of the game (come-out to decision) from the journal,
each with its throws, rulings and the bets settled with their amounts."""

from __future__ import annotations

import argparse
import json
import sys

from tablectl.commands.journal import _add_journal_arg, journal_path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recall", help="the last 10 decisions with their throws, rulings and settlements",
        description="Show the last decisions (natural, craps, point made, seven-out) recorded "
        "in the journal, oldest first, each with its throws, rulings and settled bets.")
    _add_journal_arg(parser)
    parser.add_argument("-n", "--count", type=int, default=10,
                        help="how many decisions (default 10)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per decision a line")
    parser.set_defaults(func=_recall)


def _recall(args: argparse.Namespace) -> int:
    from tablectl.journal import JournalError
    from tablectl.recall import format_decision, recall

    path = journal_path(args, "tablectl recall")
    if path is None:
        return 2
    if args.count < 1:
        print("tablectl recall: --count must be at least 1", file=sys.stderr)
        return 2
    try:
        entries = recall(path, args.count)
    except JournalError as exc:
        print(f"tablectl recall: {exc}", file=sys.stderr)
        return 2
    for entry in entries:
        print(json.dumps(entry, sort_keys=True) if args.json else format_decision(entry))
    if not entries and not args.json:
        print("no decision recorded yet")
    return 0
