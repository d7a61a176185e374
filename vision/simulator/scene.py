"""The simulated table: camera, geometry in millimetres, calibration and the empty background.

World frame (mm): x to the right as the camera sees it, y from the back wall's inner face (y=0)
toward the shooter (the bottom of the image), z up from the felt.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration

DIE_MM = 16.0  # a standard 16 mm die
WALL_MM = 45.0  # height of the back wall
TILT_DEG = 15.0  # default camera tilt from straight down, toward the back wall
SHIFT = 4  # fixed-point bits for sub-pixel cv2 drawing
SCALE = 1 << SHIFT


class Camera:
    """A pinhole camera in front of and above the table, tilted toward the back wall.

    :param size: image (width, height) in pixels.
    :param die_px: a flat die's edge in pixels at the middle of the image.
    :param tilt_deg: angle between the optical axis and straight down (0 = looking straight down).
    :param wall_row: image row (fraction of the height) where the back wall meets the felt.
    """

    def __init__(self, size: tuple[int, int], die_px: float, tilt_deg: float, wall_row: float):
        w, h = size
        self.size = (int(w), int(h))
        self.f = 1024.0 * h / 480.0
        self.cx, self.cy = (w - 1) / 2.0, (h - 1) / 2.0
        tau = np.radians(tilt_deg)
        self.distance = self.f * DIE_MM / die_px  # along the axis to the felt at the centre
        z_cam = np.array([0.0, -np.sin(tau), -np.cos(tau)])  # looking forward
        y_cam = np.array([0.0, np.cos(tau), -np.sin(tau)])  # image down = toward the shooter
        x_cam = np.array([1.0, 0.0, 0.0])
        self.rot = np.stack([x_cam, y_cam, z_cam])  # world -> camera
        # place the camera so the wall's foot falls at wall_row of the image
        lo, hi = -400.0, 800.0
        for _ in range(60):
            mid = (lo + hi) / 2
            self._place(mid, z_cam)
            v = self.project(np.zeros((1, 3)))[0, 1]
            if v < wall_row * h:
                hi = mid
            else:
                lo = mid
        self._place((lo + hi) / 2, z_cam)

    def _place(self, target_y: float, z_cam: np.ndarray) -> None:
        self.target = np.array([0.0, target_y, 0.0])
        self.centre = self.target - z_cam * self.distance

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of world points (N, 3)."""
        pc = (np.asarray(pts, np.float64) - self.centre) @ self.rot.T
        return np.stack(
            [self.f * pc[:, 0] / pc[:, 2] + self.cx, self.f * pc[:, 1] / pc[:, 2] + self.cy], 1
        )

    def unproject(self, px: np.ndarray, z: float = 0.0) -> np.ndarray:
        """World points (N, 3) on the plane at height z seen at image pixels px (N, 2)."""
        px = np.atleast_2d(np.asarray(px, np.float64))
        rays = np.stack(
            [(px[:, 0] - self.cx) / self.f, (px[:, 1] - self.cy) / self.f, np.ones(len(px))], 1
        ) @ self.rot
        t = (z - self.centre[2]) / rays[:, 2]
        return self.centre + rays * t[:, None]


@dataclass(frozen=True)
class Look:
    """How a clip looks (not its geometry).

    :param felt: "green", "blue" or "wood" surface.
    :param brightness: overall gain (1 = nominal).
    :param gradient: strength of the lighting fall-off across the table (0..0.5).
    :param light_xy: where the lamp is brightest, as fractions of the image.
    :param noise: sensor noise standard deviation in grey levels.
    :param glare: whether a glare spot shines on the felt and on the dice.
    :param blur: exposure as a fraction of the frame time (motion blur length).
    :param rail: the back wall's face: "pyramids" (rubber pyramids), "wood" or "padding".
    :param lamp: unit vector toward one hard lamp (faces shaded by it, sharp shadows cast
        along it); None: the default soft overhead light.
    :param lamp_shadow: how much of the light a die's shadow takes under that lamp (0..1).
    """

    felt: str = "green"
    brightness: float = 1.0
    gradient: float = 0.25
    light_xy: tuple[float, float] = (0.4, 0.3)
    noise: float = 2.5
    glare: bool = False
    blur: float = 0.5
    rail: str = "pyramids"
    lamp: tuple[float, float, float] | None = None
    lamp_shadow: float = 0.5

    @classmethod
    def random(cls, rng: np.random.Generator) -> Look:
        return cls(
            felt=str(rng.choice(["green", "green", "blue", "wood"])),
            brightness=float(rng.uniform(0.8, 1.15)),
            gradient=float(rng.uniform(0.05, 0.4)),
            light_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.0, 0.7))),
            noise=float(rng.uniform(1.0, 4.0)),
            glare=bool(rng.random() < 0.3),
            blur=float(rng.uniform(0.3, 0.7)),
        )


FELTS = {"green": (40, 105, 25), "blue": (110, 70, 20), "wood": (55, 100, 150)}


class Table:
    """The table's geometry as the camera sees it, its calibration and its empty background.

    :param size: image (width, height).
    :param die_px: die edge in pixels at the image centre (default 40 at 480 rows, scaled).
    :param tilt_deg: camera tilt from straight down; 0 gives a square, undistorted view.
    """

    def __init__(
        self,
        size: tuple[int, int] = (640, 480),
        die_px: float | None = None,
        tilt_deg: float = TILT_DEG,
        wall_row: float = 0.16,
    ):
        w, h = int(size[0]), int(size[1])
        if w < 64 or h < 48:
            raise ValueError(f"image size must be at least 64x48 pixels, got {w}x{h}")
        self.size = (w, h)
        self.die_px_nominal = float(die_px) if die_px else 40.0 * h / 480.0
        self.camera = Camera(self.size, self.die_px_nominal, tilt_deg, wall_row)
        cam = self.camera
        bottom = cam.unproject(np.array([[0.0, h - 1.0], [w - 1.0, h - 1.0]]))
        self.y_bottom = float(bottom[0, 1])  # felt y at the image's bottom row
        # side rails just inside the image's edge at its bottom (the narrowest place)
        self.x_rail = float(min(abs(bottom[0, 0]), abs(bottom[1, 0]))) - 4.0
        self.x_area = self.x_rail - 1.8 * DIE_MM
        self.y_area = self.y_bottom - 0.8 * DIE_MM
        self.area_world = np.array(
            [[-self.x_area, 0.0], [self.x_area, 0.0], [self.x_area, self.y_area],
             [-self.x_area, self.y_area]]
        )
        area_px = cam.project(np.c_[self.area_world, np.zeros(4)])
        wall_px = cam.project(np.array([[-self.x_rail, 0, 0], [self.x_rail, 0, 0.0]]))
        centre = np.array([[0.0, self.y_area / 2, DIE_MM]])
        edge = cam.project(np.r_[centre, centre + [[DIE_MM, 0, 0]]])
        die_px_meas = float(np.linalg.norm(edge[1] - edge[0]))
        self.calibration = Calibration(
            tuple((round(float(x), 1), round(float(y), 1)) for x, y in area_px),
            ((round(float(wall_px[0, 0]), 1), round(float(wall_px[0, 1]), 1)),
             (round(float(wall_px[1, 0]), 1), round(float(wall_px[1, 1]), 1))),
            round(die_px_meas, 1),
        )

    def in_area(self, x: float, y: float) -> bool:
        """Whether the felt point (x, y) mm lies inside the marked area."""
        return -self.x_area <= x <= self.x_area and 0.0 <= y <= self.y_area

    def outside_mm(self, x: float, y: float) -> float:
        """How far the felt point (x, y) lies outside the area, mm (negative: inside, by how
        much from the nearest edge)."""
        return max(abs(x) - self.x_area, y - self.y_area, -y)

    def _poly(self, img: np.ndarray, pts3: np.ndarray, colour) -> None:
        px = self.camera.project(pts3)
        cv2.fillConvexPoly(img, np.round(px * SCALE).astype(np.int32), colour, cv2.LINE_AA, SHIFT)

    def _wall_face(self, img: np.ndarray, rail: str, rng: np.random.Generator) -> None:
        """The back wall's inner face: rubber pyramids, wood or padding."""
        xr, wall = self.x_rail, WALL_MM
        face = np.array([[-xr, 0, 0], [xr, 0, 0], [xr, 0, wall], [-xr, 0, wall]])
        if rail == "pyramids":
            self._poly(img, face, (38, 38, 44))
            # a diamond lattice on its face
            x0 = np.arange(-xr - wall, xr + wall, 9.0)
            ends = []
            for sgn in (-1, 1):
                zero = np.zeros_like(x0)
                a = np.stack([np.c_[x0, zero, zero], np.c_[x0 + sgn * wall, zero, zero + wall]],
                             1)
                a[..., 0] = np.clip(a[..., 0], -xr, xr)
                ends.append(a.reshape(-1, 3))
            p = np.round(self.camera.project(np.concatenate(ends)) * SCALE).astype(np.int32)
            cv2.polylines(img, list(p.reshape(-1, 2, 2)), False, (60, 62, 70), 1, cv2.LINE_AA,
                          SHIFT)
        elif rail == "wood":
            base = np.array([40, 80, 130], np.float32) * rng.uniform(0.8, 1.2)
            self._poly(img, face, base.tolist())
            # grain: thin horizontal streaks of lighter and darker wood
            for z in np.sort(rng.uniform(1.0, wall - 1.0, 14)):
                shade = (base * rng.uniform(0.75, 1.25)).tolist()
                p = np.round(self.camera.project(np.array([[-xr, 0, z], [xr, 0, z]])) * SCALE)
                cv2.line(img, tuple(p[0].astype(int)), tuple(p[1].astype(int)), shade, 1,
                         cv2.LINE_AA, SHIFT)
        elif rail == "padding":
            base = rng.choice([(70, 40, 110), (35, 35, 40), (30, 60, 30)]).astype(np.float32)
            self._poly(img, face, base.tolist())
            # quilted cushion: seams every few centimetres
            for x in np.arange(-xr + 20.0, xr, 25.0):
                p = np.round(self.camera.project(np.array([[x, 0, 2.0], [x, 0, wall - 2]]))
                             * SCALE)
                cv2.line(img, tuple(p[0].astype(int)), tuple(p[1].astype(int)),
                         (base * 0.6).tolist(), 1, cv2.LINE_AA, SHIFT)
        else:
            raise ValueError(f"rail must be 'pyramids', 'wood' or 'padding', got {rail!r}")

    def background(self, look: Look, rng: np.random.Generator) -> np.ndarray:
        """The empty table as a uint8 BGR image: felt, area line, walls, lighting and glare."""
        w, h = self.size
        img = np.zeros((h, w, 3), np.float32)
        img[:] = (28, 30, 34)  # beyond the table
        far = self.y_bottom + 200.0
        xr, wall = self.x_rail, WALL_MM
        felt = np.array(FELTS.get(look.felt, FELTS["green"]), np.float32)
        # felt, then the side rails' inner faces and tops, then the back wall's face and top
        self._poly(img, np.array([[-xr, 0, 0], [xr, 0, 0], [xr, far, 0], [-xr, far, 0.0]]),
                   felt.tolist())
        for sgn in (-1, 1):
            x = sgn * xr
            self._poly(img, np.array([[x, 0, 0], [x, far, 0], [x, far, wall], [x, 0, wall]]),
                       (35, 55, 80))
            self._poly(img, np.array([[x, 0, wall], [x, far, wall], [x + sgn * 40, far, wall],
                                      [x + sgn * 40, -40, wall]]), (45, 75, 110))
        self._poly(img, np.array([[-xr - 40, -40, wall], [xr + 40, -40, wall], [xr, 0, wall],
                                  [-xr, 0, wall]]), (50, 85, 120))
        self._wall_face(img, look.rail, rng)
        # the marked area's line on the felt (its back side is the wall)
        line_w = max(1, int(round(self.die_px_nominal / 16)))
        a = self.area_world
        pts = np.c_[np.array([[a[0, 0], 0.5], a[3], a[2], [a[1, 0], 0.5]]), np.zeros(4)]
        p = np.round(self.camera.project(pts) * SCALE).astype(np.int32)
        cv2.polylines(img, [p], False, (200, 215, 215), line_w, cv2.LINE_AA, SHIFT)
        # felt texture, lighting fall-off, glare
        tex = rng.normal(0.0, 1.0, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_LINEAR)[: h, : w]
        img += (tex * 4.0)[..., None]
        # smooth fields are computed at 1/8 size and enlarged
        sw, sh = w // 8 + 1, h // 8 + 1
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8.0
        lx, ly = look.light_xy[0] * w, look.light_xy[1] * h
        d2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / float(w * w + h * h)
        gain = look.brightness * (1.0 - look.gradient * np.sqrt(d2) * 1.6)
        if look.glare:
            gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.3, 0.8) * h
            sx, sy = rng.uniform(0.04, 0.1) * w, rng.uniform(0.03, 0.07) * h
            glare = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2)) * 110.0
        else:
            glare = np.zeros_like(gain)
        big = cv2.resize(np.dstack([gain, glare]), (sw * 8, sh * 8),
                         interpolation=cv2.INTER_LINEAR)[:h, :w]
        img *= big[..., :1]
        img += big[..., 1:]
        return np.clip(img, 0, 255).astype(np.uint8)
