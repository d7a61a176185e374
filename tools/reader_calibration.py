"""Does the reader's confidence mean what it says on dice it never saw? (dev-only tool)

Reads the per-die rows that ``bench/read_accuracy.py --readings FILE`` writes (each labelled
die as the whole reader met it: the bench's outcome, the reading's likeliest face and that
face's confidence) and prints, per file:

* a reliability table: the dice the reader gave a face for (not cocked, not missed), in bins
  of confidence, against the share of them whose likeliest face is right, and the expected
  calibration error over those bins;
* what a raised ``min_confidence`` would have read and misread there.

``--fit`` chooses a threshold WITHOUT the dice it is scored on: the least threshold whose
confident misreads stay within ``--share`` of the dice of the fitting files (other folds'
left-out kinds, or the other kinds' held-out dice), then scores it on each scored file::

    .venv/bin/python bench/read_accuracy.py --leave-out nell-byler/0 \\
        --models /work/train-out/loo3/C12_nell-byler_0 --readings black.json
    .venv/bin/python tools/reader_calibration.py black.json marbled.json
    .venv/bin/python tools/reader_calibration.py --fit marbled.json black.json

A raised threshold is scored from the rows (a reading below it counts as abstained); that is
what the reader does with ``min_confidence`` set so, as long as it stays below the card's
``sure`` (a reading below ``sure`` is looked at again either way), so a rule found here is
checked by the bench with the card changed before it is believed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

# the bins of the reliability table: the reader never gives a face below 1/6, and the
# confidences that decide reads lie high, so the upper bins are finer
EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0001)

# the share of the dice that the fitted threshold may let through misread (the target is
# 0.5%; the fit keeps a margin, as tools/train_reader.py calibrate does)
MISREAD_SHARE = 0.004


def reliability(conf: np.ndarray, right: np.ndarray, edges=EDGES) -> list[dict]:
    """Per bin of confidence [lo, hi): how many dice, their mean confidence and the share of
    them read right. Empty bins are left out."""
    conf = np.asarray(conf, float)
    right = np.asarray(right, bool)
    rows = []
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (conf >= lo) & (conf < hi)
        if inside.any():
            rows.append({"lo": lo, "hi": min(hi, 1.0), "dice": int(inside.sum()),
                         "confidence": float(conf[inside].mean()),
                         "right": float(right[inside].mean())})
    return rows


def calibration_error(conf: np.ndarray, right: np.ndarray, edges=EDGES) -> float:
    """Expected calibration error: how far the mean confidence is from the share right, bin by
    bin, weighted by the bins' shares of the dice."""
    n = len(np.asarray(conf))
    if n == 0:
        return 0.0
    return float(sum(r["dice"] / n * abs(r["confidence"] - r["right"])
                     for r in reliability(conf, right, edges)))


def least_confidence(conf: np.ndarray, wrong: np.ndarray, share: float,
                     total: int | None = None) -> float:
    """The least threshold at which the dice read with at least that confidence hold no more
    wrong values than ``share`` of ``total`` dice (all of ``conf`` by default): as many read as
    it can while its confident misreads stay within ``share``. 1.0 when even the surest die
    is wrong beyond it."""
    conf = np.asarray(conf, float)
    order = np.argsort(-conf, kind="stable")
    bad = np.cumsum(np.asarray(wrong, bool)[order])
    c = conf[order]
    # a threshold lets through every die at least as sure: cut only between distinct values
    last_of_tie = np.r_[c[1:] != c[:-1], True]
    ok = np.nonzero((bad <= share * (len(conf) if total is None else total)) & last_of_tie)[0]
    return float(c[ok[-1]]) if len(ok) else 1.0


class Readings:
    """The dice of one ``--readings`` file (optionally of some kinds only, or all but some).

    :param rows: the file's ``dice`` rows.
    """

    def __init__(self, rows: list[dict], name: str = ""):
        self.name = name
        self.rows = rows
        # a die with a face the reader could have given: matched and not flagged cocked
        self.faced = np.array([r["confidence"] is not None and not r["cocked"] for r in rows],
                              bool)
        self.conf = np.array([r["confidence"] if f else -1.0
                              for r, f in zip(rows, self.faced, strict=True)])
        self.right = np.array([r["best_face"] == r["value"] for r in rows], bool)
        self.given = np.array([r["outcome"] in ("correct", "misread") for r in rows], bool)

    @classmethod
    def load(cls, path: Path, kinds=None, but=None) -> Readings:
        rows = json.loads(Path(path).read_text())["dice"]
        rows = [r for r in rows if (kinds is None or r["kind"] in kinds)
                and (but is None or r["kind"] not in but)]
        return cls(rows, Path(path).stem)

    def __len__(self) -> int:
        return len(self.rows)

    def table(self) -> list[dict]:
        return reliability(self.conf[self.faced], self.right[self.faced])

    def error(self) -> float:
        return calibration_error(self.conf[self.faced], self.right[self.faced])

    def at(self, threshold: float) -> dict:
        """Read / misread / abstained / missed had the reader given only faces at least this
        sure (at or above the threshold it ran with: the dice it gave no face stay so)."""
        sure = self.given & (self.conf >= threshold)
        read = int((sure & self.right).sum())
        misread = int((sure & ~self.right).sum())
        missed = sum(r["outcome"] == "missed" for r in self.rows)
        return {"dice": len(self), "read": read, "misread": misread,
                "abstained": len(self) - read - misread - missed, "missed": missed}

    def fitted(self, share: float = MISREAD_SHARE) -> float:
        """The least threshold whose confident misreads stay within ``share`` of these dice."""
        return least_confidence(self.conf[self.given], ~self.right[self.given], share,
                                total=len(self))

    @staticmethod
    def pooled(parts: list[Readings]) -> Readings:
        return Readings([r for p in parts for r in p.rows], "+".join(p.name for p in parts))


def _say(t: dict) -> str:
    d = max(1, t["dice"])
    return (f"{100 * t['read'] / d:5.1f}% / {t['misread']} ({100 * t['misread'] / d:.2f}%) / "
            f"{t['abstained']} / {t['missed']}")


def _print_table(r: Readings) -> None:
    print(f"{r.name}: {len(r)} dice, {int(r.faced.sum())} given a face; calibration error "
          f"{r.error():.4f}; at the card's threshold {_say(r.at(0.0))}")
    for row in r.table():
        print(f"  [{row['lo']:.2f}, {row['hi']:.2f})  {row['dice']:4d} dice  mean confidence "
              f"{row['confidence']:.3f}  right {row['right']:.3f}")
    for th in (0.9, 0.95, 0.97, 0.99):
        print(f"  min_confidence {th:.2f}: {_say(r.at(th))}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path, help="bench --readings files to score")
    ap.add_argument("--fit", action="append", type=Path, default=[], metavar="JSON",
                    help="fit a threshold on these files' dice (repeatable) and score it on "
                    "the others")
    ap.add_argument("--kinds", action="append", default=None, metavar="KIND",
                    help="only these kinds' dice of the scored files")
    ap.add_argument("--fit-but", action="append", default=None, metavar="KIND",
                    help="leave these kinds' dice out of the fitting files (a fold's own kind)")
    ap.add_argument("--share", type=float, default=MISREAD_SHARE,
                    help=f"misreads the fitted threshold may let through (default "
                    f"{MISREAD_SHARE})")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    a = ap.parse_args(argv)
    scored = [Readings.load(f, kinds=a.kinds) for f in a.files]
    out: dict = {}
    if a.fit:
        fit = Readings.pooled([Readings.load(f, but=a.fit_but) for f in a.fit])
        th = fit.fitted(a.share)
        print(f"fitted on {fit.name} ({len(fit)} dice): min_confidence {th:.4f} "
              f"(there {_say(fit.at(th))})")
        out["fit"] = {"files": [str(f) for f in a.fit], "dice": len(fit), "threshold": th}
    for r in scored:
        _print_table(r)
        out[r.name] = {"error": r.error(), "table": r.table(), "card": r.at(0.0)}
        if a.fit:
            print(f"  fitted {th:.4f}: {_say(r.at(th))}")
            out[r.name]["fitted"] = r.at(th)
    if a.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
