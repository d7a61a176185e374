"""Train the dice reader's detector (``vision/models/dice_det.onnx``) in a shape cv2.dnn runs
fast, and time detector shapes bare in cv2.dnn (dev-only tool; the torch venv, as
tools/train_reader.py).

The detector's contract is unchanged: a BGR frame scaled so a die is about 22 px, as
``(x/255 - 0.5)``, in; 4 maps at stride 4 out (centre logit, sub-cell dx, dy, log(die edge / 4)).
The shipped shape (``dilated``, tools/train_reader.py ``det_net``) reaches its
71-pixel receptive field with two dilated 3x3 convolutions at stride 4, for which cv2.dnn has no
fast kernel (half the net's time). ``up8`` reaches 87 pixels with plain 3x3 convolutions on a
stride-8 map (a quarter of the pixels) whose last map is upsampled (nearest) and added to the
stride-4 one, then one 3x3 convolution and the 1x1 head at stride 4. Its input's sides must be
multiples of 8 (the card's ``"multiple"``: the reader rounds to it)::

    T=/work/train-venv/bin/python; O=/work/train-out/det
    taskset -c 0 $T tools/train_detector.py bare                 # every shape, untrained
    nice -n 15 $T tools/train_detector.py train --arch up8 --steps 3500 --sim 150 \\
        --warm-from vision/models/dice_det.onnx --out $O/det_up8w.onnx --model-dir $O/models_up8w
    nice -n 15 $T tools/train_detector.py train --arch up8 --steps 1800 --sim 150 --seed 1 \\
        --resume $O/det_up8w.pt --lr 1e-3 --out $O/det_up8r.onnx --model-dir $O/models_up8r
    .venv/bin/python bench/read_accuracy.py --models $O/models_up8r
    taskset -c 0 .venv/bin/python bench/read_speed.py --against $O/models_up8r

Neither run reads as many dice as the shipped detector in the whole reader (the figures:
docs/reader-training.md, "Detector"), so vision/models keeps the shipped one.

``--model-dir`` writes a folder the reader loads as it loads vision/models: the shipped files
with this detector and the card's detector section (its ``multiple``) in; ``model-dir
--closer-look ONNX`` also names another detector for the closer looks (the card's
``detector.closer_look``).

``closer-looks`` records the patches the shipped reader's closer look cuts (the tracker and
``read_at`` on simulated throws with a leaning die, ``find`` and ``read_at`` on leaning
stills); ``train --closer-looks NPZ...`` teaches the teacher's find on them besides the usual
samples (docs/reader-training.md, "Teaching the closer look")::

    nice -n 15 $T tools/train_detector.py closer-looks --throws 60 --stills 40 --out $O/looks_a.npz
    nice -n 15 $T tools/train_detector.py train --arch up8 --steps 1500 --sim 100 \
        --resume $O/det_up8p.pt --size-from vision/models/dice_det.onnx --place-too --mimic \
        --closer-looks $O/looks_a.npz --look-batch 24 --look-weight 2 --place-weight 8 \
        --lr 3e-4 --out $O/det_up8Z.onnx --model-dir $O/models_up8Z

``tracker-looks`` records them where the tracker asks for them instead: ``bench/tracker.py``'s
own throws (dev seeds only), the ``ThrowTracker`` handing the reader its boxes at rest, at
640x480 and 1280x720::

    nice -n 15 $T tools/train_detector.py tracker-looks --run 81000:180:640x480 \
        --run 81000:180:1280x720 --out $O/tlooks_81.npz

``train --dark-repeat K`` draws the photos and stills with a dark die K times as often.

Data, sampling, loss and export are tools/train_reader.py's (``det_sample``, ``focal``,
``export``): the same as the shipped detector's.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import train_reader as tr  # noqa: E402

cv2.setNumThreads(1)
OUT = tr.WORK / "det"


# --mimic: the teacher's maps are learnt where its heat is at least this; its heat weighs this
MIMIC_HEAT, MIMIC_WEIGHT = 0.2, 0.2
# --dark-repeat: a die is dark when the median grey of the middle of its top face is below this
# (the train photos: black 28-55, marbled blue 40-79, dark red 55-91 at the 10th-90th
# percentiles; white 183-205)
DARK_GREY = 60


def dark_dice(img: np.ndarray, photo) -> int:
    """How many of ``photo``'s dice are dark (``DARK_GREY``) in ``img``."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    n = 0
    for d in photo.dice:
        r, x, y = max(2, int(0.3 * d.size)), int(d.cx), int(d.cy)
        n += float(np.median(grey[max(0, y - r):y + r, max(0, x - r):x + r])) < DARK_GREY
    return n


def _cbr(i: int, o: int, s: int = 1, d: int = 1):
    import torch.nn as nn

    return [nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o),
            nn.ReLU(inplace=True)]


def up_net(c4: int = 16, c8: int = 16, n8: int = 4, fine: int = 0, pool: bool = False,
           head3: bool = True):
    """Plain 3x3 convolutions only: the stride-4 map (``fine`` more 3x3 at stride 4 before the
    branch), a branch down to stride 8 (a stride-2 3x3, or with ``pool`` a 2x2 max pool) and
    ``n8`` 3x3 convolutions there for context, upsampled (nearest, exactly 2x) and added to the
    stride-4 map, a 3x3 at stride 4 (unless not ``head3``) and the 1x1 head."""
    import torch.nn as nn

    class UpDetector(nn.Module):
        def __init__(self):
            super().__init__()
            layers = [*_cbr(3, 8, 2), *_cbr(8, c4, 2)]
            for _ in range(fine):
                layers += _cbr(c4, c4)
            self.stem = nn.Sequential(*layers)
            ctx = [nn.MaxPool2d(2, 2, ceil_mode=True), *_cbr(c4, c8)] if pool else _cbr(c4, c8, 2)
            for _ in range(n8):
                ctx += _cbr(c8, c8)
            if c8 != c4:
                ctx.append(nn.Conv2d(c8, c4, 1, bias=False))
            self.context = nn.Sequential(*ctx)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.head = nn.Sequential(*(_cbr(c4, c4) if head3 else [nn.ReLU()]), nn.Conv2d(c4, 4, 1))

        def forward(self, x):
            f4 = self.stem(x)
            return self.head(f4 + self.up(self.context(f4)))

    return UpDetector()


def sep_net():
    """The shipped shape with its four stride-4 3x3 convolutions depthwise-separable (the
    dilations kept: depthwise dilated kernels are cheap in any case)."""
    import torch.nn as nn

    def sep(c, d):
        return [nn.Conv2d(c, c, 3, 1, padding=d, dilation=d, groups=c, bias=False),
                nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU(inplace=True)]

    return nn.Sequential(*_cbr(3, 8, 2), *_cbr(8, 16, 2), *sep(16, 1), *sep(16, 2), *sep(16, 4),
                         *sep(16, 1), nn.Conv2d(16, 4, 1))


# name -> (builder, the multiple the input's sides must be)
ARCHS = {
    "dilated": (tr.det_net, 4),
    "up8": (lambda: up_net(16, 16, 4, 0), 8),
    "up8-fine": (lambda: up_net(16, 16, 3, 1), 8),
    "up8-24": (lambda: up_net(16, 24, 4, 0), 8),
    "up8-3": (lambda: up_net(16, 16, 3, 0), 8),
    "sep": (sep_net, 4),
    "up8-pool": (lambda: up_net(16, 16, 4, 0, pool=True), 8),
    "up8-lite": (lambda: up_net(16, 16, 4, 1, head3=False), 8),
    "up8-pool-lite": (lambda: up_net(16, 16, 4, 1, pool=True, head3=False), 8),
}


def receptive_field(net, size: int = 192) -> int:
    """The side, in input pixels, of the square of input that moves the centre cell's output
    (measured: the gradient of that cell's four maps with respect to the input)."""
    import torch

    net.eval()
    x = torch.zeros(1, 3, size, size, requires_grad=True)
    y = net(x)
    c = y.shape[2] // 2
    y[0, :, c, c].sum().backward()
    g = x.grad[0].abs().sum(0)
    rows = torch.nonzero(g.sum(1)).flatten()
    cols = torch.nonzero(g.sum(0)).flatten()
    return int(max(rows.max() - rows.min(), cols.max() - cols.min()) + 1)


def _randomise_norms(net, seed: int = 0) -> None:
    """Batch norms given random statistics, so an untrained net's maps are not all alike
    (for checking cv2.dnn against torch; the timing does not care)."""
    import torch

    g = torch.Generator().manual_seed(seed)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)


def time_onnx(path: Path, shapes=((240, 320), (120, 160), (64, 64)), repeats: int = 60,
              rounds: int = 5) -> dict:
    """Median CPU ms of one cv2.dnn (classic engine) forward at each (h, w), best of ``rounds``
    medians (the machine is shared: the best round is the least disturbed)."""
    out = {}
    for h, w in shapes:
        net = cv2.dnn.readNetFromONNX(str(path), engine=cv2.dnn.ENGINE_CLASSIC)
        x = np.random.default_rng(0).uniform(-0.5, 0.5, (1, 3, h, w)).astype(np.float32)
        net.setInput(x)
        for _ in range(5):
            net.forward()
        best = float("inf")
        for _ in range(rounds):
            ts = []
            for _ in range(repeats):
                t0 = time.process_time()
                net.setInput(x)
                net.forward()
                ts.append(time.process_time() - t0)
            best = min(best, float(np.median(ts)) * 1e3)
        out[f"{w}x{h}"] = round(best, 3)
    return out


def bare(archs: list[str], files: list[Path]) -> None:
    """Each shape exported untrained (and each given ONNX file) timed bare in cv2.dnn."""
    tmp = Path(tempfile.mkdtemp(prefix="det_bare_"))
    rows = []
    for name in archs:
        build, multiple = ARCHS[name]
        net = build()
        _randomise_norms(net)
        path = tmp / f"{name}.onnx"
        tr.export(net, (1, 3, 240, 320), path, detector=True)
        rows.append((name, receptive_field(net), multiple, time_onnx(path)))
    for f in files:
        rows.append((str(f), None, None, time_onnx(f)))
    for name, rf, multiple, ms in rows:
        print(json.dumps({"net": name, "receptive_field": rf, "multiple": multiple, "ms": ms}))
    shutil.rmtree(tmp)


def write_model_dir(model_dir: Path, det: Path, arch: str, closer_look: Path | None = None) -> None:
    """A folder the reader loads: the shipped models and card, this detector and its card
    section in; ``closer_look``: another detector for the closer looks (``_refine``), copied
    in as ``dice_det_look.onnx`` and named in the card."""
    model_dir.mkdir(parents=True, exist_ok=True)
    for f in tr.MODELS.iterdir():
        if f.is_file():
            shutil.copy2(f, model_dir / f.name)
    shutil.copy2(det, model_dir / "dice_det.onnx")
    card_path = model_dir / "dice_reader.json"
    card = json.loads(card_path.read_text())
    card["detector"].update(detector_card(arch))
    if closer_look is not None:
        shutil.copy2(closer_look, model_dir / "dice_det_look.onnx")
        card["detector"]["closer_look"] = "dice_det_look.onnx"
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    tr.log(f"wrote {model_dir}")


def detector_card(arch: str) -> dict:
    multiple = ARCHS[arch][1]
    return {
        "input": "BGR frame scaled so a die is ~22 px (half size for a 640-wide view), "
                 f"(x/255 - 0.5), sides multiples of {multiple}",
        "multiple": multiple,
    }


def warm_start(net, onnx_path: Path) -> None:
    """The convolutions ``net`` shares with the detector in ``onnx_path`` (its batch norms
    folded in) started from that detector's weights: the stem (its first two), and the head
    (its last 3x3 and its 1x1) where ``net`` has a 3x3 before its 1x1 head; each batch norm
    after a copied convolution set to pass the folded bias through."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(onnx_path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [(weights[n.input[1]], weights[n.input[2]]) for n in model.graph.node
             if n.op_type == "Conv"]
    mods = list(net.modules())
    mine = [k for k, m in enumerate(mods) if isinstance(m, torch.nn.Conv2d)]
    pairs = [(mine[0], convs[0]), (mine[1], convs[1]), (mine[-1], convs[-1])]
    if len(mine) > 2 and mods[mine[-2]].kernel_size == (3, 3):
        pairs.append((mine[-2], convs[-2]))
    with torch.no_grad():
        for k, (w, b) in pairs:
            conv = mods[k]
            if tuple(conv.weight.shape) != w.shape:
                continue
            conv.weight.copy_(torch.from_numpy(w))
            after = mods[k + 1] if k + 1 < len(mods) else None
            if isinstance(after, torch.nn.BatchNorm2d):
                after.weight.fill_(1.0)
                after.bias.copy_(torch.from_numpy(b))
            elif conv.bias is not None:
                conv.bias.copy_(torch.from_numpy(b))
    tr.log(f"warm start from {onnx_path}: {len(pairs)} convolutions")


def rest_frames(n_throws: int, first_seed: int = 200_000) -> list:
    """The rest frames of ``n_throws`` simulated throws with a leaning die (on the wall or on the
    other die; the tracker's cocked throws), every other one at 1280x720 in the physical world
    (as ``bench/tracker.py --hd-throws``): (image, [(value, cx, cy, die_px, cocked)])."""
    from vision.simulator import Scenario, simulate_throw
    from vision.simulator.worlds import world_of

    out = []
    for seed in range(first_seed, first_seed + n_throws):
        scen = (Scenario.COCKED_WALL, Scenario.COCKED_DIE)[seed % 2]
        hd = (seed // 2) % 2 == 1
        try:
            clip = simulate_throw(seed=seed, scenario=scen, size=(1280, 720) if hd else (640, 480),
                                  **world_of("physical" if hd else None, seed, 60))
        except Exception as exc:
            tr.log(f"throw {seed} failed: {exc}")
            continue
        _, frame = clip.frames[clip.truth["rest_frame"]]
        dp = clip.calibration.die_px
        dice = [(d["value"], *d["rest_center"], dp, bool(d["cocked"]))
                for d in clip.truth["dice"] if d["at_rest_in_area"]]
        if dice:
            out.append((frame, dice))
    tr.log(f"rest frames: {len(out)} throws, {sum(c for _, d in out for *_, c in d)} dice leaning")
    return out


class LookRecorder:
    """The shipped reader with every patch its closer look (``DiceReader._refine``) cuts
    recorded, on the code path that cuts them: the pixels, the reach and the given size in
    cells, whether the size was known, and whether the die nearest the patch's centre leans
    (-1: no die within an edge of it). ``truth``: the frame's dice as (cx, cy, px, leans), set
    by the caller before each frame."""

    def __init__(self):
        from vision.dice import DiceReader

        self.reader = DiceReader(tr.MODELS)
        self.rows: list[tuple] = []
        self.truth: list[tuple[float, float, float, bool]] = []
        self._looked = self.reader._refine
        self.reader._refine = self._recording

    def _recording(self, frame, dice, size_known=False):
        from vision.dice import DET_STRIDE

        reach = self.reader.tuning.refine_reach
        patches, scales, _ = self.reader.refine_patches(frame, dice)
        for (cx, cy, size), patch, k in zip(dice, patches, scales, strict=True):
            near = [(math.hypot(cx - x, cy - y), leans) for x, y, px, leans in self.truth
                    if math.hypot(cx - x, cy - y) < px]
            self.rows.append((patch, reach * size * k / DET_STRIDE, size * k / DET_STRIDE,
                              bool(size_known), int(min(near)[1]) if near else -1))
        return self._looked(frame, dice, size_known)

    def save(self, out: Path) -> None:
        rows = self.rows
        np.savez_compressed(out, patch=np.stack([r[0] for r in rows]),
                            reach=np.array([r[1] for r in rows], np.float32),
                            size=np.array([r[2] for r in rows], np.float32),
                            size_known=np.array([r[3] for r in rows]),
                            leans=np.array([r[4] for r in rows], np.int8))
        leans = sum(r[4] == 1 for r in rows)
        tr.log(f"wrote {out}: {len(rows)} closer looks' patches, {leans} of them on a leaning die")


def closer_look_patches(n_throws: int, n_stills: int, out: Path, first_seed: int = 200_000,
                        jitter: float = 0.2, seed: int = 0) -> None:
    """The patches the shipped reader's closer look cuts (``LookRecorder``) into ``out``
    (.npz): the ``ThrowTracker`` run with the shipped reader over ``n_throws`` simulated throws
    with a die leaning (on the wall or on the other die, alternately; every other one at
    1280x720; all in the physical world, as ``bench/tracker.py --world physical``; seeds from
    ``first_seed``, none of the tracker bench's), ``read_at`` on each rest frame at the dice's
    true resting centres moved by up to ``jitter`` of an edge (where a tracker's box may put
    them), and ``find`` and ``read_at`` on ``n_stills`` simulator stills with 80% of their dice
    leaning."""
    from vision.simulator import Scenario, simulate_throw
    from vision.simulator.worlds import world_of
    from vision.tracker import ThrowTracker

    rec = LookRecorder()
    reader = rec.reader
    rng = np.random.default_rng(seed)

    def jittered(dice, die_px):
        return [(x + rng.uniform(-jitter, jitter) * die_px, y + rng.uniform(-jitter, jitter) * die_px)
                for x, y in dice]

    for seed_ in range(first_seed, first_seed + n_throws):
        scen = (Scenario.COCKED_WALL, Scenario.COCKED_DIE)[seed_ % 2]
        size = (1280, 720) if (seed_ // 2) % 2 else (640, 480)
        try:
            clip = simulate_throw(seed=seed_, scenario=scen, size=size,
                                  **world_of("physical", seed_, 60))
        except Exception as exc:
            tr.log(f"throw {seed_} failed: {exc}")
            continue
        dp = clip.calibration.die_px
        rec.truth[:] = [(*d["rest_center"], dp, bool(d["cocked"])) for d in clip.truth["dice"]]
        tracker = ThrowTracker(clip.calibration, reader=reader)
        for ts, img in clip.frames:
            tracker.feed(ts, img)
        _, frame = clip.frames[clip.truth["rest_frame"]]
        at_rest = [tuple(d["rest_center"]) for d in clip.truth["dice"] if d["at_rest_in_area"]]
        if at_rest:
            reader.read_at(frame, at_rest, die_px=dp)
            reader.read_at(frame, jittered(at_rest, dp), die_px=dp)
        if (seed_ - first_seed) % 20 == 19:
            tr.log(f"closer looks: {seed_ - first_seed + 1} throws, {len(rec.rows)} patches")
    for img, dice in tr.sim_stills(n_stills, seed=28 + seed, lean_share=0.8) if n_stills else []:
        rec.truth[:] = [(cx, cy, dp, bool(c)) for _, cx, cy, dp, c in dice]
        reader.find(img)
        centres = [(cx, cy) for _, cx, cy, _, _ in dice]
        dp = float(np.median([d[3] for d in dice]))
        reader.read_at(img, jittered(centres, dp), die_px=dp)
    rec.save(out)


# the dev seeds of bench/tracker.py's sets (never the never-tuned 90000.. and 91000..)
DEV_SEEDS = ((80_000, 81_000), (81_000, 82_000), (84_000, 85_000))


def tracker_looks(runs: list[tuple[int, int, tuple[int, int]]], out: Path, fps: float = 60) -> None:
    """The patches the shipped reader's closer look cuts where the tracker asks for them
    (``LookRecorder``), into ``out`` (.npz): each run (first seed, throws, frame size) is
    ``bench/tracker.py --world physical --seed FIRST`` at that size, the same throws in the same
    order of cases, the ``ThrowTracker`` handing the reader its own boxes (a silhouette's
    centre, not the die's); nothing else is read. Dev seeds only (``DEV_SEEDS``)."""
    from tests.support.throws import SIM_CASES
    from vision.simulator import simulate_throw
    from vision.simulator.worlds import world_of
    from vision.tracker import ThrowTracker

    for first, n, _ in runs:
        if not any(lo <= first and first + n <= hi for lo, hi in DEV_SEEDS):
            raise SystemExit(f"tracker-looks: seeds {first}..{first + n - 1} are not all in one dev "
                             f"set ({', '.join(f'{lo}..{hi - 1}' for lo, hi in DEV_SEEDS)})")
    rec = LookRecorder()
    for first, n, size in runs:
        base = next(lo for lo, hi in DEV_SEEDS if lo <= first < hi)
        for seed in range(first, first + n):
            try:  # the case the bench gives this seed, run from its set's first seed
                clip = simulate_throw(seed=seed, scenario=SIM_CASES[(seed - base) % len(SIM_CASES)],
                                      size=size, **world_of("physical", seed, fps))
            except Exception as exc:  # noqa: BLE001 - the simulator's fault; the bench skips it too
                tr.log(f"throw {seed} failed: {exc}")
                continue
            dp = clip.calibration.die_px
            rec.truth[:] = [(*d["rest_center"], dp, bool(d["cocked"])) for d in clip.truth["dice"]]
            tracker = ThrowTracker(clip.calibration, reader=rec.reader)
            for ts, img in clip.frames:
                tracker.feed(ts, img)
        tr.log(f"tracker looks: seeds {first}.. at {size[0]}x{size[1]}, {len(rec.rows)} patches")
    rec.save(out)


def closer_look_loss(net, teacher, patches: dict, idx: np.ndarray, rng, heat_floor: float,
                     band: tuple[float, float], place_weight: float, lean_weight: float):
    """The closer look taught on the shipped reader's own patches (``closer_look_patches``):
    on each patch the find ``_refine`` would take from the teacher (its hottest cell near the
    centre, of about the given size when that is known) is to be the student's hottest there
    too (cross-entropy over those cells), and the centre and size the student would give at
    each of those cells the teacher's find's (L1, each cell weighed by the student's odds of
    taking it, times ``place_weight``), and its heat everywhere (binary cross-entropy); a patch on a
    leaning die weighs ``lean_weight``. Patches are flipped at random (the teacher sees the
    flipped patch too)."""
    import torch
    import torch.nn.functional as F

    from vision.dice import _cell_distances

    x = patches["patch"][idx].copy()
    if rng.random() < 0.5:
        x = x[:, :, ::-1]
    if rng.random() < 0.5:
        x = x[:, ::-1]
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0 - 0.5
    teacher.setInput(x)
    taught = teacher.forward()  # (n, 4, g, g)
    g = taught.shape[-1]
    near = _cell_distances(g)[None] <= (patches["reach"][idx] ** 2)[:, None, None]
    sized = patches["size"][idx][:, None, None]
    in_band = (np.exp(taught[:, 3]) > band[0] * sized) & (np.exp(taught[:, 3]) < band[1] * sized)
    near &= np.where(patches["size_known"][idx][:, None, None], in_band, True)
    logit = np.where(near, taught[:, 0], -np.inf).reshape(len(idx), -1)
    cell = logit.argmax(1)
    valid = logit[np.arange(len(idx)), cell] > math.log(heat_floor / (1 - heat_floor))
    y = net(torch.from_numpy(x))
    t = torch.from_numpy(taught)
    w = torch.from_numpy(np.where(patches["leans"][idx] == 1, lean_weight, 1.0).astype(np.float32))
    heat = F.binary_cross_entropy_with_logits(y[:, 0], torch.sigmoid(t[:, 0]),
                                              reduction="none").mean((1, 2))
    loss = (w * heat).sum()
    if valid.any():
        v = torch.from_numpy(np.nonzero(valid)[0])
        c = torch.from_numpy(cell[valid])
        ys = y[v, 0].reshape(len(v), -1).masked_fill(
            ~torch.from_numpy(near[valid].reshape(len(v), -1)), -1e4)
        choose = F.cross_entropy(ys, c, reduction="none")
        # the teacher's find (centre in cells, log size) against the one the student would
        # take at each near cell, weighed by how likely the student is to take that cell
        want = t[v, 1:].reshape(len(v), 3, -1).gather(2, c[:, None, None].expand(-1, 3, 1))
        want = want + torch.stack([c % g, c // g, torch.zeros_like(c)], 1)[..., None].float()
        jj, ii = np.meshgrid(np.arange(g), np.arange(g))
        at = torch.from_numpy(np.stack([jj, ii, np.zeros_like(ii)]).reshape(3, -1)).float()
        got = y[v, 1:].reshape(len(v), 3, -1) + at[None]
        odds = torch.softmax(ys, 1).detach()
        place = ((got - want).abs().sum(1) * odds).sum(1)
        loss = loss + (w[v] * (choose + place_weight * place)).sum()
    return loss / w.sum()


def _batch(data, rng, bs: int, lean=None, n_lean: int = 0) -> list:
    """``bs`` samples (tools/train_reader.py ``det_sample``): the first ``n_lean`` of them cut
    from the leaning dice's stills ``lean``, the rest from ``data``."""
    return ([tr.det_sample(lean, rng) for _ in range(n_lean if lean else 0)]
            + [tr.det_sample(data, rng) for _ in range(bs - (n_lean if lean else 0))])


def _batches(data, seed: int, bs: int, steps: int, workers: int, lean=None, n_lean: int = 0):
    """``steps`` batches of ``bs`` samples (``_batch``), cut in ``workers`` processes beside
    the training (0: in it), each with its own generator."""
    if workers == 0:
        rng = np.random.default_rng(seed)
        for _ in range(steps):
            yield _batch(data, rng, bs, lean, n_lean)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork")  # the photos are shared with the workers, not copied
    queue = ctx.Queue(maxsize=8)
    share = [steps // workers + (k < steps % workers) for k in range(workers)]
    procs = [ctx.Process(target=_cut, args=(data, seed * 1000 + k, bs, n, queue, lean, n_lean),
                         daemon=True)
             for k, n in enumerate(share)]
    for p in procs:
        p.start()
    try:
        for _ in range(steps):
            yield queue.get()
    finally:
        for p in procs:
            p.kill()


def _cut(data, seed: int, bs: int, n: int, queue, lean=None, n_lean: int = 0) -> None:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    for _ in range(n):
        queue.put(_batch(data, rng, bs, lean, n_lean))


def train(arch: str, steps: int, sim: int, out: Path, seed: int = 0, threads: int = 1,
          model_dir: Path | None = None, workers: int = 1, warm_from: Path | None = None,
          resume: Path | None = None, lr: float = 4e-3, size_from: Path | None = None,
          place_too: bool = False, mimic: bool = False, lean_stills: int = 0,
          lean_batch: int = 4, lean_weight: float = 1.0, lean_throws: int = 0,
          closer_looks: list[Path] | None = None, look_batch: int = 16, look_weight: float = 1.0,
          place_weight: float = 4.0, look_lean_weight: float = 2.0, dark_repeat: int = 1) -> None:
    """tools/train_reader.py's ``train_det`` with this shape: the same photos, samples, loss,
    schedule and export (the samples cut in ``workers`` processes beside the training).
    ``size_from``: a teacher detector whose size map is learnt where a die's centre is (and,
    ``place_too``, its centre offsets as well), not the labels'; ``mimic``: its three maps
    learnt wherever it sees a die at least ``MIMIC_HEAT`` hot (so a find in the cell beside a
    die's centre is placed as the teacher places it), and its heat besides the labels'.
    ``lean_stills``: that many more simulator stills, most of their dice leaning, of which
    ``lean_batch`` samples a batch are taught by the teacher alone (its heat, at
    ``lean_weight``, not the labels', and its three maps wherever it is hot): a leaning die's
    two finds and their places, which flag it, are the teacher's, not one label's.
    ``lean_throws``: the rest frames of that many simulated throws with a leaning die
    (``rest_frames``) join them. ``closer_looks``: the shipped reader's closer-look patches
    (``closer_look_patches``), ``look_batch`` of them a step taught by the teacher
    (``closer_look_loss``) at ``look_weight``. ``dark_repeat``: each photo or still with a
    dark die (``dark_dice``) that many times in the data, so its samples are drawn so much
    more often."""
    import torch
    from reader_data import Die, Photo

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    data = tr.load_part("train")
    for img, dice in tr.sim_stills(sim, seed=8) if sim else []:
        data.append((img, Photo(Path("sim"), "sim",
                                [Die(v, cx, cy, dp, dp, dp) for v, cx, cy, dp, _ in dice])))
    if dark_repeat > 1:
        dark = [e for e in data if dark_dice(*e)]
        tr.log(f"{len(dark)} of {len(data)} photos and stills with a dark die, "
               f"each {dark_repeat} times")
        data = data + dark * (dark_repeat - 1)
    leaning = ((tr.sim_stills(lean_stills, seed=18, lean_share=0.8) if lean_stills else [])
               + (rest_frames(lean_throws) if lean_throws else []))
    lean = [(img, Photo(Path("sim"), "sim", [Die(v, cx, cy, dp, dp, dp)
                                              for v, cx, cy, dp, _ in dice]))
            for img, dice in leaning] or None
    looks = None
    if closer_looks:
        if size_from is None:
            raise SystemExit("--closer-looks are taught by the teacher: give --size-from")
        parts = [np.load(f) for f in closer_looks]
        looks = {k: np.concatenate([q[k] for q in parts]) for k in parts[0].files}
        tr.log(f"{len(looks['patch'])} closer looks' patches, "
               f"{int((looks['leans'] == 1).sum())} on leaning dice")
        card = json.loads((tr.MODELS / "dice_reader.json").read_text())
        thresholds = card["thresholds"]
        look_heat, look_band = float(thresholds["heat"]), tuple(thresholds["size_band"])
        look_rng = np.random.default_rng(seed + 77)
    if lean and (size_from is None or not mimic):
        raise SystemExit("--lean-stills are taught by the teacher: give --size-from and --mimic")
    tr.log(f"detector {arch}: {len(data)} train photos"
           + (f", {len(lean)} leaning dice's stills ({lean_batch} a batch)" if lean else ""))
    net = ARCHS[arch][0]()
    if resume is not None:  # a run's saved weights, trained further
        net.load_state_dict(torch.load(resume))
    elif warm_from is not None:
        warm_start(net, warm_from)
    teacher = None if size_from is None else cv2.dnn.readNetFromONNX(
        str(size_from), engine=cv2.dnn.ENGINE_CLASSIC)
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.1)
    bs = 16
    t0 = time.time()
    batches = _batches(data, seed, bs, steps, workers, lean, lean_batch)
    n_lean = lean_batch if lean else 0
    for step, batch in zip(range(steps), batches, strict=False):
        x = torch.from_numpy(np.stack([b[0] for b in batch])).permute(0, 3, 1, 2).float()
        x = x / 255.0 - 0.5
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        if teacher is not None:  # the size to learn: the teacher's, where a die's centre is
            teacher.setInput(np.ascontiguousarray(x.numpy()))
            taught = torch.from_numpy(teacher.forward())
            if mimic:
                hot = (torch.sigmoid(taught[:, 0]) >= MIMIC_HEAT).float()
                reg = taught[:, 1:].clone()
                place = torch.maximum(mask, hot)
            else:
                maps = slice(0, 3) if place_too else slice(2, 3)
                reg[:, maps] = torch.where(mask[:, None] > 0, taught[:, 1:][:, maps],
                                           reg[:, maps])
        y = net(x)
        n = mask.sum().clamp(min=1)
        lh = tr.focal(y[n_lean:, 0], heat[n_lean:])
        if teacher is not None and mimic:
            bce = torch.nn.functional.binary_cross_entropy_with_logits(
                y[:, 0], torch.sigmoid(taught[:, 0]), reduction="none").sum((1, 2))
            lh = lh + MIMIC_WEIGHT * bce[n_lean:].sum() / n
            if n_lean:  # the leaning dice's samples: the teacher's heat and maps alone
                hot_lean = (hot[:n_lean].sum()).clamp(min=1)
                lh = lh + lean_weight * bce[:n_lean].sum() / hot_lean
                place[:n_lean] = hot[:n_lean]
            mask = place
        lr_ = ((y[:, 1:] - reg).abs().sum(1) * mask).sum() / mask.sum().clamp(min=1)
        loss = lh + lr_
        if looks is not None:
            idx = look_rng.integers(len(looks["patch"]), size=look_batch)
            lc = closer_look_loss(net, teacher, looks, idx, look_rng, look_heat, look_band,
                                  place_weight, look_lean_weight)
            loss = loss + look_weight * lc
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            tr.log(f"det {arch} step {step}/{steps} heat {lh.item():.3f} reg {lr_.item():.3f} "
                   + (f"closer looks {lc.item():.3f} " if looks is not None else "")
                   + f"({time.time() - t0:.0f}s)")
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    tr.export(net, (1, 3, 240, 320), out, detector=True)
    if model_dir is not None:
        write_model_dir(model_dir, out, arch)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=["bare", "train", "model-dir", "closer-looks", "tracker-looks"])
    ap.add_argument("files", nargs="*", type=Path, help="bare: ONNX files to time as well")
    ap.add_argument("--arch", choices=sorted(ARCHS), default="up8")
    ap.add_argument("--archs", default=",".join(ARCHS), help="bare: the shapes to time")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--sim", type=int, default=150, help="simulator stills to add to training")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--workers", type=int, default=1,
                    help="processes cutting the training samples (0: in the training's own)")
    ap.add_argument("--out", type=Path, default=None, help="ONNX file to write")
    ap.add_argument("--warm-from", type=Path, default=None, metavar="ONNX",
                    help="start the stem and head from this detector's weights")
    ap.add_argument("--resume", type=Path, default=None, metavar="PT",
                    help="start from a run's saved weights (.pt), all of them")
    ap.add_argument("--lr", type=float, default=4e-3, help="the one-cycle schedule's peak")
    ap.add_argument("--size-from", type=Path, default=None, metavar="ONNX",
                    help="learn the die's size as this detector sees it, not the label's (the "
                    "classifiers were trained on crops of its sizes)")
    ap.add_argument("--place-too", action="store_true",
                    help="with --size-from: its centre offsets too (where its crops were cut)")
    ap.add_argument("--mimic", action="store_true",
                    help="with --size-from: learn its maps wherever it sees a die, and its heat")
    ap.add_argument("--lean-stills", type=int, default=0, metavar="N",
                    help="with --mimic: N more simulator stills of leaning dice, taught by the "
                    "teacher alone")
    ap.add_argument("--lean-throws", type=int, default=0, metavar="N",
                    help="with --mimic: the rest frames of N simulated throws with a leaning die, "
                    "taught by the teacher alone (as --lean-stills)")
    ap.add_argument("--lean-batch", type=int, default=4,
                    help="samples a batch cut from the --lean-stills")
    ap.add_argument("--lean-weight", type=float, default=1.0,
                    help="weight of the teacher's heat on the --lean-stills' samples")
    ap.add_argument("--dark-repeat", type=int, default=1, metavar="K",
                    help="train: each photo or still with a dark die K times in the data")
    ap.add_argument("--closer-looks", type=Path, nargs="+", default=None, metavar="NPZ",
                    help="train: the shipped reader's closer-look patches (the closer-looks "
                    "stage's --out), taught by the teacher (needs --size-from)")
    ap.add_argument("--look-batch", type=int, default=16, help="closer-look patches a step")
    ap.add_argument("--look-weight", type=float, default=1.0,
                    help="weight of the closer-look loss")
    ap.add_argument("--place-weight", type=float, default=4.0,
                    help="closer looks: weight of the teacher's offsets and size at its find")
    ap.add_argument("--look-lean-weight", type=float, default=2.0,
                    help="closer looks: weight of a patch on a leaning die")
    ap.add_argument("--throws", type=int, default=200,
                    help="closer-looks: simulated throws with a leaning die to track")
    ap.add_argument("--first-seed", type=int, default=200_000,
                    help="closer-looks: the first throw's seed (the tracker bench's are 80,000-)")
    ap.add_argument("--stills", type=int, default=60,
                    help="closer-looks: simulator stills of leaning dice to read")
    ap.add_argument("--run", action="append", default=[], metavar="FIRST:N:WxH",
                    help="tracker-looks: N throws of bench/tracker.py's from seed FIRST at WxH "
                    "(repeatable; dev seeds only)")
    ap.add_argument("--closer-look", type=Path, default=None, metavar="ONNX",
                    help="model-dir: the closer looks' own detector (e.g. the shipped one)")
    ap.add_argument("--model-dir", type=Path, default=None, metavar="DIR",
                    help="write a model folder (shipped files, this detector) for --models")
    a = ap.parse_args(argv)
    if a.stage == "bare":
        bare([n for n in a.archs.split(",") if n], a.files)
    elif a.stage == "train":
        train(a.arch, a.steps, a.sim, a.out or OUT / f"det_{a.arch}.onnx", seed=a.seed,
              threads=a.threads, model_dir=a.model_dir, workers=a.workers,
              warm_from=a.warm_from, resume=a.resume, lr=a.lr, size_from=a.size_from,
              place_too=a.place_too, mimic=a.mimic, lean_stills=a.lean_stills,
              lean_batch=a.lean_batch, lean_weight=a.lean_weight, lean_throws=a.lean_throws,
              closer_looks=a.closer_looks, look_batch=a.look_batch, look_weight=a.look_weight,
              place_weight=a.place_weight, look_lean_weight=a.look_lean_weight,
              dark_repeat=a.dark_repeat)
    elif a.stage == "closer-looks":  # the shipped reader's closer looks, recorded
        if a.out is None:
            ap.error("closer-looks takes --out (the .npz to write)")
        closer_look_patches(a.throws, a.stills, a.out, first_seed=a.first_seed, seed=a.seed)
    elif a.stage == "tracker-looks":  # the closer looks at the tracker's own boxes
        if a.out is None or not a.run:
            ap.error("tracker-looks takes --out (the .npz to write) and --run FIRST:N:WxH")
        runs = []
        for r in a.run:
            try:
                first, n, wh = r.split(":")
                w, h = wh.split("x")
                runs.append((int(first), int(n), (int(w), int(h))))
            except ValueError:
                ap.error(f"--run {r!r}: expected FIRST:N:WxH, e.g. 81000:120:1280x720")
        tracker_looks(runs, a.out)
    elif a.stage == "model-dir":  # a folder around an already trained detector
        if a.model_dir is None or a.out is None:
            ap.error("model-dir takes --out (the trained ONNX) and --model-dir")
        write_model_dir(a.model_dir, a.out, a.arch, a.closer_look)


if __name__ == "__main__":
    main()
