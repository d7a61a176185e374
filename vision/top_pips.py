"""A resting die's top face measured by its pips: where the face's centre is, from points the
felt's colour and the die's shadow cannot blur.

Every face of a standard die lays its pips out point-symmetric about the face's centre (one in
the middle; two, four, six in pairs across it; three and five both), so the pips' mean is the
top face's centre whatever the face, and a set of pips that is not point-symmetric is not one
face's (a side face's pips taken in, a glare, a seam).
"""

from __future__ import annotations

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


def top_pips(frame: np.ndarray, top, die: float, colour_tol: float = 18.0,
             symmetry: float = 0.09) -> TopPips | None:
    """The pips of the top face around ``top`` (the reader's top-face centre, image pixels) on
    a BGR ``frame`` whose dice are ``die`` pixels wide; None where no face's pips are found.

    The face is the region of the top's colour (the median of its middle, a fifth of an edge
    each way) joined to the middle; its pips are the holes in it of about a pip's size (0.2-0.3
    edge across), within 0.5 edge of ``top``. They count as one face's when there are one to
    six and each has its mirror image through their mean within ``symmetry`` die edges.
    ``colour_tol``: Lab units (lightness as much as colour) a face pixel may lie off the top's
    colour."""
    h, w = frame.shape[:2]
    x, y = int(round(top[0])), int(round(top[1]))
    r = int(0.75 * die) + 2
    c = max(1, int(0.2 * die))
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)
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
    m, lab_h, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    pip_area = np.pi * (0.105 * die) ** 2
    found = []
    for k in range(1, m):
        area = stats[k, cv2.CC_STAT_AREA]
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if not 0.35 * pip_area <= area <= 2.2 * pip_area:
            continue
        if max(bw, bh) > 0.36 * die or min(bw, bh) < 0.1 * die:
            continue  # a seam or a sliver, not a round pip
        px, py = float(cents[k][0]) + x0, float(cents[k][1]) + y0
        if (px - top[0]) ** 2 + (py - top[1]) ** 2 > (0.5 * die) ** 2:
            continue
        found.append((px, py))
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
