"""A resting die's top face measured by its pips: where the face's centre is, from points the
felt's colour and the die's shadow cannot blur.

Every face of a standard die lays its pips out point-symmetric about the face's centre (one in
the middle; two, four, six in pairs across it; three and five both), so the pips' mean is the
top face's centre whatever the face, and a set of pips that is not point-symmetric is not one
face's (a side face's pips taken in, a glare, a seam).

The pips are looked for two ways: as holes in the region of the top's colour (``pips_as_holes``,
exact where the face is evenly lit), and where that finds no face's, as spots that stand out from
the die around them (``pips_by_contrast``): a lamp's glare or its shading across the face splits
the region of one colour, and a pip at the face's edge then opens onto the outside and is no
hole (how often each way finds them: docs/replay.md, "The pips found by their contrast").
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np


class TopPips(NamedTuple):
    """The pips found on a top face (image pixels)."""

    centers: tuple[tuple[float, float], ...]  # each pip's centroid
    center: tuple[float, float]  # their mean: the top face's centre

    @property
    def count(self) -> int:
        return len(self.centers)

    @property
    def turn(self) -> float | None:
        """How the face is turned (degrees, 0 to 90: its edges' direction in the image, as
        ``cv2.minAreaRect`` gives a square's), from its corner pips: every face but the one
        has pips at two or four corners, on the face's diagonals (45 degrees to its edges),
        farther from its centre than any other pip. None for a face of one."""
        d = np.array(self.centers) - np.array(self.center)
        reach = np.hypot(d[:, 0], d[:, 1])
        if self.count < 2 or reach.max() <= 0:
            return None
        corners = d[reach >= 0.8 * reach.max()]
        angle = np.arctan2(corners[:, 1], corners[:, 0])
        # the corners' directions repeat every quarter turn: their mean taken on four times
        # the angle
        diagonal = math.degrees(math.atan2(np.sin(4 * angle).mean(),
                                           np.cos(4 * angle).mean())) / 4
        return (diagonal - 45.0) % 90.0

    @property
    def squareness(self) -> float | None:
        """How square the face's corner pips lie (0 to 1): their spread along the face's
        narrower edge over that along its wider, as the camera sees them. A top tilted by t
        shows cos t across the tilt, a flat one about 1 (less only by the view's
        foreshortening and the pips' error). None for a face of fewer than
        four pips (two or three lie on one diagonal: no second direction to compare)."""
        turn = self.turn
        if self.count < 4 or turn is None:
            return None
        d = np.array(self.centers) - np.array(self.center)
        reach = np.hypot(d[:, 0], d[:, 1])
        corners = d[reach >= 0.8 * reach.max()]
        a = math.radians(turn)
        along = np.ptp(corners @ np.array([math.cos(a), math.sin(a)]))
        across = np.ptp(corners @ np.array([-math.sin(a), math.cos(a)]))
        wide = max(along, across)
        return float(min(along, across) / wide) if wide > 0 else None


# a pip's radius (die edges): a round spot about a fifth of an edge across
PIP_RADIUS = 0.105


def top_pips(frame: np.ndarray, top, die: float, colour_tol: float = 18.0,
             symmetry: float = 0.09, contrast: float | None = 60.0,
             face: int | None = None) -> TopPips | None:
    """The pips of the top face around ``top`` (the reader's top-face centre, image pixels) on
    a BGR ``frame`` whose dice are ``die`` pixels wide: as holes in the face's region
    (``pips_as_holes``), else (none found, or with ``face`` given not ``face`` many) as spots
    standing ``contrast`` out from the die around them (``pips_by_contrast``; None: the holes
    only); None where neither finds a face's pips."""
    found = pips_as_holes(frame, top, die, colour_tol, symmetry)
    if contrast is not None and (found is None or (face is not None and found.count != face)):
        found = pips_by_contrast(frame, top, die, symmetry, contrast) or found
    return found


def _window(frame: np.ndarray, top, die: float):
    """The square about ``top`` that holds the top face and its pips whatever its turn
    (0.75 edge each way, cut at the frame's borders): (x0, y0, x1, y1)."""
    h, w = frame.shape[:2]
    x, y = int(round(top[0])), int(round(top[1]))
    r = int(0.75 * die) + 2
    return max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)


def _one_face(found: list[tuple[float, float]], die: float, symmetry: float) -> TopPips | None:
    """``found`` as one face's pips: one to six, each with its mirror image through their mean
    within ``symmetry`` die edges; else None."""
    if not 1 <= len(found) <= 6:
        return None
    pts = np.array(found)
    mean = pts.mean(axis=0)
    mirrored = 2 * mean - pts
    gaps = np.sqrt(((mirrored[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    if gaps.max() > symmetry * die:
        return None
    return TopPips(tuple((float(a), float(b)) for a, b in found),
                   (float(mean[0]), float(mean[1])))


def _pip_like(stats, cents, k: int, x0: int, y0: int, top, die: float,
              round_: float = 0.0) -> tuple[float, float] | None:
    """Component ``k``'s centroid (image pixels) if it is a pip of the top face: about a pip's
    area, neither a seam nor a sliver, at least ``round_`` of its bounding box filled, within
    half an edge of ``top``; else None."""
    pip_area = np.pi * (PIP_RADIUS * die) ** 2
    area = stats[k, cv2.CC_STAT_AREA]
    bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
    if not 0.35 * pip_area <= area <= 2.2 * pip_area:
        return None
    if max(bw, bh) > 0.36 * die or min(bw, bh) < 0.1 * die or area < round_ * bw * bh:
        return None  # a seam or a sliver, not a round pip
    px, py = float(cents[k][0]) + x0, float(cents[k][1]) + y0
    if (px - top[0]) ** 2 + (py - top[1]) ** 2 > (0.5 * die) ** 2:
        return None
    return px, py


def pips_by_contrast(frame: np.ndarray, top, die: float, symmetry: float = 0.09,
                     contrast: float = 60.0) -> TopPips | None:
    """The pips of the top face around ``top`` found as spots that stand out from the die
    around them: pixels more than ``contrast`` (Lab distance, 0-255 units) from the median of
    the 0.45 edge about them, which a pip (0.21 edge across) cannot move but a glare's or a
    shade's slow change across the face follows; opened by a disk of 0.14 edge, which keeps a
    pip and drops the thin lines of the die's outline and its faces' seams. They count as one
    face's as in ``top_pips``; None where they do not."""
    x0, y0, x1, y1 = _window(frame, top, die)
    if x1 - x0 < 0.75 * die or y1 - y0 < 0.75 * die:
        return None
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)
    k = max(3, int(0.45 * die) | 1)
    around = np.dstack([cv2.medianBlur(np.ascontiguousarray(lab[:, :, c]), k)
                        for c in range(3)]).astype(np.float32)
    off = np.sqrt(((lab.astype(np.float32) - around) ** 2).sum(axis=2))
    spots = (off > contrast).astype(np.uint8)
    o = max(3, int(round(0.14 * die)) | 1)
    spots = cv2.morphologyEx(spots, cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (o, o)))
    m, _, stats, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    found = [p for k in range(1, m)
             if (p := _pip_like(stats, cents, k, x0, y0, top, die, round_=0.5)) is not None]
    return _one_face(found, die, symmetry)


def pips_as_holes(frame: np.ndarray, top, die: float, colour_tol: float = 18.0,
                  symmetry: float = 0.09) -> TopPips | None:
    """The pips of the top face around ``top`` found as holes in the region of its colour.

    The face is the region of the top's colour (the median of its middle, a fifth of an edge
    each way) joined to the middle; its pips are the holes in it of about a pip's size (0.2-0.3
    edge across), within 0.5 edge of ``top``. They count as one face's when there are one to
    six and each has its mirror image through their mean within ``symmetry`` die edges.
    ``colour_tol``: Lab units (lightness as much as colour) a face pixel may lie off the top's
    colour."""
    h, w = frame.shape[:2]
    x, y = int(round(top[0])), int(round(top[1]))
    c = max(1, int(0.2 * die))
    x0, y0, x1, y1 = _window(frame, top, die)
    if not (x0 + c <= x < x1 - c and y0 + c <= y < y1 - c):
        return None
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    middle = lab[y - y0 - c:y - y0 + c + 1, x - x0 - c:x - x0 + c + 1].reshape(-1, 3)
    ref = np.median(middle, axis=0)
    dist = ((lab - ref) ** 2).sum(axis=2)
    face = (dist < colour_tol * colour_tol).astype(np.uint8)
    n, parts = cv2.connectedComponents(face, connectivity=4)
    counts = np.bincount(
        parts[y - y0 - c:y - y0 + c + 1, x - x0 - c:x - x0 + c + 1].ravel(), minlength=n)
    counts[0] = 0
    if n < 2 or counts.max() == 0:
        return None
    part = (parts == int(np.argmax(counts))).astype(np.uint8)
    # the holes: what the window's border cannot reach from outside the face
    outside = np.pad(1 - part, 1, constant_values=1)
    _, reach = cv2.connectedComponents(outside, connectivity=4)
    holes = ((reach[1:-1, 1:-1] != reach[0, 0]) & (part == 0)).astype(np.uint8)
    m, _, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    found = [p for k in range(1, m)
             if (p := _pip_like(stats, cents, k, x0, y0, top, die)) is not None]
    return _one_face(found, die, symmetry)
