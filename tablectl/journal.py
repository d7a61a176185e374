"""The table's journal: every accepted command in a crash-safe SQLite file.

One row per accepted command, written in its own transaction (WAL mode, ``synchronous=FULL``)
together with the events the game answered and, for a throw, the camera's observation and the
path of its annotated snapshot image. ``Journal.apply`` returns the events only after the commit,
so whatever was acknowledged (to the dashboard, the lights, a script's output) is on disk.

Each row carries a sequence number and ``hash = sha256(prev_hash, seq, time, command, events,
extra)``; the first row chains to a genesis hash over the journal's schema, creation time and
table rules. A gap, a duplicate, an edited or a reordered row breaks the chain. A small sidecar
file ``<journal>-head`` records the last committed (seq, hash) after each commit, so rows lost
from the end (a truncated ``-wal`` file, an older copy put back) are detected too.

Opening a journal verifies it first (``PRAGMA integrity_check``, schema version, chain, head,
snapshots) on a read-only connection, so a damaged file is never modified, and then rebuilds the
game from the newest snapshot plus the rows after it (snapshots every ``snapshot_every``
commands keep a long evening's start fast). Replayed rows must produce the events they recorded.

See ``docs/journal.md`` for the file format and the recovery procedure.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
import time as _time
import zlib
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tablectl.game import CommandError, Game, RuleViolation, TableRules
from tablectl.history import audit_rows, recall_rows
from tablectl.journal_chain import ChainPart, check_range, collect, start_worker

log = logging.getLogger("tablectl.journal")

SCHEMA_VERSION = 1
# PRAGMA application_id: "tblj", so a journal is recognisable even before its tables are read.
APPLICATION_ID = 0x74626C6A
DEFAULT_SNAPSHOT_EVERY = 200
SNAPSHOTS_KEPT = 3  # older snapshots are dropped: the newest good one is all a start needs
HEAD_SUFFIX = "-head"
_HEAD_SIZE = 128
_SQLITE_MAGIC = b"SQLite format 3\x00"

RECOVERY_HINT = (
    "Nothing was changed. To see every problem run `tablectl journal verify {path}`; to recover, "
    "run `tablectl journal export {path} -o recovered.jsonl` (it writes the sound commands up to "
    "the first damaged row), then `tablectl play recovered.jsonl --journal NEW_FILE`, and keep "
    "the damaged file for inspection."
)

_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE journal (
    seq       INTEGER PRIMARY KEY,   -- 1, 2, 3, ... with no gap
    time      TEXT NOT NULL,         -- wall clock at commit, ISO 8601 UTC
    command   TEXT NOT NULL,         -- canonical JSON of the command as applied
    events    TEXT NOT NULL,         -- canonical JSON list of the events it produced
    extra     TEXT NOT NULL,         -- canonical JSON: observation, image path (throws)
    prev_hash TEXT NOT NULL,
    hash      TEXT NOT NULL
);
CREATE TABLE snapshots (
    seq        INTEGER PRIMARY KEY,  -- the state right after this row was applied
    row_hash   TEXT NOT NULL,        -- that row's hash: binds the snapshot to the chain
    state      TEXT NOT NULL,        -- canonical JSON of Game.snapshot()
    state_hash TEXT NOT NULL         -- sha256(row_hash, state)
);
"""


class JournalError(Exception):
    """The journal cannot be opened, read or written; the message says why and what to do."""


def canonical(value: Any) -> str:
    """The canonical JSON text of ``value`` (sorted keys, no spaces): what the hashes cover."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def row_hash(prev_hash: str, seq: int, time: str, command: str, events: str, extra: str) -> str:
    """The hash of a row from its stored texts. The JSON texts hold no raw newline, so the
    newline-joined message is unambiguous."""
    message = "\n".join((prev_hash, str(seq), time, command, events, extra))
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


def genesis_hash(created: str, rules_json: str) -> str:
    """The ``prev_hash`` of row 1: binds the journal's creation time and table rules."""
    message = f"tablectl-journal/{SCHEMA_VERSION}\n{created}\n{rules_json}"
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


def snapshot_hash(row_hash_: str, state_json: str) -> str:
    return hashlib.sha256(f"{row_hash_}\n{state_json}".encode()).hexdigest()


def iso_time(timestamp: float) -> str:
    """Seconds since the epoch as ISO 8601 UTC with microseconds (the ``time`` of a row)."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="microseconds").replace(
        "+00:00", "Z")


def rules_mapping(rules: TableRules) -> dict[str, Any]:
    """The table rules as a plain mapping (what ``TableRules.from_mapping`` reads back)."""
    for name in ("to_mapping", "to_dict", "as_dict"):
        method = getattr(rules, name, None)
        if callable(method):
            return dict(method())
    return dataclasses.asdict(rules)


@dataclass(frozen=True)
class Row:
    """One journal row. ``command``/``events``/``extra`` are decoded; ``raw`` holds the stored
    texts the hash covers."""

    seq: int
    time: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    extra: dict[str, Any]
    prev_hash: str
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "time": self.time, "command": self.command,
                "events": self.events, "extra": self.extra, "hash": self.hash}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a journal. ``seq`` is the first row concerned (None: the file)."""

    kind: str  # file | integrity | gap | link | hash | head | snapshot | replay
    message: str
    seq: int | None = None

    def __str__(self) -> str:
        where = f"row {self.seq}: " if self.seq is not None else ""
        return f"{self.kind}: {where}{self.message}"


@dataclass
class Report:
    """What ``verify`` found. ``sound_seq`` is the last row up to which everything checks."""

    path: str
    rows: int = 0
    head_seq: int = 0
    head_hash: str = ""
    snapshots: int = 0
    replayed: bool = False
    sound_seq: int = 0
    head_record: str = "missing"  # ok | missing | unreadable | behind (crash after commit)
    problems: list[Problem] = field(default_factory=list)
    # how many processes checked the chain: how the check ran, not what it found
    chain_processes: int = field(default=1, compare=False)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.ok:
            checks = "integrity ok, chain intact"
            if self.replayed:
                checks += ", replay reproduces every recorded event"
            return (f"{self.path}: sound: {self.rows} commands, {checks}, "
                    f"{self.snapshots} snapshots, head seq {self.head_seq} "
                    f"hash {self.head_hash[:16]} (head record {self.head_record})")
        lines = [f"{self.path}: DAMAGED ({len(self.problems)} problem(s)); "
                 f"sound up to row {self.sound_seq} of {self.rows}:"]
        lines += [f"  {p}" for p in self.problems]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "ok": self.ok, "rows": self.rows, "head_seq": self.head_seq,
                "head_hash": self.head_hash, "snapshots": self.snapshots,
                "replayed": self.replayed, "sound_seq": self.sound_seq,
                "head_record": self.head_record,
                "problems": [{"kind": p.kind, "seq": p.seq, "message": p.message}
                             for p in self.problems]}


# --------------------------------------------------------------------------- file level helpers

def _head_path(path: Path) -> Path:
    return path.with_name(path.name + HEAD_SUFFIX)


def _encode_head(seq: int, hash_: str) -> bytes:
    body = f"tablectl-head 1 {seq} {hash_}"
    record = f"{body} {zlib.crc32(body.encode()):08x}\n".encode()
    return record.ljust(_HEAD_SIZE, b" ")


def read_head(path: Path) -> tuple[str, int, str]:
    """The head record beside a journal: (status, seq, hash); status ok | missing | unreadable.
    A torn record (power lost while it was written) reads as unreadable, never as a wrong head."""
    try:
        data = _head_path(path).read_bytes()
    except FileNotFoundError:
        return "missing", 0, ""
    except OSError:
        return "unreadable", 0, ""
    parts = data.decode("ascii", "replace").split()
    if len(parts) != 5 or parts[0] != "tablectl-head" or parts[1] != "1":
        return "unreadable", 0, ""
    body = " ".join(parts[:4])
    if f"{zlib.crc32(body.encode()):08x}" != parts[4] or not parts[2].isdigit():
        return "unreadable", 0, ""
    return "ok", int(parts[2]), parts[3]


def _check_file_kind(path: Path) -> None:
    if path.is_dir():
        raise JournalError(f"journal {path} is a directory; give the journal's file name")
    try:
        with path.open("rb") as fh:
            magic = fh.read(len(_SQLITE_MAGIC))
    except PermissionError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}; check its permissions") \
            from exc
    if magic and magic != _SQLITE_MAGIC:
        raise JournalError(f"{path} is not a tablectl journal (not an SQLite database); "
                           "check the file name")


def _connect_ro(path: Path) -> tuple[sqlite3.Connection, Callable[[], None]]:
    """A read-only connection that never changes the journal's files (no checkpoint on close,
    no WAL recovery written back). Falls back to reading a private copy when the journal lies
    on a medium SQLite cannot open read-only in place (e.g. a read-only disk with a -wal file)."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = None
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn, conn.close
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        if "not a database" in str(exc) or "malformed" in str(exc):
            raise JournalError(f"{path} is not a readable SQLite database ({exc}). "
                               + RECOVERY_HINT.format(path=path)) from exc
    tmp = Path(tempfile.mkdtemp(prefix="tablectl-journal-"))
    copy = tmp / path.name
    for suffix in ("", "-wal"):
        src = path.with_name(path.name + suffix)
        if src.exists():
            shutil.copyfile(src, copy.with_name(copy.name + suffix))
    try:
        conn = sqlite3.connect(f"file:{quote(str(copy))}?mode=ro", uri=True, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise JournalError(f"cannot read journal {path}: {exc}") from exc

    def close() -> None:
        conn.close()
        shutil.rmtree(tmp, ignore_errors=True)

    return conn, close


def _check_schema(conn: sqlite3.Connection, path: Path) -> bool:
    """Refuse what is not a journal of a schema this tablectl reads. True for an empty database
    (a journal whose creation was cut off before its first commit: nothing recorded)."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise JournalError(
            f"journal {path} has schema version {version}, written by a newer tablectl; this "
            f"tablectl reads versions up to {SCHEMA_VERSION}. Open it with the tablectl that "
            "wrote it (or a newer one); it was not changed.")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables and version == 0 and app_id == 0:
        return True
    if app_id != APPLICATION_ID or version < 1 or not {"meta", "journal", "snapshots"} <= tables:
        raise JournalError(f"{path} is an SQLite database but not a tablectl journal "
                           f"(application_id {app_id:#x}, schema {version}); check the file name")
    return False


def _meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta"))


def _decode_row(r: tuple) -> Row:
    seq, time, command, events, extra, prev_hash, hash_ = r
    return Row(seq, time, json.loads(command), json.loads(events), json.loads(extra),
               prev_hash, hash_)


_ROW_COLUMNS = "seq, time, command, events, extra, prev_hash, hash"


# --------------------------------------------------------------------------- verification

# A long journal's chain is checked in parallel processes from this many rows on, by at most
# this many processes; below it a worker's start costs more than it saves (docs/commands.md
# "Speed" has the break-even measured).
PARALLEL_CHAIN_ROWS = 30_000
MAX_CHAIN_PROCESSES = 4
# the least a worker is waited for once the parent has checked its own range
WORKER_GRACE_S = 30.0


def _chain_processes() -> int:
    """Processes to check a long chain with: one per CPU this process may run on (a Raspberry
    Pi has 4); 1 in a frozen interpreter, which cannot start a worker script."""
    if getattr(sys, "frozen", False) or not sys.executable:
        return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_CHAIN_PROCESSES))


class _IntegrityCheck:
    """``PRAGMA integrity_check`` on a read-only connection of its own, in a thread, while the
    caller reads the chain: SQLite lets go of the GIL while it steps, so a start's wall time
    loses the check's share. Where no second connection opens, it runs on the caller's
    connection when its findings are asked for."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._result: list[Problem] | None = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        uri = _connection_uri(conn)
        if uri is not None:
            self._thread = threading.Thread(target=self._run, args=(uri,),
                                            name="journal-integrity", daemon=True)
            self._thread.start()

    def _run(self, uri: str) -> None:
        try:
            own = sqlite3.connect(uri, uri=True, isolation_level=None)
        except sqlite3.Error:
            return  # checked on the caller's connection instead
        try:
            self._result = _integrity_check(own)
        except BaseException as exc:  # raised to the caller, as on its own connection
            self._error = exc
        finally:
            own.close()

    def problems(self) -> list[Problem]:
        """What the check found (waits for it); raises what the check raised."""
        if self._thread is not None:
            self._thread.join()
        if self._error is not None:
            raise self._error
        return self._result if self._result is not None else _integrity_check(self._conn)


def _integrity_check(conn: sqlite3.Connection) -> list[Problem]:
    try:
        integrity = [r[0] for r in conn.execute("PRAGMA integrity_check(20)")]
    except sqlite3.DatabaseError as exc:  # a page so damaged that the check cannot go on
        return [Problem("integrity", f"the integrity check stopped: {exc}")]
    found = []
    if integrity != ["ok"]:
        for line in integrity:
            for part in line.splitlines():
                if part.strip() and not part.startswith("***"):
                    found.append(Problem("integrity", part.strip()))
    return found


def _connection_uri(conn: sqlite3.Connection) -> str | None:
    """A read-only URI of the database file ``conn`` reads (a private copy's, when the journal
    is read through one); None for a database without a file."""
    try:
        files = {name: file for _, name, file in conn.execute("PRAGMA database_list")}
    except sqlite3.Error:
        return None
    file = files.get("main")
    return f"file:{quote(file)}?mode=ro" if file else None


@dataclass
class _Chain:
    """The chain check's findings, its ranges joined."""

    problems: list[Problem] = field(default_factory=list)
    rows: int = 0
    sound_seq: int = 0
    last_seq: int = 0
    last_hash: str = ""
    hashes: dict[int, str] = field(default_factory=dict)
    unreadable: bool = False
    processes: int = 1


_CHAIN_MESSAGES = {
    "link": "its prev_hash does not match the row before (a row was removed, duplicated, "
            "inserted or replaced)",
    "hash": "its content does not match its hash (the row was edited)",
}


def _chain_problem(kind: str, seq: int, expected_seq: int) -> Problem:
    if kind == "gap":
        return Problem("gap", f"rows {expected_seq}..{seq - 1} are missing", seq)
    return Problem(kind, _CHAIN_MESSAGES[kind], seq)


def _check_chain(conn: sqlite3.Connection, genesis: str, wanted: set[int] | None,
                 processes: int, parallel_rows: int) -> _Chain:
    """Every row's hash and link, from the genesis hash on: in ``processes`` ranges checked at
    once when the journal has ``parallel_rows`` rows or more, else in one."""
    ranges: list[tuple[int | None, int | None]] = [(None, None)]
    uri = _connection_uri(conn) if processes > 1 and wanted is not None else None
    if uri is not None:
        try:  # the rows are 1..last in a sound journal: ranges of equal length
            last = conn.execute("SELECT max(seq) FROM journal").fetchone()[0]
        except sqlite3.DatabaseError:
            last = None  # the serial read reports it where it fails
        if last is not None and last >= max(parallel_rows, processes):
            step = last // processes
            cuts = [1 + i * step for i in range(1, processes)]
            ranges = [(None, cuts[0] - 1)]
            ranges += [(a, b - 1) for a, b in zip(cuts, cuts[1:], strict=False)]
            ranges.append((cuts[-1], None))
    workers: dict[int, Any] = {}
    for i, (lo, hi) in enumerate(ranges[1:], 1):
        try:
            workers[i] = start_worker(uri, lo, hi, sorted(wanted))
        except OSError as exc:
            log.info("cannot start a worker to check the journal's chain (%s): checked here", exc)
            break
    processes = 1
    try:
        began = _time.monotonic()
        parts = [check_range(conn, *ranges[0], wanted)]
        # a worker's range is as long as the parent's: one far slower than that is stuck (the
        # parent then checks its range itself; the report is the same, only later)
        deadline = _time.monotonic() + max(WORKER_GRACE_S, 10 * (_time.monotonic() - began))
        for i in range(1, len(ranges)):
            part = None
            if i in workers:
                part = collect(workers.pop(i), max(0.0, deadline - _time.monotonic()))
            if part is None:
                part = check_range(conn, *ranges[i], wanted)  # its worker failed: here
            else:
                processes += 1
            parts.append(part)
    finally:
        for worker in workers.values():  # only when the check was interrupted
            worker.kill()
            worker.wait()
    chain = _join(parts, genesis)
    chain.processes = processes
    return chain


def _join(parts: list[ChainPart], genesis: str) -> _Chain:
    """The ranges' findings as one check of the whole chain would have them: each range's first
    row is checked against the row before it (the previous range's last), and a range that could
    not be read to its end ends the check there."""
    chain = _Chain()
    expected_seq, expected_prev = 1, genesis
    found: list[tuple[str, int, int]] = []
    for part in parts:
        if part.first is not None:
            seq, prev_hash, hash_ok = part.first
            if seq > expected_seq:
                found.append(("gap", seq, expected_seq))
            elif prev_hash != expected_prev:
                found.append(("link", seq, expected_seq))
            elif not hash_ok:
                found.append(("hash", seq, expected_seq))
            found += part.problems
            chain.rows += part.rows
            chain.hashes.update(part.hashes)
            chain.last_seq, chain.last_hash = part.last_seq, part.last_hash
            expected_seq, expected_prev = part.last_seq + 1, part.last_hash
        if part.error is not None:
            chain.unreadable = True
            break
    chain.problems = [_chain_problem(*f) for f in found]
    # sound up to the row before the first bad one (the row its expected seq follows)
    chain.sound_seq = found[0][2] - 1 if found else chain.last_seq
    if chain.unreadable:
        chain.problems.append(Problem("integrity", "reading the rows failed from here on: "
                                      f"{part.error}", expected_seq))
    return chain


# --------------------------------------------------------------------------- verification

def _verify_conn(conn: sqlite3.Connection, path: Path, report: Report, *, replay: bool,
                 processes: int | None = None, parallel_rows: int | None = None) -> None:
    """Fill ``report`` (on an open read-only connection). Stops at nothing: every problem found
    is listed, ``sound_seq`` the last row before the first one.

    processes: how many processes check the chain (None: one per CPU this process may use, at
    most ``MAX_CHAIN_PROCESSES``); parallel_rows: from how many rows on they do (None:
    ``PARALLEL_CHAIN_ROWS``). Both change the time a check takes, never its report."""
    at = len(report.problems)  # the integrity check's findings go first, whenever it ends
    integrity = _IntegrityCheck(conn)
    try:
        meta = _meta(conn)
        try:
            rules_json = meta["rules"]
            created = meta["created"]
        except KeyError as exc:
            report.problems.append(Problem("file", f"meta entry {exc} is missing"))
            return
        # the hashes of the rows the head record and the snapshots name, the only ones looked up
        # again (not all of them: a long journal's would be tens of MB); all if those cannot be
        # read
        status, head_seq, head_hash = read_head(path)
        try:
            wanted: set[int] | None = {s for (s,) in conn.execute("SELECT seq FROM snapshots")}
            wanted.add(head_seq)
        except sqlite3.DatabaseError:
            wanted = None  # reported with the snapshots below
        chain = _check_chain(conn, genesis_hash(created, rules_json), wanted,
                             _chain_processes() if processes is None else processes,
                             PARALLEL_CHAIN_ROWS if parallel_rows is None else parallel_rows)
    finally:
        report.problems[at:at] = integrity.problems()
    report.problems += chain.problems
    report.chain_processes = chain.processes
    hashes = chain.hashes
    unreadable = chain.unreadable
    report.rows = chain.rows
    report.sound_seq = chain.sound_seq
    if chain.rows:
        report.head_seq = chain.last_seq
        report.head_hash = chain.last_hash
    hash_at = hashes.get

    # The head record is written after each commit, so it may lag the file by one row after a
    # crash, but it may never be ahead of it or disagree with it.
    report.head_record = status
    if status == "ok" and not unreadable:
        if head_seq > report.head_seq:
            report.problems.append(Problem(
                "head", f"rows {report.head_seq + 1}..{head_seq} were committed but are gone "
                "(the -wal file was truncated or deleted, or an older copy of the journal was "
                "put back)", report.head_seq + 1))
        elif head_seq > 0 and hash_at(head_seq) != head_hash:
            report.problems.append(Problem(
                "head", "the committed row differs from this one (the journal was rewritten)",
                head_seq))
        elif head_seq < report.head_seq:
            report.head_record = "behind"
    elif status == "unreadable":
        log.warning("head record of %s is unreadable; cannot check for lost rows", path)
    # Snapshots: bound to a row of the chain and hashed.
    try:
        for seq, rhash, state, shash in conn.execute(
                "SELECT seq, row_hash, state, state_hash FROM snapshots ORDER BY seq"):
            report.snapshots += 1
            if unreadable and seq not in hashes:
                continue  # its row could not be read: already reported
            if hash_at(seq) != rhash:
                report.problems.append(Problem("snapshot", "snapshot is not bound to this row "
                                               "of the chain", seq))
            elif snapshot_hash(rhash, state) != shash:
                report.problems.append(Problem("snapshot", "snapshot content does not match its "
                                               "hash (edited)", seq))
    except sqlite3.DatabaseError as exc:
        report.problems.append(Problem("integrity", f"reading the snapshots failed: {exc}"))
    if replay and report.ok:
        _verify_replay(conn, report, rules_json)


def _verify_replay(conn: sqlite3.Connection, report: Report, rules_json: str) -> None:
    """Replay every row from the start: the events must be the recorded ones and every
    snapshot must equal the replayed state."""
    game = Game(rules=TableRules.from_mapping(json.loads(rules_json)))
    snaps = dict(conn.execute("SELECT seq, state FROM snapshots"))
    # the chain was checked first: the rows are seq 1, 2, ... so row seq is position seq - 1
    replayed = _replay_rows(game, conn.execute(f"SELECT {_ROW_COLUMNS} FROM journal ORDER BY "
                                               f"seq"), {seq - 1 for seq in snaps})
    seq = 0
    try:
        for row, _, produced in replayed:
            seq = row[0]
            if canonical(produced) != row[3]:
                report.problems.append(Problem("replay", "replaying it produces other events "
                                               "than the recorded ones", seq))
                return
            if seq in snaps and canonical(game.snapshot()) != snaps[seq]:
                report.problems.append(Problem("snapshot", "snapshot differs from the replayed "
                                               "state", seq))
                return
    except (RuleViolation, CommandError) as exc:
        report.problems.append(Problem("replay", f"the game refuses the recorded command "
                                       f"now: {exc}", seq + 1))
        return
    except Exception as exc:  # a rules engine that fails on it is a finding, not a crash
        report.problems.append(Problem("replay", f"the game fails on the recorded command: "
                                       f"{exc!r}", seq + 1))
        return
    report.replayed = True


def _replay_rows(game: Game, rows: Iterable[tuple], snapshots_after: Container[int] = ()
                 ) -> Iterator[tuple[tuple, dict[str, Any], list[dict[str, Any]]]]:
    """``Game.replay`` of journal rows (``_ROW_COLUMNS``): (row, its command decoded, the
    events replaying it gives) for each row in turn. ``snapshots_after``: positions (0: the
    first row given) after which the caller reads ``game.snapshot()``. A command the game
    refuses raises; the row replayed before it is the last one yielded."""
    pending: deque[tuple] = deque()  # the replay reads one command ahead of its events

    def commands() -> Iterator[dict[str, Any]]:
        for row in rows:
            command = json.loads(row[2])
            pending.append((row, command))
            yield command

    for produced in game.replay(commands(), snapshots_after=snapshots_after):
        row, command = pending.popleft()
        yield row, command, produced


def verify(path: str | os.PathLike[str], *, replay: bool = True, processes: int | None = None,
           parallel_rows: int | None = None) -> Report:
    """Check a journal without changing it: integrity, schema, hash chain, head record,
    snapshots and (``replay``) that replaying reproduces every recorded event.

    processes, parallel_rows: how many processes check the chain, from how many rows on (None:
    as a start does, see ``_verify_conn``); they change how long the check takes, not its
    report.

    Raises JournalError only when the file is not a journal at all (missing, not SQLite, not
    ours, newer schema); damage inside a journal is listed in the returned report."""
    conn, close, empty = _open_ro_checked(path)
    try:
        report = Report(str(path))
        if empty:
            status, head_seq, _ = read_head(Path(path))
            report.head_record = status
            if status == "ok" and head_seq > 0:
                report.problems.append(Problem(
                    "head", f"the journal is empty but rows 1..{head_seq} were committed to it "
                    "(lost or truncated)", 1))
        else:
            _verify_conn(conn, Path(path), report, replay=replay, processes=processes,
                         parallel_rows=parallel_rows)
        return report
    finally:
        close()


def read_rows(path: str | os.PathLike[str], *, since: int = 0) -> Iterator[Row]:
    """The rows of a journal in order (read-only), after sequence number ``since``."""
    return _read(path, f"SELECT {_ROW_COLUMNS} FROM journal WHERE seq > ? ORDER BY seq",
                 (since,))


def read_rows_desc(path: str | os.PathLike[str]) -> Iterator[Row]:
    """The rows of a journal from the newest back (read-only)."""
    return _read(path, f"SELECT {_ROW_COLUMNS} FROM journal ORDER BY seq DESC", ())


def _open_ro_checked(path: str | os.PathLike[str]) -> tuple[sqlite3.Connection, Callable,
                                                              bool]:
    """A read-only connection to a journal (refusing what is not one) and whether it is an
    empty database."""
    path = Path(path)
    if not path.exists():
        raise JournalError(f"journal {path} does not exist")
    _check_file_kind(path)
    conn, close = _connect_ro(path)
    try:
        empty = _check_schema(conn, path)
    except BaseException:
        close()
        raise
    return conn, close, empty


def _read(path: str | os.PathLike[str], sql: str, params: tuple) -> Iterator[Row]:
    conn, close, empty = _open_ro_checked(path)  # raised here, not at the first next()
    if empty:
        close()
        return iter(())

    def rows() -> Iterator[Row]:
        try:
            for r in conn.execute(sql, params):
                yield _decode_row(r)
        finally:
            close()

    return rows()


def export_commands(path: str | os.PathLike[str], out) -> tuple[int, Report]:
    """Write the journal's commands as JSON lines (the ``tablectl play`` script form) to the
    text stream ``out``: every row of the sound prefix, so a damaged journal can be recovered by
    replaying them. Returns (commands written, verification report)."""
    path = Path(path)
    report = verify(path, replay=False)
    written = 0
    try:
        for row in read_rows(path):
            if row.seq > report.sound_seq:
                break
            out.write(canonical(row.command) + "\n")
            written += 1
    except sqlite3.DatabaseError:
        pass  # a damaged page after the sound part: verify has reported it
    out.flush()
    return written, report


# --------------------------------------------------------------------------- the journal

class Journal:
    """The table's open journal: the current game and the means to change it durably.

    Use ``Journal.open``; ``apply`` commands; ``close`` at the end (or use it as a context
    manager). One process writes a journal at a time."""

    def __init__(self, path: Path, conn: sqlite3.Connection, rules: TableRules, base: Base, *,
                 clock: Callable[[], float], snapshot_every: int,
                 game: Game | None = None) -> None:
        self.path = path
        self.rules = rules
        # what the state was rebuilt from: if a commit fails, the game is rebuilt the same way
        # (the last snapshot plus the commands committed since), so memory matches the disk
        self._base = base
        self.game = game if game is not None else base.rebuild(rules)
        self.seq = base.seq + len(base.since)
        self.head_hash = base.head_hash
        # the snapshot the state was rebuilt from at open (0: none) and the rows replayed after it
        self.resumed_from = base.seq
        self.replayed = len(base.since)
        # how many processes checked the chain at open (1: a new journal, or a short one)
        self.chain_processes = 1
        self._conn: sqlite3.Connection | None = conn
        self._clock = clock
        self._snapshot_every = snapshot_every
        self._head_fd: int | None = None
        # the Table may apply commands from the camera's and the web's threads: one at a time
        self._lock = threading.RLock()
        self._batch = False  # True: apply_all's transaction is open, its rows go into it
        self._open_head()

    # ---- opening
    @classmethod
    def open(cls, path: str | os.PathLike[str], rules: TableRules | None = None, *,
             clock: Callable[[], float] = _time.time,
             snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Journal:
        """Create the journal at ``path``, or verify and replay an existing one.

        rules: the table rules; a new journal records them, an existing one must have been
        started with the same rules (None: the journal's own, or the defaults for a new one).
        clock: returns the wall-clock time in seconds since the epoch (stored per row).
        snapshot_every: store the whole state every this many commands (faster starts)."""
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        path = Path(path)
        if not path.parent.is_dir():
            raise JournalError(f"cannot create journal {path}: directory {path.parent} does not "
                               "exist")
        wal = path.with_name(path.name + "-wal")
        fresh = not path.exists() or (path.stat().st_size == 0 and
                                      (not wal.exists() or wal.stat().st_size == 0))
        if not fresh:
            _check_file_kind(path)
            fresh = _is_empty_database(path)
        _check_writable(path)
        if fresh:
            status, head_seq, _ = read_head(path)
            if status == "ok" and head_seq > 0:
                raise JournalError(
                    f"journal {path} is missing or empty, but its head record {path.name}"
                    f"{HEAD_SUFFIX} says {head_seq} commands were committed to it: the journal "
                    "was lost or truncated. Restore it from a copy; to really start a new "
                    f"journal here, remove {path.name}{HEAD_SUFFIX} first.")
            return cls._create(path, rules, clock, snapshot_every)
        return cls._resume(path, rules, clock, snapshot_every)

    @classmethod
    def _create(cls, path: Path, rules: TableRules | None, clock: Callable[[], float],
                snapshot_every: int) -> Journal:
        rules = rules if rules is not None else TableRules()
        rules_json = canonical(rules_mapping(rules))
        created = iso_time(clock())
        conn = _connect_rw(path)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [
                ("schema", str(SCHEMA_VERSION)), ("created", created), ("rules", rules_json),
                ("software", "tablectl")])
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(conn)
            conn.close()
            raise JournalError(_write_failure(path, exc, "create the journal")) from exc
        journal = cls(path, conn, rules, Base(0, None, genesis_hash(created, rules_json)),
                      clock=clock, snapshot_every=snapshot_every)
        journal._write_head()
        return journal

    @classmethod
    def _resume(cls, path: Path, rules: TableRules | None, clock: Callable[[], float],
                snapshot_every: int) -> Journal:
        # Verify first on a read-only connection: a damaged journal is left exactly as found.
        conn, close = _connect_ro(path)
        try:
            _check_schema(conn, path)
            report = Report(str(path))
            _verify_conn(conn, path, report, replay=False)
        finally:
            close()
        if not report.ok:
            shown = "\n".join(f"  {p}" for p in report.problems[:5])
            more = len(report.problems) - 5
            if more > 0:
                shown += f"\n  ... and {more} more"
            raise JournalError(f"journal {path} is damaged; the table will not start on it:\n"
                               f"{shown}\n" + RECOVERY_HINT.format(path=path))
        conn = _connect_rw(path)
        try:
            meta = _meta(conn)
            stored = json.loads(meta["rules"])
            if rules is not None and canonical(rules_mapping(rules)) != meta["rules"]:
                raise JournalError(
                    f"journal {path} was started with other table rules ({meta['rules']}) than "
                    f"the ones given now ({canonical(rules_mapping(rules))}); replaying it under "
                    "other rules would change its outcome. Start a new journal for the new "
                    "rules, or give the journal's rules.")
            table_rules = TableRules.from_mapping(stored)
            base, game = _rebuild(conn, path, table_rules,
                                  genesis_hash(meta["created"], meta["rules"]))
        except BaseException:
            conn.close()
            raise
        journal = cls(path, conn, table_rules, base, clock=clock,
                      snapshot_every=snapshot_every, game=game)
        journal.chain_processes = report.chain_processes
        journal._write_head()
        return journal

    # ---- writing
    def apply(self, command: dict[str, Any], *, observation: dict[str, Any] | None = None,
              image: str | os.PathLike[str] | None = None,
              extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Apply ``command`` to the game and commit it; return the events after the commit.

        observation: the camera's observation of a throw (``ThrowObservation.to_dict()``).
        image: the path of the throw's annotated snapshot image.
        extra: anything else worth keeping with the row (JSON-able).
        A refused command (RuleViolation, CommandError) changes nothing and writes nothing. If
        the commit fails (disk full, read-only), the game is restored to its state before the
        command and JournalError is raised: memory and disk always agree."""
        with self._lock:
            return self._apply(command, observation, image, extra)

    def _apply(self, command: dict[str, Any], observation: dict[str, Any] | None,
               image: str | os.PathLike[str] | None,
               extra: dict[str, Any] | None) -> list[dict[str, Any]]:
        conn = self._require_open()
        try:
            command_json = canonical(command)
        except (TypeError, ValueError) as exc:
            raise CommandError(f"command is not a JSON object of plain values: {exc}") from exc
        extras = dict(extra or {})
        if observation is not None:
            extras["observation"] = observation
        if image is not None:
            extras["image"] = str(image)
        try:
            extra_json = canonical(extras)
        except (TypeError, ValueError) as exc:
            raise JournalError(f"observation/extra of the command is not JSON-able: {exc}") \
                from exc
        # The game gets the command exactly as a replay will (decoded from its stored text).
        applied = json.loads(command_json)
        try:
            events = self.game.apply(applied)
        except (RuleViolation, CommandError):
            raise  # the game promises no state change for a refusal
        except BaseException:
            self._restore()
            raise
        seq = self.seq + 1
        try:
            events_json = canonical(events)
            when = iso_time(self._clock())
            hash_ = row_hash(self.head_hash, seq, when, command_json, events_json, extra_json)
            snapshot = None
            if seq % self._snapshot_every == 0:
                state = canonical(self.game.snapshot())
                snapshot = (seq, hash_, state, snapshot_hash(hash_, state))
            self._commit(conn, (seq, when, command_json, events_json, extra_json,
                                self.head_hash, hash_), snapshot)
        except BaseException as exc:
            self._restore()
            if isinstance(exc, sqlite3.Error):
                raise JournalError(_write_failure(self.path, exc, f"commit command {seq} "
                                                  f"({command.get('command')!r})")) from exc
            if isinstance(exc, (TypeError, ValueError)):
                raise JournalError(f"the game's events for command {seq} are not JSON-able: "
                                   f"{exc}") from exc
            raise
        self.seq, self.head_hash = seq, hash_
        if snapshot is not None:
            self._base = Base(seq, snapshot[2], hash_)
        else:
            self._base.since.append(json.loads(command_json))
        if not self._batch:
            self._write_head()
        return events

    def _restore(self) -> None:
        """Put the game back to the committed state (last snapshot + commands since)."""
        self.game = self._base.rebuild(self.rules)

    def _commit(self, conn: sqlite3.Connection, row: tuple, snapshot: tuple | None) -> None:
        if self._batch:  # apply_all: inside its transaction, committed at its end
            self._insert(conn, row, snapshot)
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
            self._check_last_row(conn)
            self._insert(conn, row, snapshot)
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    def _check_last_row(self, conn: sqlite3.Connection) -> None:
        last = conn.execute("SELECT max(seq) FROM journal").fetchone()[0] or 0
        if last != self.seq:
            raise JournalError(f"journal {self.path} was written by another process (its last "
                               f"row is {last}, this table's is {self.seq}); only one table "
                               "may write a journal. Restart the table to resume from it.")

    @staticmethod
    def _insert(conn: sqlite3.Connection, row: tuple, snapshot: tuple | None) -> None:
        conn.execute(f"INSERT INTO journal({_ROW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        if snapshot is not None:
            conn.execute("INSERT INTO snapshots(seq, row_hash, state, state_hash) "
                         "VALUES (?, ?, ?, ?)", snapshot)
            conn.execute("DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots "
                         "ORDER BY seq DESC LIMIT ?)", (SNAPSHOTS_KEPT,))

    def apply_all(self, commands: Iterable[dict[str, Any]]) -> int:
        """Apply ``commands`` in order and commit them in one transaction: all of them or, if
        one is refused or the commit fails, none (the game is then as before). Each row is the
        one ``apply`` would write (events, hash chain, snapshots); only the commit is shared,
        for a script or a recovered journal played into a journal at once. A table commits
        each command as it comes (``apply``). Returns how many were committed."""
        def play(apply: Callable[[dict[str, Any]], list[dict[str, Any]]]) -> None:
            for command in commands:
                apply(command)
        return self._in_one_transaction(play)

    def apply_batch(self, commands: Iterable[dict[str, Any]]
                    ) -> list[list[dict[str, Any]] | RuleViolation]:
        """Apply ``commands`` in order and commit those the rules accept in one transaction
        (``tablectl play --journal``: a long script syncs to disk once a batch, not once a
        command). Returns, command by command, its events or the RuleViolation that refused it
        (a refused command writes nothing, as with ``apply``). Anything else, a malformed
        command (CommandError) or a failed commit, commits none of them and is raised: the
        game is then as before the batch."""
        results: list[list[dict[str, Any]] | RuleViolation] = []

        def play(apply: Callable[[dict[str, Any]], list[dict[str, Any]]]) -> None:
            for command in commands:
                try:
                    results.append(apply(command))
                except RuleViolation as exc:  # the game changed nothing, no row was written
                    results.append(exc)
        self._in_one_transaction(play)
        return results

    def _in_one_transaction(self, play: Callable[[Callable], None]) -> int:
        """Run ``play(apply)`` with every row ``apply`` writes in one transaction, committed at
        the end, or rolled back with the game restored if anything raises; the number of rows
        committed."""
        with self._lock:
            conn = self._require_open()
            saved = (self.seq, self.head_hash,
                     dataclasses.replace(self._base, since=list(self._base.since)))
            try:
                conn.execute("BEGIN IMMEDIATE")
                self._check_last_row(conn)
                self._batch = True
                play(lambda command: self._apply(command, None, None, None))
                self._batch = False
                conn.execute("COMMIT")
            except BaseException as exc:
                self._batch = False
                _rollback(conn)
                done = self.seq - saved[0]
                self.seq, self.head_hash, self._base = saved
                self._restore()
                if isinstance(exc, sqlite3.Error):
                    raise JournalError(_write_failure(
                        self.path, exc, f"commit {done} commands")) from exc
                raise
            self._write_head()
            return self.seq - saved[0]

    # ---- the head record
    def _open_head(self) -> None:
        try:
            self._head_fd = os.open(_head_path(self.path), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            log.warning("cannot open head record of %s (%s): lost rows will not be detected",
                        self.path, exc)
            self._head_fd = None

    def _write_head(self) -> None:
        # Written after the commit and not synced: it may lag the durable rows, never lead them.
        if self._head_fd is None:
            return
        try:
            os.pwrite(self._head_fd, _encode_head(self.seq, self.head_hash), 0)
        except OSError as exc:
            log.warning("cannot write head record of %s: %s", self.path, exc)

    # ---- reading
    def settings(self) -> dict[str, Any]:
        """The storage settings in force on the journal's connection (journal_mode, synchronous:
        2 is FULL)."""
        conn = self._require_open()
        return {"journal_mode": conn.execute("PRAGMA journal_mode").fetchone()[0],
                "synchronous": conn.execute("PRAGMA synchronous").fetchone()[0],
                "user_version": conn.execute("PRAGMA user_version").fetchone()[0]}

    def rows(self, since: int = 0) -> list[Row]:
        """The rows after sequence number ``since``, in order."""
        with self._lock:
            conn = self._require_open()
            return [_decode_row(r) for r in conn.execute(
                f"SELECT {_ROW_COLUMNS} FROM journal WHERE seq > ? ORDER BY seq", (since,))]

    def recall(self, n: int = 10) -> list[dict[str, Any]]:
        """The last ``n`` decisions, oldest first (see ``tablectl.history``)."""
        with self._lock:
            conn = self._require_open()
            cursor = conn.execute(f"SELECT {_ROW_COLUMNS} FROM journal ORDER BY seq DESC")
            return recall_rows((_decode_row(r) for r in cursor), n)

    def audit(self) -> list[dict[str, Any]]:
        """Every operator override and every sanction, oldest first (see ``tablectl.history``)."""
        return audit_rows(self.rows())

    # ---- closing
    def _require_open(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"journal {self.path} is closed")
        return self._conn

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._head_fd is not None:
            os.close(self._head_fd)
            self._head_fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------- internals

def _check_writable(path: Path) -> None:
    directory = path.parent
    try:
        readonly = bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        readonly = False
    if readonly:
        raise JournalError(f"cannot write journal {path}: the filesystem holding {directory} is "
                           "mounted read-only. Remount it read-write or give a journal on a "
                           "writable disk; `tablectl journal verify`/`export` can still read it.")
    for target in (path, directory):
        if target.exists() and not os.access(target, os.W_OK):
            raise JournalError(f"cannot write journal {path}: no write permission on {target}")


def _is_empty_database(path: Path) -> bool:
    """An SQLite file with no table and no schema version: a journal whose creation was cut off
    before its first commit (nothing was ever recorded), which may be created anew."""
    conn, close = _connect_ro(path)
    try:
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        return tables == 0 and version == 0
    finally:
        close()


def _connect_rw(path: Path) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=5.0,
                               check_same_thread=False)  # used under the Journal's lock
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            conn.close()
            raise JournalError(f"cannot put journal {path} in WAL mode (got {mode!r})")
        # FULL: the WAL is synced at every commit, so an acknowledged command survives power loss
        conn.execute("PRAGMA synchronous=FULL")
        return conn
    except sqlite3.Error as exc:
        raise JournalError(_write_failure(path, exc, "open the journal for writing")) from exc


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _write_failure(path: Path, exc: sqlite3.Error, what: str) -> str:
    text = str(exc)
    if "full" in text:
        cause = "the disk is full"
        todo = "free space on the disk holding it, then repeat the command"
    elif "readonly" in text or "read-only" in text:
        cause = "the journal or its disk is read-only"
        todo = "make the disk writable (remount read-write, fix permissions), then repeat"
    elif "locked" in text or "busy" in text:
        cause = "another process holds the journal"
        todo = "stop the other tablectl using it"
    else:
        cause = text
        todo = "check the disk, then run `tablectl journal verify` on it"
    return (f"could not {what} in {path}: {cause} (sqlite: {text}). The command was NOT "
            f"recorded and the table state is as before it; {todo}.")


@dataclass
class Base:
    """A state the game can be rebuilt from: the snapshot at ``seq`` (None: an empty table) and
    the commands committed after it; ``head_hash`` is the hash of the last row when loaded."""

    seq: int
    state: str | None
    head_hash: str
    since: list[dict[str, Any]] = field(default_factory=list)

    def rebuild(self, rules: TableRules) -> Game:
        game = Game(rules=rules) if self.state is None else Game.from_snapshot(
            json.loads(self.state))
        game.rebuild(self.since)  # the state alone: these commands were played just now
        return game


def _rebuild(conn: sqlite3.Connection, path: Path, rules: TableRules,
             genesis: str) -> tuple[Base, Game]:
    """Where to start from: the newest snapshot plus the rows after it. Replayed rows must give
    back their recorded events (same rules engine, no edits)."""
    snap = conn.execute("SELECT seq, state, row_hash FROM snapshots ORDER BY seq DESC LIMIT 1"
                        ).fetchone()
    if snap is None:
        base = Base(0, None, genesis)
        game = Game(rules=rules)
    else:
        base = Base(snap[0], snap[1], snap[2])
        try:
            game = Game.from_snapshot(json.loads(snap[1]))
        except (ValueError, KeyError, TypeError) as exc:
            raise JournalError(f"journal {path}: the snapshot at row {snap[0]} cannot be loaded "
                               f"by this tablectl ({exc}). " + RECOVERY_HINT.format(path=path)) \
                from exc
    rows = conn.execute(f"SELECT {_ROW_COLUMNS} FROM journal WHERE seq > ? ORDER BY seq",
                        (base.seq,))
    row_seq = base.seq
    try:
        for row, command, produced in _replay_rows(game, rows):
            row_seq = row[0]
            if canonical(produced) != row[3]:
                raise JournalError(
                    f"journal {path}: replaying row {row_seq} gives other events than recorded; "
                    "it was recorded by a tablectl whose rules engine differs from this one. Use "
                    "the tablectl that wrote it. " + RECOVERY_HINT.format(path=path))
            base.since.append(command)
            base.head_hash = row[6]
    except JournalError:
        raise
    except Exception as exc:  # refused (RuleViolation, CommandError) or a failing engine
        raise JournalError(
            f"journal {path}: replaying row {row_seq + 1} fails ({exc}); it was recorded by a "
            "tablectl whose rules engine differs from this one. Use the tablectl that wrote "
            "it. " + RECOVERY_HINT.format(path=path)) from exc
    return base, game
