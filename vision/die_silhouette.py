"""A resting die's silhouette on the full-resolution rest frame: its pixels changed since before
the throw (its shadow left out), and the rotated box around them.

The felt before the throw is the frame just before the throw's motion (at full resolution, so
a textured wall or felt survives), mended where the throwing hand was in it, else the idle
background model upscaled.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.die_track import DieTrack
from vision.throw_geometry import TableGeometry

_WEIGHTS = np.array([[1.0, 1.0, 1.0]], np.float32)  # sum of |difference| over B, G, R
_OPEN5 = np.ones((5, 5), np.uint8)


def changed_pixels(a: np.ndarray, b: np.ndarray, threshold: int) -> np.ndarray:
    """255 where two BGR images differ by more than ``threshold`` (sum over B, G, R of the
    absolute difference, 0..765), else 0."""
    d = cv2.transform(cv2.absdiff(a, b), _WEIGHTS)
    return cv2.threshold(d, threshold, 255, cv2.THRESH_BINARY)[1]


def felt_in_shadow(image: np.ndarray, felt: np.ndarray, darkest: float = 0.08,
                   lightest: float = 0.92) -> np.ndarray:
    """Where ``image`` is the ``felt`` darkened evenly (a shadow): each pixel a share k of the
    felt's colour (``darkest`` < k < ``lightest``), within 12% of it and the sensor's noise. A
    hard lamp's shadow keeps little light (k ~0.3), a die of another colour is far from any
    share of the felt's, a black die too (its channels do not keep the felt's proportions)."""
    p = image.astype(np.float32)
    f = felt.astype(np.float32)
    ff = (f * f).sum(axis=2) + 1.0
    k = (p * f).sum(axis=2) / ff
    off = p - k[..., None] * f
    resid = np.sqrt((off * off).sum(axis=2))
    return (k > darkest) & (k < lightest) & (resid < 0.12 * k * np.sqrt(ff) + 4.0)


def off_felt_chroma(image: np.ndarray, felt: np.ndarray, tol: float,
                    lightest_share: float = 0.5) -> np.ndarray:
    """Where ``image`` has another chromaticity than the ``felt`` (each pixel's B, G, R over
    their sum; ``tol``: the distance between the two, 0..1.4) and keeps at least
    ``lightest_share`` of the felt's brightness. Shading scales a colour and keeps its
    chromaticity: a die's shaded face keeps the die's, the felt in a shadow the felt's, so a
    die of nearly the felt's colour and brightness (a green die on green felt, whose faces the
    change and shadow tests take for felt) still differs here. Dark pixels are left out: their
    chromaticity is the sensor's noise."""
    p = image.astype(np.float32)
    f = felt.astype(np.float32)
    sp = p.sum(axis=2) + 1.0
    sf = f.sum(axis=2) + 1.0
    d = p / sp[..., None] - f / sf[..., None]
    off = (np.sqrt((d * d).sum(axis=2)) > tol) & (sp > lightest_share * sf)
    return cv2.morphologyEx(off.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


class RestSilhouettes:
    """The dice's silhouettes on a rest frame, against the felt as it was before the throw.

    :param geometry: the table (the back wall's line, the dice's size).
    :param start_image: the full-resolution frame just before the throw's motion, or None.
    :param background: the idle background model (work resolution, uint8), or None.
    :param scale: the work resolution's shrink factor.
    :param frame_size: the full-resolution (width, height).
    :param hand_seen: a hand was in view during the throw (maybe in ``start_image`` too).
    :param threshold: ``TrackerSettings.diff_threshold``.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        start_image: np.ndarray | None,
        background: np.ndarray | None,
        scale: int,
        frame_size: tuple[int, int],
        hand_seen: bool,
        threshold: int,
    ) -> None:
        self.geometry = geometry
        self.start_image = start_image
        self.background = background
        self.scale = scale
        self.frame_size = frame_size
        self.work_size = (frame_size[0] // scale, frame_size[1] // scale)
        self.hand_seen = hand_seen
        self.threshold = threshold

    def felt(
        self, x0: int, y0: int, x1: int, y1: int, now: np.ndarray | None = None
    ) -> np.ndarray | None:
        """The felt in the full-resolution window [y0:y1, x0:x1] as it was before the throw
        (``now``: the window of the rest frame, to see through a hand in the frame before)."""
        if self.start_image is not None and self.start_image.shape[:2] == (
            self.frame_size[1],
            self.frame_size[0],
        ):
            # the felt just before the throw, at full resolution (a textured wall or felt
            # would not survive the small background's upscaling)
            felt = self.start_image[y0:y1, x0:x1]
            if self.hand_seen and self.background is not None and now is not None:
                # the hand that threw was in that frame, or its shadow: where that frame differs
                # from the background (over more than a texture's edge) and the rest frame does
                # not, the felt shows again at rest: take the rest frame there
                bg = self.felt_model(x0, y0, x1, y1)
                hand = cv2.bitwise_and(
                    changed_pixels(felt, bg, self.threshold),
                    cv2.bitwise_not(changed_pixels(now, bg, self.threshold)),
                )
                hand = cv2.morphologyEx(hand, cv2.MORPH_OPEN, _OPEN5)
                if cv2.countNonZero(hand):
                    felt = felt.copy()
                    felt[hand > 0] = now[hand > 0]
            return felt
        if self.background is None:
            return None
        return self.felt_model(x0, y0, x1, y1)

    def felt_model(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """The background model (idle felt, work resolution) upscaled to the window."""
        s = self.scale
        bx0, by0 = x0 // s, y0 // s
        bx1 = min(self.work_size[0], -(-x1 // s) + 1)
        by1 = min(self.work_size[1], -(-y1 // s) + 1)
        bg = cv2.resize(
            self.background[by0:by1, bx0:bx1],
            ((bx1 - bx0) * s, (by1 - by0) * s),
            interpolation=cv2.INTER_LINEAR,
        )
        ox, oy = x0 - bx0 * s, y0 - by0 * s
        return bg[oy : oy + (y1 - y0), ox : ox + (x1 - x0)]

    def die_mask(self, roi: np.ndarray, bg: np.ndarray, x0: int, y0: int,
                 chroma: float | None = None, shadows: bool = False):
        """Pixels of a window (origin x0, y0) that dice cover: changed since before the throw,
        not the felt darkened evenly (a shadow; with ``shadows``, kept: a die of the felt's
        colour has its shaded faces so), not well beyond the wall line. ``chroma``: as well,
        pixels off the felt's chromaticity by more than this (``off_felt_chroma``: a die of the
        felt's colour). Returns the mask and the window's pixel coordinates (xx, yy)."""
        geo = self.geometry
        die = geo.die
        mask = changed_pixels(roi, bg, self.threshold)
        if not shadows:
            # the felt darkened evenly is the die's shadow, not the die: cast by the lamp to
            # any side, it would shift the silhouette the cocked cues compare with the top face
            mask[felt_in_shadow(roi, bg)] = 0
        if chroma is not None:
            mask |= off_felt_chroma(roi, bg, chroma)
        h, w = roi.shape[:2]
        yy, xx = np.mgrid[y0 : y0 + h, x0 : x0 + w]
        # The die hides the wall's foot and shades it: pixels well beyond the wall line are not
        # the die's top (they would drag the box onto the wall).
        d_wall = (xx - geo.wall_p[0]) * geo.wall_n[0] + (yy - geo.wall_p[1]) * geo.wall_n[1]
        mask[d_wall < -0.35 * die] = 0
        return mask, xx, yy

    def rest_box(self, frame: np.ndarray, tr: DieTrack, others: list[DieTrack]):
        """The die's rotated rectangle on the full-resolution rest frame (a die's size where
        it cannot be cut out); ``others``: the other dice at rest."""
        die = self.geometry.die
        h, w = frame.shape[:2]
        cx, cy = tr.last
        r = int(die * 1.1) + 2
        x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
        x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            return ((cx, cy), (die, die), 0.0)
        roi = frame[y0:y1, x0:x1]
        bg = self.felt(x0, y0, x1, y1, roi)
        if bg is None or bg.shape != roi.shape:
            return ((cx, cy), (die, die), 0.0)
        mask, xx, yy = self.die_mask(roi, bg, x0, y0)
        # pixels nearer another die belong to it (dice that touch)
        if others:
            mine = (xx - cx) ** 2 + (yy - cy) ** 2
            for o in others:
                ox_, oy_ = o.last
                if math.hypot(ox_ - cx, oy_ - cy) < 2 * die:
                    mask[((xx - ox_) ** 2 + (yy - oy_) ** 2) < mine] = 0
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        n, lab, st, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n < 2:
            return ((cx, cy), (die, die), 0.0)
        k = 1 + int(np.argmax(st[1:, cv2.CC_STAT_AREA]))
        ys, xs = np.nonzero(lab == k)
        pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float32)
        box = cv2.minAreaRect(pts)
        (bw, bh) = box[1]
        return (float(box[0][0]), float(box[0][1])), (float(bw), float(bh)), float(box[2])
