"""Shrinking a frame for the detector: the pixels of ``cv2.resize(..., cv2.INTER_AREA)``, cheaper.

``find`` looks at a 640x480 frame twice: its coarse probe at a quarter of the size, then the
whole-frame look at half. OpenCV shrinks by a whole factor of 2 on a fast vector path (each
pixel the mean of 2x2, ``(sum + 2) >> 2``), but by 4 on a slow scalar loop (the mean of 4x4,
rounded half to even), five times the cost of the half. The same pixels come from exact sums
in 16 bits: pixels times 4, shrunk by 2 on the fast path, are the 2x2 sums to the bit
(``(4 * sum + 2) >> 2``); those times 4, shrunk by 2 again, the 4x4 sums. The half is then the
2x2 sums rounded as OpenCV rounds them, at no extra cost once the quarter is made.
"""

from __future__ import annotations

import cv2
import numpy as np


class Shrinker:
    """One frame's shrinks by ``cv2.INTER_AREA``, each the pixels ``cv2.resize`` gives.

    :param frame: the 8-bit frame (any number of channels) the shrinks are of; it must not
        change while the shrinker is used (the 2x2 sums are kept).
    """

    def __init__(self, frame: np.ndarray):
        self.frame = frame
        self._sums2: np.ndarray | None = None  # 2x2 sums (uint16), made for the quarter

    def __call__(self, size: tuple[int, int]) -> np.ndarray:
        """The frame shrunk to ``size`` (width, height), as cv2.resize with INTER_AREA."""
        frame = self.frame
        h, w = frame.shape[:2]
        dw, dh = size
        if frame.dtype == np.uint8 and (w, h) == (4 * dw, 4 * dh):
            sums4 = cv2.resize(self._sums(dw * 2, dh * 2) * np.uint16(4), size,
                               interpolation=cv2.INTER_AREA)
            # sum / 16, exact in float, rounded half to even (as OpenCV rounds) into 8 bits
            return cv2.convertScaleAbs(sums4, alpha=1 / 16)
        if self._sums2 is not None and (w, h) == (2 * dw, 2 * dh):
            # (sum + 2) >> 2: sum / 4 + 1/8, exact in float, rounded, is the same
            return cv2.convertScaleAbs(self._sums2, alpha=1 / 4, beta=1 / 8)
        return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)

    def _sums(self, dw: int, dh: int) -> np.ndarray:
        """The frame's 2x2 sums (uint16, exact: at most 1,020)."""
        if self._sums2 is None:
            four = self.frame.astype(np.uint16)
            four *= np.uint16(4)  # numpy multiplies 16-bit integers in vectors, shifts them not
            self._sums2 = cv2.resize(four, (dw, dh), interpolation=cv2.INTER_AREA)
        return self._sums2
