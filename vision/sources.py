"""Frame sources: where the tracker's frames come from, behind one small interface.

Every source is iterable and yields :class:`Frame` ``(index, timestamp, image)`` with ``image`` a
HxWx3 uint8 BGR array and ``timestamp`` in seconds. A live camera that fails or disappears raises
:class:`CameraFault` (the table stops and shows the message); iterating the source again
reconnects and resumes, numbering on from the last frame: no frame is ever invented to fill a gap
(the tracker drops a throw that spans one).

* :class:`Picamera2Source`: the Raspberry Pi camera (picamera2 is imported only here), with
  exposure and white balance fixed once auto exposure has settled, since auto exposure drifting
  while dice fly would look like motion.
* :class:`CaptureSource`: an OpenCV device index (a USB webcam) or a video file.
* :class:`ImageFolderSource`: a folder of images or a glob pattern, in name order.
* :class:`SimulatorSource`: clips from ``vision.simulator``.

:func:`open_source` picks one from a command-line string.
"""

from __future__ import annotations

import glob
import importlib
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_SUFFIXES = {".avi", ".mp4", ".mkv", ".mov", ".m4v", ".webm", ".mjpg", ".mjpeg"}


class Frame(NamedTuple):
    """One camera frame: ``index`` counts from 0, ``timestamp`` in seconds, ``image`` BGR."""

    index: int
    timestamp: float
    image: np.ndarray


class CameraFault(RuntimeError):
    """The camera failed or went away; the message says which camera and what to check."""


class SourceError(ValueError):
    """A source that cannot be opened as given (a missing file, an empty folder...)."""


class FrameSource(Protocol):
    """Anything that yields frames; ``close()`` frees the device."""

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class _Closing:
    def close(self) -> None:  # pragma: no cover - overridden where there is something to free
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _check_bgr(image: Any, what: str) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] not in (3, 4):
        shape = getattr(image, "shape", None)
        raise CameraFault(f"{what} delivered a frame that is not a colour image (shape {shape})")
    if image.shape[2] == 4:  # XBGR8888 / BGRA: drop the padding byte
        image = np.ascontiguousarray(image[:, :, :3])
    return image


# --------------------------------------------------------------------------- Raspberry Pi camera
class Picamera2Source(_Closing):
    """The Raspberry Pi camera through picamera2.

    :param camera_num: which camera (0 = the first).
    :param size: frame (width, height) in pixels.
    :param fps: frame rate asked of the sensor (up to 120 on a Pi 5 with a camera module 3).
    :param settle_frames: frames to let auto exposure and white balance settle before fixing them.
    :param exposure_us: a fixed exposure time in microseconds instead of the settled one.
    :param module: the picamera2 module to use (default: ``import picamera2``).
    """

    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = (1280, 720),
        fps: float = 60.0,
        settle_frames: int = 30,
        exposure_us: int | None = None,
        module: Any = None,
    ) -> None:
        self.camera_num = camera_num
        self.size = (int(size[0]), int(size[1]))
        self.fps = float(fps)
        self.settle_frames = settle_frames
        self.exposure_us = exposure_us
        self._module = module
        self._cam: Any = None
        self._next_index = 0
        self.fixed_controls: dict | None = None
        self._t0_ns: int | None = None

    def _import(self):
        if self._module is None:
            try:
                self._module = importlib.import_module("picamera2")
            except ImportError as exc:
                raise CameraFault(
                    "picamera2 is not installed: on the Raspberry Pi run "
                    "`sudo apt install python3-picamera2` and create the venv with "
                    "--system-site-packages; elsewhere use a webcam index or a video file"
                ) from exc
        return self._module

    def open(self) -> None:
        """Start the camera, let auto exposure settle, then fix exposure and white balance."""
        self.close()
        mod = self._import()
        name = f"Raspberry Pi camera {self.camera_num}"
        try:
            cam = mod.Picamera2(self.camera_num)
        except (IndexError, RuntimeError, OSError) as exc:
            raise CameraFault(
                f"{name} not found ({exc}): check the ribbon cable and that "
                "`rpicam-hello --list-cameras` lists it"
            ) from exc
        try:
            # RGB888 gives B, G, R byte order: what OpenCV calls BGR.
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameRate": self.fps},
            )
            cam.configure(config)
            cam.start()
            md: dict = {}
            for _ in range(max(1, self.settle_frames)):
                md = cam.capture_metadata()
            fixed = {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": int(self.exposure_us or md.get("ExposureTime", 10000)),
                "AnalogueGain": float(md.get("AnalogueGain", 1.0)),
            }
            if "ColourGains" in md:
                fixed["ColourGains"] = tuple(float(g) for g in md["ColourGains"])
            cam.set_controls(fixed)
        except (RuntimeError, OSError) as exc:
            try:
                cam.close()
            except Exception:  # noqa: BLE001 - the fault below is what matters
                pass
            raise CameraFault(f"{name} failed to start: {exc}") from exc
        self.fixed_controls = fixed
        self._cam = cam

    def __iter__(self) -> Iterator[Frame]:
        if self._cam is None:
            self.open()
        name = f"Raspberry Pi camera {self.camera_num}"
        while True:
            try:
                req = self._cam.capture_request()
                try:
                    image = req.make_array("main")
                    md = req.get_metadata()
                finally:
                    req.release()
            except (RuntimeError, OSError, TimeoutError) as exc:
                self.close()
                raise CameraFault(
                    f"{name} stopped delivering frames after frame {self._next_index - 1} "
                    f"({exc}): check the cable and the power supply; iterate again to reconnect"
                ) from exc
            image = _check_bgr(image, name)
            ts_ns = md.get("SensorTimestamp")
            if ts_ns is None:
                t = time.monotonic()
            else:
                if self._t0_ns is None:
                    self._t0_ns = int(ts_ns)
                t = (int(ts_ns) - self._t0_ns) / 1e9
            frame = Frame(self._next_index, t, image)
            self._next_index += 1
            yield frame

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            except Exception:  # noqa: BLE001 - a dead camera may refuse even to stop
                pass
            try:
                cam.close()
            except Exception:  # noqa: BLE001
                pass


# --------------------------------------------------------------------------- OpenCV capture
class CaptureSource(_Closing):
    """An OpenCV ``VideoCapture``: a device index (webcam) or a video file.

    :param target: a device index (int, or a string of digits) or a video file path.
    :param size: ask a device for this (width, height); ignored for files.
    :param fps: ask a device for this rate; for a file whose header has no rate, its rate.
    :param capture_factory: builds the capture (default ``cv2.VideoCapture``).
    """

    def __init__(
        self,
        target: int | str | Path,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
        capture_factory: Callable[..., Any] | None = None,
    ) -> None:
        if isinstance(target, str) and target.isdigit():
            target = int(target)
        self.target = target
        self.is_device = isinstance(target, int)
        if not self.is_device:
            path = Path(target)
            if not path.is_file():
                raise SourceError(f"video file {path} does not exist")
            self.target = str(path)
        self.size = size
        self.fps = fps
        self._factory = capture_factory
        self._cap: Any = None
        self._next_index = 0
        self._t0: float | None = None
        self._file_fps: float | None = None

    @property
    def name(self) -> str:
        return f"camera {self.target}" if self.is_device else f"video {self.target}"

    def open(self) -> None:
        import cv2

        self.close()
        factory = self._factory or cv2.VideoCapture
        cap = factory(self.target)
        if not cap.isOpened():
            cap.release()
            if self.is_device:
                raise CameraFault(
                    f"{self.name} cannot be opened: check it is plugged in and that no other "
                    "program uses it (`v4l2-ctl --list-devices`)"
                )
            raise SourceError(f"{self.name} cannot be decoded by OpenCV (codec or damaged file)")
        if self.is_device:
            if self.size:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            if self.fps:
                cap.set(cv2.CAP_PROP_FPS, self.fps)
            # Fixed exposure where the driver allows it (V4L2: 1 = manual); a drifting auto
            # exposure looks like motion to the tracker.
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        else:
            rate = cap.get(cv2.CAP_PROP_FPS) or 0.0
            self._file_fps = rate if rate > 0 else (self.fps or 30.0)
        self._cap = cap

    def __iter__(self) -> Iterator[Frame]:
        if self._cap is None:
            self.open()
        while True:
            ok, image = self._cap.read()
            if not ok or image is None:
                if not self.is_device:
                    return  # the end of the video
                self.close()
                raise CameraFault(
                    f"{self.name} stopped delivering frames after frame {self._next_index - 1}: "
                    "check the USB cable; iterate again to reconnect"
                )
            if self.is_device:
                now = time.monotonic()
                if self._t0 is None:
                    self._t0 = now
                t = now - self._t0
            else:
                t = self._next_index / self._file_fps
            image = _check_bgr(image, self.name)
            frame = Frame(self._next_index, t, image)
            self._next_index += 1
            yield frame

    def close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


# --------------------------------------------------------------------------- still images
class ImageFolderSource(_Closing):
    """The images of a folder (or matching a glob pattern), in name order.

    :param target: a folder, or a pattern like ``frames/*.png``.
    :param fps: the rate the images were taken at (timestamps are index / fps).
    """

    def __init__(self, target: str | Path, fps: float = 60.0) -> None:
        target = str(target)
        p = Path(target)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
        else:
            files = sorted(Path(f) for f in glob.glob(target) if Path(f).is_file())
        if not files:
            raise SourceError(
                f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) found at {target}: "
                "give a folder of frames or a pattern like 'frames/*.png'"
            )
        if not fps > 0:
            raise SourceError(f"fps must be positive, got {fps}")
        self.files = files
        self.fps = float(fps)

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        for i, f in enumerate(self.files):
            image = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if image is None:
                raise SourceError(f"{f} is not a readable image")
            yield Frame(i, i / self.fps, image)


# --------------------------------------------------------------------------- simulator
class SimulatorSource(_Closing):
    """Frames of simulated throws, one clip after another on one clock.

    :param clips: ``vision.simulator.SimClip`` objects (or one).
    """

    def __init__(self, clips: Any) -> None:
        if hasattr(clips, "frames"):
            clips = [clips]
        self.clips = list(clips)

    @classmethod
    def generate(
        cls,
        seeds: Iterable[int],
        scenario: Any = None,
        size: tuple[int, int] = (640, 480),
        fps: float = 60.0,
    ) -> SimulatorSource:
        """Simulate a throw per seed (``scenario`` None: the simulator's random mix)."""
        from vision.simulator import simulate_throw

        kw = {} if scenario is None else {"scenario": scenario}
        return cls([simulate_throw(seed=s, size=size, fps=fps, **kw) for s in seeds])

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        offset = 0.0
        for clip in self.clips:
            last = offset
            first = None
            for t, image in clip.frames:
                if first is None:
                    first = t
                last = offset + (t - first)
                yield Frame(index, last, image)
                index += 1
            offset = last + 1.0 / float(getattr(clip, "fps", 60.0) or 60.0)


# --------------------------------------------------------------------------- choosing one
def open_source(spec: str | int | Path, fps: float = 60.0) -> FrameSource:
    """A source from a command-line string.

    ``picamera2`` or ``picamera2:N`` -> Raspberry Pi camera N; digits -> an OpenCV device;
    a video file -> its frames; a folder holding one video (a saved simulator clip: frames.avi)
    -> that video; a folder of images or a glob pattern -> the images.
    """
    s = str(spec)
    if s.startswith("picamera2"):
        num = int(s.split(":", 1)[1]) if ":" in s else 0
        return Picamera2Source(camera_num=num, fps=fps)
    if s.isdigit():
        return CaptureSource(int(s), fps=fps)
    p = Path(s)
    if p.is_file():
        if p.suffix.lower() in IMAGE_SUFFIXES:
            return ImageFolderSource(s, fps=fps)
        return CaptureSource(p, fps=fps)
    if p.is_dir():
        videos = sorted(f for f in p.iterdir() if f.suffix.lower() in VIDEO_SUFFIXES)
        images = [f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES]
        if videos and not images:
            if len(videos) > 1:
                raise SourceError(f"{p} holds {len(videos)} videos: name the one to use")
            return CaptureSource(videos[0], fps=fps)
        if not images and (p / "frames").is_dir():  # a saved simulator clip in PNG frames
            return ImageFolderSource(p / "frames", fps=fps)
        return ImageFolderSource(p, fps=fps)
    if any(c in s for c in "*?["):
        return ImageFolderSource(s, fps=fps)
    raise SourceError(
        f"{s} is neither a camera (picamera2, picamera2:N, a device number), a video file, "
        "a folder of frames nor an image pattern"
    )


def source_from_config(camera: dict) -> FrameSource:
    """A source from the ``[camera]`` table of table.toml.

    Keys: ``source`` ("picamera2", "picamera2:N", a device number, a video file or a folder),
    ``size`` [w, h], ``fps``, ``settle_frames``, ``exposure_us`` (0: keep what auto exposure
    settled on).
    """
    camera = dict(camera or {})
    known = {"source", "size", "fps", "settle_frames", "exposure_us"}
    unknown = sorted(set(camera) - known)
    if unknown:
        raise SourceError(f"[camera] has unknown keys {unknown}; known: {sorted(known)}")
    spec = str(camera.get("source", "picamera2"))
    fps = float(camera.get("fps", 60.0))
    size = camera.get("size")
    if size is not None:
        if len(size) != 2 or not all(int(v) > 0 for v in size):
            raise SourceError(f"[camera] size must be [width, height] in pixels, got {size!r}")
        size = (int(size[0]), int(size[1]))
    if spec.startswith("picamera2"):
        num = int(spec.split(":", 1)[1]) if ":" in spec else 0
        exposure = int(camera.get("exposure_us", 0)) or None
        return Picamera2Source(
            camera_num=num,
            size=size or (1280, 720),
            fps=fps,
            settle_frames=int(camera.get("settle_frames", 30)),
            exposure_us=exposure,
        )
    if spec.isdigit():
        return CaptureSource(int(spec), size=size, fps=fps)
    return open_source(spec, fps=fps)
