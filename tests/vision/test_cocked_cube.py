"""The wall cue's clearing by the flat hypothesis drawn through the camera model
(vision.flat_cube, vision.cocked.wall.cube_rim, cube_shows_flat, flat_by_cube): a flat die at the
back wall meets the felt along its cube's lower outline, most of the view's slope past its top;
a die tipped t away from the wall meets it ``toward cos t - sin t`` past its top's front edge or
nearer. On real rest frames of the physical world's dev sets (crops made by
``bench/cocked_rest.py rimcrops``) and on constructed ones (tests/vision/test_cocked_front.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.rest_crops import load_rest_crop
from vision.cocked.settings import CockedSettings
from vision.cocked.wall import cube_rim, cube_shows_flat, flat_by_cube
from vision.flat_cube import lean_rim

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cube_rims"


def _load(name: str):
    return load_rest_crop(FIXTURES, name)


def _seen(name: str):
    frame, sil, meta = _load(name)
    seen = cube_rim(sil, CockedSettings(), frame, tuple(meta["top"]),
                    [tuple(t) for t in meta["other_tops"]], tuple(meta["slope"]))
    return seen, meta


@pytest.mark.parametrize("name", ["84072-1", "85034-0"])
def test_a_flat_die_the_wall_cue_flags_meets_the_felt_where_a_flat_cube_does(name):
    # dev 84072 (a black die: its front face in shade passes for the felt in shadow, and gives
    # no edge line along one edge) and 85034 (a green die on green felt): the wall cue flags
    # both and neither the front face, the pips nor the edge lines clear them
    seen, meta = _seen(name)
    assert not meta["cocked"]
    assert seen is not None
    assert 0.45 <= seen.scale <= 0.9
    assert seen.past_lean >= 0.05
    assert cube_shows_flat(seen, CockedSettings())


@pytest.mark.parametrize("name", ["85154-0", "80040-0"])
def test_a_die_tipped_away_from_the_wall_meets_the_felt_nearer(name):
    # dev 85154 (leaning 11.4 degrees: of the dice leaning on the wall on the dev sets, the
    # nearest to the bars) and 80040 (16.2): their rims lie near their tops' front edges
    seen, meta = _seen(name)
    assert meta["cocked"] and meta["tilt_deg"] >= 10
    assert seen is not None
    assert seen.scale < CockedSettings().wall_cube_low
    assert seen.past_lean < 0
    assert not cube_shows_flat(seen, CockedSettings())


def test_off_clears_nothing():
    frame, sil, meta = _load("84072-1")
    seen, _ = _seen("84072-1")
    assert not cube_shows_flat(seen, CockedSettings(wall_cube_clear=None))
    c = tuple(meta["top"])
    box = (c, (meta["die_px"], meta["die_px"]), 0.0)
    assert flat_by_cube(sil, CockedSettings(wall_cube_clear=None), frame, [box], [None],
                        [True]) == [False]


def test_a_lean_of_ten_degrees_meets_the_felt_short_of_a_flat_die():
    assert lean_rim(0.3, 0.0) == pytest.approx(0.3)
    assert lean_rim(0.3, 10.0) == pytest.approx(0.3 * 0.98481 - 0.17365, abs=1e-4)
    assert lean_rim(0.1, 10.0) < 0  # a steep view hides its front face altogether


@pytest.mark.parametrize("lean_deg", [0.0, 10.0, 12.0, 15.0])
def test_a_constructed_die_at_the_wall_is_cleared_only_flat(lean_deg):
    # the constructed rest frames of tests/vision/test_cocked_front.py, every other clearing
    # off: the flat cube's rim alone clears the flat die and none tipped 10-15 degrees away from the wall
    from tests.vision.test_cocked_front import judge_constructed

    cocked, wall_cue = judge_constructed(lean_deg, wall_cube_clear=CockedSettings().wall_cube_clear)
    assert wall_cue
    assert cocked == (lean_deg > 0)
