"""The cocked cues' settings (``CockedSettings``, each field's meaning in its docstring) and what
the cues ask of the reader and its readings (``Reader``, ``Reading``, ``LeanModel``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np


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


class PairModel(Protocol):
    """A learned judge of which die of a close pair leans (``vision.pair_pick.PairJudge``)."""

    def first_leans(self, frame: np.ndarray, first: tuple[float, float],
                    second: tuple[float, float], die_px: float,
                    wall_dir: tuple[float, float]) -> float:
        ...


class Reader(Protocol):
    """What the tracker needs of a dice reader (``vision.dice.DiceReader``): one ``Reading``
    per box, read once per throw on the rest frame."""

    # a judge of lean the pair cue asks (it never clears a flag alone), or None
    lean: LeanModel | None
    # a judge of which die of a close pair leans (it only moves a flag within the pair), or None
    pair: PairModel | None
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
        went from 0.2 to 0.22 and 0.25 (``wall_top_shift``), which was raised for the
        reader's centre, up to 0.1 edge off the top's; the pips' centre is not.
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
    :param pair_cut_short: ...both measured between the silhouettes' centres less, for a
        silhouette whose shorter side is under this many die edges, half the width it lacks:
        a die of the felt's colour is seen cut short (its shaded faces pass for felt or
        shadow), its silhouette's centre off its die's by up to that much (dev 69377: a green
        die leaning 16.2 degrees on the other, its silhouette 0.47 by 0.72 edge, 1.82 edges
        from the other's, paid). None: off.
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
    :param pair_pick: with a reader that has the pair model (``DiceReader.pair``,
        ``vision.pair_pick``: a small net that sees both dice of a close pair in one crop,
        trained on our simulator's rest frames only) helps pick the leaning die of a close
        pair that no proof clears and the wall cue does not explain: the die i rather than j
        where ``logit(b_i) - logit(b_j) + pair_pick * logit(p)`` is above 0 (b the lean
        model's beliefs, p the pair model's that i rather than j leans). It only moves a flag
        from one die of the pair to the other: the throw goes to the operator either way.
        None: the lean model's beliefs alone.
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
    :param pair_tops_overlap: ...or whose squares overlap by no more than this (``tops_gap``
        down to minus this: minus the side of a square of the overlap's area): the squares of
        two flat dice that touch are measured up to 0.06 under their true gap (the pips'
        centre, the turn), while a die leaning by t tips its top away by sin t, its raised
        top seen nearer the other by at most its rise times the view's slope (about 0.03
        edge at 10-15 degrees): no lean under the 33 degrees from which the top-face cue,
        which nothing clears, sees it shows its top overlapping the other's (of 824 dev pairs
        leaning on the other with both tops measured, the least gaps +0.056 at 10.4 degrees
        and -0.22 at 44.5). None: ``pair_tops_touch`` both ways.
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
    :param wall_lean_keep: a die within the wall cue's reach (``wall_near``, from the nearer
        of its silhouette's centre and its top's) that the lean
        model believes leans by at least this, and the reader by at least ``wall_lean_share``,
        is flagged whatever the wall cue and its proofs say: two models seeing the lean
        outweigh a top-face centre taken from the wrong face (the second renderer's
        clip_009 through a webcam's JPEG at 640x360, its exposure corrected each frame: the
        leaning die read as a one at 0.985, the reader's cocked share 0.52, the lean model's
        belief 0.9995; paid without it). It only adds a flag; None: off. The bar is the
        shipped model's (a model trained on both of the simulator's worlds is surer of flat
        dice at the wall, so it stands lower than the first model's 0.98: docs/replay.md).
    :param wall_lean_share: see ``wall_lean_keep`` (0.25 before dev 78533: its share 0.24).
    :param wall_lean_sure: ...and one the lean model believes leans by at least this is
        flagged whatever the reader's share: the reader's cocked class learnt our default
        renderer's looks, and under the physical world's lamp it can see a die leaning 17
        degrees on the wall as flat (dev 87218: its share 0.20, the model 0.965, paid
        without it; 0.95 until dev 77367: a yellow die leaning 14 degrees on tan felt, its
        share 0.14, the model 0.94, the flat cube's rim found on its shading). It only adds
        a flag; None: off.
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
    wall_top_shift: float = 0.25
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
    pair_cut_short: float | None = 0.8
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
    pair_pick: float | None = 3.0
    pair_clear_score: float = -1.0
    pair_clear_square: bool = True
    pair_clear_touching: bool = False
    pair_tops_touch: float | None = 0.04
    pair_tops_overlap: float | None = 0.1
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
    wall_lean_share: float = 0.2
    wall_lean_sure: float | None = 0.9
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
