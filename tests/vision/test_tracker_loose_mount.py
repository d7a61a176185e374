"""A camera on a loose mount, and a camera's scattered noise at a throw's start (docs/replay.md
"A camera on a loose mount").

A mount that trembles moves the whole image by a fraction of a pixel from frame to frame: every
sharp edge of the felt (its printed lines, the wall's top) is then motion on every frame, and
no throw settles. The tracker measures each idle frame's shift against the background on the
felt's edges (``vision.mount_steady``); once the frames keep moving, every frame is moved back
before it is compared (``TrackerSettings.loose_mount_px``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.test_tracker_camera_noise import assert_seen_as_it_was, observe
from vision.mount_steady import MountSteadier
from vision.simulator.clip import SimClip
from vision.tracker import IDLE, THROW, ThrowTracker, TrackerSettings

CLIPS = Path(__file__).resolve().parents[2] / "fixtures" / "clips"


def shifted(img: np.ndarray, dx: float, dy: float) -> np.ndarray:
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)


def loose_mount(px: float, seed: int = 3):
    """Each frame moved by up to ``px`` pixels each way, anew every frame."""
    rng = np.random.default_rng(seed)

    def trembling(img: np.ndarray) -> np.ndarray:
        dx, dy = rng.uniform(-px, px, 2)
        return shifted(img, float(dx), float(dy))

    return trembling


def idle_first(clip: SimClip, frames: int = 40) -> SimClip:
    """The clip with its first frame (the empty felt) shown ``frames`` times first, a frame
    interval apart: a table that stood idle before the throw, long enough to measure."""
    (t0, first), (t1, _) = clip.frames[0], clip.frames[1]
    dt = t1 - t0
    before = [(t0 - (frames - k) * dt, first.copy()) for k in range(frames)]
    return SimClip(before + list(clip.frames), clip.calibration, clip.truth)


def felt_and_steadier():
    """A fixture's empty felt on the tracker's shrunk image, and a steadier that learnt its
    edges in the area."""
    clip = SimClip.load(CLIPS / "01_both_hit")
    tracker = ThrowTracker(clip.calibration)
    tracker.feed(*clip.frames[0])  # sets up the work size and the area
    felt = cv2.resize(clip.frames[0][1], tracker._wsize, interpolation=cv2.INTER_AREA)
    steadier = MountSteadier()
    steadier.learn(felt, tracker._area_mask)
    return clip, tracker, felt, steadier


@pytest.mark.parametrize("dx, dy", [(0.3, -0.2), (-0.45, 0.1), (0.0, 0.25), (0.9, -0.7)])
def test_the_shift_of_a_frame_is_measured_on_the_felt_s_edges(dx, dy):
    """On the shrunk image the tracker compares (a shift there is what its motion test sees;
    on the camera's image a line thinner than the shrink factor moves in steps there)."""
    clip, tracker, felt, steadier = felt_and_steadier()
    u, v, turn = steadier.shift(shifted(felt, dx, dy))
    assert abs(u - dx) < 0.02 and abs(v - dy) < 0.02 and abs(turn) < 1e-4


def test_a_die_on_an_edge_does_not_move_the_measure():
    clip, tracker, felt, steadier = felt_and_steadier()
    with_die = shifted(felt, 0.3, 0.0)
    (x0, y0), (x1, _) = clip.calibration.back_wall
    s, d = tracker._s, int(clip.calibration.die_px / tracker._s)
    x, y = int((x0 + x1) / 2 / s), int(y0 / s)
    with_die[y - d // 2:y + d // 2, x:x + d] = 250  # a white die across the wall's edge
    u, v, turn = steadier.shift(with_die)
    assert abs(u - 0.3) < 0.02 and abs(v) < 0.02 and abs(turn) < 1e-4


def test_a_throw_seen_through_a_loose_mount_is_observed_as_it_was():
    clip = idle_first(SimClip.load(CLIPS / "01_both_hit"))
    assert_seen_as_it_was(clip, observe(clip, TrackerSettings(), loose_mount(0.5)))


def test_without_the_steadying_the_loose_mount_s_throw_is_lost():
    clip = idle_first(SimClip.load(CLIPS / "01_both_hit"))
    seen = observe(clip, TrackerSettings(loose_mount_px=None), loose_mount(0.5))
    assert len(seen) != 1 or seen[0].extra or seen[0].missing


@pytest.mark.parametrize("name", ["03_one_hits", "08_cocked_wall"])
def test_a_rigid_camera_is_never_steadied(name):
    clip = idle_first(SimClip.load(CLIPS / name))
    on = observe(clip, TrackerSettings())
    off = observe(clip, TrackerSettings(loose_mount_px=None))
    assert len(on) == 1
    assert [d.to_dict(with_track=True) for d in on[0].dice] == [
        d.to_dict(with_track=True) for d in off[0].dice]


def test_scattered_noise_does_not_start_a_throw_and_a_die_does():
    """A compressed stream's blocks flicker along the felt's sharp edges, a pixel here and
    there: as many changed pixels as a die's quarter, but nothing that moves."""
    clip = SimClip.load(CLIPS / "01_both_hit")
    t, felt = clip.frames[0]
    tracker = ThrowTracker(clip.calibration)
    tracker.feed(t, felt)
    tracker.feed(t + 0.016, felt.copy())
    rng = np.random.default_rng(1)
    noisy = felt.copy()
    (x0, y0), (x1, y1) = clip.calibration.area[0], clip.calibration.area[2]
    xs = rng.integers(int(min(x0, x1)) + 20, int(max(x0, x1)) - 20, 400)
    ys = rng.integers(int(min(y0, y1)) + 20, int(max(y0, y1)) - 20, 400)
    noisy[ys, xs] = 255 - noisy[ys, xs]
    tracker.feed(t + 0.033, noisy)
    assert tracker.state == IDLE
    die = felt.copy()
    cx, cy, d = int((x0 + x1) / 2), int((y0 + y1) / 2), int(clip.calibration.die_px)
    die[cy:cy + d, cx:cx + d] = 240
    tracker.feed(t + 0.05, die)
    assert tracker.state == THROW


def test_a_trembling_mount_does_not_start_a_throw_on_an_empty_table():
    """Before the mount is found loose (and with the steadying off), the felt's lines moving
    by part of a pixel on every frame are thin lines of motion along the felt's own edges:
    no thing moves, no throw begins."""
    clip = SimClip.load(CLIPS / "01_both_hit")
    t0, felt = clip.frames[0]
    tracker = ThrowTracker(clip.calibration, settings=TrackerSettings(loose_mount_px=None))
    tremble = loose_mount(0.5)
    for k in range(30):
        tracker.feed(t0 + k / 60, tremble(felt))
        assert tracker.state == IDLE, k


@pytest.mark.parametrize("degrees, dx", [(0.6, 0.0), (-0.4, 0.4)])
def test_a_turned_frame_is_measured_and_turned_back(degrees, dx):
    """A camera on an arm rocks as well as slides: the frame turned about its centre (and
    shifted) is measured and moved back onto the felt, the corners too."""
    clip, tracker, felt, steadier = felt_and_steadier()
    h, w = felt.shape[:2]
    m = cv2.getRotationMatrix2D((0.5 * (w - 1), 0.5 * (h - 1)), degrees, 1.0)
    m[0, 2] += dx
    turned = cv2.warpAffine(felt, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    move = steadier.shift(turned)
    assert abs(abs(move[2]) - np.radians(abs(degrees))) < 0.1 * np.radians(abs(degrees))
    u, v, turn = steadier.shift(steadier.steadied(turned, move))  # moved back: on the felt
    assert abs(u) < 0.05 and abs(v) < 0.05 and abs(turn) < 0.1 * np.radians(abs(degrees))
