"""The lean model (vision/die_lean.py) on simulated throws and on the labelled photos.

    .venv/bin/python bench/lean.py [--throws 300] [--seed 70000] [--world wide] [--model ONNX]

Simulated throws of a world (``vision.simulator.worlds``; seeds never trained on: training used
200000.. of the default world and 500000.. of the physical one, validation 400000.. and
600000..; the wide world was never trained on): the
belief at each resting die's true top-face centre on the rest frame; recall on dice leaning on
the wall or the other die and false alarms on flat ones (all, and those lying within 1.6 die
edges of the other) at 0.5 and at the tracker's clearing threshold. Photos: every labelled die
lies flat, and the model never saw a photo: the share of them it believes lean shows how far
it is from what it learnt (the tracker lets it clear flags only where it is all but sure).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.cocked.settings import CockedSettings  # noqa: E402
from vision.die_lean import LeanJudge  # noqa: E402

CASES = ["both_hit", "one_hits", "none_hits", "out_of_area", "cocked_wall", "cocked_die"]


def simulated(judge: LeanJudge, n: int, seed0: int, world: str = "default") -> dict:
    from vision.simulator import simulate_throw
    from vision.simulator.worlds import world_of
    from vision.throw_geometry import TableGeometry

    lean, flat, close, ms, wall_flat = [], [], [], [], []
    for k in range(n):
        clip = simulate_throw(seed=seed0 + k, scenario=CASES[k % len(CASES)],
                              **world_of(world, seed0 + k, 60.0))
        _, frame = clip.frames[len(clip.frames) - 1]
        geo = TableGeometry(clip.calibration)
        dice = [d for d in clip.truth["dice"] if d["visible_at_rest"]]
        if not dice:
            continue
        t0 = time.perf_counter()
        beliefs = judge.beliefs(frame, [tuple(d["rest_center"]) for d in dice], geo.die,
                                (-geo.wall_n[0], -geo.wall_n[1]))
        ms.append((time.perf_counter() - t0) * 1000 / len(dice))
        for d, b in zip(dice, beliefs, strict=True):
            if d["cocked"]:
                lean.append(b)
                continue
            flat.append(b)
            if geo.wall_distance(*d["rest_center"])[0] < CockedSettings().wall_near * geo.die:
                wall_flat.append(b)
            gap = min((math.dist(d["rest_center"], o["rest_center"]) for o in dice if o is not d),
                      default=1e9)
            if gap < 1.6 * geo.die:
                close.append(b)
    return {"lean": np.array(lean), "flat": np.array(flat), "close": np.array(close),
            "wall_flat": np.array(wall_flat), "ms": ms}


def photos(judge: LeanJudge) -> dict:
    from read_accuracy import PHOTOS, SETS, SPLIT, read_labels

    split = json.loads(SPLIT.read_text())["sets"]
    out = {}
    for s in SETS:
        beliefs = []
        for part in split[s].values():
            for name in part:
                im = cv2.imread(str(PHOTOS / s / name))
                h, w = im.shape[:2]
                for _, x, y, r in read_labels((PHOTOS / s / name).with_suffix(".txt"), w, h):
                    # the match radius is 0.75 of the label box's side (24 px at least)
                    beliefs += judge.beliefs(im, [(x, y)], max(r / 0.75, 24.0) * 0.8)
        out[s] = np.array(beliefs)
    return out


def share(a: np.ndarray, test) -> str:
    return f"{100.0 * float(np.mean(test(a))):6.2f}% ({int(np.sum(test(a)))}/{len(a)})" if len(
        a) else "   n/a"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=300)
    ap.add_argument("--seed", type=int, default=70_000)
    ap.add_argument("--world", default="default", help="default, wide or physical")
    ap.add_argument("--model", type=Path, default=None,
                    help="a candidate lean model (default: the shipped one)")
    ap.add_argument("--no-photos", action="store_true", help="the simulated throws only")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    judge = LeanJudge(args.model)
    st = CockedSettings()
    clear = st.lean_clear
    r = simulated(judge, args.throws, args.seed, args.world)
    print(f"simulated throws: {args.throws} of the {args.world} world (seeds {args.seed}..), "
          "belief at each resting die")
    print(f"  leaning dice   > 0.5   {share(r['lean'], lambda a: a > 0.5)}   (recall)")
    print(f"                 <= {clear:g}  {share(r['lean'], lambda a: a <= clear)}   "
          "(would be cleared: target 0)")
    print(f"  flat dice      > 0.5   {share(r['flat'], lambda a: a > 0.5)}   (false alarms)")
    print(f"  flat, close    > 0.5   {share(r['close'], lambda a: a > 0.5)}   "
          "(within 1.6 edges of the other)")
    bar = st.pair_min_lean
    print(f"                 <= {bar:g}   {share(r['close'], lambda a: a <= bar)}   "
          "(the model lets the pair cue clear them)")
    keep = st.wall_lean_keep if st.wall_lean_keep is not None else 1.0
    print(f"  flat, at the wall >= {keep:g} {share(r['wall_flat'], lambda a: a >= keep)}   "
          "(flagged if the reader agrees: wall_lean_keep)")
    print(f"  {np.median(r['ms']):.2f} ms per die (a crop and its mirror), one core")
    if args.no_photos:
        return 0
    print("labelled photos (every die flat; never trained on: out of the model's domain)")
    for s, b in photos(judge).items():
        print(f"  {s:12s} > 0.5 {share(b, lambda a: a > 0.5)}   <= {clear:g} "
              f"{share(b, lambda a: a <= clear)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
