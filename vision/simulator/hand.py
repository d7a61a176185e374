"""The shooter's hand and forearm: drawn over a frame, coming in from the near edge.

A hand is a few tapered capsules in world millimetres (forearm, palm, the bones of the back of
the hand, two segments per finger, the thumb), palm down, fingers toward the back wall, the
forearm rising toward the shooter behind the near edge. Each capsule is projected by the table's
camera and shaded as a rounded body lit by the lamp (shading.LIGHT); the hand casts a soft
shadow on the felt (and on dice under it) and is smeared by its motion like a die.

`throw_hand` gives the per-frame poses of a hand that swings in holding the dice, lets them go
at the release frame, follows through and withdraws; `pickup_hand` those of a hand that comes
back after the dice rest and takes them one by one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .scene import Look, Table
from .shading import LIGHT, smear

# skin tones, BGR, light to dark
SKINS: tuple[tuple[int, int, int], ...] = (
    (160, 182, 228), (128, 155, 210), (100, 130, 185), (72, 98, 150), (48, 64, 100),
)
# shirt sleeves, BGR
SLEEVES: tuple[tuple[int, int, int], ...] = (
    (90, 55, 30), (200, 200, 205), (40, 40, 45), (60, 60, 150), (110, 120, 80),
)
UP = np.array([0.0, 0.0, 1.0])


@dataclass
class HandPose:
    """A hand at one instant.

    :param grip: world mm (x, y, z): where dice sit in the closed hand, under the knuckles.
    :param yaw: the forearm's turn from pointing straight at the back wall, radians (positive:
        the elbow is to the right of the hand as the camera sees it).
    :param open: 0 = a fist holding dice, 1 = fingers stretched and spread.
    :param skin: BGR of the skin; sleeve: BGR of a shirt sleeve on the forearm, or None.
    :param side: 1 for a right hand, -1 for a left (the thumb's side).
    :param scale: the hand's size (1 = a man's hand, about 85 mm across the knuckles).
    :param motion: image displacement (dx, dy) in pixels over the exposure, for motion blur.
    """

    grip: np.ndarray
    yaw: float = 0.0
    open: float = 0.0
    skin: tuple[int, int, int] = SKINS[1]
    sleeve: tuple[int, int, int] | None = None
    side: float = 1.0
    scale: float = 1.0
    motion: tuple[float, float] = (0.0, 0.0)


@dataclass
class _Part:
    p0: np.ndarray
    p1: np.ndarray
    r0: float
    r1: float
    colour: tuple[int, int, int]
    round: float = 1.0  # 1: shaded as a cylinder; lower: flatter (bones under the skin)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def hand_parts(pose: HandPose) -> list[_Part]:
    """The capsules of a hand in world mm (see the module's docstring)."""
    a, s = pose.yaw, pose.side
    o = float(np.clip(pose.open, 0.0, 1.0))
    f = np.array([np.sin(a), -np.cos(a), 0.0])  # toward the fingertips
    r = np.array([np.cos(a), np.sin(a), 0.0])  # to the camera's right
    skin = tuple(int(c) for c in pose.skin)
    knuckle = pose.grip - f * 10.0 + UP * 16.0
    wrist = knuckle - f * 80.0 + UP * 10.0
    elbow = wrist - f * 230.0 + UP * 70.0
    # listed in drawing order, as the camera above sees them: what is under first
    under: list[_Part] = []
    parts = [_Part(wrist, elbow, 25.0, 34.0, skin)]
    if pose.sleeve is not None:
        cuff = wrist + (elbow - wrist) * 0.45
        parts.append(_Part(cuff, elbow, 36.0, 40.0, tuple(int(c) for c in pose.sleeve), 0.8))
    # the back of the hand: a broad pad and the four bones fanning to the knuckles
    parts.append(_Part(wrist + f * 12.0, knuckle - f * 20.0, 28.0, 33.0, skin, 0.8))
    over: list[_Part] = []
    offsets = (-26.0, -9.0, 8.0, 24.0)  # index .. little, along r (mirrored for a left hand)
    lengths = (0.93, 1.0, 0.96, 0.78)
    radii = (8.8, 9.2, 8.6, 7.4)
    bend1 = np.radians(65.0 + (14.0 - 65.0) * o)  # the first joints, from the back of the hand
    bend2 = bend1 + np.radians(80.0 + (16.0 - 80.0) * o)  # the rest of the finger
    for k in range(4):
        kn = knuckle + r * s * offsets[k] - f * (0.0, 0.0, 3.0, 10.0)[k]
        base = wrist + r * s * offsets[k] * 0.5 + f * 6.0
        parts.append(_Part(base, kn, 11.0, 12.0, skin, 0.15))
        spread = s * (-0.12, -0.03, 0.05, 0.14)[k] * (0.2 + 0.6 * o)
        fk = np.cos(spread) * f + np.sin(spread) * r
        j1 = kn + 42.0 * lengths[k] * (np.cos(bend1) * fk - np.sin(bend1) * UP)
        tip = j1 + 44.0 * lengths[k] * (np.cos(bend2) * fk - np.sin(bend2) * UP)
        # a curled finger's end is under its first joint; a stretched one lies flat
        (under if o < 0.5 else over).append(_Part(j1, tip, radii[k] * 0.95, radii[k] * 0.8,
                                                  skin))
        over.append(_Part(kn, j1, radii[k], radii[k] * 0.95, skin))
    # the thumb: tucked forward and down along the index in a fist, out to the side when open
    t0 = wrist - r * s * 24.0 + f * 20.0 - UP * 6.0
    d1 = _unit((1 - o) * _unit(f * 0.75 - r * s * 0.2 - UP * 0.45)
               + o * _unit(f * 0.55 - r * s * 0.75 - UP * 0.1))
    t1 = t0 + 38.0 * d1
    d2 = _unit((1 - o) * _unit(f * 0.5 + r * s * 0.3 - UP * 0.6) + o * _unit(f * 0.8 - r * s * 0.4))
    under.insert(0, _Part(t1, t1 + 30.0 * d2, 9.0, 8.0, skin))
    under.insert(0, _Part(t0, t1, 11.0, 9.5, skin))
    parts = under + parts + over
    if pose.scale != 1.0:  # a smaller or bigger hand, about the grip
        for part in parts:
            part.p0 = pose.grip + (part.p0 - pose.grip) * pose.scale
            part.p1 = pose.grip + (part.p1 - pose.grip) * pose.scale
            part.r0 *= pose.scale
            part.r1 *= pose.scale
    return parts


def _capsule(px: np.ndarray, a: np.ndarray, b: np.ndarray, ra: float, rb: float,
             pixel: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per point of px (h, w, 2) (image pixels, sampled every `pixel` pixels): coverage 0..1,
    distance from the axis over the radius, and the unit image direction from the axis."""
    ab = b - a
    n2 = float(ab @ ab)
    rel = px - a
    t = np.clip((rel @ ab) / n2, 0.0, 1.0) if n2 > 1e-9 else np.zeros(px.shape[:2], np.float32)
    q = a + t[..., None] * ab
    off = px - q
    d = np.hypot(off[..., 0], off[..., 1])
    rad = ra + t * (rb - ra)
    cover = np.clip((rad - d) / pixel + 0.5, 0.0, 1.0)
    rho = np.clip(d / np.maximum(rad, 1e-3), 0.0, 1.0)
    inv = 1.0 / np.maximum(d, 1e-6)
    return cover, rho, off[..., 0] * inv, off[..., 1] * inv


class HandDrawer:
    """Draws a hand pose into a frame (one per renderer)."""

    def __init__(self, table: Table, look: Look):
        self.table = table
        self.look = look
        self.light = LIGHT
        # shading grid: every other pixel once a die is 30 px or more (a hand is ~5 dice wide)
        self.step = 2 if table.die_px_nominal >= 30 else 1

    def _projected(self, parts: list[_Part]
                   ) -> list[tuple[np.ndarray, np.ndarray, float, float] | None]:
        """Per part: its ends in the image and their radii in pixels (None: behind the
        camera)."""
        cam = self.table.camera
        near = 0.3 * cam.distance  # the forearm reaches up past the camera: cut it there
        out = []
        for part in parts:
            p0, p1, r0, r1 = part.p0, part.p1, part.r0, part.r1
            d0, d1 = ((np.array([p0, p1]) - cam.centre) @ cam.rot[2]).tolist()
            if d0 < near and d1 < near:
                out.append(None)
                continue
            if d0 < near or d1 < near:
                f = (near - d0) / (d1 - d0)
                cut, rc = p0 + (p1 - p0) * f, r0 + (r1 - r0) * f
                if d0 < near:
                    p0, r0, d0 = cut, rc, near
                else:
                    p1, r1, d1 = cut, rc, near
            a, b = cam.project(np.array([p0, p1]))
            out.append((a, b, float(cam.f * r0 / d0), float(cam.f * r1 / d1)))
        return out

    def _box(self, proj, pad: float) -> tuple[int, int, int, int] | None:
        w, h = self.table.size
        proj = [p for p in proj if p is not None]
        if not proj:
            return None
        x0 = min(min(a[0] - ra, b[0] - rb) for a, b, ra, rb in proj) - pad
        y0 = min(min(a[1] - ra, b[1] - rb) for a, b, ra, rb in proj) - pad
        x1 = max(max(a[0] + ra, b[0] + rb) for a, b, ra, rb in proj) + pad
        y1 = max(max(a[1] + ra, b[1] + rb) for a, b, ra, rb in proj) + pad
        x0, y0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        x1, y1 = min(w, int(np.ceil(x1)) + 1), min(h, int(np.ceil(y1)) + 1)
        if x1 - x0 < 1 or y1 - y0 < 1:
            return None
        return x0, y0, x1, y1

    def shadow(self, img: np.ndarray, pose: HandPose) -> None:
        """Darken the felt (and anything on it) under the hand, away from the lamp."""
        parts = hand_parts(pose)
        lz = self.light[2]
        flat = []
        heights = []
        for part in parts:
            ends = []
            for p in (part.p0, part.p1):
                h = max(0.0, float(p[2]))
                heights.append(h)
                ends.append(p - self.light * (h / lz))
            flat.append(_Part(ends[0], ends[1], part.r0, part.r1, part.colour))
        proj = self._projected(flat)
        soft = 2.0 + 0.04 * float(np.mean(heights)) * self.table.die_px_nominal / 16.0
        box = self._box(proj, 3 * soft)
        if box is None:
            return
        x0, y0, x1, y1 = box
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        for a, b, ra, rb in (p for p in proj if p is not None):
            # a tapered capsule drawn as a filled polygon hull plus its two end discs
            pa, pb = a - (x0, y0), b - (x0, y0)
            d = pb - pa
            n = np.array([-d[1], d[0]]) / max(float(np.hypot(*d)), 1e-6)
            quad = np.array([pa + n * ra, pb + n * rb, pb - n * rb, pa - n * ra])
            cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
            for c, rr in ((pa, ra), (pb, rb)):
                cv2.circle(mask, tuple(int(v) for v in np.round(c * 16)), int(rr * 16), 1.0, -1,
                           cv2.LINE_AA, 4)
        k = int(soft * 3) | 1
        mask = cv2.GaussianBlur(np.minimum(mask, 1.0), (k, k), soft)
        keep = cv2.merge([1.0 - 0.38 * mask] * 3)
        sub = img[y0:y1, x0:x1]
        sub[:] = cv2.multiply(sub, keep, dtype=cv2.CV_8U)

    def draw(self, img: np.ndarray, pose: HandPose) -> None:
        """Draw the hand (shaded capsules in hand_parts' order, smeared by its motion) in
        place."""
        parts = hand_parts(pose)
        proj = self._projected(parts)
        mx, my = pose.motion
        box = self._box(proj, 2 + int(np.ceil(max(abs(mx), abs(my)) / 2)))
        if box is None:
            return
        x0, y0, x1, y1 = box
        # the hand is smooth: shade it on a grid of every `st`-th pixel, then enlarge
        st = self.step
        w, h = x1 - x0, y1 - y0
        lw, lh = -(-w // st), -(-h // st)
        acc = np.zeros((lh, lw, 4), np.float32)
        centre = (st - 1) / 2.0  # where a grid cell's centre falls in full-size pixels
        ll = self.light
        flat_shade = 0.3 + 0.8 * ll[2]
        for part, pr in zip(parts, proj, strict=True):
            if pr is None:
                continue
            a, b, ra, rb = pr
            bx = self._box([pr], 1)
            if bx is None:
                continue
            j0, i0 = (bx[0] - x0) // st, (bx[1] - y0) // st
            j1, i1 = min(lw, -(-(bx[2] - x0) // st)), min(lh, -(-(bx[3] - y0) // st))
            if j1 <= j0 or i1 <= i0:
                continue
            xs = x0 + np.arange(j0, j1, dtype=np.float32) * st + centre
            ys = y0 + np.arange(i0, i1, dtype=np.float32) * st + centre
            px = np.dstack(np.meshgrid(xs, ys))
            cover, rho, nx, ny = _capsule(px, a.astype(np.float32), b.astype(np.float32),
                                          ra, rb, float(st))
            nz = np.sqrt(1.0 - rho**2)
            # image right ~ world x, image down ~ world y (toward the shooter)
            lam = np.clip(rho * (nx * ll[0] + ny * ll[1]) + nz * ll[2], 0.0, 1.0)
            shade = 0.3 + 0.8 * lam
            shade = (part.round * shade + (1 - part.round) * flat_shade) * self.look.brightness
            col = np.array(part.colour, np.float32)
            sub = acc[i0:i1, j0:j1]
            al = cover[..., None]
            sub[..., :3] = col * (shade[..., None] * al) + sub[..., :3] * (1 - al)
            sub[..., 3:] = al + sub[..., 3:] * (1 - al)
        if st > 1:
            acc = cv2.resize(acc, (lw * st, lh * st), interpolation=cv2.INTER_LINEAR)[:h, :w]
        if abs(mx) >= 1.5 or abs(my) >= 1.5:
            acc = smear(acc, mx, my)
        sub = img[y0:y1, x0:x1]
        out = acc[..., :3] + sub * (1.0 - acc[..., 3:4])
        np.clip(out, 0, 255, out=out)
        sub[:] = out


# --- motion ----------------------------------------------------------------------------------


def _ease(u: float) -> float:
    return 0.5 - 0.5 * np.cos(np.pi * float(np.clip(u, 0.0, 1.0)))


@dataclass(frozen=True)
class HandStyle:
    """What stays the same for one person's hand: skin, sleeve, which hand, arm angle."""

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    side: float
    yaw: float
    scale: float = 1.0

    @classmethod
    def random(cls, rng: np.random.Generator) -> HandStyle:
        side = 1.0 if rng.random() < 0.8 else -1.0  # most shooters throw right-handed
        return cls(
            skin=SKINS[int(rng.integers(len(SKINS)))],
            sleeve=SLEEVES[int(rng.integers(len(SLEEVES)))] if rng.random() < 0.6 else None,
            side=side,
            yaw=side * float(rng.uniform(0.1, 0.5)),
            scale=float(rng.uniform(0.85, 1.0)),
        )

    def pose(self, grip, open_: float, yaw_extra: float = 0.0) -> HandPose:
        return HandPose(np.asarray(grip, np.float64), self.yaw + yaw_extra, open_, self.skin,
                        self.sleeve, self.side, self.scale)


def _away(style: HandStyle, table: Table, near: np.ndarray) -> np.ndarray:
    """Where the grip is when the hand is out of view: back over the near edge, raised."""
    return np.array([near[0] + style.yaw * 150.0, table.y_bottom + 260.0, 140.0])


HAND_LEAD_S = 0.95  # how long before the release the throwing hand comes into view


def throw_hand(table: Table, style: HandStyle, release: np.ndarray, release_frame: int,
               fps: float, rng: np.random.Generator) -> tuple[dict[int, HandPose], dict]:
    """The shooter's hand over a throw: per frame index, its pose; and its truth.

    It comes in over the near edge holding the dice, shakes them above the felt, draws back,
    swings forward and lets them go at `release_frame` at the grip point `release` (world mm,
    below the image's near edge), follows through opening its fingers, then withdraws out of
    view. It needs about HAND_LEAD_S * fps frames before the release (fewer: it hurries).
    """
    n_lead = int(round(HAND_LEAD_S * fps))
    start = max(2, release_frame - n_lead)
    n_lead = max(4, release_frame - start)
    # the lead's phases: come in, shake, draw back, swing (fractions of n_lead)
    cuts = np.round(np.cumsum([0.0, 0.35, 0.3, 0.15, 0.2]) * n_lead).astype(int)
    away = _away(style, table, release)
    hover = np.array([release[0] + style.side * rng.uniform(0.0, 20.0),
                      table.y_bottom - rng.uniform(50.0, 90.0), rng.uniform(50.0, 80.0)])
    back = np.array([release[0], table.y_bottom + rng.uniform(50.0, 80.0), release[2] + 40.0])
    shake_hz = rng.uniform(4.0, 7.0)
    out: dict[int, HandPose] = {}
    for i in range(n_lead + 1):
        if i <= cuts[1]:
            grip = away + (hover - away) * _ease(i / max(1, cuts[1]))
        elif i <= cuts[2]:
            w = np.sin(2 * np.pi * shake_hz * (i - cuts[1]) / fps)
            grip = hover + np.array([0.0, 9.0 * w, 6.0 * w])
        elif i <= cuts[3]:
            grip = hover + (back - hover) * _ease((i - cuts[2]) / max(1, cuts[3] - cuts[2]))
        else:
            u = (i - cuts[3]) / max(1, n_lead - cuts[3])
            grip = back + (release - back) * u**1.5  # accelerating into the release
        out[start + i] = style.pose(grip, 0.0)
    n_follow = max(2, int(round(rng.uniform(0.08, 0.15) * fps)))
    n_out = max(3, int(round(rng.uniform(0.3, 0.45) * fps)))
    reach = float(rng.uniform(10.0, 50.0))  # how far the follow-through carries past release
    follow = release + np.array([0.0, -reach, -10.0])
    follow[2] = max(follow[2], 25.0)
    for i in range(1, n_follow + 1):
        u = i / n_follow
        grip = release + (follow - release) * (1 - (1 - u) ** 2)  # decelerating
        out[release_frame + i] = style.pose(grip, min(1.0, 0.2 + 1.2 * u))
    last = release_frame + n_follow
    for i in range(1, n_out + 1):
        u = _ease(i / n_out)
        grip = follow + (away - follow) * u
        out[last + i] = style.pose(grip, 1.0 - 0.4 * u)
    truth = {"enter_frame": start, "release_frame": release_frame,
             "leave_frame": last + n_out, "side": "right" if style.side > 0 else "left"}
    return out, truth


def pickup_hand(table: Table, style: HandStyle, targets: list[np.ndarray], start: int,
                fps: float) -> tuple[dict[int, HandPose], list[int], int]:
    """A hand that comes in after the throw and takes the dice at `targets` (world mm, x y),
    one after another: per frame its pose, the frame each die is taken, the frame it is gone."""
    n_in = max(3, int(round(0.3 * fps)))
    n_grab = max(2, int(round(0.12 * fps)))
    n_move = max(2, int(round(0.15 * fps)))
    n_out = max(3, int(round(0.35 * fps)))
    first = targets[0] if targets else np.array([0.0, table.y_bottom * 0.5])
    away = _away(style, table, np.r_[first, 0.0])
    out: dict[int, HandPose] = {}
    grabs: list[int] = []
    f = start
    here = away
    for k, tgt in enumerate(targets):
        hover = np.array([tgt[0], tgt[1], 38.0])
        n = n_in if k == 0 else n_move
        for i in range(1, n + 1):
            u = _ease(i / n)
            out[f + i] = style.pose(here + (hover - here) * u, 0.4 + 0.5 * u)
        f += n
        low = np.array([tgt[0], tgt[1], 10.0])
        for i in range(1, n_grab + 1):
            u = i / n_grab
            out[f + i] = style.pose(hover + (low - hover) * u, 0.9 - 0.8 * u)
        f += n_grab
        grabs.append(f)
        here = low
    for i in range(1, n_out + 1):
        u = _ease(i / n_out)
        out[f + i] = style.pose(here + (away - here) * u, 0.1)
    return out, grabs, f + n_out
