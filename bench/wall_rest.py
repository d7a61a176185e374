"""Dice at rest by the back wall: how far the rest frame says each lies from the wall, against
the simulator's truth of its pose (touching the wall at rest or not). For choosing and checking
rule 6 of docs/replay.md "How a wall strike is decided" (dev seeds only, never >= 90000).

    .venv/bin/python bench/wall_rest.py capture --seed 87000 --throws 400 [--size 1280x720] \\
        [--within-mm 12] --out /tmp/wall-rest-87000.jsonl
    .venv/bin/python bench/wall_rest.py judge /tmp/wall-rest-87000.jsonl [...] [--bar 0.15]

``capture`` simulates and tracks each throw with the paths' rules alone (rule 6 off; without
the reader: the wall does not depend on it) and writes one line per die of each throw observed
once: its hit_wall and the truth's. For a die found at rest within ``--near`` edges of the wall
line it adds the rest box (``DieObservation.box``, the silhouette's min-area rectangle), the gap
the rest frame gives (``TableGeometry.rest_gap``; ``near``: without the camera's view), the
truth at rest (its pose's corner nearest the wall: touching within ``TOUCH_MM``, its gap and
yaw) and its track, the other dice's and the calibration (to judge the paths again).
``--within-mm`` renders and tracks only throws with a die truly at rest that close to the wall
(a line ``skipped`` for the others). ``judge`` prints the measured gap of dice truly touching
against dice not, and what rule 6 at ``--bar`` would change (hit_wall mended, made wrong).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.support.throws import SIM_CASES, feed_clip, match  # noqa: E402
from vision.camera_view import CameraView, CameraViewError  # noqa: E402
from vision.simulator.worlds import NEVER_TUNED_SEED, world_of  # noqa: E402
from vision.throw_geometry import WallContact  # noqa: E402
from vision.tracker import ThrowTracker, TrackerSettings  # noqa: E402

DIE_MM = 16.0
TOUCH_MM = 0.3  # the true pose's nearest corner this close to the wall touches it (contact slop)


def true_rest(clip, k: int) -> tuple[float, float]:
    """(gap to the wall in mm of die ``k``'s lowest-y corner at rest, its yaw in plan to the
    wall in degrees, 0..45), from the clip's last pose."""
    from vision.simulator.dice3d import CUBE_VERTICES

    pose = clip.frames._poses[-1][k]
    verts = CUBE_VERTICES @ np.asarray(pose.rotation).T * (DIE_MM / 2)
    gap = float(pose.centre[1] + verts[:, 1].min())
    # the yaw: of the face normal nearest the felt's plane, its angle to the wall's normal
    normals = np.asarray(pose.rotation).T  # rows: the die's axes in the world
    flat = [n for n in normals if abs(n[2]) < 0.7]
    yaw = 0.0
    if flat:
        ang = math.degrees(math.atan2(abs(flat[0][0]), abs(flat[0][1]))) % 90
        yaw = min(ang, 90 - ang)
    return gap, yaw


def capture(seed0: int, throws: int, size: tuple[int, int], near: float, out,
            within_mm: float | None = None, log=print):
    """Track each throw and write its dice (see the module's doc); with ``within_mm``, only the
    throws with a die truly at rest that close to the wall are rendered and tracked (the
    physics alone is cheap): rule 6 can change no other die's hit_wall."""
    from vision.simulator import simulate_throw

    settings = TrackerSettings(wall=WallContact(rest_gap=0.0))  # the paths' rules alone
    t0 = time.time()
    for n, seed in enumerate(range(seed0, seed0 + throws)):
        case = SIM_CASES[(seed - seed0) % len(SIM_CASES)]
        clip = simulate_throw(seed=seed, scenario=case, size=size,
                              **world_of("physical", seed, 60.0))
        if within_mm is not None and min(true_rest(clip, k)[0] for k in
                                         range(len(clip.truth["dice"]))) > within_mm:
            out.write(json.dumps({"seed": seed, "skipped": True}) + "\n")
            continue
        tracker = ThrowTracker(clip.calibration, reader=None, annotate=False, settings=settings)
        geo = tracker.geometry
        try:
            view = CameraView.from_area(clip.calibration.area, clip.calibration.back_wall, size)
        except CameraViewError:
            view = None
        seen, _ = feed_clip(tracker, clip.frames)
        if len(seen) != 1:
            continue
        truth = clip.truth
        for k, (td, od) in enumerate(zip(truth["dice"], match(truth["dice"], seen[0].dice),
                                         strict=True)):
            row = {"seed": seed, "case": case, "size": f"{size[0]}x{size[1]}", "die": k,
                   "fps": truth["fps"], "colour": td["colour"], "cocked": td["cocked"],
                   "hit_wall": od is not None and od.hit_wall,
                   "moved": od is None or od.moved,
                   "true_hit_wall": td["hit_wall"], "near_wall": False}
            if od is not None and od.center is not None and od.box is not None:
                d_centre = geo.wall_distance(*od.center)[0] / geo.die
                if d_centre <= near:
                    gap_mm, yaw = true_rest(clip, k)
                    row.update({
                        "near_wall": True, "centre_edges": round(d_centre, 3),
                        "box": [list(map(float, od.box[0])), list(map(float, od.box[1])),
                                float(od.box[2])],
                        "near": round(geo.rest_gap(od.box), 3),
                        "rest_gap": round(geo.rest_gap(od.box, view), 3),
                        "true_gap_mm": round(gap_mm, 2), "true_yaw_deg": round(yaw, 1),
                        "touching": gap_mm <= TOUCH_MM,
                        # for judging the paths' rules again on it (``wall_contacts``)
                        "track": [(f, round(float(x), 2), round(float(y), 2))
                                  for f, x, y in od.track],
                        "others": [[(f, round(float(x), 2), round(float(y), 2))
                                    for f, x, y in o.track] for o in seen[0].dice if o is not od],
                        "calibration": {"area": [list(p) for p in clip.calibration.area],
                                        "back_wall": [list(p) for p in
                                                      clip.calibration.back_wall],
                                        "die_px": clip.calibration.die_px}})
            out.write(json.dumps(row) + "\n")
            out.flush()
        if (n + 1) % 50 == 0:
            log(f"  {n + 1} throws, {time.time() - t0:.0f} s", flush=True)


def judge(rows: list[dict], bar: float) -> tuple[list[dict], list[dict]]:
    touch = sorted(r["rest_gap"] for r in rows if r["touching"])
    apart = sorted(r["rest_gap"] for r in rows if not r["touching"])
    print(f"{len(rows)} dice at rest near the wall: {len(touch)} truly touching, "
          f"{len(apart)} not")
    if touch:
        print(f"  touching: rest_gap {touch[0]:.3f}..{touch[-1]:.3f} "
              f"(median {touch[len(touch) // 2]:.3f})")
    if apart:
        print(f"  apart:    rest_gap {apart[0]:.3f}..{apart[-1]:.3f}; the nearest five "
              f"{[round(v, 3) for v in apart[:5]]}")
        close = sorted((r for r in rows if not r["touching"]), key=lambda r: r["rest_gap"])[:5]
        for r in close:
            print(f"    {r['seed']} {r['size']} die {r['die']}: rest_gap {r['rest_gap']:.3f}, "
                  f"truly {r['true_gap_mm']:.1f} mm off, yaw {r['true_yaw_deg']}, "
                  f"centre {r['centre_edges']:.2f}")
    if touch and apart:
        print(f"  margin (nearest apart - farthest touching): {apart[0] - touch[-1]:+.3f}")
    at_wall = [r for r in rows if bar > 0 and r.get("moved", True) and r["rest_gap"] <= bar]
    mended = [r for r in at_wall if r["true_hit_wall"] and not r["hit_wall"]]
    broken = [r for r in at_wall if not r["true_hit_wall"] and not r["hit_wall"]]
    missed = [r for r in rows if r["true_hit_wall"] and not r["hit_wall"] and r["rest_gap"] > bar]
    wrong_hit = [r for r in rows if not r["true_hit_wall"] and r["hit_wall"]]
    print(f"rule 6 at bar {bar}: mends {len(mended)} "
          f"{[(r['seed'], r['size'], r['die'], r['rest_gap']) for r in mended]}; "
          f"new wrong hit_wall {len(broken)} "
          f"{[(r['seed'], r['size'], r['die'], r['rest_gap']) for r in broken]}")
    print(f"  left missed near the wall: "
          f"{[(r['seed'], r['size'], r['die'], r['rest_gap'], r['touching']) for r in missed]}")
    print(f"  hit_wall wrong (no strike, taken for one) near the wall: "
          f"{[(r['seed'], r['size'], r['die'], r['rest_gap'], r['touching']) for r in wrong_hit]}")
    return mended, broken


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--throws", type=int, default=60)
    c.add_argument("--size", default="640x480")
    c.add_argument("--near", type=float, default=1.2, help="centre within this many edges")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--within-mm", type=float,
                   help="track only throws with a die truly at rest this close to the wall")
    j = sub.add_parser("judge")
    j.add_argument("files", type=Path, nargs="+")
    j.add_argument("--bar", type=float, default=WallContact().rest_gap)
    args = ap.parse_args()
    if args.cmd == "capture":
        if args.seed + args.throws > NEVER_TUNED_SEED and args.seed < NEVER_TUNED_SEED + 10**6:
            ap.error(f"seeds from {NEVER_TUNED_SEED} on are never looked at")
        cv2.setNumThreads(1)
        size = tuple(int(v) for v in args.size.split("x"))
        with args.out.open("w") as out:
            capture(args.seed, args.throws, size, args.near, out, args.within_mm)
        return 0
    rows = [json.loads(line) for f in args.files for line in f.open() if line.strip()]
    skipped = sum(1 for r in rows if r.get("skipped"))
    rows = [r for r in rows if not r.get("skipped")]
    print(f"{skipped} throws skipped (no die truly at rest by the wall)")
    wrong = sum(r["hit_wall"] != r["true_hit_wall"] for r in rows)
    print(f"{len(rows)} dice of observed throws: hit_wall wrong {wrong} (paths' rules alone)")
    mended, broken = judge([r for r in rows if r["near_wall"]], args.bar)
    print(f"hit_wall wrong with rule 6 at bar {args.bar}: {wrong} -> "
          f"{wrong - len(mended) + len(broken)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
