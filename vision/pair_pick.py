"""Which die of a close pair leans on the other, judged from one picture of both by a small
learned model (``vision/models/dice_pair.onnx``, made by ``tools/train_pair_pick.py`` from the
throw simulator's rest frames) and run by OpenCV's ``cv2.dnn``.

The lean model (``vision.die_lean``) judges each die from a crop around it alone, and a flat
die lying against a leaning one shows, within its crop, the leaning die's raised face beside
it: it is often believed to lean as much as the die that does (the pair cue then flags the
flat one). This model sees both dice in one crop laid along the pair's axis, the first die on
the left, so it compares them: whose top is tipped away, whose face lies between the tops.

It only picks: the pair cue has already found a pair one of whose dice may lean, and the throw
goes to the operator whichever die is marked. It never clears a flag.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.die_lean import read_model

MODELS = Path(__file__).resolve().parent / "models"
PAIR_MODEL = MODELS / "dice_pair.onnx"

# The model's input: a PAIR_W x PAIR_H colour crop, PAIR_EDGES die edges wide, centred between
# the two dice's top faces, the first die on the left, the side toward the back wall up.
PAIR_W = 80
PAIR_H = 48
PAIR_EDGES = 4.0


class PairModelError(RuntimeError):
    """The pair model's file is missing or unreadable."""


def pair_crop(
    frame: np.ndarray,
    first: tuple[float, float],
    second: tuple[float, float],
    die_px: float,
    wall_dir: tuple[float, float] = (0.0, -1.0),
    width: int = PAIR_W,
    height: int = PAIR_H,
    edges: float = PAIR_EDGES,
) -> np.ndarray:
    """A ``width`` x ``height`` crop, ``edges`` die edges wide, centred halfway between the top
    faces ``first`` and ``second`` (image pixels), turned so that ``first`` lies left of
    ``second`` on the crop's middle row and ``wall_dir`` (unit vector toward the back wall,
    image coordinates) points into the crop's upper half. The crop's mirror image (left to
    right) is the same pair taken the other way round. Outside the frame the border is
    replicated."""
    ax, ay = second[0] - first[0], second[1] - first[1]
    norm = math.hypot(ax, ay)
    ax, ay = (ax / norm, ay / norm) if norm > 1e-6 else (1.0, 0.0)
    # the crop's "up" is perpendicular to the axis, on the wall's side (a camera tilted toward
    # the wall shows a flat die's front faces below its top: they must fall on the same side)
    ux, uy = ay, -ax
    if ux * wall_dir[0] + uy * wall_dir[1] < 0:
        ux, uy = -ux, -uy
    s = edges * die_px / width
    cx, cy = (first[0] + second[0]) / 2.0, (first[1] + second[1]) / 2.0
    # about the middle pixel's centre, so that the pair taken the other way round is exactly
    # the mirror image
    hw, hh = (width - 1) / 2.0, (height - 1) / 2.0
    # crop (u, v) -> frame centre + s (u - hw) axis - s (v - hh) up
    m = np.array(
        [
            [s * ax, -s * ux, cx - s * (ax * hw - ux * hh)],
            [s * ay, -s * uy, cy - s * (ay * hw - uy * hh)],
        ],
        dtype=np.float64,
    )
    return cv2.warpAffine(
        frame, m, (width, height), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


class PairJudge:
    """The learned pick of the leaning die of a close pair.

    :param model: the ONNX file (default the shipped ``dice_pair.onnx``); its card
        (``dice_pair.json`` beside it, if present) gives the crop it was trained on.
    """

    def __init__(self, model: Path | str | None = None) -> None:
        path = Path(model) if model is not None else PAIR_MODEL
        self._net, card = read_model(path, PairModelError, "pair model",
                                     "tools/train_pair_pick.py")
        self.crop = (int(card.get("crop_w", PAIR_W)), int(card.get("crop_h", PAIR_H)),
                     float(card.get("crop_edges", PAIR_EDGES)))

    def first_leans(
        self,
        frame: np.ndarray,
        first: tuple[float, float],
        second: tuple[float, float],
        die_px: float,
        wall_dir: tuple[float, float] = (0.0, -1.0),
    ) -> float:
        """The belief (0..1) that the die whose top face is at ``first``, rather than the one
        at ``second``, is the one that leans. Antisymmetric by construction: the pair taken
        the other way round (the crop's mirror image) answers one minus this."""
        crop = pair_crop(frame, first, second, die_px, wall_dir, *self.crop)
        views = np.stack([crop, crop[:, ::-1]]).astype(np.float32)
        blob = (views / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()
        self._net.setInput(blob)
        z = self._net.forward().reshape(2, -1)[:, 0]
        logit = 0.5 * (float(z[0]) - float(z[1]))
        return 1.0 / (1.0 + math.exp(-logit))
