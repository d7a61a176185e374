"""Calibration: the [calibration] table, its picture and the fit warnings of `tablectl calibrate`."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from tablectl.cli import main
from tests.vision.tracker_synth import CAL, SynthDie, background, draw_die
from vision.calibrate_view import WALL_COLOUR, draw_calibration, fit_warnings, seen_die_sizes
from vision.calibration import Calibration, CalibrationError


def frame_with_dice(die_px_scale: float = 1.0) -> np.ndarray:
    img = background(1)
    for x, y, v, a in ((200, 250, 5, 10.0), (420, 180, 2, 35.0)):
        draw_die(img, SynthDie(x, y, 0, 0, v, angle=a))
    return img


def test_round_trip_and_scaling(tmp_path):
    path = tmp_path / "cal.toml"
    path.write_text("# table\n" + CAL.to_toml())
    assert Calibration.load(path) == CAL
    half = CAL.scaled(0.5)
    assert half.die_px == 20 and half.back_wall[1] == (300.0, 30.0)
    assert half.scaled(2.0) == CAL
    assert Calibration.from_mapping(CAL.to_dict()) == CAL
    with pytest.raises(CalibrationError):
        CAL.scaled(0)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[camera]\nfps = 60\n", "no [calibration]"),
        ("[calibration]\narea = [[0, 0], [1, 1]]\nback_wall = [[0, 0], [1, 0]]\ndie_px = 4\n",
         "3 or more"),
        ("[calibration]\narea = [[0, 0], [9, 0], [9, 9]]\nback_wall = [[0, 0], [9, 0]]\n",
         "die_px"),
        ("[calibration\n", "not valid TOML"),
    ],
)
def test_bad_files_say_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=message.replace("[", r"\[")):
        Calibration.load(path)


def test_a_fitting_calibration_has_no_warnings():
    img = frame_with_dice()
    sizes = seen_die_sizes(img, CAL)
    assert len(sizes) == 2 and all(36 <= s <= 44 for s in sizes)
    assert fit_warnings(img, CAL) == []


def test_warnings_for_a_calibration_that_does_not_fit():
    img = frame_with_dice()
    small = Calibration(CAL.area, CAL.back_wall, 22)
    (w,) = fit_warnings(img, small)
    assert "die_px 22 matches nothing seen" in w
    seen = [int(n) for n in re.findall(r"\b(\d+)\b", w.split("measure")[1])]
    assert seen and all(38 <= n <= 44 for n in seen)
    off = Calibration(CAL.area, ((40.0, 60.0), (700.0, 60.0)), CAL.die_px)
    assert any("back wall point [700.0, 60.0] lies outside" in w for w in fit_warnings(img, off))
    far = Calibration(CAL.area, ((40.0, 300.0), (40.0, 400.0)), CAL.die_px)
    assert fit_warnings(img, far) == []  # along the area's left edge: a side wall is allowed
    lower = ((40.0, 200.0), (600.0, 200.0), (600.0, 440.0), (40.0, 440.0))
    away = Calibration(lower, CAL.back_wall, CAL.die_px)  # the wall 140 px beyond the area
    assert any("from the area" in w for w in fit_warnings(img, away))
    assert any("no die-like square" in w for w in fit_warnings(background(1), CAL))


def test_picture_shows_the_wall_and_area():
    img = frame_with_dice()
    pic = draw_calibration(img, CAL)
    assert pic.shape == img.shape and not np.array_equal(pic, img)
    assert tuple(int(c) for c in pic[60, 150]) == WALL_COLOUR  # on the wall line
    assert np.array_equal(pic[300, 320], img[300, 320])  # the felt elsewhere untouched


def test_calibrate_command(tmp_path, capsys):
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), frame_with_dice())
    good = tmp_path / "table.toml"
    good.write_text(CAL.to_toml())
    assert main(["calibrate", "--image", str(frame), "--calibration", str(good)]) == 0
    assert (tmp_path / "frame.calibration.png").is_file()
    said = capsys.readouterr().out
    assert "fits" in said and "camera: about 0 degrees from straight down" in said
    steep = tmp_path / "steep.toml"
    steep.write_text(Calibration(((250, 60), (390, 60), (630, 470), (10, 470)),
                                 ((250, 60), (390, 60)), CAL.die_px).to_toml())
    assert main(["calibrate", "--image", str(frame), "--calibration", str(steep),
                 "--out", str(tmp_path / "steep.png")]) == 1
    err = capsys.readouterr().err
    assert "degrees off straight down" in err and "tilt it under 20 degrees" in err
    bad = tmp_path / "bad.toml"
    bad.write_text(Calibration(CAL.area, CAL.back_wall, 90).to_toml())
    out = tmp_path / "pic.png"
    assert main(["calibrate", "--image", str(frame), "--calibration", str(bad),
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "warning: die_px 90 matches nothing seen" in err and out.is_file()
    assert main(["calibrate", "--image", str(tmp_path / "none.png"),
                 "--calibration", str(good)]) == 2
    err = capsys.readouterr().err
    assert "none.png: no such file" in err and "WARN" not in err  # not OpenCV's own line
    (tmp_path / "text.png").write_text("not a picture")
    assert main(["calibrate", "--image", str(tmp_path / "text.png"),
                 "--calibration", str(good)]) == 2
    assert "text.png is not a readable image" in capsys.readouterr().err


@pytest.mark.parametrize("seed", [1, 17, 18])
def test_the_simulators_rest_frame_fits_its_own_calibration(seed):
    """Black dice on a green felt (1), two red dice touching (17), black dice on a dark blue felt
    (18): each die is seen, and the calibration the simulator drew them with fits."""
    from vision.simulator import simulate_throw

    clip = simulate_throw(seed=seed)
    rest = clip.frames[-1][1]
    sizes = seen_die_sizes(rest, clip.calibration)
    assert len(sizes) == 2, sizes
    assert fit_warnings(rest, clip.calibration) == []


def test_the_other_renderers_rest_frame_fits_its_calibration():
    """A camera not straight above (the second renderer's clips): a die shows some of its sides
    and the rim of its shadow, and still matches die_px."""
    from pathlib import Path

    clips = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "throw-clips"
    if not (clips / "clip_007.mp4").exists():
        pytest.skip("the second renderer's clips are not here (../shared/data/throw-clips)")
    capture = cv2.VideoCapture(str(clips / "clip_007.mp4"))
    rest = None
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        rest = frame
    cal = Calibration.load(clips / "clip_007_calibration.toml")
    assert len(seen_die_sizes(rest, cal)) == 2
    assert fit_warnings(rest, cal) == []
