"""Helpers of the journal's tests: a short scripted evening and a way to run ``tablectl``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tablectl.journal import canonical

ROOT = Path(__file__).resolve().parents[2]

# three players seated, ann shoots 20 (R-C1), bob fades it (R-C2), a come-out 7: natural (R-B2),
# the center settled (R-C7)
OPENING = [
    {"command": "join", "player": "ann", "buy_in": 200},
    {"command": "join", "player": "bob", "buy_in": 200},
    {"command": "join", "player": "cy", "buy_in": 200},
    {"command": "shooter", "player": "ann"},
    {"command": "center_bet", "amount": 20},
    {"command": "fade", "player": "bob", "amount": 20},
    {"command": "throw", "dice": [3, 4]},
]


def run_tablectl(*args: str, stdin: str | None = None, timeout: float = 60) -> (
        subprocess.CompletedProcess):
    """Run ``tablectl ARGS`` in a child process (as a user would), text output."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tablectl.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)


def script_text(commands: list[dict]) -> str:
    return "".join(json.dumps(c) + "\n" for c in commands)


def file_bytes(path: Path) -> dict[str, bytes]:
    """The journal's files (db, -wal, -head) as bytes: to show nothing changed them."""
    out = {}
    for suffix in ("", "-wal", "-head"):
        f = path.with_name(path.name + suffix)
        if f.exists():
            out[suffix] = f.read_bytes()
    return out


def same_state(a, b) -> bool:
    return canonical(a.snapshot()) == canonical(b.snapshot())


def rewrite_command(path: Path, seq: int, command: dict) -> None:
    """Put ``command`` in row ``seq`` and chain every hash after it again (rows, snapshots,
    the head record), as a tablectl whose engine accepted it would have written it: the file
    is sound, only replaying it under this engine can tell."""
    import sqlite3

    from tablectl.journal import _encode_head, genesis_hash, row_hash, snapshot_hash

    db = sqlite3.connect(path)
    try:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        db.execute("UPDATE journal SET command = ? WHERE seq = ?", (canonical(command), seq))
        prev = genesis_hash(meta["created"], meta["rules"])
        hashes = {}
        for row in db.execute("SELECT seq, time, command, events, extra FROM journal "
                              "ORDER BY seq").fetchall():
            hashes[row[0]] = row_hash(prev, *row)
            db.execute("UPDATE journal SET prev_hash = ?, hash = ? WHERE seq = ?",
                       (prev, hashes[row[0]], row[0]))
            prev = hashes[row[0]]
        for n, state in db.execute("SELECT seq, state FROM snapshots").fetchall():
            db.execute("UPDATE snapshots SET row_hash = ?, state_hash = ? WHERE seq = ?",
                       (hashes[n], snapshot_hash(hashes[n], state), n))
        db.commit()
    finally:
        db.close()
    last = max(hashes)
    path.with_name(path.name + "-head").write_bytes(_encode_head(last, hashes[last]))
