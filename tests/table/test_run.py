"""``tablectl run`` as a real process: SIGTERM during play stops it cleanly (exit 0 within 5 s,
journal closed and sound), and a restart resumes the same state, a pending ruling still
pending."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tablectl.config import DEFAULT_CONFIG_PATH
from tablectl.journal import Journal, verify
from tablectl.table import Table
from tests.support.tables import OPENING
from tests.table.clips import FPS, S, session

cv2 = pytest.importorskip("cv2")
ROOT = Path(__file__).resolve().parents[2]


def write_video(path: Path, clips, tail_frames: int) -> None:
    """The clips as one video file, the felt left still for ``tail_frames`` after them."""
    w, h = 640, 480
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (w, h))
    last = None
    for clip in clips:
        for _, image in clip.frames:
            out.write(image)
            last = image
    for _ in range(tail_frames):
        out.write(last)
    out.release()


def config_file(tmp_path: Path, source: str, journal: Path, port: int) -> Path:
    text = DEFAULT_CONFIG_PATH.read_text()
    text = text.replace('source = "picamera2"', f'source = "{source}"')
    text = text.replace('path = "/var/lib/tablectl/journal.sqlite"', f'path = "{journal}"')
    text = text.replace("port = 8765", f"port = {port}").replace('host = "0.0.0.0"',
                                                                 'host = "127.0.0.1"')
    path = tmp_path / f"table-{port}.toml"
    path.write_text(text)
    return path


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Run:
    """``tablectl run --config FILE`` in a process of its own, its stderr read as it comes."""

    def __init__(self, config: Path, tmp_path: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tablectl", "run", "--config", str(config)], cwd=tmp_path,
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.err: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stderr:
            self.err.append(line)

    def wait_running(self, timeout: float = 60.0) -> None:
        end = time.monotonic() + timeout
        while not any("table running" in line for line in self.err):
            assert self.proc.poll() is None, "".join(self.err)
            assert time.monotonic() < end, "".join(self.err)
            time.sleep(0.02)

    def stop(self) -> tuple[int, float, str]:
        began = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        took = time.monotonic() - began
        self._reader.join(5)
        return self.proc.returncode, took, "".join(self.err)


def rows(journal: Path) -> list[str]:
    try:
        conn = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
        try:
            return [r[0] for r in conn.execute("SELECT command FROM journal ORDER BY seq")]
        finally:
            conn.close()
    except sqlite3.Error:
        return []


def test_sigterm_during_play_and_a_restart_resume_exactly(tmp_path):
    journal = tmp_path / "evening.sqlite"
    with Journal.open(journal) as j:
        for command in OPENING:
            j.apply(command)
    video = tmp_path / "evening.avi"
    write_video(video, session(3, [S.BOTH_HIT, S.COCKED_DIE]), tail_frames=900)
    run = Run(config_file(tmp_path, str(video), journal, free_port()), tmp_path)
    try:
        run.wait_running()
        end = time.monotonic() + 90
        while not any('"await_ruling"' in c for c in rows(journal)):
            assert run.proc.poll() is None, "".join(run.err)
            assert time.monotonic() < end, "no throw reached the journal"
            time.sleep(0.02)
    finally:
        code, took, err = run.stop()
    assert code == 0, err
    assert took < 5.0
    assert "journal closed" in err
    assert verify(journal).ok
    with Table(Journal.open(journal)) as t:
        first = t.state()
    pending = first["pending_ruling"]
    assert pending is not None and pending["rule"] == "R-I2"
    assert first["state"]["point"] is not None  # the first throw set the point

    # started again (no camera this time): the same evening, the ruling still pending
    run = Run(config_file(tmp_path, "", journal, free_port()), tmp_path)
    run.wait_running()
    code, took, err = run.stop()
    assert code == 0 and took < 5.0, err
    with Table(Journal.open(journal)) as t:
        again = t.state()
        assert t.throw_image(pending["throw"])[:4] == b"\x89PNG"
    assert again == first
