"""Time `DiceReader.read_at` on the two dice of a 1280x720 frame, given where they lie (one core).

    python bench/read_speed.py [--repeat N] [--profile]

The frame is made of a real labelled photo of two dice (fixtures/stills/two_white_wood.jpg),
scaled so a die is 52 px and tiled over 1280x720, so the reader does real work. Target: under 3 ms per frame. Also
prints `find` (whole-frame search) on the same frame and on a 640x480 photo, for reference.
``--profile``: the same with a profile of a pair (learnt from the two labelled trays of
fixtures/stills), the cost of reading with one.
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


def timed(fn, repeat: int) -> float:
    fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ts)


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
    ms = timed(lambda: reader.read_at(frame, boxes), repeat)
    values = [d.value for d in got]
    print(f"read_at, 2 dice in a 1280x720 frame (die {die_px:.0f} px): median {ms:.2f} ms "
          f"(target < 3 ms) values {values}{tag}")
    centres = [b[0] for b in boxes]
    ms = timed(lambda: reader.read_at(frame, centres, die_px=die_px), repeat)
    print(f"read_at, 2 bare centres + die_px:                 median {ms:.2f} ms{tag}")
    ms = timed(lambda: reader.find(frame, die_px=die_px), max(10, repeat // 10))
    print(f"find, whole 1280x720 frame (die_px given):        median {ms:.2f} ms{tag}")
    small = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    ms = timed(lambda: reader.find(small), max(10, repeat // 10))
    print(f"find, whole 640x480 frame:                        median {ms:.2f} ms{tag}")


if __name__ == "__main__":
    sys.exit(main())
