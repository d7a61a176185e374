"""What the band between two close dice's tops is made of: the felt, or a die's side face.

Between two flat dice lying a little apart the band between their tops is felt (lit or in their
shadow); between a die leaning on the other and that other it is the leaning die's side face
(the face that was against the other, tipped up: ``sin t`` wide). Shading scales a colour and
keeps its chromaticity (each pixel's B, G, R over their sum), so the felt in shadow keeps the
felt's and a die's shaded face keeps the die's. The band's pixels are compared with the felt
there before the throw, pixel by pixel, and with the two tops; pixels too dark to keep a
colour's proportions (the sensor's noise) are counted apart and decide nothing.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np


class PairBand(NamedTuple):
    """The band between two tops (``pair_band``)."""

    area: float  # the band (between the tops, neither top's, the rims' blur left out): faces
    dark: float  # the area of its pixels too dark to keep a colour's proportions (faces)
    off_felt: float  # ...of the others off the felt's chromaticity by ``off_tol`` (faces)
    off_felt_near_die: float  # ...of those nearer a top's chromaticity than the felt's
    dice_off_felt: float  # how far the tops' chromaticity lies from the felt's (the nearer one)
    origin: tuple[int, int]  # the window's corner in the frame (x, y)
    pixels: np.ndarray  # the window: 0 no band, 1 band the felt's, 2 band off the felt's, 3 dark


def _chroma(pixels: np.ndarray) -> np.ndarray:
    p = pixels.astype(np.float32)
    return p / (p.sum(axis=-1, keepdims=True) + 1.0)


def pair_band(frame: np.ndarray, felt: np.ndarray, origin: tuple[int, int], between: np.ndarray,
              region_a: np.ndarray, region_b: np.ndarray, die: float, rim: float = 0.06,
              darkest: float = 60.0, off_tol: float = 0.07) -> PairBand | None:
    """The band between the tops of two close dice: the pixels of ``between`` (a mask of
    ``frame``'s window at ``origin``, the shape of ``felt``, the felt there before the throw:
    the hull of the two tops) outside both top regions ``region_a``, ``region_b`` grown by
    ``rim`` die edges (a rim's blur mixes the top's colour with what lies beside it). Pixels
    whose B + G + R is under ``darkest`` are counted dark. None where the band holds fewer than
    a few pixels."""
    h, w = felt.shape[:2]
    k = max(1, int(round(rim * die))) * 2 + 1
    grown = cv2.dilate((region_a | region_b).astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    band = between & ~grown
    n = int(band.sum())
    if n < 4:
        return None
    img = frame[origin[1]:origin[1] + h, origin[0]:origin[0] + w]
    bright = img.astype(np.float32).sum(axis=2) >= darkest
    lit = band & bright
    tops = [np.median(_chroma(img[r]), axis=0) for r in (region_a, region_b)]
    felt_c = np.median(_chroma(felt[band]), axis=0)
    dice_off = min(float(np.linalg.norm(t - felt_c)) for t in tops)
    face = die * die
    c = _chroma(img[lit])
    to_felt = np.linalg.norm(c - _chroma(felt[lit]), axis=1)
    to_die = np.min([np.linalg.norm(c - t, axis=1) for t in tops], axis=0) if len(c) else to_felt
    off = to_felt > off_tol
    pixels = np.where(band, 3, 0).astype(np.uint8)
    pixels[lit] = np.where(off, 2, 1)
    return PairBand(n / face, float((band & ~bright).sum()) / face, float(off.sum()) / face,
                    float((off & (to_die < to_felt)).sum()) / face, dice_off, origin, pixels)
