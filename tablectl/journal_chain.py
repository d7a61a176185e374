"""The journal's hash chain checked over a range of rows, in this process or in a worker.

Each row stores its ``prev_hash``, so a row's own check (its hash from its content, its
``prev_hash`` equal to the stored hash of the row before) needs nothing but the stored hashes:
ranges of rows can be checked independently and their ends joined afterwards. A long journal's
start checks its ranges in parallel processes (``tablectl.journal`` joins them); a short one,
or a machine where a worker cannot start, checks the whole journal as one range.

This module imports nothing but the standard library and runs as a script: a worker is a fresh
interpreter (``python -I -S journal_chain.py``, a spawn, never a fork: a table has threads)
that reads one request on stdin and writes its answer on stdout (``marshal``: the parent is the
only reader). It is started that way rather than through ``multiprocessing`` so that it does not
import the parent's main module or tablectl's packages.
"""

from __future__ import annotations

# A worker imports only this: its start (about a tenth of a second's imports with json,
# dataclasses and subprocess, a few hundredths without) is paid once per range.
import hashlib
import marshal
import sqlite3
import sys
from collections.abc import Container

# The message row_hash hashes ("\n".join of prev_hash, seq, time, command, events, extra),
# concatenated by SQLite from the stored UTF-8 texts: one bytes object a row instead of six,
# and nothing decoded or encoded again.
_CHAIN_SQL = ("SELECT seq, prev_hash, hash, prev_hash || char(10) || seq || char(10) || time || "
              "char(10) || command || char(10) || events || char(10) || extra FROM journal")


class ChainPart:
    """What checking one range of rows found, before it is joined to the ranges around it.

    first: the range's first row as (seq, prev_hash, whether its hash matches its content);
    None when the range holds no row. Its gap and link are checked by whoever joins the ranges.
    problems: (kind, seq, expected seq) for each bad row after the first, in order; kind is
    gap | link | hash, the expected seq the one the row before it implied.
    last_seq, last_hash: the range's last row read. hashes: the stored hashes of the rows asked
    for (``wanted``), by seq. error: why reading the rows failed part way (the rows before it
    are counted), None when all were read."""

    __slots__ = ("first", "problems", "rows", "last_seq", "last_hash", "hashes", "error")

    def __init__(self, first: tuple[int, str, bool] | None = None,
                 problems: list[tuple[str, int, int]] | None = None, rows: int = 0,
                 last_seq: int = 0, last_hash: str = "", hashes: dict[int, str] | None = None,
                 error: str | None = None) -> None:
        self.first = first
        self.problems = [] if problems is None else problems
        self.rows = rows
        self.last_seq = last_seq
        self.last_hash = last_hash
        self.hashes = {} if hashes is None else hashes
        self.error = error

    def to_bytes(self) -> bytes:
        return marshal.dumps((self.first, self.problems, self.rows, self.last_seq,
                              self.last_hash, self.hashes, self.error))

    @classmethod
    def from_bytes(cls, data: bytes) -> ChainPart:
        first, problems, rows, last_seq, last_hash, hashes, error = marshal.loads(data)
        return cls(first, problems, rows, last_seq, last_hash, hashes, error)


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


def start_worker(uri: str, lo: int, hi: int | None, wanted: list[int]):
    """Start a worker process checking rows ``lo..hi`` of the journal at the SQLite URI ``uri``
    (opened read-only); ``collect`` reads its answer. Raises OSError when no interpreter
    can start."""
    import subprocess  # the parent's alone: a worker does not need it

    worker = subprocess.Popen([sys.executable, "-I", "-S", __file__], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        worker.stdin.write(marshal.dumps((uri, lo, hi, wanted)))
        worker.stdin.close()
        worker.stdin = None  # sent: communicate() only reads the answer
    except OSError:
        worker.kill()
        worker.wait()
        raise
    return worker


def collect(worker, timeout: float) -> ChainPart | None:
    """A worker's answer; None when it failed or gave none within ``timeout`` seconds (the
    caller then checks that range itself)."""
    import subprocess

    try:
        out, _ = worker.communicate(timeout=timeout)
        if worker.returncode != 0:
            return None
        return ChainPart.from_bytes(out)
    except (OSError, ValueError, EOFError, TypeError, subprocess.TimeoutExpired):
        worker.kill()
        worker.wait()
        return None


def _serve() -> int:
    uri, lo, hi, wanted = marshal.loads(sys.stdin.buffer.read())
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        part = check_range(conn, lo, hi, set(wanted))
    finally:
        conn.close()
    sys.stdout.buffer.write(part.to_bytes())
    return 0


if __name__ == "__main__":
    sys.exit(_serve())
