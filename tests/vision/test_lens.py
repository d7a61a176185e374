"""A wide lens's barrel (``lens_k1``, vision/lens.py): the key, the straightening, the tracker
judging a throw shot through such a lens, and ``lens_k1`` measured on a frame."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tablectl.rulings import rule_throw
from tests.vision.test_tracker import TruthReader
from tests.vision.tracker_synth import CAL, WALL_Y, SynthDie, background, throw
from vision.calibration import Calibration, CalibrationError
from vision.lens import Lens, LensFitError, fit_k1, fit_k1_robust, line_rms, measure_k1
from vision.tracker import ThrowTracker

SIZE = (640, 480)
K1 = -0.15


# ---------------------------------------------------------------------- a lens, drawn
def barrel_maps(k1: float, size: tuple[int, int]):
    """For each pixel of the image a lens ``k1`` shows, the pixel of the distortion-free image
    it shows (the model inverted by fixed-point steps, as bench/tracker.py's ``_Barrel``):
    written apart from vision/lens.py, so the tests check it against another hand."""
    w, h = size
    c = 0.5 * w
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    xd, yd = (xs - c) / c, (ys - 0.5 * h) / c
    xu, yu = xd.copy(), yd.copy()
    for _ in range(40):
        s = 1.0 + k1 * (xu * xu + yu * yu)
        xu, yu = xd / s, yd / s
    return (xu * c + c).astype(np.float32), (yu * c + 0.5 * h).astype(np.float32)


def through_lens(img: np.ndarray, maps) -> np.ndarray:
    return cv2.remap(img, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def shown(p, k1: float = K1, size=SIZE):
    """Where the lens ``k1`` shows the distortion-free image's point ``p``."""
    c = 0.5 * size[0]
    xn, yn = (p[0] - c) / c, (p[1] - 0.5 * size[1]) / c
    s = 1.0 + k1 * (xn * xn + yn * yn)
    return c + xn * s * c, 0.5 * size[1] + yn * s * c


def cal_as_shown(cal: Calibration, k1: float = K1, lens_k1: float = 0.0) -> Calibration:
    """The calibration as the owner clicks it on the lens's image (corners and the wall's ends
    where the lens shows them), with ``lens_k1``."""
    return Calibration(tuple(shown(p, k1) for p in cal.area),
                       tuple(shown(p, k1) for p in cal.back_wall), cal.die_px, lens_k1)


# ---------------------------------------------------------------------- the key
def test_lens_k1_round_trips_and_is_the_same_at_every_resolution(tmp_path):
    cal = replace(CAL, lens_k1=-0.137)
    path = tmp_path / "cal.toml"
    path.write_text(cal.to_toml())
    assert "lens_k1 = -0.137\n" in cal.to_toml()
    assert Calibration.load(path) == cal
    assert Calibration.from_mapping(cal.to_dict()) == cal
    assert cal.to_dict()["lens_k1"] == -0.137
    assert cal.scaled(0.5).lens_k1 == -0.137
    assert cal.scaled(0.5).scaled(2.0) == cal


def test_no_lens_k1_is_today_calibration_exactly():
    assert CAL.lens_k1 == 0.0
    assert "lens_k1" not in CAL.to_toml() and "lens_k1" not in CAL.to_dict()
    table = CAL.to_dict()
    assert Calibration.from_mapping({**table, "lens_k1": 0}) == CAL
    assert ThrowTracker(CAL)._lens is None


@pytest.mark.parametrize(
    "value, words",
    [
        ('"-0.1"', ["lens_k1 must be a number", "got '-0.1'", "tablectl calibrate"]),
        ("true", ["lens_k1 must be a number", "got True"]),
        ("nan", ["lens_k1 must be a number", "got nan"]),
        ("-0.9", ["lens_k1 = -0.9 is beyond", "-0.5 to 0.5", "tablectl calibrate", "lens"]),
        ("[-0.1]", ["lens_k1 must be a number"]),
    ],
)
def test_a_bad_lens_k1_says_what_is_wrong_and_what_to_do(tmp_path, value, words):
    path = tmp_path / "table.toml"
    path.write_text(CAL.to_toml() + f"lens_k1 = {value}\n")
    with pytest.raises(CalibrationError) as exc:
        Calibration.load(path)
    msg = str(exc.value)
    assert msg.startswith(str(path))
    for w in words:
        assert w in msg, msg


def test_a_point_the_lens_cannot_straighten_is_refused_with_the_reason():
    lens = Lens(-0.4)  # a barrel this strong shows nothing beyond ~0.61 half widths
    assert lens.raw_reach == pytest.approx(0.6086, abs=1e-3)
    with pytest.raises(CalibrationError, match="beyond the 0.61 that lens_k1 = -0.4"):
        lens.straight((5.0, 5.0), SIZE)
    tracker = ThrowTracker(Calibration(((5.0, 5.0), (600.0, 5.0), (320.0, 400.0)),
                                       ((5.0, 5.0), (600.0, 5.0)), 40, -0.4))
    with pytest.raises(CalibrationError):
        tracker.feed(0.0, background(0))


# ---------------------------------------------------------------------- the model
@pytest.mark.parametrize("k1", [-0.3, -0.15, -0.05, 0.1])
def test_points_go_to_the_straight_image_and_back(k1):
    lens = Lens(k1)
    for p in [(0.0, 0.0), (320.0, 240.0), (100.0, 50.0), (600.0, 400.0), (33.0, 470.0)]:
        rd = math.hypot(p[0] - 320.0, p[1] - 240.0) / 320.0
        if rd >= lens.raw_reach:  # a barrel shows nothing there
            with pytest.raises(CalibrationError, match="beyond"):
                lens.straight(p, SIZE)
            continue
        q = lens.straight(p, SIZE)
        back = lens.raw(q, SIZE)
        assert back == pytest.approx(p, abs=1e-6)
    assert lens.raw((320.0, 240.0), SIZE) == (320.0, 240.0)  # the centre stays


def test_the_straightened_frame_shows_what_the_lens_bent_where_it_was():
    """A grid of dots seen through the lens and straightened: each dot back where it was
    drawn (the full frame and a shrunk copy, as the tracker's work copy is)."""
    img = np.zeros((480, 640, 3), np.uint8)
    dots = [(x, y) for x in range(80, 600, 80) for y in range(60, 440, 80)]
    for x, y in dots:
        cv2.circle(img, (x, y), 4, (255, 255, 255), -1, cv2.LINE_AA)
    bent = through_lens(img, barrel_maps(K1, SIZE))
    lens = Lens(K1)
    for shrink in (1, 4):
        small = bent if shrink == 1 else cv2.resize(bent, (640 // shrink, 480 // shrink),
                                                    interpolation=cv2.INTER_AREA)
        flat = cv2.cvtColor(lens.straighten(small, SIZE, shrink), cv2.COLOR_BGR2GRAY)
        n, _, stats, cents = cv2.connectedComponentsWithStats((flat > 20).astype(np.uint8))
        found = cents[1:] * shrink + 0.5 * (shrink - 1)
        for x, y in dots:
            nearest = np.hypot(found[:, 0] - x, found[:, 1] - y).min()
            assert nearest < 0.35 * shrink + 0.3, (shrink, x, y, nearest)
        # and without straightening, the dots away from the centre are far from it
    gray = cv2.cvtColor(bent, cv2.COLOR_BGR2GRAY)
    n, _, _, cents = cv2.connectedComponentsWithStats((gray > 20).astype(np.uint8))
    assert np.hypot(cents[1:, 0] - 80, cents[1:, 1] - 60).min() > 20


# ---------------------------------------------------------------------- the tracker
def bottom_rail_throw():
    """One die rolled along the area's front line, coming to rest half a die inside it
    (the middle of the line: where a barrel bows it farthest from the straight line between
    the area's corners), the other off the back wall into the middle of the area."""
    dice = [SynthDie(180.0, 420.0, 320.0, 0.0, value=5, spin=300.0),
            SynthDie(420.0, 300.0, -60.0, -700.0, value=2, spin=350.0)]
    return throw(dice, seed=3)


def judge(frames, cal, dice):
    tracker = ThrowTracker(cal, reader=TruthReader(dice), annotate=False)
    out = [o for t, img in frames if (o := tracker.feed(t, img)) is not None]
    assert len(out) == 1
    return out[0]


def test_a_throw_through_a_wide_lens_is_misjudged_without_lens_k1_and_right_with_it():
    frames, dice = bottom_rail_throw()
    # the truth: both in the area all along, one off the wall
    assert not any(d.left_area for d in dice) and [d.hit_wall for d in dice] == [False, True]
    as_drawn = judge(frames, CAL, dice)
    assert all(d.at_rest_in_area and not d.left_area for d in as_drawn.dice)
    want = rule_throw(as_drawn).kind
    assert want in ("counts", "warning")

    maps = barrel_maps(K1, SIZE)
    bent = [(t, through_lens(img, maps)) for t, img in frames]
    without = judge(bent, cal_as_shown(CAL), dice)
    # the straight line between the corners cuts the bowed front line: the die is out
    assert any(not d.at_rest_in_area or d.left_area for d in without.dice)
    assert rule_throw(without).kind == "void"

    with_k1 = judge(bent, cal_as_shown(CAL, lens_k1=K1), dice)
    assert rule_throw(with_k1).kind == want
    assert all(d.at_rest_in_area and not d.left_area for d in with_k1.dice)
    assert sorted(d.value for d in with_k1.dice) == sorted(d.value for d in dice)
    # the dice's points are given on the camera's image, where the lens shows them
    for truth in dice:
        rest = shown((truth.x, truth.y))
        got = min(with_k1.dice, key=lambda d: math.dist(d.center, rest))
        assert math.dist(got.center, rest) < 2.5
        f, x, y = got.track[-1]
        assert math.dist((x, y), rest) < 3.0
        assert got.hit_wall == truth.hit_wall


def test_a_die_short_of_the_wall_through_a_wide_lens_is_not_taken_to_hit_it():
    """The barrel bows the wall's foot up at its middle, above the straight line between its
    ends: a die stopping a quarter die short of the wall there lies across that line."""
    dice = [SynthDie(330.0, 380.0, 0.0, -600.0, value=4, spin=300.0),
            SynthDie(200.0, 380.0, 40.0, -900.0, value=6, spin=400.0)]
    frames, truth = throw(dice, seed=5)
    assert [d.hit_wall for d in truth] == [False, True] and truth[0].y - 20 - WALL_Y > 8
    bent = [(t, through_lens(img, barrel_maps(K1, SIZE))) for t, img in frames]

    def short_die(obs):
        rest = shown((truth[0].x, truth[0].y))
        return min(obs.dice, key=lambda o: math.dist(o.center, rest))

    without = judge(bent, cal_as_shown(CAL), truth)
    assert short_die(without).hit_wall  # misjudged: across the straight wall line
    obs = judge(bent, cal_as_shown(CAL, lens_k1=K1), truth)
    for d in truth:
        rest = shown((d.x, d.y))
        got = min(obs.dice, key=lambda o: math.dist(o.center, rest))
        assert got.hit_wall == d.hit_wall
        assert got.at_rest_in_area and not got.left_area
    assert rule_throw(obs).kind == "warning"  # one die hit the wall (R-I3)


# ---------------------------------------------------------------------- measuring lens_k1
def lined_felt(k1: float) -> tuple[np.ndarray, Calibration]:
    """The synthetic felt with the area's lines painted white, as the lens ``k1`` shows it,
    and the calibration clicked on it (no lens_k1), with two dice lying on it."""
    img = background(7)
    (x0, y0), (x1, _), (_, y1) = CAL.area[0], CAL.area[1], CAL.area[2]
    for a, b in (((x0, y0 + 30), (x1, y0 + 30)), ((x1, y0 + 30), (x1, y1)),
                 ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0 + 30))):
        cv2.line(img, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), (230, 230, 230), 5,
                 cv2.LINE_AA)
    from tests.vision.tracker_synth import draw_die

    draw_die(img, SynthDie(300, 440, 0, 0, 3, angle=20))  # a die lying on the front line
    draw_die(img, SynthDie(250, 250, 0, 0, 6))
    corners = ((x0, y0 + 30), (x1, y0 + 30), (x1, y1), (x0, y1))
    cal = Calibration(tuple(shown(p, k1) for p in corners),
                      (shown(corners[0], k1), shown(corners[1], k1)), CAL.die_px)
    return through_lens(img, barrel_maps(k1, SIZE)) if k1 else img, cal


@pytest.mark.parametrize("k1", [0.0, -0.08, -0.15, -0.25])
def test_lens_k1_is_measured_from_the_felt_lines_on_a_frame(k1):
    frame, cal = lined_felt(k1)
    got, lines = measure_k1(frame, cal)
    assert got == pytest.approx(k1, abs=0.01)
    assert len(lines) == 4
    assert line_rms(lines, got, SIZE) < 0.6
    if k1 <= -0.15:
        assert line_rms(lines, 0.0, SIZE) > 2.0  # bowed as shot


def test_lens_k1_from_points_along_straight_edges():
    straight = [[(60.0 + 520 * t, 40.0 + 15 * t) for t in np.linspace(0, 1, 7)],
                [(610.0 - 20 * t, 30.0 + 420 * t) for t in np.linspace(0, 1, 5)],
                [(30.0 + 560 * t, 455.0) for t in np.linspace(0, 1, 4)]]
    for k1 in (-0.22, -0.1, 0.0, 0.12):
        shot = [[shown(p, k1) for p in line] for line in straight]
        assert fit_k1(shot, SIZE) == pytest.approx(k1, abs=1e-3)
    # a point clicked 6 px off its edge: the robust fit leaves it out
    shot = [[shown(p, -0.2) for p in line] for line in straight]
    shot[0][3] = (shot[0][3][0], shot[0][3][1] + 6.0)
    k1, kept = fit_k1_robust(shot, SIZE)
    assert k1 == pytest.approx(-0.2, abs=2e-3)
    assert len(kept[0]) == 6
    with pytest.raises(LensFitError, match="2 or more straight edges"):
        fit_k1(shot[:1], SIZE)
    with pytest.raises(LensFitError, match="3 or more points"):
        fit_k1([shot[0], shot[1][:2]], SIZE)
