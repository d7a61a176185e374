"""The top-face cue and the top face itself: its region of one colour, its shape
(``foreshortened``: a tilted top shows cos t across the tilt), its pips (``agreeing_pips``)
and the square it makes (``top_square``) for the pair cue's proofs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

from vision.cocked.settings import CockedSettings
from vision.throw_geometry import TableGeometry
from vision.top_pips import top_pips


def _top_colour_distance(frame: np.ndarray, top, die: float, lightness: float):
    """Around the top face's centre ``top`` (a window an edge and a fifth each way), each
    pixel's squared Lab distance from the top's colour (the median of its middle, a fifth of an
    edge each way), lightness weighed by ``lightness``: ``(dist, (x0, y0), (x, y), c)``, the
    window's origin, the centre's pixel and the middle's half-width; None where the middle
    does not fit in the frame."""
    h, w = frame.shape[:2]
    x, y = int(round(top[0])), int(round(top[1]))
    r = int(die * 1.2) + 2
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)
    c = max(1, int(0.2 * die))
    if not (x0 + c <= x < x1 - c and y0 + c <= y < y1 - c):
        return None
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = np.median(lab[y - y0 - c : y - y0 + c, x - x0 - c : x - x0 + c].reshape(-1, 3), axis=0)
    dist = (lightness * (lab[..., 0] - ref[0]) ** 2 + (lab[..., 1] - ref[1]) ** 2
            + (lab[..., 2] - ref[2]) ** 2)
    return dist, (x0, y0), (x, y), c


def top_face_shape(frame: np.ndarray, top, die: float, colour_tol: float = 16.0):
    """The top face as the camera sees it: ``(long, short)`` sides (die edges) of the region
    around the reader's top-face centre ``top`` that has the top's colour, pips closed; None
    where no face region is found.

    A flat die's top face is a square of about ``die_px`` (a side face, turned away from the
    lamp or from the camera, shades differently); a die resting tilted by t shows its top
    foreshortened to cos(t) across the tilt, its second face beside it. Lightness counts a
    quarter as much as colour (a face in its own shadow is still the die's colour).
    """
    near = _top_colour_distance(frame, top, die, 0.25)
    if near is None:
        return None
    dist, (x0, y0), (x, y), _ = near
    mask = (dist < colour_tol * colour_tol).astype(np.uint8) * 255
    k = max(3, int(0.2 * die) | 1)  # closes the pips
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, lab_m, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    part = lab_m[y - y0, x - x0]
    if n < 2 or part == 0:
        return None
    ys, xs = np.nonzero(lab_m == part)
    if len(xs) < 5:
        return None
    (_, _), (bw, bh), _ = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
    return max(bw, bh) / die, min(bw, bh) / die


def top_faces(
    geometry: TableGeometry, settings: CockedSettings, frame: np.ndarray, boxes: list,
    readings: list,
) -> list[bool | None]:
    """``foreshortened`` for each resting die (at the reader's top-face centre, else the
    box's centre; where that sees no whole face, ``pips_foreshortened``); all None with
    ``geometric_cocked`` off."""
    out: list[bool | None] = []
    for i, box in enumerate(boxes):
        if not settings.geometric_cocked:
            out.append(None)
            continue
        rd = readings[i] if i < len(readings) else None
        top = rd.center if rd is not None else None
        top = (float(top[0]), float(top[1])) if top is not None else box[0]
        seen = foreshortened(top_face_shape(frame, top, geometry.die), settings)
        if seen is None and settings.face_pips and rd is not None:
            seen = pips_foreshortened(settings, frame, rd, geometry.die)
        out.append(seen)
    return out


def pips_foreshortened(settings: CockedSettings, frame: np.ndarray, reading,
                       die: float) -> bool | None:
    """The top-face cue by the pips (``face_pips``): where the top's region of one colour is no
    whole face (a glare or a shade across it), a face of four pips or more (``top_pips``, as
    many as the reader's face, within ``wall_pip_agree`` of its centre) whose corner pips lie
    less square than ``face_square`` (``TopPips.squareness``) is tilted, one more square is
    not if the reader read it (a die leaning steeply shows a side face square to the camera,
    its best face); None where no such pips are found."""
    pips = agreeing_pips(settings, frame, reading, die)
    square = None if pips is None else pips.squareness
    if square is None:
        return None
    if square < settings.face_square:
        return True
    # square pips prove a flat top only of a face the reader read: a die leaning 30-45 degrees
    # turns a side face up to the camera, square to it, and the reader sees it as the best face
    return False if reading.value is not None else None


def foreshortened(shape, settings: CockedSettings) -> bool | None:
    """Whether a top face (``top_face_shape``) is foreshortened: True (tilted), False (square:
    it lies flat), None (no whole face seen: the cue cannot tell)."""
    if shape is None:
        return None
    long, short = shape
    if not settings.face_min <= long <= settings.face_max or short < settings.face_narrowest:
        return None  # a piece of the face, or the face merged with the felt or the other die
    # narrow for its length and for a die there: a flat die's side face of the top's shade
    # lengthens the region, it does not narrow it
    return short / long < settings.face_square and short < settings.face_narrow


def top_region(frame: np.ndarray, top, die: float, tol: float = 10.0,
               seams: bool = False) -> np.ndarray | None:
    """The full-frame mask of the region around the top face's centre ``top`` that has the
    top's colour and lightness (pips closed), or None. Unlike ``top_face_shape`` (lightness a
    quarter: a face in its own shadow is still the die's colour) the lightness counts fully, so
    the region stops at the top's front edge where the front face shades differently.

    ``seams``: the pips filled as holes rather than closed, the region's pixels joined only by
    their sides, so that a thin line off the top's colour (the seam between two faces of one
    shade, a die's rounded edge) bounds it as well."""
    found = _top_colour_distance(frame, top, die, 1.0)
    if found is None:
        return None
    dist, (x0, y0), (x, y), c = found
    h, w = frame.shape[:2]
    y1, x1 = y0 + dist.shape[0], x0 + dist.shape[1]
    near = (dist < tol * tol).astype(np.uint8) * 255
    if not seams:
        k = max(3, int(0.2 * die) | 1)
        near = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, parts = cv2.connectedComponents(near, connectivity=4 if seams else 8)
    # the part covering most of the top's middle (a pip the closing left open may sit on the
    # centre itself)
    counts = np.bincount(
        parts[y - y0 - c:y - y0 + c + 1, x - x0 - c:x - x0 + c + 1].ravel(), minlength=n)
    counts[0] = 0
    if n < 2 or counts.max() == 0:
        return None
    part = parts == int(np.argmax(counts))
    if seams:
        # the pips are holes in it: all that the window's border cannot reach from outside it
        outside = np.pad(~part, 1, constant_values=True).astype(np.uint8)
        _, reach = cv2.connectedComponents(outside, connectivity=4)
        part = reach[1:-1, 1:-1] != reach[0, 0]
    out = np.zeros((h, w), bool)
    out[y0:y1, x0:x1] = part
    return out


def agreeing_pips(settings: CockedSettings, frame: np.ndarray, reading, die: float,
                  agree: float | None = None):
    """The top face's pips (``top_pips``) where they are as many as the reader's face (its
    value, else its ``best_face``) and their centre lies within ``agree`` die edges of the
    reader's (default ``wall_pip_agree``): both saw the same face. None elsewhere."""
    face = reading.value if reading.value is not None else reading.best_face
    if face is None:
        return None
    pips = top_pips(frame, reading.center, die, contrast=settings.pip_contrast, face=int(face))
    bar = settings.wall_pip_agree if agree is None else agree
    if pips is None or pips.count != int(face) or math.dist(pips.center,
                                                            reading.center) > bar * die:
        return None
    return pips


def pips_centre(settings: CockedSettings, frame: np.ndarray, reading, die: float):
    """The top face's centre as its pips give it (``agreeing_pips``); else None."""
    pips = agreeing_pips(settings, frame, reading, die)
    return None if pips is None else pips.center


class TopSquare(NamedTuple):
    """A resting die's top face as a square: where its pips put its centre, how it is turned
    (image pixels, degrees)."""

    centre: tuple[float, float]
    turn: float
    region: np.ndarray | None  # the top's region (``top_region``), full-frame mask; None:
    # the square stands on its pips alone (``pair_top_pips``)


def top_square(settings: CockedSettings, frame: np.ndarray, reading, die: float,
               agree: float) -> TopSquare | None:
    """The top face of a read die as a square (``TopSquare``), or None: its pips
    (``top_pips``) as many as the reader's face, their centre within ``agree`` die edges of
    the reader's (0.01 edge from the true centre on the dev sets, against the reader's 0.04),
    and its region (``top_region``, whose turn it takes) a whole square, ``pair_top_size`` die edges long with its sides
    within ``pair_top_square`` of each other (a face merged with a side of its shade or with
    the other die's top is not), or with ``pair_top_pips`` a face the reader read of four pips
    or more whose region is no whole square (a glare or a shade across it splits it) but whose
    corner pips lie as square."""
    pips = agreeing_pips(settings, frame, reading, die, agree)
    if pips is None:
        return None
    for seams in (False, True) if settings.pair_top_seams else (False,):
        region = top_region(frame, reading.center, die, seams=seams)
        if region is None:
            continue
        ys, xs = np.nonzero(region)
        (_, _), (bw, bh), turn = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
        low, high = settings.pair_top_size
        long, short = max(bw, bh) / die, min(bw, bh) / die
        if low <= long <= high and short >= settings.pair_top_square * long:
            return TopSquare(pips.center, float(turn), region)
    # on its pips alone only a top the reader read (not one it took for a lean) whose pips lie
    # square: a die leaning 30-45 degrees on the other turns a side face up to the camera,
    # square to it, whose pips give a square that touches the other's top (dev 79153, 85219:
    # 36.1 and 43.5 degrees, their best faces' pips 1.0 square, gaps -0.01 and 0.00)
    square = pips.squareness
    if (settings.pair_top_pips and reading.value is not None and square is not None
            and square >= settings.pair_top_square):
        return TopSquare(pips.center, pips.turn, None)
    return None
