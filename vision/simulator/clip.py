"""A simulated clip: its frames, calibration and ground truth; saving and loading them."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.calibration import Calibration

from .hand import HandPose
from .render import DiePose, Renderer

Frame = tuple[float, np.ndarray]


class RenderedFrames(Sequence):
    """The frames of a simulated clip, rendered when read (a clip at 1280x720 would otherwise
    hold hundreds of MB). Indexing and iteration give (timestamp_seconds, BGR uint8 frame);
    the same index always gives the same image.

    :param hands: per frame, the hand over the table (HandPose) or None; None: no hand ever.
    """

    def __init__(self, renderer: Renderer, poses: list[list[DiePose]], fps: float,
                 noise_index: list[int], hands: list[HandPose | None] | None = None):
        if hands is not None and len(hands) != len(poses):
            raise ValueError(f"{len(hands)} hand poses for {len(poses)} frames")
        self._renderer = renderer
        self._poses = poses
        self._hands = hands
        self._fps = float(fps)
        self._noise = noise_index
        self._cached: tuple[list[DiePose] | None, HandPose | None, np.ndarray] = (
            None, None, np.zeros(0))

    def __len__(self) -> int:
        return len(self._poses)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"frame {i} out of range 0..{len(self) - 1}")
        poses = self._poses[i]
        hand = self._hands[i] if self._hands is not None else None
        # frames with nothing moving share one pose list: draw the dice once (one tuple, so a
        # reader in another thread never pairs one frame's key with another's image)
        cached = self._cached
        if cached[0] is not poses or cached[1] is not hand:
            cached = self._cached = (poses, hand, self._renderer.clean(poses, hand))
        return i / self._fps, self._renderer.add_noise(cached[2].copy(), self._noise[i])

    def __iter__(self) -> Iterator[Frame]:
        for i in range(len(self)):
            yield self[i]


class SimClip:
    """A throw clip with the truth of what happened.

    :param frames: sequence of (timestamp_seconds, HxWx3 uint8 BGR frame).
    :param calibration: the table's Calibration in this clip's pixels.
    :param truth: {"dice": [{"value", "hit_wall", "left_area", "at_rest_in_area", "cocked",
        "rest_center", "colour", ...}], "throw_start_frame", "rest_frame", "fps", ...}.
    """

    def __init__(self, frames: Sequence[Frame], calibration: Calibration, truth: dict):
        self.frames = frames
        self.calibration = calibration
        self.truth = truth

    @property
    def fps(self) -> float:
        return float(self.truth.get("fps", 60.0))

    def __repr__(self) -> str:
        vals = [d["value"] for d in self.truth.get("dice", [])]
        return (f"SimClip({self.truth.get('scenario')}, seed={self.truth.get('seed')}, "
                f"{len(self.frames)} frames, dice={vals})")

    def save(self, directory: str | Path, fmt: str = "avi", quality: int = 90,
             codec: str = "MJPG") -> Path:
        """Write the clip into `directory` (created if needed): frames.avi, calibration.toml and
        truth.json.

        :param fmt: "avi" (one video file) or "png" (frames/NNNNNN.png, lossless).
        :param quality: JPEG quality of MJPG frames (1..100).
        :param codec: "MJPG" (every frame a JPEG: exact frame access, large files) or "mp4v"
            (MPEG-4 with inter-frame compression: about 20x smaller, for fixtures).
        """
        d = Path(directory)
        if fmt not in ("avi", "png"):
            raise ValueError(f"fmt must be 'avi' or 'png', got {fmt!r}")
        if codec not in ("MJPG", "mp4v"):
            raise ValueError(f"codec must be 'MJPG' or 'mp4v', got {codec!r}")
        d.mkdir(parents=True, exist_ok=True)
        if fmt == "avi":
            first = self.frames[0][1]
            h, w = first.shape[:2]
            path = d / "frames.avi"
            # OpenCV's own MJPEG writer honours the quality setting; FFmpeg's does not
            api = cv2.CAP_OPENCV_MJPEG if codec == "MJPG" else cv2.CAP_FFMPEG
            writer = cv2.VideoWriter(str(path), api, cv2.VideoWriter_fourcc(*codec), self.fps,
                                     (w, h))
            if not writer.isOpened():
                raise OSError(f"OpenCV cannot write {codec} video to {path}")
            if codec == "MJPG":
                writer.set(cv2.VIDEOWRITER_PROP_QUALITY, float(quality))
            for _, frame in self.frames:
                writer.write(frame)
            writer.release()
            cap = cv2.VideoCapture(str(path))
            n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
            cap.release()
            if n != len(self.frames):
                raise OSError(f"{path}: wrote {len(self.frames)} frames but OpenCV reads {n}")
        else:
            fdir = d / "frames"
            fdir.mkdir(exist_ok=True)
            for i, (_, frame) in enumerate(self.frames):
                cv2.imwrite(str(fdir / f"{i:06d}.png"), frame)
        (d / "calibration.toml").write_text(self.calibration.to_toml(), encoding="utf-8")
        truth = dict(self.truth)
        truth["n_frames"] = len(self.frames)
        truth["video"] = "frames.avi" if fmt == "avi" else "frames/"
        (d / "truth.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        return d

    @classmethod
    def load(cls, directory: str | Path) -> SimClip:
        """Read a clip written by :meth:`save` (frames decoded into memory)."""
        d = Path(directory)
        truth_path = d / "truth.json"
        if not truth_path.is_file():
            raise FileNotFoundError(f"{d} holds no truth.json: not a saved SimClip directory")
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        calibration = Calibration.load(d / "calibration.toml")
        fps = float(truth.get("fps", 60.0))
        images: list[np.ndarray] = []
        if (d / "frames.avi").is_file():
            cap = cv2.VideoCapture(str(d / "frames.avi"))
            while True:
                ok, frame = cap.read()
                if not ok:
                    break
                images.append(frame)
            cap.release()
        elif (d / "frames").is_dir():
            for p in sorted((d / "frames").glob("*.png")):
                images.append(cv2.imread(str(p), cv2.IMREAD_COLOR))
        else:
            raise FileNotFoundError(f"{d} has neither frames.avi nor frames/")
        if not images:
            raise OSError(f"could not decode any frame from {d}")
        return cls([(i / fps, im) for i, im in enumerate(images)], calibration, truth)
