"""``tablectl play SCRIPT|-``: play a script of game commands (JSON lines), print the events.

One JSON line per event, a refusal as ``{"refused": why, "rule": "R-C6", "line": n}`` (the
script goes on), and a last line ``{"state": {...}}``. A malformed line or an unknown command
stops the script with a message naming the line on stderr and exit status 2. With
``--journal FILE`` every command is committed to the journal before its events are printed, and
the game resumes from what the journal already holds.
"""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "play", help="play a script of game commands (JSON lines) and print the events",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("script", help="file of JSON command lines, or - for stdin "
                                  "(blank lines and lines starting with # are skipped)")
    p.add_argument("--journal", metavar="FILE",
                   help="SQLite journal to resume from and commit every command to")
    p.add_argument("--rules", metavar="TOML",
                   help="table.toml whose [rules] table sets the table rules (new games only)")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"tablectl play: {message}", file=sys.stderr)
    return 2


def _load_rules(path: str | None):
    from tablectl.game import TableRules

    if path is None:
        return None
    import tomllib

    with open(path, "rb") as f:
        return TableRules.from_mapping(tomllib.load(f).get("rules", {}))


def run(args) -> int:
    from tablectl.game import CommandError, Game, RuleViolation

    try:
        rules = _load_rules(args.rules)
    except (OSError, ValueError) as exc:  # tomllib.TOMLDecodeError is a ValueError
        return _fail(f"cannot read table rules from {args.rules}: {exc}")

    if args.script == "-":
        source, name = sys.stdin, "<stdin>"
    else:
        try:
            source = open(args.script, encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            return _fail(f"cannot open script {args.script}: {exc.strerror}")
        name = args.script

    journal = None
    if args.journal:
        try:
            from tablectl.journal import Journal, JournalError
        except ImportError as exc:
            return _fail(f"--journal needs the tablectl.journal module, which cannot be "
                         f"imported here ({exc}); run without --journal")
        try:
            journal = Journal.open(args.journal, rules=rules)
        except JournalError as exc:
            return _fail(f"journal {args.journal}: {exc}")
        apply = journal.apply

        def current_game():
            return journal.game

        failures: tuple = (JournalError,)
    else:
        game = Game(rules)
        apply = game.apply

        def current_game():
            return game

        failures = ()

    out = sys.stdout
    dumps = json.dumps
    try:
        for n, raw in enumerate(source, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                command = json.loads(line)
            except json.JSONDecodeError as exc:
                return _fail(f"{name}:{n}: malformed JSON ({exc.msg} at column {exc.colno}); "
                             f"each line must be one JSON object like "
                             f"{{\"command\": \"throw\", \"dice\": [3, 4]}}")
            try:
                events = apply(command)
            except RuleViolation as exc:
                why = exc.reason if exc.detail is None else f"{exc.reason} ({exc.detail})"
                out.write(dumps({"refused": why, "rule": exc.rule, "line": n}) + "\n")
                out.flush()
                continue
            except CommandError as exc:
                return _fail(f"{name}:{n}: {exc}")
            except failures as exc:
                return _fail(f"{name}:{n}: journal error: {exc}")
            if events:
                out.write("\n".join(dumps(e) for e in events) + "\n")
            out.flush()
        out.write(dumps({"state": current_game().state()}) + "\n")
        out.flush()
        return 0
    finally:
        if source is not sys.stdin:
            source.close()
        if journal is not None:
            journal.close()
