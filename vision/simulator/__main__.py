"""Command line of the throw simulator.

    python -m vision.simulator bench [--clips 100] [--size 640x480] [--world physical]
    python -m vision.simulator write DIR [--scenario both_hit] [--seed 1] [--codec MJPG|mp4v]
    python -m vision.simulator sheet OUT.png [--scenario cocked_die] [--seed 1]
    (write and sheet: --hand draws the shooter's hand, --pickup a hand taking the dice;
     every command: --world default|wide|physical, see vision/simulator/worlds.py)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from None
    return w, h


def main(argv: list[str] | None = None) -> int:
    from . import Scenario, simulate_throw
    from .worlds import WORLDS, world_of

    ap = argparse.ArgumentParser(prog="python -m vision.simulator", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bench", help="print simulation and rendering speed")
    b.add_argument("--clips", type=int, default=100)
    b.add_argument("--size", type=_size, default=(640, 480))
    b.add_argument("--world", choices=WORLDS, default="default")
    w = sub.add_parser("write", help="simulate one throw and save it")
    w.add_argument("dir")
    s = sub.add_parser("sheet", help="save a contact sheet of a throw's frames (to look at)")
    s.add_argument("out")
    for p in (w, s):
        p.add_argument("--scenario", default="both_hit",
                       choices=[x.value for x in Scenario])
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--size", type=_size, default=(640, 480))
        p.add_argument("--fps", type=float, default=60.0)
        p.add_argument("--hand", action="store_true", help="draw the shooter's hand throwing")
        p.add_argument("--pickup", action="store_true",
                       help="end with a hand taking the dice after they rest")
        p.add_argument("--world", choices=WORLDS, default="default",
                       help="physical: tumbling cubes thrown in from below the view (its fps "
                            "and camera tilt are drawn from the seed)")
    w.add_argument("--codec", choices=["MJPG", "mp4v"], default="MJPG")
    w.add_argument("--png", action="store_true", help="lossless PNG frames instead of a video")
    args = ap.parse_args(argv)

    if args.cmd == "bench":
        sim_s = render_s = 0.0
        frames = 0
        for seed in range(args.clips):
            t0 = time.perf_counter()
            clip = simulate_throw(seed=seed, scenario=Scenario.RANDOM, size=args.size,
                                  **world_of(args.world, seed, 60.0))
            t1 = time.perf_counter()
            for _ in clip.frames:
                frames += 1
            sim_s += t1 - t0
            render_s += time.perf_counter() - t1
            if (seed + 1) % 10 == 0 or seed + 1 == args.clips:
                print(f"  {seed + 1}/{args.clips} clips, {sim_s + render_s:.0f} s",
                      file=sys.stderr, flush=True)
        print(json.dumps({
            "world": args.world,
            "size": f"{args.size[0]}x{args.size[1]}", "clips": args.clips, "frames": frames,
            "simulate_ms_per_clip": round(1000 * sim_s / args.clips, 1),
            "render_frames_per_s": round(frames / render_s),
            "end_to_end_frames_per_s": round(frames / (sim_s + render_s)),
        }))
        return 0
    world = world_of(args.world, args.seed, args.fps)
    clip = simulate_throw(seed=args.seed, scenario=args.scenario, size=args.size,
                          hand=args.hand, pickup=args.pickup, **world)
    if args.cmd == "write":
        d = clip.save(args.dir, fmt="png" if args.png else "avi", codec=args.codec)
        print(f"{clip!r} -> {d}")
        return 0
    import cv2

    t = clip.truth
    start = max(0, t.get("hand", {}).get("enter_frame", t["throw_start_frame"]) - 2)
    idx = list(range(start, len(clip.frames), 2))[:20]
    tiles = []
    for i in idx:
        im = clip.frames[i][1].copy()
        cv2.putText(im, str(i), (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 255), 2)
        tiles.append(cv2.resize(im, (320, 240), interpolation=cv2.INTER_AREA))
    while len(tiles) % 5:
        tiles.append(np.zeros_like(tiles[0]))
    sheet = np.vstack([np.hstack(tiles[k : k + 5]) for k in range(0, len(tiles), 5)])
    cv2.imwrite(args.out, sheet)
    print(json.dumps({k: t[k] for k in ("scenario", "throw_start_frame", "rest_frame")
                      if k in t} | {k: t[k] for k in ("hand", "pickup", "extra") if k in t}
                     | {"dice": [{k: d[k] for k in ("value", "hit_wall", "left_area",
                                                    "at_rest_in_area", "cocked")}
                                 for d in t["dice"]]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
