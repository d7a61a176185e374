"""Every face drawn on the pair's own dice.

Two enrolment photos show each die of a pair with one face; where the pair's dice differ (a
kind of dark dice: black, smoky, blue bodies), the learnt die nearest a new die is chosen by
its body more than by its face, and the profile withholds right readings. So for each
enrolment die, step by step:

1. ``fit_lattice``: the labelled face's pips laid over the die's upright crop (the grid's
   step, turn and shift whose pips' places stand out most from what lies round them, beyond
   the grid's empty places);
2. ``paint_out``: the pips painted out (inpainted from the face round them): the blank face;
3. ``draw_face``: each face's pips on the blank face, the die's own pips (the photo's pixels
   round each) moved onto that face's places (``_transplant``; or discs of the pips' colour);
   ``redraw`` puts the faces drawn back in the photo.

The profile then keeps the classifier's pictures of the dice drawn (``vision.dice_profile``,
``draw_faces``: its ``drawn`` pictures). Only the photos a table owner gives are used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice_crop import die_angles
from vision.pip_count import _EDGE_PX, PATTERNS, _crop

# the lattice's grid step (die edges) tried, and the turns (degrees) and shifts (die edges)
_STEPS = np.arange(0.14, 0.325, 0.02)
# the local contrast's window and the face's middle where pips are looked for (die edges)
_AROUND = 0.45
_INNER = 0.45
_TURN = 15.0
_TURN_STEP = 3.0
_SHIFTS = np.arange(-0.08, 0.081, 0.04)
# a pip's radius, in grid steps; a one's pip is this much larger than the others'
_RADIUS = 0.45
_ONE_LARGER = 1.3
# the region painted out round each pip (its radius times this, plus a pixel)
_PAINT = 1.35
# the drawn pips' anti-aliasing (supersampling) and softening (a Gaussian, crop pixels)
_SUPER = 4
_SOFT = 0.0
# the pips' colour: the share of pixels within _CORE radii of their places that stand out most
_CORE = 0.6
_FAR = 1.0
# the pips are moved from the die's own (the photo's pixels within _TAKE radii of each), not
# drawn as discs of their colour
_TRANSPLANT = True
_TAKE = 1.3
# the inpainting's reach (crop pixels)
_INPAINT = 3
# a die whose lattice stands out from its face by less than this (Lab) is not drawn
MIN_CONTRAST = 12.0


@dataclass(frozen=True)
class Lattice:
    """The fitted pips of one upright crop (crop pixels): the grid's step (pixels), turn
    (degrees), centre, the pips' radius (pixels) and colour (BGR), and how far the pips' places
    stand out from the face's colour (Lab) beyond the empty places."""

    step: float
    turn: float
    centre: tuple[float, float]
    radius: float
    colour: tuple[float, float, float]
    contrast: float


def _places(face: int, step: float, turn: float, centre) -> np.ndarray:
    """(k, 2) crop pixels of ``face``'s pips on a grid of ``step`` pixels turned ``turn``."""
    p = PATTERNS[face] * step
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)
    return np.stack([p[:, 0] * c - p[:, 1] * s + centre[0],
                     p[:, 0] * s + p[:, 1] * c + centre[1]], axis=1)


def _sample(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Bilinear samples of a 2-D map at (..., 2) points (x, y)."""
    h, w = img.shape
    x = np.clip(xy[..., 0], 0, w - 1.001)
    y = np.clip(xy[..., 1], 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    return (img[y0, x0] * (1 - fx) * (1 - fy) + img[y0, x0 + 1] * fx * (1 - fy)
            + img[y0 + 1, x0] * (1 - fx) * fy + img[y0 + 1, x0 + 1] * fx * fy)


def fit_lattice(crop: np.ndarray, face: int) -> Lattice:
    """The labelled ``face``'s pips over an upright crop (``vision.pip_count._crop``'s, the die's
    edge ``_EDGE_PX``): every step, turn and shift of the face's pattern is tried, and the one
    whose pips' places stand out most (Lab distance from the face's median colour, smoothed
    over a pip) beyond the grid's empty places is kept."""
    n = crop.shape[0]
    c = n / 2 - 0.5
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    # each pixel's distance from what lies round it (a median over _AROUND die edges): pips
    # stand out, the face's shading, the die's sides and the felt round it much less; only
    # the face's middle counts
    k = 2 * int(_AROUND * _EDGE_PX / 2) + 1
    around = cv2.medianBlur(lab, k).astype(np.float32)
    lab = lab.astype(np.float32)
    yy, xx = np.mgrid[0:n, 0:n]
    inner = np.hypot(xx - c, yy - c) <= _INNER * _EDGE_PX
    dist = np.where(inner, np.linalg.norm(lab - around, axis=2), 0.0).astype(np.float32)
    smooth = cv2.GaussianBlur(dist, (0, 0), 0.04 * _EDGE_PX)
    grid = np.array([[i, j] for j in (-1, 0, 1) for i in (-1, 0, 1)], float)
    pattern = PATTERNS[face]
    empty = np.array([g for g in grid if not any((g == p).all() for p in pattern)])
    # the crop is upright (the die's edges found by ``die_angles``): a pattern is tried within
    # _TURN of it, and a quarter turn from it for the faces that differ there
    near = np.arange(-_TURN, _TURN + 0.1, _TURN_STEP)
    turns = np.radians(np.concatenate([near, near + 90.0]) if face in (2, 3, 6) else near)
    steps = [0.28] if face == 1 else _STEPS
    shifts = np.array([[dx, dy] for dx in _SHIFTS for dy in _SHIFTS]) * _EDGE_PX + c
    cos, sin = np.cos(turns)[:, None], np.sin(turns)[:, None]
    best = None
    for step in steps:
        pts = []
        for pat in (pattern, empty):
            x = (pat[:, 0] * cos - pat[:, 1] * sin) * step * _EDGE_PX  # (turns, k)
            y = (pat[:, 0] * sin + pat[:, 1] * cos) * step * _EDGE_PX
            xy = np.stack([x, y], -1)[:, None] + shifts[None, :, None, :]  # (turns, shifts, k, 2)
            pts.append(_sample(smooth, xy).mean(axis=2) if len(pat) else 0.0)
        score = pts[0] - pts[1]
        t, s = np.unravel_index(int(np.argmax(score)), score.shape)
        if best is None or score[t, s] > best[0]:
            best = (float(score[t, s]), float(step), math.degrees(float(turns[t])),
                    (float(shifts[s][0]), float(shifts[s][1])))
    score, step, turn, centre = best
    places = _places(face, step * _EDGE_PX, turn, centre)
    radius = _RADIUS * (0.28 if face == 1 else step) * _EDGE_PX * (_ONE_LARGER if face == 1
                                                                     else 1.0)
    # the pips' colour: within their discs, the pixels that stand out most from what lies
    # round them (a disc a little off its pip still finds it)
    core = np.zeros((n, n), bool)
    for x, y in places:
        core |= np.hypot(xx - x, yy - y) <= max(1.0, _CORE * radius)
    far = dist[core]
    pick = far >= np.quantile(far, 1.0 - _FAR)
    colour = tuple(float(v) for v in np.median(crop[core][pick].reshape(-1, 3), axis=0))
    return Lattice(step * _EDGE_PX, turn, centre, float(radius), colour, float(score))


def _discs(n: int, places: np.ndarray, radius: float) -> np.ndarray:
    """An anti-aliased (0..1) mask of discs of ``radius`` pixels at ``places``."""
    big = np.zeros((n * _SUPER, n * _SUPER), np.uint8)
    for x, y in places:
        cv2.circle(big, (int(round((x + 0.5) * _SUPER - 0.5)), int(round((y + 0.5) * _SUPER - 0.5))),
                   int(round(radius * _SUPER)), 255, -1)
    return cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def paint_out(crop: np.ndarray, face: int, lat: Lattice) -> tuple[np.ndarray, np.ndarray]:
    """The blank face (the pips inpainted from the face round them) and the mask painted."""
    n = crop.shape[0]
    places = _places(face, lat.step, lat.turn, lat.centre)
    mask = (_discs(n, places, lat.radius * _PAINT + 1.0) > 0).astype(np.uint8) * 255
    return cv2.inpaint(crop, mask, _INPAINT, cv2.INPAINT_TELEA), mask


def draw_face(blank: np.ndarray, face: int, lat: Lattice, shown: int,
              crop: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``face``'s pips drawn on the blank face in the pips' colour, on the lattice fitted to
    the ``shown`` face (a one's pip larger than the others'); and its mask (0..1)."""
    radius = lat.radius
    if face == 1 and shown != 1:
        radius *= _ONE_LARGER
    elif face != 1 and shown == 1:
        radius /= _ONE_LARGER
    step = lat.step if shown != 1 else 0.28 * _EDGE_PX
    places = _places(face, step, lat.turn, lat.centre)
    if crop is not None and _TRANSPLANT:
        return _transplant(blank, crop, _places(shown, step, lat.turn, lat.centre), places,
                           lat.radius)
    alpha = _discs(blank.shape[0], places, radius)
    if _SOFT > 0:
        alpha = cv2.GaussianBlur(alpha, (0, 0), _SOFT)
    out = blank.astype(np.float32) * (1 - alpha[..., None]) + np.array(
        lat.colour, np.float32) * alpha[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8), alpha


def _transplant(blank: np.ndarray, crop: np.ndarray, have: np.ndarray, want: np.ndarray,
                radius: float) -> tuple[np.ndarray, np.ndarray]:
    """The die's own pips (the photo's pixels round each pip fitted, ``have``) moved onto the
    blank face at ``want``, one after another (a face of more pips than the die shows takes
    them again): the pips keep their own shading, blur and glints."""
    out = blank.astype(np.float32)
    n = blank.shape[0]
    mask = np.zeros((n, n), np.float32)
    for j, (x, y) in enumerate(want):
        hx, hy = have[j % len(have)]
        m = np.float32([[1, 0, x - hx], [0, 1, y - hy]])
        moved = cv2.warpAffine(crop, m, (n, n), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        a = cv2.GaussianBlur(_discs(n, np.array([[x, y]]), radius * _TAKE), (0, 0), 0.7)
        out = out * (1 - a[..., None]) + moved * a[..., None]
        mask = np.maximum(mask, a)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8), mask


def redraw(frame: np.ndarray, dice: Sequence, face: int) -> tuple[np.ndarray, list[int]]:
    """A copy of ``frame`` with each of ``dice`` (``LabelledDie``s of that photo) drawn showing
    ``face`` (its own face too: painted out and drawn again, so the six faces of a die are
    drawn alike); and the indices of the dice drawn (a one, whose grid's spacing is unknown, or
    a die whose pips do not stand out of its face by ``MIN_CONTRAST``, is left as it is)."""
    out = frame.copy()
    todo = [i for i, d in enumerate(dice) if d.value != 1]
    if not todo:
        return out, []
    angles = die_angles(frame, [(dice[i].center[0], dice[i].center[1], dice[i].size)
                                for i in todo])
    drawn = []
    h, w = frame.shape[:2]
    for i, angle in zip(todo, angles, strict=True):
        d = dice[i]
        crop, back = _crop(frame, d.center, d.size, angle)
        lat = fit_lattice(crop, d.value)
        if lat.contrast < MIN_CONTRAST:
            continue
        blank, painted = paint_out(crop, d.value, lat)
        new, alpha = draw_face(blank, face, lat, d.value, crop)
        # only the pixels painted or drawn go back into the photo (feathered), so the rest of
        # the die and the felt keep the photo's own pixels
        change = np.maximum(painted.astype(np.float32) / 255.0, alpha)
        change = cv2.GaussianBlur(cv2.dilate(change, np.ones((3, 3), np.uint8)), (0, 0), 0.8)
        r = int(d.size) + 4
        x0, y0 = max(0, int(d.center[0]) - r), max(0, int(d.center[1]) - r)
        x1, y1 = min(w, int(d.center[0]) + r + 1), min(h, int(d.center[1]) + r + 1)
        m = back.copy()
        m[:, 2] -= (x0, y0)
        size = (x1 - x0, y1 - y0)
        patch = cv2.warpAffine(new, m, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        wgt = cv2.warpAffine(change, m, size, flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)[..., None]
        roi = out[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = np.clip(roi * (1 - wgt) + patch * wgt + 0.5, 0, 255).astype(np.uint8)
        drawn.append(i)
    return out, drawn
