"""The owner's side of a wide lens: ``tablectl calibrate --lens`` / ``--lens-lines`` measure
``lens_k1``; ``tablectl replay`` with it judges a throw shot through the lens, its output as
designed (DESIGN.md), the dice's centres on the camera's image."""

from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest

from tablectl.cli import main
from tests.vision.test_lens import (
    CAL,
    K1,
    SIZE,
    barrel_maps,
    bottom_rail_throw,
    cal_as_shown,
    lined_felt,
    shown,
    through_lens,
)
from vision.calibration import Calibration

LENS_LINE = re.compile(r"^lens_k1 = (-?[0-9.]+) .*RMS from straight as shot", re.M)


def test_calibrate_lens_measures_lens_k1_on_the_frame(tmp_path, capsys):
    frame, cal = lined_felt(K1)
    image, toml, out = tmp_path / "frame.png", tmp_path / "table.toml", tmp_path / "pic.png"
    cv2.imwrite(str(image), frame)
    toml.write_text(cal.to_toml())
    code = main(["calibrate", "--image", str(image), "--calibration", str(toml), "--lens",
                 "--out", str(out)])
    printed = capsys.readouterr().out
    assert code in (0, 1)  # 1: a fit warning (no die-sized square to check die_px on, ...)
    k1 = float(LENS_LINE.search(printed).group(1))
    assert k1 == pytest.approx(K1, abs=0.01)
    # the picture: the area's front side drawn bowed as the lens shows it, on the felt's line
    pic = cv2.imread(str(out))
    mid = shown((320.0, 440.0))
    assert tuple(pic[int(round(mid[1])), int(round(mid[0]))]) == (0, 220, 255)


def test_calibrate_lens_lines_from_the_owner_points(tmp_path, capsys):
    frame, cal = lined_felt(0.0)
    image, toml = tmp_path / "frame.png", tmp_path / "table.toml"
    cv2.imwrite(str(image), frame)
    toml.write_text(cal.to_toml())
    lines = [[shown((60.0 + 520 * t, 70.0), -0.2) for t in np.linspace(0, 1, 5)],
             [shown((600.0, 90.0 + 350 * t), -0.2) for t in np.linspace(0, 1, 4)],
             [shown((40.0 + 560 * t, 440.0), -0.2) for t in np.linspace(0, 1, 3)]]
    points = tmp_path / "lines.toml"
    points.write_text("lines = " + json.dumps([[list(p) for p in line] for line in lines]))
    main(["calibrate", "--image", str(image), "--calibration", str(toml),
          "--lens-lines", str(points), "--out", str(tmp_path / "pic.png")])
    k1 = float(LENS_LINE.search(capsys.readouterr().out).group(1))
    assert k1 == pytest.approx(-0.2, abs=0.002)


def test_calibrate_lens_says_what_to_give_when_it_cannot_measure(tmp_path, capsys):
    image, toml = tmp_path / "frame.png", tmp_path / "table.toml"
    cv2.imwrite(str(image), np.full((480, 640, 3), 90, np.uint8))  # no line painted
    toml.write_text(CAL.to_toml())
    assert main(["calibrate", "--image", str(image), "--calibration", str(toml), "--lens"]) == 2
    err = capsys.readouterr().err
    assert "cannot measure lens_k1" in err and "--lens-lines" in err
    points = tmp_path / "lines.toml"
    points.write_text("lines = [[[1, 2], [3, 4], [5, 6]]]\n")
    assert main(["calibrate", "--image", str(image), "--calibration", str(toml),
                 "--lens-lines", str(points)]) == 2
    assert "2 or more straight edges" in capsys.readouterr().err
    points.write_text("lines = 3\n")
    assert main(["calibrate", "--image", str(image), "--calibration", str(toml),
                 "--lens-lines", str(points)]) == 2
    assert "lines = [[[x, y]" in capsys.readouterr().err


def test_a_bad_lens_k1_in_the_file_stops_replay_with_the_reason(tmp_path, capsys):
    folder = tmp_path / "throw"
    folder.mkdir()
    cv2.imwrite(str(folder / "f0000.png"), np.zeros((480, 640, 3), np.uint8))
    (folder / "calibration.toml").write_text(CAL.to_toml() + "lens_k1 = -2\n")
    assert main(["replay", str(folder), "--json", "--no-reader"]) == 2
    assert "lens_k1 = -2 is beyond" in capsys.readouterr().err


@pytest.mark.parametrize("with_key", [False, True])
def test_replay_through_a_wide_lens(tmp_path, capsys, with_key):
    frames, dice = bottom_rail_throw()
    maps = barrel_maps(K1, SIZE)
    folder = tmp_path / "throw"
    folder.mkdir()
    for k, (_, img) in enumerate(frames):
        cv2.imwrite(str(folder / f"f{k:04d}.png"), through_lens(img, maps))
    cal = cal_as_shown(CAL, lens_k1=K1 if with_key else 0.0)
    (folder / "calibration.toml").write_text(cal.to_toml())
    assert Calibration.load(folder / "calibration.toml").lens_k1 == cal.lens_k1
    assert main(["replay", str(folder), "--json", "--no-reader"]) == 0
    (rec,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # the designed shape, as without a lens
    assert set(rec) == {"throw", "start_frame", "rest_frame", "dice", "ruling"}
    assert all(set(d) == {"value", "cocked", "confidence", "hit_wall", "left_area",
                          "at_rest_in_area", "center"} for d in rec["dice"])
    front = min(rec["dice"], key=lambda d: abs(d["center"][1] - shown((dice[0].x, dice[0].y))[1]))
    if with_key:  # right: in the area all along; its centre where the camera shows it
        assert front["at_rest_in_area"] and not front["left_area"]
        assert np.hypot(*np.subtract(front["center"], shown((dice[0].x, dice[0].y)))) < 2.5
        assert rec["ruling"]["kind"] != "void"
    else:  # the straight line between the corners cuts the bowed front line
        assert front["left_area"] or not front["at_rest_in_area"]


def test_calibrate_lens_on_a_straight_lens_says_it_may_be_left_out(tmp_path, capsys):
    frame, cal = lined_felt(0.0)
    image, toml = tmp_path / "frame.png", tmp_path / "table.toml"
    cv2.imwrite(str(image), frame)
    toml.write_text(cal.to_toml())
    main(["calibrate", "--image", str(image), "--calibration", str(toml), "--lens",
          "--out", str(tmp_path / "pic.png")])
    printed = capsys.readouterr().out
    assert abs(float(LENS_LINE.search(printed).group(1))) < 0.01
    assert "lens_k1 may be left out" in printed and "lens_k1 = -0 " not in printed


def test_replay_refuses_a_corner_the_lens_k1_cannot_show(tmp_path, capsys):
    folder = tmp_path / "throw"
    folder.mkdir()
    cv2.imwrite(str(folder / "f0000.png"), np.zeros((480, 640, 3), np.uint8))
    cal = Calibration(((10.0, 10.0), (630.0, 10.0), (630.0, 470.0), (10.0, 470.0)),
                      ((10.0, 10.0), (630.0, 10.0)), 40, -0.4)  # shows nothing past 0.61
    (folder / "calibration.toml").write_text(cal.to_toml())
    assert main(["replay", str(folder), "--json", "--no-reader"]) == 2
    err = capsys.readouterr().err
    assert "the point (10, 10) of the 640x480 image" in err and "lens_k1 = -0.4" in err
