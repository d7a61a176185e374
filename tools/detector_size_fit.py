"""Fit a candidate detector's size (and centre) decode to the shipped detector's, on the TUNE
photos only (dice_split.json's ``tune`` part; the held-out part is never looked at).

    .venv/bin/python tools/detector_size_fit.py CANDIDATE_MODEL_DIR [--against DIR] [--write]

The classifiers are trained on crops cut where the shipped detector puts the dice
(``tools/train_reader.py`` ``mine``), so a detector that sees the same dice a little smaller or
off-centre makes them read crops they were not trained on. For every labelled die of the tune
photos, both detectors are run at the scales the shipped reader's ``find`` runs its detector
at (the whole frame) and, for the closer looks, on the patch ``_refine`` cuts around the
label; the finds of both on the same die are paired. Fitted, in the detector's own units
(log of the die's edge over the stride, at its input):

- ``size_scale``: one factor (a shift of the log size), and
- ``size_log_line``: ``[a, b]`` with ``log_shipped = a + b * log_candidate``,

and the centres' mean offset (die edges). ``--write`` puts the chosen one (the line, if it fits
better than the scale by more than the noise, else the scale) into the candidate card's
``detector`` section (``vision/dice.py`` reads it; absent, the decode is the identity).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"
SETS = ("nell-byler", "matteop65")

from vision.dice import DET_STRIDE, DiceReader  # noqa: E402


def _labels(txt: Path, width: int, height: int) -> list[tuple[float, float, float]]:
    """(cx, cy, edge) of each labelled die, pixels (the edge: the box's shorter side)."""
    out = []
    for line in txt.read_text().splitlines():
        if line.strip():
            _, cx, cy, w, h = (float(v) for v in line.split())
            out.append((cx * width, cy * height, min(w * width, h * height)))
    return out


class _Recording:
    """Wraps a reader's ``_detect`` to note the scales its ``find`` runs the detector at."""

    def __init__(self, reader: DiceReader):
        self.scales: list[tuple[float, object]] = []
        self._inner = reader._detect
        reader._detect = self

    def __call__(self, frame, scale, min_heat=0.0, net=None, **more):
        self.scales.append((scale, net))
        return self._inner(frame, scale, min_heat, net, **more)


def _raw(reader: DiceReader, frame: np.ndarray, scale: float):
    """The reader's finds at ``scale`` at least 0.3 hot, each as (cx, cy, z): frame pixels and
    the detector's raw log size output (log of the edge over the stride, at its input)."""
    h, w = frame.shape[:2]
    m = reader._det_multiple  # _detect's input sides
    sx = max(DET_STRIDE * 2, m, int(round(w * scale / m)) * m) / w
    sy = max(DET_STRIDE * 2, m, int(round(h * scale / m)) * m) / h
    return [(f.cx, f.cy, math.log(f.size * math.sqrt(sx * sy) / DET_STRIDE))
            for f in reader._detect(frame, scale, 0.3)]


def _nearest(finds, x: float, y: float, reach: float):
    best = min(finds, key=lambda f: math.hypot(f[0] - x, f[1] - y), default=None)
    if best is None or math.hypot(best[0] - x, best[1] - y) > reach:
        return None
    return best


def pairs(shipped: DiceReader, candidate: DiceReader, part: str = "tune",
          limit: int | None = None):
    """(set, z_shipped, z_candidate, dx, dy) per labelled die both detectors find at the
    whole-frame scale of the shipped ``find`` (dx, dy: the shipped centre less the candidate's,
    in die edges). ``limit``: the first so many photos of each set only."""
    split = json.loads((ROOT / "vision" / "models" / "dice_split.json").read_text())["sets"]
    rec = _Recording(shipped)
    out = []
    for s in SETS:
        for name in sorted(split[s][part])[:limit]:
            path = PHOTOS / s / name
            frame = cv2.imread(str(path))
            h, w = frame.shape[:2]
            labels = _labels(path.with_suffix(".txt"), w, h)
            rec.scales.clear()
            shipped.find(frame)
            # the last whole-frame scale (not the coarse probe's) is the one read
            scale = next(sc for sc, net in reversed(rec.scales) if net is None)
            a = _raw(shipped, frame, scale)
            b = _raw(candidate, frame, scale)
            for x, y, edge in labels:
                fa, fb = _nearest(a, x, y, 0.4 * edge), _nearest(b, x, y, 0.4 * edge)
                if fa and fb:
                    out.append((s, fa[2], fb[2], (fa[0] - fb[0]) / edge, (fa[1] - fb[1]) / edge))
    return out


def fit(data) -> dict:
    ys = np.array([d[1] for d in data])
    xs = np.array([d[2] for d in data])
    shift = float(np.median(ys - xs))
    b, a = np.polyfit(xs, ys, 1)
    res_id = float(np.mean(np.abs(ys - xs)))
    res_scale = float(np.mean(np.abs(ys - xs - shift)))
    res_line = float(np.mean(np.abs(ys - (a + b * xs))))
    return {"n": len(data), "size_scale": math.exp(shift), "size_log_line": [float(a), float(b)],
            "mean_abs_log_error": {"identity": res_id, "scale": res_scale, "line": res_line},
            "dx_edges": statistics.fmean(d[3] for d in data),
            "dy_edges": statistics.fmean(d[4] for d in data)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", type=Path, help="model folder holding the candidate detector")
    ap.add_argument("--against", type=Path, default=ROOT / "vision" / "models",
                    help="model folder of the detector to match (default: the shipped one)")
    ap.add_argument("--write", choices=("scale", "line"),
                    help="put this fit into the candidate card's detector section")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    shipped, cand = DiceReader(args.against), DiceReader(args.candidate)
    cand._det_size = lambda z: z  # fit the raw decode, not one the card already gives
    data = pairs(shipped, cand)
    report = {"all": fit(data)}
    for s in SETS:
        report[s] = fit([d for d in data if d[0] == s])
    print(json.dumps(report, indent=1))
    if args.write:
        card_path = args.candidate / "dice_reader.json"
        card = json.loads(card_path.read_text())
        det = card["detector"]
        det.pop("size_scale", None)
        det.pop("size_log_line", None)
        if args.write == "scale":
            det["size_scale"] = round(report["all"]["size_scale"], 4)
        else:
            det["size_log_line"] = [round(v, 4) for v in report["all"]["size_log_line"]]
        card_path.write_text(json.dumps(card, indent=2) + "\n")
        print(f"wrote {args.write} into {card_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
