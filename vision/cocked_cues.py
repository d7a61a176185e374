"""Whether a resting die is cocked, judged by geometry (``CockedSettings.geometric_cocked``) as
well as by the reader, once per throw on the full-resolution rest frame. A false flag costs
the operator a tap, a missed one a wrong payout: when in doubt, flag.

- The top-face cue (``top_face_shape``, ``foreshortened``): a die by the wall or the other
  die whose top face is foreshortened (cos of its tilt across it) is cocked; nothing clears
  it. It asks nothing of how a renderer or a camera draws a die beyond its geometry.
- The wall cue (``leans_on_wall``): from where the top face (the reader's centre) sits in the
  die's silhouette. A flat die seen by a camera tilted toward the back wall shows only its
  faces turned to the camera besides its top, so its top lies on the wall side of its
  silhouette; a die at the wall whose top does not (its top tipped away
  from the wall, the face that was against the wall showing) leans on the wall; the reader's
  graded belief (``cocked_share``) decides the close calls. A die whose front face shows as a
  flat die's does (``front_band``: its height as seen, between the top's front edge and the
  silhouette's, the view angle's ``toward`` from the area; its top whole by where its front
  edge lies or by its depth: ``whole_top``) is cleared: tipped away from the wall by t, a die
  turns its front face from the camera and shows sin t less. A die of the felt's colour, whose
  shaded front face passes for felt, has its band measured again on the silhouette that takes
  in the pixels off the felt's chromaticity (``wall_band_chroma``), where no other die is near.
  A die whose top, where its pips put it (``flat_by_pips``, ``vision.top_pips``: their mean is
  the face's centre), sits wall-ward of its silhouette after all is cleared too.
  So is one whose faces, found by their edge lines rather than their colour (``flat_by_rims``,
  ``rim_front``, ``vision.front_rim``: the top's front edge, the front face's rim, the side
  faces' rims), show a flat die's front face and no side face a flat die cannot show.
- The pair cue (``pairs``): of two dice lying closer than flat dice usually do, or touching
  as close as a die turned corner-on to the other can lean on it from, one leans on the other
  (a die comes to rest tilted only against something); felt between them that neither a die
  nor a shadow covers proves neither does (``silhouettes_touch``). If the wall cue finds one of
  them leaning on the wall, that explains the pair. Else the leaning one is the one scoring
  higher on: the reader's ``cocked_share`` (it saw the faces), less its confidence in the face
  (a tilted face reads less surely), plus how far its silhouette reaches past its top toward
  the other beyond a flat die's reach there (it tips its top away and shows the face that was
  against the other). What lies between the tops may prove both flat (``lie_flat_together``):
  tops that touch, a strip of felt wider than a lean's touch hides, or a band between them of
  the felt's chromaticity where a leaning die would show its own face (``band_between``).
- The lean model (``vision.die_lean``, the reader's ``lean``, with ``lean_model`` on): a small
  net that sees each resting die with its surroundings, the back wall up. Where it is there,
  the pair cue takes the die it believes leans more. It learnt from our simulator only, so it
  never clears a flag alone: a flag of the reader's alone on a die it reads (``lean_clear``)
  only where the top-face cue sees a square top, and a close pair only when the reader's and
  the silhouettes' score agrees, felt shows between them and both tops are square
  (``pair_min_lean``, ``pair_clear_score``, ``pair_clear_touching``, ``pair_clear_square``, and
  ``pair_wall_margin`` for a pair one of whose dice the wall cue flags; there it may add a
  flag on the other die, ``pair_wall_both``). It never clears a
  wall-cue flag: a square top does not confirm its "flat" there (a die leaning 10-20 degrees
  on the wall shows a top foreshortened by under 6%).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import cv2
import numpy as np

from vision.camera_view import CameraView, CameraViewError
from vision.die_silhouette import RestSilhouettes, felt_in_shadow
from vision.flat_cube import lean_rim, rim_profile, rim_scale
from vision.front_rim import edge_direction, rim_band, side_bands
from vision.pair_band import PairBand, pair_band
from vision.throw_geometry import TableGeometry
from vision.top_pips import top_pips


class Reading(Protocol):
    """One die as a reader read it (``vision.dice.DieReading``): what the cues use."""

    value: int | None
    center: tuple[float, float]  # the top face's centre: the wall cue and the top-face cue
    confidence: float  # in value (of its likeliest face when value is None)
    cocked: bool
    # the reader's graded belief 0..1 that the die leans (the pair cue picks the likelier die
    # by it); None for a reader without one: its flag counts as its belief
    cocked_share: float | None
    # the likeliest face whatever the reader's thresholds: the value of a die the reader
    # flagged that the pair cue finds flat (R-I2: None leaves it to the operator)
    best_face: int | None


class LeanModel(Protocol):
    """A learned judge of lean (``vision.die_lean.LeanJudge``): per die, its belief 0..1."""

    def beliefs(self, frame: np.ndarray, centers: list, die_px: float,
                toward_wall: tuple[float, float]) -> list[float]:
        ...


class Reader(Protocol):
    """What the tracker needs of a dice reader (``vision.dice.DiceReader``): one ``Reading``
    per box, read once per throw on the rest frame."""

    # a judge of lean the pair cue asks (it never clears a flag alone), or None
    lean: LeanModel | None
    # the bar a value must pass: with ``best_face`` it lets the pair cue read the flat
    # partner of a leaning die; None leaves that die to the operator
    min_confidence: float | None

    def read_at(
        self, frame_bgr: np.ndarray, boxes: list, die_px: float | None = None
    ) -> list[Reading]:
        ...


@dataclass
class CockedSettings:
    """How resting dice are judged cocked (figures and how these were chosen: docs/replay.md).

    :param geometric_cocked: judge by geometry as well as by the reader: the top-face cue,
        the wall cue and the pair cue. Off: the reader's flag alone.
    :param face_near_wall: the top-face cue looks at dice whose silhouette's centre lies
        within this many die edges of the wall line (a die leaning on the wall has its centre
        0.6-0.7 edges out, more as the camera sees it)...
    :param face_near_die: ...or within this of the other die's (leaning on it): a die comes to
        rest tilted only against something.
    :param face_square: ...and flags one whose top face (``top_face_shape``) is narrower than
        this across than along: cos(t) for a die tilted by t, the face's blurred edges making
        it narrower still.
    :param face_narrow: ...and narrower than this (die edges: a flat die's top is ``die_px``
        wide, give or take the perspective's ~10% over the table). Below ``face_square``, so
        a top seen at its true size or smaller (the far end of the table) is judged by its
        squareness alone; this keeps a flat top seen narrow (its depth foreshortened by the
        view, its rim blurred: 0.82-0.84 edges) from counting.
    :param face_min: a region of the top's colour shorter than this (die edges: a tilted top
        keeps its untilted edge whole) is not a whole face (the cue then cannot tell)...
    :param face_max: ...nor one longer (merged with the felt, the other die, a second face of
        the same shade)...
    :param face_narrowest: ...nor one narrower than this: a die leaning 45 degrees, the
        steepest one rests at, shows its top cos(45) = 0.71 wide; narrower is a piece of a
        face (a glare, a shade across it).
    :param face_pips: where the top's region is no whole face (a lamp's glare or shade across
        it splits it), judge the top by its corner pips' squareness instead
        (``pips_foreshortened``; faces of four, five and six; a flat die's lie square within
        the view's foreshortening, well above ``face_square``).
    :param wall_face_near: the wall-face cue (``wall_face_reach``) looks at dice whose
        silhouette's centre lies within this many die edges of the wall line (a die leaning on
        the wall rests with it 0.35-0.65 out as the camera sees it)...
    :param wall_face_excess: ...and flags one whose silhouette reaches toward the wall beyond
        its top face by more than this (die edges) beyond what it reaches along the wall: half
        of what a die leaning 10 degrees shows of the face that was against the wall (sin 10 =
        0.17 edge). Nothing clears this flag.
    :param wall_lean: the wall cue without a reader: a silhouette closer than this (die edges)
        to the wall line than a flat die's can be.
    :param wall_near: with a reader, the wall cue looks at dice whose silhouette's centre lies
        within this many die edges of the wall line: the cube's half-diagonal (0.87), the
        farthest out a die touching the wall can rest. Square to the wall a die leaning 10-20
        degrees rests 0.58-0.65 out, but turned to it its corner touches: turned 30-45
        degrees, 0.76-0.78 out at 10 degrees, 0.81-0.84 at 20, 0.87 at the 33 or so beyond
        which the top-face cue sees the lean...
    :param wall_top_shift: ...and flags one whose top face (the reader's centre) is not at
        least this many die edges nearer the wall than its silhouette's centre, once
        ``wall_share_weight`` times the reader's ``cocked_share`` is added to that shift and
        ``wall_distance_weight`` times the silhouette's distance to the wall taken off.
    :param wall_share_weight: see ``wall_top_shift``.
    :param wall_band_clear: a die the wall cue flags is cleared when its front face shows as a
        flat die's does (``front_band``): the band between its top's front edge and its
        silhouette's front edge within this many die edges of the view angle's ``toward`` at its
        top (``CameraView.slope``, from the area). A die tipped away from the wall by t turns
        its front face from the camera and shows sin t less (0.17 edge at 10 degrees). 0: off.
    :param wall_band_top: ...only where its top's front edge lies this many die edges from the
        top's centre, or more, as a whole top's does (a top region cut short by a glare, or run
        into the front face of its shade or the felt, leaves the flag as it is)...
    :param wall_band_top_max: ...and no more than this...
    :param wall_band_min: ...and only where the band is at least this (die edges): a die
        tipped 10 degrees or more shows less wherever the camera's true slope at the wall is
        0.33 or less, so there a view angle estimated too low cannot clear it.
    :param wall_band_seams: where the top's region runs past ``wall_band_top_max``, take it
        again bounded by seams (``top_region(seams=True)``) as well.
    :param wall_band_chroma: where the front face does not show as a flat die's, measure it
        again on the silhouette that takes in the pixels off the felt's chromaticity by more
        than this (``vision.die_silhouette.off_felt_chroma``: a die of the felt's colour, whose
        shaded front face the change and shadow tests take for felt). None: off.
    :param wall_band_alone: ...only for a die with no other die within this many die edges
        (it may be what the other leans on).
    :param wall_band_agree: for such a die (alone), the band measured on that silhouette too
        must show a flat die's front, where it can be measured, for the first to clear: the
        two measure one face, and where they disagree one of them is wrong (a die of the
        felt's colour leaning 11 degrees read 0.30 edge of front face on the first, 0.18 on
        the second, its lean's 0.37 - sin 11: dev 82104 at 1280x720, docs/replay.md).
    :param wall_band_depth: a top whose front edge lies nearer the reader's centre than
        ``wall_band_top`` (the centre off the top's) is whole when its region in the strip is
        this deep (die edges, low and high: a flat top, seen in perspective and blurred)...
    :param wall_band_back_gap: ...its back edge within this of the silhouette's, either way (a
        region run over a wall of its colour, or a face that was against the wall showing
        beyond it, is no whole top)...
    :param wall_band_top_low: ...and its front edge at least this far out (``whole_top``).
    :param wall_distance_weight: see ``wall_top_shift``.
    :param wall_pip_margin: a die the wall cue flags is cleared when the wall cue, measured
        from its top face's centre as its pips give it (``top_pips``) rather than the reader's,
        finds it this many die edges (the pips' centre's error) past ``wall_pip_bar``: its
        top sits wall-ward of its silhouette as a flat die's does.
    :param wall_pip_bar: the bar of ``wall_pip_margin``: the wall cue's own bar before it
        went from 0.2 to 0.22 (``wall_top_shift``), which was raised for the reader's centre,
        up to 0.1 edge off the top's; the pips' centre is not.
    :param wall_pips: clear by the pips (``wall_pip_margin``) at all.
    :param wall_pip_agree: ...only where the pips are as many as the reader's face and their
        centre lies within this many die edges of the reader's (both saw the same face).
    :param pip_contrast: the pips of a top face whose region of one colour does not hold them
        all as holes (a lamp's glare or shade across it splits it) are looked for as spots
        standing this far out from the die around them (``vision.top_pips.pips_by_contrast``,
        Lab units; docs/replay.md, "The pips found by their contrast"). None: as holes only.
    :param wall_rim_clear: a die the wall cue flags (after the front face and the pips) is
        cleared when its front face, found by its edge lines rather than its colour
        (``rim_front``, ``vision.front_rim``), shows as a flat die's: the band between its
        top's front edge line and its rim line, and the band between that top line and the
        silhouette's end, each no more than this many die edges short of the view angle's
        ``toward``... 0: off.
    :param wall_rim_high: ...nor more than this past it (a die leaning back shows more)...
    :param wall_rim_side: ...and neither side face shows more than this (die edges) beyond
        what the view's slope across it shows of a flat die's (a die tipped sideways shows
        sin t more).
    :param wall_cube_clear: a die the wall cue flags (after the front face, the pips and the
        edge lines) is cleared when the flat hypothesis drawn through the camera model
        (``vision.flat_cube``: a cube at its top's centre as its pips give it, turned as its
        edges run, its footprint the top seen one edge lower) finds its rim, where the image
        steps along the cube's whole lower outline, at least this many die edges past where a
        die tipped ``wall_cube_lean`` degrees from the wall would meet the felt
        (``lean_rim``: ``toward cos t - sin t`` past its top's front edge, square edges; a
        rounded rim meets it nearer still). None: off.
    :param wall_cube_lean: see ``wall_cube_clear``: the least lean a die at rest shows.
    :param wall_cube_low: ...and at least this many times the view's slope out (a flat die's
        rim lies at about 0.6-0.8 of it, its edges rounded; the top's own front edge, blurred,
        is found at 0.1-0.35 of it: where the slope is small, a 10-degree lean's bound lies
        near the top's edge, and a step that near is that edge, not a front face)...
    :param wall_cube_high: ...and no farther than this many times (a step beyond is a shadow's
        edge or another object, not the die's rim)...
    :param wall_cube_step: ...the rim's step standing this far (colour levels per pixel, all
        but a quarter of its samples) above the felt's own...
    :param wall_cube_alone: ...only for a die with no other die within this many die edges:
        a die leaning on the other die tips any way, toward the camera too, and shows a rim
        farther out than a flat die's.
    :param pair_lean: of two resting dice closer than this (silhouette centres, die edges) one
        is taken to lean on the other. Flat dice can lie that close: one goes to the operator.
    :param pair_touch_reach: ...and of two dice closer than this whose silhouettes touch: a
        die leaning on the other touches it, and turned corner-on to it rests with its centre
        up to the other's half-diagonal (0.71) and its own half space diagonal (0.87) from the
        other's, seen raised (its centre up to 0.21 edge above a flat die's) farther still:
        past ``pair_lean``, which a die square to the other stays within. Two dice with felt
        between them that neither a die nor a shadow covers (``silhouettes_touch`` with the
        shadows kept) cannot lean on each other; the shadows are kept because dice touching at
        a corner or an edge meet in a neck a pixel or two wide, which the shadow-free
        silhouettes lose (the rims' blur, the cleaning of a shadow's stray pixels) where the
        felt around it lies in their shadow.
    :param pair_touch_chroma: the touch test's silhouettes take in the pixels off the felt's
        chromaticity by more than this too (a die of the felt's colour); None: off.
    :param pair_apart: two dice closer than ``pair_lean`` are no pair either when such felt
        lies between them.
    :param pair_felt_colour: ...unless either die has nearly the felt's colour
        (``felt_coloured``: its middle's chromaticity within this of the felt's): its shaded
        faces pass for felt, so felt between them proves nothing.
    :param pair_perspective: a flat die's silhouette's centroid lies this many die edges past
        its top face away from the wall (its front faces, seen by a camera tilted toward the
        wall); taken off the pair cue's reach (``pair_reach``).
    :param pair_reach_weight: the leaning die of a pair is the one with the higher score
        ``cocked_share - pair_conf_weight * confidence + pair_reach_weight * reach``.
    :param pair_conf_weight: see ``pair_reach_weight``.
    :param pair_min_score: a close pair whose likelier die scores no more than this is taken
        for two flat dice lying close. Off (-inf): a cocked throw must never be paid.
    :param pair_wall_margin: of a close pair one of whose dice the wall cue flags, the other
        is the leaning one instead (``pairs``) when the lean model's belief and the
        ``lean_scores`` both put it at least this far above the die at the wall.
    :param pair_keep_share: the other die of such a pair is cocked as well only if the wall
        cue says so or the reader's ``cocked_share`` is at least this.
    :param pair_wall_both: of a close pair one of whose dice the wall cue flags (and so
        explains the pair), the other die is flagged as well where the lean model believes it
        leans by at least this: a flat die at the wall the wall cue takes for leaning (a die of
        the felt's colour, a black one) with the other leaning on it, both seen by their own
        cue. It only adds a flag to a throw that goes to the operator anyway; None: off.
    :param lean_model: with a reader that has the lean model (``DiceReader.lean``,
        ``vision.die_lean``: a small net trained on our simulator's rest frames only), the
        pair cue asks it which die of a close pair leans. It never clears a flag alone: it
        clears a wall-cue flag or a flag of the reader's alone only where the top-face cue
        sees a square top as well, and a close pair only where the reader and the silhouettes
        see no lean either. Off: the other cues alone.
    :param pair_min_lean: a close pair neither of whose dice the lean model believes leans
        more than this, and whose ``lean_scores`` are no more than ``pair_clear_score``, is
        taken for two flat dice lying close.
    :param pair_clear_score: see ``pair_min_lean``. (-1.5 with the first lean model, trained on
        the default world alone; -1.0 since the model of both worlds: docs/replay.md.)
    :param pair_clear_square: ...and only where the top-face cue finds both tops whole and
        square (``foreshortened`` False): a die whose top it cannot see whole (hidden by the
        other, merged with the other's top of the same colour) is not proved flat, and one of
        the pair goes to the operator.
    :param pair_clear_touching: ...and only where felt lies between their silhouettes with
        the shadows left out (``silhouettes_touch``), unless this is on: a die leaning 10-15
        degrees on the other shows a top square within 3% and barely a side face, and the lean
        model (our renders only) and the reader believe it flat.
    :param pair_tops_touch: a close pair whose two tops, each a whole square
        (``top_square``: its region ``pair_top_size`` die edges long, its sides within
        ``pair_top_square`` of each other) set at its pips' centre (``top_pips``) and turned
        as its region is, touch within this many die edges (``tops_gap``) lies flat: two flat
        dice that touch have top squares that touch, while a die leaning by t on the other
        tips its top away and shows the face that was against it between the two tops,
        about sin t wide (0.17 at 10 degrees; as little as 0.11 seen from a camera 20 degrees
        off the vertical, the leaning die in front, and measured so as little as 0.08 on the
        dev sets, where flat dice's squares lie 0.06 under to 0.03 over the true tops' gap).
        None: off.
    :param pair_top_size: see ``pair_tops_touch``.
    :param pair_top_square: see ``pair_tops_touch``.
    :param pair_top_seams: ...where a top's region is no whole square, it is taken again
        bounded by seams too (``top_region(seams=True)``: the thin line between two touching
        dice of one colour, or between a top and a side of its shade).
    :param pair_top_pips: ...and where it is still none, a face the reader read (not one it
        took for a lean) of four pips or more whose corner pips lie square within
        ``pair_top_square`` (``TopPips.squareness``) stands on its pips alone: their centre and their corners' turn (``TopPips.turn``, nearer the
        true turn than the region's) place the square a flat top fills (a glare or a shade
        across the face splits its region of one colour, not its pips).
    :param pair_clear_gap: a close pair whose silhouettes, shadows left out, lie at least this
        many die edges apart everywhere (``silhouettes_gap``), both tops whole and square and
        neither die's shaded face able to pass for a shadow (``shade_like_shadow``) or for felt
        (``felt_coloured``), lies flat: a lean needs a touch, and the touch a shadow can hide
        is a leaning die's neck or a strip of its shaded face (at most 0.17 edge on the dev
        sets). None: off.
    :param pair_gap_square: ...the gap proves it only where the top-face cue finds both tops
        whole and square; off, where it sees neither top tilted (a top it cannot measure, a
        glare, a top merged with a side of its shade, counts as not seen tilted): the touch
        lies in both silhouettes whatever the tops show; what can hide it is the neck and a
        face that passes for shadow, which the shade tests see only down to a quarter of the
        die's light (docs/replay.md: a table under one hard lamp wants it on).
    :param pair_band_clear: a close pair whose band between the tops (``band_between``: the
        hull of the two whole top squares less the tops and their rims) holds no more than
        this many faces of pixels off the felt's chromaticity lies flat: a die leaning on the
        other shows there the face that was against it, the die's own material in shade or
        lit (``sin t`` wide), two flat dice apart show the felt (in their shadow or lit), and
        shading keeps a colour's chromaticity. Only where both tops are whole and square, the
        band is ``pair_band_area`` faces at least, holds no more than ``pair_band_dark`` faces
        of pixels too dark to keep a colour, and the tops' chromaticity lies
        ``pair_band_dice`` or more from the felt's (and neither die's shade passes for felt
        or for the felt in shadow). It clears the pair only. None (the default): off, since
        a lean's touch can hide in what passes for shadow: dev 79083, a white die leaning 12.5
        degrees on a white die on wood, touching it at a corner, its contact in the pair's
        shadow, the band open felt beside it, was paid with it at 0.03; on the dev rest sets
        it cleared 3 flat dice in all (docs/replay.md).
    :param pair_band_apart: the band proves a pair flat only where the shadow-free
        silhouettes do not touch (``silhouettes_touch``): a die leaning on the other touches
        it, and one turned to the other and touching it at a corner shows the face that was
        against it as a strip the tops' rims take in, the rest of the band being open felt
        either side of the touch (docs/replay.md: dev 88259).
    :param pair_band_area: see ``pair_band_clear``.
    :param pair_band_dark: see ``pair_band_clear``.
    :param pair_band_dice: see ``pair_band_clear``.
    :param pair_lean_keep: what lies between the tops proves a close pair flat only as far as
        the silhouettes and colours it measures can be trusted: where the lean model believes
        a die of the pair leans by at least this, the pair is not cleared (the pair cue then
        flags one die). A die by the wall may lean on the wall, which the proofs do not see
        (the default world's dev 1028); a black die leaning on the other may show the face
        that was against it as dark as a shadow, and the strip of felt is then no proof (dev
        79102). The model only keeps a flag here, never clears one. None: off.
    :param lean_clear: a die only the reader flags, which the lean model believes leans no
        more than this and whose top face is square, is read after all (its ``best_face``) if
        the reader's confidence in that face reaches its ``min_confidence`` and its
        ``cocked_share`` is below ``lean_clear_share``.
    :param lean_clear_share: see ``lean_clear``.
    :param wall_lean_keep: a die within the wall cue's reach (``wall_near``) that the lean
        model believes leans by at least this, and the reader by at least ``wall_lean_share``,
        is flagged whatever the wall cue and its proofs say: two models seeing the lean
        outweigh a top-face centre taken from the wrong face (the second renderer's
        clip_009 through a webcam's JPEG at 640x360, its exposure corrected each frame: the
        leaning die read as a one at 0.985, the reader's cocked share 0.52, the lean model's
        belief 0.9995; paid without it). It only adds a flag; None: off. The bar is the
        shipped model's (a model trained on both of the simulator's worlds is surer of flat
        dice at the wall, so it stands lower than the first model's 0.98: docs/replay.md).
    :param wall_lean_share: see ``wall_lean_keep``.
    :param wall_lean_sure: ...and one the lean model believes leans by at least this is
        flagged whatever the reader's share: the reader's cocked class learnt our default
        renderer's looks, and under the physical world's lamp it can see a die leaning 17
        degrees on the wall as flat (dev 87218: its share 0.20, the model 0.965, paid
        without it). It only adds a flag; None: off.
    :param wall_unseen_area: a die within the wall cue's reach (``wall_near``) whose rest
        silhouette (its rotated box) covers less than this many die edges squared (a flat
        die's top alone covers one) is flagged: the cues cannot see it (a die of the felt's
        colour, its shaded faces passing for felt), and a die rests tilted against the wall.
        It only adds a flag; None: off (``unseen_at_wall``).
    """

    geometric_cocked: bool = True
    face_near_wall: float = 1.3
    face_near_die: float = 1.8
    face_square: float = 0.84
    face_narrow: float = 0.82
    face_min: float = 0.85
    face_narrowest: float = 0.64
    face_max: float = 1.3
    face_pips: bool = True
    wall_face_near: float = 0.75
    wall_face_excess: float = 0.08
    wall_lean: float = 0.42
    wall_near: float = 0.87
    wall_top_shift: float = 0.22
    wall_share_weight: float = 0.0
    wall_distance_weight: float = 0.2
    wall_pips: bool = True
    wall_pip_margin: float = 0.02
    wall_pip_bar: float = 0.2
    wall_pip_agree: float = 0.15
    pip_contrast: float | None = 60.0
    wall_rim_clear: float = 0.12
    wall_rim_high: float = 0.08
    wall_rim_side: float = 0.08
    wall_cube_clear: float | None = 0.02
    wall_cube_lean: float = 10.0
    wall_cube_low: float = 0.4
    wall_cube_high: float = 1.2
    wall_cube_step: float = 4.0
    wall_cube_alone: float = 1.8
    wall_band_clear: float = 0.08
    wall_band_top: float = 0.42
    wall_band_top_max: float = 0.6
    wall_band_min: float = 0.15
    wall_band_seams: bool = True
    wall_band_chroma: float | None = 0.07
    wall_band_alone: float = 1.8
    wall_band_agree: bool = True
    wall_band_depth: tuple[float, float] = (0.85, 1.2)
    wall_band_back_gap: float = 0.1
    wall_band_top_low: float = 0.3
    pair_lean: float = 1.5
    pair_touch_reach: float = 1.8
    pair_touch_chroma: float | None = 0.07
    pair_apart: bool = True
    pair_felt_colour: float = 0.15
    pair_perspective: float = 0.18
    pair_reach_weight: float = 3.0
    pair_conf_weight: float = 2.0
    pair_keep_share: float = 0.98
    pair_wall_both: float | None = 0.5
    pair_wall_margin: float = 0.5
    pair_min_score: float = -math.inf
    lean_model: bool = True
    pair_min_lean: float = 0.1
    pair_clear_score: float = -1.0
    pair_clear_square: bool = True
    pair_clear_touching: bool = False
    pair_tops_touch: float | None = 0.04
    pair_top_size: tuple[float, float] = (0.84, 1.12)
    pair_top_square: float = 0.88
    pair_top_seams: bool = True
    pair_top_pips: bool = True
    pair_clear_gap: float | None = 0.25
    pair_gap_square: bool = False
    pair_band_clear: float | None = None
    pair_band_apart: bool = True
    pair_band_area: float = 0.15
    pair_band_dark: float = 0.02
    pair_band_dice: float = 0.2
    pair_lean_keep: float | None = 0.5
    lean_clear: float = 0.02
    lean_clear_share: float = 0.9
    wall_lean_keep: float | None = 0.5
    wall_lean_share: float = 0.25
    wall_lean_sure: float | None = 0.95
    wall_unseen_area: float | None = 0.5


def cocked_share(reading) -> float:
    """A reading's belief that the die leans (0..1): ``cocked_share``, else its flag; 0 without
    a reading."""
    if reading is None:
        return 0.0
    share = reading.cocked_share
    if share is None:  # a reader without a graded belief
        return 1.0 if reading.cocked else 0.0
    return float(share)


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
        centre = _pips_centre(settings, frame, rd, die)
        if centre is None:
            continue
        shift = wall_shift(geometry, settings, box, centre, cocked_share(rd))
        out[i] = shift <= -(settings.wall_pip_bar + settings.wall_pip_margin)
    return out


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
    tops = _tops(boxes, readings)
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
                     for centre in (tops[i], _pips_centre(st, frame, rd, die))
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
    tops = _tops(boxes, readings)
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
        centre = _pips_centre(st, frame, rd, die)
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


def _pips_centre(settings: CockedSettings, frame: np.ndarray, reading, die: float):
    """The top face's centre as its pips give it (``agreeing_pips``); else None."""
    pips = agreeing_pips(settings, frame, reading, die)
    return None if pips is None else pips.center


def _with_felt(silhouettes: RestSilhouettes, frame: np.ndarray, x0: int, y0: int, x1: int,
               y1: int, least: int):
    """The window [y0:y1, x0:x1] of ``frame`` (clipped to it) and of the felt before the throw:
    ``(roi, felt, x0, y0)``, or None where it is narrower than ``least`` px or the felt is not
    known there."""
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < least or y1 - y0 < least:
        return None
    roi = frame[y0:y1, x0:x1]
    bg = silhouettes.felt(x0, y0, x1, y1, roi)
    if bg is None or bg.shape != roi.shape:
        return None
    return roi, bg, x0, y0


def dice_window(silhouettes: RestSilhouettes, frame: np.ndarray, points: list, r: int,
                 chroma: float | None = None, shadows: bool = False):
    """``RestSilhouettes.die_mask`` over the window ``r`` px around ``points`` (image points):
    ``(mask, xx, yy)``, or None where the window is empty or the felt before the throw is not
    known there."""
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    seen = _with_felt(silhouettes, frame, int(min(xs)) - r, int(min(ys)) - r,
                      int(max(xs)) + r + 1, int(max(ys)) + r + 1, 3)
    if seen is None:
        return None
    roi, bg, x0, y0 = seen
    return silhouettes.die_mask(roi, bg, x0, y0, chroma, shadows)


def _tops(boxes: list, readings: list) -> list[tuple[float, float]]:
    """Each resting die's top face centre: the reader's, else its box's centre."""
    tops = []
    for i, box in enumerate(boxes):
        top = readings[i].center if i < len(readings) else None
        tops.append((float(top[0]), float(top[1])) if top is not None else box[0])
    return tops


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


def die_offsets(silhouettes: RestSilhouettes, frame: np.ndarray, top, other_tops: list,
                chroma: float | None = None):
    """A resting die's silhouette as offsets (die edges) from its top face's centre ``top``:
    ``(toward, along)``, toward the back wall and along it, one per pixel; None where it cannot
    be cut out. The silhouette is the pixels changed since before the throw (shadows left out;
    with ``chroma``, those off the felt's chromaticity too: ``RestSilhouettes.die_mask``)
    nearer this top than the other dice's (``other_tops``), within an edge and a half of it."""
    geo = silhouettes.geometry
    die = geo.die
    tx, ty = float(top[0]), float(top[1])
    seen = dice_window(silhouettes, frame, [(tx, ty)], int(die * 1.5) + 2, chroma)
    if seen is None:
        return None
    mask, xx, yy = seen
    mine = (mask > 0) & ((xx - tx) ** 2 + (yy - ty) ** 2 < (1.5 * die) ** 2)
    for ox, oy in other_tops:
        mine &= (xx - tx) ** 2 + (yy - ty) ** 2 < (xx - ox) ** 2 + (yy - oy) ** 2
    if int(mine.sum()) < 0.3 * die * die:
        return None
    dx, dy = xx[mine] - tx, yy[mine] - ty
    toward = -(dx * geo.wall_n[0] + dy * geo.wall_n[1]) / die
    along = (dx * geo.wall_u[0] + dy * geo.wall_u[1]) / die
    return toward, along


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
        centre = _pips_centre(settings, frame, rd, geo.die) if rd is not None else None
        excess = wall_face_reach(silhouettes, frame, centre or tops[i], others)
        out.append(excess is not None and excess > settings.wall_face_excess)
    return out


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
    seen = _with_felt(silhouettes, frame, x - r, y - r, x + r + 1, y + r + 1, 2)
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
    seen = _with_felt(silhouettes, frame, x0, y0, x1, y1, 3)
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
    squares touch (``tops_gap`` within ``pair_tops_touch``: two flat dice that touch; a die
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
        if gap is not None and abs(gap) <= st.pair_tops_touch:
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


def pairs(
    silhouettes: RestSilhouettes,
    settings: CockedSettings,
    frame: np.ndarray,
    boxes: list,
    readings: list,
    on_wall: list[bool],
    beliefs: list[float] | None = None,
    tilted: list[bool | None] | None = None,
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
    well as its top).
    """
    die = silhouettes.geometry.die
    out: dict[int, bool] = {}
    for i, j in itertools.combinations(range(len(boxes)), 2):
        (xi, yi), (wi, hi), _ = boxes[i]
        (xj, yj), (wj, hj), _ = boxes[j]
        gap = math.hypot(xj - xi, yj - yi)
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


def lean_beliefs(
    geometry: TableGeometry, settings: CockedSettings, reader, frame: np.ndarray, boxes: list,
    readings: list,
) -> list[float] | None:
    """The lean model's belief that each resting die leans (one per box, at the reader's top
    face centre, else the box's centre), or None without a model (the reader's ``lean`` is None)
    or with ``lean_model`` or ``geometric_cocked`` off."""
    judge = reader.lean if reader is not None else None
    if judge is None or not (settings.lean_model and settings.geometric_cocked) or not boxes:
        return None
    centers = []
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        top = rd.center if rd is not None else None
        centers.append((float(top[0]), float(top[1])) if top is not None else box[0])
    toward_wall = (-geometry.wall_n[0], -geometry.wall_n[1])
    return judge.beliefs(frame, centers, geometry.die, toward_wall)


def flat_value(reading, reader) -> int | None:
    """The value of a die the reader flagged cocked (so left unread) that the pair cue finds
    lying flat: its ``best_face`` when the reader's ``confidence`` in it is at least its
    ``min_confidence`` (the bar a value must pass anyway), else None (the operator gives
    it, R-I2). A reading without ``best_face`` or a reader without ``min_confidence`` leaves it
    unread."""
    face = reading.best_face
    floor = reader.min_confidence if reader is not None else None
    if face is None or floor is None:
        return None
    return int(face) if float(reading.confidence) >= float(floor) else None


def judge_cocked(
    silhouettes: RestSilhouettes,
    settings: CockedSettings,
    reader,
    frame: np.ndarray,
    boxes: list,
    readings: list,
) -> tuple[list, list[bool]]:
    """The values and the cocked flags of the dice at rest (their rotated ``boxes`` on the rest
    ``frame``, the reader's ``readings`` of them, maybe fewer or none).

    Returns the values, one per reading (the reading's, or for the flat partner of a leaning
    die that the reader flagged, ``flat_value``), and one cocked flag per box: the reader's
    flag or, with ``geometric_cocked``, the wall cue; for a die of a close pair the pair cue
    says which leans, over the reader's flag (it judges each die alone and often flags the
    flat partner too) unless the reader is all but sure (``pair_keep_share``)."""
    geometry = silhouettes.geometry
    die = geometry.die
    walls = [
        settings.geometric_cocked
        and leans_on_wall(geometry, settings, boxes[i], readings[i] if i < len(readings) else None)
        for i in range(len(boxes))
    ]
    # a die whose front face shows as a flat die's does is not tipped away from the wall
    cleared = flat_fronts(silhouettes, settings, frame, boxes, readings, walls)
    # ...nor is one whose top, where its pips put it, sits wall-ward of its silhouette
    by_pips = flat_by_pips(geometry, settings, frame, boxes, readings, walls)
    walls = [w and not c and not p for w, c, p in zip(walls, cleared, by_pips, strict=True)]
    # ...nor is one whose faces' edge lines show a flat die's front face and no side face
    by_rims = flat_by_rims(silhouettes, settings, frame, boxes, readings, walls)
    walls = [w and not r for w, r in zip(walls, by_rims, strict=True)]
    # ...nor is one whose rim, by the flat hypothesis drawn through the camera model, lies
    # farther out than a die tipped from the wall can show it
    by_cube = flat_by_cube(silhouettes, settings, frame, boxes, readings, walls)
    walls = [w and not c for w, c in zip(walls, by_cube, strict=True)]
    tilted = top_faces(geometry, settings, frame, boxes, readings)
    beliefs = lean_beliefs(geometry, settings, reader, frame, boxes, readings)
    kept = lean_kept(geometry, settings, boxes, readings, beliefs)
    # the top-face cue: a die by the wall or the other die whose top is foreshortened
    near = [
        geometry.wall_distance(*boxes[i][0])[0] <= settings.face_near_wall * die
        or any(
            math.dist(boxes[i][0], boxes[j][0]) <= settings.face_near_die * die
            for j in range(len(boxes))
            if j != i
        )
        for i in range(len(boxes))
    ]
    face_flags = [
        settings.geometric_cocked and n and t is True for n, t in zip(near, tilted, strict=True)
    ]
    if settings.geometric_cocked:
        face_flags = [f or w or u for f, w, u in zip(
            face_flags, wall_faces(silhouettes, settings, frame, boxes, readings),
            unseen_at_wall(geometry, settings, boxes), strict=True)]
    paired = (
        pairs(silhouettes, settings, frame, boxes, readings, walls, beliefs, tilted)
        if settings.geometric_cocked
        else {}
    )
    values = [None if rd is None else rd.value for rd in readings]
    if settings.geometric_cocked and readings:
        # the flat partner of a leaning die, which the reader flagged (and so did not read)
        for i, lean in paired.items():
            if (
                not lean
                and i < len(readings)
                and readings[i].cocked
                and cocked_share(readings[i]) < settings.pair_keep_share
            ):
                values[i] = flat_value(readings[i], reader)
    cocked = []
    for i in range(len(boxes)):
        rd = readings[i] if i < len(readings) else None
        if settings.geometric_cocked and i in paired:
            # one of a close pair leans (on the other, or on the wall): the pair cue says
            # which, over the reader's flag unless the reader is all but sure
            flag = paired[i] or cocked_share(rd) >= settings.pair_keep_share
        else:
            geo = settings.geometric_cocked and walls[i]
            flag = (rd is not None and rd.cocked) or geo
            if (
                flag
                and not geo
                and beliefs is not None
                and beliefs[i] <= settings.lean_clear
                and tilted[i] is False
                and cocked_share(rd) < settings.lean_clear_share
                and (face := flat_value(rd, reader)) is not None
            ):
                # the reader alone flagged it (a crop cut a little off the die looks tilted),
                # the lean model is all but sure it lies flat and the reader sure enough of
                # its face to read it: it is read
                values[i] = face
                flag = False
        cocked.append(bool(flag or face_flags[i] or kept[i]))
    return values, cocked


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
    model's belief at least ``wall_lean_sure`` alone."""
    bar = settings.wall_lean_keep
    if bar is None or beliefs is None or not settings.geometric_cocked:
        return [False] * len(boxes)
    out = []
    for i, box in enumerate(boxes):
        rd = readings[i] if i < len(readings) else None
        d_wall, u_wall = geometry.wall_distance(*box[0])
        out.append(rd is not None and -0.02 <= u_wall <= 1.02
                   and d_wall < settings.wall_near * geometry.die
                   and beliefs[i] >= bar
                   and (cocked_share(rd) >= settings.wall_lean_share
                        or (settings.wall_lean_sure is not None
                            and beliefs[i] >= settings.wall_lean_sure)))
    return out
