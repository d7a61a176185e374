"""The shipped detector (vision/models/dice_det.onnx) keeps its contract: 4 maps at stride 4,
enough context around each cell, any frame size the reader gives it (rounded to the card's
``multiple``), and the dice of a real photo found where they lie."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import DET_STRIDE, MODEL_DIR, DiceReader, ReaderError

STILLS = Path(__file__).resolve().parents[2] / "fixtures" / "stills"
# the detector that shipped until the net was rebuilt without dilations saw 71 input pixels
# around a cell; its successor must see at least as far
RECEPTIVE_FIELD = 71


@pytest.fixture(scope="module")
def card() -> dict:
    return json.loads((MODEL_DIR / "dice_reader.json").read_text())["detector"]


@pytest.fixture(scope="module")
def det():
    return cv2.dnn.readNetFromONNX(str(MODEL_DIR / "dice_det.onnx"))


def forward(net, x: np.ndarray) -> np.ndarray:
    net.setInput(x)
    return net.forward()


@pytest.mark.parametrize("hw", [(240, 320), (120, 160), (64, 64), (232, 328), (56, 88)])
def test_four_maps_at_stride_four_for_every_side_of_the_cards_multiple(det, card, hw):
    m = int(card.get("multiple", DET_STRIDE))
    h, w = (m * math.ceil(s / m) for s in hw)
    x = np.random.default_rng(1).uniform(-0.5, 0.5, (1, 3, h, w)).astype(np.float32)
    out = forward(det, x)
    assert out.shape == (1, 4, h // DET_STRIDE, w // DET_STRIDE)
    assert np.isfinite(out).all()


def test_a_cell_sees_at_least_as_far_as_the_old_detector(det):
    """The columns (and rows) of input pixels that move a cell's maps span at least 71 px (a
    die's surroundings, a neighbouring die)."""
    size = 192
    x = np.random.default_rng(2).uniform(-0.5, 0.5, (1, 3, size, size)).astype(np.float32)
    c = size // DET_STRIDE // 2
    base = forward(det, x)[0, :, c, c].copy()
    for axis in (2, 3):  # rows, columns
        seen = []
        for k in range(size):
            y = x.copy()
            index = [slice(None)] * 4
            index[axis] = k
            y[tuple(index)] += 2.0
            if np.abs(forward(det, y)[0, :, c, c] - base).max() > 1e-6:
                seen.append(k)
        assert seen and seen[-1] - seen[0] + 1 >= RECEPTIVE_FIELD, (
            f"a cell sees {seen[-1] - seen[0] + 1 if seen else 0} px along axis {axis}")


@pytest.mark.parametrize("size", [(640, 480), (643, 487), (701, 533), (1000, 750)])
def test_the_two_dice_are_found_at_any_frame_size(size):
    frame = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    h0, w0 = frame.shape[:2]
    lines = (STILLS / "two_white_wood.txt").read_text().split("\n")
    truth = [tuple(float(v) for v in ln.split()[1:3]) for ln in lines if ln.strip()]
    frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    dice = DiceReader().find(frame)
    assert len(dice) == len(truth)
    for tx, ty in truth:
        near = min(math.hypot(d.center[0] - tx * size[0], d.center[1] - ty * size[1])
                   for d in dice)
        assert near < 0.1 * min(size), f"no die found near ({tx:.2f}, {ty:.2f})"


def test_a_card_whose_multiple_the_closer_look_cannot_use_is_refused(tmp_path):
    for f in MODEL_DIR.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "dice_reader.json"
    meta = json.loads(path.read_text())
    meta["detector"]["multiple"] = 6  # not a multiple of the stride, nor of refine_px 64
    path.write_text(json.dumps(meta))
    with pytest.raises(ReaderError, match="multiple"):
        DiceReader(tmp_path)


def _model_copy(tmp_path: Path, **detector) -> Path:
    """A copy of the shipped model folder whose card's detector section has ``detector`` added."""
    for f in MODEL_DIR.iterdir():
        if f.is_file():
            shutil.copy(f, tmp_path / f.name)
    path = tmp_path / "dice_reader.json"
    meta = json.loads(path.read_text())
    meta["detector"].update(detector)
    path.write_text(json.dumps(meta))
    return tmp_path


@pytest.fixture(scope="module")
def two_dice() -> np.ndarray:
    return cv2.resize(cv2.imread(str(STILLS / "two_white_wood.jpg")), (640, 480),
                      interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("decode", [{"size_scale": 1.25},
                                    {"size_log_line": [0.3, 0.8]},
                                    {"size_log_line": [0.0, 1.0]}])
def test_the_cards_size_decode_maps_the_detectors_log_size(tmp_path, two_dice, decode):
    """A detector fitted to the shipped one's sizes (tools/detector_size_fit.py) has its log
    size mapped on every find; its centres and heats stay as they are."""
    plain = DiceReader()._detect(two_dice, 0.5)  # 320x240: the input's pixels are half the frame's
    fitted = DiceReader(_model_copy(tmp_path, **decode))._detect(two_dice, 0.5)
    assert len(plain) == len(fitted) >= 2
    a, b = decode.get("size_log_line", [math.log(decode.get("size_scale", 1.0)), 1.0])
    for p, f in zip(plain, fitted, strict=True):
        assert (f.cx, f.cy, f.heat) == (p.cx, p.cy, p.heat)
        z = math.log(p.size * 0.5 / DET_STRIDE)  # the detector's own output
        assert f.size == pytest.approx(math.exp(a + b * z) * DET_STRIDE / 0.5, rel=1e-6)


def test_the_closer_look_takes_the_fitted_size_too(tmp_path, two_dice):
    plain, fitted = DiceReader(), DiceReader(_model_copy(tmp_path, size_scale=1.1))
    dice = [(d.cx, d.cy, d.size) for d in plain._detect(two_dice, 0.5)[:2]]
    for (x0, y0, s0), (x1, y1, s1) in zip(plain._refine(two_dice, dice),
                                          fitted._refine(two_dice, dice), strict=True):
        assert (x1, y1) == (x0, y0)
        assert s1 == pytest.approx(1.1 * s0, rel=1e-6)


@pytest.mark.parametrize("decode, words", [
    ({"size_scale": 0}, "size_scale"),
    ({"size_scale": "big"}, "size_scale"),
    ({"size_log_line": [0.1]}, "size_log_line"),
    ({"size_log_line": [0.1, -1.0]}, "size_log_line"),
    ({"size_scale": 1.1, "size_log_line": [0.0, 1.0]}, "keep one"),
])
def test_a_bad_size_decode_is_refused_naming_the_key(tmp_path, decode, words):
    with pytest.raises(ReaderError, match=words):
        DiceReader(_model_copy(tmp_path, **decode))


def test_the_closer_looks_patch_is_the_die_scaled_to_the_detectors_die_size(two_dice):
    """``refine_patches`` (what tools/train_detector.py teaches the closer look on) cuts the
    square around the die, scaled so a die of 44 px is 22 (never enlarged), with its origin in
    frame pixels; a die at the frame's edge gets the edge's pixels repeated."""
    r = DiceReader()
    p = r.tuning.refine_px
    (big,), (k_big,), ((x0, y0),) = r.refine_patches(two_dice, [(300.0, 200.0, 44.0)])
    assert big.shape == (p, p, 3) and k_big == 0.5 and (x0, y0) == (300 - p, 200 - p)
    want = cv2.resize(two_dice[200 - p:200 + p, 300 - p:300 + p], (p, p),
                      interpolation=cv2.INTER_AREA)
    assert np.array_equal(big, want)
    (small,), (k_small,), _ = r.refine_patches(two_dice, [(300.0, 200.0, 15.0)])
    assert k_small == 1.0 and np.array_equal(small, two_dice[200 - p // 2:200 + p // 2,
                                                               300 - p // 2:300 + p // 2])
    (edge,), _, _ = r.refine_patches(two_dice, [(2.0, 2.0, 15.0)])
    m = p // 2 - 2  # rows and columns off the frame
    assert (edge[:m, :m] == two_dice[0, 0]).all()
    assert (edge[:m, m:] == two_dice[0, : p - m]).all() and np.array_equal(edge[m:, m:],
                                                                            two_dice[: p - m, : p - m])


def test_the_closer_look_takes_only_a_find_of_about_the_known_size(two_dice):
    """With the die's size known, ``refine_near`` leaves out the cells whose find is much
    larger or smaller (two dice seen as one, a pip seen as a die); the reach alone otherwise."""
    r = DiceReader()
    d = r._detect(two_dice, 0.5)[0]
    (patch,), (k,), _ = r.refine_patches(two_dice, [(d.cx, d.cy, d.size)])
    o = forward(r._refiner, cv2.dnn.blobFromImage(patch, 1 / 255.0, mean=(127.5,) * 3))[0]
    from vision.dice import _cell_distances

    cells = _cell_distances(o.shape[-1])
    reach = r.refine_near(o, d.size, k, False, cells)
    assert reach.sum() > 4 and not reach[0, 0]
    assert np.array_equal(r.refine_near(o, d.size, k, True, cells),
                          reach & (np.exp(o[3]) > 0.75 * d.size * k / DET_STRIDE)
                          & (np.exp(o[3]) < 1.33 * d.size * k / DET_STRIDE))
    # a die said to be three times its size: no find near the centre is of that size
    assert not r.refine_near(o, 3 * d.size, k, True, cells).any()


def test_a_closer_look_detector_of_its_own_keeps_its_sizes(tmp_path, two_dice):
    """The card's ``closer_look`` names the closer looks' own detector: the whole-frame finds
    take the card's size map, the closer looks, by another net, do not."""
    folder = _model_copy(tmp_path, size_scale=1.1, closer_look="dice_det_look.onnx")
    shutil.copy(MODEL_DIR / "dice_det.onnx", folder / "dice_det_look.onnx")
    plain, own = DiceReader(), DiceReader(folder)
    finds = plain._detect(two_dice, 0.5)
    assert [f.size * 1.1 for f in finds] == pytest.approx([f.size for f in own._detect(two_dice, 0.5)])
    dice = [f.at for f in finds[:2]]
    assert own._refine(two_dice, dice) == plain._refine(two_dice, dice)
    assert own._refine(two_dice, dice, True) == plain._refine(two_dice, dice, True)


@pytest.mark.parametrize("look, words", [("missing.onnx", "missing.onnx missing"),
                                         (3, "closer_look"), ("", "closer_look")])
def test_a_closer_look_the_folder_lacks_is_refused_naming_it(tmp_path, look, words):
    with pytest.raises(ReaderError, match=words):
        DiceReader(_model_copy(tmp_path, closer_look=look))
