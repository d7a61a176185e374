"""The front face of a die of the felt's colour, found by its chromaticity
(vision.die_silhouette.off_felt_chroma, CockedSettings.wall_band_chroma): shading scales a
colour and keeps its chromaticity, so a die's shaded face keeps the die's and the felt in a
shadow keeps the felt's. Constructed rest frames under a camera tilted toward the wall (R-I2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_cocked_front import (
    TILTED,
    X,
    _frame,
    _judge,
    _resting_die,
    _silhouettes,
    _toward,
)
from tests.vision.tracker_synth import DIE, FELT, WALL_Y, background
from vision.cocked.settings import CockedSettings
from vision.cocked.wall import flat_fronts, leans_on_wall
from vision.dice import DieReading
from vision.die_silhouette import changed_pixels, felt_in_shadow, off_felt_chroma
from vision.throw_geometry import TableGeometry

# a green die's front face in its own shade: as bright as the felt and within the change
# test's threshold of it (so it passes for felt), but bluer
SHADED_GREEN = (55, 104, 28)
OFF_FRONT = 0.04  # the reader's centre off the top toward the front: the wall cue flags


def _felt_coloured_front(lean_deg: float, front=SHADED_GREEN):
    felt = background(0)
    edges = _resting_die(lean_deg, _toward(felt))
    img = _frame(felt, edges)
    _, top_front, bottom = (round(WALL_Y + e * DIE) for e in edges)
    # the sensor's noise of another frame than the felt's
    noise = background(1)[top_front:bottom, round(X - DIE / 2):round(X + DIE / 2)].astype(int) - FELT
    img[top_front:bottom, round(X - DIE / 2):round(X + DIE / 2)] = np.clip(
        np.array(front) + noise, 0, 255)
    return felt, img, edges, (edges[0] + edges[1]) / 2 + OFF_FRONT


def test_a_shaded_green_face_passes_for_felt_but_not_for_its_chromaticity():
    felt = background(0)
    face = felt.copy()
    face[100:140, 100:140] = np.clip(
        background(1)[100:140, 100:140].astype(int) - FELT + SHADED_GREEN, 0, 255)
    assert changed_pixels(face, felt, 30)[100:140, 100:140].mean() < 0.1 * 255  # felt, nearly
    assert off_felt_chroma(face, felt, 0.07)[105:135, 105:135].mean() > 0.95
    assert not off_felt_chroma(felt.copy(), background(1), 0.07).any()  # the sensor's noise
    # the felt in a shadow keeps the felt's chromaticity
    shade = (felt.astype(np.float32) * 0.6).astype(np.uint8)
    assert felt_in_shadow(shade, felt)[10:-10, 10:-10].mean() > 0.95
    assert not off_felt_chroma(shade, felt, 0.07)[100:140, 100:140].any()


def test_a_flat_die_of_the_felts_colour_is_cleared_by_its_front_faces_chromaticity():
    """A flat die at the wall whose shaded front face passes for felt: its silhouette ends at
    its top, so its band shows none of the front face and cannot clear the wall cue's flag.
    Taken in by its chromaticity, the front face shows as a flat die's: cleared."""
    felt, img, edges, top_d = _felt_coloured_front(0.0)
    cocked, wall_cue = _judge(felt, img, edges, top_d, wall_band_chroma=None)
    assert wall_cue and cocked
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and not cocked


@pytest.mark.parametrize("lean_deg", [10.0, 12.0, 15.0])
def test_a_tipped_die_of_the_felts_colour_stays_flagged(lean_deg):
    """The same die tipped 10-15 degrees away from the wall: its front face, taken in by its
    chromaticity, shows sin t less than a flat die's: flagged."""
    felt, img, edges, top_d = _felt_coloured_front(lean_deg)
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_shadow_where_a_flat_dies_front_face_would_be_does_not_clear_a_tipped_die():
    """A die tipped 12 degrees whose front face is the felt's own colour, with the felt in a
    shadow below it down to where a flat die's front face would end: the shadow keeps the
    felt's chromaticity, so it is not taken for the face, and the flag stands."""
    felt, img, edges, top_d = _felt_coloured_front(12.0, front=FELT)
    _, top_front, _ = (round(WALL_Y + e * DIE) for e in edges)
    flat_bottom = top_front + round(_toward(felt) * DIE)
    x0, x1 = round(X - DIE / 2), round(X + DIE / 2)
    img[top_front:flat_bottom, x0:x1] = (felt[top_front:flat_bottom, x0:x1] * 0.6).astype(np.uint8)
    cocked, wall_cue = _judge(felt, img, edges, top_d)
    assert wall_cue and cocked


def test_a_die_of_the_felts_colour_near_another_is_not_cleared_by_its_chromaticity():
    """The flat die of the first test with another die 1.6 edges along the wall (no close
    pair): it may be what that die leans on, unseen by the pair cue, and its flag what sends
    the throw to the operator: the chromaticity does not clear it."""
    felt, img, edges, top_d = _felt_coloured_front(0.0)
    other = X + 1.6 * DIE
    back, _, bottom = (round(WALL_Y + e * DIE) for e in edges)
    img[back:bottom, round(other - DIE / 2):round(other + DIE / 2)] = (235, 235, 235)
    box = ((X, WALL_Y + (max(edges[0], -0.35) + edges[2]) / 2 * DIE),
           (DIE, (edges[2] - edges[0]) * DIE), 0.0)
    other_box = ((other, box[0][1]), box[1], 0.0)
    top = (X, WALL_Y + top_d * DIE)
    other_top = (other, WALL_Y + (edges[0] + edges[1]) / 2 * DIE)
    readings = [DieReading(3, t, (t, (DIE, DIE), 0.0), 0.99, False, 0.05)
                for t in (top, other_top)]
    sil = _silhouettes(felt)
    geometry = TableGeometry(TILTED)
    cues = CockedSettings(wall_pips=False)
    assert leans_on_wall(geometry, cues, box, readings[0])
    cleared = flat_fronts(sil, cues, img, [box, other_box], readings, [True, False])
    assert not cleared[0]
    alone = CockedSettings(wall_pips=False, wall_band_alone=1.5)
    assert flat_fronts(sil, alone, img, [box, other_box], readings, [True, False])[0]
