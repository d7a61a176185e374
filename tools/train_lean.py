"""Train the lean model (``vision/models/dice_lean.onnx``): whether a resting die leans on the
wall or on the other die, from a crop of its surroundings (``vision.die_lean.lean_crop``).

Dev-only (PyTorch in /work/train-venv: ``pip install torch==2.13.0 onnxscript onnx numpy
opencv-python-headless``); the shipped model runs through ``cv2.dnn``. The shipped model (its
card ``dice_lean.json``) is the mean of two nets, made so:

    P=/work/train-venv/bin/python; O=/work/train-out
    $P tools/train_lean.py data --world physical --throws 6000 --first-seed 500000 --out $O/phys.npz
    $P tools/train_lean.py data --world physical --throws 9000 --first-seed 506000 --out $O/phys2.npz
    $P tools/train_lean.py data --world default --throws 4000 --first-seed 200000 --out $O/def.npz
    $P tools/train_lean.py data --world physical --throws 1500 --first-seed 600000 --out $O/val.npz
    $P tools/train_lean.py train --data $O/phys.npz $O/def.npz --val $O/val.npz --epochs 10 \
        --out $O/a.onnx
    $P tools/train_lean.py train --data $O/phys.npz $O/phys2.npz $O/def.npz --val $O/val.npz \
        --epochs 8 --blur-noise --out $O/b.onnx
    $P tools/train_lean.py mean $O/a.pt $O/b.pt    # -> vision/models/dice_lean.onnx (and a bare
                                                   # card: write its figures back into it)
    .venv/bin/python tools/train_lean.py eval $O/val.npz   # through cv2.dnn, at the tracker's bars

(about 10 minutes of two cores for the crops, 17 and 25 for the two nets.)

Data: the rest frames of simulated throws of a world (``--world``: the default renderer, or the
physical one with its rails, lamp, tilt and frame rates; the wide world is kept out, a world the
model never saw), every case, weighted to dice leaning on the wall or the other die, at 640x480
and 1280x720 and other die sizes, and the simulator's truth of which die leans; the crops are
centred on each die's top face (jittered a little, as the reader's centre is), the back wall up.
Seeds used by the benches and tuning (1000.., 5000.., 7000.., 9000.., 11000.., 13000..,
20000.., 30000.., 50000.., 70000.. to 99999) are never used here.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.die_lean import LEAN_PX, LEAN_SCALE, lean_crop  # noqa: E402

CASES = ["cocked_die", "cocked_die", "cocked_wall", "both_hit", "one_hits", "none_hits",
         "cocked_die", "cocked_wall", "out_of_area"]
SIZES = [(640, 480), (640, 480), (1280, 720), (800, 600)]


def log(*a) -> None:
    print(time.strftime("%H:%M:%S"), *a, flush=True)


def throw_crops(seed: int, per_die: int = 3, world: str = "default"):
    """Crops of the dice at rest in one simulated throw of ``world`` (``worlds.world_of``: the
    physical world draws its own frame rate, tilt, rails, lamp and blur from the seed): (crops,
    labels, meta)."""
    import cv2

    from vision.simulator import simulate_throw
    from vision.simulator.worlds import world_of
    from vision.throw_geometry import TableGeometry

    rng = np.random.default_rng([seed, 77])
    case = CASES[seed % len(CASES)]
    size = SIZES[(seed // len(CASES)) % len(SIZES)]
    die_px = None if rng.random() < 0.6 else float(rng.uniform(28, 64)) * size[1] / 480
    kwargs = world_of(world, seed, 60.0)  # an unknown world is the caller's error: raised
    try:
        clip = simulate_throw(seed=seed, scenario=case, size=size, die_px=die_px, **kwargs)
    except Exception:  # noqa: BLE001 - a launch the simulator could not make: skip it
        return [], [], []
    truth = clip.truth
    frames = clip.frames
    geo = TableGeometry(clip.calibration)
    wall_dir = (-geo.wall_n[0], -geo.wall_n[1])
    dp = clip.calibration.die_px
    dice = [d for d in truth["dice"] if d["visible_at_rest"]]
    xs, ys, meta = [], [], []
    for k in range(2):
        _, frame = frames[len(frames) - 1 - 7 * k]  # two rest frames: other noise
        for i, d in enumerate(dice):
            cx, cy = d["rest_center"]
            others = [o for o in dice if o is not d]
            gap = min((math.hypot(o["rest_center"][0] - cx, o["rest_center"][1] - cy) / dp
                       for o in others), default=9.0)
            d_wall, _ = geo.wall_distance(cx, cy)
            for _ in range(per_die + (2 if d["cocked"] else 0)):
                j = rng.normal(0, 0.07, 2) * dp
                s = dp * math.exp(rng.uniform(-0.1, 0.1))
                tilt = rng.normal(0, 4.0)
                wd = (wall_dir[0] * math.cos(math.radians(tilt))
                      - wall_dir[1] * math.sin(math.radians(tilt)),
                      wall_dir[0] * math.sin(math.radians(tilt))
                      + wall_dir[1] * math.cos(math.radians(tilt)))
                c = lean_crop(frame, (cx + j[0], cy + j[1]), s, wd)
                if rng.random() < 0.5:
                    c = cv2.flip(c, 1)  # a mirror image keeps the wall up
                xs.append(c)
                ys.append(1 if d["cocked"] else 0)
                meta.append((seed, i, gap, d_wall / dp, 1 if d["cocked_on"] == "wall" else 0))
    return xs, ys, meta


def make_data(first: int, n: int, out: Path, workers: int, world: str = "default",
              crops_of=None) -> None:
    """Throws ``first``.. (``n`` of them) of ``world`` cut into labelled crops by ``crops_of``
    (default ``throw_crops``: seed, world= -> crops, labels, meta) on ``workers`` processes,
    written to ``out`` (npz: x, y, meta)."""
    from functools import partial
    from multiprocessing import Pool

    xs, ys, meta = [], [], []
    t0 = time.time()
    crops = partial(crops_of or throw_crops, world=world)
    with Pool(workers) as pool:
        for k, (x, y, m) in enumerate(pool.imap(crops, range(first, first + n), 8)):
            xs += x
            ys += y
            meta += m
            if (k + 1) % 250 == 0:
                log(f"{k + 1}/{n} throws, {len(ys)} crops, {sum(ys)} labelled 1 "
                    f"({time.time() - t0:.0f} s)")
    np.savez_compressed(out, x=np.stack(xs), y=np.array(ys, np.int64),
                        meta=np.array(meta, np.float64))
    log(f"wrote {out}: {len(ys)} crops, {sum(ys)} labelled 1")


def lean_net(last: int = 64, cells: int = 6 * 6):
    """Convolutions 16-32-48-``last`` (three 2x2 poolings), the last map of ``cells`` cells
    kept whole, to one logit."""
    import torch.nn as nn

    def cbr(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    # 48 -> 24 -> 12 -> 6: the 6x6 map is kept whole (where the side face shows matters)
    return nn.Sequential(
        *cbr(3, 16), nn.MaxPool2d(2),
        *cbr(16, 32), nn.MaxPool2d(2),
        *cbr(32, 48), nn.MaxPool2d(2),
        *cbr(48, last),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(cells * last, 1),
    )


def jitter(x: np.ndarray, rng: np.random.Generator, blur_noise: bool = False) -> np.ndarray:
    """Brightness, contrast and per-channel gain, as cameras and lights differ; with
    ``blur_noise``, also a soft focus (a Gaussian blur of sigma 0.5-1.2 px on a fifth of the
    crops) and a sensor's noise (sigma 0-6 levels on half of them)."""
    x = x.astype(np.float32)
    n = len(x)
    if blur_noise:
        import cv2

        for k in np.nonzero(rng.random(n) < 0.2)[0]:
            x[k] = cv2.GaussianBlur(x[k], (0, 0), float(rng.uniform(0.5, 1.2)))
        noisy = rng.random(n) < 0.5
        x[noisy] += rng.normal(0, 1, x[noisy].shape).astype(np.float32) * rng.uniform(
            0, 6, (int(noisy.sum()), 1, 1, 1)).astype(np.float32)
    gain = rng.uniform(0.75, 1.25, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    bias = rng.uniform(-25, 25, (n, 1, 1, 1))
    return np.clip(x * gain + bias, 0, 255)


def train(data: list[Path], val: Path | None, epochs: int, lr: float, out: Path,
          threads: int, blur_noise: bool = False) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    parts = [np.load(p) for p in data]
    x_all = np.concatenate([d["x"] for d in parts])
    y_all = np.concatenate([d["y"] for d in parts])
    log(f"train: {len(y_all)} crops, {int(y_all.sum())} leaning")
    v = np.load(val) if val else None
    net = lean_net()
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    pos_weight = torch.tensor(float((y_all == 0).sum()) / max(1, int(y_all.sum())))

    def tens(x):
        return torch.from_numpy(np.ascontiguousarray(x)).permute(0, 3, 1, 2).float() / 255 - 0.5

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
            xb = tens(jitter(x_all[idx], rng, blur_noise))
            yb = torch.from_numpy(y_all[idx]).float()
            loss = F.binary_cross_entropy_with_logits(net(xb)[:, 0], yb, pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        msg = f"epoch {ep + 1}/{epochs}: loss {tot / len(y_all):.4f} ({time.time() - t0:.0f} s)"
        if v is not None:
            p = predict(net, v["x"])
            msg += " " + describe(p, v["y"], v["meta"])
        log(msg)
        torch.save(net.state_dict(), out.with_suffix(".pt"))
    export(net, out)


def predict(net, x: np.ndarray) -> np.ndarray:
    import torch

    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), 512):
            xb = torch.from_numpy(np.ascontiguousarray(x[i : i + 512])).permute(0, 3, 1, 2)
            out.append(torch.sigmoid(net(xb.float() / 255 - 0.5)[:, 0]).numpy())
    return np.concatenate(out)


def describe(p: np.ndarray, y: np.ndarray, meta: np.ndarray) -> str:
    """Recall of leaning dice and false alarms on flat ones (all, and those lying close to
    another die: the pair cue's hard case) at 0.5."""
    close = meta[:, 2] < 1.6
    lean, flat = y == 1, y == 0
    rec = (p[lean] > 0.5).mean()
    fa = (p[flat] > 0.5).mean()
    fa_close = (p[flat & close] > 0.5).mean() if (flat & close).any() else float("nan")
    return (f"recall {rec:.4f} ({lean.sum()}), false alarms {fa:.4f} ({flat.sum()}), "
            f"close flat {fa_close:.4f} ({(flat & close).sum()})")


def at_bars(p: np.ndarray, y: np.ndarray, meta: np.ndarray) -> str:
    """The beliefs where the tracker reads them (vision.cocked.settings.CockedSettings): a close
    pair is cleared only at ``pair_min_lean`` 0.1 or less, a reader-only flag at ``lean_clear``
    0.02; a die within ``wall_near`` (0.87 edge) of the wall is flagged at ``wall_lean_keep``
    0.98 (with the reader), and a close pair's proofs overruled at ``pair_lean_keep`` 0.5."""
    close, wall = meta[:, 2] < 1.6, meta[:, 3] < 0.87
    lean, flat = y == 1, y == 0
    on_wall, on_die = lean & (meta[:, 4] == 1), lean & (meta[:, 4] == 0)

    def share(mask, test):
        n = int(mask.sum())
        return f"{(test[mask]).mean() * 100:5.2f}% of {n}" if n else "-"

    return "\n".join([
        f"  leaning on the wall: >= 0.98 {share(on_wall, p >= 0.98)}; <= 0.1 {share(on_wall, p <= 0.1)}",
        f"  leaning on the die:  >= 0.5 {share(on_die, p >= 0.5)}; <= 0.1 {share(on_die, p <= 0.1)}",
        f"  flat, close (< 1.6): <= 0.1 {share(flat & close, p <= 0.1)}; >= 0.5 "
        f"{share(flat & close, p >= 0.5)}",
        f"  flat, at the wall:   >= 0.98 {share(flat & wall, p >= 0.98)}; >= 0.5 "
        f"{share(flat & wall, p >= 0.5)}",
        f"  flat, all:           <= 0.02 {share(flat, p <= 0.02)}; >= 0.5 {share(flat, p >= 0.5)}",
    ])


def evaluate(model: Path, data: list[Path]) -> None:
    """The model as the table runs it (``cv2.dnn``) on labelled crops."""
    import cv2

    net = cv2.dnn.readNetFromONNX(str(model))
    for path in data:
        d = np.load(path)
        x, y, meta = d["x"], d["y"], d["meta"]
        out = []
        for i in range(0, len(x), 256):
            blob = x[i : i + 256].astype(np.float32).transpose(0, 3, 1, 2) / 255 - 0.5
            net.setInput(np.ascontiguousarray(blob))
            out.append(net.forward()[:, 0])
        p = 1 / (1 + np.exp(-np.concatenate(out).astype(np.float64)))
        log(f"{model.name} on {path.name}: {describe(p, y, meta)}")
        print(at_bars(p, y, meta), flush=True)


def mean_of(weights: list[Path], out: Path, make_net=None, export_to=None) -> None:
    """One model that answers the mean of the logits of several trained nets (their ``.pt``
    weights, as ``train`` keeps them beside its ONNX; each made by ``make_net``, default
    ``lean_net``, and written by ``export_to``, default ``export``): nets trained apart err
    apart, and one file keeps ``cv2.dnn`` to one forward pass a crop."""
    import torch

    class Mean(torch.nn.Module):
        def __init__(self, nets):
            super().__init__()
            self.nets = torch.nn.ModuleList(nets)

        def forward(self, x):
            return torch.stack([n(x) for n in self.nets]).mean(0)

    nets = []
    for w in weights:
        net = (make_net or lean_net)()
        net.load_state_dict(torch.load(w))
        net.eval()
        nets.append(net)
    (export_to or export)(Mean(nets), out)


def export(net, out: Path, size: tuple[int, int] = (LEAN_PX, LEAN_PX),
           card: dict | None = None) -> None:
    """``net`` written as ONNX to ``out`` for inputs of ``size`` (width, height), checked
    through ``cv2.dnn`` against torch, with its card beside it (``card``, default the lean
    model's crop)."""
    import cv2
    import torch

    net.eval()
    x = torch.rand(2, 3, size[1], size[0]) - 0.5
    torch.onnx.export(net, (x,), str(out), opset_version=13, dynamo=False,
                      input_names=["input"], output_names=["output"],
                      dynamic_axes={"input": {0: "n"}, "output": {0: "n"}})
    with torch.no_grad():
        want = net(x).numpy()
    cv_net = cv2.dnn.readNetFromONNX(str(out))
    cv_net.setInput(x.numpy())
    got = cv_net.forward()
    log(f"exported {out}: {out.stat().st_size} bytes, cv2.dnn max |diff| "
        f"{float(np.abs(got - want).max()):.2e}")
    card = card if card is not None else {"crop_px": LEAN_PX, "crop_scale": LEAN_SCALE}
    out.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("data", help="render simulated throws and cut labelled crops")
    a.add_argument("--throws", type=int, default=6000)
    a.add_argument("--first-seed", type=int, default=200_000)
    a.add_argument("--out", type=Path, required=True)
    a.add_argument("--workers", type=int, default=2)
    a.add_argument("--world", default="default",
                   help="the simulator's world (vision.simulator.worlds: default, wide, physical)")
    b = sub.add_parser("train", help="train and export the model")
    b.add_argument("--data", type=Path, nargs="+", required=True)
    b.add_argument("--val", type=Path)
    b.add_argument("--epochs", type=int, default=12)
    b.add_argument("--lr", type=float, default=3e-3)
    b.add_argument("--threads", type=int, default=2)
    b.add_argument("--blur-noise", action="store_true",
                   help="also blur a fifth of the crops and add noise to half (jitter)")
    b.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_lean.onnx")
    c = sub.add_parser("eval", help="a model through cv2.dnn on labelled crops, at the "
                                     "tracker's bars")
    c.add_argument("--model", type=Path, default=ROOT / "vision" / "models" / "dice_lean.onnx")
    c.add_argument("data", type=Path, nargs="+")
    m = sub.add_parser("mean", help="one model answering the mean of several nets' logits")
    m.add_argument("weights", type=Path, nargs="+", help="the nets' .pt files")
    m.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "dice_lean.onnx")
    args = ap.parse_args(argv)
    if args.cmd == "mean":
        mean_of(args.weights, args.out)
    elif args.cmd == "data":
        make_data(args.first_seed, args.throws, args.out, args.workers, args.world)
    elif args.cmd == "eval":
        evaluate(args.model, args.data)
    else:
        train(args.data, args.val, args.epochs, args.lr, args.out, args.threads,
              args.blur_noise)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
