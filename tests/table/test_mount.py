"""A camera on a loose mount, through the whole Table: the camera thread says so once in the log
(the tracker steadies the frames, but the owner should fix the camera: docs/hardware.md)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from tablectl.journal import Journal
from tablectl.table import Table
from tests.table.clips import source_done, wait_until

cv2 = pytest.importorskip("cv2")

CLIPS = Path(__file__).resolve().parents[2] / "fixtures" / "clips"


def idle_frames(folder: Path, tremble_px: float, n: int = 48) -> Path:
    """``n`` frames of a fixture's empty felt, each moved by up to ``tremble_px`` pixels each
    way (0: a rigid camera), written as a folder of frames."""
    from vision.simulator.clip import SimClip

    felt = SimClip.load(CLIPS / "01_both_hit").frames[0][1]
    rng = np.random.default_rng(11)
    folder.mkdir()
    for k in range(n):
        dx, dy = rng.uniform(-tremble_px, tremble_px, 2)
        m = np.float32([[1, 0, dx], [0, 1, dy]])
        moved = cv2.warpAffine(felt, m, (felt.shape[1], felt.shape[0]),
                               borderMode=cv2.BORDER_REPLICATE)
        cv2.imwrite(str(folder / f"{k:03d}.png"), moved)
    return folder


def run_camera(journal_path, folder: Path):
    from vision.calibration import Calibration
    from vision.sources import ImageFolderSource

    calibration = Calibration.load(CLIPS / "01_both_hit" / "calibration.toml")
    t = Table(Journal.open(journal_path), source=ImageFolderSource(folder, fps=60),
              calibration=calibration, reopen_backoff=(5.0, 5.0))
    with t:
        t.start()
        wait_until(lambda: source_done(t))
        return [r.command["command"] for r in t.journal_rows()]


def test_a_loose_mount_is_said_once_in_the_log(journal_path, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="tablectl.table")
    commands = run_camera(journal_path, idle_frames(tmp_path / "frames", 0.5))
    said = [r for r in caplog.records if "loose mount" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.WARNING
    assert "rigidly" in said[0].getMessage()
    assert "dice_rolling" not in commands  # the trembling felt never started a throw


def test_a_rigid_camera_says_nothing_of_its_mount(journal_path, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="tablectl.table")
    run_camera(journal_path, idle_frames(tmp_path / "frames", 0.0))
    assert not [r for r in caplog.records if "mount" in r.getMessage()]
