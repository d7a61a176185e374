"""The wall cue (``leans_on_wall``) and its proofs of a flat die at the wall: the front face's
band (``flat_fronts``), the pips' centre (``flat_by_pips``), the faces' edge lines
(``flat_by_rims``), the flat cube's rim (``flat_by_cube``); the wall-face cue (``wall_faces``),
the unseen die (``unseen_at_wall``) and the lean model's keep (``lean_kept``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from vision.camera_view import CameraView, CameraViewError
from vision.cocked.settings import CockedSettings, cocked_share
from vision.cocked.top_face import pips_centre, top_region
from vision.cocked.windows import die_offsets, top_centres
from vision.die_silhouette import RestSilhouettes
from vision.flat_cube import lean_rim, rim_profile, rim_scale
from vision.front_rim import edge_direction, rim_band, side_bands
from vision.throw_geometry import TableGeometry


def leans_on_wall(geometry: TableGeometry, settings: CockedSettings, box, reading) -> bool:
    """The wall cue: whether a resting die (its rotated box on the rest frame, its reading or
    None) leans on the back wall.

    With the reader's top-face centre: a die within reach of the wall (its silhouette's centre
    within ``wall_near`` die edges of the wall line, as far out as a die turned corner-on to
    the wall touches it from) whose top face does not sit wall-ward of its
    silhouette (``wall_shift``). A flat die shows, besides its top, only its faces turned to
    the camera, so its top lies on the wall side of its silhouette; a die leaning on the wall
    has its top tipped away from the wall and shows the face that was against it, on the wall
    side. Without a reading: a silhouette closer to the wall than a flat die's can be
    (``wall_lean``)."""
    st = settings
    die = geometry.die
    (cx, cy), _, _ = box
    d_wall, u_wall = geometry.wall_distance(cx, cy)
    if not -0.02 <= u_wall <= 1.02:
        return False
    top = reading.center if reading is not None else None
    if top is None:
        return d_wall < st.wall_lean * die
    shift = wall_shift(geometry, settings, box, top, cocked_share(reading))
    return d_wall < st.wall_near * die and shift > -st.wall_top_shift


def wall_shift(geometry: TableGeometry, settings: CockedSettings, box, top,
               share: float = 0.0) -> float:
    """How far (die edges) the top face's centre ``top`` sits from the silhouette's (the
    rotated ``box``'s centre) away from the wall (negative: wall-ward, as a flat die's under a
    camera tilted toward the wall), plus ``wall_share_weight`` times the reader's belief that
    the die leans (``share``: a top barely wall-ward of the silhouette, a die leaning steeply or
    a flat one seen nearly from above, is judged by the face), less ``wall_distance_weight``
    times the silhouette's distance to the wall (a leaning die's reaches closer to the wall
    than a flat one's can)."""
    die = geometry.die
    d_wall, _ = geometry.wall_distance(*box[0])
    d_top, _ = geometry.wall_distance(float(top[0]), float(top[1]))
    return ((d_top - d_wall) / die + settings.wall_share_weight * share
            - settings.wall_distance_weight * d_wall / die)


def flat_by_pips(geometry: TableGeometry, settings: CockedSettings, frame: np.ndarray,
                 boxes: list, readings: list, walls: list[bool]) -> list[bool]:
    """For each die the wall cue flags (``walls``), whether the wall cue measured from its top
    face's centre as its pips give it (``top_pips``: their mean, which the felt's colour, the
    die's shadow and a glare beside the pips do not move) finds its top wall-ward of its
    silhouette by ``wall_pip_margin`` past ``wall_pip_bar``: that clears the wall cue's flag.
    Only where the pips are as many as the reader's face (its value, else its ``best_face``)
    and their centre lies within ``wall_pip_agree`` of the reader's: the pips of a side face
    taken in with the top's, or of a face the reader did not read, clear nothing. False for
    the others, and for all with ``wall_pips`` off."""
    out = [False] * len(boxes)
    if not settings.wall_pips:
        return out
    die = geometry.die
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        if not walls[i] or rd is None:
            continue
        centre = pips_centre(settings, frame, rd, die)
        if centre is None:
            continue
        shift = wall_shift(geometry, settings, box, centre, cocked_share(rd))
        out[i] = shift <= -(settings.wall_pip_bar + settings.wall_pip_margin)
    return out


class FrontBand(NamedTuple):
    """How a resting die's front face shows, in a strip half an edge wide across its top face's
    centre (die edges; ``front_band``)."""

    top_edge: float  # how far its top face reaches away from the wall from that centre
    band: float  # how much farther its silhouette does: the front face as seen
    top_back: float  # how far its top face reaches toward the wall from that centre
    back_gap: float  # how much farther its silhouette does toward the wall

    @property
    def depth(self) -> float:
        """The top face's depth across the wall in the strip, whatever the centre's error."""
        return self.top_edge + self.top_back


def front_band(silhouettes: RestSilhouettes, frame: np.ndarray, top, other_tops: list,
               top_max: float | None = None, chroma: float | None = None) -> FrontBand | None:
    """How a resting die's front face shows (``FrontBand``, away from the wall from its top
    face's centre ``top``): how far its top face (``top_region``) reaches and how much farther
    its silhouette (``die_offsets``) does, and the same toward the wall; None where either
    cannot be cut out. Where the top's region reaches past ``top_max`` (run into a front face
    of the top's shade, or the felt), its region bounded by seams as well
    (``top_region(seams=True)``) is taken, if it reaches no farther.

    A flat die's band is its front face, one edge tall, seen at the view angle: about the
    slope ``toward`` (``CameraView.slope``) whatever its turn and wherever the reader puts the
    centre (both edges move with it). A die whose lower edge rides up the wall by t tips its
    front face away from the camera: ``toward cos t - sin t`` (none left once tan t > toward,
    and then the face that was against the wall shows beyond the top's back edge, ``back_gap``
    ``sin t - toward cos t``); one leaning back on the wall shows sin t more. ``chroma``: the
    silhouette takes in the pixels off the felt's chromaticity as well (``die_offsets``)."""
    geo = silhouettes.geometry
    die = geo.die
    offsets = die_offsets(silhouettes, frame, top, other_tops, chroma)
    if offsets is None:
        return None
    edges = _top_edges(geo, top_region(frame, top, die), top)
    if edges is not None and top_max is not None and edges[0] > top_max:
        seamed = _top_edges(geo, top_region(frame, top, die, seams=True), top)
        if seamed is not None and seamed[0] < edges[0]:
            edges = seamed
    toward, along = offsets
    strip = np.abs(along) < 0.25
    if edges is None or strip.sum() < 5:
        return None
    top_edge, top_back = edges
    return FrontBand(top_edge, float(np.percentile(-toward[strip], 99)) - top_edge,
                     top_back, float(np.percentile(toward[strip], 99)) - top_back)


def _top_edges(geo: TableGeometry, region: np.ndarray | None, top) -> tuple[float, float] | None:
    """How far (die edges) the top face's ``region`` reaches away from the wall and toward it
    from ``top``, in the strip half an edge wide across it (99th percentiles); None without a
    region or with too little of it in the strip."""
    if region is None:
        return None
    ys, xs = np.nonzero(region)
    dx, dy = xs - float(top[0]), ys - float(top[1])
    top_away = (dx * geo.wall_n[0] + dy * geo.wall_n[1]) / geo.die
    top_strip = np.abs((dx * geo.wall_u[0] + dy * geo.wall_u[1]) / geo.die) < 0.25
    if top_strip.sum() < 5:
        return None
    return (float(np.percentile(top_away[top_strip], 99)),
            float(np.percentile(-top_away[top_strip], 99)))


def camera_view(silhouettes: RestSilhouettes) -> CameraView | None:
    """How the camera looks at the felt, from the calibration's area (``CameraView``), or None
    where the area gives none."""
    geo = silhouettes.geometry
    wall = (geo.wall_p, (geo.wall_p[0] + geo.wall_u[0] * geo.wall_len,
                         geo.wall_p[1] + geo.wall_u[1] * geo.wall_len))
    try:
        return CameraView.from_area([tuple(p) for p in geo.area_poly.reshape(-1, 2)], wall,
                                    silhouettes.frame_size)
    except CameraViewError:
        return None


def flat_fronts(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray,
                boxes: list, readings: list, walls: list[bool]) -> list[bool]:
    """For each die the wall cue flags (``walls``), whether its front face shows as a flat
    die's does (``front_band`` within ``wall_band_clear`` of the view's ``toward`` at its top,
    its top's front edge where a whole top's lies, the band at least ``wall_band_min``): that
    clears the wall cue's flag. Where it does not, and no other die lies within
    ``wall_band_alone`` die edges, the band is measured again on the silhouette that takes in
    the pixels off the felt's chromaticity (``wall_band_chroma``: a die of the felt's colour,
    whose shaded front face passes for felt or shadow); where it does, that measure must agree
    if it can be taken (``wall_band_agree``). False for the others, without a camera view, or
    with ``wall_band_clear`` off."""
    out = [False] * len(boxes)
    if settings.wall_band_clear <= 0 or not any(walls):
        return out
    view = camera_view(silhouettes)
    if view is None:
        return out
    tops = top_centres(boxes, readings)
    die = silhouettes.geometry.die
    for i in range(len(boxes)):
        if not walls[i]:
            continue
        try:
            toward = view.slope(*tops[i])[0]
        except CameraViewError:
            continue
        others = [t for j, t in enumerate(tops) if j != i]
        top_max = settings.wall_band_top_max if settings.wall_band_seams else None
        out[i] = _flat_front(front_band(silhouettes, frame, tops[i], others, top_max),
                             toward, settings)
        # a flat die near another may be what that one leans on, unseen by the pair cue: its
        # flag is then what sends the throw to the operator, so the felt's colour, which
        # passes a shadow's hue as readily as a face's, does not clear it
        alone = all(math.dist(boxes[i][0], boxes[j][0]) > settings.wall_band_alone * die
                    for j in range(len(boxes)) if j != i)
        if settings.wall_band_chroma is None or not alone:
            continue
        if out[i] and not settings.wall_band_agree:
            continue
        by_chroma = front_band(silhouettes, frame, tops[i], others, top_max,
                               settings.wall_band_chroma)
        if out[i]:
            # both measure the one front face: where they disagree, when in doubt, flag
            out[i] = by_chroma is None or _flat_front(by_chroma, toward, settings)
        else:
            out[i] = _flat_front(by_chroma, toward, settings)
    return out


def _flat_front(seen: FrontBand | None, toward: float, settings: CockedSettings) -> bool:
    """Whether a front face (``front_band``) shows as a flat die's: a whole top, a band at
    least ``wall_band_min`` and within ``wall_band_clear`` of the view angle's ``toward``."""
    return (seen is not None and whole_top(seen, settings)
            and seen.band >= settings.wall_band_min
            and abs(seen.band - toward) <= settings.wall_band_clear)


def whole_top(seen: FrontBand, settings: CockedSettings) -> bool:
    """Whether the top face's region in the strip (``front_band``) is a whole top, so that its
    front edge is the top's: that edge lies ``wall_band_top``..``wall_band_top_max`` from the
    reader's centre, as a whole top's does; or, the reader's centre off the top's (a glare, a
    pip at the edge), the region is a whole top's depth (``wall_band_depth``) with its back
    edge the silhouette's (within ``wall_band_back_gap`` either way) and its front edge at least
    ``wall_band_top_low`` out: a region cut short at the front is then as short as the window
    lets one be."""
    st = settings
    if st.wall_band_top <= seen.top_edge <= st.wall_band_top_max:
        return True
    low, high = st.wall_band_depth
    return (low <= seen.depth <= high and abs(seen.back_gap) <= st.wall_band_back_gap
            and st.wall_band_top_low <= seen.top_edge <= st.wall_band_top_max)


class RimFront(NamedTuple):
    """A die's front and side faces by their edge lines (``rim_front``; die edges, each less
    what a flat die shows there)."""

    band: float  # the top's front edge line to the rim line, less ``toward``
    sil_band: float  # the top's front edge line to the silhouette's end, less ``toward``
    side: float  # the wider side face beyond what the view's slope across it shows


def rim_front(silhouettes: RestSilhouettes, frame: np.ndarray, top, other_tops: list,
              slope: tuple[float, float]) -> RimFront | None:
    """How a die at the wall shows its front and side faces by their edge lines
    (``vision.front_rim``), from its top face's centre ``top``, against a flat die there (the
    view's ``slope``: ``(toward, along)``, ``CameraView.slope``): the band between the top's
    front edge and its rim (``rim_band``), the band between that top edge and where the
    silhouette ends (``die_offsets``, as ``front_band`` takes it), each less ``toward``, and
    how much more of either side face shows (``side_bands``) than a flat die turned as it is
    shows there. None where the lines or the silhouette cannot be found.

    The lines are steps of the image along the die's own edges, whatever its colour: a glare on
    the top, a top of the front face's shade or a front face of the felt's do not move them,
    where the top's colour region (``front_band``) stops short or runs on."""
    geo = silhouettes.geometry
    die = geo.die
    edge = edge_direction(frame, top, die, geo.wall_u, geo.wall_n, geo.wall_p)
    if edge is None:
        return None
    rim = rim_band(frame, top, die, geo.wall_n, edge, other_tops)
    offsets = die_offsets(silhouettes, frame, top, other_tops)
    sides = side_bands(frame, top, die, edge, other_tops)
    if rim is None or offsets is None or sides is None:
        return None
    # where the silhouette ends away from the wall, in the strip across the top (as
    # ``front_band`` takes it)
    strip = np.abs(offsets[1]) < 0.25
    if strip.sum() < 5:
        return None
    sil_front = float(np.percentile(-offsets[0][strip], 99))
    toward, along = slope
    # a flat die's side faces show as far as the view's slope across them: a point one edge
    # lower is seen ``toward`` away from the wall and ``along`` back along it
    n, u = np.array(geo.wall_n), np.array(geo.wall_u)
    across = toward * float(edge @ n) - along * float(edge @ u)
    side = max(sides[0] - max(0.0, across), sides[1] - max(0.0, -across))
    return RimFront(rim.band - toward, sil_front - rim.top_edge - toward, side)


def flat_by_rims(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray,
                 boxes: list, readings: list, walls: list[bool]) -> list[bool]:
    """For each die the wall cue flags (``walls``), whether its faces by their edge lines
    (``rim_front``, from the reader's top-face centre and, where they agree with the reader,
    from its pips' centre too: both) show as a flat die's: both bands within ``wall_rim_clear``
    short and ``wall_rim_high`` past ``toward``, no side face wider than a flat die's by
    ``wall_rim_side``. That clears the wall cue's flag. False for the others, without a camera
    view, or with ``wall_rim_clear`` off."""
    out = [False] * len(boxes)
    st = settings
    if st.wall_rim_clear <= 0:
        return out
    die = silhouettes.geometry.die
    for i, rd, view, tops in _wall_flagged(silhouettes, boxes, readings, walls):
        try:
            slope = view.slope(*tops[i])
        except CameraViewError:
            continue
        others = [t for j, t in enumerate(tops) if j != i]
        # measured from the reader's centre and from the pips' where they are found: the
        # bands move with the centre (a die leaning corner-on showed a flat die's front from
        # one and not the other: docs/replay.md), so the two must both show a flat die's
        out[i] = all(rim_shows_flat(rim_front(silhouettes, frame, centre, others, slope), st)
                     for centre in (tops[i], pips_centre(st, frame, rd, die))
                     if centre is not None)
    return out


def _wall_flagged(silhouettes: RestSilhouettes, boxes: list, readings: list,
                  walls: list[bool]):
    """The dice the wall cue flags (``walls``) that the reader read, for a proof that clears
    them by the camera's view: (index, reading, the view, every die's top); none without a
    camera view."""
    if not any(walls):
        return
    view = camera_view(silhouettes)
    if view is None:
        return
    tops = top_centres(boxes, readings)
    for i in range(len(boxes)):
        rd = readings[i] if i < len(readings) else None
        if walls[i] and rd is not None:
            yield i, rd, view, tops


def rim_shows_flat(seen: RimFront | None, settings: CockedSettings) -> bool:
    """Whether a die's faces by their edge lines (``rim_front``) show as a flat die's: both
    bands within ``wall_rim_clear`` short and ``wall_rim_high`` past ``toward``, and no side
    face wider than a flat die's by more than ``wall_rim_side``."""
    st = settings
    return (seen is not None and seen.side <= st.wall_rim_side
            and all(-st.wall_rim_clear <= b <= st.wall_rim_high
                    for b in (seen.band, seen.sil_band)))


class CubeRim(NamedTuple):
    """Where a die at the wall meets the felt by its flat hypothesis's rim (``cube_rim``)."""

    scale: float  # the rim's shift, in units of the view's slope (a flat die's: about 0.6-0.8)
    rim: float  # the rim past the top's front edge, die edges: ``scale`` times ``toward``
    step: float  # the rim's step (colour levels per pixel)
    past_lean: float  # ``rim`` less where a die tipped ``wall_cube_lean`` meets the felt


def cube_rim(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray, top,
             other_tops: list, slope: tuple[float, float]) -> CubeRim | None:
    """Where a die whose top face's centre is ``top`` meets the felt, by the flat hypothesis's
    rim drawn through the camera model (``vision.flat_cube``; the view's ``slope`` there):
    the outermost step along the cube's lower outline standing ``wall_cube_step`` above the
    felt's; None where no step stands out, the slope is too small to tell, or the edges'
    direction is not found."""
    geo = silhouettes.geometry
    die = geo.die
    edge = edge_direction(frame, top, die, geo.wall_u, geo.wall_n, geo.wall_p)
    if edge is None:
        return None
    prof = rim_profile(frame, top, die, edge, slope, geo.wall_n, geo.wall_u, other_tops)
    found = rim_scale(*prof, stand_out=settings.wall_cube_step) if prof is not None else None
    if found is None:
        return None
    scale, step = found
    rim = scale * slope[0]
    return CubeRim(scale, rim, step, rim - lean_rim(slope[0], settings.wall_cube_lean))


def flat_by_cube(silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray,
                 boxes: list, readings: list, walls: list[bool]) -> list[bool]:
    """For each die the wall cue flags (``walls``) with no other die within
    ``wall_cube_alone``, whether its rim by the flat hypothesis (``cube_rim``, from its top's
    centre as its pips give it; a die whose pips do not agree with the reader is left
    flagged) lies ``wall_cube_clear`` or more past where a die tipped ``wall_cube_lean`` would
    meet the felt, ``wall_cube_low`` to ``wall_cube_high`` times the view's slope out: that clears
    the wall cue's flag. False for the others, without a camera view, or with
    ``wall_cube_clear`` off."""
    out = [False] * len(boxes)
    st = settings
    if st.wall_cube_clear is None or st.wall_cube_clear is False:
        return out
    die = silhouettes.geometry.die
    for i, rd, view, tops in _wall_flagged(silhouettes, boxes, readings, walls):
        if any(math.dist(boxes[i][0], boxes[j][0]) <= st.wall_cube_alone * die
               for j in range(len(boxes)) if j != i):
            continue
        centre = pips_centre(st, frame, rd, die)
        if centre is None:
            continue
        try:
            slope = view.slope(*centre)
        except CameraViewError:
            continue
        seen = cube_rim(silhouettes, st, frame, centre,
                        [t for j, t in enumerate(tops) if j != i], slope)
        out[i] = cube_shows_flat(seen, st)
    return out


def cube_shows_flat(seen: CubeRim | None, settings: CockedSettings) -> bool:
    """Whether a die's rim by its flat hypothesis (``cube_rim``) shows a flat die's: at least
    ``wall_cube_clear`` past where a ``wall_cube_lean``-degree lean would meet the felt, and
    ``wall_cube_low`` to ``wall_cube_high`` times the view's slope out. False with
    ``wall_cube_clear`` off."""
    st = settings
    if seen is None or st.wall_cube_clear is None or st.wall_cube_clear is False:
        return False
    return (seen.past_lean >= st.wall_cube_clear
            and st.wall_cube_low <= seen.scale <= st.wall_cube_high)


def wall_face_reach(
    silhouettes: RestSilhouettes, frame: np.ndarray, top, other_tops: list
) -> float | None:
    """How far (die edges) a resting die's silhouette reaches toward the back wall beyond its
    top face's centre ``top``, less what its top reaches along the wall (the nearer side): what
    a flat die turned as it is would reach toward the wall. None where the silhouette cannot be
    cut out.

    A camera over the table sees, besides a flat die's top, only its faces turned toward the
    camera, which for a die by the back wall are on the side away from the wall: its top is
    the part nearest the wall. A die tipped away from the wall (its upper edge caught on the
    rail, a renderer that draws it so) shows the face that was against the wall on the wall
    side: a reach beyond the top's. The silhouette: ``die_offsets``.
    """
    offsets = die_offsets(silhouettes, frame, top, other_tops)
    if offsets is None:
        return None
    toward, along = offsets
    # a square's corner reaches as far along the wall as toward it whatever its turn, and a
    # lean on the wall (about an axis along it) leaves the reach along the wall as it was: the
    # nearer side along the wall is what a flat die would reach toward it, measured the same
    # way (the same blurred edges); the farther side may show a side face (the camera off to
    # that side)
    flat = min(float(np.percentile(along, 98)), float(np.percentile(-along, 98)))
    return float(np.percentile(toward, 98)) - flat


def wall_faces(
    silhouettes: RestSilhouettes, settings: CockedSettings, frame: np.ndarray, boxes: list,
    readings: list,
) -> list[bool]:
    """The wall-face cue for each resting die: by the wall (``wall_face_near``), its
    silhouette reaching toward the wall beyond its top (``wall_face_reach``, from its pips'
    centre where they agree with the reader, else the reader's) by more than
    ``wall_face_excess``."""
    geo = silhouettes.geometry
    tops = []
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        top = rd.center if rd is not None else None
        tops.append((float(top[0]), float(top[1])) if top is not None else box[0])
    out = []
    for i, box in enumerate(boxes):
        if geo.wall_distance(*box[0])[0] > settings.wall_face_near * geo.die:
            out.append(False)
            continue
        others = [t for j, t in enumerate(tops) if j != i]
        # from the top's centre as its pips give it where they agree with the reader: the
        # reach is measured from it, and the reader's centre is the less exact
        rd = readings[i] if i < len(readings) else None
        centre = pips_centre(settings, frame, rd, geo.die) if rd is not None else None
        excess = wall_face_reach(silhouettes, frame, centre or tops[i], others)
        out.append(excess is not None and excess > settings.wall_face_excess)
    return out


def unseen_at_wall(geometry: TableGeometry, settings: CockedSettings, boxes: list) -> list[bool]:
    """For each die, whether it lies within the wall cue's reach with a rest silhouette too
    small for the cues to judge (``wall_unseen_area``): when in doubt, flag."""
    bar = settings.wall_unseen_area
    if bar is None:
        return [False] * len(boxes)
    die = geometry.die
    out = []
    for (centre, (w, h), _) in boxes:
        d_wall, u_wall = geometry.wall_distance(*centre)
        out.append(-0.02 <= u_wall <= 1.02 and d_wall < settings.wall_near * die
                   and w * h < bar * die * die)
    return out


def lean_kept(geometry: TableGeometry, settings: CockedSettings, boxes: list, readings: list,
              beliefs: list[float] | None) -> list[bool]:
    """For each die, whether the lean model and the reader together keep it flagged at the
    wall (``wall_lean_keep``): within the wall cue's reach, the model's belief at least
    ``wall_lean_keep`` and the reader's cocked share at least ``wall_lean_share``, or the
    model's belief at least ``wall_lean_sure`` alone. The reach is measured from the nearer
    of the silhouette's centre and the top's (the reader's centre): a die of the felt's
    colour leaves a silhouette cut short, its centre off the die's (dev 75423 and 75543,
    green dice leaning 14 and 26 degrees on the wall, the silhouette's centre 1.03 and 0.90
    edges from the wall line, their tops 0.71 and 0.67)."""
    bar = settings.wall_lean_keep
    if bar is None or beliefs is None or not settings.geometric_cocked:
        return [False] * len(boxes)
    out = []
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        d_wall, u_wall = geometry.wall_distance(*box[0])
        if rd is not None:
            d_wall, u_wall = min((d_wall, u_wall), geometry.wall_distance(*rd.center))
        out.append(rd is not None and -0.02 <= u_wall <= 1.02
                   and d_wall < settings.wall_near * geometry.die
                   and beliefs[i] >= bar
                   and (cocked_share(rd) >= settings.wall_lean_share
                        or (settings.wall_lean_sure is not None
                            and beliefs[i] >= settings.wall_lean_sure)))
    return out
