"""The wall cue's clearing by the faces' edge lines (vision.front_rim, vision.cocked_cues.rim_front,
rim_shows_flat): a flat die at the back wall shows its front face between two straight lines
along its edges, ``toward`` apart, and no side face beyond the view's slope; a die tipped away
from the wall shows sin t less front face, one tipped sideways sin t more side face. On real rest
frames of the physical world's dev sets (crops made by ``bench/cocked_rest.py rimcrops``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.calibration import Calibration
from vision.cocked_cues import (
    CockedSettings,
    flat_by_rims,
    rim_front,
    rim_shows_flat,
)
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "rim_edges"


def _load(name: str):
    """A fixture's rest frame, its silhouettes (the felt before the throw, the area and wall
    in the crop's pixels) and its metadata."""
    meta = json.loads((FIXTURES / f"{name}.json").read_text())
    frame = cv2.imread(str(FIXTURES / f"{name}.png"))
    felt = cv2.imread(str(FIXTURES / f"{name}-felt.png"))
    calibration = Calibration(area=tuple(tuple(p) for p in meta["area"]),
                              back_wall=tuple(tuple(p) for p in meta["back_wall"]),
                              die_px=meta["die_px"])
    h, w = frame.shape[:2]
    sil = RestSilhouettes(TableGeometry(calibration), felt, None, 1, (w, h), False,
                          meta["threshold"])
    return frame, sil, meta


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
    # the constructed rest frames of tests/vision/test_cocked_front.py (a white top, a grey
    # front face, the front band by colour and the pips off): the edge lines alone clear the flat die and
    # none tipped 10-15 degrees away from the wall
    from tests.vision.test_cocked_front import _frame, _judge, _resting_die, _toward, background

    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    # the flat die's reader's centre a little off toward the front: the wall cue flags it
    top_d = (edges[0] + edges[1]) / 2 + (0.04 if lean_deg == 0 else 0.0)
    img = _frame(felt, edges)
    cocked, wall_cue = _judge(felt, img, edges, top_d, wall_band_clear=0.0,
                              wall_rim_clear=CockedSettings().wall_rim_clear)
    assert wall_cue
    assert cocked == (lean_deg > 0)
