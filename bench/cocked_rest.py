"""The cocked cues on large sets of kept rest frames: flat dice flagged, cocked throws unflagged.

    .venv/bin/python bench/cocked_rest.py capture --world physical --seed 80000 --throws 200 \\
        --size 640x480 --out /tmp/rest-80000.pkl
    .venv/bin/python bench/cocked_rest.py judge /tmp/rest-80000.pkl [...] [--set NAME=VALUE ...] [-v]
    .venv/bin/python bench/cocked_rest.py --lean CANDIDATE.onnx judge /tmp/rest-80000.pkl [...]
    .venv/bin/python bench/cocked_rest.py features /tmp/rest-80000.pkl [...]
    .venv/bin/python bench/cocked_rest.py faces /tmp/rest-80000.pkl [...]
    .venv/bin/python bench/cocked_rest.py pips /tmp/rest-80000.pkl [...]
    .venv/bin/python bench/cocked_rest.py capture --seed 85000 --throws 200 --cases cocked_die \
        --out /tmp/rest-85000.pkl
    .venv/bin/python bench/cocked_rest.py pairs /tmp/rest-85000.pkl [--set NAME=VALUE ...]
    .venv/bin/python bench/cocked_rest.py flats /tmp/rest-80000.pkl [...] [--set NAME=VALUE ...] [--why]
    .venv/bin/python bench/cocked_rest.py bound /tmp/rest-85000.pkl [...]
    .venv/bin/python bench/cocked_rest.py gaps /tmp/rest-80000.pkl [...] [--set NAME=VALUE ...]
    .venv/bin/python bench/cocked_rest.py gaps /tmp/rest-84000.pkl [...] --picture P.png --seeds S,S
    .venv/bin/python bench/cocked_rest.py bands /tmp/rest-80000.pkl [...] [-v]
    .venv/bin/python bench/cocked_rest.py bands /tmp/rest-84000.pkl [...] --picture P.png --seeds S,S
    .venv/bin/python bench/cocked_rest.py rims /tmp/rest-80000.pkl [...] [--set NAME=VALUE ...] [-v]
    .venv/bin/python bench/cocked_rest.py rimcrops /tmp/rest-81000.pkl --seeds S,S --out DIR
    .venv/bin/python bench/cocked_rest.py cubes /tmp/rest-80000.pkl [...] [--set NAME=VALUE ...] \
        [--true-lens] [-v]

``bench/tracker.py``'s 60 throws hold too few cocked throws to show one paid in a hundred. The
cues run once per throw, on the rest frame, so a set of throws is simulated and tracked once
(``capture``: every throw's rest frame, the tracker's boxes, the reader's readings and the rest
silhouettes, with the truth per box, pickled) and the cues are judged again on it with any
``CockedSettings`` in a few seconds (``judge``): flat dice flagged, cocked dice flagged, and
cocked throws none of whose dice is flagged (paid, unless the ruling goes another way for
another reason). The lean model is asked again at each judgement (the reader's). ``features``
prints, for the dice at the back wall, how a candidate cue's measurements spread over flat dice
and over dice leaning on the wall by lean angle, before a cue is wired in (docs/replay.md);
``faces`` the same for the top-face cue's measurements, over every die at rest; ``pips`` the
top face's centre from its pips (``vision.top_pips``) against the reader's and the truth's, and
the wall cue's shift measured from each; ``pairs`` each throw with a die leaning on the other
die (``--cases cocked_die`` captures only those): the dice found, their distance, the pair
cue's measurements and flags; ``flats`` each flat die flagged, by the cue that flags it (with ``--why``, for each the pair
cue flags, what every clearing proof measured); ``bound`` the tops' centres apart and the
shadow-free silhouettes' gap of close pairs, flat against leaning, beside the geometry's bound;
``rims`` the dice at the wall measured by their faces' edge lines (``vision.front_rim``,
``rim_front``: the front face's band, the side faces), flat (by the kind of flat die the wall cue
flags) against leaning by lean angle, and how many of each the edge lines clear; ``rimcrops``
crops of such dice for ``tests/vision/test_cocked_rim.py`` and ``test_cocked_cube.py``; ``cubes``
the dice at the wall by their flat hypothesis's rim (``vision.flat_cube``, ``cube_rim``: where the
image steps along a flat cube's lower outline drawn through the camera model), flat (by kind)
against leaning on the wall by lean angle and on the other die, and how many ``flat_by_cube``
clears (``--true-lens``: with the simulator camera's focal length, not the lens assumed).
``--set NAME=none`` turns an optional setting off.

The capture keeps the tracker's own call of ``vision.cocked.judge.judge_cocked`` by wrapping it
while the throws run (the tracker and the cues run as the table runs them). Physical seeds
>= ``NEVER_TUNED_SEED`` are refused: they are never tuned on (docs/replay.md).
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

import vision.tracker as tracker_module  # noqa: E402
from tests.support.throws import SIM_CASES, feed_clip, match  # noqa: E402
from vision.camera_view import CameraView, CameraViewError  # noqa: E402
from vision.cocked.judge import judge_cocked, lean_beliefs, pair_picker  # noqa: E402
from vision.cocked.pair import (  # noqa: E402
    band_between,
    felt_band,
    felt_coloured,
    lean_scores,
    lie_flat_together,
    pair_reach,
    pairs,
    polygons_gap,
    shade_like_shadow,
    silhouettes_gap,
    silhouettes_touch,
    tops_gap,
)
from vision.cocked.settings import CockedSettings, cocked_share  # noqa: E402
from vision.cocked.top_face import pips_centre, top_face_shape, top_faces, top_region, top_square  # noqa: E402
from vision.cocked.wall import (  # noqa: E402
    camera_view,
    cube_rim,
    flat_by_cube,
    flat_by_pips,
    flat_by_rims,
    flat_fronts,
    front_band,
    leans_on_wall,
    rim_front,
    wall_faces,
    wall_shift,
    whole_top,
)
from vision.cocked.windows import dice_window, die_offsets, top_centres  # noqa: E402
from vision.die_silhouette import changed_pixels, felt_in_shadow  # noqa: E402
from vision.pair_pick import pair_crop  # noqa: E402
from vision.simulator import simulate_throw  # noqa: E402
from vision.simulator.worlds import NEVER_TUNED_SEED, WORLDS, world_of  # noqa: E402
from vision.top_pips import top_pips  # noqa: E402


def capture(world: str, seed0: int, throws: int, size: tuple[int, int], reader,
            log=print, cases: list[str] | None = None) -> list[dict]:
    """Simulate and track ``throws`` throws (``cases`` in turn, the bench's ``SIM_CASES`` by
    default, seeds from ``seed0``); per throw
    with one observation, what the cues judged: ``seed``, ``case``, ``sil``, ``frame``,
    ``boxes``, ``readings``, ``truth`` (the truth's die for each box, None for a box that
    matched none) and ``cocked`` (the tracker's flags)."""
    if world == "physical" and seed0 + throws > NEVER_TUNED_SEED:
        raise SystemExit(f"physical seeds from {NEVER_TUNED_SEED} are never tuned on: "
                         f"capture below it (--seed {seed0} --throws {throws} reaches "
                         f"{seed0 + throws - 1})")
    judged: list[tuple] = []

    def keep(silhouettes, settings, rd, frame, boxes, readings):
        judged.append((silhouettes, frame.copy(), list(boxes), list(readings)))
        return judge_cocked(silhouettes, settings, rd, frame, boxes, readings)

    cases = cases or SIM_CASES
    records, t0 = [], time.time()
    tracker_module.judge_cocked = keep
    try:
        for k in range(throws):
            seed, case = seed0 + k, cases[k % len(cases)]
            clip = simulate_throw(seed=seed, scenario=case, size=size,
                                  **world_of(world, seed, 60.0))
            tracker = tracker_module.ThrowTracker(clip.calibration, reader=reader,
                                                  annotate=False)
            judged.clear()
            seen, _ = feed_clip(tracker, clip.frames)
            if len(seen) != 1 or len(judged) != 1:
                log(f"  seed {seed}: {len(seen)} observations, left out")
                continue
            found = [d for d in seen[0].dice if d.center is not None]
            truth = [None] * len(found)
            for td, od in zip(clip.truth["dice"], match(clip.truth["dice"], seen[0].dice),
                              strict=True):
                if od is not None and od.center is not None:
                    truth[found.index(od)] = td
            sil, frame, boxes, readings = judged[0]
            records.append(dict(seed=seed, case=case, sil=sil, frame=frame, boxes=boxes,
                                readings=readings, truth=truth,
                                cocked=[d.cocked for d in found]))
            if (k + 1) % 20 == 0:
                log(f"  {k + 1} throws, {time.time() - t0:.0f} s")
    finally:
        tracker_module.judge_cocked = judge_cocked
    return records


def judge(records: list[dict], settings: CockedSettings, reader) -> tuple[Counter, list[str]]:
    """The cues judged again on kept rest frames: counts and the seeds of each miss (a cocked
    throw unflagged with fewer than two dice found is counted apart too: the table rules it
    the operator's, a die not found)."""
    n, misses = Counter(), []
    for r in records:
        if not r["boxes"]:
            continue
        _, cocked = judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"],
                                 r["readings"])
        truth = r["truth"]
        if any(t is not None and t["cocked"] for t in truth):
            n["cocked_throws"] += 1
            if not any(cocked):
                n["cocked_throws_unflagged"] += 1
                # a die not found at rest sends the throw to the operator whatever the cues say
                unfound = len(r["boxes"]) < 2
                n["cocked_throws_unflagged_unfound"] += unfound
                misses.append(f"{r['seed']}: cocked throw, no die flagged"
                              + (" (a die not found: the operator's)" if unfound else ""))
        for i, t in enumerate(truth):
            if t is None or not t["at_rest_in_area"]:
                continue
            kind = "cocked" if t["cocked"] else "flat"
            n[kind] += 1
            n[f"{kind}_flagged"] += cocked[i]
            if cocked[i] != t["cocked"]:
                misses.append(f"{r['seed']}: {kind} die {'flagged' if cocked[i] else 'missed'}")
    return n, misses


def front_reach(record: dict, i: int, view: CameraView | None,
                chroma: float | None = None) -> dict | None:
    """For die ``i`` of a kept throw, the front-edge measurements (die edges, away from the
    wall from its top face's centre): ``front``, how far its silhouette reaches (to its bottom
    edge against the felt, on the side the camera sees); ``along``, its top's half-length along
    the wall (the nearer side, as ``wall_face_reach`` takes it: a turned die's corner reaches as
    far both ways); ``toward``, the view angle's part toward the wall at its top (estimated
    from the area, ``CameraView``; nan without one); ``top_edge`` and ``band``, in a strip a
    half-edge wide across the top's centre, how far its top face reaches and how much farther
    its silhouette does, and ``whole`` whether that top is whole (``vision.cocked.wall.
    front_band``, ``whole_top``: the front face's height as seen; nan where it cannot tell);
    ``far_wall`` and ``near_wall``, where its silhouette ends away from the wall and toward it
    in that strip, from the wall line (the calibration's): a flat die touching the wall shows
    its top's back edge ``toward`` past the line, one tipped away from the wall by t about
    ``sin t - toward (sin t + cos t - 1)`` less far, one leaning back ``toward (sin t + cos t
    - 1)`` farther.

    A flat die shows ``front - along`` and ``band`` of about ``toward`` (its front face, one
    edge tall, seen at that slope; ``band`` whatever its turn and wherever the reader puts the
    centre). A die whose lower edge rides up the wall by t tips its front face away from the
    camera: ``band`` about ``toward cos t - sin t`` (none left once tan t > toward), ``front -
    along`` about ``0.5 cos t - sin t - 0.5`` less than a flat die's; one leaning back on the
    wall shows ``sin t`` more. A flat die touching the wall square to it ends ``far_wall`` 1.0
    out (its bottom front edge; more turned or off the wall), one tipped away from the wall
    ``cos t`` (its front face hidden) or ``cos t + sin t - toward cos t`` (its top's front edge
    seen past it), one leaning back ``cos t + sin t``. None where the silhouette cannot be cut
    out."""
    sil, frame, boxes, readings = record["sil"], record["frame"], record["boxes"], record["readings"]
    geo = sil.geometry
    tops = []
    for k, box in enumerate(boxes):
        top = getattr(readings[k] if k < len(readings) else None, "center", None)
        tops.append((float(top[0]), float(top[1])) if top is not None else box[0])
    offsets = die_offsets(sil, frame, tops[i], [t for k, t in enumerate(tops) if k != i])
    if offsets is None:
        return None
    toward, along = offsets
    half = min(float(np.percentile(along, 98)), float(np.percentile(-along, 98)))
    strip = np.abs(along) < 0.25
    top_wall = geo.wall_distance(*tops[i])[0] / geo.die
    far_wall = near_wall = float("nan")
    if strip.sum() >= 5:
        far_wall = top_wall + float(np.percentile(-toward[strip], 99))
        near_wall = top_wall - float(np.percentile(toward[strip], 99))
    slope = float("nan")
    if view is not None:
        try:
            slope = view.slope(*tops[i])[0]
        except CameraViewError:
            pass
    st = CockedSettings()
    seen = front_band(sil, frame, tops[i], [t for k, t in enumerate(tops) if k != i],
                      st.wall_band_top_max if st.wall_band_seams else None, chroma)
    top_edge, band = (seen.top_edge, seen.band) if seen is not None else (float("nan"),) * 2
    return dict(front=float(np.percentile(-toward, 98)), along=half, toward=slope,
                top_edge=top_edge, band=band, whole=seen is not None and whole_top(seen, st),
                far_wall=far_wall, near_wall=near_wall)


def features(records: list[dict], near: float, chroma: float | None = None) -> list[dict]:
    """Per die within ``near`` edges of the wall line (its box's centre) and at rest in the
    area: its truth (``cocked``, ``on``, ``tilt``), the wall cue's flag, ``front_reach`` (its
    band's silhouette taking in the pixels off the felt's chromaticity with ``chroma``)."""
    rows = []
    for r in records:
        geo = r["sil"].geometry
        view = camera_view(r["sil"])
        for i, box in enumerate(r["boxes"]):
            t = r["truth"][i]
            if t is None or not t["at_rest_in_area"]:
                continue
            if geo.wall_distance(*box[0])[0] > near * geo.die:
                continue
            if t["cocked"] and t["cocked_on"] != "wall":
                continue
            if "cocked_tilt_deg" not in t:
                raise SystemExit(f"seed {r['seed']}: the truth has no lean angle: capture the "
                                 "physical world (--world physical)")
            m = front_reach(r, i, view, chroma)
            if m is None:
                continue
            rd = r["readings"][i] if i < len(r["readings"]) else None
            # the wall cue's own flag, before the front band may clear it
            rows.append(dict(seed=r["seed"], cocked=t["cocked"], tilt=t["cocked_tilt_deg"],
                             wall_flag=leans_on_wall(geo, CockedSettings(), box, rd), **m))
    return rows


def spread(values: list[float]) -> str:
    """min, quartiles and max of ``values``, as text."""
    if not values:
        return "-"
    q = np.percentile(values, [0, 25, 50, 75, 100])
    return " ".join(f"{v:+.2f}" for v in q)


def wall_groups() -> list[tuple]:
    """``(name, keep)`` for the dice at the wall: flat, flat and flagged by the wall cue
    (``wall_flag``), leaning by lean angle (``tilt``)."""
    groups = [("flat", lambda r: not r["cocked"]),
              ("flat, wall cue flags", lambda r: not r["cocked"] and r["wall_flag"])]
    for lo, hi in ((10, 15), (15, 20), (20, 30), (30, 46)):
        groups.append((f"leaning {lo}-{hi} deg",
                       lambda r, lo=lo, hi=hi: r["cocked"] and lo <= r["tilt"] < hi))
    return groups


def print_features(rows: list[dict]) -> None:
    """The front-edge measurements' spread (min, quartiles, max) over flat dice, the flat dice
    the wall cue flags, and leaning dice by lean angle; ``band`` only where the top's front
    edge lies where a whole top's does (else the region ran into the front face or the felt,
    or stopped at a glare)."""
    groups = wall_groups()
    print("min, quartiles, max (die edges); band: dice whose top is whole (its front edge 0.42-0.6"
          " edge from its centre, or its depth a whole top's: whole_top)")
    print(f"{'dice at the wall':24s} {'n':>3s}  {'front - along':34s}  {'front - along - toward':34s}"
          f"  {'n':>3s}  band - toward")
    for name, keep in groups:
        sel = [r for r in rows if keep(r)]
        whole = [r for r in sel if r["whole"]]
        print(f"{name:24s} {len(sel):3d}  {spread([r['front'] - r['along'] for r in sel]):34s}"
              f"  {spread([r['front'] - r['along'] - r['toward'] for r in sel]):34s}"
              f"  {len(whole):3d}  {spread([r['band'] - r['toward'] for r in whole])}")
    print("\nwhere the silhouette ends, from the wall line, in the strip across the top")
    print(f"{'dice at the wall':24s} {'n':>3s}  {'far_wall':34s}  near_wall + toward")
    for name, keep in groups:
        sel = [r for r in rows if keep(r) and r["far_wall"] == r["far_wall"]]
        print(f"{name:24s} {len(sel):3d}  {spread([r['far_wall'] for r in sel]):34s}"
              f"  {spread([r['near_wall'] + r['toward'] for r in sel])}")


def face_rows(records: list[dict], reader) -> list[dict]:
    """The top-face cue's measurements of every die at rest in the area: ``seed``, ``cocked``,
    ``tilt``, ``shape`` (``top_face_shape``'s (long, short) in die edges where it is a whole
    top, else None) and ``other`` (a cue other than the top-face cue flags it: the cues judged
    again with ``face_square`` 0)."""
    st = CockedSettings()
    no_face = CockedSettings(face_square=0.0)
    rows = []
    for r in records:
        if not r["boxes"]:
            continue
        geo = r["sil"].geometry
        _, others = judge_cocked(r["sil"], no_face, reader, r["frame"], r["boxes"],
                                 r["readings"])
        for i, t in enumerate(r["truth"]):
            if t is None or not t["at_rest_in_area"]:
                continue
            top = getattr(r["readings"][i] if i < len(r["readings"]) else None, "center", None)
            top = (float(top[0]), float(top[1])) if top is not None else r["boxes"][i][0]
            shape = top_face_shape(r["frame"], top, geo.die)
            whole = shape is not None and st.face_min <= shape[0] <= st.face_max and (
                shape[1] >= st.face_narrowest)
            rows.append(dict(seed=r["seed"], cocked=t["cocked"],
                             tilt=t.get("cocked_tilt_deg", 0.0), shape=shape if whole else None,
                             other=others[i]))
    return rows


def print_faces(rows: list[dict], low: float = 0.78, high: float = 0.85) -> None:
    """Per flat die and per leaning die by lean angle (``face_rows``), how many show a whole top
    and the spread of its width (die edges); under each, the dice whose whole top is
    ``low``-``high`` wide and under ``face_square`` as wide as long (where ``face_narrow``
    decides), and whether another cue flags them."""
    square = CockedSettings().face_square
    groups = [("flat", lambda x: not x["cocked"])]
    for lo, hi in ((10, 15), (15, 20), (20, 30), (30, 46)):
        groups.append((f"leaning {lo}-{hi} deg",
                       lambda x, lo=lo, hi=hi: x["cocked"] and lo <= x["tilt"] < hi))
    print("whole tops: width (die edges) min, quartiles, max")
    for name, keep in groups:
        sel = [x for x in rows if keep(x)]
        whole = [x for x in sel if x["shape"] is not None]
        print(f"{name:20s} {len(sel):4d} dice, {len(whole):4d} whole tops  "
              f"{spread([x['shape'][1] for x in whole])}")
        for x in whole:
            long, short = x["shape"]
            if low <= short < high and short / long < square:
                print(f"    {x['seed']}: {short:.3f} wide, {short / long:.3f} as wide as long, "
                      f"{'another cue flags it' if x['other'] else 'no other cue flags it'}")


def pip_rows(records: list[dict], near: float = 0.75) -> list[dict]:
    """Per die within ``near`` edges of the wall line and at rest in the area (flat, or leaning
    on the wall): its truth, the wall cue's flag, the error (die edges) of the reader's top-face
    centre and of its pips' (``top_pips``, where they are as many as the reader's face and
    within ``wall_pip_agree`` of its centre: None elsewhere) against the truth's, the wall
    cue's shift (``wall_shift``) measured from each, and on faces of four and five the pips'
    spread toward the wall over their spread along it (``spread_ratio``; cos t on a top tilted
    by t across the wall)."""
    st = CockedSettings()
    rows = []
    for r in records:
        geo = r["sil"].geometry
        die = geo.die
        for i, box in enumerate(r["boxes"]):
            t = r["truth"][i]
            if t is None or not t["at_rest_in_area"] or (t["cocked"] and t["cocked_on"] != "wall"):
                continue
            rd = r["readings"][i] if i < len(r["readings"]) else None
            if rd is None or geo.wall_distance(*box[0])[0] > near * die:
                continue
            truth = t["rest_center"]
            face = rd.value if rd.value is not None else getattr(rd, "best_face", None)
            pips = top_pips(r["frame"], rd.center, die, face=face)
            if pips is not None and (pips.count != face or math.dist(pips.center, rd.center)
                                     > st.wall_pip_agree * die):
                pips = None
            spread_ratio = None
            if pips is not None and pips.count in (4, 5):
                # faces whose pips spread alike every way: a top tilted by t across the wall
                # shows their spread toward the wall cos t as wide as along it
                d = np.array(pips.centers) - np.array(pips.center)
                toward = d @ np.array(geo.wall_n)
                along = d @ np.array(geo.wall_u)
                spread_ratio = float(np.sqrt((toward ** 2).sum() / max((along ** 2).sum(), 1e-9)))
            rows.append(dict(
                seed=r["seed"], cocked=t["cocked"], tilt=t.get("cocked_tilt_deg", 0.0),
                spread_ratio=spread_ratio,
                wall_flag=leans_on_wall(geo, st, box, rd),
                reader_err=math.dist(rd.center, truth) / die,
                pip_err=None if pips is None else math.dist(pips.center, truth) / die,
                shift=wall_shift(geo, st, box, rd.center),
                pip_shift=None if pips is None else wall_shift(geo, st, box, pips.center)))
    return rows


def print_pips(rows: list[dict]) -> None:
    """The spread (min, quartiles, max) of ``pip_rows``' measurements over flat dice, the flat
    dice the wall cue flags and leaning dice by lean angle."""
    groups = wall_groups()
    print("die edges, min, quartiles, max; the pips' columns over the dice whose pips agree with "
          "the reader")
    for name, keep in groups:
        sel = [r for r in rows if keep(r)]
        seen = [r for r in sel if r["pip_err"] is not None]
        print(f"{name:22s} {len(sel):3d} dice, {len(seen):3d} with pips")
        print(f"    centre's error   reader {spread([r['reader_err'] for r in sel]):34s}"
              f"  pips {spread([r['pip_err'] for r in seen])}")
        print(f"    wall cue's shift reader {spread([r['shift'] for r in sel]):34s}"
              f"  pips {spread([r['pip_shift'] for r in seen])}")
        ratios = [r["spread_ratio"] for r in seen if r["spread_ratio"] is not None]
        print(f"    faces of 4 and 5: their pips' spread toward the wall over along it, "
              f"{len(ratios)} dice: {spread(ratios)}")


def pair_rows(records: list[dict], reader, settings: CockedSettings) -> list[dict]:
    """Per throw with a die leaning on the other die (truth ``cocked_on`` "die"): how many dice
    were found at rest, the leaning die's box, its distance (box centres, die edges) to the
    nearest other die found, which cues flag what (judged again with ``settings``), the pair
    cue's ``pair_reach`` and ``lean_scores``, the lean model's beliefs, the leaning die's top
    face (``top_face_shape``, die edges) and its lean angle."""
    rows = []
    for r in records:
        truth = r["truth"]
        # the default world's truth does not say what a die leans on: its case does
        on = "die" if r["case"] == "cocked_die" else "wall"
        lean = [i for i, t in enumerate(truth) if t is not None and t["cocked"]
                and t.get("cocked_on", on) == "die"]
        if not lean:
            continue
        i = lean[0]
        sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
        geo = sil.geometry
        die = geo.die
        _, cocked = judge_cocked(sil, settings, reader, frame, boxes, readings)
        others = [j for j in range(len(boxes)) if j != i]
        row = dict(seed=r["seed"], found=len(boxes), tilt=truth[i].get("cocked_tilt_deg", math.nan),
                   flags=cocked, lean=i, box=tuple(v / die for v in boxes[i][1]),
                   wall=geo.wall_distance(*boxes[i][0])[0] / die, dist=None, reach=None,
                   scores=None, beliefs=None, shape=None, colours=None)
        rd = readings[i] if i < len(readings) else None
        top = getattr(rd, "center", None)
        top = (float(top[0]), float(top[1])) if top is not None else boxes[i][0]
        row["shape"] = top_face_shape(frame, top, die)
        if others:
            j = min(others, key=lambda k: math.dist(boxes[k][0], boxes[i][0]))
            row["dist"] = math.dist(boxes[j][0], boxes[i][0]) / die
            row["colours"] = (truth[i].get("colour"),
                              truth[j].get("colour") if truth[j] is not None else None)
            rj = readings[j] if j < len(readings) else None
            if rd is not None and rj is not None:
                row["reach"] = pair_reach(sil, settings, frame, rd.center, rj.center)
                row["scores"] = lean_scores(sil, settings, frame, rd, rj)
            beliefs = lean_beliefs(geo, settings, reader, frame, boxes, readings)
            if beliefs is not None:
                row["beliefs"] = (beliefs[i], beliefs[j])
        rows.append(row)
    return rows


def pick_rows(records: list[dict], reader, settings: CockedSettings) -> list[dict]:
    """Per throw with a die leaning on the other and both dice found within 1.9 edges (each
    seed once, whatever sets hold it): the lean angle, whether the first box is the leaning
    die, the lean model's log-odds for the first box less the second's, and the pair model's
    log-odds that the first rather than the second leans (``vision.pair_pick``)."""
    from vision.cocked.pair import log_odds

    rows, seen = [], set()
    for r in records:
        truth = r["truth"]
        if r["seed"] in seen or len(r["boxes"]) != 2 or len(truth) != 2 or None in truth:
            continue
        on = "die" if r["case"] == "cocked_die" else "wall"
        lean = [i for i, t in enumerate(truth) if t["cocked"] and t.get("cocked_on", on) == "die"]
        sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
        geo = sil.geometry
        if len(lean) != 1 or math.dist(boxes[0][0], boxes[1][0]) > 1.9 * geo.die:
            continue
        seen.add(r["seed"])
        b = lean_beliefs(geo, settings, reader, frame, boxes, readings)
        pick = pair_picker(geo, settings, reader, frame, boxes, readings)
        tops = top_centres(boxes, readings)
        crop = pair_crop(frame, tops[0], tops[1], geo.die, (-geo.wall_n[0], -geo.wall_n[1]))
        rows.append(dict(seed=r["seed"], tilt=truth[lean[0]].get("cocked_tilt_deg", math.nan),
                         first=lean[0] == 0, lean=log_odds(b[0]) - log_odds(b[1]),
                         pair=log_odds(pick(0, 1)), crop=crop))
    return rows


def draw_picks(rows: list[dict], weight: float, out: Path, most: int = 8) -> None:
    """A contact sheet of pair crops as the pair model sees them (the first die left, the
    wall's side up), twice their size: the top rows the pairs the summed pick mends
    (the lean model's beliefs had them wrong), the bottom rows those it still has wrong. Under
    each: the seed, the lean, and which die (L, R) leans, the beliefs pick and the sum picks."""
    def side(z):
        return "L" if z > 0 else "R"

    mended = [r for r in rows if (r["lean"] > 0) != r["first"]
              and (r["lean"] + weight * r["pair"] > 0) == r["first"]][:most]
    wrong = [r for r in rows if (r["lean"] + weight * r["pair"] > 0) != r["first"]][:most]
    tiles = []
    for group, colour in ((mended, (60, 160, 60)), (wrong, (40, 40, 200))):
        for r in group:
            img = cv2.resize(r["crop"], None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
            pad = np.full((36, img.shape[1], 3), 255, np.uint8)
            cv2.putText(pad, f"{r['seed']} {r['tilt']:.1f} deg, leans {side(1 if r['first'] else -1)}",
                        (4, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
            cv2.putText(pad, f"beliefs {side(r['lean'])}, summed {side(r['lean'] + weight * r['pair'])}",
                        (4, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.42, colour, 1, cv2.LINE_AA)
            tiles.append(cv2.copyMakeBorder(np.vstack([img, pad]), 2, 2, 2, 2,
                                            cv2.BORDER_CONSTANT, value=(255, 255, 255)))
    if not tiles:
        raise SystemExit("picks --picture: no pair mended or picked wrong to draw")
    per_row = 4
    blank = np.full_like(tiles[0], 255)
    tiles += [blank] * (-len(tiles) % per_row)
    sheet = np.vstack([np.hstack(tiles[k:k + per_row]) for k in range(0, len(tiles), per_row)])
    cv2.imwrite(str(out), sheet)
    print(f"wrote {out}: {len(mended)} pairs mended (green), {len(wrong)} still picked wrong (red)")


def print_picks(rows: list[dict], weights: list[float]) -> None:
    """Pairs picked wrong, by the lean model alone, the pair model alone and the two summed
    at each weight (``pair_pick``), overall and by lean angle."""
    bands = [(10, 15), (15, 20), (20, 46)]

    def line(name, wrong):
        cells = [f"{sum(wrong)}"]
        for lo, hi in bands:
            sel = [w for w, r in zip(wrong, rows, strict=True) if lo <= r["tilt"] < hi]
            cells.append(f"{sum(sel)}/{len(sel)}")
        print(f"| {name} | " + " | ".join(cells) + " |")

    print(f"{len(rows)} pairs with a die leaning on the other, pairs picked wrong")
    print("| pick | all | " + " | ".join(f"leaning {lo}-{hi}" for lo, hi in bands) + " |")
    print("| --- | --- | --- | --- | --- |")
    line("the lean model's beliefs", [(r["lean"] > 0) != r["first"] for r in rows])
    line("the pair model alone", [(r["pair"] > 0) != r["first"] for r in rows])
    for w in weights:
        line(f"summed, pair_pick {w:g}", [(r["lean"] + w * r["pair"] > 0) != r["first"]
                                          for r in rows])


def print_pairs(rows: list[dict]) -> None:
    """``pair_rows`` one line per throw: the unflagged ones (no die flagged: paid) first."""
    fmt = lambda v: "-" if v is None else " ".join(f"{x:+.2f}" for x in v)  # noqa: E731
    paid = [r for r in rows if not any(r["flags"])]
    wrong = [r for r in rows if any(r["flags"]) and not r["flags"][r["lean"]]]
    print(f"{len(rows)} throws with a die leaning on the other: {len(paid)} no die flagged, "
          f"{len(wrong)} only the flat die flagged")
    print("seed   tilt found  dist  wall  box (edges)   flags          reach (lean, other)  "
          "scores        beliefs       top face    colours")
    for r in sorted(rows, key=lambda r: (any(r["flags"]), r["flags"][r["lean"]], r["seed"])):
        dist = "-" if r["dist"] is None else f"{r['dist']:.2f}"
        print(f"{r['seed']} {r['tilt']:5.1f} {r['found']:5d} {dist:>5s} {r['wall']:5.2f}  "
              f"{r['box'][0]:.2f}x{r['box'][1]:.2f}   {str(r['flags']):14s} "
              f"{fmt(r['reach']):20s} {fmt(r['scores']):13s} {fmt(r['beliefs']):13s} "
              f"{fmt(r['shape']):11s} {r['colours']}")


def _true_tops_gap(truth: list[dict], die: float) -> float:
    """How far apart (die edges) the two dice's true top faces lie as the camera sees them
    (the truth's ``rest_box``, the image's rectangle around each top), negative where they
    overlap."""
    quads = [cv2.boxPoints(((t["rest_box"][0][0], t["rest_box"][0][1]),
                            (t["rest_box"][1][0], t["rest_box"][1][1]), t["rest_box"][2]))
             for t in truth]
    return polygons_gap(quads[0], quads[1]) / die


def _close_pairs(records: list[dict], settings: CockedSettings):
    """The kept throws with two dice found closer than ``pair_touch_reach`` (box centres), both
    read and matched to the truth, neither leaning on the wall: each with its rest
    silhouettes, frame, boxes, readings, truth and die size."""
    for r in records:
        boxes, truth = r["boxes"], r["truth"]
        if len(boxes) != 2 or len(r["readings"]) != 2 or None in truth:
            continue
        if math.dist(boxes[0][0], boxes[1][0]) >= settings.pair_touch_reach * r["sil"].geometry.die:
            continue
        if not any(t["cocked"] and t.get("cocked_on") != "die" for t in truth):
            yield r, (r["sil"], r["frame"], boxes, r["readings"], truth, r["sil"].geometry.die)


def gap_rows(records: list[dict], reader, settings: CockedSettings) -> list[dict]:
    """Per throw with two dice found closer than ``pair_touch_reach``, both matched to the
    truth, neither leaning on the wall: what lies between their tops. ``true_gap``: between the
    true top faces (die edges); ``tops``: ``tops_gap`` (None where either top is no whole
    square); ``sil``: ``silhouettes_gap`` where both tops are whole and square for the top-face
    cue and neither die's shade may pass for felt or shadow (else None); ``cleared``:
    ``lie_flat_together``; ``tilt`` the leaning die's lean (0 for two flat dice)."""
    st = settings
    rows = []
    for r, (sil, frame, boxes, readings, truth, die) in _close_pairs(records, st):
        tilt = max(t["cocked_tilt_deg"] if t["cocked"] else 0.0 for t in truth)
        centres = (boxes[0][0], boxes[1][0])
        tilted = tuple(top_faces(sil.geometry, st, frame, boxes, readings))
        hides = any(felt_coloured(sil, frame, c, st.pair_felt_colour)
                    or shade_like_shadow(sil, frame, c) for c in centres)
        square = tilted[0] is False and tilted[1] is False and not hides
        rows.append(dict(
            seed=r["seed"], tilt=tilt, true_gap=_true_tops_gap(truth, die),
            tops=tops_gap(st, frame, tuple(readings), die, st.wall_pip_agree),
            sil=silhouettes_gap(sil, frame, *centres, st.pair_touch_chroma) if square else None,
            cleared=lie_flat_together(sil, st, frame, centres, tuple(readings), tilted)))
    return rows


def print_gaps(rows: list[dict]) -> None:
    """``gap_rows``: per group (two flat dice by their true tops' gap, a die leaning on the
    other by its lean), the spread (min, quartiles, max) of each measure, and the pairs
    cleared."""
    groups = [("flat, tops touching (< 0.1)", lambda r: r["tilt"] == 0 and r["true_gap"] < 0.1),
              ("flat, tops 0.1-0.3 apart", lambda r: r["tilt"] == 0 and 0.1 <= r["true_gap"] < 0.3),
              ("flat, tops 0.3 or more apart", lambda r: r["tilt"] == 0 and r["true_gap"] >= 0.3)]
    for lo, hi in ((10, 15), (15, 20), (20, 30), (30, 46)):
        groups.append((f"leaning {lo}-{hi} deg on the other",
                       lambda r, lo=lo, hi=hi: lo <= r["tilt"] < hi))
    print("die edges: min, quartiles, max; tops: over the pairs whose two tops are whole squares "
          "with their pips; silhouettes: over those whose tops the top-face cue finds square, "
          "neither die's shade like felt or a shadow")
    print(f"{'pairs':34s} {'n':>3s}  {'true tops gap':34s} {'n':>3s}  {'tops_gap':34s} {'n':>3s}"
          f"  {'silhouettes_gap':34s} cleared")
    for name, keep in groups:
        sel = [r for r in rows if keep(r)]
        tops = [r["tops"] for r in sel if r["tops"] is not None]
        sils = [r["sil"] for r in sel if r["sil"] is not None]
        print(f"{name:34s} {len(sel):3d}  {spread([r['true_gap'] for r in sel]):34s} "
              f"{len(tops):3d}  {spread(tops):34s} {len(sils):3d}  {spread(sils):34s} "
              f"{sum(r['cleared'] for r in sel)}")


def band_rows(records: list[dict], reader, settings: CockedSettings) -> list[dict]:
    """Per throw with two dice found closer than ``pair_touch_reach``, both matched to the
    truth, neither leaning on the wall (as ``gap_rows``): what the band between their tops is
    made of (``band_between``, None where it cannot be measured), the true tops' gap, the
    leaning die's lean (0 for two flat dice), the dice's colours, the image's width and
    whether the cues (judged again with ``settings``) flag either die; ``felt``: whether the
    band passes for the felt (``felt_band`` with ``settings``' ``pair_band_*``, its
    ``pair_band_clear`` 0.03 where off)."""
    st = settings
    rows = []
    for r, (sil, frame, boxes, readings, truth, die) in _close_pairs(records, st):
        _, cocked = judge_cocked(sil, st, reader, frame, boxes, readings)
        band = band_between(sil, st, frame, tuple(readings))
        rows.append(dict(
            seed=r["seed"], size=frame.shape[1], true_gap=_true_tops_gap(truth, die),
            tilt=max(t["cocked_tilt_deg"] if t["cocked"] else 0.0 for t in truth),
            colours=tuple(t.get("colour") for t in truth), flagged=any(cocked), band=band,
            felt=felt_band(band, st if st.pair_band_clear is not None
                           else replace(st, pair_band_clear=0.03))))
    return rows


def print_bands(rows: list[dict], settings: CockedSettings, verbose: bool = False) -> None:
    """``band_rows`` per image width and group (flat pairs by their true tops' gap, a die
    leaning on the other by its lean): how many bands were measured, and the spread (min,
    quartiles, max) of their area, their pixels too dark to keep a colour, those off the
    felt's chromaticity and of those the ones nearer a top's (faces), the tops' distance to
    the felt's chromaticity, and the off-felt area again over the bands ``felt_band`` may
    decide on (``settings``' ``pair_band_area``, ``pair_band_dark``, ``pair_band_dice``);
    ``felt``: how many pass for the felt."""
    st = settings
    groups = [("flat, tops < 0.1 apart", lambda r: r["tilt"] == 0 and r["true_gap"] < 0.1),
              ("flat, tops 0.1-0.3 apart", lambda r: r["tilt"] == 0 and 0.1 <= r["true_gap"] < 0.3),
              ("flat, tops >= 0.3 apart", lambda r: r["tilt"] == 0 and r["true_gap"] >= 0.3)]
    for lo, hi in ((0.1, 10), (10, 15), (15, 20), (20, 30), (30, 46)):
        groups.append((f"leaning {lo:g}-{hi} deg",
                       lambda r, lo=lo, hi=hi: lo <= r["tilt"] < hi))
    for size in sorted({r["size"] for r in rows}):
        print(f"width {size}: n (measured), then min q1 med q3 max (faces) of: band | dark | "
              "off the felt's chromaticity | of those nearer a top's | dice to felt (chroma) | "
              "n, off the felt's where the band may decide (wide, lit, dice off the felt's "
              "colour) | felt")
        for name, keep in groups:
            g = [r for r in rows if r["size"] == size and keep(r)]
            b = [r["band"] for r in g if r["band"] is not None]
            may = [v for v in b if v.area >= st.pair_band_area and v.dark <= st.pair_band_dark
                   and v.dice_off_felt >= st.pair_band_dice]
            print(f"  {name:26s} {len(g):3d} ({len(b):3d})  {spread([v.area for v in b]):30s} | "
                  f"{spread([v.dark for v in b]):30s} | {spread([v.off_felt for v in b]):30s} | "
                  f"{spread([v.off_felt_near_die for v in b]):30s} | "
                  f"{spread([v.dice_off_felt for v in b]):30s} | {len(may):3d} "
                  f"{spread([v.off_felt for v in may]):30s} | {sum(r['felt'] for r in g)}")
    if verbose:
        for r in sorted(rows, key=lambda r: (r["size"], r["tilt"] > 0, r["seed"])):
            b = r["band"]
            seen = "-" if b is None else (
                f"band={b.area:.2f} dark={b.dark:.3f} off_felt={b.off_felt:.3f} "
                f"near_die={b.off_felt_near_die:.3f} dice={b.dice_off_felt:.3f}")
            print(f"{r['seed']} {r['size']} tilt={r['tilt']:4.1f} gap={r['true_gap']:+.2f} "
                  f"flagged={r['flagged']!s:5s} felt={r['felt']!s:5s} {r['colours']} {seen}")


def _pair_views(records: list[dict], seeds: list[int], scale: int):
    """The kept throws ``seeds`` in turn: each seed, its rest silhouettes, frame, boxes,
    readings, truth and die size, and the zoom (the same size on screen at any resolution),
    half-width and corner of a window three edges wide around its dice."""
    by_seed = {r["seed"]: r for r in records}
    for seed in seeds:
        r = by_seed[seed]
        die = r["sil"].geometry.die
        c = np.mean([b[0] for b in r["boxes"]], axis=0)
        half = int(1.5 * die)
        yield seed, (r["sil"], r["frame"], r["boxes"], r["readings"], r["truth"], die), (
            max(1, round(2 * scale * 41.6 / die)), half, int(c[0]) - half, int(c[1]) - half)


def _captioned(views: list[np.ndarray], title: str) -> np.ndarray:
    """The views side by side under a black strip with ``title`` (a second line goes below)."""
    tile = np.hstack(views)
    cv2.rectangle(tile, (0, 0), (tile.shape[1], 50), (0, 0, 0), -1)
    cv2.putText(tile, title, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1,
                cv2.LINE_AA)
    return tile


def _write_tiles(tiles: list[np.ndarray], path: Path) -> None:
    """The tiles two to a row, padded to one size, as a PNG."""
    if len(tiles) % 2:
        tiles.append(np.zeros_like(tiles[-1]))
    h, w = max(t.shape[0] for t in tiles), max(t.shape[1] for t in tiles)
    tiles = [cv2.copyMakeBorder(t, 0, h - t.shape[0], 0, w - t.shape[1], cv2.BORDER_CONSTANT)
             for t in tiles]
    rows = [np.hstack(tiles[i:i + 2]) for i in range(0, len(tiles), 2)]
    cv2.imwrite(str(path), np.vstack(rows), [cv2.IMWRITE_PNG_COMPRESSION, 9])


def draw_gaps(records: list[dict], seeds: list[int], settings: CockedSettings, path: Path,
              scale: int = 2) -> None:
    """A picture of the throws ``seeds`` (two dice found in each), two to a row: the rest
    frame around the pair and its silhouettes (grey: the dice, shadows left out; purple: the
    shadows), each with the tops as ``tops_gap`` sets them (green squares at the pips'
    centres), the truth (flat or the lean) and the two gaps written above."""
    st = settings
    tiles = []
    for seed, (sil, frame, boxes, readings, truth, die), (k, half, x0, y0) in _pair_views(
            records, seeds, scale):
        window = (slice(y0, y0 + 2 * half), slice(x0, x0 + 2 * half))
        shown = np.zeros_like(frame)
        for shadows, colour in ((True, (160, 0, 160)), (False, (200, 200, 200))):
            mask, xx, yy = dice_window(sil, frame, [b[0] for b in boxes], int(die) + 2,
                                        st.pair_touch_chroma, shadows)
            part = shown[int(yy[0, 0]):int(yy[0, 0]) + mask.shape[0],
                         int(xx[0, 0]):int(xx[0, 0]) + mask.shape[1]]
            part[mask > 0] = colour
        views = [cv2.resize(img[window], None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
                 for img in (frame, shown)]
        for rd in readings:
            top = top_square(st, frame, rd, die, st.wall_pip_agree)
            if top is None:
                continue
            corners = (cv2.boxPoints((top.centre, (die, die), top.turn)) - (x0 - 0.5, y0 - 0.5)) * k
            for img in views:
                cv2.polylines(img, [corners.round().astype(np.int32)], True, (0, 255, 0), 2,
                              cv2.LINE_AA)
        tops = tops_gap(st, frame, tuple(readings), die, st.wall_pip_agree)
        sil_gap = silhouettes_gap(sil, frame, boxes[0][0], boxes[1][0], st.pair_touch_chroma)
        lean = [t["cocked_tilt_deg"] for t in truth if t is not None and t["cocked"]]
        tile = _captioned(views, f"{seed}: " + (f"leaning {lean[0]:.1f} deg" if lean else "flat"))
        fmt = lambda v: "-" if v is None else f"{v:+.2f}"  # noqa: E731
        cv2.putText(tile, f"tops_gap {fmt(tops)}  silhouettes_gap {fmt(sil_gap)} edge",
                    (6, 42), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 255), 1, cv2.LINE_AA)
        tiles.append(tile)
    _write_tiles(tiles, path)


def draw_bands(records: list[dict], seeds: list[int], settings: CockedSettings, path: Path,
               scale: int = 2) -> None:
    """A picture of the throws ``seeds`` (two dice found in each), two to a row: the rest frame
    around the pair, and the same with the band between the tops (``band_between``) drawn on
    it (blue: the felt's chromaticity; red: off it; yellow: too dark to tell), the truth (flat
    or the lean) and the band's measures written above."""
    st = settings
    tiles = []
    for seed, (sil, frame, _, readings, truth, _), (k, half, x0, y0) in _pair_views(
            records, seeds, scale):
        shown = frame.copy()
        band = band_between(sil, st, frame, tuple(readings))
        if band is not None:
            bx, by = band.origin
            part = shown[by:by + band.pixels.shape[0], bx:bx + band.pixels.shape[1]]
            for value, colour in ((1, (255, 120, 0)), (2, (0, 0, 255)), (3, (0, 255, 255))):
                part[band.pixels == value] = colour
        window = (slice(max(0, y0), y0 + 2 * half), slice(max(0, x0), x0 + 2 * half))
        views = [cv2.resize(img[window], None, fx=k, fy=k, interpolation=cv2.INTER_NEAREST)
                 for img in (frame, shown)]
        lean = [t["cocked_tilt_deg"] for t in truth if t is not None and t["cocked"]]
        tile = _captioned(views, f"{seed}: " + (f"leaning {lean[0]:.1f} deg" if lean else "flat"))
        text = "no band" if band is None else (
            f"band {band.area:.2f} face, off the felt {band.off_felt:.3f}, dark {band.dark:.3f}; "
            f"{'felt' if felt_band(band, st) else 'not the felt'}")
        cv2.putText(tile, text, (6, 42), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 255), 1,
                    cv2.LINE_AA)
        tiles.append(tile)
    _write_tiles(tiles, path)


def _wall_flags(sil, settings: CockedSettings, frame: np.ndarray, boxes: list,
                readings: list) -> tuple[list, list[bool]]:
    """The readings one per box (None where the reader gave none) and the wall cue's flags
    after the front face (``flat_fronts``) and the pips (``flat_by_pips``) cleared theirs."""
    geo = sil.geometry
    rds = [readings[i] if i < len(readings) else None for i in range(len(boxes))]
    walls = [leans_on_wall(geo, settings, boxes[i], rds[i]) for i in range(len(boxes))]
    cleared = flat_fronts(sil, settings, frame, boxes, readings, walls)
    by_pips = flat_by_pips(geo, settings, frame, boxes, readings, walls)
    return rds, [w and not c and not p for w, c, p in zip(walls, cleared, by_pips, strict=True)]


def _at_rest(record: dict, settings: CockedSettings, view):
    """A kept throw's rest frame unpacked for a measure of the dice at the wall: silhouettes,
    frame, boxes, readings, geometry, the camera ``view``, the die's size, the readings one
    per box and the wall cue's flags (``_wall_flags``)."""
    sil, frame, boxes, readings = (record["sil"], record["frame"], record["boxes"],
                                   record["readings"])
    rds, flagged = _wall_flags(sil, settings, frame, boxes, readings)
    return sil, frame, boxes, readings, sil.geometry, view, sil.geometry.die, rds, flagged


def _at_wall(record: dict, settings: CockedSettings, view, rds: list):
    """(index, truth) of each die of a kept throw at rest in the area within the wall cue's
    reach (``wall_near``) that the reader read; none without a camera ``view``."""
    if view is None:
        return
    geo = record["sil"].geometry
    for i, t in enumerate(record["truth"]):
        if t is None or not t["at_rest_in_area"] or rds[i] is None:
            continue
        if geo.wall_distance(*record["boxes"][i][0])[0] <= settings.wall_near * geo.die:
            yield i, t


def flat_cue_rows(records: list[dict], reader, settings: CockedSettings,
                  why_pairs: bool = False) -> list[dict]:
    """Per flat die flagged (judged again with ``settings``), the cues that flag it, in
    ``judge_cocked``'s order: ``pair`` (the pair cue takes it for the leaning die of a close
    pair), ``reader`` (the reader's flag, where no pair cue overrides it), ``wall`` (the wall
    cue, after the front face and the pips), ``top face`` and ``wall face``; with its colour,
    its distance to the wall line and to the nearest other die (box centres, die edges) and
    whether the other die of its throw is cocked."""
    st = settings
    rows = []
    for r in records:
        sil, frame, boxes, readings, truth = (r["sil"], r["frame"], r["boxes"], r["readings"],
                                              r["truth"])
        if not boxes:
            continue
        _, cocked = judge_cocked(sil, st, reader, frame, boxes, readings)
        geo = sil.geometry
        die = geo.die
        rds, walls = _wall_flags(sil, st, frame, boxes, readings)
        by_rims = flat_by_rims(sil, st, frame, boxes, readings, walls)
        walls = [w and not c for w, c in zip(walls, by_rims, strict=True)]
        tilted = top_faces(geo, st, frame, boxes, readings)
        faces = wall_faces(sil, st, frame, boxes, readings)
        beliefs = lean_beliefs(geo, st, reader, frame, boxes, readings)
        paired = pairs(sil, st, frame, boxes, readings, walls, beliefs, tilted,
                       pair_picker(geo, st, reader, frame, boxes, readings))
        for i, t in enumerate(truth):
            if t is None or t["cocked"] or not t["at_rest_in_area"] or not cocked[i]:
                continue
            others = [j for j in range(len(boxes)) if j != i]
            near = min((math.dist(boxes[j][0], boxes[i][0]) / die for j in others),
                       default=None)
            cues = []
            if i in paired:
                if paired[i]:
                    cues.append("pair")
                if cocked_share(rds[i]) >= st.pair_keep_share:
                    cues.append("reader")
            else:
                if rds[i] is not None and rds[i].cocked:
                    cues.append("reader")
                if walls[i]:
                    cues.append("wall")
            if tilted[i] is True and (geo.wall_distance(*boxes[i][0])[0] <= st.face_near_wall
                                      * die or (near is not None and near <= st.face_near_die)):
                cues.append("top face")
            if faces[i]:
                cues.append("wall face")
            why = None
            if why_pairs and "pair" in cues:
                j = min(others, key=lambda k: math.dist(boxes[k][0], boxes[i][0]))
                why = pair_why(sil, st, reader, frame, boxes, readings, i, j)
            rows.append(dict(seed=r["seed"], cues=cues, colour=t.get("colour"), why=why,
                             wall=geo.wall_distance(*boxes[i][0])[0] / die, near=near,
                             partner_cocked=any(u is not None and u["cocked"] for u in truth),
                             share=cocked_share(rds[i]),
                             belief=None if beliefs is None else beliefs[i]))
    return rows


def _top_why(settings: CockedSettings, frame: np.ndarray, reading, die: float) -> str:
    """Why ``top_square`` takes a read die's top for a whole square or not: "ok", else the
    first test it fails (no reading, the pips against the reader's face, the region's size
    or squareness)."""
    st = settings
    if reading is None:
        return "no reading"
    face = reading.value if reading.value is not None else getattr(reading, "best_face", None)
    pips = top_pips(frame, reading.center, die, contrast=st.pip_contrast, face=face)
    if pips is None or face is None:
        return "no pips" if pips is None else "no face"
    if pips.count != int(face):
        return f"pips {pips.count}/{face}"
    if math.dist(pips.center, reading.center) > st.wall_pip_agree * die:
        return f"pips off {math.dist(pips.center, reading.center) / die:.2f}"
    seen = []
    for seams in (False, True) if st.pair_top_seams else (False,):
        region = top_region(frame, reading.center, die, seams=seams)
        if region is None:
            seen.append("none")
            continue
        ys, xs = np.nonzero(region)
        (_, _), (bw, bh), _ = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
        long, short = max(bw, bh) / die, min(bw, bh) / die
        if st.pair_top_size[0] <= long <= st.pair_top_size[1] and (
                short >= st.pair_top_square * long):
            return "ok"
        seen.append(f"{long:.2f}x{short:.2f}")
    return "region " + "/".join(seen)


def pair_why(sil, settings: CockedSettings, reader, frame: np.ndarray, boxes: list,
             readings: list, i: int, j: int) -> dict:
    """For a close pair ``i``, ``j`` the pair cue flags: each clearing proof's measurements,
    so that the one that fails shows. ``model``: the lean model's beliefs, the largest
    ``lean_scores``, the shadow-free silhouettes' touch and the top-face cue (clears where
    the beliefs <= ``pair_min_lean``, the score <= ``pair_clear_score``, no touch, both tops
    square); ``tops``: each top's ``top_square`` verdict (``_top_why``) and ``tops_gap``
    (clears from minus ``pair_tops_overlap`` to ``pair_tops_touch``); ``hides``: a die whose shade may pass for felt or
    shadow (the gap and the band then prove nothing); ``gap``: ``silhouettes_gap`` (clears
    at ``pair_clear_gap``); ``band``: ``band_between`` (clears by ``felt_band``);
    ``centres``: the tops' pips' centres apart (die edges; None without both pips)."""
    st = settings
    geo = sil.geometry
    die = geo.die
    rd = [readings[k] if k < len(readings) else None for k in (i, j)]
    centres = (boxes[i][0], boxes[j][0])
    tilted = top_faces(geo, st, frame, boxes, readings)
    beliefs = lean_beliefs(geo, st, reader, frame, boxes, readings)
    scores = (lean_scores(sil, st, frame, rd[0], rd[1]) if None not in rd else None)
    touch = silhouettes_touch(sil, frame, centres[0], centres[1], st.pair_touch_chroma)
    tops = [_top_why(st, frame, r, die) for r in rd]
    gap = tops_gap(st, frame, tuple(rd), die, st.wall_pip_agree) if None not in rd else None
    hides = [k for k, c in zip((i, j), centres, strict=True)
             if felt_coloured(sil, frame, c, st.pair_felt_colour)
             or shade_like_shadow(sil, frame, c)]
    pips = [top_pips(frame, r.center, die, face=r.value if r.value is not None else r.best_face)
            if r is not None else None for r in rd]
    return dict(
        beliefs=None if beliefs is None else (beliefs[i], beliefs[j]),
        score=None if scores is None else max(scores), touch=touch,
        tilted=(tilted[i], tilted[j]), tops=tops, tops_gap=gap, hides=hides,
        sil_gap=silhouettes_gap(sil, frame, *centres, st.pair_touch_chroma),
        band=band_between(sil, st, frame, tuple(rd)) if None not in rd else None,
        centres=None if None in pips else math.dist(pips[0].center, pips[1].center) / die)


def print_pair_why(rows: list[dict], settings: CockedSettings) -> None:
    """``flat_cue_rows``' pair-cue flags, one line each: every clearing proof's measurements
    and, in capitals, what fails it (``pair_why``)."""
    st = settings
    print("\nwhy the pair cue's flags on flat dice stand (what fails in capitals)")
    print("seed   apart  model (beliefs; score; touch; tops square)      tops (each; gap)"
          "                 hides  sil gap  band (area dark dice off)     pips apart")
    for r in rows:
        w = r.get("why")
        if w is None:
            continue
        b = w["beliefs"]
        model = ("-" if b is None else f"{b[0]:.2f}/{b[1]:.2f}"
                 + ("" if max(b) <= st.pair_min_lean else " HIGH"))
        score = "-" if w["score"] is None else f"{w['score']:+.2f}" + (
            "" if w["score"] <= st.pair_clear_score else " HIGH")
        square = "/".join({True: "T", False: "s", None: "?"}[v] for v in w["tilted"])
        model = f"{model}; {score}; {'TOUCH' if w['touch'] else 'apart'}; {square}"
        gap = "-" if w["tops_gap"] is None else f"{w['tops_gap']:+.2f}"
        tops = f"{w['tops'][0]}, {w['tops'][1]}; {gap}"
        sil_gap = "-" if w["sil_gap"] is None else f"{w['sil_gap']:.2f}"
        v = w["band"]
        band = "-" if v is None else (f"{v.area:.2f} {v.dark:.2f} {v.dice_off_felt:.2f} "
                                      f"{v.off_felt:.2f}")
        centres = "-" if w["centres"] is None else f"{w['centres']:.2f}"
        print(f"{r['seed']}  {r['near']:5.2f}  {model:44s}  {tops:32s} "
              f"{'Y' if w['hides'] else '-':5s}  {sil_gap:7s}  {band:28s}  {centres}")


def print_flat_cues(rows: list[dict]) -> None:
    """``flat_cue_rows``: a count per cue, then one line per die."""
    n = Counter("+".join(r["cues"]) or "?" for r in rows)
    print(f"{len(rows)} flat dice flagged: " + ", ".join(f"{k} {v}" for k, v in n.most_common()))
    print("seed    cues                  colour  wall  other die  other cocked  share  belief")
    for r in sorted(rows, key=lambda r: ("+".join(r["cues"]), r["seed"])):
        near = "-" if r["near"] is None else f"{r['near']:.2f}"
        belief = "-" if r["belief"] is None else f"{r['belief']:.2f}"
        print(f"{r['seed']}  {'+'.join(r['cues']):20s}  {r['colour']!s:6s}  {r['wall']:4.2f}"
              f"  {near:>9s}  {r['partner_cocked']!s:12s}  {r['share']:.2f}   {belief}")


def lean_centres_apart(tilt_deg: float) -> tuple[float, float]:
    """The least and the most (die edges, in plan) that the top faces' centres of a die
    leaning ``tilt_deg`` on a flat die lie apart, the leaning die resting on one bottom edge:
    tipped toward the other, its raised top edge against it square-on, ``0.5 + 0.5 cos t``
    (the least); tipped away, its raised bottom corner against the other's vertical edge, the
    two offsets in line, ``sqrt(2)/2 + sqrt((0.5 cos t + sin t)^2 + 0.25)`` (the most)."""
    t = math.radians(tilt_deg)
    return (0.5 + 0.5 * math.cos(t),
            math.sqrt(0.5) + math.hypot(0.5 * math.cos(t) + math.sin(t), 0.5))


def bound_rows(records: list[dict], reader, settings: CockedSettings) -> list[dict]:
    """Per close pair (``_close_pairs``): the tops' centres apart (die edges; ``true``: the
    truth's top boxes, ``pips``: ``top_pips``' centres, None without both), the shadow-free
    ``silhouettes_gap``, the top-face cue's verdicts, whether either die's shade may pass for
    felt or shadow, the leaning die's lean (0 for two flat dice) and whether the cues (judged
    again with ``settings``) flag either die."""
    st = settings
    rows = []
    for r, (sil, frame, boxes, readings, truth, die) in _close_pairs(records, st):
        centres = (boxes[0][0], boxes[1][0])
        pips = [top_pips(frame, rd.center, die) for rd in readings]
        tops = [np.array(t["rest_box"][0], float) for t in truth]
        _, cocked = judge_cocked(sil, st, reader, frame, boxes, readings)
        rows.append(dict(
            seed=r["seed"], tilt=max(t["cocked_tilt_deg"] if t["cocked"] else 0.0 for t in truth),
            true=float(np.linalg.norm(tops[0] - tops[1])) / die,
            pips=None if None in pips else math.dist(pips[0].center, pips[1].center) / die,
            gap=silhouettes_gap(sil, frame, *centres, st.pair_touch_chroma),
            tilted=tuple(top_faces(sil.geometry, st, frame, boxes, readings)),
            hides=any(felt_coloured(sil, frame, c, st.pair_felt_colour)
                      or shade_like_shadow(sil, frame, c) for c in centres),
            flagged=any(cocked)))
    return rows


def print_bound(rows: list[dict]) -> None:
    """The tops' centres apart from the geometry (``lean_centres_apart``) against
    ``bound_rows``' measured ones, and the shadow-free silhouettes' gap by what the top-face
    cue sees, over the pairs neither of whose shades may pass for felt or shadow."""
    print("geometry: a die leaning t on a flat die, its top's centre from the other's (edges, "
          "in plan): least, most")
    for t in (10, 15, 20, 30, 45):
        print(f"  {t:2d} deg  {lean_centres_apart(t)[0]:.2f}  {lean_centres_apart(t)[1]:.2f}")
    groups = [("flat", lambda r: r["tilt"] == 0),
              ("flat, a die flagged", lambda r: r["tilt"] == 0 and r["flagged"])]
    for lo, hi in ((10, 15), (15, 20), (20, 30), (30, 46)):
        groups.append((f"leaning {lo}-{hi} deg", lambda r, lo=lo, hi=hi: lo <= r["tilt"] < hi))
    print(f"{'pairs':22s} {'n':>4s}  {'tops centres apart (truth)':34s} "
          f"{'n':>4s}  tops centres apart (pips)")
    for name, keep in groups:
        g = [r for r in rows if keep(r)]
        p = [r["pips"] for r in g if r["pips"] is not None]
        print(f"{name:22s} {len(g):4d}  {spread([r['true'] for r in g]):34s} {len(p):4d}  "
              f"{spread(p)}")
    print("silhouettes_gap, shadows left out, neither shade like felt or shadow: both tops "
          "square | neither seen tilted (a top not measured counts)")
    for name, keep in groups:
        g = [r for r in rows if keep(r) and not r["hides"] and r["gap"] is not None]
        sq = [r["gap"] for r in g if r["tilted"][0] is False and r["tilted"][1] is False]
        seen = [r["gap"] for r in g if not any(bool(t) for t in r["tilted"] if t is not None)]
        print(f"{name:22s} {len(sq):4d}  {spread(sq):34s} {len(seen):4d}  {spread(seen)}")


def shadow_reach(sil, frame: np.ndarray, a, b, r_edges: float = 2.5):
    """The hard shadows of two close dice whose top centres are ``a`` and ``b`` (image
    points): ``(reach_a, reach_b, whole, dark)``. The shadow is the felt darkened evenly
    (``felt_in_shadow``) and changed since before the throw; its direction is from the pair's
    midpoint to the shadow's centroid (one lamp for both); each shadow pixel goes to the
    nearer die, and a die's reach is the farthest of its pixels along that direction (die
    edges). ``whole``: no shadow pixel on the window's or the image's border; ``dark``: the
    shadow's area in die faces. None where the felt is not known there."""
    geo = sil.geometry
    die = geo.die
    r = int(r_edges * die)
    xs, ys = (a[0], b[0]), (a[1], b[1])
    h, w = frame.shape[:2]
    x0, y0 = int(min(xs)) - r, int(min(ys)) - r
    x1, y1 = int(max(xs)) + r + 1, int(max(ys)) + r + 1
    cut = x0 < 0 or y0 < 0 or x1 > w or y1 > h
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    roi = frame[y0:y1, x0:x1]
    bg = sil.felt(x0, y0, x1, y1, roi)
    if bg is None or bg.shape != roi.shape:
        return None
    dark = (changed_pixels(roi, bg, sil.threshold) > 0) & felt_in_shadow(roi, bg)
    yy, xx = np.nonzero(dark)
    if len(xx) < 4:
        return 0.0, 0.0, not cut, 0.0
    px, py = xx + x0, yy + y0
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    d = np.array([px.mean() - mx, py.mean() - my])
    d /= np.linalg.norm(d) + 1e-9
    da = np.hypot(px - a[0], py - a[1])
    db = np.hypot(px - b[0], py - b[1])
    reach = []
    for c, mine in ((a, da <= db), (b, da > db)):
        proj = (px[mine] - c[0]) * d[0] + (py[mine] - c[1]) * d[1]
        reach.append(float(proj.max()) / die if mine.any() else 0.0)
    border = (yy == 0).any() or (xx == 0).any() or (yy == dark.shape[0] - 1).any() \
        or (xx == dark.shape[1] - 1).any()
    return reach[0], reach[1], not (cut or border), len(xx) / die ** 2


def shadow_rows(records: list[dict], near: float = 1.6) -> list[dict]:
    """Per throw with two dice found whose box centres lie within ``near`` edges: each die's
    shadow reach (``shadow_reach``), whether a die leans on the other (truth) and its lean
    angle; ``lean`` the leaning die's reach, ``other`` the flat one's (for a flat pair, the
    longer and the shorter)."""
    rows = []
    for r in records:
        sil, boxes, readings, truth = r["sil"], r["boxes"], r["readings"], r["truth"]
        if len(boxes) != 2 or None in truth:
            continue
        die = sil.geometry.die
        if math.dist(boxes[0][0], boxes[1][0]) / die > near:
            continue
        tops = top_centres(boxes, readings)
        seen = shadow_reach(sil, r["frame"], tops[0], tops[1])
        if seen is None:
            continue
        ra, rb, whole, area = seen
        on = "die" if r["case"] == "cocked_die" else "wall"
        lean = [i for i, t in enumerate(truth) if t["cocked"] and t.get("cocked_on", on) == "die"]
        if any(t["cocked"] for t in truth) and not lean:
            continue  # a die cocked on the wall: not this cue's question
        reach = (ra, rb)
        if lean:
            i = lean[0]
            pair = (reach[i], reach[1 - i])
            tilt = truth[i].get("cocked_tilt_deg", math.nan)
        else:
            pair = (max(reach), min(reach))
            tilt = 0.0
        rows.append(dict(seed=r["seed"], size=r["frame"].shape[1], leaning=bool(lean),
                         tilt=tilt, lean=pair[0], other=pair[1], whole=whole, area=area,
                         dist=math.dist(boxes[0][0], boxes[1][0]) / die))
    return rows


def print_shadows(rows: list[dict], verbose: bool = False) -> None:
    """``shadow_rows`` by image width, flat pairs against leaning pairs by lean angle: the
    spread (min, quartiles, max) of the reach difference (leaning minus flat die; for a flat
    pair, longer minus shorter), over the pairs whose shadows are seen whole."""
    groups = [("flat pairs", lambda r: not r["leaning"]),
              ("lean <10", lambda r: r["leaning"] and r["tilt"] < 10),
              ("lean 10-20", lambda r: r["leaning"] and 10 <= r["tilt"] < 20),
              ("lean >=20", lambda r: r["leaning"] and r["tilt"] >= 20)]
    for size in sorted({r["size"] for r in rows}):
        print(f"width {size}: group        n  whole  reach difference (edges: min q1 med q3 max)"
              "  leaning-die reach")
        for name, keep in groups:
            g = [r for r in rows if r["size"] == size and keep(r)]
            seen = [r for r in g if r["whole"] and r["area"] > 0.2]
            print(f"  {name:12s} {len(g):4d} {len(seen):5d}  "
                  f"{spread([r['lean'] - r['other'] for r in seen]):34s}  "
                  f"{spread([r['lean'] for r in seen])}")
    if verbose:
        for r in sorted(rows, key=lambda r: (r["leaning"], r["seed"])):
            print(f"{r['seed']} {r['size']} lean={r['leaning']!s:5s} tilt={r['tilt']:4.1f} "
                  f"reach {r['lean']:.2f}/{r['other']:.2f} whole={r['whole']!s:5s} "
                  f"area={r['area']:.2f} dist={r['dist']:.2f}")


def rim_kind(record: dict, i: int, settings: CockedSettings) -> str:
    """What kind of flat die the wall cue flags (docs/replay.md, "The wall cue's flags on flat
    dice, one by one"): ``black``, ``felt hue`` (its middle within ``pair_felt_colour`` of the
    felt's chromaticity), ``cut top`` (the top's region ends under 0.3 edge out: a glare, a line
    across it), ``short top`` (the region no whole top otherwise), else ``other``."""
    sil, frame, boxes, readings = record["sil"], record["frame"], record["boxes"], record["readings"]
    t = record["truth"][i]
    if t.get("colour") == "black":
        return "black"
    if felt_coloured(sil, frame, boxes[i][0], settings.pair_felt_colour):
        return "felt hue"
    tops = top_centres(boxes, readings)
    seen = front_band(sil, frame, tops[i], [u for k, u in enumerate(tops) if k != i],
                      settings.wall_band_top_max)
    if seen is None or seen.top_edge < settings.wall_band_top_low:
        return "cut top"
    return "other" if whole_top(seen, settings) else "short top"


def rim_rows(records: list[dict], settings: CockedSettings) -> list[dict]:
    """Per die within ``wall_near`` of the wall line (its box's centre), at rest in the area,
    flat or leaning on the wall: its truth, whether the wall cue flags it after the front face
    and the pips (``flagged``, and then ``kind``: ``rim_kind``), whether the edge lines clear
    it (``cleared``: ``flat_by_rims`` with ``settings``, its ``wall_rim_clear`` taken as 0.12
    where it is off) and what they measure (``rim_front``, from the top's centre as
    ``flat_by_rims`` takes it: ``band``, ``sil_band``, ``side``; nan where it finds none)."""
    st = settings if settings.wall_rim_clear > 0 else replace(settings, wall_rim_clear=0.12)
    rows = []
    for r in records:
        if not r["boxes"]:
            continue
        sil, frame, boxes, readings, geo, view, die, rds, flagged = _at_rest(r, st, camera_view(
            r["sil"]))
        # every die at the wall measured, whatever the wall cue says
        by_rims = flat_by_rims(sil, st, frame, boxes, readings, [True] * len(boxes))
        tops = top_centres(boxes, readings)
        for i, t in _at_wall(r, st, view, rds):
            if t["cocked"] and t["cocked_on"] != "wall":
                continue
            try:
                slope = view.slope(*tops[i])
            except CameraViewError:
                continue
            seen = rim_front(sil, frame, pips_centre(st, frame, rds[i], die) or tops[i],
                             [u for k, u in enumerate(tops) if k != i], slope)
            nan = float("nan")
            rows.append(dict(
                seed=r["seed"], cocked=t["cocked"], tilt=t["cocked_tilt_deg"],
                colour=t.get("colour"), flagged=flagged[i], cleared=by_rims[i],
                kind=rim_kind(r, i, st) if flagged[i] and not t["cocked"] else None,
                toward=slope[0], band=seen.band if seen else nan,
                sil_band=seen.sil_band if seen else nan, side=seen.side if seen else nan))
    return rows


def print_rims(rows: list[dict], verbose: bool = False) -> None:
    """``rim_rows``: per group (flat dice, the flat dice the wall cue flags by kind, leaning
    dice by lean angle) the dice the edge lines measure, the spread (min, quartiles, max) of
    each band less ``toward`` and of the side face beyond a flat die's, and how many the edge
    lines would clear."""
    groups = [("flat", lambda r: not r["cocked"]),
              ("flat, wall cue flags", lambda r: not r["cocked"] and r["flagged"])]
    for kind in ("black", "felt hue", "cut top", "short top", "other"):
        groups.append((f"  {kind}", lambda r, k=kind: not r["cocked"] and r["kind"] == k))
    for lo, hi in ((10, 15), (15, 20), (20, 45)):
        groups.append((f"leaning {lo}-{hi} deg",
                       lambda r, lo=lo, hi=hi: r["cocked"] and lo <= r["tilt"] < hi))
    groups.append(("leaning, wall cue flags", lambda r: r["cocked"] and r["flagged"]))
    print("die edges: min, quartiles, max over the dice measured; rim: the top's front edge line"
          " to the rim line, less toward; sil: that top line to the silhouette's end, less"
          " toward; side: the wider side face beyond a flat die's")
    print(f"{'dice at the wall':24s} {'measured':>9s}  {'rim':30s}  {'sil':30s}  {'side':30s}"
          "  cleared")
    for name, keep in groups:
        sel = [r for r in rows if keep(r)]
        seen = [r for r in sel if r["band"] == r["band"]]
        print(f"{name:24s} {len(seen):4d}/{len(sel):<4d}  "
              f"{spread([r['band'] for r in seen]):30s}  "
              f"{spread([r['sil_band'] for r in seen]):30s}  "
              f"{spread([r['side'] for r in seen]):30s}  {sum(r['cleared'] for r in sel)}")
    if verbose:
        print("\nseed   truth     colour  flagged  kind       toward  rim    sil    side  cleared")
        for r in sorted(rows, key=lambda r: (r["cocked"], r["seed"])):
            truth = f"lean {r['tilt']:4.1f}" if r["cocked"] else "flat"
            print(f"{r['seed']}  {truth:9s} {r['colour']!s:7s} {r['flagged']!s:8s} "
                  f"{r['kind']!s:10s} {r['toward']:5.2f}  {r['band']:+.2f}  "
                  f"{r['sil_band']:+.2f}  {r['side']:+.2f}  {r['cleared']}")


def _view_of(sil, true_lens: bool) -> CameraView | None:
    """The camera view as the cues take it (``camera_view``: the lens assumed), or with
    ``true_lens`` the simulator camera's own focal length (``vision.simulator.scene.Camera``:
    1024 px per 480 rows): the most any estimate from the area could give."""
    if not true_lens:
        return camera_view(sil)
    geo = sil.geometry
    wall = (geo.wall_p, (geo.wall_p[0] + geo.wall_u[0] * geo.wall_len,
                         geo.wall_p[1] + geo.wall_u[1] * geo.wall_len))
    try:
        return CameraView.from_area([tuple(p) for p in geo.area_poly.reshape(-1, 2)], wall,
                                    sil.frame_size, focal_px=1024.0 * sil.frame_size[1] / 480.0)
    except CameraViewError:
        return None


def cube_rows(records: list[dict], settings: CockedSettings, true_lens: bool = False
              ) -> list[dict]:
    """Per die within ``wall_near`` of the wall line (its box's centre), at rest in the area
    and read: its truth (flat, or leaning on the wall or on the other die, by how much),
    whether the wall cue flags it after the front face, the pips and the edge lines
    (``flagged``, and then ``kind``: ``rim_kind``), whether another die lies within
    ``wall_cube_alone`` (``alone``) and its pips agree with the reader (``pips``), and the flat
    hypothesis's rim from its top's centre (``cube_rim``: ``scale``, ``rim``, ``past_lean``;
    nan where no rim stands out), from the pips' centre where they agree, else the reader's;
    ``cleared``: whether ``flat_by_cube`` clears it (``wall_cube_clear`` taken as 0.02 where
    it is off). With ``true_lens`` the view is the simulator camera's (``_view_of``)."""
    st = settings if settings.wall_cube_clear is not None else replace(settings,
                                                                       wall_cube_clear=0.02)
    rows = []
    nan = float("nan")
    for r in records:
        if not r["boxes"]:
            continue
        sil, frame, boxes, readings, geo, view, die, rds, flagged = _at_rest(
            r, st, _view_of(r["sil"], true_lens))
        by_rims = flat_by_rims(sil, st, frame, boxes, readings, flagged)
        flagged = [f and not c for f, c in zip(flagged, by_rims, strict=True)]
        cleared = flat_by_cube(sil, st, frame, boxes, readings, [True] * len(boxes))
        tops = top_centres(boxes, readings)
        for i, t in _at_wall(r, st, view, rds):
            pips = pips_centre(st, frame, rds[i], die)
            centre = pips or tops[i]
            try:
                slope = view.slope(*centre)
            except CameraViewError:
                continue
            seen = cube_rim(sil, st, frame, centre, [u for k, u in enumerate(tops) if k != i],
                            slope)
            alone = all(math.dist(boxes[i][0], boxes[j][0]) > st.wall_cube_alone * die
                        for j in range(len(boxes)) if j != i)
            rows.append(dict(
                seed=r["seed"], cocked=t["cocked"], on=t["cocked_on"],
                tilt=t["cocked_tilt_deg"], colour=t.get("colour"), flagged=flagged[i],
                kind=rim_kind(r, i, st) if flagged[i] and not t["cocked"] else None,
                alone=alone, pips=pips is not None, toward=slope[0],
                scale=seen.scale if seen else nan, rim=seen.rim if seen else nan,
                past_lean=seen.past_lean if seen else nan, cleared=cleared[i]))
    return rows


def _past_bars(row: dict, settings: CockedSettings) -> float:
    """How far a ``cube_rows`` row lies past both of ``flat_by_cube``'s bars (the rim's scale
    at least ``wall_cube_low``, and at least ``wall_cube_clear`` past a lean's rim): the smaller
    excess, each in its own unit; negative where it fails one."""
    bar = settings.wall_cube_clear if settings.wall_cube_clear is not None else 0.02
    return min(row["scale"] - settings.wall_cube_low, row["past_lean"] - bar,
               settings.wall_cube_high - row["scale"])


def print_cubes(rows: list[dict], settings: CockedSettings, verbose: bool = False) -> None:
    """``cube_rows``: per group (flat dice, the flat dice the wall cue flags by kind, dice
    leaning on the wall by lean angle, dice leaning on the other die) the dice whose rim is
    found, the spread (min, quartiles, max) of its scale (of the view's slope) and of how far
    it lies past a ``wall_cube_lean``-degree lean's rim; how many are alone with their pips
    agreeing (``flat_by_cube`` looks at those only), how many of those lie past its bars, how
    many it clears, and the leaning die nearest to passing the bars (alone or not)."""
    bar = settings.wall_cube_clear if settings.wall_cube_clear is not None else 0.02
    groups = [("flat", lambda r: not r["cocked"]),
              ("flat, wall cue flags", lambda r: not r["cocked"] and r["flagged"])]
    for kind in ("black", "felt hue", "cut top", "short top", "other"):
        groups.append((f"  {kind}", lambda r, k=kind: not r["cocked"] and r["kind"] == k))
    for lo, hi in ((10, 15), (15, 20), (20, 46)):
        groups.append((f"on the wall {lo}-{hi} deg", lambda r, lo=lo, hi=hi: r["cocked"]
                       and r["on"] == "wall" and lo <= r["tilt"] < hi))
    groups.append(("on the other die", lambda r: r["cocked"] and r["on"] != "wall"))
    print(f"rim: the outermost step along the flat cube's lower outline; scale: its shift in "
          f"units of the view's slope; past lean: die edges past a "
          f"{settings.wall_cube_lean:g}-degree lean's rim (bar {bar:+.2f})")
    print(f"{'dice at the wall':24s} {'found':>9s}  {'scale':30s}  {'past lean':30s}  "
          "alone+pips  past bar  cleared")
    for name, keep in groups:
        sel = [r for r in rows if keep(r)]
        seen = [r for r in sel if r["scale"] == r["scale"]]
        mine = [r for r in seen if r["alone"] and r["pips"]]
        print(f"{name:24s} {len(seen):4d}/{len(sel):<4d}  "
              f"{spread([r['scale'] for r in seen]):30s}  "
              f"{spread([r['past_lean'] for r in seen]):30s}  {len(mine):10d}  "
              f"{sum(_past_bars(r, settings) > 0 for r in mine):8d}  "
              f"{sum(r['cleared'] for r in sel)}")
    for pips, how in ((True, "its pips agreeing (the centre flat_by_cube takes)"),
                      (False, "from the reader's centre (flat_by_cube does not look)")):
        leaning = sorted((r for r in rows if r["cocked"] and r["on"] == "wall"
                          and r["pips"] == pips and r["scale"] == r["scale"]),
                         key=lambda r: -_past_bars(r, settings))
        if leaning:
            r = leaning[0]
            print(f"the die leaning on the wall nearest to passing the bars (scale "
                  f"{settings.wall_cube_low:g}..{settings.wall_cube_high:g}, past lean "
                  f"{bar:+.2f}), alone or not, {how}: {r['seed']} ({r['tilt']:.1f} deg): "
                  f"scale {r['scale']:.2f}, past lean {r['past_lean']:+.3f}: "
                  f"{'short by' if _past_bars(r, settings) <= 0 else 'PAST by'} "
                  f"{abs(_past_bars(r, settings)):.3f} (the larger shortfall, in its own unit)")
    on_die = [r for r in rows if r["cocked"] and r["on"] != "wall" and r["scale"] == r["scale"]]
    print(f"dice leaning on the other die past the bars: {sum(_past_bars(r, settings) > 0 for r in on_die)}"
          f" of {len(on_die)} found, {sum(_past_bars(r, settings) > 0 and r['alone'] for r in on_die)}"
          " of them alone (a lean on the other die tips any way)")
    if verbose:
        print("\nseed   truth          colour  flagged  kind       alone  pips   toward  scale"
              "  rim    past lean  cleared")
        for r in sorted(rows, key=lambda r: (r["cocked"], r["seed"])):
            if r["scale"] != r["scale"] and not r["flagged"]:
                continue
            truth = f"{r['on']} {r['tilt']:4.1f}" if r["cocked"] else "flat"
            print(f"{r['seed']}  {truth:14s} {r['colour']!s:7s} {r['flagged']!s:8s} "
                  f"{r['kind']!s:10s} {r['alone']!s:6s} {r['pips']!s:6s} {r['toward']:5.2f}  "
                  f"{r['scale']:5.2f}  {r['rim']:+.2f}  {r['past_lean']:+.3f}     {r['cleared']}")


def rim_crops(records: list[dict], seeds: list[int], out: Path) -> list[Path]:
    """For each die within ``wall_near`` of the wall in the throws ``seeds``, a fixture for
    ``tests/vision/test_cocked_rim.py``: the rest frame and the felt before the throw two die
    edges around its top (``SEED-I.png``, ``SEED-I-felt.png``) and ``SEED-I.json``: the truth,
    the die's size, the area and back wall in the crop's pixels, the top's centre as
    ``flat_by_rims`` takes it, the other dice's tops, the view's slope at the top (from the
    whole frame's area) and the silhouettes' change threshold."""
    import json

    st = CockedSettings()
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for r in records:
        if r["seed"] not in seeds:
            continue
        sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
        geo, view = sil.geometry, camera_view(sil)
        die = geo.die
        tops = top_centres(boxes, readings)
        for i, t in enumerate(r["truth"]):
            rd = readings[i] if i < len(readings) else None
            if t is None or rd is None or sil.start_image is None or view is None:
                continue
            if geo.wall_distance(*boxes[i][0])[0] > st.wall_near * die:
                continue
            centre = pips_centre(st, frame, rd, die) or tops[i]
            half = int(2.5 * die)  # the flat cube's rim reaches 2 slopes out
            x0, y0 = max(0, int(centre[0]) - half), max(0, int(centre[1]) - half)
            x1 = min(frame.shape[1], int(centre[0]) + half)
            y1 = min(frame.shape[0], int(centre[1]) + half)

            def shifted(p, x0=x0, y0=y0):
                return [round(float(p[0]) - x0, 2), round(float(p[1]) - y0, 2)]

            name = f"{r['seed']}-{i}"
            cv2.imwrite(str(out / f"{name}.png"), frame[y0:y1, x0:x1])
            cv2.imwrite(str(out / f"{name}-felt.png"), sil.start_image[y0:y1, x0:x1])
            wall = (geo.wall_p, (geo.wall_p[0] + geo.wall_u[0] * geo.wall_len,
                                 geo.wall_p[1] + geo.wall_u[1] * geo.wall_len))
            meta = dict(seed=r["seed"], cocked=bool(t["cocked"]),
                        tilt_deg=round(float(t["cocked_tilt_deg"]), 1), colour=t.get("colour"),
                        die_px=die, area=[shifted(p) for p in geo.area_poly.reshape(-1, 2)],
                        back_wall=[shifted(p) for p in wall], top=shifted(centre),
                        other_tops=[shifted(u) for k, u in enumerate(tops) if k != i],
                        slope=[round(v, 4) for v in view.slope(*tops[i])],
                        threshold=sil.threshold)
            (out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
            written.append(out / f"{name}.json")
    return written


def parse_set(items: list[str]) -> dict:
    """``NAME=VALUE`` pairs -> CockedSettings fields (floats, true/false, none/off for an
    optional setting turned off, or ``LOW,HIGH``)."""
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if name not in CockedSettings.__dataclass_fields__ or not value:
            raise SystemExit(f"--set {item!r}: write NAME=VALUE with NAME a CockedSettings "
                             "field (vision/cocked/)")
        if value.lower() in ("none", "off"):  # an optional setting turned off
            out[name] = None
            continue
        out[name] = {"true": True, "false": False}.get(value.lower(), None)
        if out[name] is None:
            try:
                parts = tuple(float(v) for v in value.split(","))
            except ValueError:
                raise SystemExit(f"--set {item!r}: VALUE must be a number, true/false or "
                                 "LOW,HIGH") from None
            out[name] = parts[0] if len(parts) == 1 else parts
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lean", type=Path, default=None, metavar="ONNX",
                    help="ask this lean model (tools/train_lean.py) instead of the shipped one")
    ap.add_argument("--pair", type=Path, default=None, metavar="ONNX",
                    help="ask this pair model (tools/train_pair_pick.py) instead of the shipped "
                         "one")
    sub = ap.add_subparsers(dest="step", required=True)
    cap = sub.add_parser("capture", help="simulate, track and keep the rest frames")
    cap.add_argument("--world", choices=WORLDS, default="physical")
    cap.add_argument("--seed", type=int, default=80000)
    cap.add_argument("--throws", type=int, default=200)
    cap.add_argument("--size", default="640x480", help="WIDTHxHEIGHT")
    cap.add_argument("--out", type=Path, required=True)
    cap.add_argument("--cases", default=",".join(SIM_CASES),
                     help="comma-separated scenarios taken in turn (e.g. cocked_die: many dice "
                          "leaning on the other die fast)")
    jud = sub.add_parser("judge", help="judge the cues again on kept rest frames")
    jud.add_argument("sets", type=Path, nargs="+")
    jud.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    jud.add_argument("-v", "--verbose", action="store_true", help="list each miss")
    fea = sub.add_parser("features", help="the front-edge measurements of the dice at the wall")
    fea.add_argument("sets", type=Path, nargs="+")
    fea.add_argument("--near", type=float, default=0.75,
                     help="dice whose box centre lies within this many edges of the wall line")
    fea.add_argument("--chroma", type=float, default=None,
                     help="the band's silhouette takes in the pixels off the felt's "
                          "chromaticity by more than this")
    pip = sub.add_parser("pips", help="the top's centre from its pips, the wall cue's shift")
    pip.add_argument("sets", type=Path, nargs="+")
    fac = sub.add_parser("faces", help="the top-face cue's measurements of the dice at rest")
    fac.add_argument("sets", type=Path, nargs="+")
    par = sub.add_parser("pairs", help="each throw with a die leaning on the other: the pair cue")
    par.add_argument("sets", type=Path, nargs="+")
    par.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    pk = sub.add_parser("picks", help="which die of a leaning pair the lean model, the pair "
                        "model and the two summed pick")
    pk.add_argument("sets", type=Path, nargs="+")
    pk.add_argument("--weights", default="1,2,3,4", help="pair_pick weights to compare")
    pk.add_argument("--picture", type=Path, default=None,
                    help="also draw the pairs the shipped weight mends and those it has wrong")
    gap = sub.add_parser("gaps", help="what lies between the tops of two close dice")
    gap.add_argument("sets", type=Path, nargs="+")
    gap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    gap.add_argument("--picture", type=Path, default=None,
                     help="draw the throws --seeds (PNG) instead of the table")
    gap.add_argument("--seeds", default="", help="comma-separated seeds to draw")
    ban = sub.add_parser("bands", help="what the band between two close dice's tops is made of")
    ban.add_argument("sets", type=Path, nargs="+")
    ban.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ban.add_argument("-v", "--verbose", action="store_true", help="one line per pair")
    ban.add_argument("--picture", type=Path, default=None,
                     help="draw the throws --seeds (PNG) instead of the table")
    ban.add_argument("--seeds", default="", help="comma-separated seeds to draw")
    fla = sub.add_parser("flats", help="the flat dice flagged, by the cue that flags each")
    fla.add_argument("sets", type=Path, nargs="+")
    fla.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    fla.add_argument("--why", action="store_true",
                     help="for each pair-cue flag, what each clearing proof measured")
    bnd = sub.add_parser("bound", help="close pairs' tops' centres apart and silhouettes' gap, "
                                       "flat against leaning")
    bnd.add_argument("sets", type=Path, nargs="+")
    bnd.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    sha = sub.add_parser("shadows", help="close pairs' shadow reach, flat against leaning")
    sha.add_argument("sets", type=Path, nargs="+")
    sha.add_argument("-v", "--verbose", action="store_true", help="one line per pair")
    rim = sub.add_parser("rims", help="the front face by its edge lines, dice at the wall")
    rim.add_argument("sets", type=Path, nargs="+")
    rim.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    rim.add_argument("-v", "--verbose", action="store_true", help="one line per die")
    cub = sub.add_parser("cubes", help="the dice at the wall by their flat hypothesis's rim "
                                       "(vision.flat_cube), flat against leaning")
    cub.add_argument("sets", type=Path, nargs="+")
    cub.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    cub.add_argument("--true-lens", action="store_true",
                     help="the simulator camera's focal length instead of the lens assumed")
    cub.add_argument("-v", "--verbose", action="store_true")
    crp = sub.add_parser("rimcrops", help="fixtures of dice at the wall for the edge lines' "
                                          "tests (tests/fixtures/rim_edges)")
    crp.add_argument("sets", type=Path, nargs="+")
    crp.add_argument("--seeds", required=True, help="comma-separated seeds")
    crp.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from vision.dice import DiceReader

    reader = DiceReader()
    if args.lean is not None:
        from vision.die_lean import LeanJudge

        reader.lean = LeanJudge(args.lean)
    if args.pair is not None:
        from vision.pair_pick import PairJudge

        reader.pair = PairJudge(args.pair)
    if args.step == "capture":
        w, _, h = args.size.partition("x")
        cases = [c for c in args.cases.split(",") if c]
        unknown = sorted(set(cases) - set(SIM_CASES))
        if unknown:
            raise SystemExit(f"--cases {args.cases!r}: unknown {', '.join(unknown)}; "
                             f"choose from {', '.join(SIM_CASES)}")
        records = capture(args.world, args.seed, args.throws, (int(w), int(h)), reader,
                          cases=cases)
        with open(args.out, "wb") as f:
            pickle.dump(records, f)
        print(f"{args.out}: {len(records)} throws kept of {args.throws}")
        return 0
    records = []
    for path in args.sets:
        with open(path, "rb") as f:
            records += pickle.load(f)
    if args.step == "features":
        print_features(features(records, args.near, args.chroma))
        return 0
    if args.step == "pips":
        print_pips(pip_rows(records))
        return 0
    if args.step == "faces":
        print_faces(face_rows(records, reader))
        return 0
    if args.step == "bound":
        print_bound(bound_rows(records, reader, CockedSettings(**parse_set(args.set))))
        return 0
    if args.step == "rimcrops":
        for path in rim_crops(records, [int(v) for v in args.seeds.split(",") if v], args.out):
            print(path)
        return 0
    if args.step == "rims":
        print_rims(rim_rows(records, CockedSettings(**parse_set(args.set))), args.verbose)
        return 0
    if args.step == "cubes":
        st = CockedSettings(**parse_set(args.set))
        print_cubes(cube_rows(records, st, args.true_lens), st, args.verbose)
        return 0
    if args.step == "shadows":
        print_shadows(shadow_rows(records), args.verbose)
        return 0
    if args.step == "bands" and args.picture is not None:
        draw_bands(records, [int(v) for v in args.seeds.split(",") if v],
                   CockedSettings(**parse_set(args.set)), args.picture)
        return 0
    if args.step == "bands":
        st = CockedSettings(**parse_set(args.set))
        print_bands(band_rows(records, reader, st), st, args.verbose)
        return 0
    if args.step == "flats":
        st = CockedSettings(**parse_set(args.set))
        rows = flat_cue_rows(records, reader, st, args.why)
        print_flat_cues(rows)
        if args.why:
            print_pair_why(rows, st)
        return 0
    if args.step == "gaps" and args.picture is not None:
        draw_gaps(records, [int(v) for v in args.seeds.split(",") if v],
                  CockedSettings(**parse_set(args.set)), args.picture)
        return 0
    if args.step == "gaps":
        print_gaps(gap_rows(records, reader, CockedSettings(**parse_set(args.set))))
        return 0
    if args.step == "picks":
        if reader.pair is None:
            raise SystemExit("picks: the reader has no pair model (vision/models/dice_pair.onnx "
                             "missing: git checkout vision/models, or give --pair ONNX)")
        rows = pick_rows(records, reader, CockedSettings())
        print_picks(rows, [float(w) for w in args.weights.split(",") if w])
        if args.picture is not None:
            draw_picks(rows, CockedSettings().pair_pick, args.picture)
        return 0
    if args.step == "pairs":
        print_pairs(pair_rows(records, reader, CockedSettings(**parse_set(args.set))))
        return 0
    n, misses = judge(records, CockedSettings(**parse_set(args.set)), reader)
    if args.verbose:
        print("\n".join(misses))
    flat = max(n["flat"], 1)
    print(f"{len(records)} throws: flat dice flagged {n['flat_flagged']}/{n['flat']} "
          f"({100 * n['flat_flagged'] / flat:.1f}%), cocked dice flagged "
          f"{n['cocked_flagged']}/{n['cocked']}, cocked throws unflagged "
          f"{n['cocked_throws_unflagged']}/{n['cocked_throws']}"
          + (f" ({n['cocked_throws_unflagged_unfound']} with a die not found: the operator's)"
             if n["cocked_throws_unflagged_unfound"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
