"""A profile of one pair of dice: the table learns the faces of its own dice.

A profile keeps, per face, the shipped face classifier's picture of that face on this pair (its
last map before the linear layer, 1,600 numbers, for each crop of a labelled die, turned by
quarter turns and cut a little off centre and off size), and a face head over those pictures
(the classifier's face rows moved to fit the pair). ``DiceProfile.judge`` sees a die four ways
(its crop's quarter turns): whether it is of the pair (its nearest picture within
``match_distance``; else the general reader's reading stands: a die that matches neither is
still not guessed), the face the head gives and how surely, the face of the nearest
learnt die, and the face it lies nearest as over the learnt dice drawn showing every face
(``vision.profile_draw``). ``DiceProfile.heed`` then decides the die from that verdict and the general reader's
reading (its rules are in its docstring and in docs/reader.md).

``match_distance`` is calibrated when the profile is learnt, on crops of the same pair held out
from the pictures (each photo read with the pictures of the others). numpy only, so it runs on
the Pi beside ``cv2.dnn``. Saved as one ``.npz`` (pictures, faces, a JSON card).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.profile_draw import redraw
from vision.profile_pips import count_pair, learn_own, learn_pips

PROFILE_FORMAT = 1
# a die's crop is cut again at these offsets (die edges) and sizes when learning, so the
# pictures cover the small errors of the detector's centre and size
_JITTER = ((0.0, 0.0, 1.0), (0.06, 0.0, 1.0), (-0.06, 0.0, 1.0), (0.0, 0.06, 1.0),
           (0.0, -0.06, 1.0), (0.0, 0.0, 0.92), (0.0, 0.0, 1.08))
# pictures a learnt die: each cut by each quarter turn, die by die
_CROPS_PER_DIE = 4 * len(_JITTER)
# pictures a face drawn on a learnt die: the plain cut by each quarter turn
_DRAWN_CROPS = 4
# match_distance = the held-out crops' own-face distance at this quantile, times _SLACK; never
# above _MAX_DISTANCE (a cosine distance past which no two crops are one face of one pair)
_QUANTILE = 0.98
_SLACK = 1.15
_MAX_DISTANCE = 0.35
_DEFAULT_DISTANCE = 0.2  # too few held-out crops to calibrate on
# the pair's face head: gradient steps, step size (times 1 / mean |x|^2) and pull back to the
# shipped weights
_HEAD_STEPS = 300
_HEAD_LR = 2.0
_HEAD_PULL = 0.05
# a face the head gives less than this is not read with the profile (raised by calibration
# when a held-out crop was misread above it)
_HEAD_FLOOR = 0.9
_HEAD_CEILING = 0.995


class ProfileError(ValueError):
    """A profile that cannot be learnt or loaded (the message says why and what to do)."""


@dataclass(frozen=True)
class LabelledDie:
    """One die of the pair on a learning picture: where it lies and its top face."""

    center: tuple[float, float]
    size: float
    value: int
    photo: int  # which picture (held-out calibration leaves one picture out at a time)


@dataclass(frozen=True)
class ProfileVerdict:
    """What the profile says of one crop.

    :param of_pair: the crop lies within ``match_distance`` of the profile's pictures (it looks
        like a die of this pair).
    :param nearest: the face the pair's face head finds likeliest.
    :param value: ``nearest`` when the crop is of the pair and the head gives it at least the
        profile's ``min_confidence``, else None.
    :param distance: cosine distance to the nearest picture (0 same, 1 unrelated).
    :param confidence: the pair's face head's probability of ``nearest``.
    :param pictured: the face of the learnt die nearest the crop (the head and the learnt
        dice are two ways of seeing the pair; where they differ, neither is sure).
    :param probabilities: the head's probability of each face 1..6 (averaged over the views).
    :param face_distances: the cosine distance to the nearest picture of each face 1..6 (inf
        for a face the profile has no picture of).
    :param die_distances: the distance to the nearest learnt die of each face 1..6 (a die's
        distance: over the crop's views, the mean of each view's nearest picture of that die;
        inf for a face no die showed); ``pictured`` is the face of the nearest.
    :param drawn: the face the crop lies nearest as over the learnt dice drawn showing each
        face (``vision.profile_draw``, ``DiceProfile._drawn_faces``; 0: the profile drew none).
    :param drawn_margin: how much nearer (cosine distance, averaged) than the next face.
    """

    of_pair: bool
    nearest: int
    value: int | None
    distance: float
    confidence: float
    pictured: int = 0
    probabilities: tuple[float, ...] = ()
    face_distances: tuple[float, ...] = ()
    die_distances: tuple[float, ...] = ()
    drawn: int = 0
    drawn_margin: float = 0.0


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)


def _nearest_per_face(pictures: np.ndarray, faces: np.ndarray,
                      queries: np.ndarray) -> np.ndarray:
    """(n_queries, 6) cosine distance from each query to the nearest picture of each face
    (inf for a face with no picture)."""
    return _min_per_face(1.0 - queries @ pictures.T, faces)


def _min_per_face(d: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """(rows, 6): per row of distances ``d`` (a column per picture or die of face ``faces``),
    the least of each face 1..6 (inf for a face no column is of)."""
    out = np.full((len(d), 6), np.inf, np.float32)
    for f in range(1, 7):
        cols = faces == f
        if cols.any():
            out[:, f - 1] = d[:, cols].min(axis=1)
    return out


def _nearest_die_per_face(d: np.ndarray, faces: np.ndarray, per_die: int,
                          views: int) -> np.ndarray:
    """(n_dice_asked, 6) distance from each die asked to the nearest learnt die of each face
    (inf for a face no die showed), from ``d``, the distances of each view (``views`` rows a
    die asked) to each picture (``per_die`` columns a learnt die, of face ``faces``). A
    learnt die's distance is the mean over the views of each view's nearest picture of it:
    one picture out of thousands that happens to lie near one view says less than a whole die
    that lies near every view."""
    n_dice = d.shape[1] // per_die
    d = d.reshape(len(d) // views, views, n_dice, per_die).min(axis=3).mean(axis=1)
    return _min_per_face(d, faces[::per_die])


def _pips_make(count, face: int) -> bool:
    """Whether the die's pips' count (``count()``, a ``PipCount`` or None; ``count`` None:
    not asked) cleanly makes ``face``."""
    if count is None:
        return False
    got = count()
    return got is not None and got.count == face


def fit_head(x: np.ndarray, faces: np.ndarray, w0: np.ndarray, b0: np.ndarray,
             steps: int = _HEAD_STEPS) -> tuple[np.ndarray, np.ndarray]:
    """The shipped classifier's six face rows (``w0`` 6xD, ``b0`` 6) moved to fit this pair's
    crops: softmax cross-entropy by gradient descent, pulled back towards the shipped weights
    (so a few crops adapt it rather than replace it). In float32: the products of a thousand
    crops by 1,600 numbers are most of a profile's learning time, and half as long so."""
    w, b = w0.astype(np.float32).copy(), b0.astype(np.float32).copy()
    x = np.ascontiguousarray(x, np.float32)
    y = np.eye(6, dtype=np.float32)[faces.astype(int) - 1]
    scale = 1.0 / max(1e-6, float(np.mean(np.sum(x * x, axis=1))))
    for _ in range(steps):
        z = x @ w.T + b
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / len(x)
        w -= np.float32(_HEAD_LR * scale) * (g.T @ x + np.float32(_HEAD_PULL) * (w - w0))
        b -= np.float32(_HEAD_LR) * (g.sum(axis=0) + np.float32(_HEAD_PULL) * (b - b0))
    return w, b


def head_probabilities(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    z = x.astype(np.float64) @ w.T.astype(np.float64) + b
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


class DiceProfile:
    """The learnt faces of one pair of dice (``learn`` or ``load``; ``judge`` crops).

    :param pictures: the pair's crops as the classifier sees them (rows of features).
    :param faces: the face 1..6 of each picture.
    :param head: the pair's face head (6 x D weights, 6 biases) over the same features.
    :param card: what was learnt and the thresholds calibrated (JSON-able).
    :param pips: the pair's pips' colours (``vision.profile_pips.learn_pips``'s rows; none: a
        profile learnt before they were, or of dice whose pips no count made out).
    :param own: the pips' own colour (``vision.profile_pips.learn_own``'s rows; none: the
        count finds it on each die, as the general reader's does).
    :param heed_pips: whether ``heed`` asks the pair's pips (on: with the pips' own colour
        learnt, they read one more of the kinds' own dice and misread no stranger more,
        docs/reader.md "What the pair's own pips add").
    """

    def __init__(self, pictures: np.ndarray, faces: np.ndarray,
                 head: tuple[np.ndarray, np.ndarray], card: dict, pips: np.ndarray | None = None,
                 heed_pips: bool = True, own: np.ndarray | None = None,
                 drawn: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                 heed_drawn: bool = True):
        self.pips = np.zeros((0, 6), np.float32) if pips is None else np.asarray(pips, np.float32)
        self.own = np.zeros((0, 3), np.float32) if own is None else np.asarray(own, np.float32)
        self.heed_pips = heed_pips
        self.heed_drawn = heed_drawn
        if drawn is None:
            drawn = (np.zeros((0, np.shape(pictures)[1]), np.float32), np.zeros(0, np.int8),
                     np.zeros(0, np.int16))
        self.drawn = _unit(drawn[0]) if len(drawn[0]) else np.asarray(drawn[0], np.float32)
        self.drawn_faces = np.asarray(drawn[1], np.int8)
        self.drawn_source = np.asarray(drawn[2], np.int16)
        self.pictures = _unit(pictures)
        self.faces = np.asarray(faces, np.int8)
        self.head = (np.asarray(head[0], np.float32), np.asarray(head[1], np.float32))
        self.card = card
        self.match_distance = float(card["match_distance"])
        self.min_confidence = float(card.get("min_confidence", _HEAD_FLOOR))
        self._known = frozenset(int(f) for f in np.unique(self.faces))
        self.crops_per_die = int(card.get("crops_per_die", _CROPS_PER_DIE))
        if self.crops_per_die < 1 or len(self.faces) % self.crops_per_die:
            raise ProfileError(f"a profile of {len(self.faces)} pictures cannot hold "
                               f"{self.crops_per_die} a die: learn it again")
        self.drawn_per_die = int(card.get("drawn_crops_per_die", self.crops_per_die))
        if len(self.drawn_faces) % (6 * max(1, self.drawn_per_die)) or len(self.drawn) != len(
                self.drawn_faces):
            raise ProfileError(f"a profile of {len(self.drawn_faces)} drawn pictures cannot "
                               f"hold {self.drawn_per_die} a die: learn it again")

    @property
    def known_faces(self) -> frozenset[int]:
        """The faces the profile has pictures of."""
        return self._known

    def count(self, frame: np.ndarray, reading, settings=None):
        """The pips' count of the die of ``reading`` with the pair's own pips' colours beside
        the guessed ones (``vision.profile_pips.count_pair``); None when the profile learnt
        none (then the pips never sway its verdict)."""
        if not len(self.pips):
            return None
        return count_pair(frame, reading.center, reading.box[1][0], reading.box[2], self.pips,
                          settings, self.own)

    def judge(self, features: np.ndarray, views: int = 1) -> list[ProfileVerdict]:
        """A verdict per crop's features (rows of ``DiceReader.features``). With ``views`` > 1
        the rows come ``views`` to a die (its crop turned by quarter turns, as
        ``DiceReader.features(turns=4)`` gives them): the head's probabilities are averaged
        over them, the nearest pictures of each face are those nearest any view, and a face is
        given only when the nearest learnt die is of the face the head gives (two ways of
        seeing the pair that agree; a crop half of a pair's views call another face is not
        guessed)."""
        if len(features) == 0:
            return []
        n = len(features) // views
        d = 1.0 - _unit(features) @ self.pictures.T
        near = _min_per_face(d, self.faces).reshape(n, views, 6).min(axis=1)
        kin = _nearest_die_per_face(d, self.faces, self.crops_per_die, views)
        probs = head_probabilities(features, *self.head).reshape(n, views, 6).mean(axis=1)
        drawn = self._drawn_faces(features, views)
        out = []
        for row, dice, p, dd in zip(near, kin, probs, drawn, strict=True):
            d1 = float(row.min())
            face = int(np.argmax(p)) + 1
            pictured = int(np.argmin(dice)) + 1
            of_pair = d1 <= self.match_distance
            sure = (of_pair and float(p[face - 1]) >= self.min_confidence
                    and (views == 1 or pictured == face))
            out.append(ProfileVerdict(of_pair, face, face if sure else None, d1,
                                      float(p[face - 1]), pictured,
                                      tuple(float(q) for q in p), tuple(float(q) for q in row),
                                      tuple(float(q) for q in dice),
                                      dd[0], dd[1]))
        return out

    def _drawn_faces(self, features: np.ndarray, views: int) -> list[tuple[int, float]]:
        """Per die asked (``views`` rows of ``features`` each), the face it lies nearest as
        over the learnt dice drawn showing each face, and how much nearer than the next face;
        (0, 0.0) where the profile drew none. A drawn die's distance is the mean over the views
        of each view's nearest picture of it; a face's, the mean over the learnt dice drawn.
        Each learnt die is drawn six ways, its own face too, its body and the drawing's own
        look the same in all six: over every die of the pair, the face is chosen on the pips,
        not on which die's body is most like the die's (the photographed die nearest is often
        one of the same look showing another face)."""
        n = len(features) // views
        if not len(self.drawn):
            return [(0, 0.0)] * n
        d = (1.0 - _unit(features) @ self.drawn.T).reshape(n, views, -1, 6, self.drawn_per_die)
        dist = d.min(axis=4).mean(axis=1).mean(axis=1)  # (dice asked, 6)
        order = np.argsort(dist, axis=1)
        return [(int(o[0]) + 1, float(row[o[1]] - row[o[0]]))
                for row, o in zip(dist, order, strict=True)]

    def heed(self, reading, verdict: ProfileVerdict, sure: float, count=None):
        """The general reader's ``reading`` (a ``vision.dice.DieReading``) of one die, with
        this profile's ``verdict`` of it heeded.

        * A die unlike the pair's pictures (not ``of_pair``) keeps the general reading: a die
          that matches neither the profile nor the general reader is still not guessed.
        * A face the profile gives surely is read, unless the general reader reads another
          face (two that disagree give no value: the operator rules). A die the general
          reader leans to see as a face the profile never saw is left to the operator (the
          profile cannot tell that face from its nearest).
        * Where the profile hesitates, the general reading stands, unless the general reader
          is not sure of it either (below ``sure``) and the nearest learnt die is of another
          face; that die is not heeded when the face head still gives the general reader's
          face at least ``min_confidence`` (the head is right on more of the pair's crops
          than the nearest die, which two photos of a pair cannot cover), nor when the
          profile has no picture of that face (a nearest die cannot gainsay a face it never
          saw), nor when the pair's pips (``count``, a function giving the die's
          ``DiceProfile.count``) make the general reader's face, nor (``heed_drawn``) when
          the die lies nearest as the general reader's face over the learnt dice drawn
          showing each face (``ProfileVerdict.drawn``).
        * A die neither reads (the general reader unread, the profile hesitating) is read
          where the pair's pips, the head and the nearest learnt die name one face.

        The pair's pips are asked only with ``heed_pips``.
        """
        v, r = verdict, reading
        if not v.of_pair:
            return r
        if not self.heed_pips:
            count = None
        if v.value is None:
            if (r.value is not None and r.confidence < sure and v.pictured != r.value
                    and r.value in self._known
                    and not (v.probabilities
                             and v.probabilities[r.value - 1] >= self.min_confidence)):
                if self.heed_drawn and v.drawn == r.value:
                    return r
                return r if _pips_make(count, r.value) else replace(r, value=None)
            if r.value is None and v.pictured == v.nearest and _pips_make(count, v.nearest):
                return replace(r, value=v.nearest, best_face=v.nearest, confidence=v.confidence)
            return r
        if r.value is not None and r.value != v.value:
            return replace(r, value=None)
        if r.value is None and (r.best_face == v.value or r.best_face in self._known):
            return replace(r, value=v.value, best_face=v.value, confidence=v.confidence)
        return r

    # ------------------------------------------------------------------ files

    def save(self, path: str | Path) -> Path:
        """Write the profile to ``path`` (``.npz`` is added when missing); the path written."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, pictures=self.pictures.astype(np.float16), faces=self.faces,
                                head_w=self.head[0], head_b=self.head[1], pips=self.pips, own=self.own,
                                drawn=self.drawn.astype(np.float16), drawn_faces=self.drawn_faces,
                                drawn_source=self.drawn_source,
                                card=np.frombuffer(json.dumps(self.card).encode(), np.uint8))
        return path

    @classmethod
    def load(cls, path: str | Path) -> DiceProfile:
        path = Path(path)
        if not path.is_file():
            raise ProfileError(f"dice profile {path}: no such file (learn one with "
                               "`tablectl dice learn PROFILE IMAGE...`)")
        try:
            with np.load(path, allow_pickle=False) as z:
                card = json.loads(bytes(z["card"]).decode())
                pictures, faces = z["pictures"].astype(np.float32), z["faces"]
                head = (z["head_w"], z["head_b"])
                # a profile learnt before the pips were reads as it did
                pips = z["pips"] if "pips" in z.files else None
                own = z["own"] if "own" in z.files else None
                # nor are faces drawn in a profile learnt before they were
                drawn = ((z["drawn"].astype(np.float32), z["drawn_faces"], z["drawn_source"])
                         if "drawn" in z.files else None)
        except (OSError, ValueError, KeyError):
            # numpy's own message for a file that is no .npz advises loading it with pickles,
            # which a profile never holds: say only what the file is not
            raise ProfileError(f"dice profile {path} is not a dice profile (a profile is the "
                               "file `tablectl dice learn PROFILE IMAGE...` writes): learn it "
                               "again") from None
        if card.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"dice profile {path} is of format {card.get('format')!r}, this "
                               f"reader reads format {PROFILE_FORMAT}: learn it again")
        if pictures.ndim != 2 or len(pictures) != len(faces) or not len(faces):
            raise ProfileError(f"dice profile {path} holds no pictures: learn it again")
        if head[0].shape != (6, pictures.shape[1]) or head[1].shape != (6,):
            raise ProfileError(f"dice profile {path}: its face head does not fit its pictures "
                               "(learn it again)")
        if pips is not None and (pips.ndim != 2 or pips.shape[1] != 6):
            raise ProfileError(f"dice profile {path}: its pips are not colour pairs (learn it "
                               "again)")
        if own is not None and (own.ndim != 2 or own.shape[1] != 3):
            raise ProfileError(f"dice profile {path}: its pips' own colour is not a colour "
                               "(learn it again)")
        if drawn is not None and (drawn[0].ndim != 2 or drawn[0].shape[1:] != pictures.shape[1:]
                                  or len(drawn[0]) != len(drawn[1])):
            raise ProfileError(f"dice profile {path}: its drawn faces do not fit its pictures "
                               "(learn it again)")
        return cls(pictures, faces, head, card, pips, own=own, drawn=drawn)


def learn(reader, frames: Sequence[np.ndarray], dice: Sequence[LabelledDie],
          name: str = "", draw: bool = True) -> DiceProfile:
    """A profile of the pair from its labelled dice on ``frames`` (``LabelledDie.photo`` is the
    index of the frame). ``reader`` is the general ``DiceReader``: its classifier gives the
    features and the face head the profile starts from. ``draw``: also the pictures of each
    die drawn showing every other face (``draw_faces``)."""
    if not dice:
        raise ProfileError("no labelled die to learn from")
    feats, faces, photos, plain = [], [], [], []
    for p, frame in enumerate(frames):
        mine = [d for d in dice if d.photo == p]
        if not mine:
            continue
        cuts, owners = [], []
        for n, d in enumerate(mine):
            for dx, dy, k in _JITTER:
                cuts.append((d.center[0] + dx * d.size, d.center[1] + dy * d.size, d.size * k))
                owners.append(n)
        f = reader.features(frame, cuts, turns=4)  # (len(cuts) * 4, D), turns innermost
        for i, n in enumerate(owners):
            for t in range(4):
                feats.append(f[i * 4 + t])
                faces.append(mine[n].value)
                photos.append(p)
                plain.append(i % len(_JITTER) == 0 and t == 0)
    x = np.array(feats, np.float32)
    faces_a = np.array(faces, np.int8)
    photos_a = np.array(photos)
    plain_a = np.array(plain)
    w0, b0 = reader.face_head()
    match_distance, min_confidence, held = _calibrate(x, faces_a, photos_a, plain_a, w0, b0)
    card = {
        "format": PROFILE_FORMAT,
        "name": name,
        "dice": len(dice),
        "photos": int(len(set(photos))),
        "faces": {str(f): int(sum(1 for d in dice if d.value == f)) for f in range(1, 7)},
        "crops_per_die": _CROPS_PER_DIE,
        "match_distance": round(match_distance, 4),
        "min_confidence": round(min_confidence, 4),
        "held_out": held,
    }
    pips = learn_pips(frames, dice, reader.tuning.pip_count)
    own = learn_own(frames, dice, reader.tuning.pip_count)
    card["pips"], card["own_pips"] = len(pips), len(own)
    drawn = draw_faces(reader, frames, dice) if draw else None
    if drawn is not None:
        card["drawn"] = int(len(drawn[1]) // (6 * _DRAWN_CROPS))
        card["drawn_crops_per_die"] = _DRAWN_CROPS
    return DiceProfile(x, faces_a, fit_head(x, faces_a, w0, b0), card, pips, own=own,
                       drawn=drawn)


def draw_faces(reader, frames: Sequence[np.ndarray],
               dice: Sequence[LabelledDie]) -> tuple[np.ndarray, np.ndarray] | None:
    """The pictures (rows of features, ``_DRAWN_CROPS`` a die, the six faces of one learnt die
    after another) of each labelled die drawn showing each face (those whose own crop lies
    nearest their own face drawn, ``_own_face_nearest``) (``vision.profile_draw.redraw``: its pips painted out,
    the face's drawn in their colour), and their faces; None when no die could be drawn."""
    jitter = _JITTER[:_DRAWN_CROPS // 4]
    per_die = []  # per learnt die drawn: its six faces' pictures, (6 * _DRAWN_CROPS, D)
    sources, first = [], 0  # the index of each learnt die drawn among the learnt dice
    for p, frame in enumerate(frames):
        mine = [d for d in dice if d.photo == p]
        if not mine:
            continue
        by_face = []
        for face in range(1, 7):
            painted, which = redraw(frame, mine, face)
            cuts = [(mine[i].center[0] + dx * mine[i].size, mine[i].center[1] + dy * mine[i].size,
                     mine[i].size * k) for i in which for dx, dy, k in jitter]
            f = reader.features(painted, cuts, turns=4) if cuts else None
            by_face.append({i: f[j * _DRAWN_CROPS:(j + 1) * _DRAWN_CROPS]
                            for j, i in enumerate(which)})
        # the fit does not depend on the face drawn: a die is drawn six ways or not at all
        both = sorted(set.intersection(*(set(b) for b in by_face)))
        real = _unit(reader.features(frame, [(mine[i].center[0], mine[i].center[1], mine[i].size)
                                             for i in both], turns=4)) if both else None
        for j, i in enumerate(both):
            six = np.concatenate([b[i] for b in by_face])
            if _own_face_nearest(real[j * 4:(j + 1) * 4], six, mine[i].value):
                per_die.append(six)
                sources.append(first + i)
        first += len(mine)
    if not per_die:
        return None
    faces = np.repeat(np.arange(1, 7, dtype=np.int8), _DRAWN_CROPS)
    return (np.concatenate(per_die).astype(np.float32),
            np.tile(faces, len(per_die)), np.repeat(np.array(sources, np.int16), 6 * _DRAWN_CROPS))


def _own_face_nearest(real: np.ndarray, six: np.ndarray, value: int) -> bool:
    """Whether a learnt die's own crop (its four quarter turns, unit rows) lies nearest its
    own face among its six drawn faces (``six``, ``_DRAWN_CROPS`` rows a face): a die whose
    drawing the classifier does not take for the face photographed is not kept (its pips were
    not painted out cleanly, or drawn where they are not)."""
    d = (1.0 - real @ _unit(six).T).reshape(len(real), 6, -1).min(axis=2).mean(axis=0)
    return int(np.argmin(d)) + 1 == value


def _calibrate(x, faces, photos, plain, w0, b0) -> tuple[float, float, dict]:
    """The match distance and the head's confidence floor from crops held out of the learning:
    each photo's plain crops (not cut off centre, not turned) judged by a profile of the other
    photos (with one photo, each die by the others). Returns them and the held-out counts."""
    groups = photos if len(set(photos.tolist())) > 1 else np.arange(len(photos)) // (
        4 * len(_JITTER))
    unit = _unit(x)
    own, right, wrong, floor = [], 0, 0, _HEAD_FLOOR
    for g in np.unique(groups):
        test = plain & (groups == g)
        rest = groups != g
        if not test.any() or not rest.any():
            continue
        near = _nearest_per_face(unit[rest], faces[rest], unit[test])
        own += [float(r.min()) for r in near]
        p = head_probabilities(x[test], *fit_head(x[rest], faces[rest], w0, b0))
        for q, face in zip(p, faces[test], strict=True):
            best = int(np.argmax(q)) + 1
            if best == face:
                right += 1
            else:
                wrong += 1
                floor = max(floor, min(_HEAD_CEILING, float(q[best - 1]) + 0.01))
    if len(own) >= 8:
        dist = min(_MAX_DISTANCE, float(np.quantile(own, _QUANTILE)) * _SLACK)
    else:
        dist = _DEFAULT_DISTANCE
    return dist, floor, {"crops": right + wrong, "right": right, "wrong": wrong}


def read_yolo_labels(path: str | Path, width: int, height: int) -> list[tuple[int, float, float,
                                                                              float, float]]:
    """(value, cx, cy, w, h) in pixels per line ``class cx cy w h`` (normalised; class = face
    value - 1) of a label file. ProfileError naming the file and line when a line is not that."""
    path = Path(path)
    if not path.is_file():
        raise ProfileError(f"{path}: no label file beside the image (one line `class cx cy w h` "
                           "per die, class = face value - 1)")
    out = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            c, cx, cy, w, h = (float(v) for v in line.split())
        except ValueError:
            raise ProfileError(f"{path}:{n}: {line.strip()!r} is not `class cx cy w h`") from None
        if c != int(c) or not 0 <= c <= 5 or not (0 <= cx <= 1 and 0 <= cy <= 1 and w > 0
                                                   and h > 0):
            raise ProfileError(f"{path}:{n}: {line.strip()!r}: class must be 0..5 (face - 1) "
                               "and cx cy w h normalised to the image (0..1)")
        out.append((int(c) + 1, cx * width, cy * height, w * width, h * height))
    return out


def locate(reader, frame: np.ndarray, labels: Sequence[tuple[int, float, float, float, float]],
           photo: int, found=None) -> list[LabelledDie]:
    """The labelled dice of a picture where the reader sees them: each label is matched to the
    nearest die ``reader.find`` gives (within the photo sets' scoring radius), so a profile
    learns the very crops it will be asked about; a label with no die found there is read where
    the detector, looking closer, puts it."""
    found = list(reader.find(frame) if found is None else found)
    pairs = sorted(
        (float(np.hypot(d.center[0] - cx, d.center[1] - cy)), li, di)
        for li, (_, cx, cy, w, h) in enumerate(labels)
        for di, d in enumerate(found)
        if np.hypot(d.center[0] - cx, d.center[1] - cy) <= max(0.75 * max(w, h), 24.0))
    at: dict[int, tuple[tuple[float, float], float]] = {}
    used: set[int] = set()
    for _, li, di in pairs:
        if li not in at and di not in used:
            at[li] = (found[di].center, found[di].box[1][0])
            used.add(di)
    rest = [li for li in range(len(labels)) if li not in at]
    if rest:
        got = reader.read_at(frame, [((labels[li][1], labels[li][2]),
                                      (labels[li][3], labels[li][4]), 0.0) for li in rest])
        for li, r in zip(rest, got, strict=True):
            at[li] = (r.center, r.box[1][0])
    return [LabelledDie(at[li][0], float(at[li][1]), labels[li][0], photo)
            for li in range(len(labels))]
