"""The pair cue (``pairs``): of two dice lying close, which leans on the other, and the proofs
that neither does (``lie_flat_together``: the tops touch, a strip of felt, the band between the
tops).
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from vision.cocked.settings import CockedSettings, cocked_share
from vision.cocked.top_face import top_square
from vision.cocked.windows import dice_window, with_felt
from vision.die_silhouette import RestSilhouettes, felt_in_shadow
from vision.pair_band import PairBand, pair_band


def pair_reach(
    silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray, top_a, top_b
) -> tuple[float, float]:
    """For two dice lying close, top faces centred at ``top_a`` and ``top_b``: how far (die
    edges) each die's silhouette reaches past its top face toward the other, beyond what a
    flat die shows there.

    A die leaning on another tips its top away from it and shows the face that was against
    it, between the two tops. Each die's silhouette is the pixels changed since before the
    throw (shadows left out) nearer its top than the other's, within a die edge of it; its
    centroid past the top along the line to the other is the reach. A flat die's silhouette
    reaches ``pair_perspective`` die edges past its top away from the wall already (a camera
    tilted toward the wall sees its front faces below its top): that is taken off, else of
    two dice one behind the other the front one would look like the leaning one.
    """
    geo = silhouettes.geometry
    die = geo.die
    (ax, ay), (bx, by) = top_a, top_b
    dist = math.hypot(bx - ax, by - ay)
    seen = dice_window(silhouettes, frame, [top_a, top_b], int(die * 1.1) + 2)
    if seen is None or dist < 1:
        return 0.0, 0.0
    mask, xx, yy = seen
    on = mask > 0
    xs, ys = xx[on].astype(np.float32), yy[on].astype(np.float32)
    ux, uy = (bx - ax) / dist, (by - ay) / dist
    # along the line from a to b, and across it
    along = (xs - ax) * ux + (ys - ay) * uy
    across = -(xs - ax) * uy + (ys - ay) * ux
    flat = settings.pair_perspective * (geo.wall_n[0] * ux + geo.wall_n[1] * uy)
    out = []
    for near, sign in ((along, 1.0), (dist - along, -1.0)):
        # pixels nearer this die's top than the other's, within a die edge of it
        mine = (near < 0.5 * dist) & (near * near + across * across < die * die)
        if not mine.any():
            out.append(0.0)
            continue
        # the centroid's reach toward the other, less a flat die's (its front faces, seen
        # away from the wall, reach toward the other by sign * flat die edges)
        out.append(float(near[mine].mean()) / die - sign * flat)
    return out[0], out[1]


def lean_scores(
    silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray, rd, rj
) -> tuple[float, float]:
    """How much each die of a close pair (readings rd, rj) looks like the one leaning on the
    other: the reader's belief that it leans (``cocked_share``), less ``pair_conf_weight``
    times its confidence in the face (a tilted face reads less surely), plus
    ``pair_reach_weight`` times its silhouette's reach toward the other (``pair_reach``)."""
    st = settings
    reach = pair_reach(silhouettes, settings, frame, rd.center, rj.center)
    scores = []
    for r, k in zip((rd, rj), reach, strict=True):
        conf = float(r.confidence)
        scores.append(cocked_share(r) - st.pair_conf_weight * conf + st.pair_reach_weight * k)
    return scores[0], scores[1]


def _leans_on_the_other_instead(
    silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray, readings: tuple,
    on_wall: tuple[bool, bool], beliefs: tuple[float, float] | None,
) -> bool:
    """Whether, of a close pair one of whose dice the wall cue finds leaning on the wall, the
    other die is the one leaning (on the first): the lean model (``beliefs``) and the reader's
    and the silhouettes' ``lean_scores`` both take the die off the wall for the likelier by
    far (``pair_wall_margin``). The wall cue compares a top with a silhouette and is fooled by
    a flat die at the wall whose silhouette is cut short (a die of the felt's colour); the die
    leaning on it shows its lean to the reader, the silhouettes and the model at once. Either
    way one die of the pair is flagged (never none): a throw with it still goes to the
    operator."""
    ri, rj = readings
    if on_wall[0] == on_wall[1] or beliefs is None or ri is None or rj is None:
        return False
    off = 1 if on_wall[0] else 0  # the die the wall cue does not flag
    scores = lean_scores(silhouettes, settings, frame, ri, rj)
    margin = settings.pair_wall_margin
    return (beliefs[off] - beliefs[1 - off] >= margin
            and scores[off] - scores[1 - off] >= margin)


def _middle_colours(silhouettes: RestSilhouettes, frame: np.ndarray, centre):
    """The median colours (B, G, R) of the middle of the die centred at ``centre`` (a third of
    an edge each way) on ``frame`` and of the felt there before the throw; None where either
    cannot be seen."""
    r = max(1, int(silhouettes.geometry.die / 3))
    x, y = int(centre[0]), int(centre[1])
    seen = with_felt(silhouettes, frame, x - r, y - r, x + r + 1, y + r + 1, 2)
    if seen is None:
        return None
    return tuple(np.median(img.reshape(-1, 3).astype(np.float32), axis=0) for img in seen[:2])


def felt_coloured(silhouettes: RestSilhouettes, frame: np.ndarray, centre,
                  tol: float) -> bool:
    """Whether the die centred at ``centre`` has nearly the felt's colour: the chromaticity
    (B, G, R over their sum) of the median of its middle (a third of an edge each way) lies
    within ``tol`` of the felt's there before the throw. Such a die's shaded faces keep the
    felt's chromaticity and brightness and pass for felt; True where it cannot tell."""
    seen = _middle_colours(silhouettes, frame, centre)
    if seen is None:
        return True
    top, felt = (c / max(float(c.sum()), 1.0) for c in seen)
    return float(np.linalg.norm(top - felt)) < tol


def silhouettes_touch(silhouettes: RestSilhouettes, frame: np.ndarray, centre_a, centre_b,
                      chroma: float | None = None, shadows: bool = False,
                      seen_whole: float = 0.7, bridge: float = 0.1) -> bool:
    """Whether two resting dice's silhouettes (their boxes' centres ``centre_a``, ``centre_b``)
    touch: one region of the pixels dice cover (``RestSilhouettes.die_mask``, with ``chroma``
    the pixels off the felt's chromaticity too; a shadow's stray pixels left out, the rims'
    blur bridged) holds pixels of both.

    A die leaning on another touches it, and the point where they touch lies on both cubes, so
    its image lies in both silhouettes (seen or hidden behind one of them): the two silhouettes
    meet. Two dice with felt between them cannot lean on each other. The test can prove felt
    between them only where it sees both dice whole: True (a pair, when in doubt) where it
    cannot tell: no felt before the throw, a die whose silhouette covers less than
    ``seen_whole`` of the disc half an edge wide around its centre (a cube's silhouette is
    centred on its centre's image and holds its top at least; a die of the felt's colour,
    whose shaded faces pass for shadow, shows less). With ``shadows`` the felt darkened evenly
    counts as a die's too (a shadow between two dice then joins them). ``bridge``: gaps this
    narrow (die edges) are closed."""
    die = silhouettes.geometry.die
    seen = dice_window(silhouettes, frame, [centre_a, centre_b], int(die) + 2, chroma, shadows)
    if seen is None:
        return True
    mask, xx, yy = seen
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # stray pixels
    k = max(3, int(bridge * die) | 1)  # the rims' blur and anti-aliasing, not a felt gap
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    parts = []
    for cx, cy in (centre_a, centre_b):
        d2 = (xx - cx) ** 2 + (yy - cy) ** 2
        disc = d2 < (0.5 * die) ** 2
        if not disc.any() or (labels[disc] > 0).mean() < seen_whole:
            return True  # not seen whole: felt between them is not proved
        near = (labels > 0) & (d2 < (0.35 * die) ** 2)
        parts.append(set(np.unique(labels[near]).tolist()))
    return bool(parts[0] & parts[1])


def silhouettes_gap(silhouettes: RestSilhouettes, frame: np.ndarray, centre_a, centre_b,
                    chroma: float | None = None) -> float | None:
    """How far apart (die edges) two resting dice's silhouettes lie (their boxes' centres
    ``centre_a``, ``centre_b``; the pixels dice cover, shadows left out, with ``chroma`` the
    pixels off the felt's chromaticity too, a shadow's stray pixels cleaned): the narrowest
    strip of felt or shadow between them, 0 where they touch; None where either is not seen
    near its centre or the felt before the throw is not known."""
    die = silhouettes.geometry.die
    seen = dice_window(silhouettes, frame, [centre_a, centre_b], int(die) + 2, chroma)
    if seen is None:
        return None
    mask, xx, yy = seen
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    parts = []
    for cx, cy in (centre_a, centre_b):
        near = (labels > 0) & ((xx - cx) ** 2 + (yy - cy) ** 2 < (0.35 * die) ** 2)
        parts.append(np.unique(labels[near]))
    if not len(parts[0]) or not len(parts[1]):
        return None
    if np.intersect1d(parts[0], parts[1]).size:
        return 0.0
    # the distance from each pixel to the nearest of the second die's
    away = cv2.distanceTransform(np.where(np.isin(labels, parts[1]), 0, 255).astype(np.uint8),
                                 cv2.DIST_L2, 5)
    return float(away[np.isin(labels, parts[0])].min()) / die


def shade_like_shadow(silhouettes: RestSilhouettes, frame: np.ndarray, centre,
                      shades=(0.25, 0.5, 0.75)) -> bool:
    """Whether a shaded face of the die centred at ``centre`` could pass for the felt in
    shadow (``felt_in_shadow``): its middle's median colour, scaled by each of ``shades`` (a
    face turned from the lamp keeps a share of the top's light), against the felt's there
    before the throw. A dark die's faces in shade do (their channels too dim to keep any
    colour's proportions), so the shadow between it and another die may hide its face; True
    where it cannot tell."""
    seen = _middle_colours(silhouettes, frame, centre)
    if seen is None:
        return True
    top, felt = seen
    faces = np.array([[top * k for k in shades]], np.float32)
    return bool(felt_in_shadow(faces, np.broadcast_to(felt, faces.shape)).any())


def tops_gap(settings: CockedSettings, frame: np.ndarray, readings: tuple, die: float,
             agree: float) -> float | None:
    """How far apart (die edges) the top faces of two read dice lie as squares one die edge
    wide (``top_square``: at their pips' centres, turned as their regions or pips), negative
    where they overlap; None where either top is no square or one top's region takes in the
    other's centre (one region over both: dice of one colour touching, neither top whole)."""
    tops = [top_square(settings, frame, rd, die, agree) for rd in readings]
    if tops[0] is None or tops[1] is None or any(
            a.region is not None and a.region[int(round(b.centre[1])), int(round(b.centre[0]))]
            for a, b in ((tops[0], tops[1]), (tops[1], tops[0]))):
        return None
    a, b = (cv2.boxPoints((t.centre, (die, die), t.turn)) for t in tops)
    return polygons_gap(a, b) / die


def polygons_gap(a: np.ndarray, b: np.ndarray) -> float:
    """How far apart two convex polygons (corners, image pixels) lie: the least distance
    between them, or where they overlap, minus the side of a square of their overlap's
    area."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    overlap, _ = cv2.intersectConvexConvex(a, b)
    if overlap > 0:
        return -math.sqrt(overlap)
    # the nearest corner of either polygon to the other's sides
    return min(_to_sides(p, q) for p, q in ((a, b), (b, a)))


def _to_sides(points: np.ndarray, polygon: np.ndarray) -> float:
    """The least distance from ``points`` to the sides of ``polygon``."""
    best = math.inf
    for k in range(len(polygon)):
        s0, s1 = polygon[k], polygon[(k + 1) % len(polygon)]
        d = s1 - s0
        t = np.clip(((points - s0) @ d) / max(float(d @ d), 1e-9), 0.0, 1.0)
        best = min(best, float(np.sqrt(((points - (s0 + t[:, None] * d)) ** 2).sum(1)).min()))
    return best


def band_between(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray,
                 readings: tuple) -> PairBand | None:
    """What lies between two close read dice's tops: ``pair_band`` over the hull of their tops
    taken as whole squares (``top_square``: one edge wide at their pips' centre, turned as
    their regions), less the squares and the regions; None where either top is no whole square
    (a square on its pips alone has no region to leave out),
    one region takes in the other's centre (dice of one colour touching: no band to see) or the
    felt before the throw is not known there."""
    die = silhouettes.geometry.die
    tops = [top_square(settings, frame, rd, die, settings.wall_pip_agree) for rd in readings]
    if any(t is None or t.region is None for t in tops) or any(
            a.region[int(round(b.centre[1])), int(round(b.centre[0]))]
            for a, b in ((tops[0], tops[1]), (tops[1], tops[0]))):
        return None
    corners = [cv2.boxPoints((t.centre, (die, die), t.turn)) for t in tops]
    pts = np.concatenate(corners)
    x0, y0 = (int(v) - 2 for v in pts.min(axis=0))
    x1, y1 = (int(v) + 3 for v in pts.max(axis=0))
    seen = with_felt(silhouettes, frame, x0, y0, x1, y1, 3)
    if seen is None:
        return None
    roi, felt, x0, y0 = seen
    h, w = roi.shape[:2]
    shift = np.array([x0, y0], np.float32)
    hull = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(pts - shift).astype(np.int32), 1)
    squares = np.zeros((h, w), np.uint8)
    for c in corners:
        cv2.fillConvexPoly(squares, (c - shift).astype(np.int32), 1)
    regions = [t.region[y0:y0 + h, x0:x0 + w] | (squares > 0) for t in tops]
    return pair_band(frame, felt, (x0, y0), hull > 0, regions[0], regions[1], die)


def lie_flat_together(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray,
                      centres: tuple, readings: tuple, tilted: tuple) -> bool:
    """Whether two close dice (boxes' centres ``centres``, their ``readings``, the top-face
    cue's ``tilted``) are proved to lie flat from what lies between their tops: their tops'
    squares touch (``tops_gap`` within ``pair_tops_touch``, or overlap by no more than
    ``pair_tops_overlap``: two flat dice that touch; a die
    leaning on the other shows the face that was against it between them), or their
    silhouettes, shadows left out, lie ``pair_clear_gap`` apart with both tops whole and
    square (with ``pair_gap_square`` off: neither seen tilted) and neither die's shaded face
    able to pass for a shadow or felt (a lean needs a touch), or, with ``pair_band_clear``,
    the band between their tops is the felt (``felt_band``) and, with ``pair_band_apart``,
    their shadow-free silhouettes do not touch."""
    die = silhouettes.geometry.die
    st = settings
    if st.pair_tops_touch is not None and None not in readings:
        gap = tops_gap(st, frame, readings, die, st.wall_pip_agree)
        under = st.pair_tops_touch if st.pair_tops_overlap is None else st.pair_tops_overlap
        if gap is not None and -under <= gap <= st.pair_tops_touch:
            return True
    square = tilted[0] is False and tilted[1] is False
    # a top the cue cannot measure does not hide the touch from the silhouettes
    gap_seen = st.pair_clear_gap is not None and (square or (
        not st.pair_gap_square and not any(bool(t) for t in tilted if t is not None)))
    band_seen = st.pair_band_clear is not None and square and None not in readings
    if not (gap_seen or band_seen):
        return False
    if any(felt_coloured(silhouettes, frame, c, st.pair_felt_colour)
           or shade_like_shadow(silhouettes, frame, c) for c in centres):
        return False
    if gap_seen:
        gap = silhouettes_gap(silhouettes, frame, centres[0], centres[1], st.pair_touch_chroma)
        if gap is not None and gap >= st.pair_clear_gap:
            return True
    if not (band_seen and felt_band(band_between(silhouettes, st, frame, readings), st)):
        return False
    # a lean needs a touch: felt in the band beside one is not felt between the dice
    return not (st.pair_band_apart and silhouettes_touch(
        silhouettes, frame, centres[0], centres[1], st.pair_touch_chroma))


def felt_band(band: PairBand | None, settings: CockedSettings) -> bool:
    """Whether the band between two tops (``band_between``) is the felt, not a die's face:
    wide enough to hold a lean's face, lit enough to show its colour, between tops far from
    the felt's colour, and holding almost nothing off the felt's chromaticity
    (``pair_band_clear``). When in doubt (no band, too narrow or too dark): False."""
    st = settings
    return (band is not None and st.pair_band_clear is not None
            and band.area >= st.pair_band_area and band.dark <= st.pair_band_dark
            and band.dice_off_felt >= st.pair_band_dice and band.off_felt <= st.pair_band_clear)


def log_odds(p: float) -> float:
    """log(p / (1 - p)), p kept within 1e-6 of 0 and 1 (a belief of exactly 0 or 1 is a
    rounding, not a certainty)."""
    p = min(max(float(p), 1e-6), 1.0 - 1e-6)
    return math.log(p / (1.0 - p))


def _cut_short(settings: CockedSettings, die: float, *sizes) -> float:
    """How much nearer (pixels) two dice may lie than their silhouettes' centres say: a
    silhouette whose shorter side is under ``pair_cut_short`` die edges is cut short (a die
    of the felt's colour, its shaded faces passing for felt or shadow), and its die's centre
    may lie up to half the missing width toward the other; 0 with ``pair_cut_short`` off."""
    if settings.pair_cut_short is None:
        return 0.0
    return sum(0.5 * (die - min(w, h)) for w, h in sizes if min(w, h) < settings.pair_cut_short * die)


def pairs(
    silhouettes: RestSilhouettes,
    settings: CockedSettings,
    frame: np.ndarray,
    boxes: list,
    readings: list,
    on_wall: list[bool],
    beliefs: list[float] | None = None,
    tilted: list[bool | None] | None = None,
    pick=None,
) -> dict[int, bool]:
    """The pair cue: of two resting dice closer than ``pair_lean`` die edges (silhouette
    centres), or than ``pair_touch_reach`` where their silhouettes touch, one is taken to lean
    on the other (none where felt that no die or shadow covers lies between them). Returns,
    for each die of such a pair, whether it is the leaning one: the one the wall cue finds
    leaning on the wall (that explains the pair: the other lies flat beside it, unless the lean
    model believes it leans too, ``pair_wall_both``: then both), else the one
    the lean model (``beliefs``, one per box) believes leans more (none if neither belief is
    above ``pair_min_lean`` and neither ``lean_scores`` above ``pair_clear_score``, felt
    shows between them with the shadows left out and, with ``pair_clear_square``, the
    top-face cue (``tilted``, one per box: ``foreshortened``) found both tops whole and
    square), else the one with the higher ``lean_scores`` (with readings; none if neither
    scores above ``pair_min_score``), else the one whose silhouette is larger (its side as
    well as its top). With ``pick`` (``judge.pair_picker``: ``pick(i, j)``, the pair model's
    belief that die i rather than die j leans) the beliefs' log-odds and the pair model's,
    weighed by ``pair_pick``, pick together.
    """
    die = silhouettes.geometry.die
    out: dict[int, bool] = {}
    for i, j in itertools.combinations(range(len(boxes)), 2):
        (xi, yi), (wi, hi), _ = boxes[i]
        (xj, yj), (wj, hj), _ = boxes[j]
        gap = math.hypot(xj - xi, yj - yi) - _cut_short(settings, die, (wi, hi), (wj, hj))
        if gap >= max(settings.pair_lean, settings.pair_touch_reach) * die:
            continue
        # felt between them, seen on the silhouettes with the shadows left out...
        touch = silhouettes_touch(silhouettes, frame, boxes[i][0], boxes[j][0],
                                  settings.pair_touch_chroma)
        # ...and felt that neither a die nor a shadow covers: dice touching at a corner meet in
        # a neck of a pixel or two that the shadow-free silhouettes lose, so only this proves
        # no lean
        if not touch and (gap >= settings.pair_lean * die or settings.pair_apart) and (
                not silhouettes_touch(silhouettes, frame, boxes[i][0], boxes[j][0],
                                      settings.pair_touch_chroma, shadows=True)) and not any(
                felt_coloured(silhouettes, frame, boxes[k][0], settings.pair_felt_colour)
                for k in (i, j)):
            # (a die of the felt's colour shows its shaded faces as felt: no gap proved)
            continue
        ri = readings[i] if i < len(readings) else None
        rj = readings[j] if j < len(readings) else None
        if lie_flat_together(silhouettes, settings, frame, (boxes[i][0], boxes[j][0]),
                             (ri, rj), (tilted[i], tilted[j]) if tilted else (None, None)) and not (
                settings.pair_lean_keep is not None and beliefs is not None
                and max(beliefs[i], beliefs[j]) >= settings.pair_lean_keep):
            continue
        # else two dice that touch may be one leaning a little on the other: its top square
        # within a few percent, so neither the lean model nor the reader clears them
        clearable = settings.pair_clear_touching or not touch
        if (on_wall[i] or on_wall[j]) and not _leans_on_the_other_instead(
            silhouettes, settings, frame, (ri, rj), (on_wall[i], on_wall[j]),
            None if beliefs is None else (beliefs[i], beliefs[j]),
        ):
            si, sj = float(on_wall[i]), float(on_wall[j])
            off = j if on_wall[i] else i
            if (on_wall[i] != on_wall[j] and settings.pair_wall_both is not None
                    and beliefs is not None and beliefs[off] >= settings.pair_wall_both):
                # the wall cue's die explains the pair only if the other lies flat: where the
                # lean model sees the other lean, both are flagged (the throw is the
                # operator's either way; the leaning one must be among those shown)
                out[i] = out[j] = True
                continue
        elif beliefs is not None:
            si, sj = beliefs[i], beliefs[j]
            if clearable and max(si, sj) <= settings.pair_min_lean and (
                ri is not None
                and rj is not None
                and max(lean_scores(silhouettes, settings, frame, ri, rj))
                <= settings.pair_clear_score
            ) and (not settings.pair_clear_square or (
                tilted is not None and tilted[i] is False and tilted[j] is False)):
                # the lean model sees two flat dice lying close, and so do the reader and the
                # silhouettes, and both tops show whole and square: a die whose top is hidden
                # or merged with the other's (dice of one colour touching) is not proved flat
                continue
            if pick is not None and settings.pair_pick is not None:
                # the lean model judges each die from its crop alone, where a flat die shows
                # its leaning partner's raised face beside it; the pair model sees both, and
                # errs elsewhere: their log-odds are summed
                z = log_odds(si) - log_odds(sj) + settings.pair_pick * log_odds(pick(i, j))
                si, sj = 0.5 * z, -0.5 * z
        elif ri is not None and rj is not None:
            si, sj = lean_scores(silhouettes, settings, frame, ri, rj)
            if clearable and max(si, sj) <= settings.pair_min_score:
                continue  # neither shows a sign of leaning: two flat dice lying close
        else:
            si, sj = wi * hi, wj * hj
        if si == sj and on_wall[i]:  # both on the wall: each leans on it
            out[i] = out[j] = True
            continue
        lean, flat = (i, j) if si > sj else (j, i)
        out[lean] = True
        out.setdefault(flat, False)
    return out
