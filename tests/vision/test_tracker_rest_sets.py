"""bench/cocked_rest.py: kept rest frames judged again give what the tracker itself judged."""

from __future__ import annotations

import importlib.util
import pickle

import pytest

from vision.cocked_cues import CockedSettings, judge_cocked
from vision.dice import DiceReader


@pytest.fixture(scope="module")
def rest_bench(repo_root):
    spec = importlib.util.spec_from_file_location("cocked_rest", repo_root / "bench" / "cocked_rest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_kept_rest_frames_judge_as_the_tracker_did(rest_bench, tmp_path):
    reader = DiceReader()
    # the six cases in turn: both hit, one hits, none hits, out of area, cocked on the wall,
    # cocked on the other die
    records = rest_bench.capture("default", 1000, 6, (640, 480), reader, log=lambda *_: None)
    assert len(records) == 6
    assert all(len(r["truth"]) == len(r["boxes"]) for r in records)
    kept = tmp_path / "rest.pkl"
    kept.write_bytes(pickle.dumps(records))
    again = pickle.loads(kept.read_bytes())
    n, misses = rest_bench.judge(again, CockedSettings(), reader)
    assert n["cocked_throws"] == 2 and n["cocked_throws_unflagged"] == 0, misses
    assert n["flat"] + n["cocked"] >= 10
    for r in again:  # judged again, each die is flagged as the tracker flagged it
        _, cocked = judge_cocked(r["sil"], CockedSettings(), reader, r["frame"], r["boxes"],
                                 r["readings"])
        assert cocked == r["cocked"], r["seed"]
    # the tracker's own call is back in place after the capture
    import vision.cocked_cues as cues
    import vision.tracker as tracker

    assert tracker.judge_cocked is cues.judge_cocked


def test_never_tuned_seeds_are_refused(rest_bench):
    with pytest.raises(SystemExit, match="never tuned"):
        rest_bench.capture("physical", 89999, 2, (640, 480), None)
    with pytest.raises(SystemExit, match="NAME=VALUE"):
        rest_bench.parse_set(["no_such_field=1"])
    assert rest_bench.parse_set(["wall_near=0.5", "lean_model=false"]) == {
        "wall_near": 0.5, "lean_model": False}
