"""The operator's PIN, server-side sessions and the failed-login count, kept in ``state_dir``.

- The PIN lives only as a werkzeug hash in ``state_dir/operator_pin``; there is never a default:
  the first start makes one (``ensure_pin``) and says it once; ``reset_pin`` makes a new one and
  ends every session.
- A session is a random id in an HttpOnly, SameSite=Strict cookie, looked up in the ``sessions``
  table of ``state_dir/web.sqlite``; each carries its own CSRF token.
- Failed PIN attempts are rows of the same file, so the hourly limit holds across a restart.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from werkzeug.security import check_password_hash, generate_password_hash

log = logging.getLogger("tablectl.web")

PIN_FILE = "operator_pin"
DB_FILE = "web.sqlite"
PIN_DIGITS = 6
MAX_FAILURES_PER_HOUR = 100
SESSION_IDLE_SECONDS = 12 * 3600
COOKIE_NAME = "tablectl_session"


def new_pin() -> str:
    """A random PIN of PIN_DIGITS digits (from the OS's secure source)."""
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def _pin_path(state_dir: Path) -> Path:
    return Path(state_dir) / PIN_FILE


def write_pin(state_dir: Path, pin: str) -> None:
    """Store ``pin``'s hash (only the owner may read it)."""
    state_dir = Path(state_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    path = _pin_path(state_dir)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(generate_password_hash(pin) + "\n", encoding="ascii")
    tmp.chmod(0o600)
    tmp.replace(path)


def ensure_pin(state_dir: Path) -> str | None:
    """Set a PIN when ``state_dir`` has none; return it (to be shown once), else None."""
    if _pin_path(state_dir).is_file():
        return None
    pin = new_pin()
    write_pin(state_dir, pin)
    return pin


def reset_pin(state_dir: Path) -> str:
    """A new PIN; every session ends and the failure count starts again. Returns the PIN."""
    pin = new_pin()
    write_pin(state_dir, pin)
    store = SessionStore(state_dir)
    try:
        store.end_all()
        store.clear_failures()
    finally:
        store.close()
    return pin


def check_pin(state_dir: Path, pin: object) -> bool:
    """True when ``pin`` matches the stored hash (False when none is stored)."""
    if type(pin) is not str or not pin or len(pin) > 64:
        return False
    try:
        stored = _pin_path(state_dir).read_text(encoding="ascii").strip()
    except OSError:
        return False
    return check_password_hash(stored, pin)


@dataclass(frozen=True)
class Session:
    id: str
    csrf_token: str
    created: float


class SessionStore:
    """Sessions and failed logins in ``state_dir/web.sqlite`` (one connection, a lock)."""

    def __init__(self, state_dir: Path, clock=time.time) -> None:
        Path(state_dir).mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(Path(state_dir) / DB_FILE, check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, "
                           "csrf TEXT NOT NULL, created REAL NOT NULL, seen REAL NOT NULL)")
        self._conn.execute("CREATE TABLE IF NOT EXISTS login_failures (at REAL NOT NULL, "
                           "addr TEXT)")

    def create(self) -> Session:
        now = self._clock()
        s = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), now)
        with self._lock:
            self._conn.execute("DELETE FROM sessions WHERE seen < ?",
                               (now - SESSION_IDLE_SECONDS,))
            self._conn.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)",
                               (s.id, s.csrf_token, now, now))
        return s

    def get(self, session_id: str | None) -> Session | None:
        """The live session of this id (its idle time renewed), else None."""
        if not session_id or len(session_id) > 100:
            return None
        now = self._clock()
        with self._lock:
            row = self._conn.execute("SELECT id, csrf, created, seen FROM sessions WHERE id = ?",
                                     (session_id,)).fetchone()
            if row is None:
                return None
            if row[3] < now - SESSION_IDLE_SECONDS:
                self._conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
                return None
            self._conn.execute("UPDATE sessions SET seen = ? WHERE id = ?", (now, session_id))
        return Session(row[0], row[1], row[2])

    def end(self, session_id: str) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def end_all(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM sessions")

    def record_failure(self, addr: str | None) -> int:
        """Count a failed PIN attempt; return the failures of the last hour."""
        now = self._clock()
        with self._lock:
            self._conn.execute("DELETE FROM login_failures WHERE at < ?", (now - 3600,))
            self._conn.execute("INSERT INTO login_failures VALUES (?, ?)", (now, addr))
            n = self._conn.execute("SELECT COUNT(*) FROM login_failures").fetchone()[0]
        log.warning("failed operator login from %s (%d in the last hour)", addr, n)
        return n

    def failures_last_hour(self) -> int:
        with self._lock:
            return self._conn.execute("SELECT COUNT(*) FROM login_failures WHERE at >= ?",
                                      (self._clock() - 3600,)).fetchone()[0]

    def clear_failures(self) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM login_failures")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
