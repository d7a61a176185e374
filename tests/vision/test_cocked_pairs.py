"""The pair cue (vision.cocked.pair.pairs) on constructed rest frames: how far apart a die
leaning on the other can rest, and when a close pair may be taken for two flat dice (R-I2)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.test_tracker import PlacedReader, _PlacedLean
from tests.vision.tracker_synth import CAL, DIE, SynthDie, background, draw_die
from vision.cocked.judge import judge_cocked
from vision.cocked.pair import felt_coloured, silhouettes_touch
from vision.cocked.settings import CockedSettings
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry

WHITE, SIDE = (235, 235, 235), (150, 150, 150)


def _square(centre, turn_deg, size=DIE):
    """The corners of a square ``size`` px wide centred at ``centre``, turned by ``turn_deg``."""
    return cv2.boxPoints((centre, (size, size), turn_deg))


def _rest(dice, colour=WHITE):
    """A rest frame of dice drawn as ``(top, turn_deg, value, side)``: each a top face (a
    white square of ``DIE`` px with its pips) and, where ``side`` is a list of points, the
    face the camera sees besides it (grey). Returns the felt, the frame, the dice's boxes (the
    rotated rectangle around each die's pixels)."""
    felt = background(0)
    img = felt.copy()
    boxes = []
    for top, turn, value, side in dice:
        pts = _square(top, turn)
        if side is not None:
            face = np.array(side, np.float32)
            cv2.fillConvexPoly(img, cv2.convexHull(np.vstack([pts, face])).round()
                               .astype(np.int32), SIDE, cv2.LINE_AA)
            pts = np.vstack([pts, face])
        draw_die(img, SynthDie(top[0], top[1], 0, 0, value, colour=colour, angle=turn))
        boxes.append(cv2.minAreaRect(pts))
    return felt, img, boxes


def _judge(dice, shares, lean=None, colour=WHITE, **settings):
    felt, img, boxes = _rest(dice, colour)
    sil = RestSilhouettes(TableGeometry(CAL), felt, None, 1, (640, 480), False, 30)
    tops = [d[0] for d in dice]
    reader = PlacedReader(tops, [d[2] for d in dice], shares)
    if lean is not None:
        reader.lean = _PlacedLean(tops, lean)
    readings = reader.read_at(img, boxes)
    values, cocked = judge_cocked(sil, CockedSettings(**settings), reader, img, boxes, readings)
    return sil, img, boxes, values, cocked


def _corner_on_lean(gap):
    """A flat die turned 45 degrees and, ``gap`` edges to its right (box centres), a die
    leaning on it turned corner-on: its top tipped away, the face that was against the flat
    die showing between them, reaching to the flat die's corner (they touch)."""
    flat_c = (220.0, 260.0)
    corner = flat_c[0] + DIE / math.sqrt(2)  # the flat die's corner toward the other
    # the leaning die's box spans from the flat die's corner; its top sits in its far part
    lean_box_c = flat_c[0] + gap * DIE
    reach = lean_box_c - corner  # from the corner to its box's centre
    top = (lean_box_c + 0.15 * DIE, 260.0)
    face = [(corner, 260.0), (top[0] - DIE / math.sqrt(2), 260.0 - 0.35 * DIE),
            (top[0] - DIE / math.sqrt(2), 260.0 + 0.35 * DIE)]
    assert reach > 0.7 * DIE
    return [(flat_c, 45.0, 3, None), (top, 45.0, 4, face)]


@pytest.mark.parametrize("gap", [1.55, 1.7])
def test_a_die_leaning_corner_on_from_past_a_square_leans_reach_is_paired(gap):
    """A die turned to the die it leans on touches it with a corner: its centre rests up to
    the other's half-diagonal (0.71 edge) plus its own half space diagonal (0.87) from the
    other's, and seen raised (its centre up to 0.21 edge above a flat die's) a little farther:
    past ``pair_lean`` (1.5). Their silhouettes touch: the leaning die (its side toward the
    other showing, the reader unsure of both) is the leaning one of a pair, not paid."""
    sil, img, boxes, values, cocked = _judge(_corner_on_lean(gap), [0.3, 0.3])
    assert math.dist(boxes[0][0], boxes[1][0]) > 1.5 * DIE
    assert silhouettes_touch(sil, img, boxes[0][0], boxes[1][0])
    assert cocked == [False, True]
    assert values[0] == 3


def _shade(img, felt, corners, k=0.35):
    """The felt darkened evenly (``k`` of its light) inside the polygon ``corners``: a shadow
    (or a die's face of the felt's colour in its own shade)."""
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.array(corners, np.float32).round().astype(np.int32), 255)
    img[mask > 0] = (felt[mask > 0] * k).astype(np.uint8)


def test_two_flat_dice_with_felt_between_them_are_both_read():
    """Two flat dice 1.6 or 1.3 edges apart, felt between them: neither leans on the other (a
    lean needs a touch), both are read, whatever the reader doubts of them."""
    for gap in (1.6, 1.3):
        dice = [((220.0, 260.0), 0.0, 3, None), ((220.0 + gap * DIE, 260.0), 0.0, 4, None)]
        sil, img, boxes, values, cocked = _judge(dice, [0.3, 0.5])
        assert not silhouettes_touch(sil, img, boxes[0][0], boxes[1][0], shadows=True)
        assert (values, cocked) == ([3, 4], [False, False])


def test_a_shade_between_two_dice_proves_no_gap():
    """Dice touching at a corner meet in a neck a pixel or two wide that the shadow-free
    silhouettes lose where the felt around it lies in their shadow: where the dice 1.2 edges
    apart are joined by the felt darkened evenly (``felt_in_shadow``), felt between them is not
    proved and one goes to the operator (R-I2): a strip of shadow 0.2 edge wide is about what a
    leaning die's touch may hide (``pair_clear_gap``: up to 0.17 on the dev sets)."""
    dice = [((220.0, 260.0), 0.0, 3, None), ((220.0 + 1.2 * DIE, 260.0), 0.0, 4, None)]
    felt, img, boxes = _rest(dice)
    x0, x1 = 220.0 + 0.5 * DIE - 1, 220.0 + 0.7 * DIE + 1
    _shade(img, felt, [(x0, 250.0), (x1, 250.0), (x1, 270.0), (x0, 270.0)])
    sil = RestSilhouettes(TableGeometry(CAL), felt, None, 1, (640, 480), False, 30)
    assert not silhouettes_touch(sil, img, boxes[0][0], boxes[1][0])  # shadows left out
    assert silhouettes_touch(sil, img, boxes[0][0], boxes[1][0], shadows=True)
    reader = PlacedReader([d[0] for d in dice], [3, 4], [0.3, 0.3])
    readings = reader.read_at(img, boxes)
    _, cocked = judge_cocked(sil, CockedSettings(), reader, img, boxes, readings)
    assert sorted(cocked) == [False, True]


def test_a_close_pair_is_cleared_only_with_felt_between_them_and_both_tops_square():
    """The lean model, the reader and the silhouettes all take two close dice for flat: they
    are read when felt lies between them (neither can lean on the other)..."""
    apart = [((220.0, 260.0), 0.0, 3, None), ((220.0 + 1.3 * DIE, 260.0), 0.0, 4, None)]
    values, cocked = _judge(apart, [0.1, 0.1], lean=[0.0, 0.0])[3:]
    assert (values, cocked) == ([3, 4], [False, False])
    # ...but two dice touching may be one leaning a little on the other, its top square within
    # a few percent: the models' word does not clear them (one of the pair goes to the
    # operator) where the tops' squares are not proved to touch (without the squares on their
    # pips, ``pair_top_pips``: one region of one colour over both tops, neither whole)
    touching = [((220.0, 260.0), 0.0, 3, None), ((220.0 + 1.0 * DIE, 260.0), 0.0, 4, None)]
    no_pips = {"pair_top_pips": False}
    assert sorted(_judge(touching, [0.1, 0.1], lean=[0.0, 0.0], **no_pips)[4]) == [False, True]
    # touching dice cleared as before, their tops (one colour, one region two edges long) are
    # still not proved whole and square...
    cocked = _judge(touching, [0.1, 0.1], lean=[0.0, 0.0], pair_clear_touching=True,
                    **no_pips)[4]
    assert sorted(cocked) == [False, True]
    # ...and without either, the model's and the reader's word would have paid it
    cocked = _judge(touching, [0.1, 0.1], lean=[0.0, 0.0], pair_clear_touching=True,
                    pair_clear_square=False, **no_pips)[4]
    assert cocked == [False, False]
    # a three's pips lie on one diagonal and prove no square top: as without the squares...
    assert sorted(_judge(touching, [0.1, 0.1], lean=[0.0, 0.0])[4]) == [False, True]
    # ...a five's and a four's corner pips do, and place both squares, which touch: two flat
    # dice, read by geometry alone
    fives = [(centre, turn, 5 if k == 0 else face, f) for k, (centre, turn, face, f)
             in enumerate(touching)]
    assert _judge(fives, [0.1, 0.1], lean=[0.0, 0.0])[4] == [False, False]
    assert sorted(_judge(fives, [0.1, 0.1], lean=[0.0, 0.0], **no_pips)[4]) == [False, True]


def test_felt_between_dice_of_the_felts_colour_proves_nothing():
    """A die of nearly the felt's colour (green on green felt) shows its shaded faces as felt:
    felt seen between two such dice 1.3 edges apart does not prove that neither leans, and one
    goes to the operator (R-I2); white dice so placed are both read (above)."""
    green = (55, 150, 42)  # the felt's chromaticity (tracker_synth.FELT), lit brighter
    dice = [((220.0, 260.0), 0.0, 3, None), ((220.0 + 1.3 * DIE, 260.0), 0.0, 4, None)]
    sil, img, boxes, _, cocked = _judge(dice, [0.3, 0.3], colour=green)
    assert felt_coloured(sil, img, boxes[0][0], CockedSettings().pair_felt_colour)
    assert not silhouettes_touch(sil, img, boxes[0][0], boxes[1][0], shadows=True)
    assert sorted(cocked) == [False, True]
