"""The wall cue's clearing by the faces' edge lines (vision.front_rim, vision.cocked.wall.rim_front,
rim_shows_flat): a flat die at the back wall shows its front face between two straight lines
along its edges, ``toward`` apart, and no side face beyond the view's slope; a die tipped away
from the wall shows sin t less front face, one tipped sideways sin t more side face. On real rest
frames of the physical world's dev sets (crops made by ``bench/cocked_rest.py rimcrops``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.rest_crops import load_rest_crop
from vision.cocked.settings import CockedSettings
from vision.cocked.wall import flat_by_rims, rim_front, rim_shows_flat

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rim_edges"


def _load(name: str):
    return load_rest_crop(FIXTURES, name)


def _seen(name: str):
    frame, sil, meta = _load(name)
    return rim_front(sil, frame, tuple(meta["top"]), [tuple(t) for t in meta["other_tops"]],
                     tuple(meta["slope"])), meta


@pytest.mark.parametrize("name", ["81155-1", "88073-0"])
def test_a_flat_die_whose_top_the_colour_region_cuts_short_is_cleared(name):
    # dev 81155 (a glare cuts its top's region short) and 88073 (a line across the top): the
    # wall cue flags both, the front face by the top's colour region cannot clear them
    seen, meta = _seen(name)
    assert not meta["cocked"]
    assert seen is not None
    assert abs(seen.band) < 0.09 and abs(seen.sil_band) < 0.09
    assert rim_shows_flat(seen, CockedSettings())


@pytest.mark.parametrize("name", ["88106-0", "81155-0"])
def test_a_die_tipped_away_from_the_wall_shows_less_front_face(name):
    # dev 88106 (leaning 10.0 degrees) and 81155 (10.6, beside the flat die above; a median
    # over each line rather than its lower quarter would clear it: the pips of its faces)
    seen, meta = _seen(name)
    assert meta["cocked"] and meta["tilt_deg"] >= 10
    assert not rim_shows_flat(seen, CockedSettings())


def test_a_die_tipped_sideways_shows_a_side_face_and_is_not_cleared():
    # dev 81004: leaning 13.9 degrees with its tilt mostly along the wall, so its front face
    # shows nearly a flat die's (the rim line's band alone would clear it); its side face
    # shows what a flat die's cannot
    seen, meta = _seen("81004-1")
    assert meta["cocked"]
    st = CockedSettings()
    assert seen is not None
    assert seen.band >= -st.wall_rim_clear
    assert seen.side > st.wall_rim_side
    assert not rim_shows_flat(seen, st)


def test_off_clears_nothing():
    frame, sil, meta = _load("81155-1")
    c = tuple(meta["top"])
    box = (c, (meta["die_px"], meta["die_px"]), 0.0)
    assert flat_by_rims(sil, CockedSettings(wall_rim_clear=0.0), frame, [box], [None],
                        [True]) == [False]


@pytest.mark.parametrize("lean_deg", [0.0, 10.0, 12.0, 15.0])
def test_a_constructed_die_at_the_wall_is_cleared_only_flat(lean_deg):
    # the constructed rest frames of tests/vision/test_cocked_front.py, every other clearing
    # off: the edge lines alone clear the flat die and none tipped 10-15 degrees away from the wall
    from tests.vision.test_cocked_front import judge_constructed

    cocked, wall_cue = judge_constructed(lean_deg, wall_rim_clear=CockedSettings().wall_rim_clear)
    assert wall_cue
    assert cocked == (lean_deg > 0)
