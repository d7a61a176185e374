"""Real small disks: a full one and a read-only one (a tiny tmpfs mounted for the test).

Mounting needs root (CI and the Pi's installer run as root); elsewhere these tests are skipped
and the same failures are covered through SQLite's own limits in test_journal.py."""

from __future__ import annotations

import json
import os
import subprocess
import uuid
from pathlib import Path

import pytest

from tablectl.game import Game
from tablectl.journal import Journal, JournalError, canonical, verify
from tests.journal.helpers import OPENING, file_bytes, run_tablectl, same_state


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 384 KiB tmpfs of its own, unmounted after the test."""
    if os.geteuid() != 0:
        pytest.skip("mounting a test filesystem needs root")
    mnt = tmp_path / f"disk-{uuid.uuid4().hex[:8]}"
    mnt.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "size=384k", "tmpfs", str(mnt))
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot mount a test tmpfs here: {exc}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_full_disk_is_a_clear_error_and_nothing_half_written(small_disk):
    path = small_disk / "table.db"
    accepted = []
    with Journal.open(path) as j:
        for command in OPENING:
            j.apply(command)
            accepted.append(command)
        filler = small_disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:  # eat the free space
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        error = None
        for n in range(200):  # each throw carries a long observation until the disk is full
            command = {"command": "throw", "dice": [1 + n % 6, 2]}
            state = canonical(j.game.snapshot())
            try:
                j.apply(command, observation={"note": "x" * 3000, "n": n})
            except JournalError as exc:
                error = str(exc)
                assert canonical(j.game.snapshot()) == state  # memory matches the disk
                break
            accepted.append(command)
        assert error is not None, "the disk never filled"
        assert "disk is full" in error and "NOT recorded" in error
        filler.unlink()  # space again: play goes on
        j.apply({"command": "throw", "dice": [3, 4]})
        accepted.append({"command": "throw", "dice": [3, 4]})
    assert verify(path).ok
    with Journal.open(path) as j:
        clean = Game()
        for command in accepted:
            clean.apply(command)
        assert j.seq == len(accepted) and same_state(j.game, clean)


def test_read_only_disk_refuses_to_start_but_verify_and_export_read_it(small_disk):
    path = small_disk / "table.db"
    with Journal.open(path) as j:
        for command in OPENING:
            j.apply(command)
    before = file_bytes(path)
    _mount("-o", "remount,ro", str(small_disk))
    with pytest.raises(JournalError, match="read-only"):
        Journal.open(path)
    done = run_tablectl("journal", "verify", str(path))
    assert done.returncode == 0, done.stderr
    exported = run_tablectl("journal", "export", str(path))
    assert exported.returncode == 0, exported.stderr
    assert [json.loads(line) for line in exported.stdout.splitlines()] == [
        json.loads(canonical(c)) for c in OPENING]
    assert file_bytes(path) == before
