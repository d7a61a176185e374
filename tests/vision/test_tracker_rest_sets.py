"""bench/cocked_rest.py: kept rest frames judged again give what the tracker itself judged."""

from __future__ import annotations

import pickle

import pytest

from tests.support.scripts import load_script
from vision.cocked.judge import judge_cocked
from vision.cocked.settings import CockedSettings
from vision.dice import DiceReader


@pytest.fixture(scope="module")
def rest_bench(repo_root):
    return load_script(repo_root / "bench" / "cocked_rest.py", "cocked_rest")


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
    import vision.cocked.judge as cues
    import vision.tracker as tracker

    assert tracker.judge_cocked is cues.judge_cocked


def test_never_tuned_seeds_are_refused(rest_bench):
    with pytest.raises(SystemExit, match="never tuned"):
        rest_bench.capture("physical", 89999, 2, (640, 480), None)
    with pytest.raises(SystemExit, match="NAME=VALUE"):
        rest_bench.parse_set(["no_such_field=1"])
    assert rest_bench.parse_set(["wall_near=0.5", "lean_model=false"]) == {
        "wall_near": 0.5, "lean_model": False}


def test_front_reach_of_dice_at_the_wall(rest_bench, capsys):
    reader = DiceReader()
    # both dice hit the wall, one hits, none hits, out of area, cocked on the wall
    records = rest_bench.capture("physical", 80000, 5, (640, 480), reader, log=lambda *_: None)
    rows = rest_bench.features(records, near=0.75)
    assert rows, "no die at the wall in the wall cases"
    for r in records:  # only dice within `near` edges of the wall line are measured
        geo = r["sil"].geometry
        near_wall = sum(
            1 for i, box in enumerate(r["boxes"])
            if r["truth"][i] is not None and r["truth"][i]["at_rest_in_area"]
            and geo.wall_distance(*box[0])[0] <= 0.75 * geo.die
            and not (r["truth"][i]["cocked"] and r["truth"][i]["cocked_on"] != "wall"))
        assert near_wall == sum(1 for row in rows if row["seed"] == r["seed"])
    assert any(row["cocked"] and row["tilt"] >= 10 for row in rows)
    for row in rows:
        # the front edge lies away from the wall beyond the top's centre, about half an edge
        # plus the front face a camera tilted toward the wall sees
        assert 0.3 < row["front"] < 1.3, row
        assert 0.3 < row["along"] < 0.8, row
        assert 0.0 <= row["toward"] < 0.6, row
    rest_bench.print_features(rows)
    out = capsys.readouterr().out
    assert "flat, wall cue flags" in out and "leaning 10-15 deg" in out
    default = rest_bench.capture("default", 1000, 1, (640, 480), reader, log=lambda *_: None)
    with pytest.raises(SystemExit, match="physical"):
        rest_bench.features(default, near=2.0)


def test_top_face_widths_of_the_dice_at_rest(rest_bench, capsys):
    reader = DiceReader()
    # the six cases in turn, the last two with a die leaning (on the wall, on the other die)
    records = rest_bench.capture("physical", 80000, 6, (640, 480), reader, log=lambda *_: None)
    rows = rest_bench.face_rows(records, reader)
    at_rest = sum(1 for r in records for t in r["truth"] if t is not None and t["at_rest_in_area"])
    assert len(rows) == at_rest
    assert any(row["cocked"] for row in rows) and any(not row["cocked"] for row in rows)
    square = CockedSettings()
    for row in rows:  # only whole tops are measured
        if row["shape"] is not None:
            long, short = row["shape"]
            assert square.face_min <= long <= square.face_max and short >= square.face_narrowest
    # "another cue" is every cue but the top-face one: a die it flags is flagged with it too
    flagged = [c for r in records if r["boxes"]
               for c, t in zip(judge_cocked(r["sil"], CockedSettings(), reader, r["frame"],
                                            r["boxes"], r["readings"])[1], r["truth"],
                               strict=True)
               if t is not None and t["at_rest_in_area"]]
    assert all(f for f, row in zip(flagged, rows, strict=True) if row["other"])
    rest_bench.print_faces(rows)
    out = capsys.readouterr().out
    assert out.startswith("whole tops") and "leaning 30-46 deg" in out


def test_pairs_and_flats_of_kept_throws(rest_bench, capsys):
    """``--cases cocked_die`` keeps only throws with a die leaning on the other; ``pairs``
    reports each (the leaning die flagged here), ``flats`` names the cue of each flat die
    flagged."""
    reader = DiceReader()
    records = rest_bench.capture("default", 1005, 2, (640, 480), reader, log=lambda *_: None,
                                 cases=["cocked_die"])
    assert [r["case"] for r in records] == ["cocked_die", "cocked_die"]
    rows = rest_bench.pair_rows(records, reader, CockedSettings())
    assert len(rows) == 2 and all(r["found"] == 2 and r["dist"] < 1.8 for r in rows)
    assert all(any(r["flags"]) for r in rows)  # never paid
    flats = rest_bench.flat_cue_rows(records, reader, CockedSettings())
    assert all(f["cues"] for f in flats)  # each flat die flagged has a cue named
    rest_bench.print_pairs(rows)
    rest_bench.print_flat_cues(flats)
    out = capsys.readouterr().out
    assert "2 throws with a die leaning on the other: 0 no die flagged" in out
