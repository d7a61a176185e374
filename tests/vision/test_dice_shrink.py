"""Shrinking a frame for the detector (vision.dice_shrink): the pixels cv2.resize gives."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice_shrink import Shrinker

STILLS = Path(__file__).resolve().parents[2] / "fixtures" / "stills"


def area(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("name", ["two_white_wood.jpg", "colours_tray.jpg", "dark_die_lost.jpg"])
def test_a_quarter_and_a_half_are_cv2s_pixels(name):
    """find's probe (a quarter) and whole-frame look (a half) of one frame, in that order:
    the exact 16-bit sums give cv2's INTER_AREA pixels, its rounding of ties included."""
    frame = cv2.imread(str(STILLS / name))
    h, w = frame.shape[:2]
    frame = frame[: h // 4 * 4, : w // 4 * 4]
    h, w = frame.shape[:2]
    shrink = Shrinker(frame)
    quarter = shrink((w // 4, h // 4))
    assert shrink._sums2 is not None  # the half below comes from the kept sums
    assert np.array_equal(quarter, area(frame, (w // 4, h // 4)))
    assert np.array_equal(shrink((w // 2, h // 2)), area(frame, (w // 2, h // 2)))


@pytest.mark.parametrize("level", [0, 1, 2, 3, 126, 127, 128, 253, 254, 255])
def test_ties_and_extremes_round_as_cv2_does(level):
    """Flat and noisy frames near each level: sums that fall on a half (ties) and the largest
    sums the 16 bits must hold."""
    rng = np.random.default_rng(level)
    for frame in (np.full((120, 160, 3), level, np.uint8),
                  rng.integers(max(0, level - 3), level + 1, (120, 160, 3)).astype(np.uint8),
                  rng.integers(0, 256, (120, 160)).astype(np.uint8)):
        shrink = Shrinker(frame)
        assert np.array_equal(shrink((40, 30)), area(frame, (40, 30)))
        assert np.array_equal(shrink((80, 60)), area(frame, (80, 60)))


def test_other_sizes_are_cv2s_own():
    """A factor that is not whole, or a side that does not divide, is left to cv2.resize."""
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    h, w = frame.shape[:2]
    odd = frame[: h - 1, : w - 2]
    shrink = Shrinker(odd)
    for size in (((w - 2) // 4, (h - 1) // 4), ((w - 2) // 3, (h - 1) // 3), (w - 2, h - 1)):
        assert np.array_equal(shrink(size), area(odd, size))
    # a half before any quarter: cv2's own half
    fresh = Shrinker(frame[: h // 2 * 2, : w // 2 * 2])
    assert np.array_equal(fresh((w // 2, h // 2)), area(frame[: h // 2 * 2, : w // 2 * 2],
                                                        (w // 2, h // 2)))
    assert fresh._sums2 is None
