"""``tablectl play SCRIPT|-``: play a script of game commands (JSON lines), print the events.

One JSON line per event, a refusal as ``{"refused": why, "rule": "R-C6", "line": n}`` (the
script goes on), and a last line ``{"state": {...}}``. A malformed line or an unknown command
stops the script with a message naming the line on stderr and exit status 2. With
``--journal FILE`` every command is committed to the journal before its events are printed, and
the game resumes from what the journal already holds. A script read from a file is committed
1,000 commands at a time (``BATCH``; one sync to disk a batch, not one a command: a recovered
journal of 100,000 throws would otherwise take hours on an SD card), and each batch's events
are printed once it is committed; from stdin every command is committed as it comes.
"""

from __future__ import annotations

import argparse
import json
import sys

BATCH = 1000  # commands committed at once when a script file is played into a journal


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

    def emit(n: int, result) -> None:
        """Print one command's events, or its refusal (the script goes on)."""
        if isinstance(result, RuleViolation):
            why = result.reason if result.detail is None else f"{result.reason} ({result.detail})"
            out.write(dumps({"refused": why, "rule": result.rule, "line": n}) + "\n")
        elif result:
            out.write("\n".join(dumps(e) for e in result) + "\n")
        out.flush()

    def one_by_one(batch: list[tuple[int, dict]]) -> int | None:
        """Apply and print each command; the exit status if one stops the script."""
        for n, command in batch:
            try:
                result = apply(command)
            except RuleViolation as exc:
                result = exc
            except CommandError as exc:
                return _fail(f"{name}:{n}: {exc}")
            except failures as exc:
                return _fail(f"{name}:{n}: journal error: {exc}")
            emit(n, result)
        return None

    def in_one_commit(batch: list[tuple[int, dict]]) -> int | None:
        """Commit the batch at once and print it; if something in it stops the script, nothing
        of it was committed: play it again one by one, which commits the commands before the
        one that stops it and names that one, as without batches."""
        try:
            results = journal.apply_batch([command for _, command in batch])
        except (CommandError, *failures):
            return one_by_one(batch)
        for (n, _), result in zip(batch, results, strict=True):
            emit(n, result)
        return None

    flush = in_one_commit if journal is not None and source is not sys.stdin else one_by_one
    size = BATCH if flush is in_one_commit else 1
    try:
        batch: list[tuple[int, dict]] = []
        for n, raw in enumerate(source, start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            try:
                command = json.loads(line)
            except json.JSONDecodeError as exc:
                status = flush(batch)  # the lines before it are played first, as they came
                return status if status is not None else _fail(
                    f"{name}:{n}: malformed JSON ({exc.msg} at column {exc.colno}); each line "
                    f"must be one JSON object like {{\"command\": \"throw\", \"dice\": [3, 4]}}")
            batch.append((n, command))
            if len(batch) >= size:
                status = flush(batch)
                if status is not None:
                    return status
                batch = []
        status = flush(batch)
        if status is not None:
            return status
        out.write(dumps({"state": current_game().state()}) + "\n")
        out.flush()
        return 0
    finally:
        if source is not sys.stdin:
            source.close()
        if journal is not None:
            journal.close()
