"""The strip of felt between two close dice where the top-face cue cannot measure a top
(vision.cocked.pair.lie_flat_together, ``pair_clear_gap``, ``pair_gap_square``): a lean needs
a touch, and the touch lies in both silhouettes whatever the tops show. Rest frames rendered
by our simulator's physical world (dev seeds), tracked and read as the table does (R-I2: a die
not proved flat goes to the operator)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from tests.vision import test_cocked_band as band_tests
from vision.cocked.judge import judge_cocked
from vision.cocked.pair import lie_flat_together, silhouettes_gap
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import top_faces

ON = CockedSettings()
SQUARE = replace(ON, pair_gap_square=True)
SEEN = replace(ON, pair_gap_square=False)


# the band's tests' fixture: (reader, throw(seed, case), the bench module)
rest = band_tests.rest


def _measure(r, settings):
    sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
    tilted = tuple(top_faces(sil.geometry, settings, frame, boxes, readings))
    gap = silhouettes_gap(sil, frame, boxes[0][0], boxes[1][0], settings.pair_touch_chroma)
    flat = lie_flat_together(sil, settings, frame, (boxes[0][0], boxes[1][0]), tuple(readings),
                             tilted)
    return tilted, gap, flat


def _judge(reader, r, settings):
    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


def test_two_flat_dice_apart_one_top_not_measured_are_read(rest):
    """Two flat dice 1.6 edges apart (dev 88067), a strip of felt 0.34 edge wide between their
    silhouettes with the shadows left out (twice what a lean's touch hid on the dev sets), one
    top the top-face cue cannot measure: with both tops required square the pair sends a die
    to the operator; with neither seen tilted it is read."""
    reader, throw, _ = rest
    r = throw(88067, "one_hits")
    assert not any(t["cocked"] for t in r["truth"])
    tilted, gap, flat = _measure(r, SEEN)
    assert None in tilted and True not in tilted
    assert gap is not None and gap >= ON.pair_clear_gap
    assert flat
    assert not _measure(r, SQUARE)[2]
    assert sorted(_judge(reader, r, SQUARE)) == [False, True]
    assert _judge(reader, r, SEEN) == [False, False]


def test_a_die_leaning_on_the_other_its_tops_not_measured_stays_flagged(rest):
    """A die leaning 15.3 degrees on the other (dev 88035), neither top measured by the
    top-face cue, its touch partly hidden in the shadow (the silhouettes 0.17 edge apart with
    the shadows left out, the most any leaning pair showed on the dev sets): the strip is short
    of ``pair_clear_gap``, so no proof clears it and the leaning die goes to the operator."""
    reader, throw, _ = rest
    r = throw(88035, "cocked_die")
    lean = [i for i, t in enumerate(r["truth"]) if t["cocked"]]
    assert len(lean) == 1 and 15 < r["truth"][lean[0]]["cocked_tilt_deg"] < 16
    tilted, gap, flat = _measure(r, SEEN)
    assert True not in tilted
    assert gap is not None and 0.1 < gap < ON.pair_clear_gap
    assert not flat
    assert _judge(reader, r, SEEN)[lean[0]]
    # a bar at the strip it shows would have cleared it: the margin is the bar's
    assert _measure(r, replace(SEEN, pair_clear_gap=gap - 0.01))[2]


def test_flats_why_shows_the_proof_that_fails(rest, capsys):
    """``bench/cocked_rest.py flats --why``: for the flat die the pair cue flags (dev 88067,
    both tops required square), the line shows the strip of felt wide enough and a top not
    measured; with the default settings no flat die of that throw is flagged."""
    reader, throw, bench = rest
    r = throw(88067, "one_hits")
    rows = bench.flat_cue_rows([r], reader, SQUARE, why_pairs=True)
    assert [row["cues"] for row in rows] == [["pair"]]
    why = rows[0]["why"]
    assert None in why["tilted"] and why["sil_gap"] >= ON.pair_clear_gap and not why["hides"]
    bench.print_pair_why(rows, SQUARE)
    line = [s for s in capsys.readouterr().out.splitlines() if s.startswith("88067")]
    assert len(line) == 1 and "?" in line[0] and f"{why['sil_gap']:.2f}" in line[0]
    assert bench.flat_cue_rows([r], reader, ON, why_pairs=True) == []


def test_the_tops_centres_of_a_leaning_pair_span_the_flat_pairs(rest):
    """``lean_centres_apart``: a cube tipped t about its far bottom edge until its raised near
    edge meets a flat cube's side square-on has its top's centre ``0.5 + 0.5 cos t + sin t``
    from the other's, inside the bound's least and most; the bound spans more than a pair of
    flat dice side by side (1.0-1.41 edges touching), so it clears none."""
    _, _, bench = rest
    for t_deg in (10, 20, 30, 45):
        t = math.radians(t_deg)
        # a cube x in [-1, 0] (the flat die's face at x = 0 before it is moved), pivoting on
        # its edge x = -1, z = 0: its near side rises
        rot = np.array([[math.cos(t), 0, -math.sin(t)], [0, 1, 0], [math.sin(t), 0, math.cos(t)]])
        corners = np.array([[x, y, z] for x in (-1, 0) for y in (-0.5, 0.5) for z in (0, 1)])
        moved = (corners - [-1, 0, 0]) @ rot.T + [-1, 0, 0]
        assert moved[:, 2].min() > -1e-9  # on the felt, not through it
        shift = -0.5 - moved[:, 0].max()  # its near part against the other's face (x = -0.5)
        top = (np.array([-0.5, 0.0, 1.0]) - [-1, 0, 0]) @ rot.T + [-1, 0, 0]
        apart = abs(top[0] + shift)
        least, most = bench.lean_centres_apart(t_deg)
        assert least <= apart <= most
        assert apart == pytest.approx(0.5 + 0.5 * math.cos(t) + math.sin(t), abs=1e-9)
    assert bench.lean_centres_apart(10)[1] > math.sqrt(2) and bench.lean_centres_apart(45)[0] < 1
