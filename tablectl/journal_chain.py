"""The journal's hash chain checked over a range of rows, in this process or in a worker.

Each row stores its ``prev_hash``, so a row's own check (its hash from its content, its
``prev_hash`` equal to the stored hash of the row before) needs nothing but the stored hashes:
ranges of rows can be checked independently and their ends joined afterwards. A long journal's
start checks its ranges in parallel processes (``tablectl.journal`` joins them); a short one,
or a machine where a worker cannot start, checks the whole journal as one range.

This module imports nothing but the standard library and runs as a script: a worker is a fresh
interpreter (``python -I -S journal_chain.py``, a spawn, never a fork: a table has threads)
that reads one JSON request on stdin and writes one JSON answer on stdout. It is started that
way rather than through ``multiprocessing`` so that it does not import the parent's main module
or tablectl's packages: its start is the interpreter's alone.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from collections.abc import Container
from dataclasses import dataclass, field

# The message row_hash hashes ("\n".join of prev_hash, seq, time, command, events, extra),
# concatenated by SQLite from the stored UTF-8 texts: one bytes object a row instead of six,
# and nothing decoded or encoded again.
_CHAIN_SQL = ("SELECT seq, prev_hash, hash, prev_hash || char(10) || seq || char(10) || time || "
              "char(10) || command || char(10) || events || char(10) || extra FROM journal")


@dataclass
class ChainPart:
    """What checking one range of rows found, before it is joined to the ranges around it.

    first: the range's first row as (seq, prev_hash, whether its hash matches its content);
    None when the range holds no row. Its gap and link are checked by whoever joins the ranges.
    problems: (kind, seq, expected seq) for each bad row after the first, in order; kind is
    gap | link | hash, the expected seq the one the row before it implied.
    last_seq, last_hash: the range's last row read. hashes: the stored hashes of the rows asked
    for (``wanted``), by seq. error: why reading the rows failed part way (the rows before it
    are counted), None when all were read."""

    first: tuple[int, str, bool] | None = None
    problems: list[tuple[str, int, int]] = field(default_factory=list)
    rows: int = 0
    last_seq: int = 0
    last_hash: str = ""
    hashes: dict[int, str] = field(default_factory=dict)
    error: str | None = None

    def to_json(self) -> dict:
        return {"first": self.first, "problems": self.problems, "rows": self.rows,
                "last_seq": self.last_seq, "last_hash": self.last_hash,
                "hashes": [[s, h] for s, h in self.hashes.items()], "error": self.error}

    @classmethod
    def from_json(cls, data: dict) -> ChainPart:
        first = data["first"]
        return cls(first=None if first is None else (int(first[0]), str(first[1]),
                                                     bool(first[2])),
                   problems=[(str(k), int(s), int(e)) for k, s, e in data["problems"]],
                   rows=int(data["rows"]), last_seq=int(data["last_seq"]),
                   last_hash=str(data["last_hash"]),
                   hashes={int(s): str(h) for s, h in data["hashes"]}, error=data["error"])


def _text(value: object) -> str:
    # surrogateescape: two different stored byte strings never read as the same text
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def check_range(conn: sqlite3.Connection, lo: int | None, hi: int | None,
                wanted: Container[int] | None) -> ChainPart:
    """Check the rows with ``lo <= seq <= hi`` (None: no bound) on ``conn``.

    wanted: the seqs whose stored hash the caller needs back (the head record's, the
    snapshots'); None: every row's."""
    part = ChainPart()
    where, params = [], []
    if lo is not None:
        where.append("seq >= ?")
        params.append(lo)
    if hi is not None:
        where.append("seq <= ?")
        params.append(hi)
    sql = _CHAIN_SQL + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY seq"
    sha256 = hashlib.sha256
    problems = part.problems
    hashes: dict[int, bytes] = {}
    rows = 0
    seq = hash_ = None
    factory = conn.text_factory
    conn.text_factory = bytes  # the stored UTF-8 bytes are hashed as they are
    try:
        cursor = conn.execute(sql, params)
        for seq, prev_hash, hash_, message in cursor:
            # the first row's link is the joiner's to check: its row before is in another range
            part.first = (seq, _text(prev_hash),
                          message is not None and sha256(message).hexdigest().encode() == hash_)
            rows = 1
            if wanted is None or seq in wanted:
                hashes[seq] = hash_
            break
        expected_seq = 0 if seq is None else seq + 1
        expected_prev = hash_
        # The check of every row: most of a long journal's start (docs/commands.md "Speed").
        for seq, prev_hash, hash_, message in cursor:
            # seq is the primary key, read in order: it can only jump ahead, never repeat
            if seq > expected_seq:
                problems.append(("gap", seq, expected_seq))
            elif prev_hash != expected_prev:
                problems.append(("link", seq, expected_seq))
            elif message is None or sha256(message).hexdigest().encode() != hash_:
                problems.append(("hash", seq, expected_seq))
            rows += 1
            if wanted is None or seq in wanted:
                hashes[seq] = hash_
            expected_prev = hash_
            expected_seq = seq + 1
    except sqlite3.DatabaseError as exc:
        part.error = str(exc)
    finally:
        conn.text_factory = factory
    part.rows = rows
    if rows:
        part.last_seq = seq  # the last row read: a failed read leaves it as it was
        part.last_hash = _text(expected_prev)
    part.hashes = {s: _text(h) for s, h in hashes.items()}
    return part


def start_worker(uri: str, lo: int, hi: int | None, wanted: list[int]) -> subprocess.Popen:
    """Start a worker process checking rows ``lo..hi`` of the journal at the SQLite URI ``uri``
    (opened read-only); ``collect`` reads its answer. Raises OSError when no interpreter
    can start."""
    worker = subprocess.Popen([sys.executable, "-I", "-S", __file__], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    request = json.dumps({"uri": uri, "lo": lo, "hi": hi, "wanted": wanted})
    try:
        worker.stdin.write(request.encode())
        worker.stdin.close()
    except OSError:
        worker.kill()
        worker.wait()
        raise
    return worker


def collect(worker: subprocess.Popen) -> ChainPart | None:
    """A worker's answer; None when it failed (the caller checks that range itself)."""
    try:
        out = worker.stdout.read()
        worker.stdout.close()
        if worker.wait() != 0:
            return None
        return ChainPart.from_json(json.loads(out))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        worker.kill()
        worker.wait()
        return None


def _serve() -> int:
    request = json.loads(sys.stdin.buffer.read())
    conn = sqlite3.connect(request["uri"], uri=True, isolation_level=None)
    try:
        part = check_range(conn, request["lo"], request["hi"], set(request["wanted"]))
    finally:
        conn.close()
    sys.stdout.write(json.dumps(part.to_json()))
    return 0


if __name__ == "__main__":
    sys.exit(_serve())
