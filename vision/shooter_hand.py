"""The shooter's hand in the view: any blob bigger than a few dice (a hand, an arm, an object),
never a die.

No die is first seen touching the image's border or within ``hand_birth_margin`` of a hand, so
pieces of the hand (its edge at the border, its shadow) are not taken for dice, and dice coming
out from under the hand are taken up as soon as they are clear of it. A hand within
``hand_margin`` of the thrown dice has come to them (to pick them up).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.die_track import DieTrack


def hand_zone(labels: np.ndarray, stats: np.ndarray, n: int, big_blob: float) -> np.ndarray | None:
    """The work-res distance to the nearest pixel of a hand (a blob of more than ``big_blob``
    work px, of the ``n`` labelled blobs), or None when no hand is in view."""
    big = np.flatnonzero(stats[1:n, cv2.CC_STAT_AREA] > big_blob) + 1
    if not len(big):
        return None
    off = np.where(np.isin(labels, big), 0, 255).astype(np.uint8)
    return cv2.distanceTransform(off, cv2.DIST_L2, 3)


def hand_near(zone: np.ndarray | None, tracks: list[DieTrack], scale: int, reach: float) -> bool:
    """Whether a hand's zone (``hand_zone``) comes within ``reach`` work px of any of these
    dice (their last positions, full-resolution px; ``scale``: the work resolution's
    shrink factor)."""
    if zone is None:
        return False
    h, w = zone.shape
    s = scale
    for tr in tracks:
        x, y = tr.last
        if zone[min(h - 1, max(0, int(y / s))), min(w - 1, max(0, int(x / s)))] <= reach:
            return True
    return False


def touches_border(box, shape: tuple[int, ...]) -> bool:
    """Whether a blob's bounding box (x, y, w, h) touches the edge of an image of ``shape``."""
    x, y, w, h = box
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]


def near_hand(
    labels: np.ndarray,
    b: int,
    box,
    zone: np.ndarray | None,
    prev_zone: np.ndarray | None,
    birth: float,
    reach: float | None = None,
) -> bool:
    """Whether blob ``b`` (work-res bounding box x, y, w, h) touches the image's border or
    lies within ``reach`` work px (default: ``birth``, the ``hand_birth_margin``) of a hand,
    this frame (``zone``) or the last (``prev_zone``): a piece of the hand, not a die (yet)."""
    x, y, w, h = box
    if reach is None:
        if touches_border(box, labels.shape):
            return True
        reach = birth
    # the dice come out of the hand's blob of the frame before: only the hand's zone
    # of this frame keeps them from being taken up
    zones = (zone,) if reach == birth else (zone, prev_zone)
    for z in zones:
        if z is None:
            continue
        near = z[y : y + h, x : x + w][labels[y : y + h, x : x + w] == b]
        if near.size and float(near.min()) <= reach:
            return True
    return False
