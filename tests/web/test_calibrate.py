"""Calibration from the phone: the tapped points checked, written into the TOML file (comments
and other tables kept), and drawn on the frame they were tapped on."""

from __future__ import annotations

import tomllib

import pytest

from vision.calibration import Calibration
from web import create_app
from web.calibrate import Calibrator, rewrite_calibration

from .conftest import PIN

TOML = """# the table
[camera]
source = "simulator"  # rendered throws

[calibration]
# where the table lies
area = [[1, 2], [3, 4], [5, 6]]  # the playing area
back_wall = [[0, 0], [9, 0]]
die_px = 40  # roughly

[rules]
min_players = 2
"""


def test_rewrite_keeps_comments_and_other_tables():
    new = rewrite_calibration(TOML, {"area": "[[10, 20], [30, 40], [50, 60], [70, 80]]",
                                     "back_wall": "[[5, 5], [95, 5]]", "die_px": "44"})
    data = tomllib.loads(new)
    assert data["calibration"] == {"area": [[10, 20], [30, 40], [50, 60], [70, 80]],
                                   "back_wall": [[5, 5], [95, 5]], "die_px": 44}
    assert data["camera"] == {"source": "simulator"} and data["rules"] == {"min_players": 2}
    assert "# the playing area" in new and "# where the table lies" in new and "# roughly" in new
    added = rewrite_calibration("[camera]\nsource = \"\"\n", {"area": "[[0, 0], [1, 0], [1, 1]]",
                                                             "back_wall": "[[0, 0], [1, 0]]",
                                                             "die_px": "3"})
    assert tomllib.loads(added)["calibration"]["die_px"] == 3


@pytest.fixture
def frame():
    from vision.simulator import simulate_throw

    clip = simulate_throw(seed=5, scenario="both_hit")
    return clip.frames[len(clip.frames) - 1][1], clip.calibration


def test_the_operator_calibrates_from_the_phone(table, state_dir, tmp_path, frame):
    image, truth = frame
    config = tmp_path / "table.toml"
    config.write_text(TOML)
    app = create_app(table, {"STATE_DIR": state_dir,
                             "CALIBRATOR": Calibrator(lambda: image, config)})
    c = app.test_client()
    token = c.post("/api/login", json={"pin": PIN}).json["csrf_token"]
    body = truth.to_dict()
    assert c.post("/api/calibration", json=body, headers={"X-CSRF-Token": token}).json == {
        "error": "take a fresh frame first"}
    r = c.get("/operator/calibrate/frame.png")
    assert r.status_code == 200 and r.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert c.get("/operator/calibrate").status_code == 200
    r = c.post("/api/calibration", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.json
    assert r.json["warnings"] == []  # the simulator's own calibration fits its frame
    written = Calibration.load(config)
    assert [c for p in written.area for c in p] == pytest.approx(
        [c for p in truth.area for c in p], abs=0.05)
    assert written.die_px == pytest.approx(truth.die_px, abs=0.05)
    assert tomllib.loads(config.read_text())["rules"] == {"min_players": 2}
    picture = c.get("/operator/calibrate/picture.png")
    assert picture.status_code == 200 and picture.data != c.get(
        "/operator/calibrate/frame.png").data
    before = config.read_text()
    bad = dict(body, area=[[1, 1], [2, 2]])
    r = c.post("/api/calibration", json=bad, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "3 or more points" in r.json["error"]
    off = dict(body, back_wall=[[-50, 10], [9000, 10]])
    assert c.post("/api/calibration", json=off, headers={"X-CSRF-Token": token}).status_code == 400
    assert config.read_text() == before  # a refused calibration writes nothing
    assert c.post("/api/calibration", json=body).status_code == 403  # no token


def test_no_calibration_screen_without_a_camera(operator):
    assert operator.post("/api/calibration", {"area": [], "back_wall": [], "die_px": 1}
                         ).status_code == 404
    assert operator.client.get("/operator/calibrate").status_code == 404


def test_the_phone_keeps_the_lens_k1_of_the_file_and_draws_with_it(tmp_path, frame):
    """A wide lens's barrel measured with `tablectl calibrate --lens` stays in the file when the
    operator taps new corners, and the picture shows the area bowed as the table will see it."""
    import cv2
    import numpy as np

    from vision.calibrate_view import draw_calibration

    image, truth = frame
    config = tmp_path / "table.toml"
    config.write_text(TOML.replace("die_px = 40  # roughly", "die_px = 40  # roughly\nlens_k1 = -0.1"))
    calibrator = Calibrator(lambda: image, config)
    calibrator.fresh_frame_png()
    calibrator.apply(truth.to_dict())
    written = Calibration.load(config)
    assert written.lens_k1 == -0.1
    picture = cv2.imdecode(np.frombuffer(calibrator.picture, np.uint8), cv2.IMREAD_COLOR)
    from dataclasses import replace

    bowed = draw_calibration(image, replace(written, lens_k1=-0.1))
    straight = draw_calibration(image, replace(written, lens_k1=0.0))
    assert np.array_equal(picture, bowed) and not np.array_equal(picture, straight)
