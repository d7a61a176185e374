"""tools/train_detector.py's choices of what a detector is taught on: which dice are dark (the
``--dark-repeat`` samples) and which throws the tracker's closer looks may be recorded from
(dev seeds only: the never-tuned sets score a candidate, they never teach one)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import train_detector as td  # noqa: E402
from reader_data import Die, Photo  # noqa: E402


def _felt_with(bodies: list[int]) -> tuple[np.ndarray, Photo]:
    """A grey felt with one 40 px die per body grey, each with a light pip in its middle."""
    img = np.full((120, 60 + 60 * len(bodies), 3), 120, np.uint8)
    dice = []
    for k, grey in enumerate(bodies):
        x0 = 30 + 60 * k
        img[40:80, x0:x0 + 40] = grey
        img[57:63, x0 + 17:x0 + 23] = 250  # a pip does not make a dark die light
        dice.append(Die(1, x0 + 20.0, 60.0, 40.0, 40.0, 40.0))
    return img, Photo(Path("synthetic"), "synthetic", dice)


@pytest.mark.parametrize(("bodies", "dark"), [([30], 1), ([200], 0), ([40, 200, 55], 2),
                                             ([td.DARK_GREY + 5], 0)])
def test_only_dice_whose_face_is_darker_than_the_line_count_as_dark(bodies, dark):
    assert td.dark_dice(*_felt_with(bodies)) == dark


@pytest.mark.parametrize("run", [(90_000, 10, (640, 480)), (91_000, 1, (1280, 720)),
                                 (80_990, 20, (640, 480))])
def test_the_tracker_looks_refuse_any_seed_outside_the_dev_sets(tmp_path, run):
    out = tmp_path / "looks.npz"
    with pytest.raises(SystemExit, match="not all in one dev set"):
        td.tracker_looks([run], out)
    assert not out.exists()
