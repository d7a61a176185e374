"""A camera on a loose mount: the whole image shifted (and turned) by a fraction of a pixel
from frame to frame.

A camera on a boom arm that is not tight trembles: every frame is the felt moved by a few tenths
of a pixel. Against the background each sharp edge of the table (the rails, the printed lines,
the wall's top) then changes on every frame, a throw seems to begin on every frame and never
settles. The shift is measured, not guessed: on the background's strongest edges, a frame moved
by (u, v) differs from the background by about -(u, v) . grad(background) (the brightness
constancy of Lucas and Kanade), so a least-squares fit over those edges gives the shift, a few
hundredths of a pixel exact for shifts under one pixel; with a third unknown, the image's turn
about its centre (an arm rocks as well as slides). Dice on an edge change it far more than
a shift can: edge pixels changed past what a shift could do are left out, and so, after each
fit, are the points it explains worst.

``MountSteadier`` only measures while the table is idle (``steady``); once the shift keeps
changing by more than ``loose_px`` from one measure to the next (the median over the last
measures), the mount is loose and every frame is moved back before the tracker compares it.
A rigid mount pays only for the idle measures (one fit on every second idle frame).
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np


class MountSteadier:
    """Measure and undo a loose camera mount's shift of each frame against the background.

    :param points: how many of the background's strongest edge pixels the shift is fitted on.
    :param loose_px: the mount is loose when the shift moved by more than this many pixels
        (of the images it is given) from one idle measure to the next, in the median over the
        last ``window``. A rigid camera's measures move by about a hundredth of a pixel; a
        sharp edge of the felt shifted by a tenth of a pixel already changes by more than the
        tracker's motion test allows. The change, not the shift itself: a camera knocked
        once and left a pixel off, or dice at rest that the felt learnt has not under them,
        give a shift that stays, which the idle background follows.
    :param window: how many idle measures decide.
    """

    def __init__(self, points: int = 1500, loose_px: float = 0.04, window: int = 8) -> None:
        self.points = points
        self.loose_px = loose_px
        self._idle_moves: deque[float] = deque(maxlen=window)
        self._last_idle: tuple[float, float, float] | None = None
        self._edges: tuple[np.ndarray, ...] | None = None
        self.last_shift = (0.0, 0.0, 0.0)
        self._centre, self._reach = (0.0, 0.0), 0.0

    @property
    def loose(self) -> bool:
        """The frames moved by more than ``loose_px`` between the last idle measures."""
        w = self._idle_moves
        return len(w) == w.maxlen and float(np.median(w)) > self.loose_px

    def reset(self) -> None:
        """Forget the measures and the edges (a new camera or table)."""
        self._idle_moves.clear()
        self._last_idle = None
        self._edges = None
        self.last_shift = (0.0, 0.0, 0.0)
        self._centre, self._reach = (0.0, 0.0), 0.0

    def learn(self, background: np.ndarray, where: np.ndarray) -> None:
        """Pick the background's strongest edges inside ``where`` (a mask of the work image),
        spread over it: the points the shift is fitted on."""
        grey = cv2.GaussianBlur(_grey(background), (7, 7), 1.5)  # a smoother slope fits a
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8.0  # shift of up to a pixel
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8.0
        mag = gx * gx + gy * gy
        inside = (where > 0) & (mag > 4.0)  # a slope of 2 grey levels a pixel, at least
        ys, xs = np.nonzero(inside)
        if len(ys) < 50:
            self._edges = None
            return
        order = np.argsort(mag[ys, xs])[::-1][: self.points]
        ys, xs = ys[order], xs[order]
        h, w = grey.shape
        self._centre = (0.5 * (w - 1), 0.5 * (h - 1))
        self._reach = float(np.hypot(*self._centre))  # a turn moves the corners this far per radian
        self._edges = (ys, xs, gx[ys, xs], gy[ys, xs], grey[ys, xs],
                       (xs - self._centre[0]).astype(np.float32),
                       (ys - self._centre[1]).astype(np.float32))

    def shift(self, work: np.ndarray, rounds: int = 3) -> tuple[float, float, float]:
        """How far the work image ``work`` lies moved against the learnt background: (x, y,
        turn), the shift of its centre in pixels and its turn about the centre in radians
        (a camera on an arm rocks as much as it slides: a turn moves the corners most). The
        fit is made again ``rounds`` times where the last one puts the edges (the felt's sharp
        edges bend away from a straight slope within a pixel)."""
        if self._edges is None:
            return 0.0, 0.0, 0.0
        ys, xs, gx, gy, bg, rx, ry = self._edges
        grey = cv2.GaussianBlur(_grey(work), (7, 7), 1.5)
        gt = gy * rx - gx * ry  # how a turn about the centre changes each edge pixel
        cols = np.stack([gx, gy, gt], axis=1).astype(np.float64)
        fit = np.zeros(3)
        plausible = keep = None
        for k in range(rounds):
            if k == 0:
                it = grey[ys, xs] - bg
            else:  # the frame where the edges lie now, a pixel's part between its pixels
                u, v, t = fit
                mx = (xs + u - t * ry).astype(np.float32)[None]
                my = (ys + v + t * rx).astype(np.float32)[None]
                it = cv2.remap(grey, mx, my, cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)[0] - bg
            if plausible is None:  # a move of a pixel and a half changes an edge by no more
                # than 1.5 of its slope: past that, a die or a hand on it, not the mount
                plausible = np.abs(it) <= 1.5 * np.hypot(gx, gy) + 8.0
                keep = plausible
                if np.count_nonzero(keep) < 50:  # the felt's edges mostly covered: no measure
                    return 0.0, 0.0, 0.0
            a = cols[keep]
            normal = a.T @ a
            if np.linalg.cond(normal) > 1e8:  # edges all one way: the move along them is unknown
                return 0.0, 0.0, 0.0
            step = -np.linalg.solve(normal, a.T @ it[keep].astype(np.float64))
            fit = fit + step
            res = np.abs(it + cols @ step)
            keep = plausible & (res <= 3.0 * float(np.median(res[plausible])) + 1.0)
        self.last_shift = (float(fit[0]), float(fit[1]), float(fit[2]))
        return self.last_shift

    @property
    def learnt(self) -> bool:
        """Edges to fit on were found (a felt with no edge at all gives no measure)."""
        return self._edges is not None

    def steady(self, work: np.ndarray, idle: bool, measure: bool) -> np.ndarray:
        """``work`` moved back by its shift if the mount is loose, else as it is. While the
        table is ``idle`` the shift is noted for ``loose`` (every frame while loose, else where
        ``measure`` says: a sparse sample of frames is enough to find a loose mount)."""
        if self._edges is None:
            return work
        loose = self.loose
        if not (loose or (idle and measure)):
            return work
        move = self.shift(work, rounds=3 if loose else 1)  # to find a loose mount, one fit will do
        if idle:
            if self._last_idle is not None:
                self._idle_moves.append(self.moved_by(move, self._last_idle))
            self._last_idle = move
        return self.steadied(work, move) if self.loose else work

    def moved_by(self, a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
        """How far the image moved between two measures, in pixels: its centre's shift and
        what the turn adds at the corners."""
        return float(np.hypot(a[0] - b[0], a[1] - b[1]) + abs(a[2] - b[2]) * self._reach)

    def steadied(self, work: np.ndarray, move: tuple[float, float, float]) -> np.ndarray:
        """``work`` moved back by ``move`` (``shift``'s), then softened alike whatever the move:
        moving a line a pixel or two wide (the felt's printed lines on the shrunk image) by part
        of a pixel spreads it by as much, so frames moved back by different parts of a pixel
        would still differ along it. A blur wider than the spread hides it."""
        u, v, t = move
        cx, cy = self._centre
        # each pixel x of the result is the frame's at x + move(x)
        m = np.float32([[1, -t, u + t * cy], [t, 1, v - t * cx]])
        back = cv2.warpAffine(work, m, (work.shape[1], work.shape[0]),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
        return cv2.GaussianBlur(back, (3, 3), 0.8)


def _grey(img: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    return g.astype(np.float32)


class TrembleMeter:
    """How much a camera's image moves from frame to frame (``tablectl doctor``): each frame's
    shift against the first, measured as ``MountSteadier`` does on the first frame's strongest
    edges (the whole image, shrunk by ``shrink``), and the median of its change from one frame
    to the next, in the camera's pixels. A rigid camera gives a few hundredths of a pixel;
    dice rolling across the view do not move it (their pixels are left out of the fit).

    :param shrink: the frames are measured shrunk by this (a quarter of the pixels at 2).
    """

    def __init__(self, shrink: int = 2) -> None:
        self.shrink = shrink
        self._steadier = MountSteadier()
        self._last: tuple[float, float, float] | None = None
        self._moves: list[float] = []

    def add(self, image: np.ndarray) -> None:
        """Take the next frame (BGR or grey)."""
        h, w = image.shape[:2]
        small = cv2.resize(image, (w // self.shrink, h // self.shrink), interpolation=cv2.INTER_AREA)
        if self._last is None and not self._steadier.learnt:
            self._steadier.learn(small, np.full(small.shape[:2], 255, np.uint8))
            self._last = (0.0, 0.0, 0.0)
            return
        if not self._steadier.learnt:  # an image with no sharp edge: nothing to measure on
            return
        move = self._steadier.shift(small)
        self._moves.append(self._steadier.moved_by(move, self._last) * self.shrink)
        self._last = move

    @property
    def px(self) -> float | None:
        """The median move between frames, camera pixels; None before two measured frames."""
        return float(np.median(self._moves)) if self._moves else None
