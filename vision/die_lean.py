"""Whether a resting die leans (on the wall, on the other die), judged from its picture by a
small learned model (``vision/models/dice_lean.onnx``, made by ``tools/train_lean.py`` from the
throw simulator's rest frames) and run by OpenCV's ``cv2.dnn``.

The face classifier sees a tight crop turned square to the die; a lean shows around the die:
the side face it tips up (the face that was against the wall or the other die), a top face no
longer square. So this model sees more of the die's surroundings (``LEAN_SCALE`` die edges) and
keeps the camera's frame of reference: the crop is turned so that the back wall is up, since a
flat die seen by a camera tilted toward the wall shows its front faces below its top, and that
must not look like a lean.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
LEAN_MODEL = MODELS / "dice_lean.onnx"

# The model's input: a LEAN_PX x LEAN_PX colour crop whose side is LEAN_SCALE die edges,
# centred on the die's top face, the back wall up.
LEAN_PX = 48
LEAN_SCALE = 2.4


class LeanModelError(RuntimeError):
    """The lean model's file is missing or unreadable."""


def lean_crop(
    frame: np.ndarray,
    center: tuple[float, float],
    die_px: float,
    wall_dir: tuple[float, float] = (0.0, -1.0),
    px: int = LEAN_PX,
    scale: float = LEAN_SCALE,
) -> np.ndarray:
    """A ``px`` x ``px`` crop of ``scale`` die edges around ``center`` (image pixels), turned so
    that ``wall_dir`` (unit vector from the die toward the back wall, image coordinates) points
    up in the crop. Outside the frame the border is replicated."""
    dx, dy = wall_dir
    norm = math.hypot(dx, dy) or 1.0
    dx, dy = dx / norm, dy / norm
    s = scale * die_px / px
    # crop pixel (u, v) -> frame point centre + s * R (u - px/2, v - px/2), R (0, -1) = wall_dir
    a, b = -dy, dx
    half = px / 2.0
    cx, cy = center
    m = np.array(
        [
            [s * a, -s * b, cx - s * (a * half - b * half)],
            [s * b, s * a, cy - s * (b * half + a * half)],
        ],
        dtype=np.float64,
    )
    return cv2.warpAffine(
        frame, m, (px, px), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def read_model(path: Path, error: type[Exception], what: str, tool: str) -> tuple:
    """A model of the tracker's (``path``, ONNX) read by ``cv2.dnn``, and its card (the JSON
    file beside it; {} if there is none). A missing or unreadable file raises ``error`` naming
    ``what`` it is and how to restore it (``tool`` makes it anew)."""
    if not path.is_file():
        raise error(
            f"{what} {path} not found: restore it from the repository "
            f"(git checkout vision/models) or make it with {tool}"
        )
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise error(
            f"{what} {path} could not be read by OpenCV ({exc}): restore it from the "
            f"repository or make it anew with {tool}"
        ) from exc
    card_path = path.with_suffix(".json")
    return net, (json.loads(card_path.read_text()) if card_path.is_file() else {})


class LeanJudge:
    """The learned lean belief of resting dice.

    :param model: the ONNX file (default the shipped ``dice_lean.onnx``); its card
        (``dice_lean.json`` beside it, if present) gives the crop it was trained on.
    """

    def __init__(self, model: Path | str | None = None) -> None:
        path = Path(model) if model is not None else LEAN_MODEL
        self._net, card = read_model(path, LeanModelError, "lean model", "tools/train_lean.py")
        self.crop_px = int(card.get("crop_px", LEAN_PX))
        self.crop_scale = float(card.get("crop_scale", LEAN_SCALE))

    def beliefs(
        self,
        frame: np.ndarray,
        centers: list[tuple[float, float]],
        die_px: float,
        wall_dir: tuple[float, float] = (0.0, -1.0),
    ) -> list[float]:
        """For each top-face centre, the belief (0..1) that the die there leans."""
        if not centers:
            return []
        crops = [lean_crop(frame, c, die_px, wall_dir, self.crop_px, self.crop_scale)
                 for c in centers]
        # each crop and its mirror image (the wall stays up), the two logits averaged: one
        # view's belief in a slight lean swings with the camera's noise
        views = np.stack(crops + [c[:, ::-1] for c in crops]).astype(np.float32)
        blob = (views / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()
        self._net.setInput(blob)
        logits = self._net.forward().reshape(2, len(centers), -1)[:, :, 0].mean(axis=0)
        return [float(1.0 / (1.0 + math.exp(-float(z)))) for z in logits]
