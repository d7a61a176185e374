"""Throws with their truth, shared by the tracker's tests and benchmarks: the ruling a truth
calls for, which observed die is which true die, what an observation got wrong, and the clips
of the second renderer (``../shared/data/throw-clips``) read into the same truth shape as the
simulator's (``vision.simulator`` ``clip.truth``)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.calibration import Calibration
from vision.observation import DieObservation

# A camera keeps giving frames after a clip's last: the simulator keeps 0.3 s after both dice
# rest, less than a die lost from view takes to be given up (``TrackerSettings.lost_s`` 0.4 s,
# then ``settle_s``). While a throw is still open at the clip's end, ``feed_clip`` gives the
# last frame again, as a camera over dice at rest gives it, for up to this long (seconds).
HOLD_S = 1.0

SIM_CASES = ["both_hit", "one_hits", "none_hits", "out_of_area", "cocked_wall", "cocked_die"]

# the second renderer's clips, beside the repository (tests skip when they are not there)
THROW_CLIPS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "throw-clips"


def feed_clip(tracker, frames, hold_s: float = HOLD_S) -> tuple[list, int]:
    """Feed a clip's ``frames`` ((timestamp, BGR image) pairs, a list or lazily rendered) to a
    ``ThrowTracker``, then, while a throw is still open, its last frame again at the clip's
    frame interval for up to ``hold_s`` seconds (``HOLD_S``). Returns the observations made and
    the frames fed (the held ones counted)."""
    from vision.tracker import IDLE

    observations: list = []
    fed = 0
    before = last = None
    for t, img in frames:
        obs = tracker.feed(t, img)
        fed += 1
        if obs is not None:
            observations.append(obs)
        before, last = last, (t, img)
    if before is None or tracker.state == IDLE:
        return observations, fed
    dt = last[0] - before[0]
    for k in range(1, int(hold_s / dt) + 1 if dt > 0 else 0):
        obs = tracker.feed(last[0] + k * dt, last[1].copy())
        fed += 1
        if obs is not None:
            observations.append(obs)
        if tracker.state == IDLE:
            break
    return observations, fed


def truth_ruling(truth: dict) -> str:
    """The ruling kind the truth calls for (DESIGN.md's table, out_of_bounds = at_rest)."""
    dice = truth["dice"]
    if any(not d["at_rest_in_area"] for d in dice):
        return "void"
    hits = sum(d["hit_wall"] for d in dice)
    if hits == 0:
        return "void"
    if any(d["cocked"] for d in dice):
        return "operator"
    return "warning" if hits == 1 else "counts"


def match(truth_dice: list[dict], seen: list[DieObservation]) -> list[DieObservation | None]:
    """The observed die for each truth die: found dice by rest centre, lost dice by elimination."""
    found = [d for d in seen if d.center is not None]
    lost = [d for d in seen if d.center is None]
    out: list[DieObservation | None] = [None] * len(truth_dice)
    pairs = []
    for i, t in enumerate(truth_dice):
        for j, d in enumerate(found):
            c = t.get("rest_center")
            dist = math.hypot(c[0] - d.center[0], c[1] - d.center[1]) if c else 1e9
            pairs.append((dist, i, j))
    used_t, used_s = set(), set()
    for dist, i, j in sorted(pairs):
        if i in used_t or j in used_s or dist > 80:
            continue
        out[i] = found[j]
        used_t.add(i)
        used_s.add(j)
    rest = [i for i in range(len(truth_dice)) if out[i] is None]
    for i, d in zip(rest, lost, strict=False):
        out[i] = d
    return out


def die_misses(td: dict, od: DieObservation | None) -> list[str]:
    """What the observed die ``od`` (None: not seen) got wrong against its truth ``td``."""
    got = {
        "hit_wall": od is not None and od.hit_wall,
        "left_area": od is not None and od.left_area,
        "cocked": od is not None and od.cocked,
    }
    bad = [f"{k} {v} (truth {td[k]})" for k, v in got.items() if v != td[k]]
    if td["at_rest_in_area"] and not td["cocked"] and (od is None or od.value != td["value"]):
        bad.append(f"value {od.value if od else None} (truth {td['value']})")
    return bad


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:6.2f}% ({a}/{b})" if b else "   n/a"


@dataclass(frozen=True)
class CameraLook:
    """How another camera would have shot a clip: every ``stride``-th frame (a lower frame
    rate, the exposure as it was), the image scaled by ``scale`` (fewer pixels a die), and
    each frame then passed through ``image`` (a compressed stream, a dim room, a noisy
    sensor; it gets the frame and its index and returns a new frame)."""

    name: str
    stride: int = 1
    scale: float = 1.0
    image: Callable[[np.ndarray, int], np.ndarray] | None = None
    # where the look's image shows a point of the scaled image (a lens that bends it), for
    # the calibration and the truth; None: where it was
    point: Callable[[float, float], tuple[float, float]] | None = None
    # the calibration's lens_k1 (the owner's measure of the look's lens; 0: none given), or
    # "measured": as ``tablectl calibrate --lens`` measures it on the clip's first frame
    lens_k1: float | str = 0.0

    def moved(self, p) -> list[float] | None:
        """Point ``p`` (x, y of the clip as shot, or None) where this look shows it."""
        if p is None:
            return None
        x, y = float(p[0]) * self.scale, float(p[1]) * self.scale
        return list(self.point(x, y)) if self.point is not None else [x, y]


@dataclass
class ThrowClip:
    """One clip of the second renderer: its video, calibration and truth (the simulator's
    shape: ``dice`` with ``value``, ``cocked``, ``hit_wall``, ``left_area``,
    ``at_rest_in_area``, ``rest_center``, ``track``), as shot or through a ``look``."""

    name: str
    video: Path
    calibration: Calibration
    truth: dict
    fps: float
    look: CameraLook | None = None

    def shot_as(self, look: CameraLook) -> ThrowClip:
        """This clip as ``look``'s camera gives it: its frames, and its calibration and
        truth's image points scaled and moved with the image (the calibration as its
        owner would click it: the area's corners and the wall's ends where the look shows
        them, joined by straight lines)."""
        cal = self.calibration
        calibration = Calibration(tuple(tuple(look.moved(p)) for p in cal.area),
                                  tuple(tuple(look.moved(p)) for p in cal.back_wall),
                                  cal.die_px * look.scale)
        dice = [{**d, "rest_center": look.moved(d["rest_center"]),
                 "track": [look.moved(p) for p in d["track"]]} for d in self.truth["dice"]]
        clip = replace(self, calibration=calibration, truth={**self.truth, "dice": dice},
                       look=look)
        k1 = look.lens_k1
        if k1 == "measured":
            from vision.lens import measure_k1

            k1, _ = measure_k1(next(iter(clip.frames()))[1], calibration)
        if k1:
            clip.calibration = replace(calibration, lens_k1=float(k1))
        return clip

    def frames(self):
        """(timestamp, BGR frame) for every frame of the video (through ``look``: every
        stride-th, at the time it was shot)."""
        import cv2

        look = self.look or CameraLook("as shot")
        cap = cv2.VideoCapture(str(self.video))
        if not cap.isOpened():
            raise OSError(f"cannot open {self.video}")
        k = 0
        try:
            while True:
                ok, img = cap.read()
                if not ok:
                    break
                if k % look.stride == 0:
                    if look.scale != 1.0:
                        img = cv2.resize(img, None, fx=look.scale, fy=look.scale,
                                         interpolation=cv2.INTER_AREA)
                    if look.image is not None:
                        img = look.image(img, k)
                    yield k / self.fps, img
                k += 1
        finally:
            cap.release()


def throw_clips(folder: Path = THROW_CLIPS) -> list[ThrowClip]:
    """Every ``clip_NNN.mp4`` in ``folder`` with its ``_calibration.toml`` and ``_gt.json``."""
    out = []
    for video in sorted(Path(folder).glob("clip_*.mp4")):
        gt = json.loads(video.with_name(video.stem + "_gt.json").read_text())
        cal = Calibration.load(video.with_name(video.stem + "_calibration.toml"))
        dice = [
            {
                "value": d["final_value"],
                "cocked": bool(d["cocked"]),
                "cocked_tilt_deg": d.get("cocked_tilt_deg"),
                "hit_wall": bool(d["hit_wall"]),
                "first_wall_contact_frame": d.get("first_wall_contact_frame"),
                "left_area": bool(d["left_area"]),
                "at_rest_in_area": bool(d["at_rest_in_area"]),
                "rest_center": d["final_center_px"] if d.get("visible_at_end") else None,
                "track": d.get("track_px", []),  # the centre per frame from throw_frame on
            }
            for d in gt["dice"]
        ]
        truth = {"dice": dice, "case": gt.get("case"), "throw_frame": gt.get("throw_frame"),
                 "rest_frame": gt.get("all_rest_frame")}
        out.append(ThrowClip(video.stem, video, cal, truth, float(gt["fps"])))
    return out
