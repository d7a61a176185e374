"""How the camera looks at the felt, from the calibration's marked area alone.

The marked area is a rectangle on the felt; its quadrilateral in the image (``Calibration.area``)
is that rectangle seen in perspective. With the principal point at the image's centre and square
pixels, each pair of opposite sides meets at a vanishing point: the image of a direction on the
felt (along the back wall, toward it). The two directions are square to each other on the felt,
which fixes the focal length when both vanishing points are finite (the camera tilted about both
axes); their cross product is the felt's normal, whose angle to the optical axis is the camera's
tilt. A camera tilted about one axis only (the wall level in the image, the most common set-up)
leaves the wall's sides parallel in the image: one vanishing point, and the focal length is then
not determined by the area (a narrower lens tilted more draws the same quadrilateral). It is then
assumed (``assumed_hfov_deg``: the Camera Module 3's standard lens, docs/hardware.md), and the
view angle at the back wall is what the tilt and the lens give together: ``atan(f / D)`` plus the
wall's angle off the axis ``atan(r / f)`` (D the vanishing point's distance from the centre, r
the wall's): the sum changes little with f near ``f = sqrt(r D)``, much at a camera looking
straight down (docs/replay.md, "The camera's view angle", gives the errors measured).

Knows no craps: vision's geometry only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

Point = tuple[float, float]

# the Camera Module 3's standard lens (docs/hardware.md): 66 degrees wide on its 16:9 sensor,
# 53 degrees in a 4:3 frame
ASSUMED_HFOV_DEG = {16 / 9: 66.0, 4 / 3: 53.0}

# a vanishing point farther than this many image diagonals from the centre is taken for one
# at infinity (sides parallel in the image: the focal length cannot be read off them)
FAR_VANISHING = 60.0


class CameraViewError(ValueError):
    """An area from which no camera view follows (not four points, sides crossing)."""


def assumed_focal_px(size: tuple[int, int], hfov_deg: float | None = None) -> float:
    """The focal length (pixels) assumed for a frame of ``size`` (width, height): from
    ``hfov_deg``, the horizontal field of view, or the standard lens's for the frame's shape
    (its 16:9 or its 4:3 view, whichever the frame is nearer)."""
    w, h = size
    if hfov_deg is None:
        aspect = w / h
        hfov_deg = min(ASSUMED_HFOV_DEG.items(), key=lambda kv: abs(kv[0] - aspect))[1]
    if not 1.0 < hfov_deg < 179.0:
        raise CameraViewError(f"a horizontal field of view must lie in 1..179 degrees, got {hfov_deg}")
    return 0.5 * w / math.tan(math.radians(hfov_deg) / 2)


def _line(p, q) -> np.ndarray:
    return np.cross([p[0], p[1], 1.0], [q[0], q[1], 1.0])


def _vanishing(side_a, side_b) -> np.ndarray:
    """Where two image sides (centred and scaled) meet, homogeneous, unit length;
    its third coordinate is 0 for parallel sides."""
    v = np.cross(_line(*side_a), _line(*side_b))
    n = float(np.linalg.norm(v))
    if n == 0.0:
        raise CameraViewError("two sides of the area lie on one line")
    return v / n


@dataclass(frozen=True)
class CameraView:
    """The camera's pose to the felt, as far as the marked area's quadrilateral tells it.

    :param focal_px: the focal length in pixels.
    :param focal_found: True when it was found from two vanishing points, False when assumed.
    :param principal: the principal point (the image's centre).
    :param toward: the felt's direction toward the back wall, in camera coordinates (x right,
        y down, z along the optical axis), unit length.
    :param along: the felt's direction along the back wall (left to right in the image).
    :param up: the felt's normal, toward the camera.
    """

    focal_px: float
    focal_found: bool
    principal: Point
    toward: tuple[float, float, float]
    along: tuple[float, float, float]
    up: tuple[float, float, float]

    @classmethod
    def from_area(
        cls,
        area,
        back_wall,
        size: tuple[int, int],
        *,
        focal_px: float | None = None,
        assumed_hfov_deg: float | None = None,
    ) -> CameraView:
        """The view from the area's four image corners (in order around it), the back wall's
        two image points (to tell which sides run along it) and the frame's ``size``.

        ``focal_px`` given: used as it is (a known lens). Else found from two vanishing points
        when both are finite (nearer than ``FAR_VANISHING`` image diagonals) and give a focal
        length between a fifth and twenty times the frame's width; else assumed
        (``assumed_focal_px``)."""
        pts = [(float(x), float(y)) for x, y in area]
        if len(pts) != 4:
            raise CameraViewError(f"the area needs 4 corners for a camera view, got {len(pts)}")
        w, h = size
        cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
        diag = math.hypot(w, h)
        # centred and scaled: homogeneous lines stay well conditioned
        q = [((x - cx) / diag, (y - cy) / diag) for x, y in pts]
        sides = [(q[k], q[(k + 1) % 4]) for k in range(4)]
        (wx1, wy1), (wx2, wy2) = back_wall
        wall_mid = (((wx1 + wx2) / 2 - cx) / diag, ((wy1 + wy2) / 2 - cy) / diag)
        # the side along the wall: the one whose midpoint lies nearest the wall's
        k_wall = min(range(4), key=lambda k: math.dist(
            ((sides[k][0][0] + sides[k][1][0]) / 2, (sides[k][0][1] + sides[k][1][1]) / 2),
            wall_mid))
        v_along = _vanishing(sides[k_wall], sides[(k_wall + 2) % 4])
        v_toward = _vanishing(sides[(k_wall + 1) % 4], sides[(k_wall + 3) % 4])
        found = False
        if focal_px is None:
            f_scaled = _focal_from(v_along, v_toward)
            if f_scaled is not None and 0.2 * w <= f_scaled * diag <= 20.0 * w:
                focal_px, found = f_scaled * diag, True
            else:
                focal_px = assumed_focal_px(size, assumed_hfov_deg)
        elif not focal_px > 0:
            raise CameraViewError(f"focal_px must be a positive number of pixels, got {focal_px}")
        fs = focal_px / diag
        d_along = _direction(v_along, fs)
        d_toward = _direction(v_toward, fs)
        up = np.cross(d_along, d_toward)
        n = float(np.linalg.norm(up))
        if n < 1e-9:
            raise CameraViewError("the area's sides meet at one point: no rectangle seen")
        up /= n
        centroid = np.mean(np.array(q), axis=0)
        ray = np.array([centroid[0], centroid[1], fs])
        if float(up @ ray) > 0:  # the normal must face the camera
            up = -up
        # the felt's directions square to the normal and to each other, signed as the image
        # shows them: "toward" brings a point nearer the wall's line, "along" to the right
        d_toward = d_toward - (d_toward @ up) * up
        d_toward /= np.linalg.norm(d_toward)
        d_along = np.cross(d_toward, up)
        view = cls(float(focal_px), found, (cx, cy), tuple(d_toward), tuple(d_along), tuple(up))
        return view._signed_by(back_wall, np.mean(np.array(pts), axis=0))

    def _signed_by(self, back_wall, inside: np.ndarray) -> CameraView:
        """This view with ``toward`` turned to bring the felt point seen at ``inside`` nearer
        the wall's image line, and ``along`` to run the way the wall's two points are given."""
        a, b = (np.array(p, float) for p in back_wall)
        u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        normal = np.array([-u[1], u[0]])  # an image normal of the wall's line
        side = float((inside - a) @ normal)  # the area's side of the wall
        toward, along = np.array(self.toward), np.array(self.along)
        if float((self._moved(inside, toward) - a) @ normal) * math.copysign(1.0, side) > abs(side):
            toward = -toward
        if float((self._moved(inside, along) - inside) @ u) < 0:
            along = -along
        return replace(self, toward=tuple(toward), along=tuple(along))

    def _ray(self, x: float, y: float) -> np.ndarray:
        return np.array([x - self.principal[0], y - self.principal[1], self.focal_px])

    def _moved(self, p, direction: np.ndarray, step: float = 0.01) -> np.ndarray:
        """The image of the felt point seen at ``p`` moved by ``step`` (camera heights)."""
        ray = self._ray(float(p[0]), float(p[1]))
        up = np.array(self.up)
        point = ray * (-1.0 / float(up @ ray))  # on the felt, the camera 1 above it
        moved = point + step * direction
        return np.array([moved[0] / moved[2] * self.focal_px + self.principal[0],
                         moved[1] / moved[2] * self.focal_px + self.principal[1]])

    @property
    def tilt_deg(self) -> float:
        """The angle between the optical axis and straight down (0: looking straight down)."""
        return math.degrees(math.acos(min(1.0, max(-1.0, -self.up[2]))))

    def slope(self, x: float, y: float) -> tuple[float, float]:
        """How the camera's ray to image point (x, y) runs over the felt per unit it falls:
        ``(toward, along)``, toward the back wall and along it (the tangents of the view
        angle's two parts). A flat die there shows the side face away from the wall about
        ``toward`` edges tall beside its top (the wall side's for a negative ``toward``), and
        its top's centre lies that far wall-ward of its footprint's, times its image scale."""
        ray = self._ray(x, y)
        fall = -float(np.array(self.up) @ ray)
        if fall <= 0:
            raise CameraViewError(f"image point ({x:g}, {y:g}) lies above the felt's horizon")
        return float(np.array(self.toward) @ ray) / fall, float(np.array(self.along) @ ray) / fall

    def view_deg(self, x: float, y: float) -> float:
        """The angle (degrees) between the ray to image point (x, y) and the felt's normal."""
        t, a = self.slope(x, y)
        return math.degrees(math.atan(math.hypot(t, a)))


def _focal_from(v1: np.ndarray, v2: np.ndarray) -> float | None:
    """The focal length (in the scaled units) that makes the directions of two finite
    vanishing points square to each other, or None (one at infinity, or no real focal
    length)."""
    if abs(v1[2]) < 1.0 / FAR_VANISHING or abs(v2[2]) < 1.0 / FAR_VANISHING:
        return None
    a, b = v1[:2] / v1[2], v2[:2] / v2[2]
    f2 = -float(a @ b)
    return math.sqrt(f2) if f2 > 0 else None


def _direction(v: np.ndarray, fs: float) -> np.ndarray:
    """The camera-frame direction whose vanishing point is ``v`` (homogeneous, scaled units)."""
    d = np.array([v[0], v[1], v[2] * fs], float)
    return d / np.linalg.norm(d)
