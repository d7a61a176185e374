"""What lies between the tops of two close dice (vision.cocked.pair.lie_flat_together): two
flat dice that touch have top squares that touch; a die leaning by t on the other tips its top
away and shows the face that was against it between the two tops, about sin t wide; felt or
shadow wider than a leaning die's face can hide proves no touch. Constructed rest frames
(R-I2)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.test_tracker import PlacedReader
from tests.vision.tracker_synth import CAL, DIE, SynthDie, background, draw_die
from vision.cocked.judge import judge_cocked
from vision.cocked.pair import shade_like_shadow, silhouettes_gap, silhouettes_touch, tops_gap
from vision.cocked.settings import CockedSettings
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry

WHITE, RED = (235, 235, 235), (40, 40, 200)
DARK = (30, 40, 10)  # a dark die, off the felt's hue (tracker_synth.FELT) by 0.19
SIDE = (150, 150, 150)
Y = 260.0


def _frame(dice):
    """The felt and a rest frame of dice drawn as ``(top, turn_deg, value, colour, side)``:
    each a top face of ``DIE`` px with its pips and, where ``side`` is a list of points, the
    face the camera sees besides it (grey). Returns the felt, the frame and each die's box
    (the rotated rectangle around its pixels)."""
    felt = background(0)
    img = felt.copy()
    boxes = []
    for top, turn, value, colour, side in dice:
        pts = cv2.boxPoints((top, (DIE, DIE), turn))
        if side is not None:
            face = np.array(side, np.float32)
            cv2.fillConvexPoly(img, face.round().astype(np.int32), SIDE, cv2.LINE_AA)
            pts = np.vstack([pts, face])
        draw_die(img, SynthDie(top[0], top[1], 0, 0, value, colour=colour, angle=turn))
        boxes.append(cv2.minAreaRect(pts))
    return felt, img, boxes


def _judge(dice, felt=None, img=None, boxes=None, shares=(0.3, 0.3), **settings):
    if img is None:
        felt, img, boxes = _frame(dice)
    sil = RestSilhouettes(TableGeometry(CAL), felt, None, 1, (640, 480), False, 30)
    reader = PlacedReader([d[0] for d in dice], [d[2] for d in dice], list(shares))
    readings = reader.read_at(img, boxes)
    values, cocked = judge_cocked(sil, CockedSettings(**settings), reader, img, boxes, readings)
    return sil, img, boxes, readings, values, cocked


def _touching(turn_deg: float = 0.0):
    """A white die, flat, and a red one touching it on its right, flat: square to it, or
    turned by ``turn_deg`` with a corner against its side face (their centres half an edge
    plus the turned die's reach apart)."""
    t = math.radians(turn_deg)
    reach = 0.5 * DIE * (math.cos(t) + math.sin(t))  # a turned square's half-width
    return [((220.0, Y), 0.0, 3, WHITE, None), ((220.0 + 0.5 * DIE + reach, Y), turn_deg, 4, RED,
                                                None)]


def _leaning(lean_deg: float):
    """The white die, flat, and the red one leaning ``lean_deg`` on it from its right, seen
    from above: resting on its far bottom edge with its near bottom edge against the white
    die's side face, its top tipped away (``cos t`` wide, its near edge ``sin t`` from the
    white die's side) and, between the two tops, the face that was against the white die
    (grey, ``sin t`` wide)."""
    t = math.radians(lean_deg)
    side = 220.0 + 0.5 * DIE  # the white die's side face
    near = side + DIE * math.sin(t)  # the leaning top's near edge
    top = (near + 0.5 * DIE * math.cos(t), Y)
    face = [(side, Y - 0.5 * DIE), (near + 1, Y - 0.5 * DIE), (near + 1, Y + 0.5 * DIE),
            (side, Y + 0.5 * DIE)]
    return [((220.0, Y), 0.0, 3, WHITE, None), (top, 0.0, 4, RED, face)]


@pytest.mark.parametrize("turn", [0.0, 30.0, 45.0])
def test_two_flat_dice_that_touch_are_both_read(turn):
    """Two flat dice touching (square to each other or turned, a corner against the other's
    side) show top squares that touch: both are read. Before this cue, two touching dice
    always sent one to the operator."""
    dice = _touching(turn)
    sil, img, boxes, readings, values, cocked = _judge(dice)
    assert silhouettes_touch(sil, img, boxes[0][0], boxes[1][0])
    gap = tops_gap(CockedSettings(), img, tuple(readings), DIE, 0.15)
    assert gap is not None and abs(gap) < 0.05
    assert (values, cocked) == ([3, 4], [False, False])
    # (turned, the felt in the band between their tops clears them as well)
    assert sorted(_judge(dice, pair_tops_touch=None, pair_band_clear=None)[5]) == [False, True]


def test_two_flat_dice_whose_top_squares_overlap_a_little_are_both_read():
    """Two flat dice touching, the red one turned 45 degrees with its corner measured 0.07 edge
    into the white one's top (the squares of flat pairs are measured up to 0.06 under their
    true gap): an overlap no lean under the top-face cue's 33 degrees shows
    (``pair_tops_overlap`` 0.1), so both are read; under the symmetric bar of 0.04 one went
    to the operator (dev 82132, 84176, 82121: flat pairs at -0.08, -0.06, -0.04)."""
    (white, (red_top, turn, value, colour, side)) = _touching(45.0)
    dice = [white, ((red_top[0] - 0.07 * DIE, red_top[1]), turn, value, colour, side)]
    sil, img, boxes, readings, values, cocked = _judge(dice)
    gap = tops_gap(CockedSettings(), img, tuple(readings), DIE, 0.15)
    assert gap is not None and -0.1 < gap < -0.04
    assert (values, cocked) == ([3, 4], [False, False])
    assert sorted(_judge(dice, pair_tops_overlap=None)[5]) == [False, True]


@pytest.mark.parametrize("lean", [10.0, 15.0])
def test_a_die_leaning_on_the_other_shows_its_face_between_the_tops_and_is_flagged(lean):
    """A die leaning 10 or 15 degrees on the other: its top square within 2%, but the face
    that was against the other lies between the two tops, sin t wide (0.17 and 0.26 edge):
    the tops do not touch and it goes to the operator."""
    dice = _leaning(lean)
    sil, img, boxes, readings, values, cocked = _judge(dice)
    gap = tops_gap(CockedSettings(), img, tuple(readings), DIE, 0.15)
    assert gap == pytest.approx(math.sin(math.radians(lean)), abs=0.04)
    assert sorted(cocked) == [False, True]
    # ...a clearance past sin t would have paid it
    assert _judge(dice, pair_tops_touch=gap + 0.02)[5] == [False, False]


def _shaded_gap(gap_edges: float, colour=WHITE):
    """Two flat dice ``gap_edges`` apart (between their facing sides), the felt between them in
    their shadow (darkened evenly to 0.35 of its light)."""
    dice = [((220.0, Y), 0.0, 3, colour, None),
            ((220.0 + (1 + gap_edges) * DIE, Y), 0.0, 4, colour, None)]
    felt, img, boxes = _frame(dice)
    x0, x1 = 220.0 + 0.5 * DIE + 1, 220.0 + (0.5 + gap_edges) * DIE - 1
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.rectangle(mask, (int(x0), int(Y - 0.6 * DIE)), (int(x1), int(Y + 0.6 * DIE)), 255, -1)
    img[mask > 0] = (felt[mask > 0] * 0.35).astype(np.uint8)
    return dice, felt, img, boxes


def test_a_shadow_wider_than_a_leaning_face_between_two_dice_proves_no_touch():
    """Two flat dice 0.4 edge apart, the felt between them in shadow: their silhouettes join
    only through the shadow, but a strip of shadow 0.4 edge wide is more than a leaning die's
    touch hides (a neck, a strip of its shaded face: 0.17 edge at most on the dev sets), so
    both are read. Without the cue one went to the operator."""
    dice, felt, img, boxes = _shaded_gap(0.4)
    sil, img, boxes, _, values, cocked = _judge(dice, felt, img, boxes)
    assert silhouettes_touch(sil, img, boxes[0][0], boxes[1][0], shadows=True)
    assert silhouettes_gap(sil, img, boxes[0][0], boxes[1][0]) == pytest.approx(0.4, abs=0.1)
    assert (values, cocked) == ([3, 4], [False, False])
    assert sorted(_judge(dice, felt, img, boxes, pair_clear_gap=None)[5]) == [False, True]


def test_a_narrow_shadow_or_a_dark_die_proves_nothing():
    """A strip of shadow 0.15 edge wide may be a leaning die's shaded face, and a dark die's
    face in shade passes for the felt in shadow whatever its width: one die goes to the
    operator."""
    dice, felt, img, boxes = _shaded_gap(0.15)
    assert sorted(_judge(dice, felt, img, boxes)[5]) == [False, True]
    sil = _judge(dice, felt, img, boxes)[0]
    assert not shade_like_shadow(sil, img, boxes[0][0])
    dice, felt, img, boxes = _shaded_gap(0.4, DARK)
    sil, img, boxes, _, _, cocked = _judge(dice, felt, img, boxes)
    assert shade_like_shadow(sil, img, boxes[0][0])
    assert sorted(cocked) == [False, True]


def test_two_flat_dice_of_one_colour_touching_are_read_where_a_seam_parts_their_tops():
    """Two white dice touching face to face: their tops run into one region, neither whole,
    unless the seam between them (their rounded rims, a line off the top's colour) bounds each
    (``pair_top_seams``): then both tops are whole squares that touch and both are read. Their
    pips place the same squares without the region (``pair_top_pips``)."""
    dice = [((220.0, Y), 0.0, 3, WHITE, None), ((220.0 + DIE, Y), 0.0, 4, WHITE, None)]
    felt, img, boxes = _frame(dice)
    no_pips = {"pair_top_pips": False}
    assert sorted(_judge(dice, felt, img.copy(), boxes, **no_pips)[5]) == [False, True]
    # a three's pips (one diagonal) prove no square top; a five's and a four's corner pips do
    assert sorted(_judge(dice, felt, img.copy(), boxes)[5]) == [False, True]
    fives = [((220.0, Y), 0.0, 5, WHITE, None), ((220.0 + DIE, Y), 0.0, 4, WHITE, None)]
    f_felt, f_img, f_boxes = _frame(fives)
    assert _judge(fives, f_felt, f_img, f_boxes)[5] == [False, False]  # on their pips
    x = int(round(220.0 + 0.5 * DIE))
    img[int(Y - 0.5 * DIE) - 2:int(Y + 0.5 * DIE) + 3, x - 1:x + 1] = (150, 150, 150)
    values, cocked = _judge(dice, felt, img, boxes, **no_pips)[4:]
    assert (values, cocked) == ([3, 4], [False, False])
    cocked = _judge(dice, felt, img, boxes, pair_top_seams=False, **no_pips)[5]
    assert sorted(cocked) == [False, True]
