"""The strip of felt between two close dice where the top-face cue cannot measure a top
(vision.cocked_cues.lie_flat_together, ``pair_clear_gap``, ``pair_gap_square``): a lean needs
a touch, and the touch lies in both silhouettes whatever the tops show. Rest frames rendered
by our simulator's physical world (dev seeds), tracked and read as the table does (R-I2: a die
not proved flat goes to the operator)."""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import pytest

from vision.cocked_cues import (
    CockedSettings,
    judge_cocked,
    lie_flat_together,
    silhouettes_gap,
    top_faces,
)
from vision.dice import DiceReader

ON = CockedSettings()
SQUARE = replace(ON, pair_gap_square=True)
SEEN = replace(ON, pair_gap_square=False)


@pytest.fixture(scope="module")
def rest(repo_root):
    spec = importlib.util.spec_from_file_location("cocked_rest", repo_root / "bench" / "cocked_rest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    reader = DiceReader()

    def throw(seed: int, case: str) -> dict:
        records = module.capture("physical", seed, 1, (640, 480), reader, log=lambda *_: None,
                                 cases=[case])
        assert len(records) == 1 and len(records[0]["boxes"]) == 2
        return records[0]

    return reader, throw


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
    reader, throw = rest
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
    reader, throw = rest
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
