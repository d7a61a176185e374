"""The throw tracker on throws drawn with exact truth (tests/vision/tracker_synth.py), R-I1..R-I3."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablectl.cli import main
from tests.vision.tracker_synth import (
    CAL,
    DIE,
    PIPS,
    WALL_Y,
    SynthDie,
    background,
    draw_die,
    throw,
)
from vision.calibration import Calibration
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import foreshortened, top_face_shape
from vision.cocked.wall import leans_on_wall
from vision.die_track import DieTrack
from vision.throw_geometry import TableGeometry
from vision.tracker import ThrowTracker, TrackerSettings, choose_scale


def run(frames, tracker=None):
    tracker = tracker or ThrowTracker(CAL)
    out = []
    for t, img in frames:
        obs = tracker.feed(t, img)
        if obs is not None:
            out.append(obs)
    return out, tracker


def by_truth(obs, dice):
    """Observed dice in the order of the truth's dice (nearest rest centre)."""
    found = [d for d in obs.dice if d.center is not None]
    out = []
    for d in dice:
        out.append(min(found, key=lambda o: math.hypot(o.center[0] - d.x, o.center[1] - d.y)))
    return out


@pytest.mark.parametrize(
    "specs",
    [
        # both hit, one hits, neither hits (R-I3)
        [SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)],
        [SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -500, 2)],
        [SynthDie(200, 470, 150, -500, 5), SynthDie(420, 470, -100, -450, 2)],
    ],
    ids=["both_hit", "one_hits", "none_hits"],
)
def test_wall_and_rest_match_truth(specs):
    frames, dice = throw(specs)
    (obs,), _ = run(frames)
    assert obs.missing == obs.extra == obs.unmoved == 0
    assert obs.start_frame == 12  # the first frame with motion in the area
    assert len(obs.dice) == 2
    for truth, seen in zip(dice, by_truth(obs, dice), strict=True):
        assert math.hypot(seen.center[0] - truth.x, seen.center[1] - truth.y) < 3
        assert seen.hit_wall == truth.hit_wall
        assert not seen.left_area and seen.at_rest_in_area
        assert seen.moved and len(seen.track) > 10
    assert sum(d.hit_wall for d in dice) == sum(d.hit_wall for d in obs.dice)
    assert obs.snapshot is not None and obs.snapshot.shape == frames[-1][1].shape
    assert not np.array_equal(obs.snapshot, frames[obs.rest_frame][1])  # tracks drawn on it


def test_wall_contact_between_frames_is_detected():
    """A fast die touches the wall only between two frames: its rebound tells."""
    frames, dice = throw(
        [SynthDie(300, 345, 0, -3000, 5, spin=0), SynthDie(450, 400, 0, -1200, 2, spin=0)],
        friction=4.0,
    )
    assert dice[0].hit_wall and not dice[1].hit_wall
    touch = 0.62 * DIE  # the tracker's per-frame touch distance
    (obs,), tracker = run(frames)
    fast, slow = by_truth(obs, dice)
    nearest = min(y for _, _, y in fast.track) - WALL_Y
    assert nearest > touch + 3, "precondition: no frame shows the die at the wall"
    assert fast.hit_wall
    assert not slow.hit_wall


def test_no_hit_for_a_die_gliding_along_the_wall_without_touching():
    tracker = ThrowTracker(CAL)
    times = [i / 60 for i in range(30)]
    xs = [100 + 10 * i for i in range(30)]
    ys = [WALL_Y + 0.8 * DIE + (1.5 if i % 2 else -1.5) for i in range(30)]  # jitter
    assert not tracker.hit_wall(times, xs, ys)
    # the same path bouncing at 0.6 die from the wall line (touching): a hit
    ys = [WALL_Y + 0.5 * DIE + abs(i - 15) * 9 + 4 for i in range(30)]
    assert tracker.hit_wall(times, xs, ys)


def test_die_coming_to_rest_outside_the_area():
    frames, dice = throw([SynthDie(200, 470, -500, -400, 5), SynthDie(420, 470, -100, -1000, 2)])
    assert dice[0].left_area and dice[0].x < 0  # out of view to the left
    (obs,), _ = run(frames)
    lost = [d for d in obs.dice if d.center is None]
    assert obs.missing == 1 and len(lost) == 1
    assert lost[0].left_area and not lost[0].at_rest_in_area
    kept = [d for d in obs.dice if d.center is not None][0]
    assert kept.hit_wall and kept.at_rest_in_area and not kept.left_area


def test_die_resting_in_view_but_outside_the_area():
    frames, dice = throw([SynthDie(150, 420, -300, -100, 5), SynthDie(420, 470, -100, -1000, 2)])
    assert dice[0].x < 40 < dice[0].x + DIE  # outside the area line, still in the frame
    (obs,), _ = run(frames)
    out, inside = by_truth(obs, dice)
    assert out.left_area and not out.at_rest_in_area
    assert inside.at_rest_in_area and not inside.left_area


def test_every_die_thrown_out_of_view_still_ends_the_throw():
    frames, dice = throw(
        [SynthDie(200, 470, 0, -3000, 5), SynthDie(420, 470, -100, -2500, 2)], friction=1.0
    )
    (obs,), _ = run(frames)
    assert obs.missing == 2
    assert all(d.left_area and d.center is None and d.hit_wall for d in obs.dice)


def test_left_area_between_frames_through_a_corner():
    """An L-shaped area: two frames inside, the straight path between them outside."""
    cal = Calibration(
        area=((0, 0), (400, 0), (400, 200), (200, 200), (200, 400), (0, 400)),
        back_wall=((0, 0), (400, 0)),
        die_px=40,
    )
    tracker = ThrowTracker(cal)
    settled = 6  # a tenth of a second at 60 fps inside: the die is in
    assert tracker.left_area([100] * settled + [380, 300], [300] * settled + [150, 100], False)
    assert not tracker.left_area([100] * settled + [150, 300], [300] * settled + [150, 100], False)
    # never in for long enough: it never entered, so it is out
    assert tracker.left_area([100, 100, 500], [300, 300, 300], gone=False)
    # past the front edge (the shooter's side) before coming in does not count ...
    assert not tracker.left_area([100] * 2 + [100] * settled, [430] * 2 + [300] * settled, False)
    # ... past a side edge does
    assert tracker.left_area([-30] * 2 + [100] * settled, [300] * 2 + [300] * settled, False)


def test_a_die_lost_heading_into_the_back_wall_is_stopped_by_it_not_out_of_the_area():
    """A die the felt's colour is lost from view at the wall, 0.45 edge from its line, coming
    at it at 33 edges/s (30 fps): three frames on at that speed it would be 3 edges past the
    line, but the wall stops it. Seen already past the line it went over the wall, and heading
    out past a side edge it left the area (R-I1)."""
    geometry = TableGeometry(CAL)
    dt = 1 / 30
    xs = [300.0] * 8
    ys = [WALL_Y + d * DIE for d in (6.0, 5.0, 4.0, 3.0, 3.0, 3.0, 3.0, 0.45)]
    toward_wall = (0.0, -33.0 * DIE)
    assert not geometry.left_area(xs, ys, True, toward_wall, dt)
    assert geometry.left_area(xs, ys[:-1] + [WALL_Y - 0.3 * DIE], True, toward_wall, dt)
    side = [60.0] * 8
    assert geometry.left_area(side, ys[:-1] + [WALL_Y + 3 * DIE], True, (-33.0 * DIE, 0.0), dt)


def test_dice_that_touch_are_both_found():
    frames, dice = throw([SynthDie(250, 470, 300, -900, 5), SynthDie(420, 470, -300, -900, 2)])
    gap = math.hypot(dice[0].x - dice[1].x, dice[0].y - dice[1].y)
    (obs,), _ = run(frames)
    assert len([d for d in obs.dice if d.center is not None]) == 2
    for truth, seen in zip(dice, by_truth(obs, dice), strict=True):
        assert math.hypot(seen.center[0] - truth.x, seen.center[1] - truth.y) < 0.25 * DIE + 3
        assert seen.hit_wall == truth.hit_wall
    assert gap < 3 * DIE


def test_a_die_spinning_on_its_corner_is_not_at_rest():
    frames, dice = throw(
        [SynthDie(200, 470, 0, -900, 5), SynthDie(420, 470, 0, -600, 2, spin=900, spin_until=3.0)]
    )
    (obs,), _ = run(frames)
    spin_end = int(3.0 * 60)
    assert obs.rest_frame >= spin_end
    assert obs.rest_frame <= spin_end + 30


def test_die_that_did_not_move_since_the_last_throw():
    first, dice = throw([SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)])
    stuck = dice[1]
    t0 = first[-1][0] + 1 / 60
    stuck_copy = SynthDie(stuck.x, stuck.y, 0, 0, stuck.value, spin=0, angle=stuck.angle)
    second, _ = throw([SynthDie(250, 470, 100, -900, 4)], static=(stuck_copy,), t0=t0)
    obs, _ = run(first + second)
    assert len(obs) == 2
    assert obs[0].unmoved == 0
    assert obs[1].unmoved == 1
    assert sorted(d.moved for d in obs[1].dice) == [False, True]


def test_three_dice_make_an_extra():
    frames, _ = throw(
        [
            SynthDie(150, 470, 100, -900, 5),
            SynthDie(330, 470, 0, -1000, 2),
            SynthDie(500, 470, -100, -950, 6),
        ]
    )
    (obs,), _ = run(frames)
    assert obs.extra == 1 and obs.missing == 0


def test_picking_the_dice_up_is_not_a_throw():
    first, _ = throw([SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)])
    t = first[-1][0]
    empty = background(0)
    later = [(t + (i + 1) / 60, empty.copy()) for i in range(60)]
    obs, tracker = run(first + later)
    assert len(obs) == 1
    assert tracker.state == "idle"


def test_a_gap_in_the_frames_drops_the_throw_in_progress():
    """A camera that reconnects mid-throw: no observation is made up from the frames around it."""
    frames, _ = throw([SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)])
    cut = 40
    after = [(t + 2.0, img) for t, img in frames[cut:]]
    obs, tracker = run(frames[:cut] + after)
    assert obs == [] or all(o.start_frame >= cut for o in obs)
    # the tracker still works for the next throw
    nxt, _ = throw(
        [SynthDie(200, 470, 150, -900, 3), SynthDie(420, 470, -100, -1000, 4)],
        t0=after[-1][0] + 1 / 60,
    )
    obs2, _ = run(nxt, tracker)
    assert len(obs2) == 1 and len(obs2[0].dice) == 2


@dataclass(frozen=True)
class _Reading:
    value: int | None
    center: tuple[float, float]
    box: tuple
    confidence: float
    cocked: bool
    cocked_share: float | None = None  # no graded belief: the flag counts
    best_face: int | None = None


class TruthReader:
    """Reads the synthetic dice by where they lie (the real reader is vision.dice.DiceReader)."""

    lean = None  # no lean model: the pair cue goes by the readings and the silhouettes
    pair = None
    min_confidence = None

    def __init__(self, dice):
        self.dice = dice
        self.calls = []

    def read_at(self, frame_bgr, boxes, die_px=None):
        self.calls.append((frame_bgr.shape, list(boxes), die_px))
        out = []
        for box in boxes:
            (cx, cy), _, _ = box
            d = min(self.dice, key=lambda d: math.hypot(d.x - cx, d.y - cy))
            out.append(_Reading(d.value, (cx, cy), box, 0.97, False))
        return out


def test_faces_read_once_on_the_full_frame_at_rest():
    frames, dice = throw([SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)])
    reader = TruthReader(dice)
    (obs,), _ = run(frames, ThrowTracker(CAL, reader=reader))
    assert len(reader.calls) == 1
    shape, boxes, die_px = reader.calls[0]
    # the calibrated die size: a die's box (silhouette) may hold a side face or a shadow
    assert shape == (480, 640, 3) and die_px == CAL.die_px
    for (_, (w, h), _) in boxes:
        assert 0.8 * DIE < w < 1.3 * DIE and 0.8 * DIE < h < 1.3 * DIE
    assert sorted(d.value for d in obs.dice) == sorted(d.value for d in dice)
    assert all(d.confidence == pytest.approx(0.97) for d in obs.dice)


def test_feed_rejects_a_grey_frame():
    with pytest.raises(ValueError, match="BGR"):
        ThrowTracker(CAL).feed(0.0, np.zeros((480, 640), np.uint8))


def test_choose_scale_keeps_a_die_wide_enough():
    assert choose_scale(640, 480, 44) == 4
    assert choose_scale(1280, 720, 66) == 8
    assert choose_scale(640, 480, 12) == 1
    assert choose_scale(642, 480, 44) == 2


def test_settings_are_honoured():
    frames, _ = throw([SynthDie(200, 470, 150, -900, 5), SynthDie(420, 470, -100, -1000, 2)])
    (quick,), _ = run(frames, ThrowTracker(CAL, settings=TrackerSettings(settle_s=0.1)))
    (slow,), _ = run(frames, ThrowTracker(CAL, settings=TrackerSettings(settle_s=0.4)))
    assert slow.rest_frame - quick.rest_frame >= 10


# --------------------------------------------------------------------------- tablectl replay
CLIPS = Path(__file__).resolve().parents[2] / "fixtures" / "clips"
DIE_FIELDS = {"value", "cocked", "confidence", "hit_wall", "left_area", "at_rest_in_area", "center"}


def _clip_dirs():
    return sorted(p for p in CLIPS.glob("*") if (p / "truth.json").is_file())


def test_replay_json_lines_have_the_designed_shape():
    """`tablectl replay DIR --calibration FILE --json` as a subprocess (DESIGN.md)."""
    clips = _clip_dirs()
    if not clips:
        pytest.skip(f"no fixture clips in {CLIPS}")
    clip = clips[0]
    proc = subprocess.run(
        [sys.executable, "-m", "tablectl.cli", "replay", str(clip / "frames.avi"),
         "--calibration", str(clip / "calibration.toml"), "--json"],
        capture_output=True, text=True, timeout=120, cwd=CLIPS.parents[1],
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == 1
    rec = lines[0]
    assert set(rec) == {"throw", "start_frame", "rest_frame", "dice", "ruling"}
    assert rec["throw"] == 1 and 0 <= rec["start_frame"] < rec["rest_frame"]
    assert len(rec["dice"]) == 2 and all(set(d) == DIE_FIELDS for d in rec["dice"])
    assert set(rec["ruling"]) == {"kind", "rule", "reason"}
    assert rec["ruling"]["kind"] in {"counts", "warning", "void", "operator"}


def test_replay_of_every_fixture_clip_matches_the_truth(capsys):
    """Wall, area and rest per die against the simulator's truth; the ruling where the faces do
    not matter (void) or the reader is not needed (the kind a wall/area truth implies)."""
    clips = _clip_dirs()
    if not clips:
        pytest.skip(f"no fixture clips in {CLIPS}")
    for clip in clips:
        truth = json.loads((clip / "truth.json").read_text())
        assert main(["replay", str(clip), "--json", "--no-reader"]) == 0
        lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert len(lines) == 1, clip.name
        rec = lines[0]
        assert rec["start_frame"] <= truth["throw_start_frame"] <= rec["rest_frame"], clip.name
        assert rec["rest_frame"] >= truth["rest_frame"], clip.name
        seen = [d for d in rec["dice"] if d["center"] is not None]
        assert len(seen) == len(truth["dice"]), clip.name
        for td in truth["dice"]:
            od = min(seen, key=lambda d: math.dist(d["center"], td["rest_center"]))
            assert math.dist(od["center"], td["rest_center"]) < 0.5 * 44, clip.name
            assert od["at_rest_in_area"] == td["at_rest_in_area"], clip.name
            assert od["left_area"] == td["left_area"], clip.name
            if not td["cocked"]:  # a die leaning on the other may share its path
                assert od["hit_wall"] == td["hit_wall"], clip.name
        if not all(d["at_rest_in_area"] for d in truth["dice"]):
            assert rec["ruling"]["kind"] == "void" and rec["ruling"]["rule"] == "R-I1"
        elif not any(d["hit_wall"] for d in truth["dice"]):
            assert rec["ruling"]["kind"] == "void" and rec["ruling"]["rule"] == "R-I3"


def test_replay_with_the_reader_reads_and_flags_every_fixture_clip_as_its_truth(capsys):
    """With the reader (and its lean model): each flat die's face, each die's cocked flag, and
    the ruling's kind as the truth calls for (R-I1, R-I2, R-I3); 09's flag on the die that
    leans, not its flat partner."""
    from tests.support.throws import truth_ruling

    clips = _clip_dirs()
    if not clips:
        pytest.skip(f"no fixture clips in {CLIPS}")
    for clip in clips:
        truth = json.loads((clip / "truth.json").read_text())
        assert main(["replay", str(clip), "--json"]) == 0
        (rec,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        seen = [d for d in rec["dice"] if d["center"] is not None]
        for td in truth["dice"]:
            od = min(seen, key=lambda d: math.dist(d["center"], td["rest_center"]))
            assert od["cocked"] == td["cocked"], clip.name
            if td["at_rest_in_area"] and not td["cocked"]:
                assert od["value"] == td["value"], clip.name
        assert rec["ruling"]["kind"] == truth_ruling(truth), clip.name


def test_replay_bad_input_exits_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "none.avi"), "--calibration",
                 str(tmp_path / "none.toml")]) == 2
    assert "cannot read calibration file" in capsys.readouterr().err
    cal = tmp_path / "cal.toml"
    cal.write_text(CAL.to_toml())
    assert main(["replay", str(tmp_path), "--calibration", str(cal)]) == 2
    assert "no images" in capsys.readouterr().err


def test_a_session_of_simulated_throws_gives_one_observation_each():
    """Consecutive throws on one table: the last throw's dice lie there, are picked up (not a
    throw), then the next throw; through SimulatorSource as one stream."""
    simulator = pytest.importorskip("vision.simulator")
    from vision.sources import SimulatorSource

    clips = list(simulator.simulate_session(seed=3, n_throws=3))
    tracker = ThrowTracker(clips[0].calibration, annotate=False)
    seen = []
    for frame in SimulatorSource(clips):
        obs = tracker.feed(frame.timestamp, frame.image)
        if obs is not None:
            seen.append(obs)
    assert len(seen) == len(clips)
    first = 0
    for clip, obs in zip(clips, seen, strict=True):
        truth = clip.truth
        assert obs.unmoved == obs.extra == obs.missing == 0
        assert obs.start_frame - first <= truth["throw_start_frame"] <= obs.rest_frame - first
        assert sorted(d.hit_wall for d in obs.dice) == sorted(d["hit_wall"] for d in truth["dice"])
        first += len(clip.frames)


def test_a_die_hidden_for_some_frames_keeps_its_track_and_its_wall_hit():
    """The die vanishes (out of view, under a hand) from before it reaches the wall until after
    it rebounds: one track comes back for it, and the rebound still counts as a hit."""
    frames, dice = throw([SynthDie(200, 470, 0, -1400, 5, spin=0), SynthDie(450, 470, 0, -450, 2)])
    bg = background(0)
    hidden = 0
    out = []
    for i, (t, img) in enumerate(frames):
        if 12 <= i and any(t0 == t and y < WALL_Y + 2.2 * DIE for t0, _, y in dice[0].path):
            img = img.copy()
            img[: int(WALL_Y + 3 * DIE), 150:250] = bg[: int(WALL_Y + 3 * DIE), 150:250]
            hidden += 1
        out.append((t, img))
    assert dice[0].hit_wall and 4 <= hidden <= 30
    (obs,), _ = run(out)
    assert len(obs.dice) == 2 and obs.missing == 0
    fast, slow = by_truth(obs, dice)
    assert fast.hit_wall and not slow.hit_wall
    assert min(y for _, _, y in fast.track) > WALL_Y + 2 * DIE  # never seen near the wall


def _path_frames(paths, rest=30):
    """Frames of dice moving along given straight paths [(x0, y0, x1, y1, value)], then resting."""
    bg = background(0)
    frames = [(i / 60, bg.copy()) for i in range(10)]
    for k in range(21):
        img = bg.copy()
        for x0, y0, x1, y1, v in paths:
            f = k / 20
            draw_die(img, SynthDie(x0 + f * (x1 - x0), y0 + f * (y1 - y0), 0, 0, v))
        frames.append(((10 + k) / 60, img))
    last = frames[-1][1]
    frames += [((31 + i) / 60, last.copy()) for i in range(rest)]
    return frames


def test_a_die_leaning_on_the_wall_is_flagged_cocked_by_the_wall_cue():
    lean_y = WALL_Y + 0.3 * DIE  # its top seen further back than a flat die's can be
    flat_y = WALL_Y + 0.5 * DIE  # a flat die touching the wall
    frames = _path_frames([(200, 400, 200, lean_y, 3), (420, 400, 420, flat_y, 4)])
    for geometric, expect in ((True, [True, False]), (False, [False, False])):
        tracker = ThrowTracker(CAL, settings=TrackerSettings(cocked=CockedSettings(geometric_cocked=geometric)))
        (obs,), _ = run(frames, tracker)
        leaning, flat = sorted(obs.dice, key=lambda d: d.center[0])
        assert [leaning.cocked, flat.cocked] == expect
        assert leaning.at_rest_in_area and flat.at_rest_in_area


def test_two_dice_closer_than_flat_dice_can_lie_flag_one_cocked():
    close = _path_frames([(250, 400, 250, 250, 3), (330, 400, 250 + 1.1 * DIE, 250, 4)])
    (obs,), _ = run(close)
    assert len(obs.dice) == 2 and sum(d.cocked for d in obs.dice) == 1
    apart = _path_frames([(250, 400, 250, 250, 3), (330, 400, 250 + 1.6 * DIE, 250, 4)])
    (obs,), _ = run(apart)
    assert len(obs.dice) == 2 and not any(d.cocked for d in obs.dice)


def _reading(center, cocked=False, share=None, confidence=0.9):
    from vision.dice import DieReading

    share = (1.0 if cocked else 0.0) if share is None else share
    return DieReading(
        None if cocked else 3, center, (center, (DIE, DIE), 0.0), confidence, cocked, share
    )


def test_wall_cue_asks_where_the_top_face_sits_in_the_silhouette():
    """A flat die at the wall shows its front faces below its top (the top is wall-ward of the
    silhouette's centre); a die leaning on the wall shows the face that was against it above
    its top (the top is not wall-ward): only the second is cocked."""
    geometry, settings = TableGeometry(CAL), CockedSettings()
    box = ((300.0, WALL_Y + 0.35 * DIE), (DIE, 1.2 * DIE), 0.0)
    flat_top = _reading((300.0, WALL_Y + 0.15 * DIE))
    leaning_top = _reading((300.0, WALL_Y + 0.38 * DIE))
    assert not leans_on_wall(geometry, settings, box, flat_top)
    assert leans_on_wall(geometry, settings, box, leaning_top)
    far = ((300.0, WALL_Y + 2 * DIE), (DIE, 1.2 * DIE), 0.0)  # not at the wall: no wall cue
    assert not leans_on_wall(geometry, settings, far, _reading((300.0, WALL_Y + 2.1 * DIE)))
    # without a reading: only a silhouette closer to the wall than a flat die's can be
    close = ((300.0, WALL_Y + 0.3 * DIE), (DIE, DIE), 0.0)
    assert leans_on_wall(geometry, settings, close, None)
    apart = ((300.0, WALL_Y + 0.5 * DIE), (DIE, DIE), 0.0)
    assert not leans_on_wall(geometry, settings, apart, None)



def test_wall_cue_looks_as_far_out_as_a_die_leaning_on_the_wall_rests():
    """A die square to the wall leaning on it by 10-25 degrees rests with its silhouette's
    centre about 0.6 edges out, its top not wall-ward of it: cocked. A flat die there, its top
    wall-ward of its silhouette (its front face below), is not."""
    geometry, settings = TableGeometry(CAL), CockedSettings()
    box = ((300.0, WALL_Y + 0.58 * DIE), (DIE, 1.2 * DIE), 0.0)
    assert leans_on_wall(geometry, settings, box, _reading((300.0, WALL_Y + 0.58 * DIE)))
    assert not leans_on_wall(geometry, settings, box, _reading((300.0, WALL_Y + 0.4 * DIE)))

def test_wall_cue_weighs_the_distance_to_the_wall_and_the_readers_belief_if_asked():
    """A top only a little wall-ward of the silhouette (a steep lean, or a flat die seen from
    nearly above) is judged by how near the wall the silhouette reaches (a leaning die's nearer
    than a flat one's can) and, with ``wall_share_weight``, by the reader's cocked_share."""
    geometry, settings = TableGeometry(CAL), CockedSettings()
    near = ((300.0, WALL_Y + 0.35 * DIE), (DIE, 1.2 * DIE), 0.0)
    steep_top = _reading((300.0, WALL_Y + 0.26 * DIE), share=0.05)
    assert leans_on_wall(geometry, settings, near, steep_top)
    # the same top-to-silhouette shift, the silhouette farther from the wall: a flat die
    farther = ((300.0, WALL_Y + 0.83 * DIE), (DIE, 1.2 * DIE), 0.0)
    flat_top = _reading((300.0, WALL_Y + 0.74 * DIE), share=0.05)
    assert not leans_on_wall(geometry, settings, farther, flat_top)
    # the reader's belief, weighed in (the weights tuned for an earlier reader)
    weighed = CockedSettings(wall_share_weight=0.1, wall_top_shift=0.135, wall_near=0.5)
    top = (300.0, WALL_Y + 0.26 * DIE)
    assert not leans_on_wall(geometry, weighed, near, _reading(top, share=0.05))
    assert leans_on_wall(geometry, weighed, near, _reading(top, share=0.5))


FLAT_FRONT = 0.3  # a flat die's front face as the tilted camera sees it, in die edges


def _draw_pair_die(img, top, value, side=None, side_w=0.0, front=FLAT_FRONT):
    """A resting die as a tilted camera sees it: its top face centred at `top`, its front face
    (toward the camera, down the image) `front` die edges high below it and, for a leaning die,
    the face that was against what it leans on, `side_w` die edges wide on `side`
    ("left", "right", "up")."""
    x, y = top
    h = DIE / 2
    face = (150, 150, 150)
    if front:
        cv2.rectangle(img, (int(x - h), int(y)), (int(x + h), int(y + h + front * DIE)), face, -1)
    if side == "left":
        cv2.rectangle(img, (int(x - h - side_w * DIE), int(y - h)), (int(x), int(y + h)), face, -1)
    elif side == "right":
        cv2.rectangle(img, (int(x), int(y - h)), (int(x + h + side_w * DIE), int(y + h)), face, -1)
    elif side == "up":
        cv2.rectangle(img, (int(x - h), int(y - h - side_w * DIE)), (int(x + h), int(y)), face, -1)
    draw_die(img, SynthDie(x, y, 0, 0, value))


class PlacedReader:
    """Reads dice whose top faces lie at known places, with a given belief that each leans
    (the real reader, vision.dice.DiceReader, finds the top face near each box likewise, and
    leaves a die it flags cocked unread, naming its likeliest face in ``best_face``)."""

    cocked_threshold = 0.6
    min_confidence = 0.8
    lean = None
    pair = None

    def __init__(self, tops, values, shares, confidence=0.95):
        self.tops, self.values, self.shares = tops, values, shares
        self.confidence = confidence

    def read_at(self, frame_bgr, boxes, die_px=None):
        from vision.dice import DieReading

        out = []
        for (cx, cy), _, _ in boxes:
            k = min(range(len(self.tops)), key=lambda k: math.dist(self.tops[k], (cx, cy)))
            cocked = self.shares[k] >= self.cocked_threshold
            top = self.tops[k]
            out.append(
                DieReading(
                    None if cocked else self.values[k],
                    top,
                    (top, (DIE, DIE), 0.0),
                    self.confidence,
                    cocked,
                    self.shares[k],
                    best_face=self.values[k],
                )
            )
        return out


def _pair_throw(dice, shares, geometric=True, confidence=0.95, lean=None, **settings):
    """Two dice slide in from the front and come to rest as drawn by _draw_pair_die (kwargs per
    die in `dice`, each with "top"); `lean`: the lean model's belief per die, or None (no
    model); returns the observed dice in the order given."""
    bg = background(0)
    frames = [(i / 60, bg.copy()) for i in range(10)]
    for k in range(21):
        img = bg.copy()
        f = k / 20
        for d in dice:
            x, y = d["top"]
            moving = dict(d, top=(x, 460 + f * (y - 460)))
            _draw_pair_die(img, **moving)
        frames.append(((10 + k) / 60, img))
    frames += [((31 + i) / 60, frames[-1][1].copy()) for i in range(30)]
    tops = [d["top"] for d in dice]
    reader = PlacedReader(tops, [d["value"] for d in dice], shares, confidence)
    if lean is not None:
        reader.lean = _PlacedLean(tops, lean)
    settings = TrackerSettings(cocked=CockedSettings(geometric_cocked=geometric, **settings))
    (obs,), _ = run(frames, ThrowTracker(CAL, reader=reader, settings=settings))
    assert len(obs.dice) == 2
    return [min(obs.dice, key=lambda o, t=t: math.dist(o.center, t)) for t in tops]


@pytest.mark.parametrize("lean_left", [True, False])
def test_pair_cue_takes_the_die_whose_side_shows_toward_the_other(lean_left):
    """Two dice close together, the reader as unsure of both: the one showing the face that was
    against the other (its silhouette reaches past its top toward the other, its top tipped
    away) leans (R-I2)."""
    a, b = (250.0, 250.0), (250.0 + 1.45 * DIE, 250.0)
    if lean_left:
        dice = [dict(top=a, value=3, side="right", side_w=0.3), dict(top=b, value=4)]
    else:
        dice = [dict(top=a, value=3), dict(top=b, value=4, side="left", side_w=0.3)]
    got = _pair_throw(dice, [0.3, 0.3])
    assert [d.cocked for d in got] == [lean_left, not lean_left]


def test_pair_cue_allows_for_the_front_face_of_a_flat_die_behind():
    """A die leaning back on one behind it shows its back face above its top; the flat die
    behind shows its front face below its top, toward the other, as every flat die does in a
    camera tilted toward the wall: that must not make it the leaning one."""
    flat = dict(top=(300.0, 200.0), value=2, front=0.4)
    lean = dict(top=(300.0, 200.0 + 1.6 * DIE), value=5, side="up", side_w=0.15, front=0.0)
    got = _pair_throw([flat, lean], [0.3, 0.3])
    assert [d.cocked for d in got] == [False, True]


def _touching_pair():
    """Two dice side by side, touching (felt between them would prove neither leans on the
    other: ``pair_apart``)."""
    return [dict(top=(250.0, 250.0), value=3), dict(top=(250.0 + 1.05 * DIE, 250.0), value=4)]


def test_pair_cue_overrides_the_readers_flag_on_the_flat_partner():
    """The reader judges each die alone and flags both; one of a close pair leans on the other:
    the likelier one (higher cocked_share) is cocked; the other is read for its value."""
    dice = _touching_pair()
    got = _pair_throw(dice, [0.65, 0.9])
    assert [d.cocked for d in got] == [False, True]
    assert [d.value for d in got] == [3, None]  # the flat one's best face, read surely
    # without the geometric cues the reader's flags stand
    got = _pair_throw(dice, [0.65, 0.9], geometric=False)
    assert [d.cocked for d in got] == [True, True]
    assert [d.value for d in got] == [None, None]


def test_the_flat_partners_face_needs_the_readers_confidence():
    """The flat partner of a leaning die gets the reader's best face only when the reader's
    confidence in it reaches its min_confidence: else no value (the operator gives it, R-I2),
    never a guess."""
    dice = _touching_pair()
    got = _pair_throw(dice, [0.65, 0.9], confidence=0.75)
    assert [d.cocked for d in got] == [False, True]
    assert [d.value for d in got] == [None, None]


def test_two_dice_lying_close_go_to_the_operator_however_sure_the_reader():
    """Dice touching, so one may lean on the other: even with the reader sure of both faces,
    finding neither leaning, one is taken to lean and the throw goes to the operator (R-I2):
    a cocked throw paid costs more than a flat one ruled by hand (pair_min_score off)."""
    dice = _touching_pair()
    got = _pair_throw(dice, [0.1, 0.1])
    assert sorted(d.cocked for d in got) == [False, True]
    # the reader doubting one of them: that one is taken to lean
    got = _pair_throw(dice, [0.1, 0.45])
    assert [d.cocked for d in got] == [False, True]


def test_pair_min_score_clears_two_flat_dice_the_reader_reads_surely():
    """With ``pair_min_score`` set (and ``pair_clear_touching``: touching dice may be
    cleared), a close pair where neither die shows a sign of leaning is taken for two flat
    dice (each read); one die the reader doubts still makes it a pair. Without
    ``pair_clear_touching`` a touching pair is never cleared."""
    dice = _touching_pair()
    got = _pair_throw(dice, [0.1, 0.1], pair_min_score=-1.5, pair_clear_touching=True)
    assert [(d.cocked, d.value) for d in got] == [(False, 3), (False, 4)]
    got = _pair_throw(dice, [0.1, 0.45], pair_min_score=-1.5, pair_clear_touching=True)
    assert [d.cocked for d in got] == [False, True]
    got = _pair_throw(dice, [0.1, 0.1], pair_min_score=-1.5)
    assert sorted(d.cocked for d in got) == [False, True]


def test_a_die_leaning_on_the_wall_explains_a_close_pair():
    """A die leaning on the wall with a flat die lying close beside it: the wall lean explains
    the pair, so the flat one is not taken for a die leaning on the other, even though the
    reader thinks it the likelier of the two."""
    lean = dict(top=(300.0, WALL_Y + 0.6 * DIE), value=3, side="up", side_w=0.35, front=0.0)
    flat = dict(top=(300.0 + 1.2 * DIE, WALL_Y + 0.75 * DIE), value=4)
    got = _pair_throw([lean, flat], [0.2, 0.45])
    assert [d.cocked for d in got] == [True, False]


class _PlacedLean:
    """A lean model with a given belief for the die nearest each place."""

    def __init__(self, tops, beliefs):
        self.tops, self.given = tops, beliefs

    def beliefs(self, frame, centers, die_px, toward_wall):
        return [self.given[min(range(len(self.tops)), key=lambda k: math.dist(self.tops[k], c))]
                for c in centers]


def _flat_at_wall_and_one_leaning_on_it():
    """A flat die against the wall drawn without its front face (as a die of the felt's colour
    is cut out: the wall cue takes it for leaning on the wall), and beside it, along the wall, a
    die leaning on it, showing the face that was against it."""
    flat = dict(top=(300.0, WALL_Y + 0.5 * DIE), value=2, front=0.0)
    lean = dict(top=(300.0 + 1.3 * DIE, WALL_Y + 0.8 * DIE), value=5, side="left", side_w=0.3)
    return [flat, lean]


def test_a_die_leaning_on_a_flat_die_at_the_wall_is_the_cocked_one_when_all_cues_say_so():
    """Of a close pair, the wall cue flags the die at the wall; the reader, the silhouettes and
    the lean model all take the other for the leaning one: it is (R-I2), and the die at the
    wall is read. Whatever the cues say, one die of a close pair is flagged."""
    dice = _flat_at_wall_and_one_leaning_on_it()
    got = _pair_throw(dice, [0.2, 0.7], lean=[0.05, 1.0])
    assert [(d.cocked, d.value) for d in got] == [(False, 2), (True, None)]
    # the lean model alone does not move the flag off the wall (the other die drawn flat, the
    # reader as unsure of both)...
    flat_beside = [dice[0], dict(dice[1], side=None, side_w=0.0)]
    got = _pair_throw(flat_beside, [0.3, 0.3], lean=[0.05, 1.0], wall_lean_keep=None)
    assert [d.cocked for d in got] == [True, False]
    # (with the model's keep at the wall, its belief of 1.0 in the other die, whose top lies
    # within the wall cue's reach, adds a flag there, wall_lean_sure; it takes none away)
    got = _pair_throw(flat_beside, [0.3, 0.3], lean=[0.05, 1.0])
    assert [d.cocked for d in got] == [True, True]
    # ...nor do the reader and the silhouettes alone, nor anything without the model; where
    # the model believes the other leans (0.5 or more) without the margin to move the flag,
    # both are flagged (pair_wall_both): the die at the wall keeps its flag either way
    got = _pair_throw(dice, [0.2, 0.7], lean=[0.6, 0.4])
    assert [d.cocked for d in got] == [True, False]
    got = _pair_throw(dice, [0.2, 0.7], lean=[0.6, 0.9])
    assert [d.cocked for d in got] == [True, True]
    got = _pair_throw(dice, [0.2, 0.7], lean=[0.6, 0.9], pair_wall_both=None,
                      wall_lean_keep=None)
    assert [d.cocked for d in got] == [True, False]
    got = _pair_throw(dice, [0.2, 0.7])
    assert [d.cocked for d in got] == [True, False]


@pytest.mark.parametrize(
    "seed,case", [(5010, "cocked_wall"), (5016, "cocked_wall"), (5095, "cocked_die"),
                  (5137, "cocked_die")]
)
def test_simulated_cocked_die_is_found_by_its_geometry(seed, case):
    """Throws where the reader's own flag missed the cocked die (R-I2) when written: the wall /
    pair cue finds it, and only it."""
    simulator = pytest.importorskip("vision.simulator")
    from vision.dice import DiceReader

    clip = simulator.simulate_throw(seed=seed, scenario=case, size=(640, 480), fps=60)
    reader = DiceReader()
    tracker = ThrowTracker(clip.calibration, reader, annotate=False)
    (obs,) = [o for t, f in clip.frames if (o := tracker.feed(t, f)) is not None]
    flags = [
        min(obs.dice, key=lambda o, c=d["rest_center"]: math.dist(o.center, c)).cocked
        for d in clip.truth["dice"]
    ]
    assert flags == [d["cocked"] for d in clip.truth["dice"]]


def _wall_path(ds, x=300.0, fps=60.0):
    """A path straight at the back wall: its centre ``ds`` die edges from the wall line per frame."""
    times = [i / fps for i in range(len(ds))]
    return times, [x] * len(ds), [WALL_Y + d * DIE for d in ds]


def test_a_tumbling_die_turning_beyond_half_an_edge_hit_the_wall():
    """A cube striking the wall corner-first turns with its centre up to 0.87 edge out; a
    blurred die is seen farther still at the frame of the turn (the mean of its way in and
    out). Its rebound is a hit; the same path turning two edges out is not."""
    geometry = TableGeometry(CAL)
    assert geometry.hit_wall(*_wall_path([4.4, 3.3, 2.2, 1.1, 1.0, 1.5, 2.0, 2.4]))
    assert not geometry.hit_wall(*_wall_path([5.4, 4.3, 3.2, 2.1, 2.0, 2.5, 3.0, 3.4]))


def test_a_die_settling_slowly_1_2_edges_out_is_seen_sharp_and_did_not_touch_the_wall():
    """At 120 fps a die sliding to rest by the wall dips to 1.2 edges and comes back to 1.26 at
    2-7 edges/s as it settles: moving 0.06 edge a frame it is seen sharp, where it is, and a
    cube 1.2 edges out cannot touch the wall (0.87 corner-first). The same turn made at full
    speed at 30 fps is a blurred die seen past its contact: a hit."""
    geometry = TableGeometry(CAL)
    settling = [1.61, 1.51, 1.42, 1.31, 1.28, 1.26, 1.20, 1.22, 1.24, 1.26, 1.26, 1.26, 1.25]
    assert not geometry.hit_wall(*_wall_path(settling, fps=120.0))
    assert geometry.hit_wall(*_wall_path([4.0, 2.6, 1.2, 2.0, 2.7, 3.3], fps=30.0))


def test_a_reversal_beside_the_other_die_nearer_the_wall_is_not_a_wall_strike():
    """The other die lies against the wall, in this one's way: this one turns a little over an
    edge out, on the other die, not the wall (R-I3)."""
    geometry = TableGeometry(CAL)
    mover = _wall_path([4.6, 3.6, 2.6, 1.6, 1.2, 1.7, 2.1, 2.4])
    lying = _wall_path([0.6] * 8, x=300.0 + 0.3 * DIE)
    assert geometry.hit_wall(*mover)  # alone it turns within a tumbling die's reach
    assert not geometry.hit_wall(*mover, others=[lying])
    far = _wall_path([0.6] * 8, x=300.0 + 4 * DIE)  # a die at the wall but not in its way
    assert geometry.hit_wall(*mover, others=[far])


def test_a_die_first_seen_leaving_the_wall_fast_had_struck_it():
    """Dice enter blurred at full speed; a track may be born only after the rebound."""
    geometry = TableGeometry(CAL)
    assert geometry.hit_wall(*_wall_path([1.6, 2.3, 2.9, 3.4, 3.8]))
    assert not geometry.hit_wall(*_wall_path([4.6, 5.3, 5.9, 6.4, 6.8]))  # far out: not traced
    assert not geometry.hit_wall(*_wall_path([1.6, 1.62, 1.6, 1.61, 1.6]))  # still


def test_how_far_out_a_die_born_leaving_the_wall_is_traced_grows_with_the_frame_interval():
    """At 30 fps a die leaving the wall at 45 edges/s is 3 edges out two frames later: first
    seen there, it had struck the wall; at 120 fps the same distance is far beyond its reach."""
    geometry = TableGeometry(CAL)
    assert geometry.hit_wall(*_wall_path([3.7, 5.2, 6.6, 7.9], fps=30.0))
    assert not geometry.hit_wall(*_wall_path([3.7, 4.07, 4.44, 4.8], fps=120.0))


def _gap_path(ds, frames, x=300.0, fps=30.0):
    return [f / fps for f in frames], [x] * len(ds), [WALL_Y + d * DIE for d in ds]


def test_a_rebound_unseen_for_some_frames_is_judged_by_the_time_it_had():
    """Seen coming 4.4 edges out, unseen for two frames, then leaving from 2.7 edges at 37
    edges/s: in the time between, at a speed a wall gives back, it reached the wall. The same
    sightings two more frames apart (or turning 4 edges farther out) could not have."""
    geometry = TableGeometry(CAL)
    assert geometry.hit_wall(*_gap_path([4.38, 2.68, 3.9, 4.94], [10, 13, 14, 15]))
    assert not geometry.hit_wall(*_gap_path([8.38, 6.68, 7.9, 8.94], [10, 13, 14, 15]))
    # seen coming in fast, then unseen, then leaving
    assert geometry.hit_wall(*_gap_path([5.0, 3.3, 2.2, 3.0, 3.7], [0, 1, 3, 4, 5], fps=60.0))
    assert not geometry.hit_wall(*_gap_path([9.0, 7.3, 6.2, 7.0, 7.7], [0, 1, 3, 4, 5], fps=60.0))


def test_a_die_out_of_the_other_dies_blob_behind_it_does_not_take_its_wall_strike():
    """Two dice fly as one blob to the wall; one comes out of it behind the other (nearer the
    table's middle) and rests leaning on it: the blob's stop at the wall was the other's."""
    tracker = ThrowTracker(CAL)
    fps = 30.0
    leaner = DieTrack(0)
    for f, d in enumerate([4.0, 2.5, 1.0, 0.8, 1.4, 1.3, 1.3, 1.3]):
        leaner.add(f, f / fps, 300.0, WALL_Y + d * DIE)
    other = DieTrack(1)
    for f, d in enumerate([0.6, 0.55, 0.55, 0.55], start=4):
        other.add(f, f / fps, 300.0 + 0.4 * DIE, WALL_Y + d * DIE)
    assert tracker.hit_wall(leaner.times, leaner.xs, leaner.ys)  # the blob stopped at the wall
    leaner.share(other, 3)
    times, xs, ys = tracker._own_path(leaner, [leaner, other])
    assert times == leaner.times[4:]
    assert not tracker.hit_wall(times, xs, ys, [other])
    beside = DieTrack(2)  # out of the blob beside it, as near the wall: both may have struck
    for f in range(4, 8):
        beside.add(f, f / fps, 300.0 + 1.2 * DIE, WALL_Y + 1.3 * DIE)
    leaner.share(beside, 3)
    assert tracker._own_path(leaner, [leaner, beside])[0] == leaner.times


def test_a_die_that_struck_the_wall_inside_the_pairs_blob_is_seen_leaving_it_once_apart():
    """Two dice fly to the wall as one blob; its centre, the pair's mean, turns 1.85 edges out
    (too far for either die's strike). Split beside the other die, one is first seen on its own
    leaving the wall at 29 edges/s: traced back two frames it reached the wall inside the blob.
    The other, split as far out and lying still, shows no strike of its own."""
    tracker = ThrowTracker(CAL)
    fps = 30.0
    leaving = DieTrack(0)
    for f, d in enumerate([4.2, 2.09, 1.85, 2.82, 3.33, 3.48, 3.46]):
        leaving.add(f, f / fps, 300.0, WALL_Y + d * DIE)
    staying = DieTrack(1)
    for f, d in enumerate([4.2, 2.09, 1.85, 1.85, 1.84, 1.85, 1.85]):
        staying.add(f, f / fps, 300.0 + (0 if f < 2 else 1.7 * DIE), WALL_Y + d * DIE)
    leaving.share(staying, 1)
    dice = [leaving, staying]
    own = tracker._own_path(leaving, dice)
    assert own[0] == leaving.times  # split as far out: the blob's path is both dice's
    assert not tracker.hit_wall(*own, [staying])
    assert tracker.hit_wall(*tracker._apart_path(leaving), [staying])
    assert not tracker.hit_wall(*tracker._apart_path(staying), [leaving])


def test_a_die_stopped_dead_at_the_wall_hit_it_and_one_sliding_to_rest_near_it_did_not():
    geometry = TableGeometry(CAL)
    assert geometry.hit_wall(*_wall_path([3.4, 2.6, 1.8, 1.1, 0.8, 0.8, 0.8, 0.8]))
    # it struck the wall in the middle of a frame interval: still only a frame later
    assert geometry.hit_wall(*_wall_path([3.2, 2.65, 2.1, 1.55, 1.0, 0.78, 0.78, 0.78, 0.78]))
    # friction slows it over many frames to rest short of the wall
    assert not geometry.hit_wall(*_wall_path([2.0, 1.7, 1.45, 1.25, 1.1, 1.0, 0.95, 0.93, 0.93]))


class _SureFlatLean:
    """A lean model as sure as it can be that every die lies flat (a learned cue trained on
    renders unlike the table's: it must not clear a flag alone)."""

    def beliefs(self, frame, centers, die_px, toward_wall):
        return [0.0 for _ in centers]


def _leaning_die_frames(top_h: float, second_h: float, out: float = 0.75):
    """One die sliding to rest by the back wall, drawn as a tilted camera sees a die leaning on
    it: its top face (white, pips) ``top_h`` die edges deep, and below it a second face of
    another shade ``second_h`` deep (a flat die: top_h 1, a thin front face), its top's centre
    ``out`` die edges from the wall line."""
    bg = background(0)
    frames = [(i / 60, bg.copy()) for i in range(10)]
    x, rest_y = 320.0, WALL_Y + out * DIE
    for k in range(21):
        img = bg.copy()
        y = 460 + k / 20 * (rest_y - 460)
        half, top = DIE / 2, top_h * DIE
        cv2.rectangle(img, (int(x - half), int(y - top / 2)), (int(x + half), int(y + top / 2)),
                      (235, 235, 235), -1)
        cv2.rectangle(img, (int(x - half), int(y + top / 2)),
                      (int(x + half), int(y + top / 2 + second_h * DIE)), (120, 150, 170), -1)
        for px, py in PIPS[3]:
            cv2.circle(img, (int(x + px * 0.27 * DIE), int(y + py * 0.27 * top)), 3, (20, 20, 20), -1)
        frames.append(((10 + k) / 60, img))
    frames += [((31 + i) / 60, frames[-1][1].copy()) for i in range(30)]
    return frames, (x, rest_y)


@pytest.mark.parametrize("top_h, second_h, cocked",
                         [(0.7, 0.5, True), (0.8, 0.4, True), (1.0, 0.15, False),
                          (0.85, 0.15, False)])
def test_a_foreshortened_top_face_by_the_wall_is_cocked_though_reader_and_lean_model_see_flat(
        top_h, second_h, cocked):
    """A die leaning 30-45 degrees on the wall shows its top foreshortened (cos of the tilt:
    0.7 at 45, 0.8 at 37) and a second face: cocked (R-I2), though the reader reads its face
    surely and the lean model is sure it lies flat. A flat die there, its top square, is not;
    nor is one whose top a camera tilted 10-15 degrees sees 0.82-0.84 edges deep (its depth
    foreshortened by the view, its rim blurred), which the cue once flagged."""
    frames, top = _leaning_die_frames(top_h, second_h)
    reader = PlacedReader([top], [3], [0.0], confidence=0.99)
    reader.lean = _SureFlatLean()
    (obs,), _ = run(frames, ThrowTracker(CAL, reader=reader))
    (die,) = obs.dice
    assert die.cocked is cocked
    shape = top_face_shape(frames[-1][1], top, DIE)
    assert foreshortened(shape, CockedSettings()) is cocked



def test_the_lean_model_never_clears_a_wall_cue_flag():
    """A die by the wall whose top does not sit wall-ward of its silhouette (no front face
    below it) is flagged by the wall cue; its top is square (a lean of 10-20 degrees leaves it
    so), the reader reads it surely and the lean model is sure it lies flat: still cocked, the
    model learnt our renders only (R-I2)."""
    frames, top = _leaning_die_frames(1.0, 0.0, out=0.5)
    reader = PlacedReader([top], [3], [0.0], confidence=0.99)
    reader.lean = _SureFlatLean()
    (obs,), _ = run(frames, ThrowTracker(CAL, reader=reader))
    (die,) = obs.dice
    assert foreshortened(top_face_shape(frames[-1][1], top, DIE), CockedSettings()) is False
    assert die.cocked

def test_top_face_cue_cannot_tell_without_a_whole_face():
    """No region of the top's colour the size of a face (a die of the felt's colour, a crop
    off the die): the cue says nothing rather than 'flat'."""
    img = background(0)
    assert foreshortened(top_face_shape(img, (320.0, 240.0), DIE), CockedSettings()) is None
    assert foreshortened((0.5, 0.3), CockedSettings()) is None  # a piece of a face


def test_a_turn_on_a_frame_counts_with_the_trackers_float32_centres():
    """At 30 fps a die may be seen on the very frame it turns; the tracker's centres can be
    float32 (a blob split between two dice), too coarse to place the turn on that frame within
    a nanosecond. A simulated die's path at 30 fps, first seen the frame before it turned."""
    cal = Calibration(area=((110.2, 76.8), (528.8, 76.8), (549.9, 444.4), (89.1, 444.4)),
                      back_wall=((41.2, 76.8), (597.8, 76.8)), die_px=41.7)
    times = [f / 30 for f in range(12, 17)]
    f32, f64 = np.float32, np.float64  # as the tracker gives them (NumPy 2 keeps float32)
    xs = [f64(261.4277108433735), f32(216.96666), f32(207.1175), f64(198.7952380952381),
          f64(194.58163265306123)]
    ys = [f64(120.3433734939759), f32(106.49394), f32(135.16121), f64(153.63333333333333),
          f64(168.25510204081633)]
    assert TableGeometry(cal).wall_contacts(times, xs, ys)[0][0] == "rebound"


def test_a_face_showing_beyond_the_top_toward_the_wall_is_a_lean_on_the_wall():
    """A camera over the table sees a flat die's faces turned toward it, away from the back
    wall: its top is the part nearest the wall. A die leaning on the wall shows the face that
    was against it on the wall side of its top. The top is square in both (as a renderer that
    does not foreshorten draws it): the silhouette's reach toward the wall tells them apart."""
    from vision.cocked.wall import wall_face_reach
    from vision.die_silhouette import RestSilhouettes

    geometry = TableGeometry(CAL)
    felt = background(0)
    img = felt.copy()
    half = DIE / 2
    flat_x, lean_x = 200.0, 420.0
    flat_top = (flat_x, WALL_Y + 0.5 * DIE)
    lean_top = (lean_x, WALL_Y + 0.75 * DIE)  # tipped away from the wall...
    for (x, y) in (flat_top, lean_top):
        cv2.rectangle(img, (int(x - half), int(y - half)), (int(x + half), int(y + half)),
                      (235, 235, 235), -1)
    # ...showing the face that was against the wall between its top and the wall
    cv2.rectangle(img, (int(lean_x - half), int(WALL_Y + 0.05 * DIE)),
                  (int(lean_x + half), int(lean_top[1] - half)), (150, 160, 170), -1)
    sil = RestSilhouettes(geometry, felt, None, 1, (640, 480), False, 30)
    box = lambda c: (c, (DIE, DIE), 0.0)  # noqa: E731
    flat = wall_face_reach(sil, img, flat_top, [lean_top])
    lean = wall_face_reach(sil, img, lean_top, [flat_top])
    settings = CockedSettings()
    assert flat < settings.wall_face_excess < lean
    from vision.cocked.wall import wall_faces

    boxes = [box(flat_top), box(lean_top)]
    assert wall_faces(sil, settings, img, boxes, []) == [False, True]


def test_a_hard_lamps_dark_shadow_on_dark_felt_is_felt_in_shadow_and_a_black_die_is_not():
    """A hard lamp leaves the felt a third of its light in shadow: still the felt's colour,
    scaled. A black die, a blue die and the felt itself are not shadows."""
    from vision.die_silhouette import felt_in_shadow

    felt = np.full((1, 5, 3), (33, 92, 19), np.uint8)  # dark green felt, BGR
    seen = np.array([[(12, 35, 7), (20, 20, 20), (170, 60, 30), (33, 92, 19), (27, 74, 15)]],
                    np.uint8)
    assert felt_in_shadow(seen, felt).tolist() == [[True, False, False, False, True]]


def test_wall_cue_reaches_a_die_turned_corner_on_to_the_wall():
    """A die leaning 10 degrees on the wall turned 40 degrees to it touches the wall with a
    corner and rests with its centre about 0.77 edges out (square to the wall, 0.58): the
    wall cue must still judge where its top sits (R-I2). Past the cube's half-diagonal (0.87)
    no die touches the wall, so a top centred in its silhouette there is no lean on it."""
    geometry, settings = TableGeometry(CAL), CockedSettings()
    turned = ((300.0, WALL_Y + 0.77 * DIE), (1.3 * DIE, 1.3 * DIE), 40.0)
    centred_top = _reading((300.0, WALL_Y + 0.75 * DIE))
    assert leans_on_wall(geometry, settings, turned, centred_top)
    # the same die lying flat: its top wall-ward of its silhouette by its front faces' band
    assert not leans_on_wall(geometry, settings, turned, _reading((300.0, WALL_Y + 0.55 * DIE)))
    beyond = ((300.0, WALL_Y + 0.92 * DIE), (1.3 * DIE, 1.3 * DIE), 40.0)
    assert not leans_on_wall(geometry, settings, beyond, _reading((300.0, WALL_Y + 0.9 * DIE)))
