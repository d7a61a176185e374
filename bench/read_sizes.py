"""Score ``DiceReader.find`` on the labelled photos at other sizes, without ``die_px``, one core.

    taskset -c 0 python bench/read_sizes.py            # held-out photos of both sets
    taskset -c 0 python bench/read_sizes.py --all      # every labelled photo
    taskset -c 0 python bench/read_sizes.py --only 1x,12mp-light --limit 10

Each photo is made into other photos and read as a user's photo would be, with no hint of the
dice's size (the labels are moved with it):

* ``0.5x``, ``1x``, ``2x``, ``4x``: the whole photo scaled (dice and photo grow together);
* ``12mp-light``: scaled to fit 4000x3000 and padded to it, under a strong side light (a gain
  from 0.35 to 1.3 across the photo), a contrast change (gamma 1.4) and sensor noise: a phone
  photo in a room;
* ``dice-0.5x-640``, ``dice-2x-640``: the dice at half or twice their size in a frame of the
  photo's own size (scaled, then padded with the photo's border colour or cut to the middle):
  the dice's size in pixels no longer follows the photo's;
* ``dice-1x-12mp``: the photo at its own size in the middle of a 4000x3000 frame (small dice
  in a big photo).

Per variant: dice, read / misread / abstained / missed, false positives, and the median ms an
image (the fastest of ``--repeat`` reads; one read for photos above 2 MP).
Scoring as bench/read_accuracy.py (the photo sets' README).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from read_accuracy import PHOTOS, SETS, SPLIT, fix_labels, match  # noqa: E402

VARIANTS = ("0.5x", "1x", "2x", "4x", "12mp-light", "dice-0.5x-640", "dice-2x-640",
            "dice-1x-12mp")
BIG = (4000, 3000)


def _border_colour(img: np.ndarray) -> tuple[int, int, int]:
    rim = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]]).reshape(-1, 3)
    return tuple(int(v) for v in np.median(rim, axis=0))


def _place(img: np.ndarray, zoom: float, canvas: tuple[int, int] | None):
    """The photo scaled by ``zoom`` and put in the middle of a ``canvas`` (w, h) frame (padded
    with its border colour, or cut); returns it and the map of a label's pixel coordinates."""
    h, w = img.shape[:2]
    interp = cv2.INTER_AREA if zoom < 1 else cv2.INTER_CUBIC
    z = img if zoom == 1 else cv2.resize(img, (round(w * zoom), round(h * zoom)),
                                         interpolation=interp)
    if canvas is None:
        return z, (lambda x, y: (x * zoom, y * zoom)), z.shape[1], z.shape[0]
    cw, ch = canvas
    out = np.empty((ch, cw, 3), np.uint8)
    out[:] = _border_colour(img)
    zh, zw = z.shape[:2]
    ox, oy = (cw - zw) // 2, (ch - zh) // 2
    sx0, sy0 = max(0, -ox), max(0, -oy)
    dx0, dy0 = max(0, ox), max(0, oy)
    ww, hh = min(zw - sx0, cw - dx0), min(zh - sy0, ch - dy0)
    out[dy0:dy0 + hh, dx0:dx0 + ww] = z[sy0:sy0 + hh, sx0:sx0 + ww]
    return out, (lambda x, y: (x * zoom + ox, y * zoom + oy)), cw, ch


def side_light(img: np.ndarray, seed: int) -> np.ndarray:
    """A strong light from one side, a contrast change and noise."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    ramp = np.linspace(0.35, 1.3, w, dtype=np.float32)
    if rng.random() < 0.5:
        ramp = ramp[::-1]
    x = img.astype(np.float32) / 255.0
    x = np.power(x, 1.4) * ramp[None, :, None]
    x += rng.normal(0, 0.015, x.shape).astype(np.float32)
    return np.clip(x * 255.0, 0, 255).astype(np.uint8)


def variant(name: str, img: np.ndarray, seed: int):
    """(image, label mapper, width, height) of the named variant of a photo."""
    h, w = img.shape[:2]
    if name.endswith("x") and name[:-1].replace(".", "").isdigit():
        return _place(img, float(name[:-1]), None)
    if name == "12mp-light":
        k = min(BIG[0] / w, BIG[1] / h)
        out, f, cw, ch = _place(img, k, BIG)
        return side_light(out, seed), f, cw, ch
    if name == "dice-0.5x-640":
        return _place(img, 0.5, (w, h))
    if name == "dice-2x-640":
        return _place(img, 2.0, (w, h))
    if name == "dice-1x-12mp":
        return _place(img, 1.0, BIG)
    raise SystemExit(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")


def labels_in(txt: Path, w: int, h: int, mapper, zoom: float, cw: int, ch: int):
    """The labels as (value, cx, cy, match radius) in the variant's pixels; dice cut by the
    frame's edge are left out."""
    rows = []
    for line in txt.read_text().splitlines():
        if line.strip():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            rows.append((int(c) + 1, cx * w, cy * h, bw * w, bh * h))
    out = []
    for value, px, py, bw, bh in fix_labels(txt, rows):  # tools/label_fixes.json
        x, y = mapper(px, py)
        half = 0.5 * max(bw, bh) * zoom
        if half <= x <= cw - half and half <= y <= ch - half:
            out.append((value, x, y, max(0.75 * 2 * half, 24.0)))
    return out


def score(reader, images: list[Path], name: str, repeat: int) -> dict:
    tot = {"images": 0, "dice": 0, "correct": 0, "misread": 0, "abstained": 0, "missed": 0,
           "fp": 0}
    ms = []
    for n, jpg in enumerate(images):
        src = cv2.imread(str(jpg))
        h, w = src.shape[:2]
        img, mapper, cw, ch = variant(name, src, n)
        zoom = mapper(1.0, 0.0)[0] - mapper(0.0, 0.0)[0]
        labels = labels_in(jpg.with_suffix(".txt"), w, h, mapper, zoom, cw, ch)
        times = []
        for _ in range(1 if img.shape[0] * img.shape[1] > 2e6 else max(1, repeat)):
            t0 = time.perf_counter()
            dice = reader.find(img)
            times.append((time.perf_counter() - t0) * 1000)
        ms.append(min(times))
        got = match(labels, dice)
        tot["images"] += 1
        for k, v in got.items():
            tot[k] += v
    tot["median_ms"] = statistics.median(ms) if ms else float("nan")
    return tot


def line(name: str, t: dict, base: dict | None) -> str:
    d = max(1, t["dice"])
    s = (f"{name:<14} dice {t['dice']:5d}  read {t['correct']:5d} ({100 * t['correct'] / d:5.1f}%)"
         f"  misread {t['misread']:3d} ({100 * t['misread'] / d:4.2f}%)  abstained "
         f"{t['abstained']:3d}  missed {t['missed']:3d}  fp {t['fp']:3d}  "
         f"{t['median_ms']:7.1f} ms/image")
    if base is not None and name != "1x":
        s += f"  (1x: {100 * base['correct'] / max(1, base['dice']):.1f}%)"
    return s


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score find() on the photos at other sizes.")
    ap.add_argument("--all", action="store_true", help="every photo, not just the held-out part")
    ap.add_argument("--only", default=",".join(VARIANTS),
                    help=f"comma-separated variants (default all: {','.join(VARIANTS)})")
    ap.add_argument("--limit", type=int, default=0, metavar="N", help="the first N photos a set")
    ap.add_argument("--repeat", type=int, default=3, metavar="N")
    ap.add_argument("--profile", type=Path, default=None, help="read with this dice profile")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)  # the target is for one core
    from vision.dice import DiceReader

    reader = DiceReader(profile=a.profile)
    split = json.loads(SPLIT.read_text())["sets"]
    names = [v.strip() for v in a.only.split(",") if v.strip()]
    results: dict = {}
    for s in SETS:
        keep = None if a.all else set(split[s]["held_out"])
        imgs = sorted(p for p in (PHOTOS / s).glob("*.jpg")
                      if p.with_suffix(".txt").exists() and (keep is None or p.name in keep))
        if a.limit:
            imgs = imgs[: a.limit]
        print(f"{s} [{'all' if a.all else 'held_out'}], {len(imgs)} photos", flush=True)
        results[s] = {}
        for name in (["1x"] if "1x" in names else []) + [v for v in names if v != "1x"]:
            results[s][name] = score(reader, imgs, name, a.repeat)
            print("  " + line(name, results[s][name], results[s].get("1x")), flush=True)
    if a.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
