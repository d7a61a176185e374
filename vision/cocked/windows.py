"""Windows of the rest frame around the dice, with the felt as it was before the throw: what
the wall cue and the pair cue measure the silhouettes in.
"""

from __future__ import annotations

import numpy as np

from vision.die_silhouette import RestSilhouettes


def with_felt(silhouettes: RestSilhouettes, frame: np.ndarray, x0: int, y0: int, x1: int,
               y1: int, least: int):
    """The window [y0:y1, x0:x1] of ``frame`` (clipped to it) and of the felt before the throw:
    ``(roi, felt, x0, y0)``, or None where it is narrower than ``least`` px or the felt is not
    known there."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < least or y1 - y0 < least:
        return None
    roi = frame[y0:y1, x0:x1]
    bg = silhouettes.felt(x0, y0, x1, y1, roi)
    if bg is None or bg.shape != roi.shape:
        return None
    return roi, bg, x0, y0


def dice_window(silhouettes: RestSilhouettes, frame: np.ndarray, points: list, r: int,
                 chroma: float | None = None, shadows: bool = False):
    """``RestSilhouettes.die_mask`` over the window ``r`` px around ``points`` (image points):
    ``(mask, xx, yy)``, or None where the window is empty or the felt before the throw is not
    known there."""
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    seen = with_felt(silhouettes, frame, int(min(xs)) - r, int(min(ys)) - r,
                      int(max(xs)) + r + 1, int(max(ys)) + r + 1, 3)
    if seen is None:
        return None
    roi, bg, x0, y0 = seen
    return silhouettes.die_mask(roi, bg, x0, y0, chroma, shadows)


def top_centres(boxes: list, readings: list) -> list[tuple[float, float]]:
    """Each resting die's top face centre: the reader's, else its box's centre."""
    tops = []
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        top = rd.center if rd is not None else None
        tops.append((float(top[0]), float(top[1])) if top is not None else tuple(box[0]))
    return tops


def die_offsets(silhouettes: RestSilhouettes, frame: np.ndarray, top, other_tops: list,
                chroma: float | None = None):
    """A resting die's silhouette as offsets (die edges) from its top face's centre ``top``:
    ``(toward, along)``, toward the back wall and along it, one per pixel; None where it cannot
    be cut out. The silhouette is the pixels changed since before the throw (shadows left out;
    with ``chroma``, those off the felt's chromaticity too: ``RestSilhouettes.die_mask``)
    nearer this top than the other dice's (``other_tops``), within an edge and a half of it."""
    geo = silhouettes.geometry
    die = geo.die
    tx, ty = float(top[0]), float(top[1])
    seen = dice_window(silhouettes, frame, [(tx, ty)], int(die * 1.5) + 2, chroma)
    if seen is None:
        return None
    mask, xx, yy = seen
    mine = (mask > 0) & ((xx - tx) ** 2 + (yy - ty) ** 2 < (1.5 * die) ** 2)
    for ox, oy in other_tops:
        mine &= (xx - tx) ** 2 + (yy - ty) ** 2 < (xx - ox) ** 2 + (yy - oy) ** 2
    if int(mine.sum()) < 0.3 * die * die:
        return None
    dx, dy = xx[mine] - tx, yy[mine] - ty
    toward = -(dx * geo.wall_n[0] + dy * geo.wall_n[1]) / die
    along = (dx * geo.wall_u[0] + dy * geo.wall_u[1]) / die
    return toward, along
