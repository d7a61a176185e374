"""Score the dice reader on labelled photos, per set, on one core.

    python bench/read_accuracy.py              # the held-out part of both photo sets
    python bench/read_accuracy.py --all        # every labelled photo of both sets
    python bench/read_accuracy.py DIR [DIR...] # any folders of NAME.jpg + NAME.txt (YOLO labels)
    python bench/read_accuracy.py --sim 40     # also read_at on simulator-rendered dice
    python bench/read_accuracy.py --profile    # a profile learnt from two photos, per kind
    python bench/read_accuracy.py --per-kind   # the held-out part, per kind of dice
    python bench/read_accuracy.py --stress     # the held-out part changed: size, colour, light
    python bench/read_accuracy.py --leave-out nell-byler/1 --models DIR
                                   # one kind's dice on every photo, read by the models in DIR
    python bench/read_accuracy.py --pips [--leave-out KIND --models DIR]
                                   # the pips' count alone, per kind, and what its vote does

``--per-kind`` and ``--leave-out``: the kinds of dice are dice_split.json's ``kinds`` (nell-byler's
dice grouped by body colour, matteop65's white dice one kind; tools/reader_data.py die_kinds).
A kind's figures count its own dice only: the other kinds' dice on the same photos are matched
first and set aside. ``--leave-out KIND`` scores a kind on every photo of its set (not only the
held-out part: a model trained with that kind left out, ``tools/train_reader.py cls
--leave-out-kind KIND``, never saw any of its dice), unless ``--part`` is given.

``--profile``: the dice of each set are grouped into kinds by the colour of their bodies
(matteop65 is one kind, white; nell-byler's dice fall into ``--kinds`` colours, k-means in Lab
with a fixed seed). Per kind, a profile is learnt from two photos (those that show its faces
most evenly) and every die of that kind on the other photos is scored, read by the general
reader alone and with the profile.

Labels: one ``class cx cy w h`` line per die, normalised; class = face value - 1. Scoring (the
photo sets' README): each labelled die is matched to the nearest unmatched detected die whose
centre lies within max(0.75 x max(w, h), 24 px); counted as correct, misread (a wrong value
given with confidence), abstained (value null / cocked), missed (no match); detections matched to
no label are false positives. Targets: >= 98% correct, <= 0.5% misread, < 10 ms per image.
Time: the median over images of the fastest of --repeat reads of each (the first read's
median is printed beside it).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PHOTOS = ROOT.parent / "shared" / "data" / "dice-photos"
SPLIT = ROOT / "vision" / "models" / "dice_split.json"
SETS = ("nell-byler", "matteop65")
sys.path.insert(0, str(ROOT / "tools"))

from reader_data import body_colour, fix_labels, kinds_of  # noqa: E402


def read_labels(txt: Path, width: int, height: int) -> list[tuple[int, float, float, float]]:
    """(value, cx, cy, match_radius) per labelled die, pixels; the wrong labels
    ``tools/label_fixes.json`` lists corrected."""
    out = []
    for line in txt.read_text().splitlines():
        if line.strip():
            c, cx, cy, w, h = (float(v) for v in line.split())
            r = max(0.75 * max(w * width, h * height), 24.0)
            out.append((int(c) + 1, cx * width, cy * height, r))
    return fix_labels(txt, out)


def outcomes(labels, dice) -> list[tuple[str, int | None]]:
    """Greedy nearest matching of labelled dice to readings: per label, its outcome
    ("correct", "misread", "abstained" or "missed") and the index of the reading matched."""
    pairs = []
    for li, (_, lx, ly, r) in enumerate(labels):
        for di, d in enumerate(dice):
            dist = ((d.center[0] - lx) ** 2 + (d.center[1] - ly) ** 2) ** 0.5
            if dist <= r:
                pairs.append((dist, li, di))
    out: list[tuple[str, int | None]] = [("missed", None)] * len(labels)
    used_l, used_d = set(), set()
    for _, li, di in sorted(pairs):
        if li in used_l or di in used_d:
            continue
        used_l.add(li)
        used_d.add(di)
        v = dice[di].value
        out[li] = ("abstained" if v is None else "correct" if v == labels[li][0]
                   else "misread", di)
    return out


def match(labels, dice) -> dict[str, int]:
    """Greedy nearest matching of labelled dice to readings; the counts of one image."""
    n = {"dice": len(labels), "correct": 0, "misread": 0, "abstained": 0, "missed": 0, "fp": 0}
    got = outcomes(labels, dice)
    for what, _ in got:
        n[what] += 1
    n["fp"] = len(dice) - sum(di is not None for _, di in got)
    return n


def score_images(reader, images: list[Path], verbose: bool = False, repeat: int = 3) -> dict:
    """The counts over ``images``, and the median over images of the time to read one: the
    first timed read's (``median_ms_once``) and the fastest of ``repeat`` (``median_ms``; the
    reader does the same work each time, so the fastest is its cost with the least of this
    machine's other load)."""
    tot = {"images": 0, "dice": 0, "correct": 0, "misread": 0, "abstained": 0, "missed": 0,
           "fp": 0}
    ms, once = [], []
    for jpg in images:
        frame = cv2.imread(str(jpg))
        if frame is None:
            print(f"  {jpg}: unreadable, skipped", file=sys.stderr)
            continue
        h, w = frame.shape[:2]
        labels = read_labels(jpg.with_suffix(".txt"), w, h)
        reader.find(frame)  # warm caches for this size, as a running camera would be
        times = []
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            dice = reader.find(frame)
            times.append((time.perf_counter() - t0) * 1000)
        once.append(times[0])
        ms.append(min(times))
        n = match(labels, dice)
        tot["images"] += 1
        for k, v in n.items():
            tot[k] += v
        if verbose and (n["misread"] or n["missed"] or n["fp"] or n["abstained"]):
            print(f"  {jpg.name}: {n}")
    tot["median_ms"] = statistics.median(ms) if ms else float("nan")
    tot["median_ms_once"] = statistics.median(once) if once else float("nan")
    return tot


def simulated_stills(n_stills: int, seed: int):
    """Stills rendered by the throw simulator: (image, specs, die_px) with a grid of dice of every
    colour, a quarter of them leaning 18..40 degrees (as on the wall or on the other die), under
    a camera tilted 5..25 degrees."""
    from vision.simulator import DieSpec, Look, render_dice

    rng = np.random.default_rng(seed)
    colours = ["white", "black", "red", "green", "blue", "yellow"]
    for k in range(n_stills):
        die_px = float(rng.uniform(32, 56))
        specs = []
        for gy in np.arange(150, 440, 2 * die_px):
            for gx in np.arange(60 + die_px, 580 - die_px, 2 * die_px):
                tilt = float(rng.uniform(18, 40)) if rng.random() < 0.25 else 0.0
                specs.append(DieSpec(value=int(rng.integers(1, 7)),
                                     center=(float(gx + rng.uniform(-5, 5)), float(gy)),
                                     angle=float(rng.uniform(0, 90)),
                                     colour=colours[int(rng.integers(6))], cocked=tilt,
                                     cocked_toward=float(rng.uniform(0, 360))))
        st = render_dice(specs, (640, 480), die_px=die_px, tilt_deg=float(rng.uniform(5, 25)),
                         look=Look.random(rng), seed=seed + k)
        yield st.image, specs, st.calibration.die_px


def score_simulated(reader, n_stills: int, seed: int = 12345) -> dict:
    """read_at on dice rendered by the throw simulator (seeds never used in training or tuning):
    flat dice of every colour must be read; cocked ones flagged, never read."""
    n = {"flat": 0, "flat_correct": 0, "flat_misread": 0, "flat_abstained": 0,
         "cocked": 0, "cocked_flagged": 0, "cocked_read": 0, "ms": []}
    for image, specs, dp in simulated_stills(n_stills, seed):
        t0 = time.perf_counter()
        got = reader.read_at(image, [sp.center for sp in specs], die_px=dp)
        n["ms"].append((time.perf_counter() - t0) * 1000 / max(1, len(specs)))
        for sp, d in zip(specs, got, strict=True):
            if sp.cocked:
                n["cocked"] += 1
                n["cocked_flagged"] += d.cocked
                n["cocked_read"] += d.value is not None
            else:
                n["flat"] += 1
                if d.value is None:
                    n["flat_abstained"] += 1
                elif d.value == sp.value:
                    n["flat_correct"] += 1
                else:
                    n["flat_misread"] += 1
    n["ms_per_die"] = statistics.median(n.pop("ms")) if n_stills else float("nan")
    return n


def _learning_photos(per_photo: dict[str, list[int]], n: int) -> list[str]:
    """Photos whose dice of a kind show its six faces most evenly, added one at a time (the one
    that brings most faces nearer three sightings, then most dice): ``n`` of them, or with
    ``n`` 0 as many as it takes to see every face three times (at most 12)."""
    chosen: list[str] = []
    faces: list[int] = []

    def worth(a):
        seen = faces + per_photo[a]
        return (sum(min(3, seen.count(f)) for f in range(1, 7)), len(per_photo[a]), a)

    while len(chosen) < (n or 12) and len(chosen) < len(per_photo):
        if not n and all(faces.count(f) >= 3 for f in range(1, 7)):
            break
        best = max(worth(a) for a in per_photo if a not in chosen)[2]
        chosen.append(best)
        faces += per_photo[best]
    return chosen


def _nearest_read(dice, x: float, y: float, radius: float):
    """The reading nearest (x, y) within ``radius``, else None."""
    near = [(math.dist(d.center, (x, y)), i) for i, d in enumerate(dice)]
    near = [n for n in near if n[0] <= radius]
    return dice[min(near)[1]] if near else None


def _say_reading(d) -> str:
    return ("missed" if d is None else
            f"{'cocked' if d.cocked else d.value} ({d.best_face} at {d.confidence:.2f})")


def _list_profile_changes(reader, profile, photo: str, frame, labels, others, alone,
                          with_profile) -> None:
    """Print each die of the kind the profile does not read right, each die of another kind
    whose reading the profile changes, and each die whose reading the faces drawn on the
    nearest learnt die keep (``heed_drawn``), with the profile's verdict of it."""
    from dataclasses import replace

    rows = [(v, x, y, r, "") for v, x, y, r in labels]
    rows += [(v, x, y, r, "other kind ") for v, x, y, r in others]
    sure = reader.tuning.sure
    for v, x, y, r, who in rows:
        a, b = _nearest_read(alone, x, y, r), _nearest_read(with_profile, x, y, r)
        va, vb = (None if d is None else d.value for d in (a, b))
        got, kept = None, ""
        if a is not None and not a.cocked and profile.heed_drawn and len(profile.drawn):
            got = profile.judge(reader.features(frame, [(*a.center, a.box[1][0])], turns=4),
                                views=4)[0]

            def count(a=a):
                return profile.count(frame, a, reader.tuning.pip_count)

            off = replace(got, drawn=0)
            if profile.heed(a, got, sure, count) != profile.heed(a, off, sure, count):
                kept = "(kept by the faces drawn) "
        if not kept and ((vb == v and not who) or (who and va == vb)):
            continue
        verdict = ""
        if a is not None and not a.cocked:
            got = got or profile.judge(reader.features(frame, [(*a.center, a.box[1][0])],
                                                       turns=4), views=4)[0]
            pips = profile.count(frame, a, reader.tuning.pip_count)
            verdict = (f"| profile: {'pair' if got.of_pair else 'not the pair'} at "
                       f"{got.distance:.2f}, head {got.nearest} at {got.confidence:.2f}, "
                       f"nearest learnt die {got.pictured}"
                       + (f", over the dice drawn nearest as a {got.drawn} (by "
                          f"{got.drawn_margin:.3f})" if got.drawn else "")
                       + ("" if pips is None else
                          f", the pair's pips {pips.count or pips.why or 'none'}"))
        print(f"    {photo} {who}{v}: {kept}alone {_say_reading(a)}, with the profile "
              f"{_say_reading(b)} {verdict}")


def score_profiles(reader, n_kinds: int, n_learn: int, part: str | None,
                   verbose: bool = False, heed_pips: bool = True, draw: bool = True) -> dict:
    """Per kind of dice: learn a profile from two photos, score the other photos' dice of that
    kind with the general reader alone and with the profile (on the ``part`` of the split, the
    general reader never trained on it; None: every other photo). ``verbose``: list the dice
    the profile leaves unread or misread, and the other kinds' dice whose reading it
    changes; ``heed_pips``: the profile heeds the pair's own pips (``DiceProfile.heed_pips``);
    ``draw``: the profile draws the faces its photos did not show (``learn``'s ``draw``)."""
    from vision.dice import DiceReader
    from vision.dice_profile import learn, locate, read_yolo_labels

    results = {}
    split = json.loads(SPLIT.read_text())["sets"]
    for s in SETS:
        scored = set(split[s][part]) if part else None
        photos = []
        for jpg in sorted((PHOTOS / s).glob("*.jpg")):
            frame = cv2.imread(str(jpg))
            h, w = frame.shape[:2]
            txt = jpg.with_suffix(".txt")
            labels = fix_labels(txt, read_yolo_labels(txt, w, h))
            photos.append((jpg, frame, labels))
        colours = np.array([body_colour(f, cx, cy, 0.88 * max(bw, bh))
                            for _, f, ls in photos for _, cx, cy, bw, bh in ls])
        kind = (np.zeros(len(colours), int) if s == "matteop65"
                else kinds_of(colours, n_kinds))
        kinds_per_photo, n = [], 0
        for _, _, ls in photos:
            kinds_per_photo.append(kind[n:n + len(ls)].tolist())
            n += len(ls)
        general = [reader.find(f) for _, f, _ in photos]
        for k in sorted(set(kind.tolist())):
            per_photo = {jpg.name: [lab[0] for lab, kk in zip(ls, kp, strict=True) if kk == k]
                         for (jpg, _, ls), kp in zip(photos, kinds_per_photo, strict=True)
                         if k in kp}
            learn_from = _learning_photos(per_photo, n_learn)
            frames, dice = [], []
            for (jpg, f, ls), kp in zip(photos, kinds_per_photo, strict=True):
                if jpg.name in learn_from:
                    mine = [lab for lab, kk in zip(ls, kp, strict=True) if kk == k]
                    dice += locate(reader, f, mine, len(frames))
                    frames.append(f)
            profile = learn(reader, frames, dice, name=f"{s} kind {k}", draw=draw)
            profile.heed_pips = heed_pips
            with_profile = DiceReader(profile=profile)
            mean = colours[kind == k].mean(0).round().astype(int).tolist()
            name = f"{s} kind {k} (Lab {mean})"
            tot = {"alone": _zero(), "profile": _zero()}
            # the other kinds' dice on the scored photos, read with this kind's profile: it
            # must not turn them into guesses
            strangers = {"alone": _zero(), "profile": _zero()}
            for (jpg, f, ls), kp, g in zip(photos, kinds_per_photo, general, strict=True):
                if jpg.name in learn_from or (scored is not None and jpg.name not in scored):
                    continue
                labels = [(v, cx, cy, max(0.75 * max(bw, bh), 24.0))
                          for (v, cx, cy, bw, bh), kk in zip(ls, kp, strict=True) if kk == k]
                if not labels:
                    continue
                others = [(v, cx, cy, max(0.75 * max(bw, bh), 24.0))
                          for (v, cx, cy, bw, bh), kk in zip(ls, kp, strict=True) if kk != k]
                read_with = with_profile.find(f)
                if verbose:
                    _list_profile_changes(reader, profile, jpg.name, f, labels, others, g,
                                          read_with)
                for key, dice_read in (("alone", g), ("profile", read_with)):
                    # the other kinds' dice are matched first and set aside, so the counts are
                    # those of this kind's dice alone
                    mine = _drop_matched(others, dice_read)
                    n_ = match(labels, mine)
                    n_["images"] = 1
                    for kk_, v in n_.items():
                        tot[key][kk_] += v
                    for kk_, v in match(others, _drop_matched(labels, dice_read)).items():
                        strangers[key][kk_] += v
            tot["profile"]["learnt"] = profile.card
            tot["profile"]["learn_from"] = learn_from
            results[name] = tot
            print(f"{name:<34} dice {tot['alone']['dice']:4d}  alone {_short(tot['alone'])}  "
                  f"| profile {_short(tot['profile'])}  | learnt from {len(dice)} dice on "
                  f"{len(learn_from)} photos, faces {list(profile.card['faces'].values())}, "
                  f"match {profile.card['match_distance']}, "
                  f"min conf {profile.card['min_confidence']}, held-out {profile.card['held_out']}"
                  f", pips of {profile.card['pips']} dice"
                  + (f", every face drawn on {profile.card['drawn']}" if "drawn" in profile.card
                     else ""),
                  flush=True)
            print(f"{'  other kinds on those photos':<34} dice {strangers['alone']['dice']:4d}  "
                  f"alone {_short(strangers['alone'])}  | profile {_short(strangers['profile'])}")
            tot["strangers"] = strangers
        for key in ("alone", "profile"):
            t = _zero()
            for name, tot in results.items():
                if name.startswith(s):
                    for k in t:
                        if k not in ("median_ms", "median_ms_once"):
                            t[k] += tot[key][k]
            print(f"{s + ' every kind':<34} dice {t['dice']:4d}  {key:<7} {_short(t)}")
    return results


def die_row(kind: str, photo: str, label, what: str, die) -> dict:
    """One labelled die as the reader met it: the label, the bench's outcome, and the reading
    matched to it (its likeliest face and that face's confidence, also when it abstained), for
    a reliability table of the reader's confidence (``tools/reader_calibration.py``)."""
    return {"kind": kind, "photo": photo, "value": label[0], "outcome": what,
            "best_face": None if die is None else die.best_face,
            "confidence": None if die is None else round(float(die.confidence), 5),
            "cocked": None if die is None else bool(die.cocked)}


def write_readings(path: Path, models: Path | None, part: str | None, rows: list) -> None:
    """The ``die_row``s of a run, with the models and the part they were read with."""
    path.write_text(json.dumps({"models": str(models or "vision/models"), "part": part,
                                "dice": rows}) + "\n")


def _kinds(kinds: list[str] | None) -> tuple[dict, list[str]]:
    """dice_split.json's kinds, and those of ``kinds`` (None: every one) checked known."""
    split = json.loads(SPLIT.read_text())
    if "kinds" not in split:
        raise SystemExit(f"{SPLIT} has no kinds: run tools/train_reader.py kinds")
    known = split["kinds"]["kinds"]
    wanted = list(known) if kinds is None else kinds
    unknown = [k for k in wanted if k not in known]
    if unknown:
        raise SystemExit(f"unknown kind {unknown[0]!r}: the kinds are {', '.join(known)}")
    return known, wanted


def _kind_photos(wanted: list[str], part: str | None):
    """Each photo of ``part`` (None: every photo) showing a die of the ``wanted`` kinds:
    (path, frame, labels, the kind of each label, the wanted kinds of its set)."""
    split = json.loads(SPLIT.read_text())
    known = split["kinds"]["kinds"]
    for s in SETS:
        mine = [k for k in wanted if known[k]["set"] == s]
        if not mine:
            continue
        names = set(split["sets"][s][part]) if part else None
        for jpg in sorted((PHOTOS / s).glob("*.jpg")):
            per_die = split["kinds"]["dice"][s].get(jpg.name, [])
            if (names is not None and jpg.name not in names) or not set(per_die) & set(mine):
                continue
            frame = cv2.imread(str(jpg))
            h, w = frame.shape[:2]
            labels = read_labels(jpg.with_suffix(".txt"), w, h)
            if len(labels) != len(per_die):
                raise SystemExit(f"{jpg}: {len(labels)} labels but {len(per_die)} kinds in "
                                 f"{SPLIT}: run tools/train_reader.py kinds")
            yield jpg, frame, labels, per_die, mine


def score_kinds(reader, kinds: list[str] | None, part: str | None,
                verbose: bool = False, failures: list | None = None,
                readings: list | None = None) -> dict:
    """Per kind of dice (dice_split.json "kinds"; None: every kind), the counts of that kind's
    dice alone over the photos of ``part`` (None: every photo of its set), and the median time
    to read a photo. ``failures``: a list to append a ``failure_tile`` to for each die of the
    kinds misread, abstained on or missed; ``readings``: a list to append a ``die_row`` to for
    each die of the kinds."""
    known, wanted = _kinds(kinds)
    results = {k: _zero() for k in wanted}
    ms = {k: [] for k in wanted}
    for jpg, frame, labels, per_die, mine_here in _kind_photos(wanted, part):
        t0 = time.perf_counter()
        dice = reader.find(frame)
        took = (time.perf_counter() - t0) * 1000
        for k in mine_here:
            ours = [lab for lab, kk in zip(labels, per_die, strict=True) if kk == k]
            if not ours:
                continue
            others = [lab for lab, kk in zip(labels, per_die, strict=True) if kk != k]
            rest = _drop_matched(others, dice)
            n = match(ours, rest)
            n["images"] = 1
            if readings is not None:
                readings.extend(die_row(k, jpg.name, lab, what,
                                        None if di is None else rest[di])
                                for lab, (what, di) in zip(ours, outcomes(ours, rest),
                                                           strict=True))
            if failures is not None:
                for lab, (what, di) in zip(ours, outcomes(ours, rest), strict=True):
                    if what != "correct":
                        failures.append(failure_tile(frame, lab, what, None if di is None
                                                     else rest[di], jpg.name))
            for key, v in n.items():
                results[k][key] += v
            ms[k].append(took)
            if verbose and (n["misread"] or n["missed"] or n["abstained"]):
                print(f"  {k} {jpg.name}: {n}")
    for k in wanted:
        results[k]["median_ms"] = statistics.median(ms[k]) if ms[k] else float("nan")
        results[k]["median_ms_once"] = results[k]["median_ms"]
        results[k]["look"] = known[k]["look"]
    return results


def score_pips(reader, kinds: list[str] | None, part: str | None) -> dict:
    """The pips' count alone (``vision.pip_count``), per kind: on each labelled die the reader
    found, counted at the label's centre and at the reader's (the reader's size and turn
    either way): how often it is sure, and how often sure and wrong; and what its vote would
    do to the reader's readings (veto: a valued die whose clean count differs; agree: an
    unread flat die whose likeliest face, at least ``pip_agree_floor``, its clean count
    names). The reader is run without the vote."""
    from vision.dice_crop import die_angles
    from vision.pip_count import count_pips

    _, wanted = _kinds(kinds)
    t = reader.tuning
    keys = ("dice", "found", "label_sure", "label_wrong", "reader_sure", "reader_wrong",
            "veto_right", "veto_misread", "agree_right", "agree_wrong")
    out = {k: dict.fromkeys(keys, 0) for k in wanted}
    for _, frame, labels, per_die, _ in _kind_photos(wanted, part):
        dice = reader.find(frame)
        for lab, kind, (_, di) in zip(labels, per_die, outcomes(labels, dice), strict=True):
            if kind not in out:
                continue
            n = out[kind]
            n["dice"] += 1
            if di is None:
                continue
            d = dice[di]
            n["found"] += 1
            size = d.box[1][0]
            at_label = count_pips(frame, lab[1:3], size,
                                  die_angles(frame, [(lab[1], lab[2], size)])[0],
                                  t.pip_count).count
            at_reader = count_pips(frame, d.center, size, d.box[2], t.pip_count).count
            for where, c in (("label", at_label), ("reader", at_reader)):
                if c is not None:
                    n[f"{where}_sure"] += 1
                    n[f"{where}_wrong"] += c != lab[0]
            if d.cocked or at_reader is None:
                continue
            if d.value is not None and at_reader != d.value:
                n["veto_right" if d.value == lab[0] else "veto_misread"] += 1
            if (d.value is None and d.confidence >= t.pip_agree_floor
                    and d.cocked_share <= t.pip_agree_lean and at_reader == d.best_face):
                n["agree_right" if at_reader == lab[0] else "agree_wrong"] += 1
    return out


TILE = 80  # a failure's tile: the photo round the die, and the reader's crop, each TILE px


def failure_tile(frame: np.ndarray, label, what: str, die, photo: str) -> dict:
    """A die the reader got wrong, for a person to look at: the photo round the labelled die
    (twice its box), the crop the reader's classifier saw (cut at the reading's centre, size
    and angle; grey when missed), and what it was and what the reader said."""
    from vision.dice_crop import CROP_PX, CROP_SCALE, crop_die

    value, x, y, r = label
    box = r / 0.75
    half = max(8, int(round(box)))
    pad = cv2.copyMakeBorder(frame, half, half, half, half, cv2.BORDER_CONSTANT)
    xi, yi = int(round(x)) + half, int(round(y)) + half
    around = cv2.resize(pad[yi - half:yi + half, xi - half:xi + half], (TILE, TILE),
                        interpolation=cv2.INTER_AREA)
    if die is None:
        crop = np.full((TILE, TILE, 3), 96, np.uint8)
        said = "missed"
    else:
        (_, _), (bw, bh), ba = die.box
        c = crop_die(frame, die.center, max(bw, bh), ba, CROP_PX, CROP_SCALE)
        crop = cv2.resize(c, (TILE, TILE), interpolation=cv2.INTER_NEAREST)
        said = ("cocked" if die.cocked else str(die.value if die.value is not None
                                                 else f"({die.best_face})"))
        said += f" {die.confidence:.2f}"
    return {"photo": photo, "x": round(x), "y": round(y), "label": value, "what": what,
            "said": said, "box_px": round(box), "tile": np.hstack([around, crop])}


def write_sheet(path: Path, failures: list[dict], cols: int = 6) -> None:
    """A contact sheet of ``failure_tile`` dicts: misreads first, then abstentions, misses;
    under each, the label, what the reader said (a face in brackets: its best guess when it
    abstained) and the die's box in photo pixels."""
    order = {"misread": 0, "abstained": 1, "missed": 2}
    failures = sorted(failures, key=lambda f: (order[f["what"]], f["photo"]))
    w, h = 2 * TILE + 6, TILE + 14
    rows = max(1, -(-len(failures) // cols))
    sheet = np.full((rows * h, cols * w, 3), 255, np.uint8)
    for i, f in enumerate(failures):
        y0, x0 = (i // cols) * h, (i % cols) * w
        sheet[y0:y0 + TILE, x0:x0 + 2 * TILE] = f["tile"]
        colour = (0, 0, 200) if f["what"] == "misread" else (120, 60, 0)
        cv2.putText(sheet, f"{f['label']}: {f['said']} {f['box_px']}px", (x0 + 2, y0 + TILE + 11),
                    cv2.FONT_HERSHEY_PLAIN, 0.9, colour, 1, cv2.LINE_AA)
    cv2.imwrite(str(path), sheet)


def _warp(frame: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return cv2.warpPerspective(frame, m, size, flags=cv2.INTER_AREA if m[0, 0] < 1
                               else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _scaled(k: float):
    def change(frame):
        h, w = frame.shape[:2]
        m = np.diag([k, k, 1.0])
        return _warp(frame, m, (round(w * k), round(h * k))), m
    return change


def _hue(turn: int):
    def change(frame):
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + turn) % 180
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR), np.eye(3)
    return change


def _side_light(frame):
    """Light from one side: the far side at 0.35 of the near side's brightness, and dimmed."""
    h, w = frame.shape[:2]
    ramp = np.linspace(1.25, 0.45, w, dtype=np.float32)[None, :, None]
    return np.clip(frame * ramp, 0, 255).astype(np.uint8), np.eye(3)


def _dim(frame):
    """A dim, flat photo: contrast halved, darker."""
    f = (frame.astype(np.float32) - 128) * 0.5 + 90
    return np.clip(f, 0, 255).astype(np.uint8), np.eye(3)


def _tilted(frame):
    """Seen at an angle: the far edge of the photo 30% narrower than the near one."""
    h, w = frame.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.15 * w, 0], [0.85 * w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(src, dst)
    return _warp(frame, m, (w, h)), m


def _blurred(frame):
    return cv2.GaussianBlur(frame, (0, 0), 1.5), np.eye(3)


def _jpeg(frame):
    """A webcam's stream: JPEG at quality 40 (colour at a quarter of the pixels, blocks)."""
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 40])
    return cv2.imdecode(data, cv2.IMREAD_COLOR), np.eye(3)


def _sensor_noise(frame):
    """A small sensor's noise in a dim room: Gaussian, sigma 8 a channel (the same each run)."""
    noise = np.random.default_rng(0).normal(0.0, 8.0, frame.shape).astype(np.float32)
    return np.clip(frame + noise, 0, 255).astype(np.uint8), np.eye(3)


# the changes of ``--stress``: what an unseen camera, table or pair of dice may bring
STRESS = {
    "as photographed": lambda f: (f, np.eye(3)),
    "half size": _scaled(0.5),
    "twice size": _scaled(2.0),
    "four times size (as a 12 MP photo)": _scaled(4.0),
    "hue turned a third": _hue(60),
    "hue turned two thirds": _hue(120),
    "side light": _side_light,
    "dim, half contrast": _dim,
    "camera at an angle": _tilted,
    "out of focus": _blurred,
    "JPEG q40 (a webcam's stream)": _jpeg,
    "sensor noise sigma 8": _sensor_noise,
}


def score_stress(reader, part: str, verbose: bool = False, readings: list | None = None) -> dict:
    """The ``part``'s photos of each set, each changed as ``STRESS`` says (labels moved with
    the pixels), scored as ``score_images`` does. ``readings``: a list to append a ``die_row``
    to for each die (its kind: the set and the change)."""
    split = json.loads(SPLIT.read_text())["sets"]
    results = {}
    for s in SETS:
        photos = []
        for name in sorted(split[s][part]):
            frame = cv2.imread(str(PHOTOS / s / name))
            h, w = frame.shape[:2]
            photos.append((name, frame, read_labels((PHOTOS / s / name).with_suffix(".txt"),
                                                    w, h)))
        for change_name, change in STRESS.items():
            tot = _zero()
            ms = []
            for name, frame, labels in photos:
                changed, m = change(frame)
                k = math.sqrt(abs(np.linalg.det(m[:2, :2])))
                moved = []
                for v, x, y, r in labels:
                    q = m @ np.array([x, y, 1.0])
                    moved.append((v, q[0] / q[2], q[1] / q[2], r * k))
                t0 = time.perf_counter()
                dice = reader.find(changed)
                ms.append((time.perf_counter() - t0) * 1000)
                n = match(moved, dice)
                n["images"] = 1
                for key, v in n.items():
                    tot[key] += v
                if readings is not None:
                    readings.extend(die_row(f"{s}: {change_name}", name, lab, what,
                                            None if di is None else dice[di])
                                    for lab, (what, di) in zip(moved, outcomes(moved, dice),
                                                               strict=True))
                if verbose and (n["misread"] or n["missed"] or n["abstained"]):
                    print(f"  {s} {change_name} {name}: {n}")
            tot["median_ms"] = tot["median_ms_once"] = statistics.median(ms)
            results[f"{s}: {change_name}"] = tot
            print(report(f"{s}: {change_name}", tot), flush=True)
    return results


def _short(t: dict) -> str:
    d = max(1, t["dice"])
    return (f"read {100 * t['correct'] / d:5.1f}% misread {t['misread']:2d} "
            f"({100 * t['misread'] / d:4.2f}%) abstained {t['abstained']:2d} "
            f"missed {t['missed']:2d}")


def _zero() -> dict:
    return {"images": 0, "dice": 0, "correct": 0, "misread": 0, "abstained": 0, "missed": 0,
            "fp": 0, "median_ms": float("nan"), "median_ms_once": float("nan")}


def _drop_matched(labels, dice) -> list:
    """The dice left once ``labels`` are matched to their nearest (as ``match`` does)."""
    pairs = sorted((((d.center[0] - lx) ** 2 + (d.center[1] - ly) ** 2) ** 0.5, li, di)
                   for li, (_, lx, ly, r) in enumerate(labels) for di, d in enumerate(dice)
                   if ((d.center[0] - lx) ** 2 + (d.center[1] - ly) ** 2) ** 0.5 <= r)
    used_l, used_d = set(), set()
    for _, li, di in pairs:
        if li not in used_l and di not in used_d:
            used_l.add(li)
            used_d.add(di)
    return [d for di, d in enumerate(dice) if di not in used_d]


def report(name: str, t: dict) -> str:
    d = max(1, t["dice"])
    return (
        f"{name:<44} images {t['images']:4d}  dice {t['dice']:5d}  "
        f"correct {t['correct']:5d} ({100 * t['correct'] / d:5.1f}%)  "
        f"misread {t['misread']:3d} ({100 * t['misread'] / d:4.2f}%)  "
        f"abstained {t['abstained']:3d} ({100 * t['abstained'] / d:4.1f}%)  "
        f"missed {t['missed']:3d} ({100 * t['missed'] / d:4.1f}%)  "
        f"false positives {t['fp']:3d}  median {t['median_ms']:.1f} ms/image "
        f"(first read {t['median_ms_once']:.1f})"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score the dice reader on labelled photos.")
    ap.add_argument("dirs", nargs="*", type=Path, help="folders of labelled images")
    ap.add_argument("--all", action="store_true", help="every photo, not just the held-out part")
    ap.add_argument("--part", choices=["held_out", "tune", "train"], default=None,
                    help="which part of the split to score (default held_out)")
    ap.add_argument("--verbose", "-v", action="store_true", help="list images with errors")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--sim", type=int, default=0, metavar="N",
                    help="also score read_at on N stills rendered by the throw simulator")
    ap.add_argument("--repeat", type=int, default=3, metavar="N",
                    help="time each image N times and keep the fastest (default 3)")
    ap.add_argument("--models", type=Path, default=None, metavar="DIR",
                    help="score the models (and dice_reader.json) in DIR, not the shipped ones")
    ap.add_argument("--profile", action="store_true",
                    help="per kind of dice, a profile learnt from two photos (see above)")
    ap.add_argument("--kinds", type=int, default=9, metavar="K",
                    help="--profile: nell-byler's dice fall into K colours (default 9)")
    ap.add_argument("--learn", type=int, default=2, metavar="N",
                    help="--profile: learn from N photos of a kind (0: as many as show every "
                    "face three times; default 2)")
    ap.add_argument("--profile-pips", action=argparse.BooleanOptionalAction, default=True,
                    help="--profile: the profiles heed the pair's own pips (on in the table; "
                    "--no-profile-pips: not)")
    ap.add_argument("--profile-draw", action=argparse.BooleanOptionalAction, default=True,
                    help="--profile: the profiles draw each learnt die's other faces "
                    "(vision/profile_draw.py; --no-profile-draw: not)")
    ap.add_argument("--per-kind", action="store_true",
                    help="per kind of dice (dice_split.json kinds), on --part or --all")
    ap.add_argument("--leave-out", action="append", default=[], metavar="KIND",
                    help="score this kind's dice alone, on every photo of its set unless --part "
                    "is given (repeatable; e.g. with --models of a run that left it out)")
    ap.add_argument("--sheet", type=Path, default=None, metavar="PNG",
                    help="--per-kind / --leave-out: a contact sheet of the dice misread, "
                    "abstained on or missed (the photo round each, the reader's crop)")
    ap.add_argument("--readings", type=Path, default=None, metavar="JSON",
                    help="--per-kind / --leave-out / --stress: write every die scored as the reader "
                    "met it (label, outcome, likeliest face, confidence), for "
                    "tools/reader_calibration.py")
    ap.add_argument("--stress", action="store_true",
                    help="the --part's photos resized, recoloured, side-lit, tilted, blurred")
    ap.add_argument("--pips", action="store_true",
                    help="the pips' count alone, per kind (--leave-out kinds, else every kind), "
                    "on every photo unless --part is given")
    ap.add_argument("--no-pip-vote", action="store_true",
                    help="read without the pips' vote (the reader as it was before it)")
    ap.add_argument("--pip-veto", type=float, default=None, metavar="Q",
                    help="read with the pips' veto at quality Q (the card's pip_veto; 0: any "
                    "clean count), below --pip-veto-below")
    ap.add_argument("--pip-veto-below", type=float, default=2.0, metavar="C",
                    help="--pip-veto: only on dice read below this confidence (default 2: any)")
    ap.add_argument("--pip-agree", type=float, default=None, metavar="Q",
                    help="read with the agree vote at quality Q (the card's pip_agree; above 1: "
                    "no agree vote)")
    ap.add_argument("--pip-agree-floor", type=float, default=None, metavar="F",
                    help="the agree vote's lowest likeliest-face confidence (the card's "
                    "pip_agree_floor)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)  # the target is for one core
    from dataclasses import replace

    from vision.dice import DiceReader

    reader = DiceReader(a.models)
    if a.no_pip_vote or a.pips:
        reader.tuning = replace(reader.tuning, pip_veto=2.0, pip_agree=2.0)
    if a.pip_veto is not None and not a.pips:
        reader.tuning = replace(reader.tuning, pip_veto=a.pip_veto,
                                pip_veto_below=a.pip_veto_below)
    if a.pip_agree is not None and not a.pips:
        reader.tuning = replace(reader.tuning, pip_agree=a.pip_agree)
    if a.pip_agree_floor is not None and not a.pips:
        reader.tuning = replace(reader.tuning, pip_agree_floor=a.pip_agree_floor)
    if a.pips:
        results = score_pips(reader, a.leave_out or None, a.part)
        for k, n in results.items():
            print(f"{k:14s} dice {n['dice']:4d} found {n['found']:4d}  at the label: sure "
                  f"{n['label_sure']:4d} wrong {n['label_wrong']:2d}  at the reader's: sure "
                  f"{n['reader_sure']:4d} wrong {n['reader_wrong']:2d}  |  veto right "
                  f"{n['veto_right']:2d} misread {n['veto_misread']:2d}  agree right "
                  f"{n['agree_right']:2d} wrong {n['agree_wrong']:2d}", flush=True)
        if a.json:
            print(json.dumps(results))
        return 0
    if a.per_kind or a.leave_out:
        part = None if a.all else a.part or (None if a.leave_out else "held_out")
        failures = [] if a.sheet else None
        readings = [] if a.readings else None
        results = score_kinds(reader, a.leave_out or None, part, a.verbose, failures, readings)
        if a.readings:
            write_readings(a.readings, a.models, part, readings)
        for k, t in results.items():
            print(report(f"{k} ({t['look']})", t), flush=True)
        if a.sheet:
            write_sheet(a.sheet, failures)
            print(f"wrote {a.sheet}: {len(failures)} dice")
            if a.json:
                print(json.dumps([{k: v for k, v in f.items() if k != "tile"}
                                  for f in failures]))
        if a.json:
            print(json.dumps(results))
        return 0
    a.part = a.part or "held_out"
    if a.stress:
        readings = [] if a.readings else None
        results = score_stress(reader, a.part, a.verbose, readings)
        if a.readings:
            write_readings(a.readings, a.models, a.part, readings)
        if a.json:
            print(json.dumps(results))
        return 0
    if a.profile:
        results = score_profiles(reader, a.kinds, a.learn,
                                 None if a.all else a.part, a.verbose, a.profile_pips,
                                 a.profile_draw)
        if a.json:
            print(json.dumps(results))
        return 0
    jobs: list[tuple[str, list[Path]]] = []
    if a.dirs:
        for d in a.dirs:
            jobs.append((d.name, sorted(p for p in d.glob("*.jpg") if p.with_suffix(".txt")
                                        .exists())))
    else:
        split = json.loads(SPLIT.read_text())["sets"]
        for s in SETS:
            names = None if a.all else set(split[s][a.part])
            imgs = sorted(p for p in (PHOTOS / s).glob("*.jpg")
                          if p.with_suffix(".txt").exists() and (names is None or p.name in names))
            jobs.append((f"{s} [{'all' if a.all else a.part}]", imgs))
    results = {}
    for name, imgs in jobs:
        t = score_images(reader, imgs, a.verbose, a.repeat)
        results[name] = t
        print(report(name, t), flush=True)
    if a.sim:
        t = score_simulated(reader, a.sim)
        f, c = max(1, t["flat"]), max(1, t["cocked"])
        print(f"simulator read_at, {a.sim} stills: flat dice {t['flat']}  "
              f"correct {t['flat_correct']} ({100 * t['flat_correct'] / f:.1f}%)  "
              f"misread {t['flat_misread']} ({100 * t['flat_misread'] / f:.2f}%)  "
              f"abstained {t['flat_abstained']}  |  cocked dice {t['cocked']}  "
              f"flagged {t['cocked_flagged']} ({100 * t['cocked_flagged'] / c:.1f}%)  "
              f"read as a value {t['cocked_read']}  |  {t['ms_per_die']:.2f} ms per die")
        results["simulator"] = t
    if a.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
