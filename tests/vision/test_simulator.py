"""The throw simulator: determinism, each scenario's truth, calibration, save/load, rendering."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.support.scripts import load_script
from vision.calibration import Calibration
from vision.simulator import (
    DIE_COLOURS,
    DiePose,
    DieSpec,
    Look,
    Scenario,
    SimClip,
    SimulationError,
    Table,
    matches,
    render_dice,
    simulate_session,
    simulate_throw,
)
from vision.simulator.dice3d import FACES, ROTATIONS, quarter_roll, top_value

CASES = [s for s in Scenario if s not in (Scenario.RANDOM, Scenario.EXTRA_DIE)]


def _inside(poly, pt, margin=0.0) -> bool:
    return cv2.pointPolygonTest(np.float32(poly), (float(pt[0]), float(pt[1])), True) >= -margin


def _wall_distance(cal: Calibration, pt) -> float:
    """Signed distance in pixels of pt below the back wall's line (positive: on the felt)."""
    (x1, y1), (x2, y2) = cal.back_wall
    n = np.array([y1 - y2, x2 - x1], float)
    n /= np.linalg.norm(n)
    if n[1] < 0:
        n = -n
    return float((np.array(pt) - [x1, y1]) @ n)


def test_opposite_faces_sum_to_seven_and_rolls_reach_adjacent_faces():
    values = {n: v for n, v in FACES}
    for n, v in FACES:
        assert v + values[tuple(-x for x in n)] == 7
    for rot in ROTATIONS:
        top = top_value(rot)
        rolled = {top_value(quarter_roll(rot, d)) for d in range(4)}
        # a die tipped over any edge shows one of the four faces beside the old top
        assert rolled == set(range(1, 7)) - {top, 7 - top}


def test_same_seed_same_clip_other_seed_other_clip():
    a = simulate_throw(seed=21, scenario=Scenario.BOTH_HIT)
    b = simulate_throw(seed=21, scenario=Scenario.BOTH_HIT)
    c = simulate_throw(seed=22, scenario=Scenario.BOTH_HIT)
    assert a.truth == b.truth
    assert len(a.frames) == len(b.frames)
    for i in (0, a.truth["throw_start_frame"] + 2, len(a.frames) - 1):
        ta, fa = a.frames[i]
        tb, fb = b.frames[i]
        assert ta == tb and np.array_equal(fa, fb)
    assert a.truth["dice"] != c.truth["dice"]


@pytest.mark.parametrize("scenario", CASES, ids=lambda s: s.value)
@pytest.mark.parametrize("seed", [0, 1])
def test_scenario_truth_shows_its_case(scenario, seed):
    clip = simulate_throw(seed=seed, scenario=scenario)
    t = clip.truth
    dice = t["dice"]
    cal = clip.calibration
    assert t["scenario"] == scenario.value and len(dice) == 2
    assert all(d["value"] in range(1, 7) for d in dice)
    hits = [d["hit_wall"] for d in dice]
    clean = all(d["at_rest_in_area"] and not d["left_area"] for d in dice)
    cocked = [d for d in dice if d["cocked"]]
    if scenario is Scenario.BOTH_HIT:
        assert hits == [True, True] and clean and not cocked
    elif scenario is Scenario.ONE_HITS:
        assert sorted(hits) == [False, True] and clean and not cocked
    elif scenario is Scenario.NONE_HITS:
        assert hits == [False, False] and clean and not cocked
    elif scenario is Scenario.OUT_OF_AREA:
        assert not clean and not cocked
    elif scenario is Scenario.COCKED_WALL:
        assert len(cocked) == 1 and cocked[0]["cocked_on"] == "wall" and cocked[0]["hit_wall"]
        # it leans on the wall: its top face is seen within about a die of the wall's line
        assert _wall_distance(cal, cocked[0]["rest_center"]) < 1.2 * cal.die_px
    elif scenario is Scenario.COCKED_DIE:
        assert len(cocked) == 1 and cocked[0]["cocked_on"] == "die"
        a, b = (np.array(d["rest_ground"]) for d in dice)
        assert np.linalg.norm(a - b) < 1.6 * cal.die_px  # touching the die it leans on
    # a die that hit the wall was seen next to the wall's line when it hit
    for d in dice:
        for f in d["wall_hit_frames"][:1]:
            near = [d["track"][k] for k in (f - 1, f) if d["track"][k] is not None]
            assert min(_wall_distance(cal, p) for p in near) < 1.5 * cal.die_px
        if not d["hit_wall"]:
            seen = [p for p in d["track"] if p is not None]
            assert min(_wall_distance(cal, p) for p in seen) > 0.4 * cal.die_px
    assert 0 < t["throw_start_frame"] < t["rest_frame"] < len(clip.frames)


@pytest.mark.parametrize("seed", range(6))
def test_rest_centres_agree_with_the_calibrated_area(seed):
    for scenario in (Scenario.BOTH_HIT, Scenario.OUT_OF_AREA):
        clip = simulate_throw(seed=seed, scenario=scenario)
        area = clip.calibration.area
        for d in clip.truth["dice"]:
            # judged by the felt point below the centre; the top face's centre is near it
            assert _inside(area, d["rest_ground"]) == d["at_rest_in_area"]
            assert _inside(area, d["rest_center"]) == d["at_rest_in_area"]


def test_frames_before_the_throw_are_empty_table_and_after_rest_still():
    clip = simulate_throw(seed=5, scenario=Scenario.BOTH_HIT, look=Look(noise=0.0))
    t = clip.truth
    first = clip.frames[0][1]
    # no die anywhere before release: every idle frame is the empty table
    for i in range(t["release_frame"]):
        assert np.array_equal(clip.frames[i][1], first)
    moving = clip.frames[t["throw_start_frame"]][1]
    assert np.abs(moving.astype(int) - first).max() > 60
    rest = clip.frames[t["rest_frame"]][1]
    assert np.array_equal(clip.frames[len(clip.frames) - 1][1], rest)
    assert not np.array_equal(clip.frames[t["rest_frame"] - 3][1], rest)
    # the timestamps step by 1/fps
    ts = [clip.frames[i][0] for i in range(3)]
    assert ts == pytest.approx([0.0, 1 / 60, 2 / 60])


def test_save_load_round_trip(tmp_path):
    clip = simulate_throw(seed=3, scenario=Scenario.ONE_HITS, idle_seconds=0.05,
                          after_seconds=0.05)
    for codec in ("MJPG", "mp4v"):
        d = clip.save(tmp_path / codec, codec=codec)
        back = SimClip.load(d)
        assert back.calibration == clip.calibration
        assert back.truth["dice"] == clip.truth["dice"]
        assert len(back.frames) == len(clip.frames)
        i = clip.truth["rest_frame"]
        err = np.abs(back.frames[i][1].astype(int) - clip.frames[i][1]).mean()
        assert err < 4.0, codec
    png = SimClip.load(clip.save(tmp_path / "png", fmt="png"))
    assert np.array_equal(png.frames[7][1], clip.frames[7][1])
    assert Calibration.load(tmp_path / "png" / "calibration.toml") == clip.calibration


def _pip_count(image, center, die_px, colour) -> int:
    """Blobs of pip colour on the die's face (felt showing past the face's edge touches the
    edge of the disc looked at, and is not counted)."""
    body, pip, _ = DIE_COLOURS[colour]
    x, y = int(round(center[0])), int(round(center[1]))
    r = int(die_px * 0.56)
    crop = image[y - r : y + r + 1, x - r : x + r + 1].astype(np.float32)
    d_pip = np.linalg.norm(crop - np.float32(pip), axis=2)
    d_body = np.linalg.norm(crop - np.float32(body), axis=2)
    disc = np.zeros(crop.shape[:2], np.uint8)
    cv2.circle(disc, (r, r), r, 1, -1)
    mask = ((d_pip < d_body) & (disc > 0)).astype(np.uint8)
    rim = disc - cv2.erode(disc, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    count = 0
    for k in range(1, n):
        blob = labels == k
        if stats[k, cv2.CC_STAT_AREA] >= 0.004 * die_px**2 and not (blob & (rim > 0)).any():
            count += 1
    return count


@pytest.mark.parametrize("colour", sorted(DIE_COLOURS))
def test_every_face_renders_its_pips(colour):
    for angle in (0.0, 33.0):
        specs = [DieSpec(v, (90 + 92 * (v - 1), 250), angle=angle, colour=colour)
                 for v in range(1, 7)]
        still = render_dice(specs, tilt_deg=0.0)
        assert still.image.shape == (480, 640, 3) and still.image.dtype == np.uint8
        for spec in specs:
            counted = _pip_count(still.image, spec.center, still.calibration.die_px, colour)
            assert counted == spec.value, (colour, angle, spec.value)


def test_cocked_die_shows_a_foreshortened_top_face():
    look = Look(noise=0, gradient=0)
    centre = (319.5, 239.5)  # under the camera: a flat die shows only its top face
    flat = render_dice([DieSpec(5, centre)], tilt_deg=0.0, look=look)
    tilt = render_dice([DieSpec(5, centre, cocked=35, cocked_toward=0)], tilt_deg=0.0, look=look)

    def extent(img):
        near = img[180:300, 260:380]  # around the die, away from the area's white line
        ys, xs = np.nonzero(cv2.cvtColor(near, cv2.COLOR_BGR2GRAY) > 150)  # the white die
        return xs.max() - xs.min(), ys.max() - ys.min()

    fw, fh = extent(flat.image)
    tw, th = extent(tilt.image)
    assert abs(fw - fh) <= 3  # square from straight above
    assert abs(fh - flat.calibration.die_px) < 4
    assert tilt.dice[0]["cocked"] and not flat.dice[0]["cocked"]
    assert abs(tw - th) > 8  # not square: a foreshortened top and part of a side face


def test_sizes_scale_die_px():
    small = simulate_throw(seed=2, size=(640, 480))
    big = simulate_throw(seed=2, size=(1280, 720))
    assert 36 <= small.calibration.die_px <= 46
    assert big.calibration.die_px == pytest.approx(small.calibration.die_px * 1.5, rel=0.05)
    assert big.frames[0][1].shape == (720, 1280, 3)
    xs = [p[0] for p in big.calibration.area]
    assert 0 <= min(xs) and max(xs) < 1280


def test_session_starts_each_throw_with_the_previous_dice_lying():
    clips = list(simulate_session(seed=4, n_throws=3, look=Look(noise=0.0)))
    assert len(clips) == 3
    assert clips[0].truth["previous_dice"] == 0
    for prev, cur in zip(clips, clips[1:], strict=False):
        assert cur.truth["previous_dice"] == 2
        assert cur.calibration == prev.calibration
        first, later = cur.frames[0][1], cur.frames[cur.truth["release_frame"] - 1][1]
        for d in prev.truth["dice"]:
            x, y = (int(round(v)) for v in d["rest_center"])
            if d["at_rest_in_area"]:
                # the old die is there at the start and gone (picked up) before the throw
                assert np.abs(first[y, x].astype(int) - later[y, x]).sum() > 30


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown scenario"):
        simulate_throw(seed=1, scenario="sideways")
    with pytest.raises(ValueError, match="unknown die colour"):
        simulate_throw(seed=1, colour="purple")
    with pytest.raises(ValueError, match="1..6"):
        render_dice([DieSpec(7, (100, 100))])
    with pytest.raises(SimulationError):
        simulate_throw(seed=1, scenario=Scenario.COCKED_DIE, max_attempts=0)


def test_fast_die_at_the_image_edge_renders_blurred_without_error():
    from vision.simulator.render import Renderer, spec_pose

    table = Table((640, 480))
    renderer = Renderer(table, Look(noise=0.0), seed=1)
    still = spec_pose(table, DieSpec(3, (320, 470), colour="white"))
    moving = DiePose(still.centre, still.rotation, "white", motion=(5.0, 60.0))
    sharp = renderer.frame([still])
    blurred = renderer.frame([moving])
    # the smear spreads the die's light over more rows than the sharp die covers

    def bright_rows(img):
        return int((cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) > 120).any(axis=1).sum())

    assert bright_rows(blurred) > bright_rows(sharp)


def test_two_colours_in_one_throw():
    clip = simulate_throw(seed=8, scenario=Scenario.BOTH_HIT, colour=("white", "red"))
    assert [d["colour"] for d in clip.truth["dice"]] == ["white", "red"]
    with pytest.raises(ValueError, match="pair"):
        simulate_throw(seed=8, colour=("white", "red", "blue"))


def _fixture_tool():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "make_fixture_clips.py"
    return load_script(path, "make_fixture_clips")


def test_fixture_clips_cover_every_case_and_match_the_simulator(repo_root):
    clips_dir = repo_root / "fixtures" / "clips"
    dirs = sorted(p for p in clips_dir.iterdir() if p.is_dir())
    assert len(dirs) == 10
    size = sum(f.stat().st_size for f in clips_dir.rglob("*") if f.is_file())
    assert size < 6e6  # a few MB in all
    seen, colours = set(), set()
    tool = _fixture_tool()
    wanted = {name: (scenario, seed, colour, look) for name, scenario, seed, colour, look
              in tool.CLIPS}
    for d in dirs:
        clip = SimClip.load(d)
        t = clip.truth
        assert len(clip.frames) == t["n_frames"]
        assert clip.frames[0][1].shape == (480, 640, 3)
        assert d.name.split("_", 1)[1].startswith(t["scenario"])
        assert matches(Scenario(t["scenario"]), t)
        seen.add(t["scenario"])
        colours.update(x["colour"] for x in t["dice"])
        if d.name in wanted:
            # the stored truth is what the simulator gives today for that seed
            scenario, _, colour, look = wanted[d.name]
            again = simulate_throw(t["seed"], scenario, colour=colour, look=look,
                                   idle_seconds=0.25, after_seconds=0.3)
            assert again.truth["dice"] == t["dice"]
    assert seen == {s.value for s in CASES}
    assert len(colours) >= 5


def test_a_wall_touch_between_frames_counts_as_a_hit():
    from vision.simulator.physics import H, Launch, simulate

    table = Table((640, 480))
    # a fast die sliding straight at the wall, filmed at 10 fps: it reaches the wall and is
    # thrown back between two frames, so no frame shows it touching
    launch = Launch(pos=(0.0, 60.0), z=0.0, vel=(0.0, -1500.0), vz=0.0, yaw=0.0, spin=0.0,
                    orientation=0, tumble=0.0, tumble_dir=0, roll_frac=0.0,
                    wall_restitution=0.9, friction=0.1)
    tracks, rest = simulate(table, [launch], fps=10.0, rng=np.random.default_rng(0))
    t = tracks[0]
    assert rest is not None and t.wall_hit_frames == [1]
    assert min(t.y) > H + 3.0  # never seen within 3 mm of the wall
    assert t.y[1] > t.y[0] - 40  # it came back: rebound, not a stop

    # the same die thrown too softly stops short and is no hit
    soft = Launch(pos=(0.0, 60.0), z=0.0, vel=(0.0, -400.0), vz=0.0, yaw=0.0, spin=0.0,
                  orientation=0, tumble=0.0, tumble_dir=0, roll_frac=0.0, friction=0.5)
    tracks, _ = simulate(table, [soft], fps=10.0, rng=np.random.default_rng(0))
    assert tracks[0].wall_hit_frames == [] and tracks[0].min_wall_gap_mm > 10


def test_dice_tumble_through_faces_before_they_settle():
    from vision.simulator.scenarios import _throw

    table = Table((640, 480))
    changes = []
    for seed in range(4):
        thrown = _throw(Scenario.BOTH_HIT, table, ["white", "white"], 60.0, seed, 50)
        for k, track in enumerate(thrown.tracks):
            tops = [top_value(r) for r in track.rot]
            changes.append(sum(a != b for a, b in zip(tops, tops[1:], strict=False)))
            # the last face up is the value the truth reports
            assert tops[-1] == thrown.truth["dice"][k]["value"]
    assert min(changes) >= 1 and np.mean(changes) >= 3


def test_command_line_writes_a_clip_that_loads(tmp_path, capsys):
    from vision.simulator.__main__ import main

    assert main(["write", str(tmp_path / "c"), "--scenario", "none_hits", "--seed", "4",
                 "--codec", "mp4v"]) == 0
    clip = SimClip.load(tmp_path / "c")
    assert clip.truth["scenario"] == "none_hits" and clip.truth["seed"] == 4
    assert not any(d["hit_wall"] for d in clip.truth["dice"])
    with pytest.raises(SystemExit):
        main(["write", str(tmp_path / "d"), "--size", "big"])
    assert "640x480" in capsys.readouterr().err


# --- a third die on the table (Scenario.EXTRA_DIE) ---------------------------------------------


@pytest.mark.parametrize("kind", ["thrown", "stray"])
def test_extra_die_truth_marks_the_third_die(kind):
    clip = simulate_throw(seed=3, scenario=Scenario.EXTRA_DIE, extra_kind=kind)
    t = clip.truth
    dice = t["dice"]
    assert t["scenario"] == "extra_die" and t["extra"] == 1 and t["extra_kind"] == kind
    assert len(dice) == 3
    # the two dice in play carry no "extra" key (as in every other scenario), the third does
    assert ["extra" in d for d in dice] == [False, False, True] and dice[2]["extra"] is True
    assert matches(Scenario.EXTRA_DIE, t)
    for d in dice:
        assert d["value"] in range(1, 7)
        assert d["at_rest_in_area"] and not d["left_area"] and not d["cocked"]
        assert _inside(clip.calibration.area, d["rest_ground"])
    # the shooter's third die is one of his set; a stray one comes from another set
    assert (dice[2]["colour"] == dice[0]["colour"]) == (kind == "thrown")
    # the three rest apart: no die hides or leans on another
    die_px = clip.calibration.die_px
    grounds = [np.array(d["rest_ground"]) for d in dice]
    assert min(np.linalg.norm(a - b) for i, a in enumerate(grounds)
               for b in grounds[i + 1:]) > 1.4 * die_px
    assert t["min_die_gap_mm"] >= 1.8 * 16.0


def test_extra_die_clip_shows_three_dice_at_rest():
    clip = simulate_throw(seed=1, scenario=Scenario.EXTRA_DIE, look=Look(noise=0.0))
    t = clip.truth
    empty = clip.frames[0][1].astype(int)
    rest = clip.frames[t["rest_frame"]][1].astype(int)
    changed = (np.abs(rest - empty).sum(axis=2) > 60).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(changed)
    die_area = clip.calibration.die_px ** 2
    blobs = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] > 0.4 * die_area]
    assert len(blobs) == 3
    for d in t["dice"]:  # each die's top face is drawn where the truth says it rests
        x, y = (int(round(v)) for v in d["rest_center"])
        assert labels[y, x] in blobs


def test_extra_die_options_are_checked_and_random_never_draws_it():
    with pytest.raises(ValueError, match="extra_kind"):
        simulate_throw(seed=1, scenario=Scenario.EXTRA_DIE, extra_kind="dropped")
    with pytest.raises(ValueError, match="EXTRA_DIE only"):
        simulate_throw(seed=1, scenario=Scenario.BOTH_HIT, extra_kind="stray")
    with pytest.raises(ValueError, match="unknown die colour"):
        simulate_throw(seed=1, scenario=Scenario.EXTRA_DIE, extra_colour="purple")
    clip = simulate_throw(seed=2, scenario="extra_die", extra_kind="stray", extra_colour="white",
                          colour="red")
    assert [d["colour"] for d in clip.truth["dice"]] == ["red", "red", "white"]
    # RANDOM keeps drawing from the six cases of two dice (old seeds stay the same throws)
    for seed in range(12):
        t = simulate_throw(seed=seed, scenario=Scenario.RANDOM).truth
        assert t["scenario"] != "extra_die" and len(t["dice"]) == 2 and "extra" not in t


# --- the shooter's hand -----------------------------------------------------------------------


def _skin_share(frame, empty) -> tuple[float, np.ndarray]:
    """Of the pixels that changed from the empty table, the share that look like skin (red over
    green over blue, as every skin tone is), and the changed mask."""
    diff = np.abs(frame.astype(int) - empty).sum(axis=2) > 60
    b, g, r = (frame[..., k].astype(int) for k in range(3))
    skin = diff & (r > g + 10) & (g > b + 5)
    return float(skin.sum()) / max(1, int(diff.sum())), diff


def test_hand_brings_the_dice_and_leaves_the_throw_unchanged():
    plain = simulate_throw(seed=6, scenario=Scenario.BOTH_HIT, look=Look(noise=0.0))
    clip = simulate_throw(seed=6, scenario=Scenario.BOTH_HIT, look=Look(noise=0.0), hand=True)
    t, h = clip.truth, clip.truth["hand"]
    assert 0 < h["enter_frame"] < h["release_frame"] == t["release_frame"] < h["leave_frame"]
    assert h["side"] in ("right", "left")
    # the same throw: what happened to each die is as without the hand
    keys = ("value", "hit_wall", "left_area", "at_rest_in_area", "cocked", "rest_center")
    assert [{k: d[k] for k in keys} for d in t["dice"]] == [
        {k: d[k] for k in keys} for d in plain.truth["dice"]]
    shift = t["release_frame"] - plain.truth["release_frame"]
    assert t["rest_frame"] == plain.truth["rest_frame"] + shift
    assert len(t["dice"][0]["track"]) == len(clip.frames) == t["n_frames"]
    empty = clip.frames[0][1]
    for i in range(h["enter_frame"]):  # the empty table until the hand comes
        assert np.array_equal(clip.frames[i][1], empty)
    # holding the dice above the felt: a big skin-coloured shape from the near (bottom) edge
    hover = (h["enter_frame"] + h["release_frame"]) // 2
    share, diff = _skin_share(clip.frames[hover][1], empty.astype(int))
    die_area = clip.calibration.die_px ** 2
    assert diff.sum() > 8 * die_area and share > 0.5
    rows = np.nonzero(diff.any(axis=1))[0]
    assert rows.max() == diff.shape[0] - 1 and rows.min() > 0.25 * diff.shape[0]
    # shaded like a rounded body, not a flat stencil
    grey = cv2.cvtColor(clip.frames[hover][1], cv2.COLOR_BGR2GRAY)[diff]
    assert np.percentile(grey, 90) - np.percentile(grey, 10) > 25
    # once the hand has gone, the frame is the plain clip's rest frame, byte for byte
    assert np.array_equal(clip.frames[len(clip.frames) - 1][1],
                          plain.frames[len(plain.frames) - 1][1])
    assert not np.array_equal(clip.frames[h["release_frame"] + 3][1],
                              plain.frames[plain.truth["release_frame"] + 3][1])


def test_hand_is_smeared_by_its_motion_and_gone_at_leave_frame():
    from vision.simulator.hand import HandDrawer, HandStyle

    table = Table((640, 480))
    drawer = HandDrawer(table, Look(noise=0.0))
    style = HandStyle.random(np.random.default_rng(3))
    grip = (0.0, table.y_bottom - 60.0, 60.0)

    def partly_covered(motion) -> int:
        """Pixels the hand covers only in part (its edges): drawn on black and on white, a
        pixel's coverage is 1 - (white - black) / 255."""
        pose = style.pose(grip, 0.0)
        pose.motion = motion
        black, white = np.zeros((480, 640, 3), np.uint8), np.full((480, 640, 3), 255, np.uint8)
        drawer.draw(black, pose)
        drawer.draw(white, pose)
        cover = 1.0 - (white.astype(float) - black).mean(axis=2) / 255.0
        return int(((cover > 0.1) & (cover < 0.9)).sum())

    # swinging toward the wall: its edges across the motion are smeared over ~40 px
    assert partly_covered((0.0, -40.0)) > 3 * partly_covered((0.0, 0.0))
    # in a clip the hand is out of view from its leave_frame on: only the dice are new
    clip = simulate_throw(seed=4, scenario=Scenario.ONE_HITS, look=Look(noise=0.0), hand=True)
    h = clip.truth["hand"]
    share, _ = _skin_share(clip.frames[h["leave_frame"] + 1][1], clip.frames[0][1].astype(int))
    assert share < 0.05
    share, _ = _skin_share(clip.frames[h["release_frame"] + 2][1], clip.frames[0][1].astype(int))
    assert share > 0.3


def test_pickup_takes_every_die_and_leaves_an_empty_table():
    clip = simulate_throw(seed=2, scenario=Scenario.BOTH_HIT, look=Look(noise=0.0), pickup=True)
    t, p = clip.truth, clip.truth["pickup"]
    assert "hand" not in t  # the throw itself without the hand
    g = p["grab_frames"]
    assert t["rest_frame"] < p["enter_frame"] < g[0] < g[1] < p["leave_frame"] < len(clip.frames)
    assert sorted(p["taken"]) == [0, 1]
    empty = clip.frames[0][1]
    # the hand is over the first die it takes just before taking it
    k0, g0 = p["taken"][0], p["grab_frames"][0]
    x, y = (int(round(v)) for v in t["dice"][k0]["rest_center"])
    share, diff = _skin_share(clip.frames[g0 - 1][1], empty.astype(int))
    assert diff[y, x] and share > 0.3
    for k, g in zip(p["taken"], p["grab_frames"], strict=True):
        track = t["dice"][k]["track"]
        assert track[g - 1] is not None and all(pt is None for pt in track[g:])
    # after the hand has gone: the empty table again
    assert np.array_equal(clip.frames[len(clip.frames) - 1][1], empty)
    assert clip.final_poses == []


def test_session_with_pickup_starts_each_throw_on_an_empty_table():
    clips = list(simulate_session(seed=5, n_throws=2, look=Look(noise=0.0), pickup=True,
                                  idle_seconds=0.2, after_seconds=0.1))
    assert [c.truth["previous_dice"] for c in clips] == [0, 0]
    assert all("pickup" in c.truth for c in clips)


def test_command_line_writes_an_extra_die_throw_with_the_hand(tmp_path):
    from vision.simulator.__main__ import main

    assert main(["write", str(tmp_path / "c"), "--scenario", "extra_die", "--seed", "2",
                 "--hand", "--codec", "mp4v"]) == 0
    clip = SimClip.load(tmp_path / "c")
    t = clip.truth
    assert t["extra"] == 1 and [d.get("extra", False) for d in t["dice"]] == [False, False, True]
    assert t["hand"]["enter_frame"] < t["release_frame"] == t["hand"]["release_frame"]
    assert len(clip.frames) == t["n_frames"]
