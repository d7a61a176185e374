"""How faithfully ``vision.profile_draw`` draws the faces of a pair's own dice, measured on the
enrolment photos alone (the two photos ``bench/read_profile.py`` learns each nell-byler kind
from), one core:

    taskset -c 0 python bench/draw_fidelity.py            # the die's own pips moved (as shipped)
    taskset -c 0 python bench/draw_fidelity.py --discs    # pips drawn as discs of their colour

For each die drawn: the cosine distance (its four quarter turns, each view's nearest) from its
photographed crop to its own face drawn again (the gap: 0 were the drawing perfect), and
whether its photographed crop lies nearest its own face among its six faces drawn (the
profile's own-face check, ``vision.dice_profile._own_face_nearest``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import read_accuracy  # noqa: E402
from reader_data import body_colour, fix_labels, kinds_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score the faces drawn on the enrolment dice.")
    ap.add_argument("--discs", action="store_true",
                    help="draw the pips as discs of their colour, not the die's own pips moved")
    ap.add_argument("--kinds", type=int, default=9, metavar="K",
                    help="nell-byler's dice fall into K colours (default 9)")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision.profile_draw as draw
    from vision.dice import DiceReader
    from vision.dice_profile import _unit, locate, read_yolo_labels

    draw._TRANSPLANT = not a.discs
    reader = DiceReader()
    photos = []
    for jpg in sorted((read_accuracy.PHOTOS / "nell-byler").glob("*.jpg")):
        frame = cv2.imread(str(jpg))
        h, w = frame.shape[:2]
        txt = jpg.with_suffix(".txt")
        photos.append((jpg, frame, fix_labels(txt, read_yolo_labels(txt, w, h))))
    colours = np.array([body_colour(f, cx, cy, 0.88 * max(bw, bh))
                        for _, f, ls in photos for _, cx, cy, bw, bh in ls])
    kind = kinds_of(colours, a.kinds)
    per_photo_kinds, n = [], 0
    for _, _, ls in photos:
        per_photo_kinds.append(kind[n:n + len(ls)].tolist())
        n += len(ls)
    gaps, right, total = [], 0, 0
    for k in sorted(set(kind.tolist())):
        shown = {jpg.name: [lab[0] for lab, kk in zip(ls, kp, strict=True) if kk == k]
                 for (jpg, _, ls), kp in zip(photos, per_photo_kinds, strict=True) if k in kp}
        learn_from = read_accuracy._learning_photos(shown, 2)
        k_right = k_total = 0
        for (jpg, frame, ls), kp in zip(photos, per_photo_kinds, strict=True):
            if jpg.name not in learn_from:
                continue
            dice = locate(reader, frame, [lab for lab, kk in zip(ls, kp, strict=True)
                                          if kk == k], 0)
            real = _unit(reader.features(frame, [(d.center[0], d.center[1], d.size)
                                                 for d in dice], turns=4))
            faces: dict[int, dict[int, np.ndarray]] = {}
            for face in range(1, 7):
                drawn, which = draw.redraw(frame, dice, face)
                if not which:
                    continue
                f = _unit(reader.features(drawn, [(dice[i].center[0], dice[i].center[1],
                                                   dice[i].size) for i in which], turns=4))
                for j, i in enumerate(which):
                    faces.setdefault(i, {})[face] = f[j * 4:(j + 1) * 4]
            for i, d in enumerate(dice):
                if len(faces.get(i, {})) < 6:
                    continue
                q = real[i * 4:(i + 1) * 4]
                dist = [float((1.0 - q @ faces[i][f].T).min(axis=1).mean()) for f in range(1, 7)]
                gaps.append(dist[d.value - 1])
                k_total += 1
                k_right += int(np.argmin(dist)) + 1 == d.value
        print(f"nell-byler kind {k}: {k_right} of {k_total} dice drawn lie nearest their own face",
              flush=True)
        right, total = right + k_right, total + k_total
    print(f"every kind: {right} of {total} dice drawn lie nearest their own face; the gap to "
          f"their own face drawn: mean {np.mean(gaps):.3f}, median {np.median(gaps):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
