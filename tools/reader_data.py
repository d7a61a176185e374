"""The labelled dice photos for training and scoring the dice reader (dev tool; numpy + cv2 only).

Labels are YOLO lines ``class cx cy w h`` (normalised; class = face value - 1). In ``nell-byler``
the box covers the whole die; in ``matteop65`` only the top face's pip pattern, so there a die's
edge is estimated from the pip boxes of the other faces in the same photo.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"
SETS = ("nell-byler", "matteop65")
SPLIT_FILE = ROOT / "vision" / "models" / "dice_split.json"
SPLIT_SEED = 2026
HELD_OUT, TUNE = 0.20, 0.10  # fractions of each set's images


@dataclass
class Die:
    value: int  # 1..6
    cx: float
    cy: float
    w: float  # label box, pixels
    h: float
    size: float  # estimated die edge, pixels


@dataclass
class Photo:
    path: Path
    set: str
    dice: list[Die]


def load_labels(path: Path, width: int, height: int, set_name: str) -> list[Die]:
    rows = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        c, cx, cy, w, h = (float(v) for v in line.split())
        rows.append((int(c) + 1, cx * width, cy * height, w * width, h * height))
    dice = []
    if set_name == "matteop65":
        # a one's "pip pattern" is a single pip: useless for size; other faces' patterns span
        # about 2/3 of the face
        spans = [max(w, h) for v, _, _, w, h in rows if v != 1]
        size = 1.55 * float(np.median(spans)) if spans else 62.0
        for v, cx, cy, w, h in rows:
            dice.append(Die(v, cx, cy, w, h, size))
    else:
        for v, cx, cy, w, h in rows:
            dice.append(Die(v, cx, cy, w, h, 0.88 * max(w, h)))
    return dice


def image_size(path: Path) -> tuple[int, int]:
    import cv2

    im = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_2)
    return im.shape[1] * 2, im.shape[0] * 2


def list_photos(set_name: str, photos: Path = PHOTOS) -> list[Photo]:
    import cv2

    out = []
    for jpg in sorted((photos / set_name).glob("*.jpg")):
        txt = jpg.with_suffix(".txt")
        if not txt.exists():
            continue
        h, w = cv2.imread(str(jpg)).shape[:2]
        out.append(Photo(jpg, set_name, load_labels(txt, w, h, set_name)))
    return out


def make_split(photos: Path = PHOTOS) -> dict:
    """Split each set BY IMAGE with a fixed seed into train / tune / held_out name lists."""
    split = {"seed": SPLIT_SEED, "sets": {}}
    rng = np.random.default_rng(SPLIT_SEED)
    for s in SETS:
        names = sorted(p.name for p in (photos / s).glob("*.jpg"))
        order = [names[i] for i in rng.permutation(len(names))]
        n_held, n_tune = round(HELD_OUT * len(names)), round(TUNE * len(names))
        split["sets"][s] = {
            "held_out": sorted(order[:n_held]),
            "tune": sorted(order[n_held : n_held + n_tune]),
            "train": sorted(order[n_held + n_tune :]),
        }
    return split


def load_split() -> dict:
    return json.loads(SPLIT_FILE.read_text())
