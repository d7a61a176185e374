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

The thresholds live in ``vision/models/dice_reader.json`` beside the models
(``vision.dice_tuning.ReaderTuning``); docs/reader.md says how each was chosen.
"""

from __future__ import annotations

import functools
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.dice_crop import CROP_PX, CROP_SCALE, crop_die, die_angles, edge_width
from vision.dice_profile import DiceProfile, ProfileError
from vision.dice_shrink import Shrinker
from vision.dice_tuning import ReaderTuning
from vision.die_lean import LeanJudge, LeanModelError
from vision.pair_pick import PairJudge, PairModelError
from vision.pip_count import count_pips

MODEL_DIR = Path(__file__).resolve().parent / "models"
DET_STRIDE = 4  # detector output cell, in detector-input pixels
COCKED, BACKGROUND = 6, 7  # classifier classes after the six faces
# The detector was trained on dice of about this many pixels (edge) at its input.
DET_DIE_PX = 22.0
# a heat-map cell is a peak when it is the largest of its 3x3 neighbourhood
_PEAK_KERNEL = np.ones((3, 3), np.uint8)

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


def _forward_each(net, blob: np.ndarray, layer: str | None = None) -> np.ndarray:
    """The net's output (or ``layer``'s) for each item of a batch blob, run one item at a
    time. cv2.dnn sets a net up again whenever its input's shape changes, a batch of another
    size too (about a fifth of a crop's pass for the classifiers); one item at a time its
    shape never changes, and each item's output is the same, to the bit, as in a batch (a
    batch's items are computed apart: it saves no work)."""
    outs = []
    for k in range(len(blob)):
        net.setInput(blob[k : k + 1])
        outs.append(net.forward(layer) if layer else net.forward())
    return np.concatenate(outs)


def _probabilities(net, blob: np.ndarray) -> np.ndarray:
    """Softmax of a classifier's logits for a batch blob."""
    logits = _forward_each(net, blob).astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


@dataclass
class _Find:
    """A die candidate as it passes through ``find``: where the detector put it, how hot, and
    what the classifier made of the crop there."""

    cx: float
    cy: float
    size: float  # the die's edge, pixels
    heat: float  # the detector's belief there is a die centred here (0..1)
    angle: float = 0.0  # the crop's turn, degrees
    p: np.ndarray | None = None  # class probabilities [8]
    rescued: bool = False  # moved by the rescue (``_rescue``)

    @property
    def at(self) -> tuple[float, float, float]:
        return (self.cx, self.cy, self.size)


class DiceReader:
    """Finds and reads dice; loads the shipped models once.

    :param model_dir: where ``dice_det.onnx``, ``dice_cls.onnx`` and ``dice_reader.json`` lie,
        and (optional) the lean model ``dice_lean.onnx`` (``self.lean``, for the tracker) and
        the pair model ``dice_pair.onnx`` (``self.pair``: which die of a close pair leans).
    :param min_confidence: a face below this softmax confidence is not read (value None);
        default: the threshold tuned on the tuning photos.
    :param profile: a learnt profile of the pair on the table (``vision.dice_profile``, a
        ``.npz`` from ``tablectl dice learn``), or None for the general reader alone.

    ``self.tuning`` (``vision.dice_tuning.ReaderTuning``) holds every threshold, from the
    model card's ``thresholds``.
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
            self.tuning = ReaderTuning.from_card(self.meta["thresholds"],
                                                 min_confidence=min_confidence)
            cls_card = self.meta.get("classifier", {})
            names = ["dice_det.onnx", cls_card.get("file", "dice_cls.onnx"),
                     *cls_card.get("second_opinions", [])]
            det_card = self.meta.get("detector", {})
            # the closer looks' own detector, if the card names one (a detector that finds
            # dice faster in the whole frame may place a leaning die's top worse up close)
            look_name = det_card.get("closer_look")
            if look_name is not None and (not isinstance(look_name, str) or not look_name):
                raise ValueError('the detector\'s "closer_look" must name an ONNX file in the '
                                 f"model folder, not {look_name!r}")
            missing = [n for n in names + ([look_name] if look_name else [])
                       if not (d / n).is_file()]
            if missing:
                raise OSError(f"{', '.join(missing)} missing (dice_reader.json names "
                              f"{', '.join(names)})")
            self._det = _load_net(d / names[0])
            # the detector's input sides must be multiples of this (its coarsest map is
            # upsampled exactly twice onto its stride-4 map)
            self._det_multiple = int(det_card.get("multiple", DET_STRIDE))
            # the detector's log size mapped onto the sizes the classifiers were trained at
            # (a detector fitted to the shipped one's finds: tools/detector_size_fit.py)
            self._det_size = _size_decode(det_card)
            if self._det_multiple % DET_STRIDE or self.tuning.refine_px % self._det_multiple:
                raise ValueError(
                    f"the detector's \"multiple\" ({self._det_multiple}) must be a multiple of "
                    f"{DET_STRIDE} and divide refine_px ({self.tuning.refine_px})")
            # and for the closer looks (``_refine``: patches of refine_px), so that neither
            # net's input changes shape between frames (cv2.dnn would set it up again); a
            # closer look's detector of its own has its sizes as they are (refine_px is a
            # multiple of 8, so either shape takes it)
            self._refiner = _load_net(d / (look_name or names[0]))
            self._refine_size = (lambda z: z) if look_name else self._det_size
            # the same detector for ``find``'s coarse probe: cv2.dnn sets a net up again for
            # each new input size (tens of ms), so the probe's size keeps a net of its own
            self._probe = _load_net(d / names[0])
            self._cls = _load_net(d / names[1])
            # further classifiers, trained apart, asked only about a crop the first is unsure
            # of; their probabilities are averaged with its own
            self._second: list = [_load_net(d / n) for n in names[2:]]
            # the first classifier's last map before its linear layer: a profile's pictures
            self._feature_layer = cls_card.get("features_layer") or next(
                (n for n in reversed(self._cls.getLayerNames()) if "Flatten" in n), None)
            self._head_layer = next(
                (n for n in reversed(self._cls.getLayerNames()) if "Gemm" in n), None)
        except (OSError, ValueError, KeyError, cv2.error) as exc:
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
        self.pair: PairJudge | None = None
        if (d / "dice_pair.onnx").is_file():
            try:
                self.pair = PairJudge(d / "dice_pair.onnx")
            except PairModelError as exc:
                raise ReaderError(str(exc)) from None
        # the classifier's crop: pixels, and its side in die edges (as it was trained)
        self.crop_px = int(cls_card.get("crop_px", CROP_PX))
        self.crop_scale = float(cls_card.get("crop_scale", CROP_SCALE))
        try:  # a crop size the classifier was not made for fails here, not on the first throw
            self._softmax([np.zeros((self.crop_px, self.crop_px, 3), np.uint8)])
        except cv2.error:
            raise ReaderError(
                f"the face classifier in {d} does not take {self.crop_px}x{self.crop_px} crops: "
                f"set \"crop_px\" under \"classifier\" in {meta_path} to the size it was "
                "trained on (tools/train_reader.py --crop-px)"
            ) from None
        if self._feature_layer is not None:
            self._feature_layer = self._output_named(self._feature_layer)
        # the pips' count's first call sets up what its Lab conversions and numpy need (about
        # a sixth of a second): here, not on the first throw it counts
        count_pips(np.full((64, 64, 3), 128, np.uint8), (32.0, 32.0), 24.0,
                   settings=self.tuning.pip_count)
        if self.profile is not None and self._feature_layer is not None:
            # a profile learnt with another classifier sees other features: refused now
            dims = int(np.prod(_forward_each(
                self._cls, self._crops_blob([np.zeros((self.crop_px, self.crop_px, 3), np.uint8)]),
                self._feature_layer).shape[1:]))
            if self.profile.pictures.shape[1] != dims:
                raise ReaderError(
                    f"the dice profile was learnt with another face classifier (features of "
                    f"{self.profile.pictures.shape[1]} numbers, this one gives {dims}): learn "
                    "it again with `tablectl dice learn`")

    # the thresholds callers read (the tracker's ``min_confidence``) or set (the tuning tools)
    min_confidence = property(lambda self: self.tuning.min_confidence,
                              lambda self, v: self._tune(min_confidence=float(v)))
    cocked_threshold = property(lambda self: self.tuning.cocked,
                                lambda self, v: self._tune(cocked=float(v)))
    background_threshold = property(lambda self: self.tuning.background,
                                    lambda self, v: self._tune(background=float(v)))
    heat_threshold = property(lambda self: self.tuning.heat,
                              lambda self, v: self._tune(heat=float(v)))
    views = property(lambda self: self.tuning.views, lambda self, v: self._tune(views=int(v)))

    def _tune(self, **changes) -> None:
        self.tuning = replace(self.tuning, **changes)

    # ------------------------------------------------------------------ detector

    def _detect(self, frame: np.ndarray, scale: float, min_heat: float = 0.0,
                net=None, *, shrink: Shrinker | None = None) -> list[_Find]:
        """Die candidates in frame pixels, strongest first; only those at least ``min_heat``
        (and the tuning's ``heat``) hot. ``net``: the detector to run (default ``_det``);
        ``shrink``: the frame's ``Shrinker``, shared by the looks of one ``find``."""
        t = self.tuning
        h, w = frame.shape[:2]
        m = self._det_multiple
        dw = max(DET_STRIDE * 2, m, int(round(w * scale / m)) * m)
        dh = max(DET_STRIDE * 2, m, int(round(h * scale / m)) * m)
        sx, sy = dw / w, dh / h
        small = (shrink or Shrinker(frame))((dw, dh))
        # what cv2.dnn.blobFromImage(small, 1 / 255, mean=127.5) gives, to the bit, in half its time
        blob = np.empty((1, 3, dh, dw), np.float32)
        for c, plane in enumerate(cv2.split(small)):
            blob[0, c] = plane
        blob -= 127.5
        blob *= 1 / 255.0
        net = self._det if net is None else net
        net.setInput(blob)
        out = net.forward()[0]
        logit = out[0]
        floor = max(t.heat, min_heat)
        thr_logit = math.log(floor / (1 - floor))
        peaks = (logit >= cv2.dilate(logit, _PEAK_KERNEL)) & (logit > thr_logit)
        ys, xs = np.nonzero(peaks)
        order = np.argsort(-logit[ys, xs])
        finds: list[_Find] = []
        for k in order:
            i, j = int(ys[k]), int(xs[k])
            u, v = j + float(out[1, i, j]), i + float(out[2, i, j])
            size = math.exp(self._det_size(float(out[3, i, j]))) * DET_STRIDE / math.sqrt(sx * sy)
            cx, cy = u * DET_STRIDE / sx, v * DET_STRIDE / sy
            # one die can light two neighbouring cells: keep the stronger
            if any(math.hypot(cx - f.cx, cy - f.cy) < t.same_find * max(size, f.size)
                   for f in finds):
                continue
            heat = 1.0 / (1.0 + math.exp(-float(logit[i, j])))
            finds.append(_Find(cx, cy, size, heat))
        return finds

    def _refine(self, frame: np.ndarray, dice: list[tuple[float, float, float]],
                size_known: bool = False):
        """Each given die (cx, cy, size) moved to the detector's centre and size of the die
        nearest it (looked for in a patch around it, ``refine_patches``)."""
        t = self.tuning
        p = t.refine_px
        patches, scales, origins = self.refine_patches(frame, dice)
        blob = cv2.dnn.blobFromImages(patches, 1 / 255.0, mean=(127.5, 127.5, 127.5))
        out = _forward_each(self._refiner, blob)
        cells = _cell_distances(p // DET_STRIDE)
        refined = []
        thr_logit = math.log(t.heat / (1 - t.heat))
        lo, hi = t.refine_sizes
        for (cx, cy, size), o, k, (x0, y0) in zip(dice, out, scales, origins, strict=True):
            # cells near the given centre (the patch centre)
            near = self.refine_near(o, size, k, size_known, cells)
            logit = np.where(near, o[0], -np.inf)
            i, j = np.unravel_index(int(np.argmax(logit)), logit.shape)
            if not logit[i, j] > thr_logit:
                refined.append((cx, cy, size))
                continue
            ux = (j + float(o[1, i, j])) * DET_STRIDE / k + x0
            uy = (i + float(o[2, i, j])) * DET_STRIDE / k + y0
            s = math.exp(self._refine_size(float(o[3, i, j]))) * DET_STRIDE / k
            refined.append((ux, uy, s if lo * size < s < hi * size else size))
        return refined

    def refine_near(self, o: np.ndarray, size: float, k: float, size_known: bool,
                    cells: np.ndarray) -> np.ndarray:
        """The cells of a closer look's maps ``o`` (the detector's 4 maps on a patch scaled by
        ``k``) whose find may stand for the given die of edge ``size``: near the patch's
        centre and, ``size_known``, of about its size. ``cells``: ``_cell_distances``."""
        t = self.tuning
        r = t.refine_reach * size * k / DET_STRIDE
        near = cells <= r * r
        if size_known:
            # a detection much larger or smaller than the calibrated die is not one die
            # (two dice lying close seen as one, a pip seen as a die)
            sizes = np.exp(self._refine_size(o[3])) * DET_STRIDE / k
            near &= (sizes > t.size_band[0] * size) & (sizes < t.size_band[1] * size)
        return near

    def refine_patches(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]]):
        """The closer look's patches: for each die (cx, cy, size), the square around it scaled
        so the die is about the detector's die size (never enlarged), ``refine_px`` wide;
        returns (patches, scales, origins in frame pixels). Also what a detector is taught
        the closer look on (tools/train_detector.py)."""
        p = self.tuning.refine_px
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
            elif x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                roi = cv2.copyMakeBorder(roi, max(0, -y0), max(0, y1 - h), max(0, -x0),
                                         max(0, x1 - w), cv2.BORDER_REPLICATE)
            patches.append(cv2.resize(roi, (p, p), interpolation=cv2.INTER_AREA))
            scales.append(p / (2 * half))
            origins.append((x0, y0))
        return patches, scales, origins

    # ------------------------------------------------------------------ classifier

    def _classify(self, frame: np.ndarray, dice: Sequence[tuple[float, float, float]]):
        """Per die (cx, cy, die_px): (angle_degrees, class probabilities[8])."""
        angles = die_angles(frame, dice)
        crops = [crop_die(frame, (cx, cy), size, a, self.crop_px, self.crop_scale)
                 for (cx, cy, size), a in zip(dice, angles, strict=True)]
        p = self._softmax(crops)
        views = self.tuning.views
        if views > 1:
            # borderline dice only: the same crop turned by quarter turns, averaged (steadies a
            # borderline read; a clear one would not change, and this saves the time)
            top = p.max(axis=1)
            unsure = np.nonzero(top < self.tuning.sure)[0]
            if len(unsure):
                turns = range(4 // views, 4, 4 // views)
                more = [np.ascontiguousarray(np.rot90(crops[i], k)) for i in unsure for k in turns]
                q = self._softmax(more).reshape(len(unsure), views - 1, -1)
                p[unsure] = (p[unsure] + q.sum(axis=1)) / views
        return angles, p

    def _crops_blob(self, crops: list[np.ndarray]) -> np.ndarray:
        """The classifiers' input batch for these crops."""
        return cv2.dnn.blobFromImages(crops, 1 / 255.0, (self.crop_px, self.crop_px),
                                      mean=(127.5, 127.5, 127.5))

    def _softmax(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities per crop. A crop the first classifier reads below the tuning's
        ``ask_below`` (and does not call no die at ``no_die``) is also read by the second
        opinions: the probabilities are averaged, and "cocked" is the largest of them. Nets
        trained apart err apart, and a sure crop, most of them, costs one net."""
        blob = self._crops_blob(crops)
        p = _probabilities(self._cls, blob)
        if self._second:
            t = self.tuning
            unsure = np.nonzero((p.max(axis=1) < t.ask_below) & (p[:, BACKGROUND] < t.no_die))[0]
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
        t = self.tuning
        # in Python floats: a dozen numpy calls on 8 numbers cost more than the arithmetic
        # (the same sums, in the same order, as numpy's on so few numbers)
        p1, p2, p3, p4, p5, p6, p_cocked, p_none = p.tolist()
        die_p = max(1e-9, 1.0 - p_none)
        # two separate questions: which face is up (among the six faces only), and is the die
        # lying flat at all (the cocked share of "a die")
        total = max(1e-9, p1 + p2 + p3 + p4 + p5 + p6)
        faces = [p1 / total, p2 / total, p3 / total, p4 / total, p5 / total, p6 / total]
        best = faces.index(max(faces))
        confidence = min(1.0, faces[best])
        share = min(1.0, p_cocked / die_p)
        cocked = share >= t.cocked
        value = best + 1 if (confidence >= t.min_confidence and not cocked) else None
        box = ((float(cx), float(cy)), (float(size), float(size)), float(angle))
        return DieReading(value, (float(cx), float(cy)), box, confidence, bool(cocked), share,
                          best + 1)

    def _unsure(self, r: DieReading) -> bool:
        """A reading looked at again: not flagged, and without a value or below ``sure``."""
        return not r.cocked and not (r.value is not None and r.confidence >= self.tuning.sure)

    # ------------------------------------------------------------------ find's stages

    def find(self, frame_bgr: np.ndarray, die_px: float | None = None) -> list[DieReading]:
        """Every die in the frame, read; [] when there is none.

        :param die_px: a die's edge in pixels if known (calibration); else a 640-pixel-wide
            view of a table is assumed and the frame is looked at half size.

        The stages, in order: the detector's finds (``_detect``), each read (``_classify``); a
        strong find read as no die cut again where the detector, looking closer, puts it
        (``_rescue``); one reading per die (``_one_per_die``, the twin rule); a die read
        unsurely read again a little larger and where the detector, looking closer, puts it
        (``_second_look``), then a little smaller (``_last_look``), then on its lightness alone
        (``_grey_look``, with the card's ``grey_look``); the pips' count as a second
        opinion (``_pip_vote``); too small or blurred dice unread (``_too_poor``); the pair's
        profile (``_by_profile``).
        """
        frame = _as_bgr(frame_bgr)
        if die_px:
            finds = self._detect(frame, min(1.0, DET_DIE_PX / die_px), self.tuning.read_heat)
        else:
            finds = self._detect_any_size(frame)
        if not finds:
            return []
        self._read_finds(frame, finds)
        self._rescue(frame, finds)
        readings = self._one_per_die(frame, finds)
        seen = [(r.center[0], r.center[1], r.box[1][0]) for r in readings]
        readings = self._second_look(frame, readings, seen)
        readings = self._last_look(frame, readings, seen)
        readings = self._grey_look(frame, readings)
        readings = self._pip_vote(frame, readings)
        return self._by_profile(frame, self._too_poor(frame, readings))

    def _detect_any_size(self, frame: np.ndarray) -> list[_Find]:
        """The detector's finds at the scale that makes the dice the size it was trained on,
        whatever the photo's size and the dice's size in it (``find`` without ``die_px``).

        The first guess is a 640-pixel-wide view of a table (the frame looked at so its long
        side is 320). A probe at half that scale comes first: dice much larger than guessed
        show there at about their own size, where the guess would see their pips as dice. Then
        the scale is moved until the dice the detector sees are of a size it reads
        (``size_fit``, pixels at its input): its size is right near its trained size and
        squeezed towards it beyond, so each move goes most of the way, and a few suffice. A
        frame with no die at the guess is looked at finer (small dice in a big photo). The
        scale stays within ``die_px_range`` (a die's edge in frame pixels)."""
        t = self.tuning
        h, w = frame.shape[:2]
        long_side = max(h, w)
        lo = DET_DIE_PX / t.die_px_range[1]
        hi = min(DET_DIE_PX / t.die_px_range[0], max(1.0, 640.0 / long_side))
        scale = min(hi, max(lo, 320.0 / long_side))
        shrink = Shrinker(frame)
        coarse = scale / 2
        if coarse >= lo:
            probe = self._detect(frame, coarse, t.probe_heat, self._probe, shrink=shrink)
            z = _typical_size(probe, coarse)
            if z is not None and z >= t.coarse_big:
                scale = min(hi, max(lo, coarse * DET_DIE_PX / z))
        finds = self._detect(frame, scale, t.read_heat, shrink=shrink)
        look, seen = scale, finds
        while not any(f.heat >= t.probe_heat for f in seen) and look * 2 <= hi:
            # no clear die: small dice in a big photo? Looked at twice the scale, dice that
            # show clearly, of a size that would not have shown at this one (not their pips),
            # and hotter than what this look saw, are taken instead; a finer look that shows
            # something clearly, taken or not, is the last (finer still would see pips)
            look *= 2
            seen = self._detect(frame, look, t.read_heat, shrink=shrink)
            z = _typical_size([f for f in seen if f.heat >= t.probe_heat], look)
            if (z is not None and z < 2 * t.size_fit[0]
                    and _hottest(seen) >= _hottest(finds) + t.finer_gain):
                scale, finds = look, seen
        for _ in range(t.scale_moves):
            z = _typical_size([f for f in finds if f.heat >= t.probe_heat], scale)
            if z is None or t.size_fit[0] <= z <= t.size_fit[1]:
                break
            moved = min(hi, max(lo, scale * DET_DIE_PX / z))
            if abs(math.log(moved / scale)) < 0.1:
                break
            scale, finds = moved, self._detect(frame, moved, t.read_heat, shrink=shrink)
        return finds

    def _read_finds(self, frame: np.ndarray, finds: list[_Find]) -> None:
        """Each find's crop classified (its angle and probabilities set)."""
        angles, probs = self._classify(frame, [f.at for f in finds])
        for f, a, p in zip(finds, angles, probs, strict=True):
            f.angle, f.p = a, p

    def _rescue(self, frame: np.ndarray, finds: list[_Find]) -> None:
        """A strong find the classifier calls no die (but not all but surely) is cut again where
        the detector, looking closer, puts it (a dark die's size is often seen a third too
        small, and a crop too small shows no whole face); kept there if the classifier then
        sees a die."""
        t = self.tuning
        lost = [f for f in finds
                if t.background <= f.p[BACKGROUND] < t.rescue_doubt and f.heat >= t.rescue_heat]
        if not lost:
            return
        moved = self._refine(frame, [f.at for f in lost])
        angles, probs = self._classify(frame, moved)
        for f, (cx, cy, size), a, p in zip(lost, moved, angles, probs, strict=True):
            if p[BACKGROUND] < t.background:
                f.cx, f.cy, f.size, f.angle, f.p, f.rescued = cx, cy, size, a, p, True

    def _one_per_die(self, frame: np.ndarray, finds: list[_Find]) -> list[DieReading]:
        """A reading per die: finds the classifier calls no die dropped; a find closer to a die
        already read (finds come strongest first) than two flat dice can lie is that die's
        second face, so that die leans: it is flagged, never read. Unless both are read as faces
        and their bodies differ in hue (``_two_bodies``: two dice touching). A rescued find that
        lands on a die already read is dropped."""
        t = self.tuning
        out: list[DieReading] = []
        for f in finds:
            if f.p[BACKGROUND] >= t.background:
                continue  # the classifier, looking closer, sees no die there
            r = self._reading(f.cx, f.cy, f.size, f.angle, f.p)
            close = [i for i, k in enumerate(out) if _one_die(r, k, t)]
            if close and f.rescued:
                continue  # moved onto a die already found
            twin = next((i for i in close if not _two_bodies(frame, out[i], r, t)), None)
            if twin is not None:
                k = out[twin]
                if not k.cocked:
                    out[twin] = replace(k, value=None, cocked=True,
                                        cocked_share=max(k.cocked_share, r.cocked_share))
                continue
            out.append(r)
        return out

    def _second_look(self, frame: np.ndarray, readings: list[DieReading],
                     seen: list[tuple[float, float, float]]) -> list[DieReading]:
        """A die read unsurely, as the whole-frame detector saw it (a small die's centre and
        size are coarse at its scale), read again a little larger and where the detector,
        looking closer, puts it; a closer look that lands nearer another die is that die's, not
        this one's."""
        unsure = [i for i, r in enumerate(readings) if self._unsure(r)]
        if not unsure:
            return readings
        closer = self._refine(frame, [seen[i] for i in unsure])
        alternatives = {
            i: [_resized(seen[i], k) for k in self.tuning.sizes_again]
            + ([near] if _nearest(near, seen) == i else [])
            for i, near in zip(unsure, closer, strict=True)
        }
        return self._look_again(frame, readings, alternatives)

    def _last_look(self, frame: np.ndarray, readings: list[DieReading],
                   seen: list[tuple[float, float, float]]) -> list[DieReading]:
        """A die still unsure after the second look, read a little smaller too (only then: it
        saves the time and changes no reading)."""
        alternatives = {i: [_resized(seen[i], k) for k in self.tuning.sizes_last]
                        for i, r in enumerate(readings) if self._unsure(r)}
        return self._look_again(frame, readings, alternatives)

    def _look_again(self, frame, readings: list[DieReading],
                    alternatives: dict[int, list[tuple[float, float, float]]]
                    ) -> list[DieReading]:
        """Each die ``alternatives`` names (its index in ``readings``) is read again on the
        crops given for it ((cx, cy, size) each); the surest reading with a value, none
        flagged, is kept, else the first. A crop a little off the die (its centre or size, as
        the detector saw a die at an angle, beside another, under a glare) reads unsurely; a
        flagged die is never read from another crop. Every alternative is read: stopping at the
        first sure one misread a simulated throw's two as a one at 0.97 that another crop reads
        right more surely."""
        flat = [d for ds in alternatives.values() for d in ds]
        if not flat:
            return readings
        angles, probs = self._classify(frame, flat)
        looks = iter(self._reading(*d, a, p) for d, a, p in zip(flat, angles, probs, strict=True))
        readings = list(readings)
        for i, ds in alternatives.items():
            cands = [readings[i]] + [next(looks) for _ in ds]
            valued = [c for c in cands if c.value is not None and not c.cocked]
            if valued:
                readings[i] = max(valued, key=lambda r: r.confidence)
        return readings

    def _grey_look(self, frame: np.ndarray, readings: list[DieReading]) -> list[DieReading]:
        """A die still not read after the last look (flat, no value) read once more on its
        lightness alone (its neighbourhood turned grey: B, G and R all the luma), and read as
        that face if the grey crop reads, more surely, the face the colour crop found likeliest
        (``grey_look``; off: never). A camera's JPEG stream keeps the lightness at every pixel
        and the colour at a quarter of them, coarsely quantised on 16-pixel blocks (half a
        die): the classifiers, which heed a face's fine colour, doubt a die whose colour JPEG
        has smeared, while the pips' geometry is whole in its lightness. The grey crop alone
        misreads (a colour's cue lost): it only confirms the colour crop's likeliest face."""
        if not self.tuning.grey_look:
            return readings
        unsure = [i for i, r in enumerate(readings) if r.value is None and self._unsure(r)]
        if not unsure:
            return readings
        grey = frame.copy()
        h, w = frame.shape[:2]
        dice = []
        for i in unsure:
            (cx, cy), size = readings[i].center, readings[i].box[1][0]
            # what the crop (``crop_die``) and the angle (``die_angles``) read, and a margin
            k = int(size * max(0.75 * self.crop_scale, 0.7)) + 3
            x0, y0 = max(0, int(cx) - k), max(0, int(cy) - k)
            x1, y1 = min(w, int(cx) + k + 1), min(h, int(cy) + k + 1)
            if x1 > x0 and y1 > y0:
                grey[y0:y1, x0:x1] = cv2.cvtColor(
                    cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
            dice.append((cx, cy, size))
        angles, probs = self._classify(grey, dice)
        out = list(readings)
        for i, d, a, p in zip(unsure, dice, angles, probs, strict=True):
            r, g = readings[i], self._reading(*d, a, p)
            if (g.value is not None and not g.cocked and g.value == r.best_face
                    and g.confidence > r.confidence):
                out[i] = g
        return out

    def _pip_vote(self, frame: np.ndarray, readings: list[DieReading]) -> list[DieReading]:
        """The pips' count as a second opinion (``vision.pip_count``: a face's pattern from its
        pips' geometry, which no look of a die fools). A die read as a face (below
        ``pip_veto_below``) whose pips cleanly make another face's pattern (quality at least
        ``pip_veto``) is not read: the learnt classifier misreads dice of a look it never saw
        among its surest readings. A die not read, flat (cocked share at most
        ``pip_agree_lean``) and whose likeliest face (at least ``pip_agree_floor``) its pips
        cleanly make (quality at least ``pip_agree``) is read as that face. A flagged die is
        never counted: a vote never turns a cocked die into a value. The count runs only on
        the dice it may change."""
        t = self.tuning
        out = list(readings)
        for i, r in enumerate(readings):
            if r.cocked or r.best_face is None:
                continue
            if r.value is not None:
                if t.pip_veto > 1 or r.confidence >= t.pip_veto_below:
                    continue
                pips = count_pips(frame, r.center, r.box[1][0], r.box[2], t.pip_count)
                if pips.count is not None and pips.count != r.value and pips.quality >= t.pip_veto:
                    out[i] = replace(r, value=None)
            elif (t.pip_agree <= 1 and r.confidence >= t.pip_agree_floor
                  and r.cocked_share <= t.pip_agree_lean):
                pips = count_pips(frame, r.center, r.box[1][0], r.box[2], t.pip_count)
                if pips.count == r.best_face and pips.quality >= t.pip_agree:
                    out[i] = replace(r, value=r.best_face)
        return out

    def _too_poor(self, frame: np.ndarray, readings: list[DieReading]) -> list[DieReading]:
        """A die too small (under ``min_die_px``) or too blurred (its edges wider than
        ``blur_max`` die edges, ``vision.dice_crop.edge_width``) to show its pips is given no
        value, however sure the classifier is: a crop scaled up from a few pixels, or from a
        blur, shows blobs the classifier was never taught to doubt (its confidence on such a
        crop means nothing). So is a die read unsurely (below ``sure``) at more than
        ``odd_size`` times the median size of at least three other dice of the frame read as a
        face (the finds called no face are often shadows and edges of any size): the detector
        saw it too large, and its crop shows the table or a neighbour around its face (a small
        die of a tray read at twice its neighbours' size was misread)."""
        t = self.tuning
        sizes = [r.box[1][0] if r.value is not None else None for r in readings]
        out = []
        for k, r in enumerate(readings):
            size = r.box[1][0]
            others = [s for j, s in enumerate(sizes) if j != k and s is not None]
            if r.value is not None and (size < t.min_die_px
                                        or edge_width(frame, r.center, size) > t.blur_max
                                        or (r.confidence < t.sure
                                            and _odd_size(size, others, t))):
                r = replace(r, value=None)
            out.append(r)
        return out

    # ------------------------------------------------------------------ read_at

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
        tracker's blob centre (top face plus side faces) is moved onto the top face. A die read
        unsurely there (and not flagged) is read again at that centre with the given size and
        at the given centre and size.
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
        alternatives = {i: [(refined[i][0], refined[i][1], dice[i][2]), dice[i]]
                        for i, r in enumerate(readings) if self._unsure(r)}
        return self._by_profile(frame, self._too_poor(frame, self._pip_vote(
            frame, self._look_again(frame, readings, alternatives))))

    # ------------------------------------------------------------------ profile

    def _output_named(self, layer: str) -> str | None:
        """The name ``forward`` takes for ``layer``'s output: OpenCV 5.0 takes the layer's name
        (``onnx_node!/seq.18/Flatten``), 5.1 only its output tensor's (``/seq.18/Flatten_output_0``).
        None if neither runs (a profile then cannot be learnt with this classifier)."""
        bare = layer.removeprefix("onnx_node!")
        blob = self._crops_blob([np.zeros((self.crop_px, self.crop_px, 3), np.uint8)])
        for name in dict.fromkeys((layer, bare, f"{bare}_output_0")):
            try:
                _forward_each(self._cls, blob, name)
            except cv2.error:
                continue
            return name
        return None

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
        out = _forward_each(self._cls, self._crops_blob(crops), self._feature_layer)
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
        """The readings with the pair's profile heeded (``DiceProfile.heed``, die by die; a
        flagged die stays flagged, unjudged)."""
        if self.profile is None:
            return readings
        todo = [i for i, r in enumerate(readings) if not r.cocked]
        if not todo:
            return readings
        feats = self.features(frame, [(readings[i].center[0], readings[i].center[1],
                                       readings[i].box[1][0]) for i in todo], turns=4)
        out = list(readings)
        for i, v in zip(todo, self.profile.judge(feats, views=4), strict=True):
            out[i] = self.profile.heed(readings[i], v, sure=self.tuning.sure, count=lambda r=(
                readings[i]): self.profile.count(frame, r, self.tuning.pip_count))
        return out


def _size_decode(det_card: dict):
    """The map from the detector's log size output to the log size the reader uses: the card's
    ``size_log_line`` ``[a, b]`` (a + b * z), or ``size_scale`` (z + log of it), else the
    identity (the shipped detector)."""
    line, scale = det_card.get("size_log_line"), det_card.get("size_scale")
    if line is not None and scale is not None:
        raise ValueError('the detector card gives both "size_log_line" and "size_scale": keep one')
    if line is not None:
        if (not isinstance(line, list) or len(line) != 2
                or not all(isinstance(v, (int, float)) for v in line) or not line[1] > 0):
            raise ValueError(f'the detector\'s "size_log_line" must be [a, b] with b > 0, '
                             f"not {line!r}")
        a, b = float(line[0]), float(line[1])
        return lambda z: a + b * z
    if scale is not None:
        if not isinstance(scale, (int, float)) or not scale > 0:
            raise ValueError(f'the detector\'s "size_scale" must be a positive number, '
                             f"not {scale!r}")
        shift = math.log(float(scale))
        return lambda z: z + shift
    return lambda z: z


def _odd_size(size: float, others: list[float], t: ReaderTuning) -> bool:
    """Whether a die of ``size`` is far larger (``odd_size``) than the median of the ``others``
    of its frame (at least three of them; never when ``odd_size`` is 0)."""
    return (t.odd_size > 0 and len(others) >= 3
            and size > t.odd_size * statistics.median(others))


def _one_die(a: DieReading, b: DieReading, t: ReaderTuning) -> bool:
    """Whether two finds are one die: closer than ``two_faces_cocked`` edges when either looks
    cocked, else closer than ``two_faces`` edges (two flat dice lie at least an edge apart)."""
    near = t.two_faces_cocked if (a.cocked or b.cocked) else t.two_faces
    return math.dist(a.center, b.center) < near * max(a.box[1][0], b.box[1][0])


def _body_colour(frame: np.ndarray, center: tuple[float, float], size: float,
                 t: ReaderTuning) -> tuple[float, float]:
    """The colour of a die's body around a find's centre: (chroma, hue in degrees) in CIE Lab
    (OpenCV's 8-bit scale), the median of the pixels in a disc of ``body_disc`` die edges
    whose lightness is near the disc's median (a face's pips are the fewer pixels)."""
    k = max(2, int(round(t.body_disc * size)))
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
    body = lab[np.abs(lightness - np.median(lightness)) <= t.body_lightness]
    a, b = (float(np.median(body[:, 1])) - 128.0, float(np.median(body[:, 2])) - 128.0)
    return math.hypot(a, b), math.degrees(math.atan2(b, a))


@functools.lru_cache(maxsize=4)
def _cell_distances(g: int) -> np.ndarray:
    """The squared distance of each cell of a g x g heat map from the map's centre, in cells
    (read only: computed once per size)."""
    yy, xx = np.mgrid[0:g, 0:g]
    cells = (xx + 0.5 - g / 2) ** 2 + (yy + 0.5 - g / 2) ** 2
    cells.flags.writeable = False
    return cells


def _typical_size(finds: list[_Find], scale: float) -> float | None:
    """The dice's edge at the detector's input (frame pixels times ``scale``): the median of
    the hottest dozen finds' sizes; None without a find."""
    if not finds:
        return None
    top = sorted(finds, key=lambda f: -f.heat)[:12]
    return statistics.median(f.size for f in top) * scale


def _hottest(finds: list[_Find], n: int = 5) -> float:
    """The mean heat of the ``n`` hottest finds (0 without a find): how clearly a look sees
    dice."""
    top = sorted((f.heat for f in finds), reverse=True)[:n]
    return sum(top) / len(top) if top else 0.0


def _resized(die: tuple[float, float, float], k: float) -> tuple[float, float, float]:
    """The die (cx, cy, size) at ``k`` times its size."""
    return (die[0], die[1], die[2] * k)


def _nearest(die: tuple[float, float, float], dice: list[tuple[float, float, float]]) -> int:
    """The index of the die in ``dice`` whose centre is nearest the centre of ``die``."""
    return min(range(len(dice)), key=lambda j: math.dist(die[:2], dice[j][:2]))


def _two_bodies(frame: np.ndarray, a: DieReading, b: DieReading, t: ReaderTuning) -> bool:
    """Whether two close finds, each read as a face (a value, not flagged), are two dice:
    their bodies are coloured and of hues far apart. A die's faces share its colour (the
    shade of a side face changes its lightness, not its hue), so a leaning die's two faces
    never pass; a matched pair of dice never does either, and stays under ``_one_die``.
    (Achromatic bodies, white or black, have a hue of noise: they never pass.)"""
    if a.value is None or b.value is None or a.cocked or b.cocked:
        return False
    (ca, ha), (cb, hb) = (_body_colour(frame, d.center, d.box[1][0], t) for d in (a, b))
    apart = abs(ha - hb) % 360.0
    return min(ca, cb) >= t.body_chroma and min(apart, 360.0 - apart) >= t.hue_apart


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
