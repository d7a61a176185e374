"""Which stage of ``DiceReader.find`` loses a die under one of ``bench/read_accuracy.py
--stress``'s changes: each held-out photo read as photographed and changed, stage by stage.

    python tools/reader_stages.py                       # JPEG q40, the held-out part
    python tools/reader_stages.py --change "out of focus" --part tune

For each labelled die read right as photographed but not once changed, the stage that dropped
it (misread: the stage that gave the wrong value; else the last stage that changed its outcome
under the change, or, never read right there, the first stage whose outcome differs from the
photo's) and what it measured there: the detector's heat and size, the classifier's
confidence and cocked share, the pips' count and quality (``vision.pip_count``) and the blur
measure (``edge_width``, against ``blur_max``).
Then every die misread under the change, and a count of dice lost per stage.

    python tools/reader_stages.py --jpeg-parts          # what of JPEG costs the dice

``--jpeg-parts``: the held-out part read (read / misread / abstained / missed) as photographed,
as JPEG q40 gives it (colour at a quarter of the pixels, 4:2:0), as JPEG q40 with colour at every
pixel (4:4:4: only the quantisation), with colour at a quarter of the pixels alone (no
quantisation), and with the lightness of one and the colour of the other; the pips' count's clean counts (right / wrong) on each reading found as
photographed; and what a further look at a die still unsure after the last look gives, on a copy
of the frame with its colour smoothed (Gaussian, sigma 1 and 2 px, on Cr and Cb) or grey.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from read_accuracy import PHOTOS, SETS, SPLIT, STRESS, outcomes, read_labels  # noqa: E402

from vision.dice import BACKGROUND, DiceReader, DieReading  # noqa: E402
from vision.dice_crop import edge_width  # noqa: E402
from vision.pip_count import count_pips  # noqa: E402

STAGES = ("detect", "classify", "rescue", "one_per_die", "second_look", "last_look",
          "grey_look", "pip_vote", "too_poor")


def find_by_stage(reader: DiceReader, frame) -> dict[str, list[DieReading]]:
    """``find`` (without ``die_px`` or a profile) stage by stage: the readings after each. The
    detector's finds as readings of no value (confidence: their heat); a find the classifier
    calls no die is left out from ``classify`` on."""
    t = reader.tuning
    out: dict[str, list[DieReading]] = {s: [] for s in STAGES}
    finds = reader._detect_any_size(frame)
    out["detect"] = [DieReading(None, (f.cx, f.cy), ((f.cx, f.cy), (f.size, f.size), 0.0),
                                f.heat, False) for f in finds]
    if not finds:
        return out

    def as_read(fs):
        return [reader._reading(f.cx, f.cy, f.size, f.angle, f.p) for f in fs
                if f.p[BACKGROUND] < t.background]

    reader._read_finds(frame, finds)
    out["classify"] = as_read(finds)
    reader._rescue(frame, finds)
    out["rescue"] = as_read(finds)
    readings = reader._one_per_die(frame, finds)
    out["one_per_die"] = readings
    seen = [(r.center[0], r.center[1], r.box[1][0]) for r in readings]
    readings = reader._second_look(frame, readings, seen)
    out["second_look"] = readings
    readings = reader._last_look(frame, readings, seen)
    out["last_look"] = readings
    readings = reader._grey_look(frame, readings)
    out["grey_look"] = readings
    readings = reader._pip_vote(frame, readings)
    out["pip_vote"] = readings
    out["too_poor"] = reader._too_poor(frame, readings)
    return out


def trail(labels, by_stage) -> list[list[tuple[str, DieReading | None]]]:
    """Per label, per stage: (outcome, the reading matched)."""
    per = [[] for _ in labels]
    for s in STAGES:
        got = outcomes(labels, by_stage[s])
        for k, (what, di) in enumerate(got):
            if s == "detect" and what != "missed":
                what = "found"
            per[k].append((what, None if di is None else by_stage[s][di]))
    return per


def blame(orig, changed) -> str:
    """The stage that lost a die: misread, the stage that gave the misread value (the first of
    the run of misreads that ends the trail); else the last to change its outcome under the
    change if it was read right at some stage; else the first whose outcome differs from the
    photo's."""
    outs = [w for w, _ in changed]
    if outs[-1] == "misread":
        k = len(outs) - 1
        while k > 0 and outs[k - 1] == "misread":
            k -= 1
        return STAGES[k]
    if "correct" in outs:
        for k in range(len(outs) - 1, 0, -1):
            if outs[k] != outs[k - 1]:
                return STAGES[k]
    for k, ((wo, _), (wc, _)) in enumerate(zip(orig, changed, strict=True)):
        if wo != wc:
            return STAGES[k]
    return STAGES[-1]


def measures(reader: DiceReader, frame, r: DieReading | None, find_heat: float | None) -> str:
    if r is None:
        return "no reading"
    t = reader.tuning
    pips = count_pips(frame, r.center, r.box[1][0], r.box[2], t.pip_count)
    heat = "" if find_heat is None else f"heat {find_heat:.2f} "
    return (f"{heat}size {r.box[1][0]:.1f} value {r.value} best {r.best_face} "
            f"conf {r.confidence:.3f} cocked {r.cocked_share:.2f} | pips {pips.count} "
            f"q {pips.quality:.2f}{' (' + pips.why + ')' if pips.why else ''} | blur "
            f"{edge_width(frame, r.center, r.box[1][0]):.3f} (max {t.blur_max})")


def _jpeg(frame, sampling: int | None = None):
    params = [cv2.IMWRITE_JPEG_QUALITY, 40]
    if sampling is not None:
        params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, sampling]
    return cv2.imdecode(cv2.imencode(".jpg", frame, params)[1], cv2.IMREAD_COLOR)


def _quarter_colour(frame):
    """Colour at a quarter of the pixels (Cr and Cb halved each way, area, and back,
    bilinear), the lightness kept: JPEG's subsampling without its quantisation."""
    ycc = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
    h, w = frame.shape[:2]
    small = cv2.resize(ycc[..., 1:], (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    ycc[..., 1:] = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def _lightness_of(lightness, colour):
    """A frame with the lightness (Y) of one and the colour (Cr, Cb) of another."""
    ycc = cv2.cvtColor(lightness, cv2.COLOR_BGR2YCrCb)
    ycc[..., 1:] = cv2.cvtColor(colour, cv2.COLOR_BGR2YCrCb)[..., 1:]
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def _colour_smoothed(sigma: float):
    def smooth(frame):
        ycc = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)
        ycc[..., 1:] = cv2.GaussianBlur(ycc[..., 1:], (0, 0), sigma)
        return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    return smooth


def _grey(frame):
    return cv2.cvtColor(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


class _OneMoreLook(DiceReader):
    """The reader with one more look at a die still unsure after the last look: its crop cut
    from ``copy(frame)``, taken if read as a face (not flagged) more surely."""

    copy = None

    def _last_look(self, frame, readings, seen):
        readings = super()._last_look(frame, readings, seen)
        unsure = [i for i, r in enumerate(readings) if self._unsure(r)]
        if self.copy is None or not unsure:
            return readings
        dice = [(readings[i].center[0], readings[i].center[1], readings[i].box[1][0])
                for i in unsure]
        angles, probs = self._classify(self.copy(frame), dice)
        out = list(readings)
        for i, d, a, p in zip(unsure, dice, angles, probs, strict=True):
            c = self._reading(*d, a, p)
            if c.value is not None and not c.cocked and c.confidence > readings[i].confidence:
                out[i] = c
        return out


def jpeg_parts(part: str, models: Path | None = None) -> None:
    """``--jpeg-parts`` (see the module's doc)."""
    from read_accuracy import match

    split = json.loads(SPLIT.read_text())["sets"]
    reader = _OneMoreLook(models)
    frames = {"as photographed": lambda f: f, "JPEG q40 (4:2:0)": _jpeg,
              "JPEG q40, colour at every pixel (4:4:4)":
                  lambda f: _jpeg(f, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444),
              "colour at a quarter of the pixels alone": _quarter_colour,
              "the photo's lightness, JPEG q40's colour": lambda f: _lightness_of(f, _jpeg(f)),
              "JPEG q40's lightness, the photo's colour": lambda f: _lightness_of(_jpeg(f), f)}
    looks = {"colour smoothed, sigma 1": _colour_smoothed(1.0),
             "colour smoothed, sigma 2": _colour_smoothed(2.0), "grey": _grey}
    for s in SETS:
        photos = []
        for name in sorted(split[s][part]):
            frame = cv2.imread(str(PHOTOS / s / name))
            h, w = frame.shape[:2]
            photos.append((frame, read_labels((PHOTOS / s / name).with_suffix(".txt"), w, h)))
        runs = [(k, f, None) for k, f in frames.items()]
        runs += [(f"{k}: one more look, {lk}", f, look) for k, f in list(frames.items())[:2]
                 for lk, look in looks.items()]
        for what, change, look in runs:
            reader.copy = look
            tot = Counter()
            right = wrong = 0
            for frame, labels in photos:
                changed = change(frame)
                tot.update(match(labels, reader.find(changed)))
                if look is None:
                    reader.copy = None
                    found = reader.find(frame)
                    for lab, (_, di) in zip(labels, outcomes(labels, found), strict=True):
                        if di is None:
                            continue
                        d = found[di]
                        pips = count_pips(changed, d.center, d.box[1][0], d.box[2],
                                          reader.tuning.pip_count)
                        right += pips.count == lab[0]
                        wrong += pips.count is not None and pips.count != lab[0]
            pips = f"  pips' clean counts {right} right {wrong} wrong" if look is None else ""
            print(f"{s:<10} {what:<62} {tot['correct']} / {tot['misread']} / "
                  f"{tot['abstained']} / {tot['missed']}{pips}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--change", default="JPEG q40 (a webcam's stream)", choices=list(STRESS))
    ap.add_argument("--part", default="held_out", choices=["held_out", "tune", "train"])
    ap.add_argument("--set", dest="sets", action="append", choices=SETS, default=None)
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    ap.add_argument("--models", type=Path, default=None, metavar="DIR",
                    help="the models and card in DIR, not the shipped ones")
    ap.add_argument("--jpeg-parts", action="store_true",
                    help="what of JPEG costs the dice, and further looks that were tried")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if a.jpeg_parts:
        jpeg_parts(a.part, a.models)
        return 0
    reader = DiceReader(a.models)
    split = json.loads(SPLIT.read_text())["sets"]
    lost: Counter = Counter()
    rows = []
    for s in a.sets or SETS:
        for name in sorted(split[s][a.part]):
            frame = cv2.imread(str(PHOTOS / s / name))
            h, w = frame.shape[:2]
            labels = read_labels((PHOTOS / s / name).with_suffix(".txt"), w, h)
            changed, m = STRESS[a.change](frame)
            if not np.array_equal(m, np.eye(3)):
                raise SystemExit("only changes that keep the pixels where they are")
            t0, t1 = trail(labels, find_by_stage(reader, frame)), \
                trail(labels, find_by_stage(reader, changed))
            for lab, o, c in zip(labels, t0, t1, strict=True):
                final_o, final_c = o[-1][0], c[-1][0]
                heat = c[0][1].confidence if c[0][1] is not None else None
                if final_o == "correct" and final_c != "correct":
                    stage = blame(o, c)
                    lost[(stage, final_c)] += 1
                    row = {"set": s, "photo": name, "label": lab[0], "outcome": final_c,
                           "stage": stage,
                           "trail": [f"{st}:{w}" + (f"({r.value},{r.confidence:.2f})"
                                                      if r is not None and st != "detect"
                                                      else "")
                                     for st, (w, r) in zip(STAGES, c, strict=True)],
                           "changed": measures(reader, changed, c[-1][1], heat),
                           "photographed": measures(reader, frame, o[-1][1],
                                                    o[0][1].confidence)}
                    rows.append(row)
                    print(f"LOST {s}/{name} label {lab[0]}: {final_c} at {stage}\n"
                          f"   trail   {' '.join(row['trail'])}\n"
                          f"   changed {row['changed']}\n"
                          f"   photo   {row['photographed']}", flush=True)
                if final_c == "misread":
                    r = c[-1][1]
                    stage = next(st for st, (w, rr) in zip(STAGES, c, strict=True)
                                 if w == "misread" and rr.value == r.value)
                    print(f"MISREAD {s}/{name} label {lab[0]} read {r.value} at "
                          f"{r.confidence:.3f} (value from {stage}; as photographed "
                          f"{final_o})\n   changed {measures(reader, changed, r, heat)}",
                          flush=True)
                    rows.append({"set": s, "photo": name, "label": lab[0], "outcome": "misread",
                                 "value": r.value, "confidence": r.confidence, "stage": stage})
    print("\ndice read as photographed, lost under the change, per stage and outcome:")
    for (stage, what), n in sorted(lost.items()):
        print(f"  {stage:<12} {what:<10} {n}")
    if a.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
