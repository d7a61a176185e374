"""A die as a cube: face values, orientations, and pre-rendered face sprites.

Body frame: the face whose outward normal is +z shows 1, -z shows 6, +x shows 2, -x shows 5,
+y shows 3, -y shows 4 (opposite faces sum to 7). An orientation is a rotation matrix taking
body vectors to the die's yaw frame (z up).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import cv2
import numpy as np

# outward body normal -> value
FACES: tuple[tuple[tuple[int, int, int], int], ...] = (
    ((0, 0, 1), 1),
    ((0, 0, -1), 6),
    ((1, 0, 0), 2),
    ((-1, 0, 0), 5),
    ((0, 1, 0), 3),
    ((0, -1, 0), 4),
)
FACE_NORMALS = np.array([n for n, _ in FACES], dtype=np.float64)
FACE_VALUES = np.array([v for _, v in FACES], dtype=np.int64)


def _face_axes(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-face axes (u, v) of the face with normal n: the sprite's x and y directions."""
    for axis in np.eye(3):
        if abs(float(axis @ n)) < 0.5:
            u = axis
            break
    v = np.cross(n, u)
    return u, v


FACE_U = np.array([_face_axes(n)[0] for n in FACE_NORMALS])
FACE_V = np.array([_face_axes(n)[1] for n in FACE_NORMALS])
CUBE_VERTICES = np.array(list(itertools.product((-1, 1), repeat=3)), dtype=np.float64)

# Pip centres on a face of edge 1 centred at 0 (x right, y down in the sprite); real dice put
# the corner pips about 0.27 edge from the centre.
_Q = 0.27
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_Q, -_Q), (_Q, _Q)),
    3: ((-_Q, -_Q), (0.0, 0.0), (_Q, _Q)),
    4: ((-_Q, -_Q), (_Q, -_Q), (-_Q, _Q), (_Q, _Q)),
    5: ((-_Q, -_Q), (_Q, -_Q), (0.0, 0.0), (-_Q, _Q), (_Q, _Q)),
    6: ((-_Q, -_Q), (-_Q, 0.0), (-_Q, _Q), (_Q, -_Q), (_Q, 0.0), (_Q, _Q)),
}


def rot_z(angle: float) -> np.ndarray:
    """Rotation by `angle` radians about the vertical axis."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rot_axis(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation by `angle` radians about the unit vector `axis` (Rodrigues)."""
    axis = np.asarray(axis, dtype=np.float64)
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


def _all_rotations() -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((-1, 1), repeat=3):
            m = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = sign
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return out


ROTATIONS = _all_rotations()  # the 24 orientations of a cube
# rolling directions in the yaw frame: +x, +y, -x, -y
ROLL_DIRS = np.array([[1.0, 0, 0], [0, 1.0, 0], [-1.0, 0, 0], [0, -1.0, 0]])


ROLL_AXES = np.cross([0.0, 0.0, 1.0], ROLL_DIRS)  # tipping toward d turns about z x d


def roll_matrix(direction: int, fraction: float) -> np.ndarray:
    """Rotation of a die tipping over its edge toward ROLL_DIRS[direction] by fraction*90 deg."""
    if fraction == 0.0:
        return np.eye(3)
    return rot_axis(ROLL_AXES[direction], fraction * np.pi / 2)


def quarter_roll(orientation: np.ndarray, direction: int) -> np.ndarray:
    """The integer orientation after one full tip over the edge toward `direction`."""
    return np.rint(roll_matrix(direction, 1.0) @ orientation)


def top_value(orientation: np.ndarray) -> int:
    """The value of the face most nearly pointing up for a body->world rotation matrix."""
    up = (orientation @ FACE_NORMALS.T)[2]
    return int(FACE_VALUES[int(np.argmax(up))])


def orientation_with_top(value: int, yaw_quarters: int = 0) -> np.ndarray:
    """An integer orientation showing `value` on top (turned by yaw_quarters * 90 deg)."""
    if value not in PIP_LAYOUTS:
        raise ValueError(f"a die value must be 1..6, got {value!r}")
    cands = [r for r in ROTATIONS if top_value(r) == value]
    cands.sort(key=lambda r: tuple(r.ravel()))
    return cands[yaw_quarters % len(cands)]


# --- colours -------------------------------------------------------------------------------
# name -> (body BGR, pip BGR, body opacity)
DIE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int], float]] = {
    "white": ((232, 234, 236), (25, 25, 25), 1.0),
    "black": ((34, 32, 30), (240, 240, 240), 1.0),
    "red": ((40, 30, 190), (245, 245, 245), 0.86),  # translucent casino red
    "green": ((70, 140, 30), (245, 245, 245), 0.9),
    "blue": ((170, 80, 25), (245, 245, 245), 0.9),
    "yellow": ((40, 200, 230), (20, 20, 20), 1.0),
}


def check_colour(colour: str) -> str:
    if colour not in DIE_COLOURS:
        raise ValueError(f"unknown die colour {colour!r}; choose one of {sorted(DIE_COLOURS)}")
    return colour


@lru_cache(maxsize=256)
def face_sprite(colour: str, value: int, size: int) -> np.ndarray:
    """A die face as a premultiplied BGRA float32 sprite of size x size pixels (alpha 0..1).

    The face fills the sprite edge to edge with rounded corners, a slight bevel darkening
    toward the edges, and the pips of `value` laid out as on a real die.
    """
    check_colour(colour)
    body, pip, opacity = DIE_COLOURS[colour]
    up = 4  # draw at 4x and shrink for anti-aliasing
    big = size * up
    colour_img = np.zeros((big, big, 3), np.float32)
    alpha = np.zeros((big, big), np.float32)
    r = int(big * 0.14)
    # rounded square: two rectangles and four corner discs
    for img, val in ((colour_img, body), (alpha, 1.0)):
        cv2.rectangle(img, (r, 0), (big - 1 - r, big - 1), val, -1)
        cv2.rectangle(img, (0, r), (big - 1, big - 1 - r), val, -1)
        for cx, cy in ((r, r), (big - 1 - r, r), (r, big - 1 - r), (big - 1 - r, big - 1 - r)):
            cv2.circle(img, (cx, cy), r, val, -1)
    # bevel: darken near the edges as the rounded edges turn away from the light
    ramp = np.minimum(np.arange(big), np.arange(big)[::-1]).astype(np.float32) / big
    edge = np.minimum.outer(ramp, ramp)
    colour_img *= (0.78 + 0.22 * np.clip(edge / 0.08, 0, 1))[..., None]
    pip_alpha = np.zeros((big, big), np.float32)
    pr = big * (0.105 if value != 1 else 0.12)
    for px, py in PIP_LAYOUTS[value]:
        cx, cy = (px + 0.5) * big, (py + 0.5) * big
        cv2.circle(pip_alpha, (int(cx), int(cy)), int(pr), 1.0, -1)
    pip_col = np.array(pip, np.float32)
    colour_img = colour_img * (1 - pip_alpha[..., None]) + pip_col * pip_alpha[..., None]
    # pips are drilled and opaque even on a translucent die
    alpha = alpha * (opacity + (1 - opacity) * pip_alpha)
    small_c = cv2.resize(colour_img, (size, size), interpolation=cv2.INTER_AREA)
    small_a = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA)
    out = np.empty((size, size, 4), np.float32)
    out[..., :3] = small_c * small_a[..., None]
    out[..., 3] = small_a
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def shadow_sprite(size: int) -> np.ndarray:
    """A soft square shadow (alpha 0..1, float32) filling size x size with blurred edges."""
    a = np.zeros((size, size), np.float32)
    m = size // 6
    a[m : size - m, m : size - m] = 1.0
    k = (size // 4) | 1
    a = cv2.GaussianBlur(a, (k, k), 0)
    a.setflags(write=False)
    return a
