"""Finding dice in a BGR frame and reading their top faces (1..6).

Small nets, shipped as ONNX in ``vision/models`` and run with ``cv2.dnn`` only:

* a fully convolutional *detector* that marks die centres on a heat map (one cell per 4 pixels
  of a half-size frame) with each die's size, so touching dice stay apart and any colour of die
  is found;
* a *face classifier* that reads a 40x40 crop of one die, cut square to its edges, into 8
  classes: faces 1..6, ``cocked`` (top face not square to the camera, or no legal face) and
  ``not a die``. Its softmax gives the confidence; below the threshold chosen on the tuning
  photos the value is ``None`` (the operator rules) rather than a guess. A crop it is unsure of
  is also read by two more classifiers trained apart (the second opinions), and the three
  averaged.

The thresholds live in ``vision/models/dice_reader.json`` beside the models.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.dice_crop import CROP_PX, CROP_SCALE, crop_die, die_angles
from vision.dice_profile import DiceProfile, ProfileError
from vision.die_lean import LeanJudge, LeanModelError

MODEL_DIR = Path(__file__).resolve().parent / "models"
DET_STRIDE = 4  # detector output cell, in detector-input pixels
COCKED, BACKGROUND = 6, 7  # classifier classes after the six faces
# The detector was trained on dice of about this many pixels (edge) at its input.
DET_DIE_PX = 22.0

Box = tuple[tuple[float, float], tuple[float, float], float]


class ReaderError(ValueError):
    """A frame or image file the reader cannot use (the message says which and why)."""


@dataclass(frozen=True)
class DieReading:
    """One die as the camera sees it.

    :param value: the top face 1..6, or None when it cannot be read with confidence.
    :param center: the top face's centre, image pixels (x, y).
    :param box: the die's rotated rect ((cx, cy), (w, h), angle_degrees), as cv2 uses.
    :param confidence: 0..1, how sure the reader is of ``value`` (of the best face if None).
    :param cocked: the top face is not square to the camera or its pips are not a legal face.
    :param cocked_share: 0..1, the classifier's belief that the die leans (its cocked share of
        "a die"); ``cocked`` is this at or above the tuned threshold. Lets a caller that knows
        one of two dice leans (the tracker's pair cue) pick the likelier one.
    :param best_face: the likeliest face 1..6 whatever the thresholds (``confidence`` is its
        share), for a caller that overrules the reader's cocked flag with better knowledge (the
        tracker's pair cue: the flat partner of a leaning die); never a value to pay on by
        itself.
    """

    value: int | None
    center: tuple[float, float]
    box: Box
    confidence: float
    cocked: bool
    cocked_share: float = 0.0
    best_face: int | None = None

    def to_dict(self) -> dict:
        (bx, by), (bw, bh), ba = self.box
        return {
            "value": self.value,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 4),
            "cocked": self.cocked,
            "box": [[round(bx, 1), round(by, 1)], [round(bw, 1), round(bh, 1)], round(ba, 1)],
        }


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise ReaderError("the frame is empty or not an image array")
    if frame.dtype != np.uint8:
        raise ReaderError(f"the frame must be 8-bit (uint8), got {frame.dtype}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise ReaderError(f"the frame must be HxWx3 BGR, got shape {frame.shape}")


def _load_net(path: Path):
    """An ONNX model through cv2.dnn; OpenCV 5's classic engine runs these small convolution
    nets faster than its new one (same outputs to 1e-5), OpenCV 4 has only that one."""
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=engine)


def _probabilities(net, blob: np.ndarray) -> np.ndarray:
    """Softmax of a classifier's logits for a batch blob."""
    net.setInput(blob)
    logits = net.forward().astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


class DiceReader:
    """Finds and reads dice; loads the shipped models once.

    :param model_dir: where ``dice_det.onnx``, ``dice_cls.onnx`` and ``dice_reader.json`` lie,
        and (optional) the lean model ``dice_lean.onnx`` (``self.lean``, for the tracker).
    :param min_confidence: a face below this softmax confidence is not read (value None);
        default: the threshold tuned on the tuning photos.
    :param profile: a learnt profile of the pair on the table (``vision.dice_profile``, a
        ``.npz`` from ``tablectl dice learn``), or None for the general reader alone.
    """

    def __init__(self, model_dir: str | Path | None = None, min_confidence: float | None = None,
                 *, profile: str | Path | DiceProfile | None = None):
        d = Path(model_dir) if model_dir is not None else MODEL_DIR
        try:
            self.profile: DiceProfile | None = (
                profile if isinstance(profile, DiceProfile) or profile is None
                else DiceProfile.load(profile))
        except ProfileError as exc:
            raise ReaderError(str(exc)) from None
        meta_path = d / "dice_reader.json"
        try:
            self.meta = json.loads(meta_path.read_text())
            cls_card = self.meta.get("classifier", {})
            names = ["dice_det.onnx", cls_card.get("file", "dice_cls.onnx"),
                     *cls_card.get("second_opinions", [])]
            missing = [n for n in names if not (d / n).is_file()]
            if missing:
                raise OSError(f"{', '.join(missing)} missing (dice_reader.json names "
                              f"{', '.join(names)})")
            self._det = _load_net(d / names[0])
            self._cls = _load_net(d / names[1])
            # further classifiers, trained apart, asked only about a crop the first is unsure
            # of; their probabilities are averaged with its own
            self._second: list = [_load_net(d / n) for n in names[2:]]
            # the first classifier's last map before its linear layer: a profile's pictures
            self._feature_layer = cls_card.get("features_layer") or next(
                (n for n in reversed(self._cls.getLayerNames()) if "Flatten" in n), None)
            self._head_layer = next(
                (n for n in reversed(self._cls.getLayerNames()) if "Gemm" in n), None)
        except (OSError, ValueError, cv2.error) as exc:
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ReaderError(
                f"cannot load the dice reader's models from {d}: {why}; "
                "reinstall tablectl or run tools/train_reader.py"
            ) from None
        # the lean model (vision.die_lean) for the tracker's cocked cues; a model directory
        # without one leaves the tracker to its geometric cues
        self.lean: LeanJudge | None = None
        if (d / "dice_lean.onnx").is_file():
            try:
                self.lean = LeanJudge(d / "dice_lean.onnx")
            except LeanModelError as exc:
                raise ReaderError(str(exc)) from None
        t = self.meta["thresholds"]
        self.min_confidence = float(min_confidence if min_confidence is not None
                                    else t["min_confidence"])
        self.cocked_threshold = float(t["cocked"])
        self.background_threshold = float(t["background"])
        self.heat_threshold = float(t["heat"])
        # crops classified per die (1, 2 or 4 quarter-turned views, averaged)
        self.views = int(t.get("views", 1))
        # the classifier's crop: pixels, and its side in die edges (as it was trained)
        cls = self.meta.get("classifier", {})
        self.crop_px = int(cls.get("crop_px", CROP_PX))
        self.crop_scale = float(cls.get("crop_scale", CROP_SCALE))
        try:  # a crop size the classifier was not made for fails here, not on the first throw
            self._softmax([np.zeros((self.crop_px, self.crop_px, 3), np.uint8)])
        except cv2.error:
            raise ReaderError(
                f"the face classifier in {d} does not take {self.crop_px}x{self.crop_px} crops: "
                f"set \"crop_px\" under \"classifier\" in {meta_path} to the size it was "
                "trained on (tools/train_reader.py --crop-px)"
            ) from None

    # ------------------------------------------------------------------ detector

    def _detect(self, frame: np.ndarray, scale: float,
                min_heat: float = 0.0) -> list[tuple[float, float, float, float]]:
        """Die candidates (cx, cy, die_px, heat) in frame pixels, strongest first; only those at
        least ``min_heat`` (and the model card's heat threshold) hot."""
        h, w = frame.shape[:2]
        dw = max(DET_STRIDE * 2, int(round(w * scale / DET_STRIDE)) * DET_STRIDE)
        dh = max(DET_STRIDE * 2, int(round(h * scale / DET_STRIDE)) * DET_STRIDE)
        sx, sy = dw / w, dh / h
        small = cv2.resize(frame, (dw, dh), interpolation=cv2.INTER_AREA)
        # what cv2.dnn.blobFromImage(small, 1 / 255, mean=127.5) gives, to the bit, in half its time
        blob = np.empty((1, 3, dh, dw), np.float32)
        for c, plane in enumerate(cv2.split(small)):
            blob[0, c] = plane
        blob -= 127.5
        blob *= 1 / 255.0
        self._det.setInput(blob)
        out = self._det.forward()[0]
        logit = out[0]
        floor = max(self.heat_threshold, min_heat)
        thr_logit = math.log(floor / (1 - floor))
        peaks = (logit >= cv2.dilate(logit, np.ones((3, 3), np.uint8))) & (logit > thr_logit)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-logit[ys, xs])
        cands: list[tuple[float, float, float, float]] = []
        for k in order:
            i, j = int(ys[k]), int(xs[k])
            u, v = j + float(out[1, i, j]), i + float(out[2, i, j])
            size = math.exp(float(out[3, i, j])) * DET_STRIDE / math.sqrt(sx * sy)
            cx, cy = u * DET_STRIDE / sx, v * DET_STRIDE / sy
            # one die can light two neighbouring cells: keep the stronger
            if any(math.hypot(cx - a, cy - b) < 0.45 * max(size, s) for a, b, s, _ in cands):
                continue
            heat = 1.0 / (1.0 + math.exp(-float(logit[i, j])))
            cands.append((cx, cy, size, heat))
        return cands

    # ------------------------------------------------------------------ classifier

    def _classify(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]]):
        """Per die (cx, cy, die_px): (angle_degrees, class probabilities[8])."""
        angles = die_angles(frame, dice)
        crops = [crop_die(frame, (cx, cy), size, a, self.crop_px, self.crop_scale)
                 for (cx, cy, size), a in zip(dice, angles, strict=True)]
        p = self._softmax(crops)
        if self.views > 1:
            # borderline dice only: the same crop turned by quarter turns, averaged (steadies a
            # borderline read; a clear one would not change, and this saves the time)
            top = p.max(axis=1)
            unsure = np.nonzero(top < _SURE)[0]
            if len(unsure):
                turns = range(4 // self.views, 4, 4 // self.views)
                more = [np.ascontiguousarray(np.rot90(crops[i], k)) for i in unsure for k in turns]
                q = self._softmax(more).reshape(len(unsure), self.views - 1, -1)
                p[unsure] = (p[unsure] + q.sum(axis=1)) / self.views
        return angles, p

    def _crops_blob(self, crops: list[np.ndarray]) -> np.ndarray:
        """The classifiers' input batch for these crops."""
        return cv2.dnn.blobFromImages(crops, 1 / 255.0, (self.crop_px, self.crop_px),
                                      mean=(127.5, 127.5, 127.5))

    def _softmax(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities per crop. A crop the first classifier reads below ``_ASK_BELOW``
        (and does not call no die at ``_NO_DIE``) is also read by the second opinions: the
        probabilities are averaged, and "cocked" is the largest of them. Nets trained apart err
        apart (on folds of dice left out of training, three nets read 457 of 540 dice with 2
        misread where one read 451 with 3), and a sure crop, most of them, costs one net."""
        blob = self._crops_blob(crops)
        p = _probabilities(self._cls, blob)
        if self._second:
            unsure = np.nonzero((p.max(axis=1) < _ASK_BELOW) & (p[:, BACKGROUND] < _NO_DIE))[0]
            if len(unsure):
                some = blob[unsure]
                total = p[unsure].copy()
                leans = p[unsure, COCKED].copy()
                for net in self._second:
                    q = _probabilities(net, some)
                    total += q
                    leans = np.maximum(leans, q[:, COCKED])
                p[unsure] = total / (1 + len(self._second))
                # a lean any one of them sees is heeded: a cocked die read is a bet paid wrongly
                p[unsure, COCKED] = leans
        return p

    def _reading(self, cx, cy, size, angle, p) -> DieReading:
        die_p = max(1e-9, 1.0 - float(p[BACKGROUND]))
        # two separate questions: which face is up (among the six faces only), and is the die
        # lying flat at all (the cocked share of "a die")
        faces = p[:6] / max(1e-9, float(p[:6].sum()))
        best = int(np.argmax(faces))
        confidence = float(min(1.0, faces[best]))
        share = min(1.0, float(p[COCKED]) / die_p)
        cocked = share >= self.cocked_threshold
        value = best + 1 if (confidence >= self.min_confidence and not cocked) else None
        box = ((float(cx), float(cy)), (float(size), float(size)), float(angle))
        return DieReading(value, (float(cx), float(cy)), box, confidence, bool(cocked), share,
                          best + 1)

    # ------------------------------------------------------------------ profile

    def features(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]],
                 turns: int = 1) -> np.ndarray:
        """The first classifier's picture of each die (cx, cy, die_px): its last map before the
        linear layer, one row per crop; with ``turns`` 4, each crop also turned by one, two and
        three quarter turns (rows die by die, turns innermost). What a profile learns from."""
        frame = _as_bgr(frame)
        if self._feature_layer is None:
            raise ReaderError("the face classifier has no layer to learn a profile from "
                              "(set \"features_layer\" under \"classifier\" in dice_reader.json)")
        if not dice:
            return np.zeros((0, 0), np.float32)
        angles = die_angles(frame, dice)
        crops = [crop_die(frame, (cx, cy), size, a, self.crop_px, self.crop_scale)
                 for (cx, cy, size), a in zip(dice, angles, strict=True)]
        if turns > 1:
            crops = [np.ascontiguousarray(np.rot90(c, k)) for c in crops for k in range(turns)]
        self._cls.setInput(self._crops_blob(crops))
        out = self._cls.forward(self._feature_layer)
        return out.reshape(len(crops), -1).astype(np.float32)

    def face_probabilities(self, frame: np.ndarray,
                           dice: Sequence[tuple[float, float, float]]) -> np.ndarray:
        """(n, 6): how likely each face 1..6 is on each die (cx, cy, die_px), among faces."""
        if not dice:
            return np.zeros((0, 6))
        _, p = self._classify(_as_bgr(frame), dice)
        return p[:, :6] / np.maximum(1e-9, p[:, :6].sum(axis=1, keepdims=True))

    def face_head(self) -> tuple[np.ndarray, np.ndarray]:
        """The first classifier's linear layer's six face rows over ``features``: weights
        (6 x D) and biases (6), the start of a profile's face head."""
        if self._head_layer is None:
            raise ReaderError("the face classifier has no linear layer to start a profile from")
        lid = self._cls.getLayerId(self._head_layer)
        return (np.array(self._cls.getParam(lid, 0))[:6].astype(np.float32),
                np.array(self._cls.getParam(lid, 1)).reshape(-1)[:6].astype(np.float32))

    def _by_profile(self, frame: np.ndarray, readings: list[DieReading]) -> list[DieReading]:
        """The readings with the pair's profile heeded. A die unlike the pair's pictures keeps
        the general reader's reading. A die of the pair is read as the face the profile sees
        surely, unless the general reader reads another face (two that disagree give no value:
        the operator rules); where the profile hesitates, the general reading stands. A flagged
        die stays flagged."""
        if self.profile is None:
            return readings
        todo = [i for i, r in enumerate(readings) if not r.cocked]
        if not todo:
            return readings
        feats = self.features(frame, [(readings[i].center[0], readings[i].center[1],
                                       readings[i].box[1][0]) for i in todo])
        out = list(readings)
        known = self.profile.known_faces
        for i, v in zip(todo, self.profile.judge(feats), strict=True):
            r = readings[i]
            if not v.of_pair:
                continue  # not this pair: the general reading stands
            if v.value is None:
                continue  # the profile hesitates between faces: the general reading stands
            if r.value is not None and r.value != v.value:
                out[i] = replace(r, value=None)
            elif r.value is None and (r.best_face == v.value or r.best_face in known):
                # (a die the general reader leans to see as a face the profile never saw is
                # left to the operator: the profile cannot tell that face from its nearest)
                out[i] = replace(r, value=v.value, best_face=v.value,
                                 confidence=v.confidence)
        return out

    # ------------------------------------------------------------------ public

    def find(self, frame_bgr: np.ndarray, die_px: float | None = None) -> list[DieReading]:
        """Every die in the frame, read; [] when there is none.

        :param die_px: a die's edge in pixels if known (calibration); else a 640-pixel-wide
            view of a table is assumed and the frame is looked at half size.
        """
        frame = _as_bgr(frame_bgr)
        h, w = frame.shape[:2]
        scale = DET_DIE_PX / die_px if die_px else 320.0 / max(h, w)
        # a weak find is left unread: of 687 below _READ_HEAT on the train and tune photos, the
        # classifier called none a die (of 265 between it and 0.3, 3); each read costs 0.25 ms
        cands = self._detect(frame, min(1.0, scale), _READ_HEAT)
        if not cands:
            return []
        angles, probs = self._classify(frame, [(c[0], c[1], c[2]) for c in cands])
        cands, angles, probs, rescued = self._rescue(frame, cands, list(angles), probs)
        out: list[DieReading] = []
        for n, ((cx, cy, size, _), a, p) in enumerate(zip(cands, angles, probs, strict=True)):
            if p[BACKGROUND] >= self.background_threshold:
                continue  # the classifier, looking closer, sees no die there
            r = self._reading(cx, cy, size, a, p)
            # A cocked die shows two faces and can be found twice: one die, one reading
            # (candidates come strongest first). Touching flat dice lie a die's edge apart or
            # more; two finds much closer than that are the two faces of one leaning die, so
            # that die is flagged (never read) even when neither face looked cocked alone.
            close = [i for i, k in enumerate(out) if _one_die(r, k)]
            if close and n in rescued:
                continue  # moved onto a die already found
            # ... unless the two are of different colours, each read as a face: two dice
            # touching (a small die against a large one; fixtures/stills/two_colours_touching)
            twin = next((i for i in close if not _two_bodies(frame, out[i], r)), None)
            if twin is not None:
                k = out[twin]
                if not k.cocked:
                    out[twin] = replace(k, value=None, cocked=True,
                                        cocked_share=max(k.cocked_share, r.cocked_share))
                continue
            out.append(r)
        # unsure as the whole-frame detector saw it (a small die's centre and size are coarse
        # at its scale): a little smaller and larger, and where the detector puts it looking
        # closer (tune photos: nell-byler read 162 -> 168 of 174 dice, matteop65 83 -> 84 of
        # 84, misreads unchanged). A closer look that lands nearer another die found is that
        # die's, not this one's: a small die beside a large one was read as the large one
        # twice (this and the colour test above: nell-byler train+tune read 1139 -> 1141 of
        # 1152, misreads 4 either way; simulator stills and the folds unchanged)
        seen = [(r.center[0], r.center[1], r.box[1][0]) for r in out]
        unsure = [i for i, r in enumerate(out) if _unsure(r)]
        closer = (dict(zip(unsure, self._refine(frame, [seen[i] for i in unsure]), strict=True))
                  if unsure else {})
        out = self._look_again(
            frame, out,
            lambda i: [(seen[i][0], seen[i][1], seen[i][2] * k) for k in _SIZES_AGAIN]
            + ([closer[i]] if _nearest(closer[i], seen) == i else []),
        )
        # a die still unsure after that: a little smaller too (read only then, it changed no
        # reading on the train and tune photos nor on the folds, and saves ~0.8 ms a photo)
        out = self._look_again(
            frame, out,
            lambda i: [(seen[i][0], seen[i][1], seen[i][2] * k) for k in _SIZES_LAST],
        )
        return self._by_profile(frame, out)

    def _rescue(self, frame, cands, angles, probs):
        """A strong find the classifier calls no die is cut again where the detector, looking
        closer, puts it (a dark die's size is often seen a third too small, and a crop too
        small shows no whole face)."""
        lost = [i for i, (c, p) in enumerate(zip(cands, probs, strict=True))
                if self.background_threshold <= p[BACKGROUND] < _RESCUE_DOUBT
                and c[3] >= _RESCUE_HEAT]
        if not lost:
            return cands, angles, probs, set()
        moved = self._refine(frame, [cands[i][:3] for i in lost])
        a2, p2 = self._classify(frame, moved)
        cands = list(cands)
        probs = probs.copy()
        rescued = set()
        for i, d, a, p in zip(lost, moved, a2, p2, strict=True):
            if p[BACKGROUND] < self.background_threshold:
                cands[i] = (*d, cands[i][3])
                angles[i] = a
                probs[i] = p
                rescued.add(i)
        return cands, angles, probs, rescued

    def read_at(
        self,
        frame_bgr: np.ndarray,
        boxes: Sequence,
        die_px: float | None = None,
    ) -> list[DieReading]:
        """Read the dice given where they lie, one reading per box, in the same order.

        :param boxes: cv2 rotated rects ((cx, cy), (w, h), angle) or centres (cx, cy).
        :param die_px: a die's edge in pixels; needed for bare centres, else taken from the box.
        Each die is looked for again by the detector near where it is said to lie, so a
        tracker's blob centre (top face plus side faces) is moved onto the top face.
        """
        frame = _as_bgr(frame_bgr)
        dice = []
        for b in boxes:
            try:
                if len(b) == 3 and len(b[0]) == 2 and len(b[1]) == 2:
                    (cx, cy), (bw, bh), _ = b
                    # a blob's rect may include a side face or the shadow: its short side is
                    # nearer the die's edge than its long side
                    bw, bh = float(bw), float(bh)
                    size = float(die_px) if die_px else max(min(bw, bh), 0.6 * max(bw, bh))
                elif len(b) == 2 and np.isscalar(b[0]) and np.isscalar(b[1]):
                    cx, cy = b
                    if not die_px:
                        raise ReaderError(
                            "read_at: a bare centre needs die_px (a die's edge in pixels)"
                        )
                    size = float(die_px)
                else:
                    raise TypeError
                cx, cy = float(cx), float(cy)
            except ReaderError:
                raise
            except (TypeError, ValueError):
                raise ReaderError(
                    f"read_at: {b!r} is neither a rotated rect ((cx, cy), (w, h), angle) "
                    "nor a centre (cx, cy)"
                ) from None
            if not size > 0:
                raise ReaderError(f"read_at: die size must be positive, got {size}")
            dice.append((cx, cy, size))
        if not dice:
            return []
        refined = self._refine(frame, dice, size_known=bool(die_px))
        angles, probs = self._classify(frame, refined)
        readings = [
            self._reading(cx, cy, size, a, p)
            for (cx, cy, size), a, p in zip(refined, angles, probs, strict=True)
        ]
        # unsure at the detector's centre and size: that centre with the given size, and the
        # given centre and size (simulated rest frames, 1,451 flat dice in the tracker's boxes:
        # unread 24 -> 18, misread 4 -> 2)
        readings = self._look_again(
            frame, readings,
            lambda i: [(refined[i][0], refined[i][1], dice[i][2]), dice[i]],
        )
        return self._by_profile(frame, readings)

    def _look_again(self, frame, readings: list[DieReading], alternatives) -> list[DieReading]:
        """Each die read unsurely (no value, or below ``_SURE``) and not flagged is read again
        on the crops ``alternatives(i)`` gives ((cx, cy, size) each); the surest reading with a
        value, none flagged, is kept, else the first. A crop a little off the die (its centre
        or size, as the detector saw a die at an angle, beside another, under a glare) reads
        unsurely; a flagged die is never read from another crop. Every alternative is read:
        stopping at the first sure one misread a simulated throw's two as a one at 0.97 that
        another crop reads right more surely."""
        again = [i for i, r in enumerate(readings) if _unsure(r)]
        if not again:
            return readings
        crops = [alternatives(i) for i in again]
        flat = [d for ds in crops for d in ds]
        if not flat:
            return readings
        angles, probs = self._classify(frame, flat)
        looks = iter(self._reading(*d, a, p) for d, a, p in zip(flat, angles, probs, strict=True))
        for i, ds in zip(again, crops, strict=True):
            cands = [readings[i]] + [next(looks) for _ in ds]
            valued = [c for c in cands if c.value is not None and not c.cocked]
            if valued:
                readings[i] = max(valued, key=lambda r: r.confidence)
        return readings

    def _refine(self, frame: np.ndarray, dice: list[tuple[float, float, float]],
                size_known: bool = False):
        """Each given die (cx, cy, size) moved to the detector's centre and size of the die
        nearest it (looked for in a patch around it; all patches in one batch)."""
        p = _REFINE_PX
        patches, scales, origins = [], [], []
        h, w = frame.shape[:2]
        for cx, cy, size in dice:
            k = min(1.0, DET_DIE_PX / size)
            half = int(math.ceil(p / k / 2))
            x0, y0 = int(round(cx)) - half, int(round(cy)) - half
            x1, y1 = x0 + 2 * half, y0 + 2 * half
            roi = frame[max(0, y0) : max(0, min(h, y1)), max(0, x0) : max(0, min(w, x1))]
            if roi.size == 0:
                roi = np.zeros((2 * half, 2 * half, 3), np.uint8)
            else:
                roi = cv2.copyMakeBorder(roi, max(0, -y0), max(0, y1 - h), max(0, -x0),
                                         max(0, x1 - w), cv2.BORDER_REPLICATE)
            patches.append(cv2.resize(roi, (p, p), interpolation=cv2.INTER_AREA))
            scales.append(p / (2 * half))
            origins.append((x0, y0))
        blob = cv2.dnn.blobFromImages(patches, 1 / 255.0, mean=(127.5, 127.5, 127.5))
        self._det.setInput(blob)
        out = self._det.forward()
        g = p // DET_STRIDE
        yy, xx = np.mgrid[0:g, 0:g]
        refined = []
        thr_logit = math.log(self.heat_threshold / (1 - self.heat_threshold))
        for (cx, cy, size), o, k, (x0, y0) in zip(dice, out, scales, origins, strict=True):
            # cells within 0.6 die edges of the given centre (the patch centre)
            r = 0.6 * size * k / DET_STRIDE
            near = (xx + 0.5 - g / 2) ** 2 + (yy + 0.5 - g / 2) ** 2 <= r * r
            if size_known:
                # a detection much larger or smaller than the calibrated die is not one die
                # (two dice lying close seen as one, a pip seen as a die)
                sizes = np.exp(o[3]) * DET_STRIDE / k
                near &= (sizes > _SIZE_BAND[0] * size) & (sizes < _SIZE_BAND[1] * size)
            logit = np.where(near, o[0], -np.inf)
            i, j = np.unravel_index(int(np.argmax(logit)), logit.shape)
            if not logit[i, j] > thr_logit:
                refined.append((cx, cy, size))
                continue
            ux = (j + float(o[1, i, j])) * DET_STRIDE / k + x0
            uy = (i + float(o[2, i, j])) * DET_STRIDE / k + y0
            s = math.exp(float(o[3, i, j])) * DET_STRIDE / k
            refined.append((ux, uy, s if 0.6 * size < s < 1.6 * size else size))
        return refined


# with the die's size known (calibrated), read_at moves a die only onto a detection this many
# times its size (a die nearer the camera looks bigger, one further smaller)
_SIZE_BAND = (0.75, 1.33)

# two dice found closer than this many die edges are one die showing two faces (it leans)
_TWO_FACES = 0.65


def _one_die(a: DieReading, b: DieReading) -> bool:
    """Whether two finds are one die: closer than 0.8 edges when either looks cocked, else
    closer than ``_TWO_FACES`` edges (two flat dice lie at least an edge apart)."""
    near = 0.8 if (a.cocked or b.cocked) else _TWO_FACES
    return math.dist(a.center, b.center) < near * max(a.box[1][0], b.box[1][0])


def _body_colour(frame: np.ndarray, center: tuple[float, float],
                 size: float) -> tuple[float, float]:
    """The colour of a die's body around a find's centre: (chroma, hue in degrees) in CIE Lab
    (OpenCV's 8-bit scale), the median of the pixels in a disc of ``_BODY_DISC`` die edges
    whose lightness is near the disc's median (a face's pips are the fewer pixels)."""
    k = max(2, int(round(_BODY_DISC * size)))
    x, y = int(round(center[0])), int(round(center[1]))
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x - k), max(0, y - k), min(w, x + k + 1), min(h, y + k + 1)
    if x1 <= x0 or y1 <= y0:
        return 0.0, 0.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)[
        (xx - center[0]) ** 2 + (yy - center[1]) ** 2 <= k * k].astype(np.float32)
    if not len(lab):
        return 0.0, 0.0  # no pixel of the disc in the frame: no colour to tell by
    lightness = lab[:, 0]
    body = lab[np.abs(lightness - np.median(lightness)) <= _BODY_LIGHTNESS]
    a, b = (float(np.median(body[:, 1])) - 128.0, float(np.median(body[:, 2])) - 128.0)
    return math.hypot(a, b), math.degrees(math.atan2(b, a))


def _nearest(die: tuple[float, float, float], dice: list[tuple[float, float, float]]) -> int:
    """The index of the die in ``dice`` whose centre is nearest the centre of ``die``."""
    return min(range(len(dice)), key=lambda j: math.dist(die[:2], dice[j][:2]))


def _two_bodies(frame: np.ndarray, a: DieReading, b: DieReading) -> bool:
    """Whether two close finds, each read as a face (a value, not flagged), are two dice:
    their bodies are coloured and of hues far apart. A die's faces share its colour (the
    shade of a side face changes its lightness, not its hue), so a leaning die's two faces
    never pass; a matched pair of dice never does either, and stays under ``_one_die``."""
    if a.value is None or b.value is None or a.cocked or b.cocked:
        return False
    (ca, ha), (cb, hb) = (_body_colour(frame, d.center, d.box[1][0]) for d in (a, b))
    apart = abs(ha - hb) % 360.0
    return min(ca, cb) >= _BODY_CHROMA and min(apart, 360.0 - apart) >= _HUE_APART


# a body colour is measured in a disc of this many die edges around a find's centre, on the
# pixels within this lightness of the disc's median
_BODY_DISC = 0.35
_BODY_LIGHTNESS = 20.0
# two finds are of different colours when each is at least this chromatic and their hues lie
# this many degrees apart (achromatic bodies, white or black, have a hue of noise). On 450
# simulator stills and 240 throws, of 401 pairs of finds of one die none is parted (12 had both
# finds read as faces; the 372 of a leaning die never did); on the train and tune photos the
# three such pairs stay one die and the one pair of two dice is parted
_BODY_CHROMA = 8.0
_HUE_APART = 90.0


# a crop whose best class has at least this probability is not looked at again (cut at another
# centre or size)
_SURE = 0.97
# a crop the first classifier calls "not a die" at least this surely is not put to the second
# opinions (most finds that are no die need none, and skipping them keeps a frame within its
# time)
_NO_DIE = 0.5
# a crop is put to the second opinions only below this (folds: below 0.95 read 457 of 540 dice
# with 2 misread, below 0.97 456 with 2, below 0.93 457 with 3; 0.95 also saves a tenth of the
# time of a many-dice photo)
_ASK_BELOW = 0.95


def _unsure(r: DieReading) -> bool:
    """A reading looked at again: not flagged, and without a value or below ``_SURE``."""
    return not r.cocked and not (r.value is not None and r.confidence >= _SURE)


# find looks at an unsure die again at these times the detector's size, then (if it is still
# unsure) at these
_SIZES_AGAIN = (1.12,)
_SIZES_LAST = (0.88,)
# find reads only finds at least this hot (the detector's "heat" threshold keeps weaker ones
# for read_at's closer look)
_READ_HEAT = 0.2
# a find at least this hot that the classifier calls no die is looked at again (``_rescue``)
_RESCUE_HEAT = 0.3
# ... unless the classifier is all but sure there is no die: 96% of such finds on the train and
# tune photos (table edges, shadows, the tray), none of them a die
_RESCUE_DOUBT = 0.9
# read_at looks for each die in a patch of this many detector pixels (~2.9 die edges)
_REFINE_PX = 64


_DEFAULT: DiceReader | None = None


def read_image(path: str | Path, reader: DiceReader | None = None) -> list[DieReading]:
    """Find and read the dice in an image file; ReaderError naming the file if unreadable."""
    global _DEFAULT
    p = Path(path)
    if not p.is_file():
        raise ReaderError(f"{p}: no such image file")
    frame = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if frame is None or frame.size == 0:
        raise ReaderError(f"{p}: not a readable image (corrupt or not JPEG/PNG/BMP)")
    if reader is None:
        if _DEFAULT is None:
            _DEFAULT = DiceReader()
        reader = _DEFAULT
    return reader.find(frame)


def annotate(frame_bgr: np.ndarray, dice: Sequence[DieReading]) -> np.ndarray:
    """A copy of the frame with each die outlined and labelled: green read, amber unread,
    red cocked (the picture the operator sees)."""
    out = _as_bgr(frame_bgr).copy()
    for d in dice:
        if d.cocked:
            colour, text = (0, 0, 255), "cocked"
        elif d.value is None:
            colour, text = (0, 170, 255), "?"
        else:
            colour, text = (0, 200, 0), str(d.value)
        pts = cv2.boxPoints(d.box).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        x, y = int(d.center[0]), int(d.center[1] - d.box[1][1] * 0.6 - 4)
        label = f"{text} {d.confidence:.2f}"
        cv2.putText(out, label, (x - 18, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, label, (x - 18, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 1, cv2.LINE_AA)
    return out
