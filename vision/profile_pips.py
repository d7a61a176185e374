"""The pair's own pips: their colours learnt from the enrolment photos, so the pips' count
(``vision.pip_count``) need not only guess a die's two colours.

``count_pips`` splits the middle of a face into colours and must guess which are the body and
which the pips; on dark, smoky and coloured dice it guesses wrong or is unsure. A labelled
enrolment die says which face it shows: the colour pair whose count makes that face is the
pair's body and pips (Lab). A die is then counted with its guessed pairs and the learnt pair
whose body lies nearest its own, the two colours moved onto the die's own pixels (two-means
from the learnt pair: the light on the table is not the light of the photos); the pairs that
find a clean face must agree on it, as the guessed ones must. The pips' own colour
(``PipSettings.own_colour``: the step of colour from their surroundings) is learnt too, from
the enrolment dice its count makes: the profile counts with the learnt step beside the one
found on the die (a die's own blobs may be too few, or of a reflection's colour).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.pip_count import (
    _EDGE_PX,
    PipCount,
    PipSettings,
    _colour_pairs,
    _crop,
    _own_pair,
    _with_own,
    count_pips,
)

# the two-means that moves the learnt colours onto a die's pixels
_ROUNDS = 3


def learn_pips(frames: Sequence[np.ndarray], dice: Sequence,
               settings: PipSettings | None = None) -> np.ndarray:
    """The pair's pips from its labelled dice (``vision.dice_profile.LabelledDie``) on
    ``frames``: one row (body L, a, b, pips L, a, b; OpenCV's 8-bit Lab) per die for which one
    of ``count_pips``' guessed colour pairs, tried alone, counts its labelled face (the first
    such pair); no rows when none does."""
    s = settings or PipSettings()
    rows = []
    for d in dice:
        frame = frames[d.photo]
        found: list = []

        def candidates(middle, s_, found=found):
            found.extend(_learning_pairs(middle, s_))
            return []  # only the candidates are wanted here: no count

        count_pips(frame, d.center, d.size, 0.0, s, colours=candidates)
        for pair in found:
            got = count_pips(frame, d.center, d.size, 0.0, s, colours=lambda m, s_, p=pair: [p])
            if got.count == d.value:
                rows.append(np.concatenate(pair))
                break
    return np.array(rows, np.float32).reshape(-1, 6)


def _learning_pairs(middle: np.ndarray, s: PipSettings) -> list:
    """The colour pairs an enrolment die's labelled face is looked for with."""
    return _colour_pairs(middle, s)


def learnt_colours(pips: np.ndarray, middle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (body, pips) pair to count a face's ``middle`` pixels (Lab, N x 3) with: the learnt
    pair whose body lies nearest the middle's median, moved onto its pixels."""
    med = np.median(middle, axis=0)
    row = pips[int(np.argmin(np.linalg.norm(pips[:, :3] - med, axis=1)))]
    body, pip = row[:3].astype(np.float32), row[3:].astype(np.float32)
    for _ in range(_ROUNDS):
        to_pip = np.linalg.norm(middle - pip, axis=1) < np.linalg.norm(middle - body, axis=1)
        if to_pip.all() or not to_pip.any():
            break
        body, pip = np.median(middle[~to_pip], axis=0), np.median(middle[to_pip], axis=0)
    return body, pip


def _lab_crop(frame, center, die_px, angle):
    """The die's crop in Lab as ``count_pips`` sees it, each pixel's distance from the centre
    in die edges, and the crop's map back to the frame."""
    crop, back = _crop(frame, center, die_px, angle)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    n = crop.shape[0]
    yy, xx = np.mgrid[0:n, 0:n]
    c = n / 2 - 0.5
    return lab, np.hypot(xx - c, yy - c) / _EDGE_PX, back


def learn_own(frames: Sequence[np.ndarray], dice: Sequence,
              settings: PipSettings | None = None) -> np.ndarray:
    """The pips' own colour (``_own_pair``'s step of colour, Lab, one row per die) of each
    labelled die whose own-colour count alone makes its face; no rows when none does."""
    s = settings or PipSettings()
    rows = []
    for d in dice:
        lab, r, _ = _lab_crop(frames[d.photo], d.center, d.size, 0.0)
        own = _own_pair(lab, r, s)
        if own is not None and _with_own(own[0], r, own[1], s)[0] == d.value:
            rows.append(own[1])
    return np.array(rows, np.float32).reshape(-1, 3)


def count_pair(frame: np.ndarray, center: tuple[float, float], die_px: float, angle: float,
               pips: np.ndarray, settings: PipSettings | None = None,
               own: np.ndarray | None = None) -> PipCount:
    """A die's face counted with its guessed colour pairs and the pair's learnt one
    (``learn_pips``'s rows; none: the guessed pairs alone, as ``count_pips``), and, with
    ``own_colour``, the pips' own colour found on the die and the median of ``own``
    (``learn_own``'s rows) beside it; every colour that sees a clean face must agree."""
    s = settings or PipSettings()

    def colours(middle, s_):
        if not len(pips):
            return _colour_pairs(middle, s_)
        body, pip = learnt_colours(pips, middle)
        ours = [(body, pip)] if np.linalg.norm(pip - body) >= s_.min_contrast else []
        return _colour_pairs(middle, s_) + ours

    if not s.own_colour or own is None or not len(own):
        return count_pips(frame, center, die_px, angle, s, colours=colours)
    got = count_pips(frame, center, die_px, angle, s, colours=colours)
    if got.why == "colours disagree":
        return got
    lab, r, back = _lab_crop(frame, center, die_px, angle)
    k = 2 * int(s.own_window * _EDGE_PX / 2) + 1
    around = cv2.medianBlur(np.clip(lab, 0, 255).astype(np.uint8), k).astype(np.float32)
    count, pts, quality, why = _with_own(lab - around, r, np.median(own, axis=0), s)
    if count is None or (got.count is not None and got.quality >= quality
                         and got.count == count):
        return got
    if got.count is not None and got.count != count:
        # two colours that each see a clean face, and not the same one: no count
        return PipCount(None, (), 0.0, "colours disagree")
    pts = tuple((float(back[0, 0] * x + back[0, 1] * y + back[0, 2]),
                 float(back[1, 0] * x + back[1, 1] * y + back[1, 2])) for x, y in pts)
    return PipCount(count, pts, quality, why)
