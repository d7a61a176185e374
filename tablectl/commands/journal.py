"""``tablectl journal verify|export|audit``: check, export and audit a table's journal.

The journal file is given as a positional argument or with ``--journal``. None of these
subcommands changes the journal (they read it on a read-only connection).

Exit status: 0 sound / done; 1 the journal is damaged (verify; export wrote the sound part
only); 2 the file cannot be used at all (missing, not a journal, newer schema) or bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _add_journal_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="JOURNAL", help="the journal file (SQLite)")
    parser.add_argument("--journal", dest="journal_opt", metavar="JOURNAL",
                        help="the journal file (same as the positional argument)")


def journal_path(args: argparse.Namespace, command: str | None = None) -> str | None:
    """The journal named on the command line, or None after printing what is wrong.

    :param command: the command line's words before the file ("tablectl recall"), named in
        the message; by default ``tablectl journal`` and its action.
    """
    given = [p for p in (args.file, args.journal_opt) if p]
    command = command or f"tablectl journal {args.journal_command}"
    if not given:
        print(f"{command}: give the journal file: {command} FILE (or --journal FILE); the "
              f"table's journal is the [journal] path in firmware_config/table.toml",
              file=sys.stderr)
        return None
    if len(given) == 2 and given[0] != given[1]:
        print(f"{command}: two different journals given ({given[0]}, {given[1]}); give one",
              file=sys.stderr)
        return None
    return given[0]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "journal", help="verify, export or audit the table's journal",
        description="Verify, export or audit a table's journal (read-only).")
    sub = parser.add_subparsers(dest="journal_command", required=True, metavar="ACTION")

    verify = sub.add_parser(
        "verify", help="check integrity and the hash chain (exit 0 only if sound)",
        description="Check a journal: SQLite integrity, schema, hash chain (gaps, duplicates, "
        "edits), the head record (rows lost from the end), snapshots, and that replaying every "
        "command reproduces the recorded events. Exit 0 only if sound.")
    _add_journal_arg(verify)
    verify.add_argument("--no-replay", action="store_true",
                        help="skip the replay check (structure and chain only)")
    verify.add_argument("--json", action="store_true", help="print the report as one JSON object")
    verify.set_defaults(func=_verify)

    export = sub.add_parser(
        "export", help="write the commands as JSON lines that `tablectl play` replays",
        description="Write the journal's commands, one JSON object a line, the script form "
        "`tablectl play` reads: replaying it gives the same state. From a damaged journal, the "
        "sound commands up to the first damaged row are written and the exit status is 1.")
    _add_journal_arg(export)
    export.add_argument("-o", "--output", metavar="OUT", default="-",
                        help="where to write (default: standard output)")
    export.set_defaults(func=_export)

    audit = sub.add_parser(
        "audit", help="every operator ruling, override and sanction: who, when, why",
        description="List every operator ruling and override and every sanction (warn, "
        "substitute, bar) recorded in the journal, with who, when and why.")
    _add_journal_arg(audit)
    audit.add_argument("--json", action="store_true", help="one JSON object per entry a line")
    audit.set_defaults(func=_audit)


def _verify(args: argparse.Namespace) -> int:
    from tablectl.journal import JournalError, verify

    path = journal_path(args)
    if path is None:
        return 2
    try:
        report = verify(path, replay=not args.no_replay)
    except JournalError as exc:
        print(f"tablectl journal verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), sort_keys=True))
    else:
        print(report.summary())
        if not report.ok:
            print(f"To recover: tablectl journal export {path} -o recovered.jsonl, then "
                  "tablectl play recovered.jsonl --journal NEW_FILE", file=sys.stderr)
    return 0 if report.ok else 1


def _export(args: argparse.Namespace) -> int:
    from tablectl.journal import JournalError, export_commands

    path = journal_path(args)
    if path is None:
        return 2
    try:
        if args.output == "-":
            written, report = export_commands(path, sys.stdout)
        else:
            # write to a temporary name first: a failed export never leaves a half file behind
            import os

            tmp = f"{args.output}.part"
            with open(tmp, "w", encoding="utf-8") as out:
                written, report = export_commands(path, out)
                os.fsync(out.fileno())
            os.replace(tmp, args.output)
    except JournalError as exc:
        print(f"tablectl journal export: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        folder = Path(args.output).parent
        why = (f"the folder {folder} does not exist; create it or give another -o"
               if not folder.is_dir() else exc.strerror or str(exc))
        print(f"tablectl journal export: cannot write {args.output}: {why}", file=sys.stderr)
        return 2
    if not report.ok:
        print(f"tablectl journal export: the journal is damaged; wrote the {written} sound "
              f"command(s) up to row {report.sound_seq} of {report.rows}:", file=sys.stderr)
        for problem in report.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"exported {written} command(s) from {path}", file=sys.stderr)
    return 0


def _audit(args: argparse.Namespace) -> int:
    from tablectl.journal import JournalError
    from tablectl.recall import audit, format_audit

    path = journal_path(args)
    if path is None:
        return 2
    try:
        entries = audit(path)
    except JournalError as exc:
        print(f"tablectl journal audit: {exc}", file=sys.stderr)
        return 2
    for entry in entries:
        print(json.dumps(entry, sort_keys=True) if args.json else format_audit(entry))
    if not entries and not args.json:
        print("no operator overrides or sanctions recorded")
    return 0
