"""Throws drawn with cv2 (not the simulator): a felt, a back wall and dice moving on known paths.

Used by the tracker's tests to check tracking, wall and area logic against exact truth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.calibration import Calibration

W, H = 640, 480
WALL_Y = 60.0
DIE = 40.0
CAL = Calibration(
    area=((40.0, WALL_Y), (600.0, WALL_Y), (600.0, 440.0), (40.0, 440.0)),
    back_wall=((40.0, WALL_Y), (600.0, WALL_Y)),
    die_px=DIE,
)
FELT = (40, 110, 30)
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclass
class SynthDie:
    """A die's start (px), velocity (px/s), face and spin (deg/s)."""

    x: float
    y: float
    vx: float
    vy: float
    value: int = 3
    spin: float = 400.0
    colour: tuple[int, int, int] = (235, 235, 235)
    angle: float = 0.0
    spin_until: float = 0.0  # keeps spinning in place (on a corner) until this time (s)
    hit_wall: bool = False
    left_area: bool = False
    entered: bool = False
    path: list[tuple[float, float, float]] = field(default_factory=list)


def background(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.empty((H, W, 3), np.uint8)
    img[:] = FELT
    img[: int(WALL_Y)] = (40, 60, 90)
    noise = rng.normal(0, 2.0, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def draw_die(img: np.ndarray, d: SynthDie) -> None:
    box = ((d.x, d.y), (DIE, DIE), d.angle)
    cv2.fillConvexPoly(img, cv2.boxPoints(box).round().astype(np.int32), d.colour, cv2.LINE_AA)
    c, s = math.cos(math.radians(d.angle)), math.sin(math.radians(d.angle))
    for px, py in PIPS[d.value]:
        ox, oy = px * DIE * 0.27, py * DIE * 0.27
        cv2.circle(
            img,
            (int(round(d.x + c * ox - s * oy)), int(round(d.y + s * ox + c * oy))),
            max(2, int(DIE * 0.08)),
            (20, 20, 20),
            -1,
            cv2.LINE_AA,
        )


def _inside(x: float, y: float) -> bool:
    return 40 <= x <= 600 and WALL_Y <= y <= 440


def throw(
    dice: list[SynthDie],
    fps: float = 60.0,
    idle_frames: int = 12,
    rest_frames: int = 40,
    friction: float = 2.2,
    seed: int = 0,
    max_s: float = 6.0,
    static: tuple[SynthDie, ...] = (),
    t0: float = 0.0,
):
    """Frames (t, image) of one throw, and the dice (with truth filled in) at the end.

    :param static: dice lying still on the felt through the whole clip.
    :param t0: the first frame's timestamp (to chain throws).
    """
    bg = background(seed)
    for d in static:
        draw_die(bg, d)
    frames = []
    t = t0
    for _ in range(idle_frames):
        frames.append((t, bg.copy()))
        t += 1 / fps
    sub = 40  # physics steps per frame: contacts fall between frames
    dt = 1 / fps / sub
    still_for = 0
    for _ in range(int(max_s * fps)):
        for _ in range(sub):
            for d in dice:
                d.x += d.vx * dt
                d.y += d.vy * dt
                d.angle += d.spin * dt
                if d.y - DIE / 2 <= WALL_Y and d.vy < 0 and 40 <= d.x <= 600:
                    d.vy = -0.7 * d.vy  # rebound off the back wall
                    d.y = WALL_Y + DIE / 2
                    d.hit_wall = True
                k = math.exp(-friction * dt)
                d.vx *= k
                d.vy *= k
                spinning = t < d.spin_until
                if not spinning:
                    d.spin *= k
                if math.hypot(d.vx, d.vy) < 8:
                    d.vx = d.vy = 0.0
                    if not spinning:
                        d.spin = 0.0
                if _inside(d.x, d.y):
                    d.entered = True
                elif d.entered:
                    d.left_area = True
        img = bg.copy()
        for d in dice:
            d.path.append((t, d.x, d.y))
            draw_die(img, d)
        frames.append((t, img))
        t += 1 / fps
        if all(d.vx == 0 and d.vy == 0 and d.spin == 0 for d in dice):
            still_for += 1
            if still_for >= rest_frames:
                break
    return frames, dice
