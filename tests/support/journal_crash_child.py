"""The crash test's child: plays a session file through a journal, resuming where it stopped.

    python tests/support/journal_crash_child.py SESSION.jsonl JOURNAL [--snapshot-every N]

On start it opens (verifies and replays) the journal and prints
``resume SEQ STATE_SHA256 MONEY`` (the state it rebuilt); then it applies the session's commands
from ``SEQ + 1`` on, printing each command's seq on its own line only after ``Journal.apply``
returned, i.e. after the commit: what this prints is what was acknowledged. It ends with
``done SEQ``. The parent kills it with SIGKILL at random moments.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script from a checkout

from tablectl.journal import Journal, canonical  # noqa: E402


def state_digest(game) -> str:
    """sha256 of the game's canonical snapshot: equal digests, equal states."""
    return hashlib.sha256(canonical(game.snapshot()).encode()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("session")
    parser.add_argument("journal")
    parser.add_argument("--snapshot-every", type=int, default=200)
    args = parser.parse_args(argv)
    with open(args.session, encoding="utf-8") as fh:
        commands = [json.loads(line) for line in fh]
    out = sys.stdout
    journal = Journal.open(args.journal, snapshot_every=args.snapshot_every)
    game = journal.game
    out.write(f"resume {journal.seq} {state_digest(game)} {game.money_total()}\n")
    out.flush()
    for command in commands[journal.seq:]:
        journal.apply(command)
        out.write(f"{journal.seq}\n")
        out.flush()
    out.write(f"done {journal.seq}\n")
    out.flush()
    journal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
