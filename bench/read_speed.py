"""Time `DiceReader.read_at` on the two dice of a 1280x720 frame, given where they lie (one core).

    taskset -c 0 python bench/read_speed.py [--repeat N] [--profile]

The frame is made of a real labelled photo of two dice (fixtures/stills/two_white_wood.jpg),
scaled so a die is 52 px and tiled over 1280x720, so the reader does real work. Target: under
3 ms per frame. Also prints `find` (whole-frame search) on the same frame, on a 640x480 photo
(the white pair on wood; target under 10 ms) and on a 640x640 one (a tray of coloured dice).
``--profile``: the same with a profile of a pair (learnt from the two labelled trays of
fixtures/stills), the cost of reading with one. ``--models DIR`` times the models (and card) in
DIR; ``--against DIR`` times a second folder too, the two alternated run by run (the machine's
drift falls on both alike), and prints the ratio of their CPU times. The detector's bare pass
(``cv2.dnn`` forward alone) is timed on a 320x240 and a 160x120 input (the 640x480 frame's
whole-frame look and coarse probe). ``--against DIR --held-out SET`` (repeatable) times `find`
on the held-out photos of a labelled set instead (../shared/data/dice-photos, the split of
vision/models/dice_split.json): the two readers alternated photo by photo (which goes first
alternated too), each photo's time the fastest of ``--reads`` (3) reads alternated read by read,
``--rounds`` rounds, each round's medians, the ratio of their sums and the median of the photos'
ratios. ``--against-code TREE`` does the same with the reader
of another checkout (its ``vision`` package and models, e.g. ``git worktree add /tmp/old HEAD~1``)
in place of a second model folder: the speed of a change of code, old against new in one process.

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
    ap.add_argument("--models", type=Path, default=None, metavar="DIR",
                    help="time the models (and dice_reader.json) in DIR, not the shipped ones")
    ap.add_argument("--against", type=Path, default=None, metavar="DIR",
                    help="also time the models in DIR, alternated with the first, and the ratio")
    ap.add_argument("--against-code", type=Path, default=None, metavar="TREE",
                    help="as --against, with the reader (code and models) of the checkout TREE")
    ap.add_argument("--held-out", action="append", default=[], metavar="SET",
                    help="with --against: time find on the held-out photos of SET (nell-byler, "
                    "matteop65; repeatable) instead of the fixtures")
    ap.add_argument("--rounds", type=int, default=3, help="--held-out: rounds over the photos")
    ap.add_argument("--reads", type=int, default=3,
                    help="--held-out: reads of each photo by each reader, the fastest kept")
    a = ap.parse_args(argv)
    if a.against is not None and a.against_code is not None:
        ap.error("give --against DIR or --against-code TREE, not both")
    if a.held_out and a.against is None and a.against_code is None:
        ap.error("--held-out compares two readers: give the second with --against DIR "
                 "or --against-code TREE")
    cv2.setNumThreads(1)
    # the other checkout's reader is imported first, then set aside (its functions keep their
    # own modules), so that this checkout's is imported as usual
    other = ((a.against_code / "vision" / "models", reader_of_tree(a.against_code))
             if a.against_code else None)
    from vision.dice import MODEL_DIR, DiceReader

    reader = DiceReader(a.models)
    if a.against is not None:
        other = (a.against, DiceReader(a.against))
    if other is not None and a.held_out:
        for name in a.held_out:
            compare_held_out((a.models or MODEL_DIR, reader), other, name, a.rounds, a.reads)
        return 0
    if other is not None:
        compare((a.models or MODEL_DIR, reader), other, a.repeat)
        return 0
    bench(reader, a.repeat, "")
    if a.profile:
        bench(DiceReader(profile=tray_profile(reader)), a.repeat, " [profile]")
    return 0


def reader_of_tree(tree: Path):
    """A DiceReader (its shipped models) of the checkout at ``tree``: its ``vision`` package
    imported, then taken out of ``sys.modules`` so that this checkout's can be imported."""
    if not (tree / "vision" / "dice.py").is_file():
        raise SystemExit(f"{tree}: no vision/dice.py there (give the root of a checkout)")
    if any(m == "vision" or m.startswith("vision.") for m in sys.modules):
        raise SystemExit("reader_of_tree: the vision package is already imported")
    sys.path.insert(0, str(tree))
    try:
        from vision.dice import DiceReader
        reader = DiceReader()
    finally:
        sys.path.remove(str(tree))
        for m in [m for m in sys.modules if m == "vision" or m.startswith("vision.")]:
            del sys.modules[m]
    return reader


def bare_detector(model_dir: Path) -> list:
    """(name, fn) of the detector's bare passes: a 320x240 and a 160x120 input, each on a net of
    its own (as the reader keeps one per size)."""
    from vision.dice import _load_net

    path = model_dir / "dice_det.onnx"
    out = []
    for w, h in ((320, 240), (160, 120)):
        net = _load_net(path)
        blob = np.random.default_rng(0).uniform(-0.5, 0.5, (1, 3, h, w)).astype(np.float32)

        def forward(net=net, blob=blob):
            net.setInput(blob)
            return net.forward()

        out.append((f"detector alone, {w}x{h} input", forward))
    return out


def compare(first, second, repeat: int) -> None:
    """Each run timed on both readers ((model folder, reader) each) in turn, ``repeat`` times
    over, the two alternated (and which goes first); the medians of each and the ratio second / first of CPU times."""
    (dir_a, a), (dir_b, b) = first, second
    small = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    tray = cv2.imread(str(STILLS / "colours_tray.jpg"))
    frame, boxes, _ = frame_with_two_dice()
    runs = [(name, fa, fb) for (name, fa), (_, fb)
            in zip(bare_detector(dir_a), bare_detector(dir_b), strict=True)]
    for name, img in (("find, 640x480 (2 white dice)", small),
                      ("find, 640x640 (24 coloured dice)", tray)):
        runs.append((name, lambda img=img: a.find(img), lambda img=img: b.find(img)))
    runs.append(("read_at, 2 dice in 1280x720", lambda: a.read_at(frame, boxes),
                 lambda: b.read_at(frame, boxes)))
    print(f"first: {dir_a}\nsecond: {dir_b}")
    for name, fa, fb in runs:
        fa(), fb()
        ca, cb = [], []
        for k in range(repeat):
            # each first in turn: what runs second finds the caches the first left
            pair = ((fa, ca), (fb, cb)) if k % 2 == 0 else ((fb, cb), (fa, ca))
            for fn, acc in pair:
                c0 = time.thread_time()
                fn()
                acc.append((time.thread_time() - c0) * 1000)
        ma, mb = statistics.median(ca), statistics.median(cb)
        print(f"{name + ':':40s} first {ma:6.2f} ms CPU, second {mb:6.2f} ms CPU, "
              f"second / first {mb / ma:.3f}")


def held_out_photos(name: str) -> list[np.ndarray]:
    """The held-out photos of one labelled set (``dice_split.json``), in name order."""
    import json

    photos = ROOT.parent / "shared" / "data" / "dice-photos" / name
    split = json.loads((ROOT / "vision" / "models" / "dice_split.json").read_text())["sets"]
    if name not in split:
        raise SystemExit(f"no set {name!r} in the split (sets: {', '.join(split)})")
    if not photos.is_dir():
        raise SystemExit(f"missing photos {photos}: the labelled dice photos are not here")
    return [cv2.imread(str(photos / n)) for n in sorted(split[name]["held_out"])]


def compare_held_out(first, second, name: str, rounds: int, reads: int = 3) -> None:
    """``find`` on each held-out photo of set ``name`` by both readers ((folder, reader) each),
    after one read each, ``reads`` reads each alternated read by read (which goes first
    alternated photo by photo and round by round); each photo's time the fastest of its reads
    (CPU time of this thread: the fastest is the read the others' load disturbed least). Per
    round: both medians, their ratio, the ratio of the sums and the median of the photos'
    ratios (second / first)."""
    (dir_a, a), (dir_b, b) = first, second
    images = held_out_photos(name)
    print(f"first: {dir_a}\nsecond: {dir_b}\n{name}, {len(images)} held-out photos, "
          f"the fastest of {reads} reads each")
    for k in range(rounds):
        ta, tb = [], []
        for i, image in enumerate(images):
            a.find(image), b.find(image)
            got = {id(a): [], id(b): []}
            for j in range(reads):
                for reader in ((a, b) if (i + j + k) % 2 == 0 else (b, a)):
                    c0 = time.thread_time()
                    reader.find(image)
                    got[id(reader)].append((time.thread_time() - c0) * 1000)
            ta.append(min(got[id(a)]))
            tb.append(min(got[id(b)]))
        ma, mb = statistics.median(ta), statistics.median(tb)
        each = statistics.median(y / x for x, y in zip(ta, tb, strict=True))
        print(f"round {k + 1}: median first {ma:6.2f} ms CPU, second {mb:6.2f} ms CPU, "
              f"second / first {mb / ma:.3f} (sums {sum(tb) / sum(ta):.3f}, "
              f"photo by photo {each:.3f})", flush=True)


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
