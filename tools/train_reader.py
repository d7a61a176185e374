"""Train the dice reader's small nets (detector, face classifiers) and export them to ONNX
(dev-only tool).

Run it with a SEPARATE venv holding torch (never the project's runtime venv)::

    python3 -m venv /work/train-venv
    /work/train-venv/bin/pip install torch==2.13.0 onnx onnxscript numpy opencv-python-headless
    /work/train-venv/bin/python tools/train_reader.py split      # writes vision/models/dice_split.json
    /work/train-venv/bin/python tools/train_reader.py det --steps 6000 --sim 150   # detector
    # cls_v17 (the shipped three start from it): a cold run of the
    # "grid" net, then two warm runs with more of the many-coloured nell-byler dice, many in
    # their own colours (--mild)
    T=/work/train-venv/bin/python; O=/work/train-out
    $T tools/train_reader.py cls --arch grid --epochs 14 --lr 3e-3 --sim 300 --sim-seed 7 \
        --throws 600 --set-weight nell-byler=2 --mild 0.3 --out $O/cls_v13.onnx
    $T tools/train_reader.py cls --arch grid --warm-from $O/cls_v13.pt --lr 1e-3 --epochs 6 \
        --sim 200 --sim-seed 21 --throws 400 --set-weight nell-byler=3 --mild 0.6 \
        --out $O/cls_v15.onnx
    $T tools/train_reader.py cls --arch grid --warm-from $O/cls_v15.pt --lr 7e-4 --epochs 4 \
        --sim 400 --sim-seed 45 --throws 800 --set-weight nell-byler=3 --mild 0.6 --threads 2 \
        --out $O/cls_v17.onnx
    /work/train-venv/bin/python tools/train_reader.py tune       # thresholds on the tune part
    # the shipped three, warm from v17 on the train and tune parts (thresholds kept):
    # the first, and the two second opinions (dice_reader.json "second_opinions")
    W="--warm-from $O/cls_v17.pt --parts train,tune --epochs 6 --sim 300 --throws 600 \
       --set-weight nell-byler=3 --mild 0.6 --ema 0.998"
    $T tools/train_reader.py cls --arch grid $W --lr 7e-4 --sim-seed 101 --out $O/cls_v29.onnx
    $T tools/train_reader.py cls --arch grid-norm $W --lr 1e-3 --sim-seed 111 \
        --out $O/cls_v30.onnx
    $T tools/train_reader.py cls --arch grid $W --hard 4 --lr 7e-4 --sim-seed 121 \
        --out $O/cls_v31.onnx
    cp $O/cls_v29.onnx vision/models/dice_cls.onnx
    cp $O/cls_v30.onnx vision/models/dice_cls_2.onnx
    cp $O/cls_v31.onnx vision/models/dice_cls_3.onnx

(``--warm`` starts from /work/train-out/<out stem>.pt; the runs, the shipped ones among them,
are listed in tools/reader_runs.json.)

Classifiers for another detector (docs/reader-training.md, "Classifiers trained on the
candidate's own crops"): the same runs with ``--mine-from DIR``, a model folder holding that
detector and its card; its finds on the photos are the mined crops (``mine``), the only crops
that depend on the detector. cls_v17's .pt is gone: ``--warm-from`` its export (commit 94abbf7,
vision/models/dice_cls.onnx) starts from it with its batch norms frozen as folded::

    $T tools/train_reader.py cls --arch grid --warm-from $O/det/cls_v17.onnx --epochs 6 \
        --lr 7e-4 --sim-seed 101 --parts train,tune --sim 300 --throws 600 \
        --set-weight nell-byler=3 --mild 0.6 --ema 0.998 --mine-from $O/det/models_up8p \
        --out $O/det/cls_v35.onnx

Comparing recipes when the tune part cannot tell them apart: leave a session of train photos
out and read it as a fold (cold runs, same seed, one change at a time)::

    $T tools/train_reader.py cls --arch grid --leave-out IMG_20191209_095 --epochs 10 \
        --lr 3e-3 --sim 300 --sim-seed 7 --throws 600 --set-weight nell-byler=2 --mild 0.3 \
        --ema 0.998 --out $O/cls_fold.onnx

Leaving one kind of dice out (the measure of a reader that must hold on dice it never saw):
``kinds`` writes the kinds into dice_split.json (nell-byler's dice by body colour, k-means in
Lab, nine kinds; matteop65's white dice one kind); a run with ``--leave-out-kind KIND`` trains
on every other die of the train and tune parts (the kind's dice are neither crops nor
background), reports its crop accuracy and fitted temperature on the left-out dice, and with
``--model-dir`` writes a folder the bench reads; the bench scores that kind's dice on every
photo. A short recipe, so a fold takes minutes (A: photos only; B: the same with 4,000 rendered
dice crops, tools/render_dice_crops.py, mixed into each epoch)::

    for K in nell-byler/0 nell-byler/1 ... matteop65; do   # the kinds in dice_split.json
      D=$O/loo/B_$(echo $K | tr / _)
      nice -n 10 $T tools/train_reader.py cls --arch grid --parts train,tune --epochs 4 \
          --lr 3e-3 --per-die 3 --backgrounds 1200 --cocked-crops 600 --no-mine \
          --set-weight nell-byler=2 --mild 0.3 --ema 0.99 --rendered 4000 \
          --leave-out-kind $K --model-dir $D
      .venv/bin/python bench/read_accuracy.py --leave-out $K --models $D
    done
    $T tools/train_reader.py calibrate $O/loo/B_*    # one temperature for unseen dice

Recipe C (docs/reader-training.md: reads far more of the unseen kinds than B): 6 epochs, 5 photo
crops a die, the rendered crops of renderer 2 (veined marbling, wood grain) with 15% of them
leaning dice of the cocked class; ``calibrate`` over its folds fits the temperature and, at it,
``min_confidence`` (the pair is printed as "card")::

    nice -n 15 $T tools/train_reader.py cls --arch grid --parts train,tune --epochs 6 \
        --lr 3e-3 --per-die 5 --backgrounds 1200 --cocked-crops 600 --no-mine \
        --set-weight nell-byler=2 --mild 0.3 --ema 0.99 --threads 1 --rendered 4000 \
        --rendered-seed 6 --rendered-cocked 0.15 --leave-out-kind $K --model-dir $D
    $T tools/train_reader.py calibrate $O/loo2/C_*

Recipe D is C with ``--invariance NAME=SHARE`` (polarity, grey, stretch, lowres, veins: crops
changed in ways a pip count does not depend on); on the black and marbled folds none of them
read more, and veins misread more (docs/reader-training.md). A fine-tune that keeps the
shipped net's reading of the black dice with dull red pips gives them more of each epoch
(``--kind-weight nell-byler/0=3 --kind-weight nell-byler/4=2 --hard 3``, lr 2.5e-4; cls_e2).

A shipped net fine-tuned with rendered dice (``--warm-from`` an exported .onnx starts from its
weights, batch norms as folded); docs/reader-training.md compares it with the shipped one::

    $T tools/train_reader.py cls --arch grid --warm-from vision/models/dice_cls.onnx \
        --parts train,tune --epochs 4 --lr 5e-4 --per-die 6 --set-weight nell-byler=3 \
        --mild 0.6 --ema 0.99 --rendered 4000 --out $O/cls_b1.onnx

Other options tried that way (tools/reader_runs.json has the figures): ``--arch grid-norm`` and
``--hard`` (both ship, as second opinions), ``--arch grid-slim``, ``--wide-jitter``,
``--recolour-contrast``, ``--crop-px 56``.

A webcam's MJPEG stream (``--webcam SHARE``, off by default): that share of the crops is cut
from the frame as the stream gives it, JPEG at quality 30-85 (``--webcam-quality LO HI``) with
its colour at a quarter of the pixels (4:2:0), encoded at the die's own size on its
neighbourhood cut on the frame's 16-px grid (the very blocks of the whole frame's JPEG), at
``--webcam-noise`` of them with a sensor's noise before it (``webcam_frame``). The shipped three
fine-tuned with it (docs/reader-training.md, "Training on a webcam's stream"; not shipped: JPEG
q40 reads 0-4 more of the 20 dice it costs, and each candidate reads fewer held-out dice as
photographed or misreads more under ``--stress``; w3 is the same with ``--webcam 0.7
--webcam-quality 30 70 --kind-weight nell-byler/0=2``; w4: the two second opinions alone with
``--webcam 0.3 --webcam-quality 30 60 --sim-seed 161 / 171``)::

    C="--parts train,tune --epochs 3 --per-die 6 --sim 150 --throws 300 \
       --set-weight nell-byler=3 --mild 0.6 --ema 0.998 --threads 1 --webcam 0.5"
    $T tools/train_reader.py cls --arch grid --warm-from vision/models/dice_cls.onnx \
        --lr 3.5e-4 --sim-seed 131 $C --out $O/cls_w2a.onnx
    $T tools/train_reader.py cls --arch grid-norm --warm-from vision/models/dice_cls_2.onnx \
        --lr 5e-4 --sim-seed 141 $C --out $O/cls_w2b.onnx
    $T tools/train_reader.py cls --arch grid --warm-from vision/models/dice_cls_3.onnx \
        --hard 4 --lr 3.5e-4 --sim-seed 151 $C --out $O/cls_w2c.onnx

The classifiers are exported through ``for_cv2`` (the same function in a layout cv2.dnn runs
faster); ``export-cls`` re-exports a run's saved weights that way.

Only the ``train`` part of each photo set is trained on; thresholds are chosen on ``tune``;
``held_out`` is never used here. At run time the models are read by ``cv2.dnn`` only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reader_calibration import calibration_error, least_confidence  # noqa: E402
from reader_data import (  # noqa: E402
    SETS,
    SPLIT_FILE,
    attach_kinds,
    die_kinds,
    list_photos,
    make_split,
)

from vision.dice_crop import CROP_PX, CROP_SCALE, crop_die, die_angle  # noqa: E402

MODELS = Path(__file__).resolve().parent.parent / "vision" / "models"
WORK = Path("/work/train-out")
DET_STRIDE = 4  # detector output cell, in detector-input pixels
DET_SCALE = 0.5  # detector input = frame scaled by this for a 640-wide frame
N_CLASSES = 8  # faces 1..6, cocked, not a die
COCKED, BACKGROUND = 6, 7

cv2.setNumThreads(1)

# The classifier's crop (``--crop-px``, ``--crop-scale``); the runtime reads the same two from
# dice_reader.json's "classifier" (defaults: vision.dice_crop's CROP_PX and CROP_SCALE).
CROP = {"px": CROP_PX, "scale": CROP_SCALE}
# How far a training crop's size strays from the die's (log units): most crops by up to
# "size", a share "wide_share" by up to "wide" (``--wide-jitter``: the detector's size of a dark
# die can be a third too small)
JITTER = {"size": 0.17, "wide": 0.17, "wide_share": 0.0}
# How the detector's own finds (``mine``) are cut: each "repeat" times, its size by up to "size"
# (log units) and its centre by "centre" edges (a normal spread; with ``--mined-jitter``, up to
# that much either way, evenly), so that a die the detector sees a little larger, smaller or
# off centre reads the same (a dark die cut 10% off its find read 0.43-0.81)
MINED_JITTER = {"size": 0.08, "centre": 0.04, "even": False, "repeat": 1}


def crop(img, center, size, angle, big: bool = False):
    """A classifier crop as the runtime cuts it (``big``: twice the side and pixels)."""
    k = 2 if big else 1
    return crop_die(img, center, size, angle, out_px=k * CROP["px"], scale=k * CROP["scale"])


def log(*a):
    print(time.strftime("%H:%M:%S"), *a, flush=True)


# ---------------------------------------------------------------- data


# train photos whose names start with this are left out (``--leave-out``: a fold of the train
# part to compare recipes on, e.g. one session of photos, when the tune part is too small)
LEAVE_OUT: list[str] = []


# the kinds of dice (dice_split.json "kinds", ``reader_data.die_kinds``) left out of training
# (``--leave-out-kind``): their dice are neither trained on nor cut as background
LEAVE_OUT_KINDS: list[str] = []


def load_part(part: str):
    split = json.loads(SPLIT_FILE.read_text())
    out = []
    for s in SETS:
        names = set(split["sets"][s][part])
        for p in list_photos(s):
            if p.path.name in names and not (
                part == "train" and any(p.path.name.startswith(x) for x in LEAVE_OUT)
            ):
                attach_kinds(p, split)
                if LEAVE_OUT_KINDS:
                    p.hidden = [d for d in p.dice if d.kind in LEAVE_OUT_KINDS]
                    p.dice = [d for d in p.dice if d.kind not in LEAVE_OUT_KINDS]
                out.append((cv2.imread(str(p.path)), p))
    return out


def colour_jitter(img: np.ndarray, rng: np.random.Generator, strong: bool = True) -> np.ndarray:
    """Hue / saturation / brightness / contrast / blur / noise / glare / JPEG noise."""
    im = img
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(im, cv2.COLOR_BGR2HSV).astype(np.int16)
        hsv[..., 0] = (hsv[..., 0] + rng.integers(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.5), 0, 255)
        im = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    if strong and rng.random() < 0.15:
        im = 255 - im  # black dice with white pips
    f = im.astype(np.float32)
    if rng.random() < 0.3:  # another white balance (warm lamp, daylight, a webcam's cast)
        f = f * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    f = (f - 128) * rng.uniform(0.6, 1.4) + 128 + rng.uniform(-40, 40)
    if rng.random() < 0.2:  # lit from one side: a ramp of light across the crop
        h, w = f.shape[:2]
        t = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w] / max(h, w) - 0.5
        ramp = 1 + rng.uniform(0.2, 0.6) * (xx * math.cos(t) + yy * math.sin(t))
        f = f * ramp[..., None].astype(np.float32)
    if rng.random() < 0.3:
        f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.25:  # a glare spot
        h, w = f.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        r = rng.uniform(0.04, 0.15) * min(h, w) if h > 100 else rng.uniform(2, 7)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        f = f + (255 - f) * (g[..., None] * rng.uniform(0.4, 0.85))
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.2))
    if rng.random() < 0.3:
        f = f + rng.normal(0, rng.uniform(2, 10), f.shape)
    im = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        im = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return im


# body and pip colours (BGR) of dice the photos show but few of: red dice with yellow or white
# pips, dark dice with red or white pips, teal, purple and wooden dice, and the plain ones
BODIES = [(40, 30, 190), (25, 25, 25), (60, 50, 45), (120, 130, 40), (110, 40, 100),
          (60, 100, 150), (230, 230, 230), (170, 80, 25), (40, 200, 230), (70, 140, 30),
          (30, 30, 110), (45, 50, 60)]
PIPS = [(245, 245, 245), (20, 20, 20), (40, 200, 230), (40, 40, 200), (60, 170, 220),
        (90, 200, 90), (35, 35, 130)]
# a body and pip colour differ by at least this much in one channel (``--recolour-contrast``;
# dark dice with dull red pips differ by ~70)
RECOLOUR = {"min_diff": 90.0}


def recolour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The die in a crop given another body and pip colour (its shading and pips kept, the felt
    around it as it was), sometimes marbled: the photos have few dark dice with red pips or red
    dice with yellow ones, which the classifier reads least surely. The die is the part of the
    crop unlike its border (the felt) that holds the crop's centre, with its pips."""
    px = img.shape[0]
    f = img.astype(np.float32)
    border = np.concatenate([f[0], f[-1], f[:, 0], f[:, -1]])
    felt = np.median(border, axis=0)
    unlike = (np.abs(f - felt).sum(axis=2) > 45).astype(np.uint8)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(unlike)
    c = labels[px // 2 - 2 : px // 2 + 3, px // 2 - 2 : px // 2 + 3]
    ids = c[c > 0]
    if n < 2 or len(ids) == 0:
        return img
    blob = (labels == np.bincount(ids).argmax()).astype(np.uint8)
    holes = blob.copy()  # fill the pips in: flood the felt from the corner
    cv2.floodFill(holes, np.zeros((px + 2, px + 2), np.uint8), (0, 0), 1)
    die_mask = blob | (1 - holes)
    # no further than the die's own square (the crop is turned square to it): not its shadow
    m = max(0, int(round((px - 1.05 * px / CROP["scale"]) / 2)))
    square = np.zeros_like(die_mask)
    square[m : px - m, m : px - m] = 1
    die_mask = cv2.erode(die_mask & square, np.ones((3, 3), np.uint8))
    area = die_mask.sum() / (px * px / CROP["scale"] ** 2)
    if not 0.5 < area < 1.6:
        return img  # not one die cut cleanly from its felt
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner = g[die_mask > 0]
    lo, hi, mid = np.percentile(inner, [4, 96, 50])
    if hi - lo < 40:
        return img  # a die too flat to tell its pips from its body
    body, pip = (hi, lo) if mid > (lo + hi) / 2 else (lo, hi)
    t = np.clip((g - pip) / (body - pip), 0.0, 1.15)[..., None]  # 1 body, 0 pip
    tm = t[..., 0][die_mask > 0]
    if not (0.03 < (tm < 0.4).mean() < 0.35 and ((tm > 0.3) & (tm < 0.7)).mean() < 0.15):
        return img  # not plainly a body with pips (marbled, glare, blur): left as it is
    while True:
        b = np.array(BODIES[rng.integers(len(BODIES))], np.float32)
        p = np.array(PIPS[rng.integers(len(PIPS))], np.float32)
        if np.abs(b - p).max() > RECOLOUR["min_diff"]:
            break
    b = b * rng.uniform(0.8, 1.15) + rng.normal(0, 10, 3)
    die = p + t * (b - p)
    if rng.random() < 0.3:  # marbled: slow swirls of a second colour in the body
        swirl = cv2.GaussianBlur(rng.normal(0, 1, (px, px)).astype(np.float32), (0, 0), px / 10)
        swirl = np.clip(swirl / (swirl.std() + 1e-6), -2, 2)[..., None]
        die = die + t.clip(0, 1) * swirl * rng.normal(0, 30, 3).astype(np.float32)
    mask = cv2.GaussianBlur(die_mask.astype(np.float32), (0, 0), 0.8)[..., None]
    out = f * (1 - mask) + die * mask
    return np.clip(out, 0, 255).astype(np.uint8)


# Invariances that hold for any dice (``--invariance NAME=SHARE``): the share of the photo dice's
# crops (and the made-up leaning ones) changed each way before the colour jitter. A count of
# pips does not depend on which is lighter, pip or body (polarity), on the body's hue or
# colourfulness (grey), on the contrast and gamma of the camera (stretch), on how few pixels
# the detector hands over (lowres: the die at 12-22 px and a coarse JPEG, then back up), or on
# veins across the body (veins: marbling drawn over a plain die, the pips spared).
INVARIANCES = ("polarity", "grey", "stretch", "lowres", "veins")
INVARIANCE: dict[str, float] = {}


def invert_lightness(img: np.ndarray) -> np.ndarray:
    """The crop with its lightness turned over and its colours kept (Lab L -> 255 - L): a black
    die with white pips becomes a white die with black pips, a red one a pale red one."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def grey(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One channel (or the luminance) copied to all three: the die without its colours."""
    k = rng.integers(4)
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if k == 3 else img[..., k]
    return np.ascontiguousarray(np.repeat(g[..., None], 3, axis=2))


def stretch(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A contrast stretch between two percentiles, then a gamma: a camera's other curve."""
    f = img.astype(np.float32)
    lo, hi = np.percentile(f, [rng.uniform(0, 10), rng.uniform(90, 100)])
    f = np.clip((f - lo) / max(hi - lo, 8.0), 0, 1)
    f = 255 * f ** rng.uniform(0.5, 2.0)
    return f.astype(np.uint8)


def low_resolution(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop as cut from a die of 12-22 px (resampled down, coarse JPEG, back up): the small
    dice of a wide frame, a half-size photo or a far corner of the tray."""
    px = img.shape[0]
    die_px = px / CROP["scale"]
    small = max(6, round(px * rng.uniform(12, 22) / die_px))
    im = cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 75))])
        im = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    inter = cv2.INTER_LINEAR if rng.random() < 0.7 else cv2.INTER_CUBIC
    return cv2.resize(im, (px, px), interpolation=inter)


def veins(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Marbling drawn over the die's body: the level lines of a field bent by noise (as
    tools/render_dice_crops.py draws them), in a colour near or far from the body's, over the
    die's square only and not over its pips (the pixels far from the body's lightness)."""
    px = img.shape[0]
    f = img.astype(np.float32)
    m = max(0, int(round((px - px / CROP["scale"]) / 2)))
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    body = np.median(g[m : px - m, m : px - m])
    spare = np.abs(g - body) > 45  # pips (and glare): left as they are
    yy, xx = np.mgrid[0:px, 0:px] / px
    ang = rng.uniform(0, math.pi)

    def noise(scale):
        z = cv2.GaussianBlur(rng.normal(0, 1, (px, px)).astype(np.float32), (0, 0), scale)
        return z / (z.std() + 1e-6)

    field = (xx * math.cos(ang) + yy * math.sin(ang)) * rng.uniform(2, 6)
    field = field + 0.9 * noise(px / 6) + 0.3 * noise(px / 20)
    frac = np.abs(field - np.round(field))
    w = np.clip(1 - frac / rng.uniform(0.05, 0.2), 0, 1) ** 0.7
    w = w * rng.uniform(0.25, 0.7)
    w[spare] = 0
    square = np.zeros((px, px), np.float32)
    square[m : px - m, m : px - m] = 1
    w = (w * cv2.GaussianBlur(square, (0, 0), 1.0))[..., None]
    mean = f[m : px - m, m : px - m].reshape(-1, 3).mean(0)
    colour = rng.uniform(0, 255, 3) if rng.random() < 0.5 else mean + rng.normal(0, 50, 3)
    return np.clip(f * (1 - w) + colour * w, 0, 255).astype(np.uint8)


def invariant(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop changed in the ways a pip count does not depend on, each with its share
    (``INVARIANCE``)."""
    share = INVARIANCE
    if not share:
        return img
    im = img
    if rng.random() < share.get("veins", 0.0):
        im = veins(im, rng)
    if rng.random() < share.get("polarity", 0.0):
        im = invert_lightness(im)
    if rng.random() < share.get("grey", 0.0):
        im = grey(im, rng)
    if rng.random() < share.get("stretch", 0.0):
        im = stretch(im, rng)
    if rng.random() < share.get("lowres", 0.0):
        im = low_resolution(im, rng)
    return im


# A webcam's stream (``--webcam SHARE``): the share of the crops (photo dice, the detector's
# finds, leaning and background crops) cut from their frame after it went through what a
# webcam's MJPEG stream does to it, at the die's own size in that frame. JPEG at quality 30-85
# with its colour at a quarter of the pixels (4:2:0: Cb and Cr averaged over 2x2 pixels, then
# quantised on 8x8 blocks of those, i.e. 16x16 frame pixels), and at times a small sensor's
# noise before it (``noise``: the share of them; Gaussian, sigma 2-8 a channel: the sensor
# comes before the encoder). Why not ``colour_jitter``'s JPEG or ``lowres``: both encode the
# 40-px crop after it was resized and turned square to the die, so their blocks and their
# halved colour fall on the crop's grid at the crop's scale, not on the frame's at the die's:
# on a 60-px die the stream's colour blocks are a quarter of the die, on the crop they are
# two fifths; and the shipped recipe's ``--mild`` crops (the dice in their own colours, as
# JPEG q40 gives them in the bench) never get JPEG at all. Under JPEG q40 with 4:2:0 colour
# the shipped classifier loses 12 held-out nell-byler dice on its first crop
# (docs/reader-training.md): it heeds a face's fine colour, and that is what the stream
# smears. The frame is encoded on the die's neighbourhood only, cut on the frame's 16-px grid
# (an MCU's edges where the whole frame's are), so within it the blocks are the whole frame's
# (``webcam_frame``; the decoder's colour upsampling differs only at the cut's own border,
# beyond what the crop reads).
WEBCAM = {"share": 0.0, "q_lo": 30, "q_hi": 85, "noise": 0.5}
MCU = 16  # a 4:2:0 JPEG's minimum coded unit, frame pixels


def webcam_frame(img: np.ndarray, cx: float, cy: float, size: float,
                 rng: np.random.Generator, quality: int | None = None,
                 noise: float | None = None) -> tuple[np.ndarray, int, int]:
    """The neighbourhood of a die (centre, edge in pixels) of a frame as a webcam's MJPEG
    stream gives it (``WEBCAM``): (the decoded neighbourhood, its left and top in the frame).

    The neighbourhood is cut on the frame's 16-px MCU grid and holds everything ``crop`` reads
    for a crop of this die moved and resized as ``die_crop``'s jitter may; ``quality`` (else
    WEBCAM's range) and ``noise`` (sigma, else drawn at WEBCAM's share) may be given."""
    h, w = img.shape[:2]
    reach = int(1.5 * size * CROP["scale"]) + 4
    x0 = max(0, (int(cx) - reach) // MCU * MCU)
    y0 = max(0, (int(cy) - reach) // MCU * MCU)
    x1 = min(w, -(-(int(cx) + reach + 1) // MCU) * MCU)
    y1 = min(h, -(-(int(cy) + reach + 1) // MCU) * MCU)
    part = img[y0:y1, x0:x1]
    if part.size == 0:
        return img, 0, 0
    if noise is None:
        noise = rng.uniform(2, 8) if rng.random() < WEBCAM["noise"] else 0.0
    if noise > 0:
        f = part.astype(np.float32) + rng.normal(0, noise, part.shape).astype(np.float32)
        part = np.clip(np.round(f), 0, 255).astype(np.uint8)
    q = int(quality if quality is not None
            else rng.integers(WEBCAM["q_lo"], WEBCAM["q_hi"] + 1))
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(part),
                           [cv2.IMWRITE_JPEG_QUALITY, q, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                            cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420])
    if not ok:
        return img, 0, 0
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), x0, y0


def streamed(img: np.ndarray, cx: float, cy: float, size: float,
             rng: np.random.Generator) -> tuple[np.ndarray, float, float]:
    """At ``WEBCAM["share"]``, the die's neighbourhood through a webcam's stream and the
    centre moved into it; else the frame and centre as they are."""
    if WEBCAM["share"] <= 0 or rng.random() >= WEBCAM["share"]:
        return img, cx, cy
    part, x0, y0 = webcam_frame(img, cx, cy, size, rng)
    return part, cx - x0, cy - y0


def mild_jitter(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The die's own colours, a little brighter / darker / softer (no hue turn, no inversion)."""
    f = img.astype(np.float32)
    f = (f - 128) * rng.uniform(0.85, 1.15) + 128 + rng.uniform(-15, 15)
    if rng.random() < 0.2:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 0.8))
    return np.clip(f, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- detector


def det_sample(data, rng, crop=160):
    img, photo = data[rng.integers(len(data))]
    h, w = img.shape[:2]
    s = DET_SCALE * (640 / max(h, w)) * math.exp(rng.uniform(math.log(0.6), math.log(1.7)))
    ang = rng.uniform(-180, 180)
    if photo.dice and rng.random() < 0.8:
        d = photo.dice[rng.integers(len(photo.dice))]
        px, py = d.cx + rng.normal(0, 40), d.cy + rng.normal(0, 40)
    else:
        px, py = rng.uniform(0, w), rng.uniform(0, h)
    m = cv2.getRotationMatrix2D((px, py), ang, s)
    m[0, 2] += crop / 2 - px
    m[1, 2] += crop / 2 - py
    if rng.random() < 0.5:  # mirror
        m[0] = -m[0]
        m[0, 2] += crop
    out = cv2.warpAffine(img, m, (crop, crop), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    out = colour_jitter(out, rng)
    g = crop // DET_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g]
    for d in photo.dice:
        x, y = m @ np.array([d.cx, d.cy, 1.0])
        u, v = x / DET_STRIDE, y / DET_STRIDE
        if not (0 <= u < g and 0 <= v < g):
            continue
        size = d.size * s / DET_STRIDE
        sig = max(0.5, 0.15 * size)
        gauss = np.exp(-((xx + 0.5 - u) ** 2 + (yy + 0.5 - v) ** 2) / (2 * sig * sig))
        heat = np.maximum(heat, gauss)
        j, i = int(u), int(v)
        heat[i, j] = 1.0
        reg[:, i, j] = (u - j, v - i, math.log(size))
        mask[i, j] = 1.0
    return out, heat, reg, mask


def det_net():
    import torch.nn as nn

    def cbr(i, o, s=1, d=1):
        return [nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o),
                nn.ReLU(inplace=True)]

    return nn.Sequential(
        *cbr(3, 8, 2), *cbr(8, 16, 2), *cbr(16, 16), *cbr(16, 16, d=2), *cbr(16, 16, d=4),
        *cbr(16, 16), nn.Conv2d(16, 4, 1),
    )


def focal(pred_logit, gt):
    import torch

    p = torch.sigmoid(pred_logit).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(p) * (1 - p) ** 2 * pos
    nl = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / n


def train_det(steps: int, seed: int = 0, sim: int = 0):
    import torch
    from reader_data import Die, Photo

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    data = load_part("train")
    for img, dice in sim_stills(sim, seed=8) if sim else []:
        data.append((img, Photo(Path("sim"), "sim",
                                [Die(v, cx, cy, dp, dp, dp) for v, cx, cy, dp, _ in dice])))
    log(f"detector: {len(data)} train photos")
    net = det_net()
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 4e-3, total_steps=steps, pct_start=0.1)
    bs = 16
    t0 = time.time()
    for step in range(steps):
        batch = [det_sample(data, rng) for _ in range(bs)]
        x = torch.from_numpy(np.stack([b[0] for b in batch])).permute(0, 3, 1, 2).float()
        x = x / 255.0 - 0.5
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        out = net(x)
        lh = focal(out[:, 0], heat)
        n = mask.sum().clamp(min=1)
        lr_ = ((out[:, 1:] - reg).abs().sum(1) * mask).sum() / n
        loss = lh + lr_
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            log(f"det step {step}/{steps} heat {lh.item():.3f} reg {lr_.item():.3f} "
                f"({time.time() - t0:.0f}s)")
    WORK.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), WORK / "det.pt")
    export(net, (1, 3, 240, 320), MODELS / "dice_det.onnx", detector=True)


# ---------------------------------------------------------------- classifier


ARCHS = ("gap", "wide", "grid", "grid-wide", "grid-norm", "grid-slim")


def cls_net(arch: str = "gap"):
    """The face classifier. ``gap``: three conv stages, global average pooling, a linear layer
    (the first shipped nets). ``wide``: twice the channels. ``grid``: the same convolutions,
    but the last 5x5 map is kept whole (flattened) for the linear layer: a face is a 3x3 grid of
    pip places, and averaging the map away throws out where the pips are. ``grid-wide``: both.
    ``grid-norm``: ``grid`` fed the crop and the crop normalised per channel (each channel to
    zero mean, unit spread): dark dice with dark red pips, low in contrast, look as plain as any.
    ``grid-slim``: ``grid`` with channels 16-24-48 (a third less time).
    """
    import torch
    import torch.nn as nn

    class WithNormalised(nn.Module):
        """The crop's 3 channels, then the same normalised per crop and channel (6 channels)."""

        def __init__(self):
            super().__init__()
            self.norm = nn.InstanceNorm2d(3, affine=False, eps=1e-3)

        def forward(self, x):
            return torch.cat([x, self.norm(x)], 1)

    def cbr(i, o):
        return [nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    c1, c2, c3 = (24, 48, 96) if arch in ("wide", "grid-wide") else (16, 32, 64)
    if arch == "grid-slim":
        c1, c2, c3 = 16, 24, 48  # a third less time in cv2.dnn (0.21 ms a crop, not 0.30)
    first = [WithNormalised(), *cbr(6, c1)] if arch == "grid-norm" else cbr(3, c1)
    convs = [*first, nn.MaxPool2d(2), *cbr(c1, c2), *cbr(c2, c2), nn.MaxPool2d(2),
             *cbr(c2, c3), nn.MaxPool2d(2), *cbr(c3, c3)]
    if arch.startswith("grid"):
        # 40 px crop -> 5x5 map after three poolings
        side = CROP["px"] // 8
        return nn.Sequential(*convs, nn.Flatten(), nn.Dropout(0.3),
                             nn.Linear(c3 * side * side, N_CLASSES))
    return nn.Sequential(*convs, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c3, N_CLASSES))


# cv2.dnn (OpenCV 5, classic engine) runs a 3x3 convolution with its Winograd kernel only on
# maps at least this many pixels high and wide; below it, its generic kernel is 2-3 times slower
# here (16 crops' 10x10x32 maps -> 64 channels: 1.32 ms, but 0.56 ms given as 12x12 unpadded)
WINOGRAD_MIN_PX = 12


def for_cv2(net):
    """The classifier as it is exported: the same function, but a 3x3 convolution over a map
    that its zero border brings to ``WINOGRAD_MIN_PX`` (the 10x10 map of a 40 px crop) is given
    that border explicitly and convolved unpadded, so cv2.dnn takes its fast kernel: 16 crops
    in 4.0 ms, not 4.8, one in 0.26, not 0.30. (Stacking the 5x5 maps of a batch into one tall
    map as well was faster for 16 crops, 3.8 ms, but slower for one, 0.34.) Same numbers to
    float rounding: ``export`` checks cv2.dnn against the torch net on a batch."""
    import torch.nn as nn
    import torch.nn.functional as F

    class ForCv2(nn.Module):
        def __init__(self, seq):
            super().__init__()
            self.seq = seq

        def forward(self, x):
            for m in self.seq:
                if (isinstance(m, nn.Conv2d) and m.kernel_size == (3, 3) and m.stride == (1, 1)
                        and m.padding == (1, 1) and m.dilation == (1, 1) and m.groups == 1
                        and min(x.shape[2:]) < WINOGRAD_MIN_PX <= min(x.shape[2:]) + 2):
                    x = F.conv2d(F.pad(x, (1, 1, 1, 1)), m.weight, m.bias)
                else:
                    x = m(x)
            return x

    return ForCv2(net).eval()


def from_grid(state: dict) -> dict:
    """A ``grid`` net's weights as a ``grid-norm`` net that computes the same (its first
    convolution gives the normalised channels zero weight, to be learnt)."""
    import torch

    out = {}
    for k, v in state.items():
        i, rest = k.split(".", 1)
        if k == "0.weight":
            v = torch.cat([v, torch.zeros_like(v)], 1)
        out[f"{int(i) + 1}.{rest}"] = v
    return out


def from_onnx(path: Path, like: dict) -> dict:
    """An exported classifier's weights as a state dict of its net (``like``: the net's own):
    each convolution's folded weight and bias, its batch norm an identity (scale 1, shift the
    folded bias, mean 0, variance 1 - eps)."""
    import onnx
    import torch
    from onnx import numpy_helper

    init = [numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer]
    linear = [a for a in init if a.ndim == 2]
    convs = [a for a in init if a.ndim == 4]
    biases = [a for a in init if a.ndim == 1 and len(a) != N_CLASSES]
    out, k = {}, 0
    keys = list(like)
    for key in keys:
        if key.endswith(".weight") and like[key].ndim == 4:
            i = int(key.split(".")[0])
            out[key] = torch.from_numpy(convs[k].copy())
            bn = f"{i + 1}."
            n = len(biases[k])
            out[bn + "weight"] = torch.ones(n)
            out[bn + "bias"] = torch.from_numpy(biases[k].copy())
            out[bn + "running_mean"] = torch.zeros(n)
            out[bn + "running_var"] = torch.full((n,), 1 - 1e-5)
            out[bn + "num_batches_tracked"] = torch.tensor(0)
            k += 1
    lin = [key for key in keys if like[key].ndim == 2][0]
    out[lin] = torch.from_numpy(linear[0].copy())
    out[lin.replace("weight", "bias")] = torch.from_numpy(
        next(a for a in init if a.ndim == 1 and len(a) == N_CLASSES).copy())
    if set(out) != set(like) or any(out[x].shape != like[x].shape for x in like):
        raise SystemExit(f"{path} is not a net of this shape: its weights do not fit")
    return out


def _onnx_input_channels(path: Path) -> int:
    """The input channels of an exported classifier's first convolution (3: ``grid``, 6:
    ``grid-norm``, which sees the crop and the crop normalised)."""
    import onnx
    from onnx import numpy_helper

    return next(numpy_helper.to_array(t).shape[1] for t in onnx.load(str(path)).graph.initializer
                if len(t.dims) == 4)


def squash(big: np.ndarray, rng) -> np.ndarray:
    """A die leaning over: its top face foreshortened (a rectangle / parallelogram, not a square)."""
    c = big.shape[0] / 2
    phi = rng.uniform(0, math.pi)
    k = rng.uniform(0.4, 0.68)
    r = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    a = r @ np.diag([1.0, k]) @ r.T
    a = a @ np.array([[1, rng.uniform(-0.3, 0.3)], [0, 1]])
    off = rng.normal(0, 0.06 * big.shape[0], 2)
    m = np.hstack([a, (np.array([c, c]) - a @ np.array([c, c]) + off)[:, None]])
    return cv2.warpAffine(big, m, big.shape[1::-1], flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def die_crop(img, d, rng, jitter=True):
    dcx, dcy = d.cx, d.cy
    if jitter:  # at WEBCAM's share, cut from the frame as a webcam's stream gives it
        img, dcx, dcy = streamed(img, dcx, dcy, d.size, rng)
    ang = die_angle(img, (dcx, dcy), d.size)
    if jitter:
        cx = dcx + np.clip(rng.normal(0, 0.06), -0.15, 0.15) * d.size
        cy = dcy + np.clip(rng.normal(0, 0.06), -0.15, 0.15) * d.size
        k = JITTER["wide"] if rng.random() < JITTER["wide_share"] else JITTER["size"]
        size = d.size * math.exp(rng.uniform(-k, k))
        ang = ang + (rng.normal(0, 5) if rng.random() < 0.8 else rng.uniform(-45, 45))
    else:
        cx, cy, size = dcx, dcy, d.size
    return crop(img, (cx, cy), size, ang)


def mined_cut(cx: float, cy: float, size: float, rng) -> tuple[float, float, float]:
    """Where one crop of a detector's find (centre, edge in pixels) is cut: moved and resized
    as ``MINED_JITTER`` says."""
    mj = MINED_JITTER
    if mj["even"]:
        j = rng.uniform(-mj["centre"], mj["centre"], 2) * size
    else:
        j = rng.normal(0, mj["centre"], 2) * size
    return cx + j[0], cy + j[1], size * math.exp(rng.uniform(-mj["size"], mj["size"]))


def cls_epoch(data, rng, per_die=8, n_bg=5000, n_cocked=2500, extra=None, mined=None,
              set_weight=None, mild=0.0, recolour_share=0.0, die_weight=None,
              kind_weight=None):
    """One epoch of labelled crops.

    :param set_weight: photo set -> crops per die multiplier (e.g. 2 for the many-coloured
        nell-byler dice the classifier is least sure of).
    :param mild: share of the photo dice's crops given only mild colour jitter (their own
        colours), so the net also learns the real look of dark / marbled / coloured dice.
    :param recolour_share: share of the photo dice's crops whose die is given other body and
        pip colours (``recolour``).
    :param die_weight: per photo die (in ``data`` order), a further crops-per-die multiplier
        (``hard_weights``: the dice the net reads least surely get more crops).
    :param kind_weight: kind of dice (dice_split.json kinds) -> a further crops-per-die
        multiplier (e.g. 2 for the black dice with dull red pips a fine-tune loses first).
    """
    set_weight = set_weight or {}
    kind_weight = kind_weight or {}
    xs, ys = [], []
    if mined is not None:
        pos, neg = mined
        for k, fx, fy, size, v in pos:
            for _ in range(MINED_JITTER["repeat"]):
                img, cx, cy = streamed(data[k][0], fx, fy, size, rng)
                jx, jy, sz = mined_cut(cx, cy, size, rng)
                c = crop(img, (jx, jy), sz, die_angle(img, (cx, cy), size))
                c = np.rot90(c, rng.integers(4))
                xs.append(colour_jitter(np.ascontiguousarray(c), rng, strong=False))
                ys.append(v - 1)
        for k, fx, fy, size in neg:
            img, cx, cy = streamed(data[k][0], fx, fy, size, rng)
            for _ in range(1):
                c = crop(img, (cx, cy), size * math.exp(rng.uniform(-0.1, 0.1)),
                             die_angle(img, (cx, cy), size))
                c = np.rot90(c, rng.integers(4))
                xs.append(colour_jitter(np.ascontiguousarray(c), rng, strong=False))
                ys.append(BACKGROUND)
    dice = [(img, d) for img, p in data for d in p.dice]
    reps = [round(per_die * set_weight.get(p.set, 1.0) * kind_weight.get(d.kind, 1.0))
            for _, p in data for d in p.dice]
    if die_weight is not None:
        reps = [round(n * k) for n, k in zip(reps, die_weight, strict=True)]
    for (img, d), n in zip(dice, reps, strict=True):
        for _ in range(n):
            c = die_crop(img, d, rng)
            c = np.rot90(c, rng.integers(4))
            if rng.random() < 0.5:
                c = c[:, ::-1]
            c = invariant(np.ascontiguousarray(c), rng)
            if rng.random() < recolour_share:
                xs.append(mild_jitter(recolour(c, rng), rng))
            else:
                xs.append(mild_jitter(c, rng) if rng.random() < mild else colour_jitter(c, rng))
            ys.append(d.value - 1)
    for _ in range(n_cocked):
        img, d = dice[rng.integers(len(dice))]
        img, dcx, dcy = streamed(img, d.cx, d.cy, d.size, rng)
        ang = die_angle(img, (dcx, dcy), d.size) + rng.uniform(-45, 45)
        big = crop(img, (dcx, dcy), d.size, ang, big=True)
        px = CROP["px"]
        sq = squash(big, rng)[px // 2 : px // 2 + px, px // 2 : px // 2 + px]
        xs.append(colour_jitter(invariant(np.ascontiguousarray(sq), rng), rng))
        ys.append(COCKED)
    if extra is not None:
        for c, y in extra:
            c = np.rot90(c, rng.integers(4))
            xs.append(colour_jitter(np.ascontiguousarray(c), rng, strong=False))
            ys.append(y)
    for _ in range(n_bg):
        img, p = data[rng.integers(len(data))]
        h, w = img.shape[:2]
        size = p.dice[rng.integers(len(p.dice))].size if p.dice else 40.0
        size *= math.exp(rng.uniform(-0.3, 0.3))
        if p.dice and rng.random() < 0.5:
            d = p.dice[rng.integers(len(p.dice))]
            t = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.5, 0.95) * d.size
            cx, cy = d.cx + r * math.cos(t), d.cy + r * math.sin(t)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if any(math.hypot(cx - d.cx, cy - d.cy) < 0.45 * d.size for d in p.dice + p.hidden):
            continue
        img, cx, cy = streamed(img, cx, cy, size, rng)
        ang = rng.uniform(-45, 45) if rng.random() < 0.5 else die_angle(img, (cx, cy), size)
        c = crop(img, (cx, cy), size, ang)
        xs.append(colour_jitter(c, rng))
        ys.append(BACKGROUND)
    return np.stack(xs), np.array(ys)


def labelled_crops(data):
    """Every photo die (in ``data`` order) cut at its labelled centre: (crops, true classes)."""
    crops, ys = [], []
    for img, p in data:
        for d in p.dice:
            crops.append(crop(img, (d.cx, d.cy), d.size, die_angle(img, (d.cx, d.cy), d.size)))
            ys.append(d.value - 1)
    return to_tensor(np.stack(crops)), np.array(ys)


def hard_weights(net, labelled, hard: float) -> list[float]:
    """Per photo die (``labelled_crops``' order): 1 + ``hard`` x how far the net is from reading
    it surely (1 - p(true face), doubled, at most 1). The few dark, marbled or low-contrast dice
    it reads least surely get up to 1 + hard times the crops (a label error is boosted too;
    there are few)."""
    import torch

    x, ys = labelled
    net.eval()
    with torch.no_grad():
        prob = torch.softmax(net(x), 1).numpy()
    miss = 1.0 - prob[np.arange(len(ys)), ys]
    w = 1.0 + hard * np.clip(2.0 * miss, 0.0, 1.0)
    log(f"hard dice: {(miss > 0.2).sum()} of {len(ys)} read below 0.8; crops x{w.mean():.2f}")
    return w.tolist()


def mine(data, scales=(0.85, 1.0, 1.2), models: Path = MODELS):
    """Run a detector on the photos: die candidates matched to a label (positives, cut at the
    detector's centre and size, as the classifier will see them at run time) and unmatched
    ones (hard negatives). These are the only crops of an epoch that depend on the detector.

    :param models: the model folder whose detector (and card: its input ``multiple``) is run;
        the shipped one by default. Classifiers for another detector are mined with it
        (``--mine-from``), since each detector errs on each die's centre and size its own way.
    """
    from vision.dice import DiceReader

    reader = DiceReader(models)
    reader.heat_threshold = 0.08
    pos, neg = [], []
    for k, (img, p) in enumerate(data):
        h, w = img.shape[:2]
        for f in scales:
            for found in reader._detect(img, f * 320.0 / max(h, w)):
                cx, cy, size = found.cx, found.cy, found.size
                best = None
                for d in p.dice + p.hidden:
                    r = max(0.75 * max(d.w, d.h), 24.0)
                    dist = math.hypot(cx - d.cx, cy - d.cy)
                    if dist <= r and (best is None or dist < best[0]):
                        best = (dist, d)
                if best is None:
                    neg.append((k, cx, cy, size))
                elif any(best[1] is h for h in p.hidden):
                    continue  # a die of a kind left out: not trained on
                elif best[0] < 0.3 * best[1].size:
                    pos.append((k, cx, cy, size, best[1].value))
    log(f"mined {len(pos)} detector positives, {len(neg)} hard negatives ({models})")
    return pos, neg


def to_tensor(xs):
    import torch

    return torch.from_numpy(xs).permute(0, 3, 1, 2).float() / 255.0 - 0.5


def sim_stills(n_stills: int, seed: int = 7, lean_share: float = 0.35):
    """Stills rendered by the throw simulator: (image, [(value, cx, cy, die_px, cocked)]).

    Flat dice of every colour plus cocked ones (tilted 18..40 degrees: leaning on the wall or on
    the other die; ``lean_share`` of the dice), on green / blue felt and wood, under the
    simulator's random looks.
    """
    try:
        from vision.simulator import DieSpec, Look, render_dice
    except Exception as exc:  # the simulator is another helper's work; train without it
        log(f"no simulator: {exc}")
        return []
    rng = np.random.default_rng(seed)
    colours = ["white", "black", "red", "green", "blue", "yellow"]
    out = []
    for k in range(n_stills):
        w, h = 640, 480
        die_px = float(rng.uniform(28, 60))
        step = die_px * 1.9
        specs = []
        for gy in np.arange(90 + step / 2, h - step / 2, step):
            for gx in np.arange(step / 2 + 20, w - step / 2 - 20, step):
                if rng.random() < 0.45:
                    continue
                cocked = float(rng.uniform(18, 40)) if rng.random() < lean_share else 0.0
                specs.append(DieSpec(
                    value=int(rng.integers(1, 7)),
                    center=(float(gx + rng.uniform(-6, 6)), float(gy + rng.uniform(-6, 6))),
                    angle=float(rng.uniform(0, 90)), colour=str(rng.choice(colours)),
                    cocked=cocked, cocked_toward=float(rng.uniform(0, 360))))
        if not specs:
            continue
        try:
            st = render_dice(specs, (w, h), die_px=die_px, tilt_deg=float(rng.uniform(0, 25)),
                             look=Look.random(rng), seed=int(seed * 1000 + k))
        except Exception as exc:
            log(f"simulator failed: {exc}")
            continue
        dp = st.calibration.die_px
        dice = [(sp.value, sp.center[0], sp.center[1], dp, sp.cocked > 0) for sp in specs]
        out.append((st.image, dice))
    log(f"simulator stills: {len(out)} with {sum(len(d) for _, d in out)} dice")
    return out


def sim_crops(n_stills: int, rng, seed: int = 7):
    """Labelled crops from simulator stills (cocked dice -> the cocked class)."""
    out = []
    for img, dice in sim_stills(n_stills, seed):
        for v, cx, cy, dp, cocked in dice:
            ang = die_angle(img, (cx, cy), dp)
            y = COCKED if cocked else v - 1
            for _ in range(2):
                j = rng.normal(0, 0.05, 2) * dp
                sz = dp * math.exp(rng.uniform(-0.12, 0.12))
                c = crop(img, (cx + j[0], cy + j[1]), sz, ang + rng.normal(0, 4))
                out.append((c, y))
    return out


def clip_crops(n_throws: int, rng, first_seed: int = 100_000):
    """Crops of the dice at rest in simulated throws (the tracker's case): flat and cocked on
    the wall or on the other die, from `simulate_throw`'s rest frame and truth."""
    try:
        from vision.simulator import Scenario, simulate_throw
    except Exception as exc:
        log(f"no simulator: {exc}")
        return []
    scen = [Scenario.BOTH_HIT, Scenario.COCKED_WALL, Scenario.COCKED_DIE, Scenario.ONE_HITS]
    out = []
    for seed in range(first_seed, first_seed + n_throws):
        try:
            clip = simulate_throw(seed=seed, scenario=scen[seed % len(scen)])
        except Exception:
            continue
        _, frame = clip.frames[clip.truth["rest_frame"]]
        dp = clip.calibration.die_px
        for d in clip.truth["dice"]:
            if not d["at_rest_in_area"]:
                continue
            cx, cy = d["rest_center"]
            y = COCKED if d["cocked"] else d["value"] - 1
            ang = die_angle(frame, (cx, cy), dp)
            for _ in range(4 if d["cocked"] else 2):
                j = rng.normal(0, 0.05, 2) * dp
                sz = dp * math.exp(rng.uniform(-0.12, 0.12))
                out.append((crop(frame, (cx + j[0], cy + j[1]), sz, ang + rng.normal(0, 4)),
                            y))
    log(f"simulated throws: {len(out)} crops, {sum(y == COCKED for _, y in out)} cocked")
    return out


def train_cls(epochs: int, seed: int = 1, sim: int = 0, warm: bool = False, lr: float = 3e-3,
              arch: str = "gap", out: Path | None = None, sim_seed: int = 7, throws: int = 0,
              warm_from: Path | None = None, set_weight=None, mild: float = 0.0,
              threads: int = 1, recolour_share: float = 0.0, ema: float = 0.0,
              hard: float = 0.0, parts: tuple[str, ...] = ("train",), rendered: int = 0,
              rendered_seed: int = 5, rendered_cocked: float = 0.0,
              rendered_version: int | None = None, model_dir: Path | None = None, temperature: float = 1.0,
              per_die: int = 8, n_bg: int = 5000, n_cocked: int = 2500, mined: bool = True,
              kind_weight=None, mine_from: Path = MODELS):
    """Train a face classifier and export it.

    :param rendered: crops of rendered dice of many kinds (tools/render_dice_crops.py) mixed
        into every epoch (made once per run and seed, kept in /work/train-out).
    :param rendered_cocked: the share of those that are leaning dice, of the cocked class.
    :param rendered_version: those of an earlier renderer, from its cache (``rendered_extra``).
    :param model_dir: write the run as a model folder the reader and the bench can load
        (``DiceReader(model_dir)``, ``bench/read_accuracy.py --models``): this classifier
        alone (no second opinions), the shipped detector and card.
    :param temperature: the exported net's logits are divided by this (temperature scaling:
        a confidence that means what it says; ``calibration.json`` of a leave-out run fits it).
    :param per_die, n_bg, n_cocked: crops per photo die, background and cocked crops an epoch.
    :param mined: add the detector's hits on the photos (positives and hard negatives).
    :param mine_from: the model folder whose detector is mined (``mine``; the shipped one).
    """
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)  # 1 when sharing the machine with another run
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    # ``parts``: the photo parts trained on; ("train", "tune") for a final model once the
    # recipe and thresholds are chosen (the tune part then no longer measures anything)
    data = [x for part in parts for x in load_part(part)]
    tune = load_part("tune")
    extra = sim_crops(sim, rng, sim_seed) if sim else []
    extra += clip_crops(throws, rng) if throws else []
    extra += (rendered_extra(rendered, rendered_seed, rendered_cocked, rendered_version)
              if rendered else [])
    mined = mine(data, models=mine_from) if mined else None
    left_out = left_out_crops() if LEAVE_OUT_KINDS else None
    vx, vy = [], []
    for img, p in tune:
        for d in p.dice:
            vx.append(die_crop(img, d, rng, jitter=False))
            vy.append(d.value - 1)
    vx, vy = to_tensor(np.stack(vx)), torch.from_numpy(np.array(vy))
    # the held-out part's dice (of the kinds trained on), when it is not trained on: the one
    # loss a run trained on train and tune can be watched by without looking at a left-out kind
    held = None
    if "held_out" not in parts:
        hx, hy = [], []
        for img, p in load_part("held_out"):
            for d in p.dice:
                hx.append(die_crop(img, d, rng, jitter=False))
                hy.append(d.value - 1)
        held = to_tensor(np.stack(hx)), torch.from_numpy(np.array(hy))
    if model_dir is not None:
        out = model_dir / "dice_cls.onnx"
        weights = WORK / (model_dir.name + ".pt")
    else:
        out = out or MODELS / "dice_cls.onnx"
        weights = WORK / (out.stem + ".pt")
    net = cls_net(arch)
    frozen_bn = False
    if warm and (warm_from or weights).suffix == ".onnx":
        # an exported net (batch norms folded into its convolutions): the batch norms stay
        # as folded (their statistics frozen, their scale and shift still learnt)
        if arch == "grid-norm" and _onnx_input_channels(warm_from) == 3:
            # a "grid" net's export: the grid-norm net starts as it (``from_grid``)
            net.load_state_dict(from_grid(from_onnx(warm_from, cls_net("grid").state_dict())))
        else:
            net.load_state_dict(from_onnx(warm_from, net.state_dict()))
        frozen_bn = True
        log("warm start from", warm_from)
    elif warm:  # go on from the last run's weights (fine-tuning)
        src = warm_from or weights
        state = torch.load(src)
        if arch == "grid-norm" and state["0.weight"].shape[1] == 3:
            state = from_grid(state)
        net.load_state_dict(state)
        log("warm start from", src)
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    # ``ema``: export a running average of the weights (steadier, better-calibrated
    # confidences than the last step's weights)
    avg = None
    if ema:
        from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

        avg = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(ema), use_buffers=True)
    bs = 128
    kept = net
    labelled = labelled_crops(data) if hard else None  # the same crops every epoch
    for ep in range(epochs):
        t0 = time.time()
        die_weight = (hard_weights(net, labelled, hard) if hard and (warm or ep > 0)
                      else None)
        xs, ys = cls_epoch(data, rng, per_die=per_die, n_bg=n_bg, n_cocked=n_cocked,
                           extra=extra, mined=mined, set_weight=set_weight, mild=mild,
                           recolour_share=recolour_share, die_weight=die_weight,
                           kind_weight=kind_weight)
        x, y = to_tensor(xs), torch.from_numpy(ys)
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * ep / epochs))
        net.train()
        if frozen_bn:
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        perm = torch.randperm(len(y))
        tot = 0.0
        for i in range(0, len(y), bs):
            idx = perm[i : i + bs]
            loss = F.cross_entropy(net(x[idx]), y[idx], label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if avg is not None:
                avg.update_parameters(net)
            tot += loss.item() * len(idx)
        kept = avg.module if avg is not None else net
        kept.eval()
        with torch.no_grad():
            acc = (kept(vx).argmax(1) == vy).float().mean().item()
        held_msg = ""
        if held is not None:
            with torch.no_grad():
                out_h = kept(held[0])
            held_msg = (f", held-out loss {F.cross_entropy(out_h, held[1]).item():.4f} "
                        f"accuracy {(out_h.argmax(1) == held[1]).float().mean().item():.4f}")
        if left_out is not None:
            with torch.no_grad():
                lacc = (kept(left_out[0]).argmax(1).numpy() == left_out[1]).mean()
            acc_left = f", left-out kind crop accuracy {lacc:.4f} ({len(left_out[1])} dice)"
        else:
            acc_left = ""
        log(f"cls epoch {ep + 1}/{epochs}: {len(y)} crops, loss {tot / len(y):.3f}, "
            f"tune-crop accuracy {acc:.4f}{held_msg}{acc_left} ({time.time() - t0:.0f}s)")
        WORK.mkdir(parents=True, exist_ok=True)
        torch.save(kept.state_dict(), weights)  # each epoch: a long run can be stopped early
    if left_out is not None:
        fit = calibrate(kept, *left_out)
        log(f"left-out {','.join(LEAVE_OUT_KINDS)}: " + json.dumps(fit))
    export(with_temperature(kept, temperature), (1, 3, CROP["px"], CROP["px"]), out)
    if model_dir is not None:
        write_model_dir(model_dir, temperature, fit if left_out is not None else None)


def rendered_extra(n: int, seed: int, cocked_share: float = 0.0,
                   version: int | None = None) -> list:
    """``n`` crops of rendered dice (tools/render_dice_crops.py) as (crop, class) pairs, a
    share ``cocked_share`` of them leaning dice (the cocked class), made once per (n, seed,
    share, renderer version) and kept in /work/train-out.

    :param version: an earlier renderer's crops, from its cache (a control run of an earlier
        recipe); None: the renderer's own version, drawn when not cached."""
    from render_dice_crops import COCKED as RENDERED_COCKED
    from render_dice_crops import RENDERER, rendered_crops

    version = RENDERER if version is None else version
    cache = WORK / f"rendered_{n}_{seed}_{CROP['px']}_r{version}_c{cocked_share:g}.npz"
    if not cache.exists() and version != RENDERER:
        raise SystemExit(f"no crops of renderer {version} cached ({cache}), and this "
                         f"tools/render_dice_crops.py is renderer {RENDERER}: draw them from "
                         f"the commit whose RENDERER is {version}, or drop --rendered-version")
    if cache.exists():
        z = np.load(cache)
        xs, ys = z["x"], z["y"]
    else:
        log(f"rendering {n} dice crops (seed {seed})...")
        t0 = time.time()
        xs, ys = [], []
        for k in range(0, n, 1000):  # in chunks, so progress shows
            x, y = rendered_crops(min(1000, n - k), seed * 1000 + k // 1000,
                                  cocked_share=cocked_share)
            xs.append(x)
            ys.append(y)
            log(f"  rendered {k + len(y)}/{n} ({time.time() - t0:.0f}s)")
        xs, ys = np.concatenate(xs), np.concatenate(ys)
        WORK.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(cache, x=xs, y=ys)
    log(f"rendered dice: {len(ys)} crops, {(ys == RENDERED_COCKED).sum()} leaning")
    return [(c, COCKED if v == RENDERED_COCKED else int(v) - 1)
            for c, v in zip(xs, ys, strict=True)]


def left_out_crops():
    """The dice of the kinds left out, on every photo of every part, cut at their labelled
    centres: (crops tensor, true classes). Never trained on; the run is scored on them."""
    crops, ys = [], []
    for part in ("train", "tune", "held_out"):
        for img, p in load_part(part):
            for d in p.hidden:
                crops.append(crop(img, (d.cx, d.cy), d.size,
                                  die_angle(img, (d.cx, d.cy), d.size)))
                ys.append(d.value - 1)
    if not crops:
        raise SystemExit(f"no dice of kind {', '.join(LEAVE_OUT_KINDS)} in {SPLIT_FILE}: the "
                         f"kinds are those `tools/train_reader.py kinds` wrote there")
    log(f"left out of training: {len(ys)} dice of {', '.join(LEAVE_OUT_KINDS)}")
    return to_tensor(np.stack(crops)), np.array(ys)


def expected_calibration_error(conf: np.ndarray, right: np.ndarray) -> float:
    """How far confidence is from accuracy, over 10 equal bins of confidence (weighted by the
    bins' shares of the dice)."""
    return calibration_error(conf, right, TEN_BINS)


TEN_BINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001)


def calibrate(net, x, ys) -> dict:
    """The temperature that makes the net's confidence on dice it never saw mean what it says
    (least negative log-likelihood over the six faces' classes, 0.5..8), and what it reads there
    at the card's threshold, before and after."""
    import torch

    net.eval()
    with torch.no_grad():
        logits = net(x).double()
    y = torch.from_numpy(ys)

    def nll(t):
        return float(torch.nn.functional.cross_entropy(logits / t, y))

    grid = np.exp(np.linspace(math.log(0.5), math.log(8.0), 121))
    best = float(min(grid, key=nll))
    card = json.loads((MODELS / "dice_reader.json").read_text())["thresholds"]
    out = {"dice": len(ys), "temperature": round(best, 3)}
    for name, t in (("raw", 1.0), ("calibrated", best)):
        p = torch.softmax(logits / t, 1).numpy()
        top, conf = p.argmax(1), p.max(1)
        sure = conf >= card["min_confidence"]
        ece = expected_calibration_error(conf, top == ys)
        out[name] = {"nll": round(nll(t), 4), "ece": round(ece, 4),
                     "accuracy": round(float((top == ys).mean()), 4),
                     "read": round(float((sure & (top == ys)).mean()), 4),
                     "misread": round(float((sure & (top != ys) & (top < 6)).mean()), 4)}
    return out


# the share of unseen dice that ``min_confidence`` may let through misread (the target is 0.5%;
# the fit keeps a margin)
MISREAD_SHARE = 0.004


def calibrate_runs(runs: list[Path]) -> dict:
    """One temperature for dice no run has seen: each leave-out run's classifier (as exported,
    read by cv2.dnn) on the dice of the kinds it left out, pooled; and the least confidence at
    which its confident misreads stay within 0.4% of those dice, raw and calibrated."""
    import torch

    logits, ys = [], []
    for run in runs:
        card = json.loads((run / "dice_reader.json").read_text())
        kinds = card.get("left_out", {}).get("kinds")
        if not kinds:
            raise SystemExit(f"{run} is not a leave-out run (its card has no left_out kinds)")
        t = float(card["classifier"].get("temperature", 1.0))
        LEAVE_OUT_KINDS[:] = kinds
        x, y = left_out_crops()
        net = cv2.dnn.readNetFromONNX(str(run / "dice_cls.onnx"))
        net.setInput(x.numpy())
        logits.append(net.forward() * t)  # back to the run's own logits
        ys.append(y)
    logits_t = torch.from_numpy(np.concatenate(logits)).double()
    y = np.concatenate(ys)
    yt = torch.from_numpy(y)

    def nll(t):
        return float(torch.nn.functional.cross_entropy(logits_t / t, yt))

    grid = np.exp(np.linspace(math.log(0.5), math.log(8.0), 121))
    best = float(min(grid, key=nll))
    out = {"runs": [str(r) for r in runs], "dice": int(len(y)), "temperature": round(best, 3)}
    for name, t in (("raw", 1.0), ("calibrated", best)):
        p = torch.softmax(logits_t / t, 1).numpy()
        top, conf = p.argmax(1), p.max(1)
        wrong = (top != y) & (top < 6)
        least = least_confidence(conf, wrong, MISREAD_SHARE)
        out[name] = {"nll": round(nll(t), 4),
                     "ece": round(expected_calibration_error(conf, top == y), 4),
                     "accuracy": round(float((top == y).mean()), 4),
                     "least_confidence_for_0.4pct_misread": round(least, 4)}
        sure = conf >= least
        out[name][f"at_{least:.4f}"] = {"read": round(float((sure & (top == y)).mean()), 4),
                                        "misread": round(float((sure & wrong).mean()), 4)}
        for th in (0.8, 0.9, 0.95):
            sure = conf >= th
            out[name][f"at_{th}"] = {"read": round(float((sure & (top == y)).mean()), 4),
                                     "misread": round(float((sure & wrong).mean()), 4)}
    # fitted together: the temperature that makes confidence mean what it says, and at it the
    # least threshold that keeps confident misreads within MISREAD_SHARE of the unseen dice
    out["card"] = {"temperature": out["temperature"],
                   "min_confidence": out["calibrated"]["least_confidence_for_0.4pct_misread"]}
    return out


def with_temperature(net, temperature: float):
    """``net`` with its last linear layer's output divided by ``temperature`` (a copy)."""
    import copy

    import torch.nn as nn

    if temperature == 1.0:
        return net
    net = copy.deepcopy(net)
    last = [m for m in net.modules() if isinstance(m, nn.Linear)][-1]
    last.weight.data /= temperature
    last.bias.data /= temperature
    return net


def write_model_dir(model_dir: Path, temperature: float, fit: dict | None) -> None:
    """A folder the reader loads as it loads vision/models: the run's classifier alone, the
    shipped detector, the shipped card (its thresholds kept, no second opinions)."""
    import shutil

    card = json.loads((MODELS / "dice_reader.json").read_text())
    card["classifier"]["file"] = "dice_cls.onnx"
    card["classifier"]["second_opinions"] = []
    card["classifier"]["temperature"] = temperature
    card["trained_by"] = "tools/train_reader.py " + " ".join(sys.argv[1:])
    if fit is not None:
        card["left_out"] = {"kinds": LEAVE_OUT_KINDS, **fit}
    shutil.copy(MODELS / card["detector"]["file"], model_dir / card["detector"]["file"])
    (model_dir / "dice_reader.json").write_text(json.dumps(card, indent=1) + "\n")
    log(f"wrote {model_dir}")


# ---------------------------------------------------------------- export


def export(net, shape, path: Path, detector: bool = False):
    """``net`` to ONNX at ``path`` (the detector for any frame size, a classifier through
    ``for_cv2`` for any batch), refused unless cv2.dnn reads it back to 1e-3."""
    import torch

    net.eval()
    if not detector:
        net = for_cv2(net)  # the same function, laid out for cv2.dnn's fast kernels
    x = torch.rand(*shape) - 0.5
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, (x,), str(path), opset_version=13, dynamo=False,
        input_names=["input"], output_names=["output"],
        dynamic_axes={"input": {0: "n", 2: "h", 3: "w"}, "output": {0: "n", 2: "h", 3: "w"}}
        if detector else {"input": {0: "n"}, "output": {0: "n"}},
    )
    if not detector:  # checked on a batch, as the reader runs it (one crop must not touch another)
        x = torch.rand(5, *shape[1:]) - 0.5
    with torch.no_grad():
        ref = net(x).numpy()
    for name in ("ENGINE_CLASSIC", "ENGINE_NEW"):
        engine = getattr(cv2.dnn, name, None)
        if engine is None:
            continue
        cvnet = cv2.dnn.readNetFromONNX(str(path), engine=engine)
        cvnet.setInput(x.numpy())
        got = cvnet.forward()
        err = float(np.abs(got - ref).max())
        log(f"exported {path.name}: {path.stat().st_size} bytes, cv2.dnn {name} "
            f"max |diff| {err:.2e}")
        if err > 1e-3:
            raise SystemExit(f"cv2.dnn does not read {path} back exactly (max diff {err})")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=["split", "kinds", "det", "cls", "export-cls", "tune",
                                      "calibrate"])
    ap.add_argument("runs", nargs="*", type=Path,
                    help="calibrate: the --model-dir folders of leave-out runs")
    ap.add_argument("--steps", type=int, default=2500)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--warm", action="store_true", help="start from the last weights")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads for cls")
    ap.add_argument("--sim-seed", type=int, default=7)
    ap.add_argument("--throws", type=int, default=0, help="simulated throws to add")
    ap.add_argument("--crop-px", type=int, default=CROP_PX, help="classifier crop, pixels")
    ap.add_argument("--crop-scale", type=float, default=CROP_SCALE,
                    help="classifier crop side, in die edges")
    ap.add_argument("--arch", choices=ARCHS, default="gap", help="face classifier shape")
    ap.add_argument("--wide", action="store_true", help="same as --arch wide")
    ap.add_argument("--out", type=Path, default=None, help="ONNX file to write")
    ap.add_argument("--sim", type=int, default=0, help="simulator stills to add to training")
    ap.add_argument("--warm-from", type=Path, default=None,
                    help="weights (.pt) to start from instead of /work/train-out/<out stem>.pt")
    ap.add_argument("--set-weight", action="append", default=[], metavar="SET=K",
                    help="crops per die times K for one photo set (repeatable)")
    ap.add_argument("--mild", type=float, default=0.0,
                    help="share of photo-die crops with mild colour jitter only (own colours)")
    ap.add_argument("--recolour", type=float, default=0.0,
                    help="share of photo-die crops given other body and pip colours")
    ap.add_argument("--wide-jitter", type=float, nargs=2, default=None, metavar=("SHARE", "K"),
                    help="a share of photo-die crops with size strayed by up to K (log units)")
    ap.add_argument("--recolour-contrast", type=float, default=90.0,
                    help="least body-pip colour difference of a recoloured die (one channel)")
    ap.add_argument("--parts", default="train",
                    help="photo parts to train on, comma-separated (train, or train,tune)")
    ap.add_argument("--hard", type=float, default=0.0,
                    help="photo dice read unsurely get up to 1 + HARD times the crops")
    ap.add_argument("--leave-out", action="append", default=[], metavar="PREFIX",
                    help="leave out train photos whose names start with PREFIX (repeatable)")
    ap.add_argument("--leave-out-kind", action="append", default=[], metavar="KIND",
                    help="leave a kind of dice (dice_split.json kinds) out of training; the run "
                    "reports its reading of them (repeatable)")
    ap.add_argument("--rendered", type=int, default=0, metavar="N",
                    help="mix N crops of rendered dice (tools/render_dice_crops.py) into each epoch")
    ap.add_argument("--rendered-seed", type=int, default=5)
    ap.add_argument("--rendered-cocked", type=float, default=0.0, metavar="SHARE",
                    help="share of the rendered crops that are leaning dice (the cocked class)")
    ap.add_argument("--rendered-version", type=int, default=None, metavar="N",
                    help="an earlier renderer's cached crops (a control run of its recipe)")
    ap.add_argument("--model-dir", type=Path, default=None, metavar="DIR",
                    help="write a model folder (classifier, detector, card) for --models")
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="divide the exported classifier's logits by this (calibration)")
    ap.add_argument("--per-die", type=int, default=8, help="crops per photo die an epoch")
    ap.add_argument("--backgrounds", type=int, default=5000, help="background crops an epoch")
    ap.add_argument("--cocked-crops", type=int, default=2500, help="cocked crops an epoch")
    ap.add_argument("--no-mine", action="store_true",
                    help="skip the detector's hits on the photos (faster short runs)")
    ap.add_argument("--mine-from", type=Path, default=MODELS, metavar="DIR",
                    help="the model folder whose detector's hits are mined (default: the "
                    "shipped one; a classifier for another detector is mined with it)")
    ap.add_argument("--kind-weight", action="append", default=[], metavar="KIND=K",
                    help="crops per die times K for one kind of dice (repeatable)")
    ap.add_argument("--invariance", action="append", default=[], metavar="NAME=SHARE",
                    help="a share of the photo dice's crops changed one way a pip count does not "
                    f"depend on ({', '.join(INVARIANCES)}; repeatable)")
    ap.add_argument("--mined-jitter", type=float, nargs=2, default=None,
                    metavar=("SIZE", "CENTRE"),
                    help="cut the detector's finds (mine) up to SIZE log units larger or smaller "
                    "and up to CENTRE edges off centre, evenly (default: sizes within 0.08, "
                    "centres spread 0.04 edges)")
    ap.add_argument("--mined-repeat", type=int, default=1, metavar="N",
                    help="crops of each of the detector's finds an epoch (default 1)")
    ap.add_argument("--ema", type=float, default=0.0,
                    help="export an exponential moving average of the weights (decay, e.g. 0.999)")
    ap.add_argument("--webcam", type=float, default=0.0, metavar="SHARE",
                    help="the share of the crops cut from their frame as a webcam's MJPEG "
                         "stream gives it (JPEG with 4:2:0 colour at the die's own size, at "
                         "times sensor noise before it; WEBCAM)")
    ap.add_argument("--webcam-quality", type=int, nargs=2, default=[30, 85],
                    metavar=("LO", "HI"), help="--webcam: the JPEG quality's range")
    ap.add_argument("--webcam-noise", type=float, default=0.5, metavar="SHARE",
                    help="--webcam: the share of those given sensor noise before the JPEG")
    a = ap.parse_args(argv)
    CROP.update(px=a.crop_px, scale=a.crop_scale)
    if set(a.parts.split(",")) - {"train", "tune"}:
        ap.error("--parts takes train and tune only: the held-out part is never trained on")
    LEAVE_OUT.extend(a.leave_out)
    LEAVE_OUT_KINDS.extend(a.leave_out_kind)
    if a.model_dir is not None:
        a.model_dir.mkdir(parents=True, exist_ok=True)
    RECOLOUR.update(min_diff=a.recolour_contrast)
    if a.wide_jitter:
        JITTER.update(wide_share=a.wide_jitter[0], wide=a.wide_jitter[1])
    if a.mined_jitter:
        if not (0 <= a.mined_jitter[0] <= 0.5 and 0 <= a.mined_jitter[1] <= 0.3):
            ap.error("--mined-jitter takes SIZE (log units, 0 to 0.5; 0.14 is 15%) and CENTRE "
                     f"(edges, 0 to 0.3), e.g. --mined-jitter 0.14 0.1 (got {a.mined_jitter})")
        MINED_JITTER.update(size=a.mined_jitter[0], centre=a.mined_jitter[1], even=True)
    if a.mined_repeat < 1:
        ap.error(f"--mined-repeat takes a count of 1 or more (got {a.mined_repeat})")
    MINED_JITTER["repeat"] = a.mined_repeat
    lo, hi = a.webcam_quality
    if not (0 <= a.webcam <= 1 and 0 <= a.webcam_noise <= 1 and 1 <= lo <= hi <= 100):
        ap.error("--webcam and --webcam-noise take shares from 0 to 1, --webcam-quality LO HI "
                 f"qualities 1 <= LO <= HI <= 100 (got {a.webcam}, {a.webcam_noise}, {lo} {hi})")
    WEBCAM.update(share=a.webcam, q_lo=lo, q_hi=hi, noise=a.webcam_noise)
    for x in a.invariance:
        name, _, share = x.partition("=")
        try:
            INVARIANCE[name] = float(share)
        except ValueError:
            ap.error(f"--invariance takes NAME=SHARE, e.g. polarity=0.3 (got {x!r})")
        if name not in INVARIANCES or not 0 <= INVARIANCE[name] <= 1:
            ap.error(f"--invariance {x!r}: NAME is one of {', '.join(INVARIANCES)} and SHARE "
                     "a share from 0 to 1")
    if a.stage in ("split", "kinds"):
        # "kinds" keeps the split and (re)writes the kinds of dice beside it
        split = make_split() if a.stage == "split" else json.loads(SPLIT_FILE.read_text())
        split["kinds"] = die_kinds()
        SPLIT_FILE.parent.mkdir(parents=True, exist_ok=True)
        SPLIT_FILE.write_text(json.dumps(split, indent=1) + "\n")
        log(f"wrote {SPLIT_FILE}: " + ", ".join(
            f"{k} ({v['look']}, {v['dice']} dice)" for k, v in split["kinds"]["kinds"].items()))
    elif a.stage == "det":
        train_det(a.steps, sim=a.sim)
    elif a.stage == "cls":
        try:
            weights = {k: float(v) for k, v in (x.split("=", 1) for x in a.set_weight)}
        except ValueError:
            ap.error("--set-weight takes SET=K, e.g. --set-weight nell-byler=2")
        try:
            kinds = {k: float(v) for k, v in (x.rsplit("=", 1) for x in a.kind_weight)}
        except ValueError:
            ap.error("--kind-weight takes KIND=K, e.g. --kind-weight nell-byler/0=2")
        train_cls(a.epochs, sim=a.sim, warm=a.warm or a.warm_from is not None, lr=a.lr,
                  arch="wide" if a.wide else a.arch, out=a.out, sim_seed=a.sim_seed,
                  throws=a.throws,
                  warm_from=a.warm_from, set_weight=weights, mild=a.mild, threads=a.threads,
                  recolour_share=a.recolour, ema=a.ema, hard=a.hard,
                  parts=tuple(a.parts.split(",")), rendered=a.rendered,
                  rendered_seed=a.rendered_seed, rendered_cocked=a.rendered_cocked,
                  rendered_version=a.rendered_version, model_dir=a.model_dir,
                  temperature=a.temperature, per_die=a.per_die, n_bg=a.backgrounds,
                  n_cocked=a.cocked_crops, mined=not a.no_mine, kind_weight=kinds,
                  mine_from=a.mine_from)
    elif a.stage == "export-cls":
        # a run's saved weights (the last epoch's of a run stopped early, or a run exported
        # again with the temperature ``calibrate`` fitted: --warm-from RUN.pt --temperature T)
        import torch

        out = a.out or MODELS / "dice_cls.onnx"
        net = cls_net("wide" if a.wide else a.arch)
        net.load_state_dict(torch.load(a.warm_from or WORK / (out.stem + ".pt")))
        export(with_temperature(net, a.temperature), (1, 3, CROP["px"], CROP["px"]), out)
    elif a.stage == "calibrate":
        if not a.runs:
            ap.error("calibrate takes the --model-dir folders of leave-out runs")
        print(json.dumps(calibrate_runs(a.runs), indent=1))
    elif a.stage == "tune":
        from reader_tune import tune

        tune()


if __name__ == "__main__":
    main()
