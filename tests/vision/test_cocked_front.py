"""The front face's band (vision.cocked.wall.front_band, flat_fronts): a flat die at the back wall
shows its front face one edge tall at the view angle; a die tipped away from the wall by t shows
sin t less. Constructed rest frames under a camera tilted toward the wall (R-I2)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision.tracker_synth import DIE, PIPS, WALL_Y, background
from vision.calibration import Calibration
from vision.cocked.judge import judge_cocked
from vision.cocked.settings import CockedSettings
from vision.cocked.wall import camera_view, front_band, leans_on_wall, whole_top
from vision.dice import DieReading
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry

# the area narrower at the wall than at the front: a camera tilted 3.5 degrees toward the wall,
# nearly straight down at it (where the wall cue takes flat dice for leaning ones)
TILTED = Calibration(
    area=((50.0, WALL_Y), (590.0, WALL_Y), (600.0, 440.0), (40.0, 440.0)),
    back_wall=((50.0, WALL_Y), (590.0, WALL_Y)),
    die_px=DIE,
)
X = 320.0
TOP, FRONT_FACE = (235, 235, 235), (150, 150, 150)


def _silhouettes(felt):
    return RestSilhouettes(TableGeometry(TILTED), felt, None, 1, (640, 480), False, 30)


def _toward(felt) -> float:
    return camera_view(_silhouettes(felt)).slope(X, WALL_Y + 0.3 * DIE)[0]


def _resting_die(lean_deg: float, toward: float):
    """A die against the back wall as the camera sees it, in die edges from the wall line:
    ``(top_back, top_front, front_bottom)``. Flat (0): its top one edge above the felt, seen
    ``toward`` wall-ward of its footprint. Tipped away from the wall by t (its lower back edge
    up the wall, its front bottom edge on the felt): the top's back edge sin t out and
    sin t + cos t high, its front edge cos t + sin t out and cos t high, its front bottom edge
    cos t out."""
    t = math.radians(lean_deg)
    c, s = math.cos(t), math.sin(t)
    return s - toward * (s + c), c + s - toward * c, c


def _frame(felt, edges):
    """The rest frame: the die's top face (white, three pips) and its front face (grey)."""
    img = felt.copy()
    back, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    x0, x1 = round(X - DIE / 2), round(X + DIE / 2) - 1
    img[back:top_front, x0:x1 + 1] = TOP
    img[top_front:bottom, x0:x1 + 1] = FRONT_FACE
    cy = (back + top_front) / 2
    for px, py in PIPS[3]:
        cv2.circle(img, (int(X + px * 0.27 * DIE), int(cy + py * 0.27 * DIE)), 3, (20, 20, 20), -1)
    return img


def _judge(felt, img, edges, top_d, **settings):
    back, _, bottom = edges
    box = ((X, WALL_Y + (max(back, -0.35) + bottom) / 2 * DIE), (DIE, (bottom - back) * DIE), 0.0)
    top = (X, WALL_Y + top_d * DIE)
    reading = DieReading(3, top, (top, (DIE, DIE), 0.0), 0.99, False, 0.05)
    # the band alone: the pips would clear a flat die whose reader's centre is off its top
    # (tests/vision/test_cocked_pips.py), and so would its faces' edge lines
    # (tests/vision/test_cocked_rim.py) and its flat hypothesis's rim
    # (tests/vision/test_cocked_cube.py)
    cues = CockedSettings(**{"wall_pips": False, "wall_rim_clear": 0.0, "wall_cube_clear": None,
                             **settings})
    _, (cocked,) = judge_cocked(_silhouettes(felt), cues, None, img, [box], [reading])
    return cocked, leans_on_wall(TableGeometry(TILTED), cues, box, reading)


def test_the_tilted_area_gives_a_view_angle_at_the_wall():
    toward = _toward(background(0))
    assert 0.15 < toward < 0.6


def test_a_flat_die_touching_the_wall_shows_its_whole_front_face_and_is_not_flagged():
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(0.0, toward)
    img = _frame(felt, edges)
    # the reader's top centre a little off toward the front (as on a glare or a pip at the
    # edge): the top no longer sits wall-ward of the silhouette as a flat die's does
    top_d = (edges[0] + edges[1]) / 2 + 0.04
    cocked_before, wall_cue = _judge(felt, img, edges, top_d, wall_band_clear=0.0)
    assert wall_cue and cocked_before  # the wall cue alone takes it for leaning
    seen = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    assert 0.42 <= seen.top_edge <= 0.6
    band = seen.band
    assert band == pytest.approx(toward, abs=0.06)
    cocked, _ = _judge(felt, img, edges, top_d)
    assert not cocked
    # a band thinner than wall_band_min clears nothing (a view angle estimated too low could
    # otherwise take a leaning die's thin band for a flat one's)
    cocked, _ = _judge(felt, img, edges, top_d, wall_band_min=band + 0.01)
    assert cocked


@pytest.mark.parametrize("lean_deg", [10.0, 12.0, 15.0])
def test_a_die_tipped_10_to_15_degrees_away_from_the_wall_stays_flagged(lean_deg):
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(lean_deg, toward)
    img = _frame(felt, edges)
    top_d = (edges[0] + edges[1]) / 2
    top_edge, band, _, _ = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    assert 0.42 <= top_edge <= 0.6  # a whole top: the band itself decides
    # its front face turned from the camera: sin t less than a flat die's
    assert band == pytest.approx(toward * math.cos(math.radians(lean_deg))
                                 - math.sin(math.radians(lean_deg)), abs=0.06)
    assert band < toward - CockedSettings().wall_band_clear
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_top_region_run_into_a_front_face_of_its_shade_leaves_the_flag():
    """A front face of the top's own shade (a lamp in front of the die): no front edge of the
    top is found where a whole top's lies, so the band cannot tell and the wall cue's flag
    stands."""
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(0.0, toward)
    img = _frame(felt, edges)
    _, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    img[top_front:bottom, round(X - DIE / 2):round(X + DIE / 2)] = TOP
    top_d = (edges[0] + edges[1]) / 2 + 0.04
    top_edge = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), []).top_edge
    assert top_edge > 0.6
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def _same_shade_front(lean_deg: float, seam: str):
    """A die at the wall whose front face has its top's shade (a lamp in front of it), with a
    thin darker line at the top's front edge (``seam`` "edge": the rounded edge between the
    two faces), across the top 0.3 edge before it ("across": a shade, a scratch), or none:
    ``(felt, img, edges, top_d)``."""
    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    img = _frame(felt, edges)
    _, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    x0, x1 = round(X - DIE / 2), round(X + DIE / 2)
    img[top_front:bottom, x0:x1] = TOP
    y = {"edge": top_front, "across": top_front - round(0.3 * DIE)}.get(seam)
    if y is not None:
        img[y:y + 2, x0:x1] = (150, 150, 150)
    return felt, img, edges, (edges[0] + edges[1]) / 2 + 0.04


def test_the_seam_between_a_top_and_a_front_face_of_its_shade_bounds_the_top():
    """A flat die at the wall lit from the front: its front face has the top's shade, only the
    rounded edge between them shows as a thin darker line. The top's region with its pips
    closed runs over that line into the front face; bounded by the line, it is a whole top, and
    the front face below it shows as a flat die's: not flagged."""
    felt, img, edges, top_d = _same_shade_front(0.0, "edge")
    top = (X, WALL_Y + top_d * DIE)
    closed = front_band(_silhouettes(felt), img, top, []).top_edge
    assert closed > 0.6  # run into the front face
    top_edge, band, _, _ = front_band(_silhouettes(felt), img, top, [],
                                      top_max=CockedSettings().wall_band_top_max)
    assert 0.42 <= top_edge <= 0.6
    assert band == pytest.approx(_toward(felt), abs=0.06)
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and not cocked
    # without the seams the flag stands, as it does with no line at all
    cocked, _ = _judge(felt, img, edges, top_d, wall_band_seams=False)
    assert cocked


@pytest.mark.parametrize("lean_deg", [10.0, 15.0])
def test_a_tipped_die_whose_front_face_has_its_tops_shade_stays_flagged(lean_deg):
    """The same, tipped 10-15 degrees away from the wall: bounded by the seam, its top is
    whole, and its front face shows sin t less than a flat die's: flagged."""
    felt, img, edges, top_d = _same_shade_front(lean_deg, "edge")
    top_edge, band, _, _ = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [],
                                      top_max=CockedSettings().wall_band_top_max)
    assert 0.42 <= top_edge <= 0.6
    assert band < _toward(felt) - CockedSettings().wall_band_clear
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_line_across_the_top_itself_leaves_the_flag():
    """A line off the top's colour across the top face cuts its region short of where a whole
    top's front edge lies: the band cannot tell, the flag stands (a top cut short would make a
    tipped die's band look whole)."""
    felt, img, edges, top_d = _same_shade_front(0.0, "across")
    top_edge = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [],
                          top_max=CockedSettings().wall_band_top_max).top_edge
    assert top_edge > 0.6 or top_edge < 0.42
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


# the reader's top-face centre 0.07 edge off the top's, toward the front (a glare, a pip at the
# top's edge): the top's front edge lies under 0.42 edge from it, and the silhouette reaches
# toward the wall beyond that centre by less than the wall-face cue's 0.08
OFF_FRONT = 0.07


def test_a_flat_die_whose_readers_centre_lies_off_its_top_is_cleared_by_the_tops_depth():
    """A flat die at the wall, the reader's centre off toward the front: the top's front edge
    lies nearer that centre than a whole top's does, but the region is a whole top's depth and
    its back edge is the silhouette's, and the band shows a flat die's front face: cleared."""
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(0.0, toward)
    img = _frame(felt, edges)
    top_d = (edges[0] + edges[1]) / 2 + OFF_FRONT
    seen = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    assert seen.top_edge < CockedSettings().wall_band_top
    assert seen.depth == pytest.approx(1.0, abs=0.08)
    assert abs(seen.back_gap) < 0.05
    assert seen.band == pytest.approx(toward, abs=0.06)
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and not cocked
    # judged by where the front edge lies from the centre alone, the flag stands
    cocked, _ = _judge(felt, img, edges, top_d, wall_band_depth=(2.0, 2.0))
    assert cocked


@pytest.mark.parametrize("lean_deg", [10.0, 15.0])
def test_a_tipped_die_whose_readers_centre_lies_off_its_top_stays_flagged(lean_deg):
    """The same centre's error on a die tipped 10-15 degrees away from the wall: its top is
    whole by its depth, and its band shows sin t less than a flat die's: flagged."""
    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    img = _frame(felt, edges)
    top_d = (edges[0] + edges[1]) / 2 + OFF_FRONT
    seen = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    assert whole_top(seen, CockedSettings())
    assert seen.band < _toward(felt) - CockedSettings().wall_band_clear
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_top_cut_short_at_the_front_is_no_whole_top_by_its_depth():
    """A tipped die whose top's region stops 0.25 edge short of its front edge (a shade across
    it), the reader's centre off toward the front: the region is shallower than a whole top,
    so its band (lengthened by the cut) cannot clear it."""
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(12.0, toward)
    img = _frame(felt, edges)
    _, top_front, _ = (round(WALL_Y + e * DIE) for e in edges)
    y = top_front - round(0.25 * DIE)
    img[y:top_front, round(X - DIE / 2):round(X + DIE / 2)] = FRONT_FACE
    top_d = (edges[0] + edges[1]) / 2
    seen = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    assert seen.depth < CockedSettings().wall_band_depth[0]
    assert not whole_top(seen, CockedSettings())
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_top_run_over_a_wall_of_its_colour_and_cut_short_is_no_whole_top():
    """A die tipped 12 degrees whose top's region runs 0.2 edge over a wall of the top's colour
    (a black die at a black rail) and stops 0.15 edge short of its front edge (a shade across
    it): the region is a whole top's depth, but its back edge lies beyond the silhouette's (the
    wall did not change), so it is no whole top, and its band, lengthened by the cut to a flat
    die's, does not clear it."""
    felt = background(0)
    toward = _toward(felt)
    edges = _resting_die(12.0, toward)
    back, top_front, _ = (round(WALL_Y + e * DIE) for e in edges)
    x0, x1 = round(X - DIE / 2), round(X + DIE / 2)
    felt[back - round(0.2 * DIE):back, x0:x1] = TOP  # the wall beside the die, before the throw
    img = _frame(felt, edges)
    img[top_front - round(0.15 * DIE):top_front, x0:x1] = FRONT_FACE
    top_d = (edges[0] + edges[1]) / 2
    seen = front_band(_silhouettes(felt), img, (X, WALL_Y + top_d * DIE), [])
    low, high = CockedSettings().wall_band_depth
    assert low <= seen.depth <= high
    assert abs(seen.band - toward) <= CockedSettings().wall_band_clear  # as a flat die's
    assert seen.back_gap < -CockedSettings().wall_band_back_gap
    assert not whole_top(seen, CockedSettings())
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked
    # the back edge not checked, the flag would go
    cocked, _ = _judge(felt, img, edges, top_d, wall_band_back_gap=10.0)
    assert not cocked


def test_front_band_needs_a_silhouette_and_a_top():
    felt = background(0)
    assert front_band(_silhouettes(felt), felt.copy(), (X, WALL_Y + 0.3 * DIE), []) is None
    assert np.array_equal(felt, background(0))


def judge_constructed(lean_deg: float, **settings):
    """A constructed die at the wall tipped ``lean_deg`` away from it (flat, its reader's
    centre a little off toward the front, so the wall cue flags it), judged with the front
    band by colour off and ``settings``: (cocked, the wall cue's flag)."""
    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    top_d = (edges[0] + edges[1]) / 2 + (0.04 if lean_deg == 0 else 0.0)
    return _judge(felt, _frame(felt, edges), edges, top_d, wall_band_clear=0.0, **settings)
