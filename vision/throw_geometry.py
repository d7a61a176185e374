"""Where a die lies on the table, and what its path did there: touched the back wall
(``hit_wall``) or left the area (``left_area``, R-I1).

``hit_wall`` comes from the path's distance to the back wall: a frame where the die touches it,
or a rebound between frames (the velocity toward the wall reverses and the two lines through
the frames before and after meet at the wall). ``left_area``: the centre (or the straight path
between two frames) was outside the area after the die had been inside it, or it never was
inside.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibration import Calibration


def segment_distance(p, a, b) -> float:
    """Distance from point p to the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    f = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - f * dx, p[1] - ay - f * dy)


class TableGeometry:
    """The area and the back wall of a calibration, in full-resolution pixels.

    :param calibration: where the area, the back wall and the dice's size lie in the image.
    """

    def __init__(self, calibration: Calibration) -> None:
        die = calibration.die_px
        px, py = zip(*calibration.area, strict=True)
        self.area_poly = np.array(calibration.area, np.float32).reshape(-1, 1, 2)
        self.area_centroid = (float(np.mean(px)), float(np.mean(py)))
        (x1, y1), (x2, y2) = calibration.back_wall
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1:
            raise ValueError("back_wall's two points coincide: recalibrate the back wall")
        self.wall_p = (x1, y1)
        self.wall_u = ((x2 - x1) / length, (y2 - y1) / length)
        self.wall_len = length
        nx, ny = -self.wall_u[1], self.wall_u[0]
        cx, cy = self.area_centroid
        if (cx - x1) * nx + (cy - y1) * ny < 0:  # the normal points into the table
            nx, ny = -nx, -ny
        self.wall_n = (nx, ny)
        # the area's edges with outward normals; the front edge is the one farthest from the wall
        self.edges = []
        far, self.front_edge = -1e18, 0
        pts = list(calibration.area)
        for k, a in enumerate(pts):
            b = pts[(k + 1) % len(pts)]
            ex, ey = b[0] - a[0], b[1] - a[1]
            el = math.hypot(ex, ey) or 1.0
            enx, eny = ey / el, -ex / el
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            if (cx - mx) * enx + (cy - my) * eny > 0:  # make it point out of the area
                enx, eny = -enx, -eny
            self.edges.append((a, b, (enx, eny)))
            dwall = (mx - x1) * nx + (my - y1) * ny
            if dwall > far:
                far, self.front_edge = dwall, k
        self.die = die

    def wall_distance(self, x: float, y: float) -> tuple[float, float]:
        """(signed distance from the wall line, positive on the table; position along it 0..1)."""
        px, py = x - self.wall_p[0], y - self.wall_p[1]
        d = px * self.wall_n[0] + py * self.wall_n[1]
        u = (px * self.wall_u[0] + py * self.wall_u[1]) / self.wall_len
        return d, u

    def hit_wall(self, times: list[float], xs: list[float], ys: list[float]) -> bool:
        """Whether a path touched the back wall: on a frame, or in a rebound between frames."""
        die = self.die
        touch = 0.5 * die + 0.12 * die  # centre distance at contact, plus a margin for the angle
        reach = 0.5 * die + 0.3 * die  # an extrapolated rebound may land a little short
        margin_u = 0.5 * die / self.wall_len
        dist = [self.wall_distance(x, y) for x, y in zip(xs, ys, strict=True)]
        d = [a for a, _ in dist]
        u = [b for _, b in dist]
        for di, ui in zip(d, u, strict=True):
            if di <= touch and -margin_u <= ui <= 1 + margin_u:
                return True
        n = len(d)
        min_speed = 0.5 * die  # pixels per second toward/away from the wall
        for i in range(1, n - 1):
            if not (d[i - 1] > d[i] <= d[i + 1]):
                continue
            if not -margin_u <= u[i] <= 1 + margin_u:
                continue
            # Candidate rebound between i and i+1 (lines through i-1,i and i+1,i+2) or between
            # i-1 and i (lines through i-2,i-1 and i,i+1).
            for a0, a1, b0, b1 in ((i - 1, i, i + 1, i + 2), (i - 2, i - 1, i, i + 1)):
                if a0 < 0 or b1 >= n:
                    continue
                ta, tb = times[a1] - times[a0], times[b1] - times[b0]
                if ta <= 0 or tb <= 0:
                    continue
                vin = (d[a1] - d[a0]) / ta
                vout = (d[b1] - d[b0]) / tb
                if vin > -min_speed or vout < min_speed:
                    continue
                # meet: d[a1] + vin (t - times[a1]) == d[b0] + vout (t - times[b0])
                tm = (d[b0] - d[a1] + vin * times[a1] - vout * times[b0]) / (vin - vout)
                if not times[a1] - 1e-9 <= tm <= times[b0] + 1e-9:
                    continue
                apex = d[a1] + vin * (tm - times[a1])
                if apex <= reach:
                    return True
        return False

    def off_wall(self, x: float, y: float) -> tuple[float, float]:
        """A die's centre cannot be closer to the back wall than half a die: one seen closer (its
        top leans or flies toward the wall in a tilted camera's view) is judged at that limit."""
        d, u = self.wall_distance(x, y)
        half = 0.5 * self.die
        margin = half / self.wall_len
        if d < half and -margin <= u <= 1 + margin and d > -2 * self.die:
            push = half - d
            return x + push * self.wall_n[0], y + push * self.wall_n[1]
        return x, y

    def inside(self, x: float, y: float) -> bool:
        """Whether a die's centre lies in the area."""
        return self.depth(x, y) >= 0

    def depth(self, x: float, y: float) -> float:
        """Signed distance (px) of a die's centre from the area's edge, positive inside."""
        x, y = self.off_wall(x, y)
        return cv2.pointPolygonTest(self.area_poly, (float(x), float(y)), True)

    def beyond_front(self, x: float, y: float) -> bool:
        """Whether a point outside the area lies beyond its front edge (the shooter's side, the
        edge farthest from the back wall) rather than beyond a side."""
        nearest = min(
            range(len(self.edges)),
            key=lambda k: segment_distance((x, y), self.edges[k][0], self.edges[k][1]),
        )
        return nearest == self.front_edge

    def left_area(
        self, xs: list[float], ys: list[float], gone: bool, vel=(0.0, 0.0), dt: float = 1 / 60
    ) -> bool:
        """Whether a path's centre left the area (R-I1 ``any_time``).

        Dice come in over the front edge (the shooter's side), airborne, where a tilted camera
        sees them further in than they are: a die counts as in once its centre has been about
        half a die inside for a tenth of a second, and only then does being past the front edge
        count.
        Past a side edge (or the wall) counts at once. Out means past the edge by more than the
        centre's uncertainty (a tenth of a die); the straight path between two frames counts
        too. A die that never came in left the area.

        :param gone: the die was lost from view (its heading ``vel``, px/s, says where it went).
        :param dt: seconds between frames.
        """
        enter_at = 0.45 * self.die  # a die against the wall is judged half a die in
        out_at = -0.1 * self.die
        settle_in = max(2, int(round(0.1 / max(dt, 1e-3))))
        entered = False
        inside_run = 0
        prev = None
        for x, y in zip(xs, ys, strict=True):
            if prev is not None and entered:
                # The straight path between two frames: a die can cross a corner in between.
                for f in (0.25, 0.5, 0.75):
                    mx, my = prev[0] + f * (x - prev[0]), prev[1] + f * (y - prev[1])
                    if self.depth(mx, my) < out_at:
                        return True
            depth = self.depth(x, y)
            if depth >= enter_at:
                inside_run += 1
                # in for a tenth of a second: not a die flying over the edge
                entered = entered or inside_run >= settle_in
            else:
                inside_run = 0
                if depth < out_at and (entered or not self.beyond_front(*self.off_wall(x, y))):
                    return True
            prev = (x, y)
        if not entered:
            return True
        if gone:  # lost from view: where was it heading?
            x, y = xs[-1], ys[-1]
            return self.depth(x + vel[0] * 3 * dt, y + vel[1] * 3 * dt) < 0
        return False
