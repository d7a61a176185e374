"""A die's top face counted by its pips' geometry: a second opinion beside the learnt classifier
that no look of a renderer or a photo set can fool.

Every face of a standard die lays out its one to six pips on a 3x3 grid, in one of six
patterns, point-symmetric about the face's centre; the pips are alike in size and the grid's
spacing is a fixed share of the die's edge. A set of blobs that differ from the face's colour
(lighter or darker: white pips on black, black on white, red on smoky) and fit one pattern
(under the face's turn) with the other grid places plainly empty is that face: ``clean``.
Anything else (a glare, a shadow, a side face's pips, a blur, a pip lost against the body) is
no count at all, never a guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# the working crop: the die's edge in pixels, and the crop's side in die edges
_EDGE_PX = 40
_SIDE = 1.3

# each face's pips on the 3x3 grid, in grid steps from the face's centre
PATTERNS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], float),
    6: np.array([[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]], float),
}
_GRID = np.array([[i, j] for j in (-1, 0, 1) for i in (-1, 0, 1)], float)
# a pattern's turns that differ: two, three and six repeat every half turn, four and five
# every quarter turn
_TURN_SPAN = {2: 180.0, 3: 180.0, 4: 90.0, 5: 90.0, 6: 180.0}


@dataclass(frozen=True)
class PipSettings:
    """What a clean pattern is (lengths in die edges).

    :param min_contrast: the pips' colour lies at least this far (Lab, OpenCV's 8-bit scale)
        from the face's.
    :param pip_across: a pip's diameter lies within (smallest, largest).
    :param one_across: ... a one's single pip within this (often larger).
    :param sizes_alike: the largest pip's area is at most this many times the smallest's.
    :param step: the grid's spacing lies within (smallest, largest) ...
    :param fit: ... and every pip lies within this many grid steps of its pattern place.
    :param empty: an empty grid place is on average less than this of the way from the face's
        colour to the pips'.
    :param reach: pips are looked for within this distance of the given centre ...
    :param off_centre: ... and their mean lies within this of it (a side face's pip taken in
        pulls it off).
    :param depths: the pips are cut from the face at these shares of the way from the face's
        colour to theirs; the depths that find a clean face must agree.
    :param glare: beside pips at least ``pip_chroma`` chromatic (Lab), a pixel this much
        lighter (Lab L) than both the face and its pips is a glare: looked past.
    :param round_: a pip's long axis (its second moments') is at most this many times its
        short one (a side face's pips are foreshortened).
    :param six_rows: a six's rows lie this many grid steps apart, its two columns two (some
        dice set a six's three rows closer than its columns; 1.0: the square grid).
    :param glare_over: a blob not round whose lightest fifth lies this much lighter (Lab L)
        than the lighter of the face's and the pips' colours is a glare (a translucent body's
        reflection arc or streak), looked past, its pixels left as they are for the empty
        places' test; None: off.
    :param split_pairs: a blob not round of about two pips' area (``pair_area`` times the
        median round pip's) is cut in two across its long axis, two pips; the pattern's tests
        decide, as for any pips.
    :param pair_area: (smallest, largest) area of such a pair, in round pips' median areas.
    :param sliver: a blob of less than this many round pips' median area and at least
        ``sliver_long`` times as long as wide (a rim's sliver, a side face's edge, a streak of
        marbling; a side face's foreshortened pip is shorter) is looked past, its pixels left
        as they are for the empty places' test; None: off.
    :param past_off: a blob looked past (``glare_over``, ``sliver``) comes no nearer than this
        many grid steps to any of the nine grid places, or the face is not clean.
    :param own_colour: also count with the pips' own colour (``_own_pair``): on a marbled or
        smoky body the middle's two colours are often two shades of the body, not body and
        pips; the pips are then found as what stands out of its surroundings (a median over
        ``own_window`` die edges) by at least ``own_step`` (Lab) in one direction of colour,
        in round blobs of one size, and only blobs of that colour are pips.
    :param own_glare: ... there an empty place holding pixels this much lighter (Lab L) than
        their surroundings is not plain body (a glare may hide a pip);
    :param own_floor: ... and a face so counted must pass with at least this quality.
    """

    min_contrast: float = 22.0
    pip_across: tuple[float, float] = (0.07, 0.3)
    one_across: tuple[float, float] = (0.12, 0.45)
    sizes_alike: float = 2.2
    step: tuple[float, float] = (0.12, 0.36)
    fit: float = 0.22
    empty: float = 0.3
    reach: float = 0.5
    off_centre: float = 0.15
    depths: tuple[float, ...] = (0.5, 0.65, 0.8)
    glare: float = 25.0
    pip_chroma: float = 15.0
    round_: float = 1.6
    six_rows: float = 1.0
    glare_over: float | None = None
    split_pairs: bool = False
    pair_area: tuple[float, float] = (1.5, 2.7)
    sliver: float | None = None
    past_off: float = 0.0
    sliver_long: float = 2.5
    own_colour: bool = False
    own_window: float = 0.4
    own_step: float = 8.0
    own_glare: float = 25.0
    own_floor: float = 0.0

    @classmethod
    def from_card(cls, values: dict | None) -> PipSettings:
        """From the card's ``pip_count`` object (lists become tuples); ValueError naming the
        keys unknown."""
        values = values or {}
        names = set(cls.__dataclass_fields__)
        unknown = sorted(set(values) - names)
        if unknown:
            raise ValueError(f'dice_reader.json "pip_count": unknown {", ".join(unknown)}')
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})


@dataclass(frozen=True)
class PipCount:
    """The pips of one top face.

    :param count: the face 1..6 when its pips make that face's pattern cleanly, else None.
    :param pips: the pips found (image pixels), clean or not.
    :param quality: 0..1, how well the cleanest reading passes its tightest test (0: not clean).
    :param why: what the face failed ("" when clean): for the docs' tables and ``-v``.
    """

    count: int | None
    pips: tuple[tuple[float, float], ...]
    quality: float
    why: str = ""


def count_pips(frame: np.ndarray, center: tuple[float, float], die_px: float,
               angle: float = 0.0, settings: PipSettings | None = None,
               colours=None) -> PipCount:
    """The pips of the top face centred near ``center`` (image pixels) of a die ``die_px``
    pixels wide (about its edge, as the reader sized it) on a BGR ``frame``; ``angle``: the
    face's turn in degrees if known (it only turns the crop; the pattern's turn is fitted).

    The face's colour and its pips' are the two colours of the middle of the face (split
    along the line between them, so light pips on dark, dark on light and coloured pips all
    part alike); the pips are the holes, of the pips' colour, in the face's region that holds
    the middle: the felt and the side faces, outside that region, never count. ``colours``:
    a function of the middle's pixels (Lab, N x 3) giving the (face, pips) pairs to try in
    place of the guessed ones (a learnt pair's, ``vision.profile_pips``)."""
    s = settings or PipSettings()
    if not die_px > 0:
        return PipCount(None, (), 0.0, "no size")
    crop, back = _crop(frame, center, die_px, angle)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    n = crop.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    c = n / 2 - 0.5
    r = np.hypot(xx - c, yy - c) / _EDGE_PX
    middle = lab[r <= 0.4]
    results = [_with_colours(lab, r, face_ref, pip_ref, s)
               for face_ref, pip_ref in (colours or _colour_pairs)(middle, s)]
    if s.own_colour:
        own = _own_pair(lab, r, s)
        if own is not None:
            results.append(_with_own(own[0], r, own[1], s))
    if not results:
        return PipCount(None, (), 0.0, "contrast")
    clean = {f[0] for f in results if f[0] is not None}
    if len(clean) > 1:
        return PipCount(None, (), 0.0, "colours disagree")
    count, pts, quality, why = (max((f for f in results if f[0] is not None),
                                    key=lambda f: f[2]) if clean else results[0])
    pips = tuple((float(back[0, 0] * x + back[0, 1] * y + back[0, 2]),
                  float(back[1, 0] * x + back[1, 1] * y + back[1, 2])) for x, y in pts)
    return PipCount(count, pips, quality if count else 0.0, why)


def _with_colours(lab, r, face_ref, pip_ref, s: PipSettings):
    """The face counted with these colours of its body and its pips: (count or None, pip
    centres in crop pixels, quality, why)."""
    axis = pip_ref - face_ref
    contrast = float(np.linalg.norm(axis))
    # how far each pixel lies from the face's colour towards the pips' (0 face, 1 pip), and
    # how far off that line (the felt, a side face in shadow, another die)
    rel = lab - face_ref
    t = rel @ (axis / contrast ** 2)
    off = np.linalg.norm(rel - t[:, :, None] * axis, axis=2)
    # a glare beside coloured pips: far lighter than both the face and its pips; it is
    # neither, and is looked past (beside white pips it would be a pip's own highlight)
    coloured = math.hypot(pip_ref[1] - 128.0, pip_ref[2] - 128.0) >= s.pip_chroma
    glare = (lab[:, :, 0] > max(face_ref[0], pip_ref[0]) + s.glare) & coloured
    off_face = (off < max(s.min_contrast, 0.6 * contrast)) | glare
    # an empty grid place must be of the face's colour, not only not of the pips'
    unlike = np.where(glare, 0.0, np.minimum(1.0, np.maximum(np.clip(t, 0, 1), off / contrast)))
    # cut at a few depths: blurred pips run together at the shallowest, faint ones vanish at
    # the deepest; the depths that see a clean face must agree on it
    # a reflection is white: lighter than both colours and of less than half the pips' chroma
    light = None
    if s.glare_over is not None and coloured:
        pale = np.hypot(lab[:, :, 1] - 128.0, lab[:, :, 2] - 128.0) < 0.5 * math.hypot(
            pip_ref[1] - 128.0, pip_ref[2] - 128.0)
        light = np.where(pale, lab[:, :, 0] - max(face_ref[0], pip_ref[0]), -1e9)
    found = [_at_depth(np.where(glare, 0.0, t), off_face, r, unlike, s, depth, light)
             for depth in s.depths]
    return _agreed(found)


def _agreed(found):
    """The depths' one clean face, else the shallowest's failure (a clean face at each of two
    depths that differ is no count)."""
    clean = {f[0] for f in found if f[0] is not None}
    if len(clean) > 1:
        return None, [], 0.0, "depths disagree"
    return next(f for f in found if f[0] is not None) if clean else found[0]


def _colour_pairs(pixels: np.ndarray, s: PipSettings):
    """The (face, pips) colours to try on the middle of a face (Lab, N x 3): the two
    colours of ``_two_colours``, and the face's most common colour with each other colour of
    three (a glare and red pips on a smoky die are two colours beside its body); only pairs at
    least ``min_contrast`` apart."""
    pairs = [_two_colours(pixels)]
    centres, sizes = _three_colours(pixels)
    f = int(np.argmax(sizes))
    face = centres[f]
    others = [centres[k] for k in range(3) if k != f and sizes[k] >= 0.02 * sizes.sum()]
    # a colour between the face's and another's is their blend at the pips' rims, not pips
    pairs += [(face, c) for c in others
              if not any(_between(c, face, o) for o in others if o is not c)]
    return [(f, p) for f, p in pairs if np.linalg.norm(p - f) >= s.min_contrast]


def _between(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether colour ``c`` lies on the way from ``a`` to ``b`` (a blend of the two)."""
    axis = b - a
    span = float(axis @ axis)
    if span < 1e-6:
        return False
    t = float((c - a) @ axis) / span
    off = float(np.linalg.norm(c - a - t * axis))
    return 0.15 <= t <= 0.85 and off <= 0.25 * math.sqrt(span)


def _median(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` for a few hundred rows, without its overhead."""
    m = len(rows)
    half = m // 2
    if m % 2:
        return np.partition(rows, half, axis=0)[half]
    part = np.partition(rows, (half - 1, half), axis=0)
    return (part[half - 1] + part[half]) / 2


def _three_colours(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Three colours of ``pixels`` (Lab, N x 3) by k-medians from the darkest, the lightest and
    the median pixel (deterministic): their centres and how many pixels each holds."""
    light = pixels[:, 0]
    centres = np.stack([pixels[int(np.argmin(light))], pixels[int(np.argmax(light))],
                        np.median(pixels, axis=0)])
    for _ in range(8):
        near = ((pixels[:, None, :] - centres[None]) ** 2).sum(axis=2).argmin(axis=1)
        centres = np.stack([_median(pixels[near == k]) if (near == k).any()
                            else centres[k] for k in range(3)])
    return centres, np.bincount(near, minlength=3)


def _at_depth(t, off_face, r, unlike, s: PipSettings, depth: float, light=None):
    """The face the pips deeper than ``depth`` (of the way from the face's colour to the
    pips') make, as holes in the face's region that holds the middle."""
    face = ((t < depth) & off_face).astype(np.uint8)
    parts_n, parts = cv2.connectedComponents(face, connectivity=4)
    inner = parts[r <= 0.25]
    counts = np.bincount(inner[inner > 0], minlength=parts_n)
    if parts_n < 2 or counts.max() == 0:
        return None, [], 0.0, "no face"
    region = (parts == int(np.argmax(counts))).astype(np.uint8)
    outside = np.pad(1 - region, 1, constant_values=1)
    _, reach = cv2.connectedComponents(outside, connectivity=4)
    holes = ((reach[1:-1, 1:-1] != reach[0, 0]) & (region == 0)).astype(np.uint8)
    return _pattern(holes, unlike, s, light)


def _two_colours(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face's colour (the more pixels) and the pips' (the fewer) among ``pixels`` (Lab,
    N x 3): split at Otsu's threshold along their first principal direction."""
    mean = pixels.mean(axis=0)
    centred = pixels - mean
    proj = centred @ _first_direction(centred[:: max(1, len(centred) // 400)])
    lo, hi = float(proj.min()), float(proj.max())
    if hi - lo < 1e-3:
        return mean, mean
    q = np.round((proj - lo) / (hi - lo) * 255).astype(np.uint8).reshape(-1, 1)
    cut, _ = cv2.threshold(q, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    high = q.ravel() > cut
    if high.all() or not high.any():
        return np.median(pixels, axis=0), np.median(pixels, axis=0)
    a, b = pixels[high], pixels[~high]
    if len(a) < len(b):
        a, b = b, a
    return np.median(a, axis=0), np.median(b, axis=0)


def _first_direction(centred: np.ndarray) -> np.ndarray:
    """The first principal direction of ``centred`` (N x 3), by power iteration on its 3x3
    scatter (LAPACK's SVD would wake a BLAS thread pool for so small a sum)."""
    scatter = np.einsum("ni,nj->ij", centred, centred)
    v = np.array([1.0, 0.5, 0.25])
    for _ in range(50):
        w = scatter @ v
        norm = float(np.sqrt(w @ w))
        if norm < 1e-12:
            return v
        w /= norm
        if float(np.abs(w - v).max()) < 1e-9:
            return w
        v = w
    return v


def _pattern(holes: np.ndarray, unlike: np.ndarray, s: PipSettings, light=None):
    """The face the holes of its region make: (count or None, pip centres in crop pixels,
    quality, why). ``unlike``: each pixel's share of the way from the face's colour to the
    pips' (or as far off the face's colour in another direction); ``light``: each pixel's
    lightness over the lighter of the face's and the pips' colours (for ``glare_over``)."""
    m, labels, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    n = holes.shape[0]
    c = n / 2 - 0.5
    inside = [j for j in range(1, m)
              if math.hypot(cents[j][0] - c, cents[j][1] - c) / _EDGE_PX <= s.reach]
    round_, long_, past = [], [], []
    for j in inside:
        x, y, bw, bh, area = stats[j]
        blob = labels[y:y + bh, x:x + bw] == j
        stretch = _elongation(blob)
        if (_boxy(bw, bh, area) or 2 * math.sqrt(area / math.pi) / _EDGE_PX > s.one_across[1]
                or stretch > s.round_):
            # lighter than the die's own colours and not a disc: a reflection, not a pip
            if light is not None and float(np.percentile(
                    light[y:y + bh, x:x + bw][blob], 80)) > s.glare_over:
                past.append(j)
                continue
            long_.append((j, stretch))
        else:
            round_.append(j)
    big = max((float(stats[j, cv2.CC_STAT_AREA]) for j in round_ + [j for j, _ in long_]),
              default=0.0)
    speck = max((0.06 * _EDGE_PX) ** 2, 0.2 * big)
    pips, areas = [], []
    for j in round_:
        if stats[j, cv2.CC_STAT_AREA] >= speck:  # else grain, texture or a pip's rim
            pips.append((float(cents[j][0]), float(cents[j][1])))
            areas.append(float(stats[j, cv2.CC_STAT_AREA]))
    one = float(np.median(areas)) if areas else 0.0
    for j, stretch in long_:
        area = float(stats[j, cv2.CC_STAT_AREA])
        if area < speck:
            continue
        if s.sliver is not None and areas and area < s.sliver * one and stretch >= s.sliver_long:
            past.append(j)
            continue
        if not (s.split_pairs and areas and s.pair_area[0] * one <= area <= s.pair_area[1] * one):
            return None, pips, 0.0, "a blob not a pip"
        pips.extend(_halves(labels == j))
        areas += [area / 2, area / 2]
    count = len(pips)
    if not 1 <= count <= 6:
        return None, pips, 0.0, f"{count} pips"
    across = [2 * math.sqrt(a / math.pi) / _EDGE_PX for a in areas]
    band = s.one_across if count == 1 else s.pip_across
    if not all(band[0] <= v <= band[1] for v in across):
        return None, pips, 0.0, "pip size"
    if count > 1 and max(areas) > s.sizes_alike * min(areas):
        return None, pips, 0.0, "sizes differ"
    pts = np.array(pips)
    mid = pts.mean(axis=0)
    squash = np.array([1.0, s.six_rows if count == 6 else 1.0])
    layout = PATTERNS[count] * squash
    if math.hypot(*((mid - c) / _EDGE_PX)) > s.off_centre:
        return None, pips, 0.0, "off centre"
    if count == 1:
        step, turn, worst = max(s.step[0], min(s.step[1], 1.3 * across[0])), 0.0, 0.0
    else:
        step, turn, worst = _fit((pts - mid) / _EDGE_PX, layout)
        if not s.step[0] <= step <= s.step[1]:
            return None, pips, 0.0, f"spacing {step:.2f}"
        if worst > s.fit:
            return None, pips, 0.0, f"layout {worst:.2f}"
        if not 0.3 <= (sum(across) / count) / step <= 1.1:
            return None, pips, 0.0, "pips for the spacing"
    # the other grid places must be plain face: a pip too faint to pass makes a five a three
    a = math.radians(turn)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    px = step * _EDGE_PX
    places = mid + ((_GRID * squash) @ rot.T) * px
    # a blob looked past must keep off every grid place: there it may be a pip lost
    for j in past:
        ys, xs = np.nonzero(labels == j)
        if np.min(np.hypot(xs[:, None] - places[:, 0], ys[:, None] - places[:, 1])) < s.past_off * px:
            return None, pips, 0.0, "a blob on the grid"
    taken = mid + (layout @ rot.T) * px
    rr = max(1.5, 0.25 * px)
    fullest = 0.0
    k = int(math.ceil(rr))
    for p in places:
        if np.min(np.hypot(*(taken - p).T)) < 0.5 * px:
            continue
        x0, y0 = max(0, int(p[0]) - k), max(0, int(p[1]) - k)
        x1, y1 = min(n, int(p[0]) + k + 2), min(n, int(p[1]) + k + 2)
        if x1 <= x0 or y1 <= y0:
            continue
        spot = ((np.arange(x0, x1)[None, :] - p[0]) ** 2
                + (np.arange(y0, y1)[:, None] - p[1]) ** 2 <= rr * rr)
        if spot.any():
            fullest = max(fullest, float(unlike[y0:y1, x0:x1][spot].mean()))
    if fullest > s.empty:
        return None, pips, 0.0, "a place not empty"
    quality = min(1.0 - worst / s.fit if count > 1 else 1.0, 1.0 - fullest / s.empty)
    return count, pips, max(0.0, quality), ""


def _crop(frame: np.ndarray, center, die_px: float, angle: float):
    """The face turned upright and scaled so the die's edge is ``_EDGE_PX``; and the map back
    (crop pixels -> frame pixels, 2x3)."""
    n = int(round(_SIDE * _EDGE_PX))
    k = _EDGE_PX / die_px
    a = math.radians(angle)
    ca, sa = math.cos(a) * k, math.sin(a) * k
    cx, cy = center
    m = np.array([[ca, sa, n / 2 - (ca * cx + sa * cy)],
                  [-sa, ca, n / 2 - (-sa * cx + ca * cy)]], np.float64)
    if k < 0.6:
        # a big die: shrink its neighbourhood by area first, or bilinear sampling aliases pips
        r = int(die_px * _SIDE * 0.75) + 2
        h, w = frame.shape[:2]
        x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
        x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
        f = k * 1.5
        src = cv2.resize(frame[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m2 = m.copy()
        m2[:, :2] /= f
        m2[:, 2] += m[:, 0] * x0 + m[:, 1] * y0
        crop = cv2.warpAffine(src, m2, (n, n), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    else:
        crop = cv2.warpAffine(frame, m, (n, n), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return crop, cv2.invertAffineTransform(m)


def _halves(blob: np.ndarray) -> list[tuple[float, float]]:
    """The centres of a blob's two halves, cut across its long axis (its second moments')."""
    ys, xs = np.nonzero(blob)
    pts = np.stack([xs, ys], axis=1).astype(float)
    rel = pts - pts.mean(axis=0)
    major = _first_direction(np.column_stack([rel, np.zeros(len(rel))]))[:2]
    side = rel @ major >= 0
    return [tuple(map(float, pts[side].mean(axis=0))), tuple(map(float, pts[~side].mean(axis=0)))]


def _boxy(bw: int, bh: int, area: int) -> bool:
    """Whether a blob's box is too long, or the blob fills too little of it, for a disc."""
    return max(bw, bh) > 1.8 * min(bw, bh) or area < 0.45 * bw * bh


def _elongation(blob: np.ndarray) -> float:
    """A blob's long axis over its short one, from its second moments (1 for a disc)."""
    mo = cv2.moments(blob.astype(np.uint8), binaryImage=True)
    if mo["m00"] == 0:
        return math.inf
    a, b, c = mo["mu20"] / mo["m00"], mo["mu11"] / mo["m00"], mo["mu02"] / mo["m00"]
    spread = math.sqrt(max(0.0, ((a - c) / 2) ** 2 + b * b))
    lo = (a + c) / 2 - spread
    return math.sqrt(((a + c) / 2 + spread) / lo) if lo > 1e-9 else math.inf


def _fit(rel: np.ndarray, pattern: np.ndarray) -> tuple[float, float, float]:
    """The grid step (die edges), turn (degrees) and worst misfit (grid steps) of ``pattern``
    laid over the pips ``rel`` (die edges from their mean), one pip to each place."""
    norms = np.hypot(*pattern.T)
    step = float(np.hypot(*rel.T).sum() / norms.sum())
    span = _TURN_SPAN[len(pattern)]
    turns = np.arange(0.0, span, 2.0)
    a = np.radians(turns)
    cos, sin = np.cos(a)[:, None], np.sin(a)[:, None]
    px = (pattern[:, 0] * cos - pattern[:, 1] * sin) * step
    py = (pattern[:, 0] * sin + pattern[:, 1] * cos) * step
    d = np.hypot(px[:, :, None] - rel[None, None, :, 0], py[:, :, None] - rel[None, None, :, 1])
    near = d.argmin(axis=2)
    one_each = np.array([len(set(row)) == len(pattern) for row in near])
    worst = d.min(axis=2).max(axis=1)
    worst = np.where(one_each, worst, np.inf)
    best = int(np.argmin(worst))
    return step, float(turns[best]), float(worst[best] / step)


def _own_pair(lab, r, s: PipSettings):
    """The pips' own colour on a mottled body: the pixels unlike what lies round them in one
    direction of colour (lighter, darker, redder, ...) whose round blobs of a pip's size are
    the most of one size (at least two; of as many, a chromatic set before a pale one, since
    a reflection is white). Returns (each pixel less what lies round it, the pips' step of
    colour from their surroundings, without its lightness for chromatic pips) or None."""
    k = 2 * int(s.own_window * _EDGE_PX / 2) + 1
    around = cv2.medianBlur(np.clip(lab, 0, 255).astype(np.uint8), k).astype(np.float32)
    diff = lab - around
    inner = r <= s.reach
    n = lab.shape[0]
    c = n / 2 - 0.5
    lo, hi = (math.pi / 4 * (v * _EDGE_PX) ** 2 for v in s.pip_across)
    best = None
    for ch in range(3):
        for sign in (1.0, -1.0):
            mask = ((sign * diff[:, :, ch] > s.own_step) & inner).astype(np.uint8)
            m, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
            blobs = []
            for j in range(1, m):
                x, y, bw, bh, area = stats[j]
                if not lo <= area <= hi:
                    continue
                if math.hypot(cents[j][0] - c, cents[j][1] - c) / _EDGE_PX > s.reach:
                    continue
                blob = labels[y:y + bh, x:x + bw] == j
                if _boxy(bw, bh, area) or _elongation(blob) > s.round_:
                    continue
                blobs.append((float(area), j))
            blobs.sort()
            # the most blobs of one size
            most, at = 0, 0
            for i in range(len(blobs)):
                e = i
                while e + 1 < len(blobs) and blobs[e + 1][0] <= s.sizes_alike * blobs[i][0]:
                    e += 1
                if e - i + 1 > most:
                    most, at = e - i + 1, i
            if most < 2:
                continue
            pix = np.isin(labels, [j for _, j in blobs[at:at + most]])
            pips = _median(lab[pix])
            step = _median(diff[pix])
            chroma = math.hypot(pips[1] - 128.0, pips[2] - 128.0) >= s.pip_chroma
            # the most blobs first (a white pip's bluish rim makes a few chromatic specks), a
            # chromatic set before a pale one of as many (a reflection is white)
            key = (most, chroma)
            if best is None or key > best[0]:
                best = (key, step, chroma)
    if best is None:
        return None
    _, step, chroma = best
    axis = step.copy()
    if chroma:
        axis[0] = 0.0
    if float(np.linalg.norm(axis)) < s.own_step:
        return None
    return diff, axis


def _with_own(diff, r, axis, s: PipSettings):
    """The face counted with the pips as the pixels that stand out of what lies round them
    towards the pips' own colour (at each depth of the way), whatever else of the body's
    range lies round them."""
    t = diff @ (axis / float(axis @ axis))
    # a glare on an empty place may hide a pip: that place is not plain body
    unlike = np.where(diff[:, :, 0] > s.own_glare, 1.0, np.clip(t, 0.0, 1.0))
    inner = r <= s.reach + 0.1
    found = []
    for depth in s.depths:
        f = _pattern(((t > depth) & inner).astype(np.uint8), unlike, s)
        # the pips' colour was found from two blobs or more: one is not this face's
        found.append((None, f[1], 0.0, "1 pip") if f[0] == 1 else f)
    count, pips, quality, why = _agreed(found)
    if count is not None and quality < s.own_floor:
        return None, pips, 0.0, "own colour's margin"
    return count, pips, quality, why
