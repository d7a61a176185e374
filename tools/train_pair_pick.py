"""Train the pair model (``vision/models/dice_pair.onnx``): which die of a close pair leans on
the other, from one crop of both (``vision.pair_pick.pair_crop``).

Dev-only (PyTorch in /work/train-venv: ``pip install torch==2.13.0 onnxscript onnx numpy
opencv-python-headless``); the shipped model runs through ``cv2.dnn``. The shipped model (its
card ``dice_pair.json``) was made so:

    P=/work/train-venv/bin/python; O=/work/train-out
    $P tools/train_pair_pick.py data --world physical --throws 8000 --first-seed 520000 \
        --out $O/pair_phys.npz
    $P tools/train_pair_pick.py data --world physical --throws 24000 --first-seed 528000 \
        --out $O/pair_phys2.npz
    $P tools/train_pair_pick.py data --world default --throws 2000 --first-seed 210000 \
        --out $O/pair_def.npz
    $P tools/train_pair_pick.py data --world physical --throws 1000 --first-seed 610000 \
        --out $O/pair_val.npz
    $P tools/train_pair_pick.py train --data $O/pair_phys.npz $O/pair_phys2.npz $O/pair_def.npz \
        --val $O/pair_val.npz --epochs 6 --out vision/models/dice_pair.onnx
    .venv/bin/python tools/train_pair_pick.py eval $O/pair_val.npz   # through cv2.dnn
    .venv/bin/python bench/cocked_rest.py picks REST_SETS...          # as the pair cue picks

(about 25 minutes of two cores for the crops, 28 for the net.)

Data: the rest frames of simulated throws of a world whose case is a die leaning on the other
(``cocked_die``), at 640x480, 1280x720 and 800x600 and other die sizes; for each throw whose
two dice rest in view with exactly one leaning on the other, crops of the pair centred between
the dice's top faces (each centre jittered as the reader's is), the first die on the left, the
label whether the first die is the leaning one (half the crops mirrored, so half the labels
are 1). Seeds used by the benches and tuning (1000.., 5000.., 7000.., 9000.., 11000..,
13000.., 20000.., 30000.., 50000.., 70000.. to 99999) and by the lean model's training
(200000..204000, 500000..515000, 600000..601500) are never used here.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "tools"))

import train_lean  # noqa: E402
from train_lean import log  # noqa: E402

from vision.pair_pick import PAIR_EDGES, PAIR_H, PAIR_W, pair_crop  # noqa: E402

SIZES = [(640, 480), (640, 480), (1280, 720), (800, 600)]


def throw_crops(seed: int, per_frame: int = 3, world: str = "physical"):
    """Crops of the resting pair of one simulated ``cocked_die`` throw of ``world``: (crops,
    labels, meta), meta per crop (seed, the lean in degrees, the tops' distance in die
    edges, the leaning die's distance from the wall in die edges)."""
    from vision.simulator import simulate_throw
    from vision.simulator.worlds import world_of
    from vision.throw_geometry import TableGeometry

    rng = np.random.default_rng([seed, 78])
    size = SIZES[seed % len(SIZES)]
    die_px = None if rng.random() < 0.6 else float(rng.uniform(28, 64)) * size[1] / 480
    kwargs = world_of(world, seed, 60.0)
    try:
        clip = simulate_throw(seed=seed, scenario="cocked_die", size=size, die_px=die_px,
                              **kwargs)
    except Exception:  # noqa: BLE001 - a launch the simulator could not make: skip it
        return [], [], []
    dice = clip.truth["dice"]
    if len(dice) != 2 or not all(d["visible_at_rest"] for d in dice):
        return [], [], []
    leaning = [d.get("cocked_on") == "die" for d in dice]
    if sum(leaning) != 1 or any(d["cocked"] and d.get("cocked_on") != "die" for d in dice):
        return [], [], []
    geo = TableGeometry(clip.calibration)
    wall_dir = (-geo.wall_n[0], -geo.wall_n[1])
    dp = clip.calibration.die_px
    lean = dice[0] if leaning[0] else dice[1]
    tops = [tuple(d["rest_center"]) for d in dice]
    apart = math.dist(*tops) / dp
    d_wall = geo.wall_distance(*lean["rest_center"])[0] / dp
    xs, ys, meta = [], [], []
    frames = clip.frames
    for k in range(2):
        _, frame = frames[len(frames) - 1 - 7 * k]  # two rest frames: other noise
        for _ in range(per_frame):
            # the reader's top centre is a few hundredths of an edge off; a die it leaves
            # unread is placed at its box's centre, farther off
            spread = 0.07 if rng.random() < 0.75 else 0.18
            c = [(x + rng.normal(0, spread) * dp, y + rng.normal(0, spread) * dp)
                 for x, y in tops]
            s = dp * math.exp(rng.uniform(-0.1, 0.1))
            t = math.radians(rng.normal(0, 4.0))
            wd = (wall_dir[0] * math.cos(t) - wall_dir[1] * math.sin(t),
                  wall_dir[0] * math.sin(t) + wall_dir[1] * math.cos(t))
            first = 0 if rng.random() < 0.5 else 1
            xs.append(pair_crop(frame, c[first], c[1 - first], s, wd))
            ys.append(1 if leaning[first] else 0)
            meta.append((seed, float(lean.get("cocked_tilt_deg", math.nan)), apart, d_wall))
    return xs, ys, meta


def make_data(first: int, n: int, out: Path, workers: int, world: str) -> None:
    """The pair crops of throws ``first``.. (``train_lean.make_data`` with ``throw_crops``)."""
    train_lean.make_data(first, n, out, workers, world, throw_crops)


def pair_net():
    """The lean model's shape (``train_lean.lean_net``) on an 80x48 crop: 48x80 -> 24x40 ->
    12x20 -> 6x10, the map kept whole (which side the lean shows on matters)."""
    return train_lean.lean_net(last=48, cells=6 * 10)


def jitter(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The lean model's augmentation with a soft focus and a sensor's noise
    (``train_lean.jitter``)."""
    return train_lean.jitter(x, rng, blur_noise=True)


def tens(x: np.ndarray):
    import torch

    return torch.from_numpy(np.ascontiguousarray(x)).permute(0, 3, 1, 2).float() / 255 - 0.5


def predict(net, x: np.ndarray) -> np.ndarray:
    """The antisymmetric belief that the first die leans: the crop's logit less its mirror's,
    halved (as ``PairJudge.first_leans``)."""
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = x[i : i + 512]
            z = net(tens(xb))[:, 0] - net(tens(xb[:, :, ::-1]))[:, 0]
            out.append(torch.sigmoid(0.5 * z).numpy())
    return np.concatenate(out)


def describe(p: np.ndarray, y: np.ndarray, meta: np.ndarray) -> str:
    """Picks right at 0.5, overall and by lean (10-15 degrees: the hard ones)."""
    right = (p > 0.5) == (y == 1)
    small = meta[:, 1] < 15
    return (f"picks right {right.mean():.4f} of {len(y)}; leaning 10-15 degrees "
            f"{right[small].mean():.4f} of {int(small.sum())}; 15 or more "
            f"{right[~small].mean():.4f} of {int((~small).sum())}")


def train(data: list[Path], val: Path | None, epochs: int, lr: float, out: Path,
          threads: int) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    parts = [np.load(p) for p in data]
    x_all = np.concatenate([d["x"] for d in parts])
    y_all = np.concatenate([d["y"] for d in parts])
    log(f"train: {len(y_all)} crops, first die leaning in {int(y_all.sum())}")
    v = np.load(val) if val else None
    net = pair_net()
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    bs = 128
    for ep in range(epochs):
        t0 = time.time()
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * ep / epochs))
        net.train()
        perm = rng.permutation(len(y_all))
        tot = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i : i + bs]
            xb = jitter(x_all[idx], rng)
            yb = y_all[idx].copy()
            flip = rng.random(len(idx)) < 0.5  # the pair the other way round
            xb[flip] = xb[flip][:, :, ::-1]
            yb[flip] = 1 - yb[flip]
            loss = F.binary_cross_entropy_with_logits(net(tens(xb))[:, 0],
                                                      torch.from_numpy(yb).float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        msg = f"epoch {ep + 1}/{epochs}: loss {tot / len(y_all):.4f} ({time.time() - t0:.0f} s)"
        if v is not None:
            msg += " " + describe(predict(net, v["x"]), v["y"], v["meta"])
        log(msg)
        torch.save(net.state_dict(), out.with_suffix(".pt"))
    export(net, out)


def mean_of(weights: list[Path], out: Path) -> None:
    """One model that answers the mean of the logits of several trained nets (their ``.pt``
    weights, as ``train`` keeps them beside its ONNX): nets trained apart err apart."""
    train_lean.mean_of(weights, out, pair_net, export)


def export(net, out: Path) -> None:
    train_lean.export(net, out, (PAIR_W, PAIR_H),
                      {"crop_w": PAIR_W, "crop_h": PAIR_H, "crop_edges": PAIR_EDGES})


def evaluate(model: Path, data: list[Path]) -> None:
    """The model as the table runs it (``cv2.dnn``, both views) on labelled crops."""
    import cv2

    net = cv2.dnn.readNetFromONNX(str(model))
    for path in data:
        d = np.load(path)
        x, y, meta = d["x"], d["y"], d["meta"]
        out = []
        for i in range(0, len(x), 256):
            xb = x[i : i + 256].astype(np.float32)
            zs = []
            for view in (xb, xb[:, :, ::-1]):
                net.setInput(np.ascontiguousarray(view.transpose(0, 3, 1, 2) / 255 - 0.5))
                zs.append(net.forward()[:, 0])
            out.append(0.5 * (zs[0] - zs[1]))
        p = 1 / (1 + np.exp(-np.concatenate(out).astype(np.float64)))
        log(f"{model.name} on {path.name}: {describe(p, y, meta)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("data", help="render simulated throws and cut labelled pair crops")
    a.add_argument("--throws", type=int, default=6000)
    a.add_argument("--first-seed", type=int, default=520_000)
    a.add_argument("--out", type=Path, required=True)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--world", default="physical", help="the simulator's world (default, physical)")
    b = sub.add_parser("train", help="train and export the model")
    b.add_argument("--data", type=Path, nargs="+", required=True)
    b.add_argument("--val", type=Path)
    b.add_argument("--epochs", type=int, default=10)
    b.add_argument("--lr", type=float, default=3e-3)
    b.add_argument("--threads", type=int, default=2)
    b.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_pair.onnx")
    c = sub.add_parser("eval", help="a model through cv2.dnn on labelled crops")
    c.add_argument("--model", type=Path, default=ROOT / "vision" / "models" / "dice_pair.onnx")
    c.add_argument("data", type=Path, nargs="+")
    m = sub.add_parser("mean", help="one model answering the mean of several nets' logits")
    m.add_argument("weights", type=Path, nargs="+", help="the nets' .pt files")
    m.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_pair.onnx")
    args = ap.parse_args(argv)
    if args.cmd == "data":
        make_data(args.first_seed, args.throws, args.out, args.workers, args.world)
    elif args.cmd == "train":
        train(args.data, args.val, args.epochs, args.lr, args.out, args.threads)
    elif args.cmd == "mean":
        mean_of(args.weights, args.out)
    else:
        evaluate(args.model, args.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
