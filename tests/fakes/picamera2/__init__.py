"""A stand-in for the ``picamera2`` package (which only installs on a Raspberry Pi).

It mimics the part of picamera2's API that ``vision.sources.Picamera2Source`` uses:
``Picamera2(camera_num)``, ``global_camera_info()``, ``create_video_configuration(main=...,
controls=...)``, ``configure``, ``start``, ``set_controls``, ``capture_metadata``,
``capture_array``, ``capture_request`` (``make_array``, ``get_metadata``, ``release``), ``stop``,
``close``. Like the real camera with ``format="RGB888"``, arrays are HxWx3 uint8 in B, G, R order.

Auto exposure and white balance "converge" over the first frames while ``AeEnable``/``AwbEnable``
are on; once turned off, the values set with ``set_controls`` stay. Tests steer it through the
module attributes below (``SCENE``, ``FAIL_AFTER``, ``CAMERAS``) and inspect ``INSTANCES``.
"""

from __future__ import annotations

import numpy as np

#: cameras present (``global_camera_info()``); empty means none is connected
CAMERAS: list[dict] = [{"Model": "imx708", "Location": 2, "Num": 0}]
#: a function (frame number, width, height) -> HxWx3 uint8 BGR image; None: mid-grey
SCENE = None
#: raise like a camera that went away after this many captures (counted per instance)
FAIL_AFTER: int | None = None
#: every Picamera2 made, in order
INSTANCES: list[Picamera2] = []
#: frame period in nanoseconds for SensorTimestamp
FRAME_NS = 16_666_667


def reset() -> None:
    """Back to one working camera and no scene (call at the start of each test)."""
    global SCENE, FAIL_AFTER
    CAMERAS[:] = [{"Model": "imx708", "Location": 2, "Num": 0}]
    SCENE = None
    FAIL_AFTER = None
    INSTANCES.clear()


class _Request:
    def __init__(self, cam: Picamera2, array: np.ndarray, metadata: dict) -> None:
        self._cam = cam
        self._array = array
        self._metadata = metadata
        self.released = False

    def make_array(self, name: str = "main") -> np.ndarray:
        if name != "main":
            raise RuntimeError(f"stream {name!r} is not configured")
        return self._array

    def get_metadata(self) -> dict:
        return dict(self._metadata)

    def release(self) -> None:
        self.released = True


class Picamera2:
    """A camera that draws SCENE frames and reports metadata like libcamera's."""

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(CAMERAS)

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= len(CAMERAS):
            raise IndexError("list index out of range")  # what picamera2 raises with no camera
        self.camera_num = camera_num
        self.config: dict | None = None
        self.started = False
        self.closed = False
        self.controls: dict = {"AeEnable": True, "AwbEnable": True}
        self.control_log: list[dict] = []
        self.captures = 0
        self._exposure = 30000.0
        self._gain = 4.0
        self._colour = (1.2, 1.9)
        INSTANCES.append(self)

    def create_video_configuration(self, main=None, lores=None, raw=None, controls=None, **kw):
        main = dict(main or {})
        main.setdefault("size", (1280, 720))
        main.setdefault("format", "XBGR8888")
        return {"use_case": "video", "main": main, "controls": dict(controls or {}), **kw}

    def configure(self, config: dict) -> None:
        if self.started:
            raise RuntimeError("Camera must be stopped before configuring")
        self.config = config
        self.controls.update(config.get("controls", {}))

    def start(self) -> None:
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        if self.closed:
            raise RuntimeError("Camera is closed")
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.started = False
        self.closed = True

    def set_controls(self, controls: dict) -> None:
        self.control_log.append(dict(controls))
        self.controls.update(controls)

    def _advance(self) -> dict:
        if not self.started:
            raise RuntimeError("Camera is not running")
        if FAIL_AFTER is not None and self.captures >= FAIL_AFTER:
            raise RuntimeError("Camera frontend has timed out!")
        self.captures += 1
        # auto algorithms settle toward a target, as on the real camera
        if self.controls.get("AeEnable", True):
            self._exposure += (12000.0 - self._exposure) * 0.5
            self._gain += (2.0 - self._gain) * 0.5
        else:
            self._exposure = float(self.controls.get("ExposureTime", self._exposure))
            self._gain = float(self.controls.get("AnalogueGain", self._gain))
        if self.controls.get("AwbEnable", True):
            r, b = self._colour
            self._colour = (r + (1.6 - r) * 0.5, b + (1.5 - b) * 0.5)
        else:
            self._colour = tuple(self.controls.get("ColourGains", self._colour))
        return {
            "SensorTimestamp": 1_000_000_000 + self.captures * FRAME_NS,
            "ExposureTime": int(self._exposure),
            "AnalogueGain": self._gain,
            "ColourGains": self._colour,
            "FrameDuration": FRAME_NS // 1000,
        }

    def _array(self) -> np.ndarray:
        w, h = self.config["main"]["size"]
        if SCENE is not None:
            return SCENE(self.captures, w, h)
        return np.full((h, w, 3), 128, np.uint8)

    def capture_metadata(self) -> dict:
        return self._advance()

    def capture_array(self, name: str = "main") -> np.ndarray:
        self._advance()
        return self._array()

    def capture_request(self) -> _Request:
        md = self._advance()
        return _Request(self, self._array(), md)
