"""The pair's own pips: their colours learnt from the enrolment photos, so the pips' count
(``vision.pip_count``) need not only guess a die's two colours.

``count_pips`` splits the middle of a face into colours and must guess which are the body and
which the pips; on dark, smoky and coloured dice it guesses wrong or is unsure. A labelled
enrolment die says which face it shows: the colour pair whose count makes that face is the
pair's body and pips (Lab). A die is then counted with its guessed pairs and the learnt pair
whose body lies nearest its own, the two colours moved onto the die's own pixels (two-means
from the learnt pair: the light on the table is not the light of the photos); the pairs that
find a clean face must agree on it, as the guessed ones must.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.pip_count import PipCount, PipSettings, _colour_pairs, count_pips

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


def count_pair(frame: np.ndarray, center: tuple[float, float], die_px: float, angle: float,
               pips: np.ndarray, settings: PipSettings | None = None) -> PipCount:
    """A die's face counted with its guessed colour pairs and the pair's learnt one
    (``learn_pips``'s rows; none: the guessed pairs alone, as ``count_pips``)."""
    if not len(pips):
        return count_pips(frame, center, die_px, angle, settings)

    def colours(middle, s):
        body, pip = learnt_colours(pips, middle)
        ours = [(body, pip)] if np.linalg.norm(pip - body) >= s.min_contrast else []
        return _colour_pairs(middle, s) + ours

    return count_pips(frame, center, die_px, angle, settings, colours=colours)
