"""A wide lens's barrel, straightened: the calibration's ``lens_k1`` (vision/calibration.py).

The model (one radial term, the image's centre as the lens's): a point that a distortion-free
lens would show ``r`` from the centre ``(w / 2, h / 2)`` of a ``w`` x ``h`` image, ``r`` in half
widths (``w / 2`` pixels), is shown at ``r (1 + k1 r^2)``. A wide lens's barrel has ``k1 < 0``:
straight edges of the table away from the centre bow outward, a die near the image's edge looks
smaller, and the area drawn as a polygon between its corners misses the felt's real lines.

- :class:`Lens`: the straightened frame (``cv2.remap`` on fixed-point maps made once per frame
  size), and points moved between the camera's image (``raw``) and the straightened one
  (``straight``). The straightened image keeps the frame's size, centre and scale at the centre
  (a die at the centre keeps its ``die_px``); with a barrel, a band along the image's edges
  falls outside it (at ``k1`` = -0.1 about a tenth of the half width at the sides' middles).
- :func:`fit_k1`: ``k1`` from points along straight edges of the table (3+ points on each of 2+
  lines), the one that makes each line's points most nearly collinear.
- :func:`area_line_points`: such points found on a frame along the felt's marked lines, between
  the area's corners as the owner gave them (``tablectl calibrate --lens``).

The tracker takes frames through ``Lens.straighten`` and the calibration through
``Lens.straight_calibration`` when ``lens_k1`` is not 0, and gives its observations' points back
in the camera's image (``Lens.raw_observation``): the owner's coordinates in and out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.calibration import LENS_K1_MAX, Calibration, CalibrationError
from vision.observation import ThrowObservation

Point = tuple[float, float]
Size = tuple[int, int]

# ``Lens.maps`` made, by (k1, size, shrink): a tracker made anew (a new throw in a benchmark, the
# table's camera reopened) does not make them again; a few lenses and sizes at most
_MAPS: dict[tuple[float, Size, int], tuple[np.ndarray, np.ndarray]] = {}
_MAPS_KEPT = 8


class Lens:
    """The radial distortion ``k1`` of a camera (module docstring), for frames of any size."""

    def __init__(self, k1: float) -> None:
        if not math.isfinite(k1) or abs(k1) > LENS_K1_MAX:
            raise CalibrationError(f"lens_k1 must lie in -{LENS_K1_MAX:g}..{LENS_K1_MAX:g}, "
                                   f"got {k1!r}")
        self.k1 = float(k1)

    # ------------------------------------------------------------------ radii
    @property
    def fold(self) -> float:
        """The straight radius (half widths) beyond which a barrel turns back on itself (the
        shown radius ``r (1 + k1 r^2)`` is largest there); inf for no barrel."""
        return math.sqrt(-1.0 / (3.0 * self.k1)) if self.k1 < 0 else math.inf

    @property
    def raw_reach(self) -> float:
        """The largest shown radius (half widths) the model can straighten: a barrel shows
        nothing beyond ``fold (1 + k1 fold^2)``."""
        f = self.fold
        return f * (1.0 + self.k1 * f * f) if math.isfinite(f) else math.inf

    def _straight_r(self, rd: float) -> float:
        """The straight radius shown at radius ``rd`` (Newton's method on the model)."""
        k1 = self.k1
        r = rd
        for _ in range(30):
            g = r * (1.0 + k1 * r * r) - rd
            d = 1.0 + 3.0 * k1 * r * r
            step = g / d
            r -= step
            if abs(step) < 1e-12:
                break
        return r

    # ------------------------------------------------------------------ points
    def raw(self, p: Point, size: Size) -> Point:
        """Where the camera shows the point ``p`` of the straightened image."""
        c = 0.5 * size[0]
        cx, cy = c, 0.5 * size[1]
        xn, yn = (p[0] - cx) / c, (p[1] - cy) / c
        s = 1.0 + self.k1 * (xn * xn + yn * yn)
        return cx + xn * s * c, cy + yn * s * c

    def straight(self, p: Point, size: Size) -> Point:
        """Where the straightened image shows the point ``p`` of the camera's image; raises
        ``CalibrationError`` for a point beyond what the model straightens (``raw_reach``)."""
        c = 0.5 * size[0]
        cx, cy = c, 0.5 * size[1]
        xn, yn = (p[0] - cx) / c, (p[1] - cy) / c
        rd = math.hypot(xn, yn)
        if rd == 0.0:
            return float(p[0]), float(p[1])
        if rd >= self.raw_reach:
            raise CalibrationError(
                f"the point ({p[0]:g}, {p[1]:g}) of the {size[0]}x{size[1]} image lies "
                f"{rd:.2f} half widths from its centre, beyond the {self.raw_reach:.2f} that "
                f"lens_k1 = {self.k1:g} can straighten: check lens_k1 (`tablectl calibrate "
                "--lens`), or aim the camera so the area lies nearer the image's centre")
        k = self._straight_r(rd) / rd
        return cx + xn * k * c, cy + yn * k * c

    def straight_calibration(self, cal: Calibration, size: Size) -> Calibration:
        """``cal`` (points on the camera's image) as the straightened image shows it; its
        ``lens_k1`` is 0 (that image has no distortion left)."""
        return Calibration(
            tuple(self.straight(p, size) for p in cal.area),
            (self.straight(cal.back_wall[0], size), self.straight(cal.back_wall[1], size)),
            cal.die_px,
        )

    def raw_observation(self, obs: ThrowObservation, size: Size) -> ThrowObservation:
        """``obs`` (made on straightened frames) with its dice's centres, tracks and boxes'
        centres moved to where the camera's image shows them (in place; returned). The boxes'
        sides and angles stay the straightened ones; the snapshot is the straightened frame."""
        for d in obs.dice:
            if d.center is not None:
                d.center = self.raw(d.center, size)
            d.track = [(f, *self.raw((x, y), size)) for f, x, y in d.track]
            if d.box is not None:
                d.box = (self.raw(d.box[0], size), d.box[1], d.box[2])
        return obs

    # ------------------------------------------------------------------ frames
    def maps(self, size: Size, shrink: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """``cv2.remap``'s fixed-point maps for frames of ``size`` shrunk by the integer
        ``shrink`` (``cv2.INTER_AREA``: a pixel of the shrunk image covers ``shrink`` x
        ``shrink`` of the frame's): for each of its pixels, where the camera shows that point
        (made once per lens and size). Beyond a barrel's ``fold`` the model turns back: those
        pixels take the fold's ring, along the same ray."""
        key = (self.k1, (int(size[0]), int(size[1])), int(shrink))
        m = _MAPS.get(key)
        if m is None:
            w, h = size
            c = 0.5 * w
            ys, xs = np.mgrid[0 : h // shrink, 0 : w // shrink].astype(np.float64)
            half = 0.5 * (shrink - 1)  # a shrunk pixel's middle, in the frame's pixels
            xn, yn = (xs * shrink + half - c) / c, (ys * shrink + half - 0.5 * h) / c
            r2 = xn * xn + yn * yn
            s = 1.0 + self.k1 * r2
            if self.k1 < 0:
                over = r2 > self.fold**2
                s[over] = self.raw_reach / np.sqrt(r2[over])
            mx = ((xn * s * c + c - half) / shrink).astype(np.float32)
            my = ((yn * s * c + 0.5 * h - half) / shrink).astype(np.float32)
            m = cv2.convertMaps(mx, my, cv2.CV_16SC2)
            if len(_MAPS) >= _MAPS_KEPT:
                _MAPS.pop(next(iter(_MAPS)))
            _MAPS[key] = m
        return m

    def straighten(self, frame: np.ndarray, size: Size | None = None,
                   shrink: int = 1) -> np.ndarray:
        """The frame as a distortion-free lens would show it (same size; a new array).
        ``size``, ``shrink``: ``frame`` is a frame of ``size`` shrunk by ``shrink`` (the lens's
        centre and unit are the full frame's)."""
        if size is None:
            if shrink != 1:
                raise ValueError("straighten a shrunk frame with the full frame's size")
            size = (frame.shape[1], frame.shape[0])
        m1, m2 = self.maps(size, shrink)
        return cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


# ---------------------------------------------------------------------- measuring k1
class LensFitError(ValueError):
    """Points that cannot tell a lens's distortion (says which and what to give instead)."""


def _crookedness(lines: Sequence[np.ndarray], lens: Lens, size: Size) -> float:
    """Sum over the lines of their straightened points' spread across their best line over
    the spread along it (variances: 0 for points exactly collinear)."""
    total = 0.0
    for pts in lines:
        try:
            q = np.array([lens.straight((float(x), float(y)), size) for x, y in pts])
        except CalibrationError:
            return math.inf
        q = q - q.mean(axis=0)
        ev = np.linalg.eigvalsh(q.T @ q)  # ascending
        total += ev[0] / max(ev[1], 1e-12)
    return total


def line_rms(lines: Sequence[np.ndarray], k1: float, size: Size) -> float:
    """How far, in pixels of the straightened image (RMS), the points lie from a straight
    line through each line's points once ``k1`` is undone."""
    lens = Lens(k1)
    sq, n = 0.0, 0
    for pts in lines:
        q = np.array([lens.straight((float(x), float(y)), size) for x, y in pts])
        q = q - q.mean(axis=0)
        ev = np.linalg.eigvalsh(q.T @ q)
        sq += float(ev[0])
        n += len(q)
    return math.sqrt(sq / max(n, 1))


def fit_k1(lines: Sequence[Sequence[Point]], size: Size) -> float:
    """The ``k1`` (in -LENS_K1_MAX..LENS_K1_MAX) under which the points of each line, given on
    the camera's ``size`` image, lie most nearly on a straight line.

    :param lines: 2 or more lists of 3 or more image points, each along one straight edge of the
        table (a rail, a marked line of the area), as far from the image's centre and as long
        as can be: a line through the centre stays straight under any ``k1`` and tells nothing.
    """
    arrays = [np.asarray(pts, np.float64).reshape(-1, 2) for pts in lines]
    if len(arrays) < 2 or any(len(a) < 3 for a in arrays):
        raise LensFitError(
            f"give 2 or more straight edges with 3 or more points on each (got "
            f"{[len(a) for a in arrays]} points on {len(arrays)} lines)")
    w = size[0]
    for i, a in enumerate(arrays):
        if np.ptp(a, axis=0).max() < 0.1 * w:
            raise LensFitError(
                f"line {i + 1}'s points span under a tenth of the image's width: give points "
                "spread along the whole edge")

    def cost(k1: float) -> float:
        return _crookedness(arrays, Lens(k1), size)

    # a grid, then golden sections around its best
    grid = np.linspace(-LENS_K1_MAX, LENS_K1_MAX, 101)
    costs = [cost(float(k)) for k in grid]
    best = int(np.argmin(costs))
    if not math.isfinite(costs[best]):
        raise LensFitError("the points lie beyond what any lens_k1 straightens")
    step = float(grid[1] - grid[0])
    lo, hi = float(grid[max(best - 1, 0)]), float(grid[min(best + 1, len(grid) - 1)])
    if hi - lo < step:  # at the range's end
        lo, hi = lo - step, hi + step
    g = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo + (1 - g) * (hi - lo), lo + g * (hi - lo)
    fa, fb = cost(a), cost(b)
    for _ in range(40):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = lo + (1 - g) * (hi - lo)
            fa = cost(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = cost(b)
    k1 = 0.5 * (lo + hi)
    return float(min(max(k1, -LENS_K1_MAX), LENS_K1_MAX))


def fit_k1_robust(lines: Sequence[Sequence[Point]], size: Size,
                  passes: int = 2) -> tuple[float, list[np.ndarray]]:
    """``fit_k1``, then again without the points that lie farthest off their straightened line
    (a die lying on a marked line, a glint): beyond 3 times the median distance and 1.5 px.
    Returns ``k1`` and the lines' points kept."""
    arrays = [np.asarray(pts, np.float64).reshape(-1, 2) for pts in lines]
    k1 = fit_k1(arrays, size)
    for _ in range(passes):
        lens = Lens(k1)
        kept = []
        for pts in arrays:
            q = np.array([lens.straight((float(x), float(y)), size) for x, y in pts])
            mean = q.mean(axis=0)
            _, vecs = np.linalg.eigh((q - mean).T @ (q - mean))
            dist = np.abs((q - mean) @ vecs[:, 0])
            bar = max(1.5, 3.0 * float(np.median(dist)))
            keep = pts[dist <= bar]
            kept.append(keep if len(keep) >= 3 else pts)
        arrays = kept
        k1 = fit_k1(arrays, size)
    return k1, arrays


def area_line_points(frame: np.ndarray, area: Sequence[Point], die_px: float,
                     per_line: int = 24) -> list[np.ndarray]:
    """Points along the felt's marked lines between the area's corners (as the owner gave
    them, on the camera's image): along each side of the area, across it at ``per_line``
    places (clear of the corners), the middle of the strongest thin stripe (a painted line,
    light or dark) within reach of the straight side: a barrel bows a side off the straight
    line between its corners by up to a few per cent of its length. A side along which no
    stripe stands out (a wall's edge, no line painted) gives no points."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (0, 0), 1.0)
    h, w = gray.shape
    out: list[np.ndarray] = []
    n = len(area)
    for i in range(n):
        (x1, y1), (x2, y2) = area[i], area[(i + 1) % n]
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 4 * die_px:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        nx, ny = -uy, ux
        reach = max(1.5 * die_px, 0.08 * length)
        offs = np.arange(-reach, reach + 0.5, 0.5, dtype=np.float32)
        arm = max(3.0, 0.25 * die_px)  # a stripe's sides: the felt either side of it
        pts = []
        for t in np.linspace(0.08, 0.92, per_line):
            px, py = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
            xs = (px + offs * nx).astype(np.float32)[None, :]
            ys = (py + offs * ny).astype(np.float32)[None, :]
            if not (0 <= px <= w - 1 and 0 <= py <= h - 1):
                continue
            # off the frame the profile is flat (its border's pixel): no stripe there
            prof = cv2.remap(gray, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]
            k = int(round(arm / 0.5))
            side = 0.5 * (np.roll(prof, k) + np.roll(prof, -k))
            ridge = prof - side
            ridge[:k] = 0
            ridge[-k:] = 0
            pts.append((px, py, ridge))
        if len(pts) < 3:
            continue
        # a light line on the felt or a dark one: the sign that stands out more on this side
        sign = 1.0 if np.median([r.max() for *_, r in pts]) >= np.median(
            [-r.min() for *_, r in pts]) else -1.0
        found = []
        for px, py, ridge in pts:
            r = sign * ridge
            j = int(np.argmax(r))
            if r[j] < 8.0:  # grey levels: no stripe here (a die over the line, a wall's edge)
                continue
            if 0 < j < len(r) - 1:  # the peak's middle, to a fraction of a sample
                a, b, c = r[j - 1], r[j], r[j + 1]
                den = a - 2 * b + c
                j = j + (0.5 * (a - c) / den if den < 0 else 0.0)
            o = -reach + 0.5 * j
            found.append((px + o * nx, py + o * ny))
        if len(found) >= max(3, per_line // 2):
            out.append(np.array(found, np.float64))
    return out


def measure_k1(frame: np.ndarray, cal: Calibration) -> tuple[float, list[np.ndarray]]:
    """``lens_k1`` measured on ``frame`` from the felt's marked lines along the area's sides
    (``area_line_points``, then ``fit_k1_robust``), and the lines' points it kept; raises
    ``LensFitError`` when fewer than two sides show a line."""
    h, w = frame.shape[:2]
    lines = area_line_points(frame, cal.area, cal.die_px)
    if len(lines) < 2:
        raise LensFitError(
            f"only {len(lines)} of the area's sides show a marked line on the frame: give "
            "points along 2 or more straight edges yourself (--lens-lines FILE)")
    return fit_k1_robust(lines, (w, h))
