"""Time `DiceReader.read_at` on the two dice of a 1280x720 frame, given where they lie (one core).

    taskset -c 0 python bench/read_speed.py [--repeat N] [--profile]

The frame is made of a real labelled photo of two dice (fixtures/stills/two_white_wood.jpg),
scaled so a die is 52 px and tiled over 1280x720, so the reader does real work. Target: under
3 ms per frame. Also prints `find` (whole-frame search) on the same frame, on a 640x480 photo
(the white pair on wood; target under 10 ms) and on a 640x640 one (a tray of coloured dice).
``--profile``: the same with a profile of a pair (learnt from the two labelled trays of
fixtures/stills), the cost of reading with one.

Each line gives the median wall time and the median CPU time of the thread (what the machine's
other load adds to the wall time, mostly, is time the reader waits for the core), and the work
done, which no load changes: the nets' passes (detector: whole frames and its coarse probe, and
the closer looks' patches, with the pixels it saw; classifier crops, first and second opinions).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
STILLS = ROOT / "fixtures" / "stills"


def frame_with_two_dice(die_edge: float = 52.0) -> tuple[np.ndarray, list, float]:
    """A 1280x720 frame holding real dice (a photo of two dice, scaled so a die is `die_edge`
    px, tiled over the frame) and the rotated rects of the two dice of the first tile."""
    src = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    if src is None:
        raise SystemExit(f"missing fixture {STILLS / 'two_white_wood.jpg'}")
    vals = [float(v) for v in (STILLS / "two_white_wood.txt").read_text().split()]
    rows = [vals[k : k + 5] for k in range(0, len(vals), 5)]
    # the labels box the pip pattern; a die's edge is about 1.55 times its span
    edge = 1.55 * max(max(w * src.shape[1], h * src.shape[0]) for _, _, _, w, h in rows)
    f = die_edge / edge
    tile = cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    th, tw = tile.shape[:2]
    frame = np.tile(tile, (720 // th + 1, 1280 // tw + 1, 1))[:720, :1280].copy()
    boxes = [((cx * tw, cy * th), (die_edge, die_edge), 0.0) for _, cx, cy, _, _ in rows]
    return frame, boxes, die_edge


def timed(fn, repeat: int) -> tuple[float, float]:
    """Median wall and CPU (this thread's) milliseconds of ``fn()``, after one warm-up call."""
    fn()
    wall, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.thread_time()
        fn()
        cpu.append((time.thread_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
    return statistics.median(wall), statistics.median(cpu)


class _Counted:
    """A cv2.dnn net that counts its passes and the pixels (or crops) it is given."""

    def __init__(self, net):
        self.net, self.passes, self.pixels = net, 0, 0

    def setInput(self, blob, *args):  # noqa: N802 (cv2.dnn's name)
        self.passes += blob.shape[0]
        self.pixels += int(blob.shape[0] * blob.shape[2] * blob.shape[3])
        return self.net.setInput(blob, *args)

    def __getattr__(self, name):
        return getattr(self.net, name)


def work(reader, fn) -> str:
    """What one call of ``fn()`` asks of the reader's nets (load-independent)."""
    names = {"_det": "detector", "_probe": "probe", "_refiner": "closer looks",
             "_cls": "crops"}
    saved = {n: getattr(reader, n) for n in names if hasattr(reader, n)}
    second = reader._second
    try:
        counted = {n: _Counted(net) for n, net in saved.items()}
        for n, c in counted.items():
            setattr(reader, n, c)
        reader._second = [_Counted(net) for net in second]
        fn()
        parts = []
        for n, c in counted.items():
            if n == "_cls":
                parts.append(f"{c.passes} crops")
            elif c.passes:
                parts.append(f"{names[n]} {c.passes}x ({c.pixels:,} px)")
        parts.append(f"{sum(c.passes for c in reader._second)} second opinions")
        return ", ".join(parts)
    finally:
        for n, net in saved.items():
            setattr(reader, n, net)
        reader._second = second


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--profile", action="store_true",
                    help="also time the reader with a profile of a pair")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from vision.dice import DiceReader

    reader = DiceReader()
    bench(reader, a.repeat, "")
    if a.profile:
        bench(DiceReader(profile=tray_profile(reader)), a.repeat, " [profile]")
    return 0


def tray_profile(reader):
    """A profile learnt from fixtures/stills' two labelled trays (44 dice, every face)."""
    from vision.dice_profile import learn, locate, read_yolo_labels

    frames, dice = [], []
    for name in ("colours_tray", "look_again_tray"):
        frame = cv2.imread(str(STILLS / f"{name}.jpg"))
        h, w = frame.shape[:2]
        dice += locate(reader, frame, read_yolo_labels(STILLS / f"{name}.txt", w, h),
                       len(frames))
        frames.append(frame)
    return learn(reader, frames, dice)


def bench(reader, repeat: int, tag: str) -> None:
    frame, boxes, die_px = frame_with_two_dice()
    got = reader.read_at(frame, boxes)
    centres = [b[0] for b in boxes]
    small = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    tray = cv2.imread(str(STILLS / "colours_tray.jpg"))
    runs = [
        (f"read_at, 2 dice in a 1280x720 frame (die {die_px:.0f} px)",
         lambda: reader.read_at(frame, boxes), repeat, "target < 3 ms"),
        ("read_at, 2 bare centres + die_px", lambda: reader.read_at(frame, centres, die_px=die_px),
         repeat, ""),
        ("find, whole 1280x720 frame (die_px given)", lambda: reader.find(frame, die_px=die_px),
         max(10, repeat // 10), ""),
        ("find, whole 640x480 frame (2 white dice)", lambda: reader.find(small),
         max(10, repeat // 4), "target < 10 ms"),
        ("find, whole 640x640 frame (24 coloured dice)", lambda: reader.find(tray),
         max(10, repeat // 10), ""),
    ]
    print(f"values read_at {[d.value for d in got]}{tag}")
    for name, fn, n, target in runs:
        wall, cpu = timed(fn, n)
        print(f"{name + ':':46s} median {wall:6.2f} ms wall, {cpu:6.2f} ms CPU"
              f"{'  (' + target + ')' if target else ''}{tag}")
        print(f"{'':46s} {work(reader, fn)}")


if __name__ == "__main__":
    sys.exit(main())
