"""The labelled dice photos for training and scoring the dice reader (dev tool; numpy + cv2 only).

Labels are YOLO lines ``class cx cy w h`` (normalised; class = face value - 1). In ``nell-byler``
the box covers the whole die; in ``matteop65`` only the top face's pip pattern, so there a die's
edge is estimated from the pip boxes of the other faces in the same photo.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"
SETS = ("nell-byler", "matteop65")
SPLIT_FILE = ROOT / "vision" / "models" / "dice_split.json"
SPLIT_SEED = 2026
HELD_OUT, TUNE = 0.20, 0.10  # fractions of each set's images
LABEL_FIXES_FILE = ROOT / "tools" / "label_fixes.json"
_label_fixes: dict | None = None


def label_fixes() -> dict[str, list[dict]]:
    """The wrong labels of the dev photos (``tools/label_fixes.json``), by "set/photo.jpg"."""
    global _label_fixes
    if _label_fixes is None:
        _label_fixes = {}
        for fix in json.loads(LABEL_FIXES_FILE.read_text())["fixes"]:
            _label_fixes.setdefault(fix["photo"], []).append(fix)
    return _label_fixes


def fix_labels(path: Path, rows: list[tuple]) -> list[tuple]:
    """``rows`` (value, cx, cy, ...: pixels) read from the label file ``path``, with the values
    ``tools/label_fixes.json`` corrects for that photo. ValueError when a fix finds no row of
    its old value within 3 px of its place (the label file is not the one it was written for)."""
    fixes = label_fixes().get(f"{path.parent.name}/{path.stem}.jpg", [])
    rows = list(rows)
    for fix in fixes:
        near = [i for i, (v, cx, cy, *_) in enumerate(rows) if v == fix["label"]
                and abs(cx - fix["near"][0]) < 3 and abs(cy - fix["near"][1]) < 3]
        if len(near) != 1:
            raise ValueError(f"{LABEL_FIXES_FILE}: the fix of {fix['photo']} at {fix['near']} finds "
                             f"{len(near)} dice labelled {fix['label']} there in {path}; mend or "
                             "drop the fix")
        v, *rest = rows[near[0]]
        rows[near[0]] = (int(fix["shows"]), *rest)
    return rows


@dataclass
class Die:
    value: int  # 1..6
    cx: float
    cy: float
    w: float  # label box, pixels
    h: float
    size: float  # estimated die edge, pixels
    kind: str = ""  # its kind of dice (``die_kinds``), once the split's kinds are attached


@dataclass
class Photo:
    path: Path
    set: str
    dice: list[Die]
    # dice of a kind left out of training: neither trained on nor taken for background
    hidden: list[Die] = field(default_factory=list)


def load_labels(path: Path, width: int, height: int, set_name: str) -> list[Die]:
    rows = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        c, cx, cy, w, h = (float(v) for v in line.split())
        rows.append((int(c) + 1, cx * width, cy * height, w * width, h * height))
    rows = fix_labels(path, rows)
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


# nell-byler's dice fall into this many kinds by body colour; matteop65 (white dice) is one
N_KINDS = 9


def body_colour(frame: np.ndarray, cx: float, cy: float, size: float) -> np.ndarray:
    """A die's body colour (Lab, OpenCV's 8-bit scale): the median of the pixels within 0.35
    edges of its centre whose lightness is near the median (the pips are the fewer)."""
    import cv2

    k = max(2, int(0.35 * size))
    x, y = int(cx), int(cy)
    lab = cv2.cvtColor(frame[max(0, y - k):y + k + 1, max(0, x - k):x + k + 1],
                       cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    light = lab[:, 0]
    return np.median(lab[np.abs(light - np.median(light)) <= 20], axis=0)


def kinds_of(colours: np.ndarray, k: int, seed: int = 2026) -> np.ndarray:
    """A kind 0..k-1 per die: k-means on (L/2, a, b), best of 10 seeded starts."""
    x = colours * np.array([0.5, 1.0, 1.0], np.float32)
    rng = np.random.default_rng(seed)
    best, best_cost = None, np.inf
    for _ in range(10):
        c = x[rng.choice(len(x), k, replace=False)]
        for _ in range(60):
            lab = np.argmin(((x[:, None] - c[None]) ** 2).sum(-1), axis=1)
            c = np.array([x[lab == j].mean(0) if (lab == j).any() else c[j] for j in range(k)])
        cost = ((x - c[lab]) ** 2).sum()
        if cost < best_cost:
            best, best_cost = lab, cost
    return best


def colour_name(lab) -> str:
    """A rough name for a body colour (Lab, 8-bit scale): what a person would call the dice."""
    light, a, b = float(lab[0]), float(lab[1]) - 128, float(lab[2]) - 128
    chroma = (a * a + b * b) ** 0.5
    if chroma < 12:
        return "white" if light > 170 else "black" if light < 70 else "grey"
    hue = float(np.degrees(np.arctan2(b, a))) % 360
    names = [(20, "pink"), (50, "red"), (75, "orange"), (105, "yellow"), (165, "green"),
             (230, "teal"), (320, "blue"), (345, "purple"), (360, "pink")]
    name = next(n for h, n in names if hue < h)
    return ("dark " if light < 90 else "light " if light > 180 else "") + name


def die_kinds(photos: Path = PHOTOS, k: int = N_KINDS) -> dict:
    """The kinds of dice, for leaving one out of training at a time: ``{"kinds": {name:
    {"set", "dice", "lab"}}, "dice": {set: {image: [kind per labelled die]}}}``. nell-byler's
    dice are grouped by body colour (``kinds_of`` on ``body_colour``, as bench/read_accuracy.py
    --profile does); matteop65's white webcam dice are one kind."""
    import cv2

    out: dict = {"kinds": {}, "dice": {}}
    for s in SETS:
        listed = list_photos(s, photos)
        if s == "matteop65":
            out["dice"][s] = {p.path.name: [s] * len(p.dice) for p in listed}
            out["kinds"][s] = {"set": s, "dice": sum(len(p.dice) for p in listed),
                               "lab": None, "look": "white, black pips, webcam"}
            continue
        colours = []
        for p in listed:
            frame = cv2.imread(str(p.path))
            colours += [body_colour(frame, d.cx, d.cy, d.size) for d in p.dice]
        colours = np.array(colours)
        kind = kinds_of(colours, k)
        names = [f"{s}/{j}" for j in range(k)]
        n = 0
        out["dice"][s] = {}
        for p in listed:
            out["dice"][s][p.path.name] = [names[j] for j in kind[n:n + len(p.dice)]]
            n += len(p.dice)
        for j in range(k):
            lab = colours[kind == j].mean(0)
            out["kinds"][names[j]] = {"set": s, "dice": int((kind == j).sum()),
                                      "lab": [round(float(v)) for v in lab],
                                      "look": colour_name(lab)}
    return out


def attach_kinds(photo: Photo, split: dict) -> Photo:
    """``photo`` with each die's kind set from the split file's ``kinds`` section."""
    kinds = split.get("kinds", {}).get("dice", {}).get(photo.set, {}).get(photo.path.name)
    if kinds is not None and len(kinds) == len(photo.dice):
        for d, kind in zip(photo.dice, kinds, strict=True):
            d.kind = kind
    return photo
