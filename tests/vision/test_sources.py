"""Frame sources: files, folders, a webcam that fails, and the Pi camera's stand-in."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (
    CameraFault,
    CaptureSource,
    Frame,
    ImageFolderSource,
    Picamera2Source,
    SourceError,
    open_source,
)

FAKES = Path(__file__).resolve().parent.parent / "fakes"


def _frame(i: int, w: int = 64, h: int = 48) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[:, :, 1] = 100
    cv2.rectangle(img, (i * 4 % w, 5), (i * 4 % w + 6, 15), (255, 255, 255), -1)
    return img


@pytest.fixture
def picamera2(monkeypatch):
    """The stand-in picamera2 module, imported the way the real one is."""
    monkeypatch.syspath_prepend(str(FAKES))
    sys.modules.pop("picamera2", None)
    import picamera2

    picamera2.reset()
    yield picamera2
    sys.modules.pop("picamera2", None)


def test_video_file_frames_in_order_with_its_clock(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 50, (64, 48))
    for i in range(12):
        writer.write(_frame(i))
    writer.release()
    frames = list(CaptureSource(path))
    assert [f.index for f in frames] == list(range(12))
    assert frames[3].timestamp == pytest.approx(3 / 50)
    assert all(f.image.shape == (48, 64, 3) and f.image.dtype == np.uint8 for f in frames)
    # the white square moves: the frames are the clip's, not one repeated
    assert not np.array_equal(frames[0].image, frames[5].image)
    assert isinstance(open_source(path), CaptureSource)
    assert isinstance(open_source(tmp_path), CaptureSource)  # a folder holding one video


def test_missing_video_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="does not exist"):
        CaptureSource(tmp_path / "nope.avi")


def test_image_folder_and_pattern(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), _frame(i))
    (tmp_path / "notes.txt").write_text("not a frame")
    frames = list(ImageFolderSource(tmp_path, fps=100))
    assert [f.index for f in frames] == [0, 1, 2]
    assert frames[2].timestamp == pytest.approx(0.02)
    assert np.array_equal(frames[1].image, _frame(1))
    by_glob = list(open_source(str(tmp_path / "f00[12].png")))
    assert len(by_glob) == 2 and np.array_equal(by_glob[0].image, _frame(1))


def test_empty_folder_says_what_to_give(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        ImageFolderSource(tmp_path)
    with pytest.raises(SourceError, match="neither a camera"):
        open_source(str(tmp_path / "missing"))


class FlakyCapture:
    """Stands in for cv2.VideoCapture on a webcam that is unplugged after some frames."""

    opened = 0

    def __init__(self, target, good_frames=5, plugged=True):
        FlakyCapture.opened += 1
        self.good = good_frames
        self.plugged = plugged
        self.n = 0

    def isOpened(self):
        return self.plugged

    def set(self, prop, value):
        return True

    def get(self, prop):
        return 0.0

    def read(self):
        if self.n >= self.good:
            return False, None
        self.n += 1
        return True, _frame(self.n)

    def release(self):
        pass


def test_webcam_fault_then_reconnect_numbers_on_without_invented_frames():
    src = CaptureSource(0, capture_factory=FlakyCapture)
    got = []
    with pytest.raises(CameraFault, match="camera 0 stopped delivering frames after frame 4"):
        for f in src:
            got.append(f)
    assert [f.index for f in got] == [0, 1, 2, 3, 4]
    again = []
    with pytest.raises(CameraFault):
        for f in src:  # iterating again reconnects
            again.append(f)
    assert [f.index for f in again] == [5, 6, 7, 8, 9]
    assert all(b.timestamp >= a.timestamp for a, b in zip(got + again, (got + again)[1:], strict=False))


def test_webcam_absent_is_a_camera_fault():
    src = CaptureSource(3, capture_factory=lambda t: FlakyCapture(t, plugged=False))
    with pytest.raises(CameraFault, match="camera 3 cannot be opened"):
        next(iter(src))


def test_picamera2_settles_then_fixes_exposure_and_white_balance(picamera2):
    src = Picamera2Source(size=(64, 48), fps=120, settle_frames=20)
    picamera2.SCENE = lambda n, w, h: _frame(n, w, h)
    frames = []
    for f in src:
        frames.append(f)
        if len(frames) == 6:
            break
    cam = picamera2.INSTANCES[-1]
    assert cam.config["main"] == {"size": (64, 48), "format": "RGB888"}
    assert cam.config["controls"]["FrameRate"] == 120
    fixed = cam.control_log[-1]
    assert fixed["AeEnable"] is False and fixed["AwbEnable"] is False
    # the settled values, not the start-up ones
    assert fixed["ExposureTime"] == pytest.approx(12000, abs=5)
    assert fixed["ColourGains"] == pytest.approx((1.6, 1.5), abs=1e-3)
    assert [f.index for f in frames] == list(range(6))
    assert frames[1].timestamp - frames[0].timestamp == pytest.approx(picamera2.FRAME_NS / 1e9)
    assert frames[0].image.shape == (48, 64, 3)
    src.close()
    assert cam.closed


def test_picamera2_fault_and_reconnect(picamera2):
    picamera2.FAIL_AFTER = 25  # settle uses 20 captures, so 5 frames come through
    src = Picamera2Source(size=(32, 24), settle_frames=20)
    got: list[Frame] = []
    with pytest.raises(CameraFault, match="stopped delivering frames after frame 4"):
        for f in src:
            got.append(f)
    assert len(got) == 5 and picamera2.INSTANCES[-1].closed
    picamera2.FAIL_AFTER = None
    it = iter(src)
    resumed = [next(it) for _ in range(3)]
    assert len(picamera2.INSTANCES) == 2  # a new camera object: reconnected
    assert [f.index for f in resumed] == [5, 6, 7]
    src.close()


def test_picamera2_missing_camera(picamera2):
    picamera2.CAMERAS.clear()
    with pytest.raises(CameraFault, match="not found"):
        next(iter(Picamera2Source()))
    assert isinstance(open_source("picamera2:1"), Picamera2Source)


def test_picamera2_not_installed_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import picamera2 -> ImportError
    with pytest.raises(CameraFault, match="python3-picamera2"):
        next(iter(Picamera2Source()))


def test_source_from_the_camera_table(picamera2, tmp_path):
    from vision.sources import source_from_config

    src = source_from_config({"source": "picamera2", "size": [64, 48], "fps": 120,
                              "settle_frames": 3, "exposure_us": 8000})
    assert isinstance(src, Picamera2Source)
    next(iter(src))
    assert picamera2.INSTANCES[-1].control_log[-1]["ExposureTime"] == 8000
    src.close()
    with pytest.raises(SourceError, match="unknown keys"):
        source_from_config({"source": "0", "gain": 2})
    with pytest.raises(SourceError, match="width, height"):
        source_from_config({"source": "0", "size": [640]})


def test_simulator_source_runs_clips_on_one_clock():
    from tests.vision.tracker_synth import CAL
    from vision.simulator import SimClip
    from vision.sources import SimulatorSource

    clips = [
        SimClip([(i / 50, _frame(i)) for i in range(4)], CAL, {"fps": 50.0}),
        SimClip([(i / 50, _frame(10 + i)) for i in range(3)], CAL, {"fps": 50.0}),
    ]
    frames = list(SimulatorSource(clips))
    assert [f.index for f in frames] == list(range(7))
    steps = [b.timestamp - a.timestamp for a, b in zip(frames, frames[1:], strict=False)]
    assert steps == pytest.approx([0.02] * 6)
    assert np.array_equal(frames[4].image, _frame(10))
