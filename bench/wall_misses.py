"""Every wrong hit_wall and left_area, and every throw not observed, on simulated throws, with
what the tracker saw: for looking at the misses one by one (dev seeds only, never >= 90000).

    .venv/bin/python bench/wall_misses.py --seed 86000 --throws 200 [--size 1280x720]
        [--json misses.jsonl] [--plot DIR]

Tracks without the reader (a wall strike and the area do not depend on it). For each miss it
prints the throw's world (fps, tilt, rail, felt, dice colours), the truth (the die's wall
contacts: frame and centre's distance from the wall in edges; its greatest way out of the area),
and each of the tracker's path's sightings as (frame, edges from the wall line), with the wall
contacts ``TableGeometry.wall_contacts`` found on each path the tracker judged. ``--json``
writes one line per miss (everything above), ``--plot`` a picture per miss: the die's true
path and the tracked one, edges from the wall against the frame.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.support.throws import SIM_CASES, feed_clip, match  # noqa: E402
from vision.simulator.worlds import NEVER_TUNED_SEED, world_of  # noqa: E402
from vision.throw_geometry import WallContact  # noqa: E402
from vision.tracker import ThrowTracker, TrackerSettings  # noqa: E402


def wall_edges(geometry, x: float, y: float) -> float:
    return round(geometry.wall_distance(x, y)[0] / geometry.die, 2)


def look_at(seed: int, size: tuple[int, int]) -> list[dict]:
    """The misses of one throw (seed ``seed``, its case by ``seed``'s place in the cases)."""
    from vision.simulator import simulate_throw

    case = SIM_CASES[(seed - ARGS.seed) % len(SIM_CASES)]
    world = world_of("physical", seed, 60.0)
    clip = simulate_throw(seed=seed, scenario=case, size=size, **world)
    frames = list(clip.frames)
    tracker = ThrowTracker(clip.calibration, reader=None, annotate=False, settings=SETTINGS)
    geo = tracker.geometry
    judged: list[dict] = []
    plain = geo.wall_contacts

    def logged(times, xs, ys, others=()):
        found = plain(times, xs, ys, others)
        judged.append({"first_t": times[0] if times else None, "n": len(times),
                       "contacts": [(k, round(t, 4), round(d, 2)) for k, t, d in found]})
        return found

    geo.wall_contacts = logged
    observations, _ = feed_clip(tracker, frames)
    truth = clip.truth
    t_of = {k: t for k, (t, _) in enumerate(frames)}
    phys = truth.get("physical") or {}
    head = {"seed": seed, "case": case, "size": f"{size[0]}x{size[1]}", "fps": truth["fps"],
            "tilt": phys.get("tilt_deg"), "rail": phys.get("rail"),
            "restitution": round(phys.get("wall_restitution", 0), 2),
            "exposure": round(phys.get("exposure", 0), 2), "felt": truth["look"]["felt"],
            "colours": [d["colour"] for d in truth["dice"]], "die_px": geo.die}
    if len(observations) != 1:
        return [{**head, "miss": f"{len(observations)} observations",
                 "truth": [truth_of(geo, d) for d in truth["dice"]]}]
    obs = observations[0]
    out = []
    for k, (td, od) in enumerate(zip(truth["dice"], match(truth["dice"], obs.dice),
                                     strict=True)):
        got_hit = od is not None and od.hit_wall
        got_left = od is not None and od.left_area
        wrong = [w for w, g in (("hit_wall", got_hit), ("left_area", got_left)) if g != td[w]]
        if not wrong:
            continue
        seen = None
        if od is not None:
            seen = {"path": [(f, wall_edges(geo, x, y), round(x), round(y)) for f, x, y in od.track],
                    "center": None if od.center is None else [float(v) for v in od.center], "hit_wall": od.hit_wall, "left_area": od.left_area}
        others = [{"path": [(f, wall_edges(geo, x, y), round(x), round(y)) for f, x, y in o.track]}
                  for o in obs.dice if o is not od]
        out.append({**head, "miss": " ".join(f"{w} {not td[w]} (truth {td[w]})" for w in wrong),
                    "die": k, "truth": truth_of(geo, td), "seen": seen, "others": others,
                    "judged": [dict(j, first_frame=min(t_of, key=lambda f: abs(t_of[f] - j["first_t"])))
                               for j in judged if j["first_t"] is not None]})
    return out


def truth_of(geo, td: dict) -> dict:
    track = td.get("track") or []
    contacts = td.get("wall_contacts") or []
    if contacts and td.get("wall_hit_frames"):  # the contacts count frames from the release
        shift = min(td["wall_hit_frames"]) - min(c["frame"] for c in contacts)
        contacts = [dict(c, frame=c["frame"] + shift) for c in contacts]
    return {"hit_wall": td["hit_wall"], "left_area": td["left_area"],
            "wall_contacts": contacts, "min_wall_gap_mm": td.get("min_wall_gap_mm"),
            "max_outside_mm": td.get("max_outside_mm"), "entered_frame": td.get("entered_frame"),
            "colour": td.get("colour"), "cocked": td.get("cocked"),
            "max_height_mm": td.get("max_height_mm"),
            "path": [(f, wall_edges(geo, *p), round(p[0]), round(p[1]))
                     for f, p in enumerate(track) if p is not None]}


def plot(miss: dict, folder: Path) -> None:
    """Edges from the wall against the frame: the truth (grey) and the tracked path (red)."""
    w, h, pad = 720, 360, 30
    img = np.full((h, w, 3), 255, np.uint8)
    truths = miss["truth"] if isinstance(miss["truth"], list) else [miss["truth"]]
    paths = [(t["path"], (150, 150, 150)) for t in truths]
    if miss.get("seen"):
        paths.append(([(f, d) for f, d, *_ in miss["seen"]["path"]], (0, 0, 220)))
    for o in miss.get("others", []):
        paths.append((o["path"], (200, 120, 0)))
    pts = [p for path, _ in paths for p in path]
    if not pts:
        return
    f0, f1 = min(p[0] for p in pts), max(p[0] for p in pts) + 1
    d1 = min(8.0, max(p[1] for p in pts) + 0.5)

    def xy(f, d):
        return (int(pad + (f - f0) / (f1 - f0) * (w - 2 * pad)),
                int(h - pad - (max(-1, min(d1, d)) + 1) / (d1 + 1) * (h - 2 * pad)))

    for level, col in ((0.0, (0, 0, 0)), (0.5, (0, 160, 0)), (0.87, (0, 160, 0))):
        cv2.line(img, xy(f0, level), xy(f1, level), col, 1)
    for level in range(0, int(d1) + 1):
        cv2.putText(img, f"{level}", (4, xy(f0, level)[1] + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    (0, 0, 0), 1)
    for f in range(int(f0), int(f1) + 1, 5):
        cv2.putText(img, f"{f}", (xy(f, -1)[0] - 6, h - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    (0, 0, 0), 1)
    cv2.putText(img, "edges from the wall line (black) against the frame; green: 0.5 and 0.87; "
                "grey: true top face, red: tracked, blue: the other die, orange +: true contacts",
                (5, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.32, (0, 0, 0), 1)
    for path, col in paths:
        for a, b in zip(path, path[1:], strict=False):
            cv2.line(img, xy(*a[:2]), xy(*b[:2]), col, 1, cv2.LINE_AA)
        for p in path:
            cv2.circle(img, xy(*p[:2]), 2, col, -1)
    for c in [c for t in truths for c in t.get("wall_contacts") or []]:
        cv2.drawMarker(img, xy(c["frame"], c["centre_edges"]), (0, 140, 255), cv2.MARKER_CROSS, 9)
    cv2.putText(img, f"{miss['seed']} {miss['size']} {miss['fps']:g} fps die {miss.get('die')}: "
                f"{miss['miss']}", (5, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{miss['seed']}-{miss['size']}-{miss.get('die', 'x')}.png"), img)


def main() -> int:
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    ap.add_argument("--seed", type=int, required=True, help="first seed (the case cycles from it)")
    ap.add_argument("--throws", type=int, default=60)
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--only", type=int, nargs="*", help="just these seeds")
    ap.add_argument("--json", type=Path, help="write every miss here, one JSON line each")
    ap.add_argument("--plot", type=Path, help="a path plot per miss into this folder")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=FLOAT",
                    help="a float field of TrackerSettings or WallContact for this run")
    ARGS = ap.parse_args()
    global SETTINGS
    wall = {}
    top = {}
    for item in ARGS.set:
        name, _, value = item.partition("=")
        if name in WallContact.__dataclass_fields__:
            wall[name] = float(value)
        elif name in TrackerSettings.__dataclass_fields__:
            top[name] = float(value)
        else:
            ap.error(f"--set {item!r}: no such field of TrackerSettings or WallContact")
    SETTINGS = TrackerSettings(wall=WallContact(**wall), **top)
    if ARGS.seed + ARGS.throws > NEVER_TUNED_SEED and ARGS.seed < NEVER_TUNED_SEED + 10**6:
        ap.error(f"seeds from {NEVER_TUNED_SEED} on are never looked at one by one")
    size = tuple(int(v) for v in ARGS.size.split("x"))
    cv2.setNumThreads(1)
    seeds = ARGS.only or range(ARGS.seed, ARGS.seed + ARGS.throws)
    sink = ARGS.json.open("w") if ARGS.json else None
    n = 0
    for seed in seeds:
        for miss in look_at(seed, size):
            n += 1
            print(f"{miss['seed']} {miss['case']} {miss['size']} {miss['fps']:g} fps "
                  f"tilt {miss['tilt']} {miss['rail']} {miss['felt']} {miss['colours']}: "
                  f"die {miss.get('die')}: {miss['miss']}", flush=True)
            if sink:
                sink.write(json.dumps(miss, default=float) + "\n")
                sink.flush()
            if ARGS.plot:
                plot(miss, ARGS.plot)
    print(f"{n} misses in {len(seeds)} throws")
    return 0


ARGS: argparse.Namespace
SETTINGS: TrackerSettings | None = None


if __name__ == "__main__":
    sys.exit(main())
