"""A die's flat hypothesis drawn through the camera model, against the rest frame.

A flat die is a cube one edge (``die``) tall standing on the felt: its top a square at its top
face's centre, turned as its edges run (``vision.front_rim.edge_direction``), and its footprint
the same square seen one edge lower, that is shifted by the view's slope there
(``CameraView.slope``: a point one edge lower is seen ``toward`` away from the back wall and
``along`` back along it). What the camera sees of it is the convex hull of the two squares;
the hull's sides that join two footprint corners are where the die meets the felt: its rim
(one side for a die square to the view, two for a turned one: a V).

``rim_profile`` draws that rim with the footprint shifted by ``s`` times the slope, for ``s``
from 0 (the rim on the top's own edges: no side face seen) to 2, and at each ``s`` measures
the colour's step across the drawn rim that three quarters of its samples reach. ``rim_scale``
takes the outermost step that stands out above the felt's: where the die meets the felt, ``s``
times the slope past its top. A flat die meets it at about ``s`` = 1 (less the rounding of its
edges); a die tipped by t away from the camera's side (its lower edge riding up the wall
behind it) turns its front face from the camera and meets the felt at ``s = cos t -
sin t / toward`` or nearer (none left beyond tan t = ``toward``): ``lean_rim``. Whatever the
die's, the felt's or a shadow's colours, the rim is wherever the image steps along the cube's
own outline: the whole outline, both sides of a turned die's V, not a line along one edge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# the share of a drawn rim's samples (percent) that may lack its step: a pip or a glint on the
# front face next to the rim, the felt's grain
RIM_SHARE = 25
# the shifts tried, in units of the view's slope
SCALES = np.round(np.arange(0.0, 2.001, 0.05), 2)


def cube_corners(top, die: float, edge, slope: tuple[float, float], wall_n, wall_u,
                 s: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The flat hypothesis's top square and footprint (4x2 image points each, in turn round the
    square): the top at ``top`` turned along ``edge``, the footprint shifted ``s`` times the
    view's ``slope`` (one edge lower)."""
    e = np.asarray(edge, float)
    f = np.array([-e[1], e[0]])
    c = np.asarray(top, float)
    h = 0.5 * die
    sq = np.array([c + h * (a * e + b * f) for a, b in ((1, 1), (-1, 1), (-1, -1), (1, -1))])
    toward, along = slope
    shift = die * (toward * np.asarray(wall_n, float) - along * np.asarray(wall_u, float))
    return sq, sq + s * shift


def rim_sides(top_sq: np.ndarray, foot: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The hull's sides that join two footprint corners: where the cube meets the felt as the
    camera sees it (each ``(a, b)``)."""
    pts = np.vstack([top_sq, foot]).astype(np.float64)
    hull = cv2.convexHull(pts.astype(np.float32), returnPoints=False).ravel()
    out = []
    for k in range(len(hull)):
        i, j = int(hull[k]), int(hull[(k + 1) % len(hull)])
        if i >= 4 and j >= 4:
            out.append((pts[i], pts[j]))
    return out


def _samples(sides, top, other_tops) -> tuple[np.ndarray, np.ndarray]:
    """Points along ``sides`` (about one a pixel, their ends' tenth left out) and each one's
    unit normal; the points nearer another die's top than this one's are dropped."""
    pts, nrm = [], []
    for a, b in sides:
        d = b - a
        n = float(np.hypot(*d))
        if n < 2:
            continue
        k = max(3, int(n))
        t = np.linspace(0.1, 0.9, k)[:, None]
        pts.append(a + t * d)
        nrm.append(np.repeat(np.array([[-d[1], d[0]]]) / n, k, axis=0))
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    p, m = np.vstack(pts), np.vstack(nrm)
    keep = np.ones(len(p), bool)
    mine = np.hypot(*(p - np.asarray(top, float)).T)
    for o in other_tops:
        keep &= mine < np.hypot(*(p - np.asarray(o, float)).T)
    return p[keep], m[keep]


def rim_profile(frame: np.ndarray, top, die: float, edge, slope: tuple[float, float], wall_n,
                wall_u, other_tops=(), scales: np.ndarray = SCALES
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """``(scales, steps)``: for each ``s`` in ``scales`` the colour's step across the flat
    hypothesis's rim drawn with the footprint shifted ``s`` times the slope (Euclidean over
    B, G, R, per pixel, that all but ``RIM_SHARE`` percent of the rim's samples reach; nan
    where fewer than half an edge of samples are this die's). None where the slope is too
    small to draw a rim apart from the top's edges (under 2 px), or the rim leaves the frame."""
    toward, along = slope
    if die * float(np.hypot(toward, along)) < 2.0:
        return None
    h, w = frame.shape[:2]
    # the window the rims can reach, taken to floats once
    reach = die * (0.75 + float(scales[-1]) * float(np.hypot(toward, along))) + 3
    x0, y0 = int(top[0] - reach), int(top[1] - reach)
    x1, y1 = int(top[0] + reach) + 2, int(top[1] + reach) + 2
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    img = frame[y0:y1, x0:x1].astype(np.float32)
    origin = np.array([x0, y0], float)
    steps = []
    for s in scales:
        top_sq, foot = cube_corners(top, die, edge, slope, wall_n, wall_u, float(s))
        p, m = _samples(rim_sides(top_sq, foot), top, other_tops)
        if len(p) < 0.5 * die:
            steps.append(np.nan)
            continue
        out = []
        for sign in (-1.0, 1.0):
            q = (p + sign * m - origin).astype(np.float32)
            out.append(cv2.remap(img, q[:, 0:1], q[:, 1:2], cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE))
        step = np.linalg.norm((out[1] - out[0]).reshape(-1, 3), axis=1) / 2.0
        steps.append(float(np.percentile(step, RIM_SHARE)))
    return np.asarray(scales, float), np.asarray(steps, float)


def rim_scale(scales: np.ndarray, steps: np.ndarray, stand_out: float = 4.0,
              lowest: float = 0.1, floor_from: float = 1.4) -> tuple[float, float] | None:
    """Where the die meets the felt on a ``rim_profile``: the outermost ``s`` (from
    ``lowest``) whose step is a local maximum standing ``stand_out`` (colour levels per pixel)
    above the felt's own (the median step from ``floor_from`` out, where only felt lies):
    ``(s, step)``; None where no step stands out."""
    far = steps[(scales >= floor_from) & np.isfinite(steps)]
    floor = float(np.median(far)) if len(far) else 2.0
    best = None
    for k in range(1, len(scales) - 1):
        if scales[k] < lowest or not np.isfinite(steps[k]):
            continue
        if (steps[k] >= floor + stand_out and steps[k] >= steps[k - 1]
                and not steps[k] <= steps[k + 1]):
            best = (float(scales[k]), float(steps[k]))
    return best


def lean_rim(toward: float, tilt_deg: float) -> float:
    """How far (die edges) past its top's front edge a die tipped ``tilt_deg`` away from the
    camera's side meets the felt, as a camera of slope ``toward`` there sees it, with square
    edges: ``toward cos t - sin t`` (its front face's height as seen; a rounded rim meets it
    nearer). A flat die's: ``toward``."""
    t = math.radians(tilt_deg)
    return toward * math.cos(t) - math.sin(t)
