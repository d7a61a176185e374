"""Drawing dice into frames: each visible cube face is a pre-rendered sprite warped into place.

`render_dice` makes a still of dice placed at given image positions (for reader tests);
`Renderer` draws the poses of a simulated throw frame by frame.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from vision.calibration import Calibration

from .dice3d import (
    CUBE_VERTICES,
    FACE_NORMALS,
    FACE_U,
    FACE_V,
    FACE_VALUES,
    check_colour,
    face_sprite,
    orientation_with_top,
    rot_axis,
    rot_z,
    shadow_sprite,
)
from .hand import HandDrawer, HandPose
from .scene import DIE_MM, SCALE, SHIFT, TILT_DEG, WALL_MM, Look, Table
from .shading import LIGHT, smear

H = DIE_MM / 2


@dataclass
class DiePose:
    """Where a die is at one instant.

    :param centre: the cube's centre, world mm (x, y, z).
    :param rotation: body -> world rotation matrix (3x3).
    :param colour: a key of DIE_COLOURS.
    :param motion: image displacement (dx, dy) in pixels over the exposure, for motion blur.
    :param trail: (centre, rotation) poses over the exposure, oldest first; when given the die
        is drawn at each and averaged (motion blur of a tumbling die) instead of smeared.
    """

    centre: np.ndarray
    rotation: np.ndarray
    colour: str = "white"
    motion: tuple[float, float] = (0.0, 0.0)
    trail: tuple = ()


def rest_centre_z(rotation: np.ndarray) -> float:
    """Height of the centre of a cube of that rotation standing on the felt."""
    return float(-(CUBE_VERTICES @ rotation.T)[:, 2].min() * H)


def top_face_point(pose: DiePose) -> np.ndarray:
    """World point at the centre of the face most nearly pointing up."""
    normals = FACE_NORMALS @ pose.rotation.T
    i = int(np.argmax(normals[:, 2]))
    return pose.centre + normals[i] * H


def top_face_box(camera, pose: DiePose) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The image's rotated rect ((cx, cy), (w, h), angle) around the face most nearly up."""
    normals = FACE_NORMALS @ pose.rotation.T
    i = int(np.argmax(normals[:, 2]))
    u = (FACE_U @ pose.rotation.T)[i] * H
    v = (FACE_V @ pose.rotation.T)[i] * H
    c = pose.centre + normals[i] * H
    px = camera.project(np.array([c - u - v, c + u - v, c + u + v, c - u + v]))
    (cx, cy), (w, h), ang = cv2.minAreaRect(px.astype(np.float32))
    return (round(cx, 1), round(cy, 1)), (round(w, 1), round(h, 1)), round(ang, 1)


NOISE_PAD = 32  # a frame's noise is a window of a larger field, at one of 32 x 32 offsets


@lru_cache(maxsize=4)
def _unit_noise(size: tuple[int, int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Two fields of unit Gaussian noise per image size, shared by every clip: positive and
    negative parts as uint8 in 1/16 units, so a clip scales them with one cheap cv2 call."""
    rng = np.random.default_rng(1234)
    out = []
    shape = (size[1] + NOISE_PAD, size[0] + NOISE_PAD, 3)
    for _ in range(2):
        n = rng.standard_normal(shape, dtype=np.float32) * 16.0
        out.append((cv2.convertScaleAbs(np.maximum(n, 0)), cv2.convertScaleAbs(np.minimum(n, 0))))
    return out


class Renderer:
    """Draws dice poses onto a table's background (one per clip).

    :param table: the Table (camera and geometry).
    :param look: lighting, noise, glare, motion blur.
    :param seed: for the background texture and the noise bank.
    """

    def __init__(self, table: Table, look: Look, seed: int = 0):
        self.table = table
        self.look = look
        rng = np.random.default_rng([seed, 7])
        self.background = table.background(look, rng)
        self.light = LIGHT if look.lamp is None else np.asarray(look.lamp, np.float64)
        self.sprite_px = max(32, int(round(table.die_px_nominal * 1.6)))
        self.noise_bank: list[tuple[np.ndarray, np.ndarray]] = []
        self._hands: HandDrawer | None = None
        if look.noise > 0:
            for pos, neg in _unit_noise(table.size):
                a = look.noise / 16.0
                self.noise_bank.append((cv2.convertScaleAbs(pos, alpha=a),
                                        cv2.convertScaleAbs(neg, alpha=a)))

    def frame(self, poses: list[DiePose], noise_index: int = 0,
              hand: HandPose | None = None) -> np.ndarray:
        """One uint8 BGR frame with the given dice on the table (drawn back to front), and
        the shooter's hand over them when `hand` is given."""
        return self.add_noise(self.clean(poses, hand), noise_index)

    def clean(self, poses: list[DiePose], hand: HandPose | None = None) -> np.ndarray:
        """The frame before sensor noise."""
        img = self.background.copy()
        order = sorted(poses, key=lambda p: p.centre[1])
        for p in order:
            self._shadow(img, p)
        for p in order:
            self.draw_die(img, p)
        if hand is not None:
            # the hand is above everything on the felt: its shadow falls on the dice too
            if self._hands is None:
                self._hands = HandDrawer(self.table, self.look)
            self._hands.shadow(img, hand)
            self._hands.draw(img, hand)
        return img

    def add_noise(self, img: np.ndarray, noise_index: int) -> np.ndarray:
        """Sensor noise, added in place; returns img. `noise_index` picks the field and the
        window's offset in it (2 x 32 x 32 different noise frames)."""
        if self.noise_bank:
            k = noise_index % (len(self.noise_bank) * NOISE_PAD * NOISE_PAD)
            pos, neg = self.noise_bank[k // (NOISE_PAD * NOISE_PAD)]
            dy, dx = divmod(k % (NOISE_PAD * NOISE_PAD), NOISE_PAD)
            h, w = img.shape[:2]
            cv2.add(img, pos[dy : dy + h, dx : dx + w], dst=img)
            cv2.subtract(img, neg[dy : dy + h, dx : dx + w], dst=img)
        return img

    def _roi(self, pts: np.ndarray, pad: float) -> tuple[int, int, int, int] | None:
        w, h = self.table.size
        x0 = max(0, int(np.floor(pts[:, 0].min() - pad)))
        y0 = max(0, int(np.floor(pts[:, 1].min() - pad)))
        x1 = min(w, int(np.ceil(pts[:, 0].max() + pad)) + 1)
        y1 = min(h, int(np.ceil(pts[:, 1].max() + pad)) + 1)
        if x1 - x0 < 1 or y1 - y0 < 1:
            return None
        return x0, y0, x1, y1

    def _shadow(self, img: np.ndarray, pose: DiePose) -> None:
        if self.look.lamp is not None:
            self._hard_shadow(img, pose)
            return
        # the die's footprint, pushed away from the lamp in proportion to its height
        c = pose.centre
        lift = max(0.0, c[2] - H)
        off = -LIGHT[:2] / LIGHT[2] * (c[2] + 2.0)
        yaw = np.arctan2(pose.rotation[1, 0], pose.rotation[0, 0])
        r = rot_z(yaw)[:2, :2]
        s = H * (1.25 + lift / 40.0)
        corners = np.array([[-s, -s], [s, -s], [-s, s], [s, s]]) @ r.T + c[:2] + off
        px = self.table.camera.project(np.c_[corners, np.zeros(4)])
        roi = self._roi(px, 2)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        sp = shadow_sprite(32)
        m = cv2.getAffineTransform(
            np.float32([[0, 0], [32, 0], [0, 32]]), np.float32(px[:3] - [x0, y0])
        )
        a = cv2.warpAffine(sp, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        strength = 0.45 / (1.0 + lift / 25.0)
        keep = cv2.merge([1.0 - strength * a] * 3)
        sub = img[y0:y1, x0:x1]
        sub[:] = cv2.multiply(sub, keep, dtype=cv2.CV_8U)

    def _hard_shadow(self, img: np.ndarray, pose: DiePose) -> None:
        # one hard lamp: the cube's outline cast along the light onto the felt and, where the
        # rays reach the back wall first, onto the wall's face; sharp-edged, and dark where the
        # lamp is the only light
        lx, ly, lz = self.light
        verts = pose.centre + CUBE_VERTICES @ pose.rotation.T * H
        lift = max(0.0, float(verts[:, 2].min()))
        t = verts[:, 2] / lz
        felt = np.c_[verts[:, 0] - lx * t, verts[:, 1] - ly * t]
        parts = [(_clip(felt, (-1e4, 0.0, 1e4, 1e4)), lambda q: np.c_[q, np.zeros(len(q))])]
        if ly > 1e-6:
            t = verts[:, 1] / ly
            wall = np.c_[verts[:, 0] - lx * t, verts[:, 2] - lz * t]
            parts.append((_clip(wall, (-1e4, 0.0, 1e4, WALL_MM)),
                          lambda q: np.c_[q[:, 0], np.zeros(len(q)), q[:, 1]]))
        for poly, to_world in parts:
            if poly is not None:
                self._dim(img, self.table.camera.project(to_world(poly)), lift)

    def _dim(self, img: np.ndarray, px: np.ndarray, lift: float) -> None:
        """Darken the image inside the polygon px (a shadow of a die `lift` mm up)."""
        roi = self._roi(px, 3)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        pts = np.round((px - [x0, y0]) * SCALE).astype(np.int32)
        cv2.fillConvexPoly(mask, pts, 1.0, cv2.LINE_AA, SHIFT)
        # a little penumbra, wider the higher the die
        k = 3 + 2 * int(lift / 10.0)
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        strength = self.look.lamp_shadow / (1.0 + lift / 60.0)
        keep = cv2.merge([1.0 - strength * mask] * 3)
        sub = img[y0:y1, x0:x1]
        sub[:] = cv2.multiply(sub, keep, dtype=cv2.CV_8U)

    def _faces(self, centre: np.ndarray, rotation: np.ndarray):
        """The visible faces of a cube pose: (face indices, corner pixels (4, n, 2), normals,
        in-face axes u and v, face centres)."""
        cam = self.table.camera
        normals = FACE_NORMALS @ rotation.T
        us = FACE_U @ rotation.T
        vs = FACE_V @ rotation.T
        centres = centre + normals * H
        idx = np.flatnonzero(np.einsum("ij,ij->i", cam.centre - centres, normals) > 0)
        # three corners per face: (-u,-v), (+u,-v), (-u,+v); plus (+u,+v) for the extent
        corners = np.concatenate(
            [centres[idx] - (us[idx] + vs[idx]) * H, centres[idx] + (us[idx] - vs[idx]) * H,
             centres[idx] + (vs[idx] - us[idx]) * H, centres[idx] + (us[idx] + vs[idx]) * H]
        )
        px = cam.project(corners).reshape(4, len(idx), 2)
        return idx, px, normals, us, vs, centres

    def draw_die(self, img: np.ndarray, pose: DiePose) -> None:
        """Draw one die (its visible faces, shaded, with motion blur) into img in place."""
        samples = pose.trail or ((pose.centre, pose.rotation),)
        faces = [self._faces(c, r) for c, r in samples]
        faces = [f for f in faces if len(f[0])]
        if not faces:
            return
        mx, my = pose.motion
        if pose.trail:
            # between the exposure's samples the die moved on: smear each by one sample's step
            a, b = self.table.camera.project(np.stack([samples[0][0], samples[-1][0]]))
            mx, my = (b - a) / max(1, len(samples) - 1)
        pad = 2 + int(np.ceil(max(abs(mx), abs(my)) / 2))
        roi = self._roi(np.concatenate([f[1].reshape(-1, 2) for f in faces]), pad)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        size = (x1 - x0, y1 - y0)
        acc = np.zeros((size[1], size[0], 4), np.float32)
        for face in faces:
            self._draw_faces(acc, pose.colour, face, x0, y0, size)
        if len(faces) > 1:
            acc *= 1.0 / len(faces)
        if abs(mx) >= 1.5 or abs(my) >= 1.5:
            acc = smear(acc, mx, my)
        sub = img[y0:y1, x0:x1]
        a = acc[..., 3:4]
        out = acc[..., :3] + sub * (1.0 - a)
        np.clip(out, 0, 255, out=out)
        sub[:] = out

    def _draw_faces(self, acc, colour, face, x0, y0, size) -> None:
        idx, px, normals, us, vs, centres = face
        s = float(self.sprite_px)
        src = np.float32([[0, 0], [s, 0], [0, s]])
        for j, f in enumerate(idx):
            dst = np.float32(px[:3, j] - [x0, y0])
            m = cv2.getAffineTransform(src, dst)
            shade = (0.42 + 0.62 * max(0.0, float(normals[f] @ self.light))) \
                * self.look.brightness
            sprite = shaded_sprite(colour, int(FACE_VALUES[f]), self.sprite_px,
                                   int(round(shade * SHADE_STEPS)))
            warped = cv2.warpAffine(sprite, m, size, flags=cv2.INTER_LINEAR)
            cv2.add(acc, warped, dst=acc)
            if self.look.glare and normals[f][2] > 0.9:
                self._glare(acc, warped, centres[f] + (-0.35 * us[f] - 0.3 * vs[f]) * H, x0, y0)

    def _glare(self, acc, warped, point, x0, y0) -> None:
        # a broad soft sheen on the face turned to the lamp, not a pip-sized dot
        g = self.table.camera.project(point[None])[0]
        spot = np.zeros(acc.shape[:2], np.float32)
        dp = self.table.die_px_nominal
        cv2.ellipse(spot, (int((g[0] - x0) * 16), int((g[1] - y0) * 16)),
                    (int(dp * 0.3 * 16), int(dp * 0.16 * 16)), 35.0, 0, 360, 0.3, -1,
                    cv2.LINE_AA, 4)
        k = int(dp * 0.2) | 1
        spot = cv2.GaussianBlur(spot, (k, k), 0) * warped[..., 3]
        acc[..., :3] += spot[..., None] * 255.0


def _clip(points: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray | None:
    """The convex hull of 2-D points cut to the box (x0, y0, x1, y1); None when nothing is
    left."""
    hull = cv2.convexHull(points.astype(np.float32))
    x0, y0, x1, y1 = box
    rect = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    area, cut = cv2.intersectConvexConvex(hull, rect)
    if area <= 1e-6 or cut is None:
        return None
    return cut.reshape(-1, 2).astype(np.float64)


SHADE_STEPS = 40


@lru_cache(maxsize=512)
def shaded_sprite(colour: str, value: int, size: int, shade_step: int) -> np.ndarray:
    """face_sprite with its colour scaled by shade_step / SHADE_STEPS (alpha unchanged)."""
    sp = face_sprite(colour, value, size).copy()
    sp[..., :3] *= shade_step / SHADE_STEPS
    sp.setflags(write=False)
    return sp


# --- stills ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieSpec:
    """A die to place in a still.

    :param value: the face up, 1..6.
    :param center: where the top face's centre appears, image pixels (x, y).
    :param angle: the die's turn about the vertical, degrees.
    :param colour: a key of DIE_COLOURS ("white", "black", "red", "green", "blue", "yellow").
    :param cocked: tilt in degrees (0 = flat on the felt); a cocked die shows two faces.
    :param cocked_toward: direction the top face tips toward, degrees in the image
        (0 = right, 90 = toward the bottom of the image).
    """

    value: int
    center: tuple[float, float]
    angle: float = 0.0
    colour: str = "white"
    cocked: float = 0.0
    cocked_toward: float = 0.0


@dataclass
class Still:
    """A rendered still: the image, its table's calibration, and per die what is true."""

    image: np.ndarray
    calibration: Calibration
    dice: list[dict] = field(default_factory=list)


def spec_pose(table: Table, spec: DieSpec) -> DiePose:
    """The 3-D pose putting a DieSpec's top-face centre at its image position."""
    if not 1 <= int(spec.value) <= 6:
        raise ValueError(f"die value must be 1..6, got {spec.value!r}")
    if not 0 <= spec.cocked < 45:
        raise ValueError(f"cocked is a tilt in degrees, 0 <= cocked < 45, got {spec.cocked!r}")
    check_colour(spec.colour)
    rot = rot_z(np.radians(spec.angle)) @ orientation_with_top(int(spec.value))
    if spec.cocked:
        t = np.radians(spec.cocked_toward)
        axis = np.cross([0.0, 0.0, 1.0], [np.cos(t), np.sin(t), 0.0])
        rot = rot_axis(axis, np.radians(spec.cocked)) @ rot
    zc = rest_centre_z(rot)
    normals = FACE_NORMALS @ rot.T
    top = normals[int(np.argmax(normals[:, 2]))] * H
    # the top face's centre sits at height zc + top_z; find the felt point below the centre
    p = table.camera.unproject(np.array([spec.center], np.float64), z=zc + top[2])[0]
    centre = np.array([p[0] - top[0], p[1] - top[1], zc])
    return DiePose(centre, rot, spec.colour)


def render_dice(
    dice: list[DieSpec | dict],
    size: tuple[int, int] = (640, 480),
    *,
    die_px: float | None = None,
    tilt_deg: float = TILT_DEG,
    look: Look | None = None,
    seed: int = 0,
) -> Still:
    """Render a still of dice lying where given (image pixels) on the simulated table.

    :param dice: DieSpec objects or dicts with DieSpec's fields.
    :param size: image (width, height).
    :param die_px: die edge in pixels (default 40 at 480 rows, scaled with the height).
    :param tilt_deg: camera tilt; 0 looks straight down (square faces, no side faces).
    :param look: felt, lighting, noise, glare; default: green felt, no noise, no glare.
    :param seed: texture and noise seed.
    Returns a Still whose `dice` list gives value, center, box (rotated rect of the top face),
    cocked and colour per die.
    """
    table = Table(size, die_px=die_px, tilt_deg=tilt_deg)
    look = look or Look(noise=0.0, gradient=0.1)
    renderer = Renderer(table, look, seed)
    specs = [d if isinstance(d, DieSpec) else DieSpec(**d) for d in dice]
    poses = [spec_pose(table, s) for s in specs]
    img = renderer.frame(poses, noise_index=seed)
    truth = [
        {"value": s.value, "center": [float(s.center[0]), float(s.center[1])],
         "box": top_face_box(table.camera, p), "cocked": bool(s.cocked), "colour": s.colour}
        for s, p in zip(specs, poses, strict=True)
    ]
    return Still(img, table.calibration, truth)


def random_still(
    seed: int,
    size: tuple[int, int] = (640, 480),
    n_dice: int = 2,
    *,
    cocked_share: float = 0.1,
    colour: str | None = None,
    tilt_deg: float = TILT_DEG,
    look: Look | None = None,
) -> Still:
    """A still of `n_dice` dice with random values, turns, colours and places (not touching),
    some cocked; for reader tests and benchmarks. Deterministic from `seed`.

    :param cocked_share: chance that a die is cocked (tilted 15..35 degrees).
    :param colour: one colour for all dice; default a random colour per still.
    :param look: default drawn from the seed (felt, lighting, noise, glare).
    """
    from .dice3d import DIE_COLOURS

    rng = np.random.default_rng([seed, 23])
    table = Table(size, tilt_deg=tilt_deg)
    colour = check_colour(colour) if colour else str(rng.choice(sorted(DIE_COLOURS)))
    look = look or Look.random(rng)
    (ax0, ay0), (ax1, _), (_, ay1) = (table.calibration.area[0], table.calibration.area[1],
                                      table.calibration.area[2])
    dp = table.calibration.die_px
    specs: list[DieSpec] = []
    for _ in range(200 * max(1, n_dice)):
        if len(specs) == n_dice:
            break
        c = (float(rng.uniform(ax0 + dp, ax1 - dp)), float(rng.uniform(ay0 + dp, ay1 - dp)))
        if any(np.hypot(c[0] - s.center[0], c[1] - s.center[1]) < 1.8 * dp for s in specs):
            continue
        cocked = float(rng.uniform(15, 35)) if rng.random() < cocked_share else 0.0
        specs.append(DieSpec(int(rng.integers(1, 7)), c, float(rng.uniform(0, 360)), colour,
                             cocked, float(rng.uniform(0, 360))))
    if len(specs) < n_dice:
        raise ValueError(f"{n_dice} dice do not fit apart in a {size[0]}x{size[1]} image")
    return render_dice(specs, size, tilt_deg=tilt_deg, look=look, seed=seed)
