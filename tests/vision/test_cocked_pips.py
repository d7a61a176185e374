"""The top face's pips as a ruler (vision.top_pips, vision.cocked.wall.flat_by_pips): their mean
is the top face's centre whatever the face, so the wall cue measured from it is not moved by the
reader's error in that centre. Constructed rest frames under a camera tilted toward the wall
(R-I2)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.test_cocked_front import (
    TILTED,
    TOP,
    X,
    _frame,
    _resting_die,
    _silhouettes,
    _toward,
)
from tests.vision.tracker_synth import DIE, FELT, PIPS, WALL_Y, background
from vision.cocked.judge import judge_cocked
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import (
    foreshortened,
    pips_foreshortened,
    top_face_shape,
    top_faces,
    top_square,
)
from vision.cocked.wall import flat_by_pips, leans_on_wall
from vision.dice import DieReading
from vision.throw_geometry import TableGeometry
from vision.top_pips import TopPips, pips_as_holes, pips_by_contrast, top_pips

BODY = (60, 120, 40)


def _face(value: int, centre, angle_deg: float = 0.0, extra=None, body=BODY) -> np.ndarray:
    """A die's top face, ``DIE`` wide, turned by ``angle_deg``, on the felt; its pips 0.27
    edge from its centre, 0.18 edge across, drawn to a sixteenth of a pixel. ``extra``: one more pip (x, y) in
    die edges from the centre (a side face's pip beside the top's)."""
    img = background(0)
    cx, cy = centre
    box = cv2.boxPoints(((cx, cy), (DIE, DIE), angle_deg))
    cv2.fillConvexPoly(img, np.round(box).astype(np.int32), body)
    a = math.radians(angle_deg)
    pips = [(0.27 * px, 0.27 * py) for px, py in PIPS[value]] + ([extra] if extra else [])
    for px, py in pips:
        x = cx + (px * math.cos(a) - py * math.sin(a)) * DIE
        y = cy + (px * math.sin(a) + py * math.cos(a)) * DIE
        cv2.circle(img, (round(x * 16), round(y * 16)), round(0.09 * DIE * 16), (245, 245, 245),
                   -1, cv2.LINE_AA, shift=4)
    return img


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0.0, 27.0])
def test_the_pips_mean_is_the_top_faces_centre_whatever_the_face(value, angle):
    centre = (301.3, 222.6)
    # the reader's centre 0.1 edge off, as on a glare
    found = top_pips(_face(value, centre, angle), (centre[0] + 0.1 * DIE, centre[1]), DIE)
    assert found is not None and found.count == value
    assert math.dist(found.center, centre) < 0.3  # pixels


def test_pips_that_are_not_one_faces_are_not_taken():
    centre = (300.0, 220.0)
    # a pip beside a face of four (a side face's, or a glare): not point-symmetric
    img = _face(4, centre, extra=(0.0, 0.4))
    assert top_pips(img, centre, DIE) is None
    # no pips at all (the felt)
    assert top_pips(background(0), centre, DIE) is None


def _glared(img: np.ndarray, centre, spot, radius: float = 0.15) -> np.ndarray:
    """``img`` under a lamp's glare: a soft bright spot ``radius`` die edges wide at ``spot``
    (die edges from ``centre``), blending the face toward white, and a shade falling across
    the face (40% darker an edge on)."""
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = centre[0] + spot[0] * DIE, centre[1] + spot[1] * DIE
    glare = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * (radius * DIE) ** 2))
    shade = np.clip(1.0 - 0.4 * (xs - centre[0] + 0.5 * DIE) / DIE, 0.3, 1.0)
    out = img.astype(np.float32) * shade[..., None]
    out = out * (1 - glare[..., None]) + 250.0 * glare[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


RED = (40, 40, 190)


@pytest.mark.parametrize("value", [4, 5, 6])
def test_pips_under_a_glare_are_found_by_their_contrast(value):
    """A glare between two pips and a shade across the face split the region of the top's
    colour (the physical world's lamp): its pips are no longer all holes in it. They still
    stand out from the die around them: found, and their mean is the top's centre."""
    centre = (301.3, 222.6)
    img = _glared(_face(value, centre, 20.0, body=RED), centre, (0.0, -0.27))
    held = pips_as_holes(img, centre, DIE)
    assert held is None or held.count != value  # the holes alone miss them
    found = top_pips(img, centre, DIE, face=value)
    assert found is not None and found.count == value
    assert math.dist(found.center, centre) < 0.03 * DIE
    # the contrast way off: as before it
    off = top_pips(img, centre, DIE, face=value, contrast=None)
    assert off is None or off.count != value


def test_the_contrast_way_takes_no_glare_or_outline_for_a_pip():
    """A bare face (no pips) on the felt: the die's outline and corners are no pips (thin: the
    opening drops them), nor is a wide glare (the median about it follows it). (A small hard
    glare does pass for a pip: it is taken in only where, with the pips, it makes the reader's
    count and a point-symmetric face.)"""
    centre = (300.0, 220.0)
    img = _face(1, centre, body=RED)
    cv2.circle(img, (300, 220), round(0.12 * DIE), RED, -1)  # the one pip painted over
    assert pips_by_contrast(img, centre, DIE) is None
    for spot in ((0.0, 0.0), (0.2, -0.1)):
        assert pips_by_contrast(_glared(img, centre, spot, 0.35), centre, DIE) is None
    # a pip beside a face of four stays unsymmetric by contrast too
    assert pips_by_contrast(_face(4, centre, extra=(0.0, 0.4), body=RED), centre, DIE) is None


def _same_shade_at_wall(lean_deg: float):
    """A die against the back wall whose front face has its top's shade (a lamp in front of
    it), no seam between them: the top's region runs into the front face, so the front face's
    band cannot be measured and cannot clear the wall cue's flag: ``(felt, img, edges,
    true_top_d)``."""
    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    img = _frame(felt, edges)
    _, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    img[top_front:bottom, round(X - DIE / 2):round(X + DIE / 2)] = TOP
    return felt, img, edges, (edges[0] + edges[1]) / 2


def _judge(felt, img, edges, top_d, value: int = 3, **settings):
    back, _, bottom = edges
    box = ((X, WALL_Y + (max(back, -0.35) + bottom) / 2 * DIE), (DIE, (bottom - back) * DIE), 0.0)
    top = (X, WALL_Y + top_d * DIE)
    reading = DieReading(value, top, (top, (DIE, DIE), 0.0), 0.99, False, 0.05)
    # the pips alone: the flat hypothesis's rim would clear a flat die too
    # (tests/vision/test_cocked_cube.py)
    cues = CockedSettings(**{"wall_cube_clear": None, **settings})
    _, (cocked,) = judge_cocked(_silhouettes(felt), cues, None, img, [box], [reading])
    geometry = TableGeometry(TILTED)
    return (cocked, leans_on_wall(geometry, cues, box, reading),
            flat_by_pips(geometry, cues, img, [box], [reading], [True])[0])


def test_a_flat_die_whose_readers_centre_is_off_is_cleared_by_its_pips():
    """A flat die touching the wall, the reader's centre 0.07 edge off its top toward the
    front (as on a glare; under the wall-face cue's 0.08): the wall cue takes it for leaning
    and the front face cannot clear it. Its pips put the top's centre where it is, wall-ward of
    the silhouette as a flat die's: cleared."""
    felt, img, edges, top_d = _same_shade_at_wall(0.0)
    cocked, wall_cue, _ = _judge(felt, img, edges, top_d + 0.07, wall_pips=False)
    assert wall_cue and cocked
    cocked, wall_cue, by_pips = _judge(felt, img, edges, top_d + 0.07)
    assert wall_cue and by_pips and not cocked


@pytest.mark.parametrize("lean_deg", [10.0, 12.0, 15.0])
def test_a_tipped_die_stays_flagged_wherever_the_reader_puts_its_centre(lean_deg):
    """A die tipped 10-15 degrees away from the wall: its pips put its top where a tipped
    die's is, not wall-ward of its silhouette as a flat die's: the flag stands."""
    felt, img, edges, top_d = _same_shade_at_wall(lean_deg)
    for off in (0.0, 0.06, 0.12):
        cocked, wall_cue, by_pips = _judge(felt, img, edges, top_d + off)
        assert wall_cue and not by_pips and cocked


def test_a_die_whose_silhouette_ends_at_its_top_is_not_cleared_by_its_pips():
    """A flat die whose front face is the felt's colour (green on green): its silhouette ends
    at its top, so its top does not sit wall-ward of it, and the pips, which measure the top
    and not the silhouette, do not clear it."""
    felt, img, edges, top_d = _same_shade_at_wall(0.0)
    _, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    img[top_front:bottom, round(X - DIE / 2):round(X + DIE / 2)] = FELT
    cut = (edges[0], edges[1], edges[1])
    cocked, wall_cue, by_pips = _judge(felt, img, cut, top_d)
    assert wall_cue and not by_pips and cocked


def test_pips_that_do_not_agree_with_the_reader_clear_nothing():
    """The reader read another face than the pips show (a side face's pips taken in, or a
    misread), or its centre lies far from theirs: the pips clear nothing."""
    felt, img, edges, top_d = _same_shade_at_wall(0.0)
    cocked, _, by_pips = _judge(felt, img, edges, top_d + 0.07, value=5)
    assert cocked and not by_pips
    cocked, _, by_pips = _judge(felt, img, edges, top_d + 0.07, wall_pip_agree=0.05)
    assert cocked and not by_pips


@pytest.mark.parametrize("value", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("angle", [0.0, 27.0, 71.0])
def test_the_corner_pips_give_the_faces_turn(value, angle):
    centre = (301.3, 222.6)
    found = top_pips(_face(value, centre, angle), centre, DIE)
    assert found is not None and found.count == value
    off = abs(found.turn - angle % 90.0)
    assert min(off, 90.0 - off) < 1.0
    assert top_pips(_face(1, centre, angle), centre, DIE).turn is None


def test_a_top_under_a_glare_stands_as_a_square_on_its_pips():
    """The glare and shade split the top's region of one colour: no whole square by its
    region. Its pips place the square (``pair_top_pips``): at their centre, turned as they
    are; without them, no square (the tops' proof cannot be taken)."""
    centre = (301.3, 222.6)
    img = _glared(_face(5, centre, 20.0, body=RED), centre, (0.0, -0.27))
    reading = DieReading(5, centre, (centre, (DIE, DIE), 20.0), 0.99, False, 0.05)
    settings = CockedSettings()
    square = top_square(settings, img, reading, DIE, settings.wall_pip_agree)
    assert square is not None and square.region is None
    assert math.dist(square.centre, centre) < 0.03 * DIE and abs(square.turn - 20.0) < 1.0
    off = CockedSettings(pair_top_pips=False)
    assert top_square(off, img, reading, DIE, off.wall_pip_agree) is None


def test_the_corner_pips_squareness_is_the_tops_foreshortening():
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    for tilt in (0.0, 20.0, 35.0):
        k = math.cos(math.radians(tilt))
        turned = math.radians(30.0)
        pts = [(10 * (x * math.cos(turned) - k * y * math.sin(turned)),
                10 * (x * math.sin(turned) + k * y * math.cos(turned))) for x, y in corners]
        pips = TopPips(tuple(pts + [(0.0, 0.0)]), (0.0, 0.0))
        assert pips.squareness == pytest.approx(k, abs=0.02)
    # two pips lie on one diagonal: no second direction
    assert TopPips(((-5.0, -5.0), (5.0, 5.0)), (0.0, 0.0)).squareness is None


@pytest.mark.parametrize(("value", "stretch", "tilted"), [(5, 1.0, False), (6, 1.25, True)])
def test_a_top_whose_region_a_glare_splits_is_judged_by_its_pips(value, stretch, tilted):
    """The top-face cue cannot judge a top whose region of one colour a glare splits; its
    corner pips can (``face_pips``): a five seen square is not tilted, a six seen 0.8 as deep
    as it is wide (a die tipped 37 degrees) is; without them the cue cannot tell."""
    centre = (301.3, 222.6)
    img = _glared(_face(value, centre, 0.0, body=RED), centre, (0.0, -0.27))
    m = np.float32([[stretch, 0, centre[0] * (1 - stretch)], [0, 1, 0]])
    img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REPLICATE)
    die = DIE * (1 + stretch) / 2
    settings = CockedSettings()
    assert foreshortened(top_face_shape(img, centre, die), settings) is None
    reading = DieReading(value, centre, (centre, (die, die), 0.0), 0.99, False, 0.05)
    assert pips_foreshortened(settings, img, reading, die) is tilted
    geometry = TableGeometry(replace(TILTED, die_px=die))
    box = (centre, (DIE * stretch, DIE), 0.0)
    assert top_faces(geometry, settings, img, [box], [reading]) == [tilted]
    off = CockedSettings(face_pips=False)
    assert top_faces(geometry, off, img, [box], [reading]) == [None]


def test_square_pips_prove_no_flat_top_of_a_die_the_reader_took_for_leaning():
    """A die leaning steeply turns a side face up square to the camera; the reader, taking the
    die for leaning, gives no value, only its best face. Its pips, however square, set no
    square for the tops' proof and do not tell the top-face cue the top is flat."""
    centre = (301.3, 222.6)
    img = _glared(_face(5, centre, 20.0, body=RED), centre, (0.0, -0.27))
    leaning = DieReading(None, centre, (centre, (DIE, DIE), 20.0), 0.6, True, 0.8, best_face=5)
    settings = CockedSettings()
    assert top_square(settings, img, leaning, DIE, settings.wall_pip_agree) is None
    assert pips_foreshortened(settings, img, leaning, DIE) is None
    read = DieReading(5, centre, (centre, (DIE, DIE), 20.0), 0.99, False, 0.05)
    assert top_square(settings, img, read, DIE, settings.wall_pip_agree) is not None
    assert pips_foreshortened(settings, img, read, DIE) is False
