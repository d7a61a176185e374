"""What the dice and the hand are lit and blurred by, shared by their drawers (``render``,
``hand``): the lamp's direction and motion blur."""

from __future__ import annotations

import numpy as np

LIGHT = np.array([-0.35, 0.45, 0.82])  # toward the lamp: above, a little left and in front
LIGHT = LIGHT / np.linalg.norm(LIGHT)


def smear(acc: np.ndarray, mx: float, my: float) -> np.ndarray:
    """Motion blur: the mean of copies of acc shifted along (mx, my), centred."""
    n = int(min(max(abs(mx), abs(my)) // 2 + 2, 9))
    h, w = acc.shape[:2]
    out = np.zeros_like(acc)
    for t in np.linspace(-0.5, 0.5, n):
        dx, dy = int(round(mx * t)), int(round(my * t))
        if abs(dx) >= w or abs(dy) >= h:
            continue  # shifted wholly out of a region clipped by the image's edge
        ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
        xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
        out[yd, xd] += acc[ys, xs]
    out *= 1.0 / n
    return out
