"""The reader's training tools: rendered dice crops are labelled right, kinds of dice can be left
out of training and scored alone, and an exported classifier reads the same in cv2.dnn as in
torch (that one skips without torch: CI has none)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import read_accuracy  # noqa: E402
import render_dice_crops as rdc  # noqa: E402
import train_reader  # noqa: E402
from reader_data import SPLIT_FILE  # noqa: E402


def count_pips(crop: np.ndarray, body: np.ndarray, far_by: float = 40) -> int:
    """Pips on a plain overhead crop counted without the renderer: blobs more than ``far_by``
    from the body in Lab, within the top face (the crop is 1.25 die edges wide, so a circle of
    0.48 edges about its centre lies on the face whatever the die's turn)."""
    px = crop.shape[0]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    ref = cv2.cvtColor(np.uint8([[body]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    far = (np.linalg.norm(lab - ref, axis=2) > far_by).astype(np.uint8)
    yy, xx = np.mgrid[0:px, 0:px]
    far[(xx - px / 2 + 0.5) ** 2 + (yy - px / 2 + 0.5) ** 2 > (0.48 * px / 1.25) ** 2] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(far)
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= 4 for i in range(1, n)))


@pytest.mark.parametrize("value", range(1, 7))
def test_a_rendered_die_shows_as_many_pips_as_its_label(value):
    rng = np.random.default_rng(100 + value)
    looks = [((40, 30, 190), (245, 245, 245)), ((230, 230, 230), (20, 20, 20)),
             ((150, 60, 20), (245, 245, 245)), ((40, 190, 230), (20, 20, 20))]
    for body, pip in looks:
        look = rdc.DieLook(body=np.array(body, float), pip=np.array(pip, float), marble=None,
                           translucent=0.0, engraved=False, corner=0.1, pip_radius=0.09,
                           pip_spacing=0.27)
        crop, got, _ = rdc.render(rng, value=value, size_px=48, look=look, plain=True)
        assert got == value
        assert crop.shape == (rdc.CROP_PX, rdc.CROP_PX, 3) and crop.dtype == np.uint8
        # the overhead light brightens the top face: the body as seen
        seen = np.clip(np.array(body, float) * 1.1, 0, 255).astype(np.uint8)
        assert count_pips(crop, seen) == value, (body, pip)


def test_rendered_crops_cover_every_face_and_many_looks():
    xs, ys = rdc.rendered_crops(60, seed=3)
    assert xs.shape == (60, rdc.CROP_PX, rdc.CROP_PX, 3)
    assert set(ys.tolist()) == set(range(1, 7))
    # many body colours: the crops' centre colours spread widely in hue and lightness
    centre = xs[:, 14:26, 14:26].reshape(60, -1, 3).mean(1)
    assert centre.std(0).min() > 25


def test_a_die_look_has_pips_that_stand_out_at_least_a_few_grey_levels():
    rng = np.random.default_rng(0)
    for _ in range(200):
        look = rdc.DieLook.random(rng)
        assert rdc._contrast(look.body, look.pip) >= rdc.MIN_PIP_CONTRAST - 1


def test_leaning_dice_are_rendered_as_the_cocked_class():
    xs, ys = rdc.rendered_crops(80, seed=4, cocked_share=0.5)
    cocked = ys == rdc.COCKED
    assert 25 < cocked.sum() < 55
    assert set(ys[~cocked].tolist()) <= set(range(1, 7))
    # train_reader maps the renderer's labels to its classes: faces 0..5, leaning dice COCKED
    rng = np.random.default_rng(0)
    look = rdc.DieLook(body=np.array((230.0, 230, 230)), pip=np.array((20.0, 20, 20)),
                       marble=None, translucent=0.0, engraved=False, corner=0.1,
                       pip_radius=0.09, pip_spacing=0.27)
    _, label, _ = rdc.render(rng, value=3, size_px=48, look=look, cocked=True)
    assert label == rdc.COCKED


def _pattern_spread(look, rng) -> float:
    """How much a face's body colour varies across it (mean spread of its BGR channels)."""
    return float(rdc.body_pattern(look, rdc.TEX, rng).reshape(-1, 3).std(0).mean())


def test_marbled_and_wooden_bodies_are_patterned_and_plain_ones_are_not():
    rng = np.random.default_rng(2)
    looks = [rdc.DieLook.random(rng) for _ in range(400)]
    by_grain = {g: [lk for lk in looks if lk.marble is not None and lk.grain == g]
                for g in ("veins", "wood", "swirl")}
    plain = [lk for lk in looks if lk.marble is None]
    assert all(len(v) >= 5 for v in by_grain.values()) and len(plain) > 150
    assert all(_pattern_spread(lk, rng) < 1e-6 for lk in plain[:10])
    for grain, some in by_grain.items():
        spread = [_pattern_spread(lk, rng) for lk in some[:10]]
        assert np.median(spread) > 5, grain
    # wooden dice are brown: red over green over blue, in BGR
    for lk in by_grain["wood"]:
        b, g, r = lk.body
        assert r >= g >= b, lk.body


def _plain_die(value: int, body, pip, seed: int = 0) -> np.ndarray:
    look = rdc.DieLook(body=np.array(body, float), pip=np.array(pip, float), marble=None,
                       translucent=0.0, engraved=False, corner=0.1, pip_radius=0.09,
                       pip_spacing=0.27)
    crop, got, _ = rdc.render(np.random.default_rng(seed), value=value, size_px=48, look=look,
                              plain=True)
    assert got == value
    return crop


@pytest.mark.parametrize("value", (1, 4, 6))
def test_turning_the_lightness_over_makes_a_black_die_white_and_keeps_its_pips(value):
    crop = _plain_die(value, (25, 25, 25), (245, 245, 245), seed=value)
    turned = train_reader.invert_lightness(crop)
    px = crop.shape[0]
    # the body (a corner of the face, away from every pip) was dark and is now light
    body_at = (slice(int(px * 0.16), int(px * 0.22)), slice(int(px * 0.48), int(px * 0.52)))
    assert crop[body_at].mean() < 80 < 170 < turned[body_at].mean()
    seen = np.clip(255 - np.array([25.0] * 3) * 1.1, 0, 255).astype(np.uint8)
    assert count_pips(turned, seen) == value
    # turned over twice: the crop as it was (Lab's rounding aside)
    back = train_reader.invert_lightness(turned).astype(int)
    assert np.abs(back - crop.astype(int)).mean() < 3


def test_grey_low_resolution_and_stretch_keep_a_crop_a_crop():
    rng = np.random.default_rng(4)
    crop = _plain_die(5, (40, 30, 190), (245, 245, 245))
    g = train_reader.grey(crop, rng)
    assert g.shape == crop.shape and (g[..., 0] == g[..., 1]).all() and (g[..., 1] == g[..., 2]).all()
    low = train_reader.low_resolution(crop, rng)
    assert low.shape == crop.shape and low.dtype == np.uint8
    # fewer pixels' worth of detail: the sharp pip edges are softened
    edges = lambda im: np.abs(np.diff(im.astype(float), axis=1)).mean()  # noqa: E731
    assert edges(low) < edges(crop)
    st = train_reader.stretch(crop, rng)
    assert st.shape == crop.shape and int(st.max()) - int(st.min()) >= 200


def test_veins_are_drawn_over_the_body_and_spare_the_pips():
    crop = _plain_die(6, (230, 230, 230), (20, 20, 20))
    changed = np.zeros(crop.shape[:2], bool)
    for seed in range(6):
        out = train_reader.veins(crop, np.random.default_rng(seed))
        changed |= np.abs(out.astype(int) - crop.astype(int)).sum(axis=2) > 30
    seen = np.clip(np.array([230.0] * 3) * 1.1, 0, 255).astype(np.uint8)
    dark = crop.mean(axis=2) < 100  # the pips
    assert changed[~dark].mean() > 0.05  # veins across the body
    assert not changed[dark].any()  # the pips as they were
    assert count_pips(crop, seen) == 6


def _colourful_frame(seed: int = 3, h: int = 240, w: int = 320) -> np.ndarray:
    """A frame with colour at every scale: smooth patches, then fine colour grain whose
    lightness barely changes (what 4:2:0 keeps at a quarter of the pixels)."""
    rng = np.random.default_rng(seed)
    base = cv2.resize(rng.integers(0, 256, (h // 16, w // 16, 3), dtype=np.uint8), (w, h),
                      interpolation=cv2.INTER_CUBIC).astype(np.float32)
    grain = rng.normal(0, 40, (h, w, 3)).astype(np.float32)
    grain -= grain.mean(axis=2, keepdims=True)  # colour, not lightness
    frame = np.clip(base + grain, 0, 255).astype(np.uint8)
    cv2.rectangle(frame, (150, 90), (185, 125), (230, 230, 230), -1)  # a die
    for x, y in ((158, 98), (167, 107), (176, 116)):
        cv2.circle(frame, (x, y), 3, (20, 20, 20), -1)
    return frame


def _jpeg(frame: np.ndarray, sampling: int, quality: int = 40) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality,
                                           cv2.IMWRITE_JPEG_SAMPLING_FACTOR, sampling])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _fine_chroma(im: np.ndarray) -> float:
    """Colour detail finer than 2 px: Cr and Cb less their 2x2 block means."""
    ycc = cv2.cvtColor(im, cv2.COLOR_BGR2YCrCb).astype(np.float32)[..., 1:]
    h, w = (ycc.shape[0] // 2) * 2, (ycc.shape[1] // 2) * 2
    c = ycc[:h, :w]
    blocks = c.reshape(h // 2, 2, w // 2, 2, 2).mean(axis=(1, 3))
    return float(np.abs(c - np.repeat(np.repeat(blocks, 2, 0), 2, 1)).mean())


def test_the_webcam_stream_is_the_whole_frame_s_4_2_0_jpeg_at_the_die_s_own_size():
    frame = _colourful_frame()
    cx, cy, size = 167.6, 107.3, 35.0  # off the 16-px grid
    part, x0, y0 = train_reader.webcam_frame(frame, cx, cy, size, np.random.default_rng(0),
                                             quality=40, noise=0)
    assert x0 % 16 == 0 and y0 % 16 == 0  # cut on the frame's MCU grid
    reach = 0.75 * 1.5 * size * train_reader.CROP["scale"]  # the widest jittered crop reads
    assert x0 <= cx - reach and y0 <= cy - reach
    assert x0 + part.shape[1] >= cx + reach and y0 + part.shape[0] >= cy + reach
    whole_420 = _jpeg(frame, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420)
    whole_444 = _jpeg(frame, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444)
    sl = np.s_[y0 + 2 : y0 + part.shape[0] - 2, x0 + 2 : x0 + part.shape[1] - 2]
    inner = part[2:-2, 2:-2].astype(int)
    # within the cut (its own border aside), the very pixels the whole frame's stream gives
    assert (inner == whole_420[sl].astype(int)).all()
    assert np.abs(inner - whole_444[sl].astype(int)).mean() > 2
    # its colour at a quarter of the pixels: the fine colour grain is gone, the lightness kept
    assert _fine_chroma(part) < 0.5 * _fine_chroma(whole_444[sl])
    assert _fine_chroma(part) < 0.3 * _fine_chroma(frame[sl])
    # the crop the classifier is given is the one cut from the streamed whole frame
    saved = dict(train_reader.WEBCAM)
    try:
        train_reader.WEBCAM.update(share=1.0, q_lo=40, q_hi=40, noise=0.0)
        img, mx, my = train_reader.streamed(frame, cx, cy, size, np.random.default_rng(1))
        got = train_reader.crop(img, (mx, my), size, 10.0).astype(int)
        want = train_reader.crop(whole_420, (cx, cy), size, 10.0).astype(int)
        assert np.abs(got - want).max() <= 1
        train_reader.WEBCAM.update(share=0.0)
        img, mx, my = train_reader.streamed(frame, cx, cy, size, np.random.default_rng(1))
        assert img is frame and (mx, my) == (cx, cy)
    finally:
        train_reader.WEBCAM.clear()
        train_reader.WEBCAM.update(saved)


def test_the_webcam_stream_s_sensor_noise_comes_before_its_jpeg():
    frame = _colourful_frame()
    clean, *_ = train_reader.webcam_frame(frame, 167.6, 107.3, 35.0, np.random.default_rng(0),
                                          quality=85, noise=0)
    noisy, *_ = train_reader.webcam_frame(frame, 167.6, 107.3, 35.0, np.random.default_rng(0),
                                          quality=85, noise=8)
    assert noisy.shape == clean.shape
    assert 2 < np.abs(noisy.astype(int) - clean.astype(int)).mean() < 8


def test_a_webcam_share_or_quality_out_of_reach_is_refused():
    for bad in (["--webcam", "1.5"], ["--webcam-quality", "90", "30"],
                ["--webcam-noise", "-0.1"]):
        with pytest.raises(SystemExit):
            train_reader.main(["cls", *bad])


def test_an_unknown_invariance_is_refused_with_the_known_ones():
    with pytest.raises(SystemExit):
        train_reader.main(["cls", "--invariance", "mirror=0.3"])
    with pytest.raises(SystemExit):
        train_reader.main(["cls", "--invariance", "polarity=lots"])


def test_min_confidence_is_the_least_threshold_within_the_misread_share():
    conf = np.array([0.99, 0.98, 0.97, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5])
    wrong = np.array([0, 0, 0, 1, 0, 0, 1, 0, 1, 0], bool)
    # one wrong die in ten may pass: down to 0.85 (0.8 lets a second one through)
    assert train_reader.least_confidence(conf, wrong, 0.1) == 0.85
    assert train_reader.least_confidence(conf, wrong, 0.2) == 0.7
    assert train_reader.least_confidence(conf, wrong, 0.0) == 0.97
    assert train_reader.least_confidence(conf, wrong, 0.3) == 0.5
    # a threshold cannot split dice of the same confidence
    tied = np.array([0.99, 0.9, 0.9, 0.8])
    assert train_reader.least_confidence(tied, np.array([0, 0, 1, 0], bool), 0.0) == 0.99
    assert train_reader.least_confidence(np.array([0.9]), np.array([True]), 0.0) == 1.0


def test_calibration_error_is_zero_when_confidence_is_accuracy():
    conf = np.array([0.75] * 4 + [0.95] * 20)
    right = np.array([1, 1, 1, 0] + [1] * 19 + [0], bool)
    assert train_reader.expected_calibration_error(conf, right) == pytest.approx(0.0)
    assert train_reader.expected_calibration_error(conf, np.ones(24, bool)) == pytest.approx(
        (4 * 0.25 + 20 * 0.05) / 24)


@pytest.fixture(scope="module")
def split() -> dict:
    s = json.loads(SPLIT_FILE.read_text())
    if "kinds" not in s:
        pytest.fail(f"{SPLIT_FILE} has no kinds: run tools/train_reader.py kinds")
    return s


def test_every_labelled_die_has_a_kind(photos_dir, split):
    kinds = split["kinds"]
    for s in ("nell-byler", "matteop65"):
        for txt in sorted((photos_dir / s).glob("*.txt")):
            n = sum(1 for line in txt.read_text().splitlines() if line.strip())
            got = kinds["dice"][s][txt.with_suffix(".jpg").name]
            assert len(got) == n
            assert all(kinds["kinds"][k]["set"] == s for k in got)
    assert sum(k["dice"] for k in kinds["kinds"].values()) == 1487 + 951


def test_a_kind_left_out_is_neither_trained_on_nor_cut_as_background(photos_dir, split,
                                                                      monkeypatch):
    assert all(p.hidden == [] for _, p in train_reader.load_part("tune"))
    monkeypatch.setattr(train_reader, "LEAVE_OUT_KINDS", ["nell-byler/1"])
    data = train_reader.load_part("held_out")
    hidden = [d for _, p in data for d in p.hidden]
    kept = [d for _, p in data for d in p.dice]
    expected = sum(k == "nell-byler/1" for name in split["sets"]["nell-byler"]["held_out"]
                   for k in split["kinds"]["dice"]["nell-byler"][name])
    assert len(hidden) == expected > 0
    assert all(d.kind == "nell-byler/1" for d in hidden)
    assert not any(d.kind == "nell-byler/1" for d in kept)
    rng = np.random.default_rng(0)
    # background crops are cut away from every die, the left-out ones too
    with_hidden = [(img, p) for img, p in data if p.hidden]
    cuts = []
    real_crop = train_reader.crop
    monkeypatch.setattr(train_reader, "crop",
                        lambda img, c, *a, **k: cuts.append(c) or real_crop(img, c, *a, **k))
    train_reader.cls_epoch(with_hidden[:1], rng, per_die=0, n_bg=300, n_cocked=0)
    p = with_hidden[0][1]
    assert cuts
    for cx, cy in cuts:
        assert all(np.hypot(cx - d.cx, cy - d.cy) >= 0.45 * d.size for d in p.hidden)
    # the detector's hits on a left-out die are neither positives nor hard negatives
    pos, neg = train_reader.mine(with_hidden[:2], scales=(1.0,))
    for k, cx, cy, *_ in pos + neg:
        for d in with_hidden[k][1].hidden:
            assert np.hypot(cx - d.cx, cy - d.cy) > 0.3 * d.size


def test_a_kind_weight_gives_that_kind_s_dice_more_crops(photos_dir, split):
    data = train_reader.load_part("held_out")[:12]
    dice = [d for _, p in data for d in p.dice]
    black = sum(d.kind == "nell-byler/0" for d in dice)
    assert 0 < black < len(dice)
    kw = dict(per_die=2, n_bg=0, n_cocked=0)
    plain = len(train_reader.cls_epoch(data, np.random.default_rng(0), **kw)[1])
    heavy = len(train_reader.cls_epoch(data, np.random.default_rng(0),
                                       kind_weight={"nell-byler/0": 3}, **kw)[1])
    assert plain == 2 * len(dice)
    assert heavy == plain + 2 * 2 * black


def test_the_bench_scores_a_left_out_kind_alone(photos_dir, split, capsys):
    read_accuracy.main(["--leave-out", "nell-byler/1", "--part", "held_out", "--json",
                        "--repeat", "1"])
    out = capsys.readouterr().out
    got = json.loads(out.strip().splitlines()[-1])["nell-byler/1"]
    names = split["sets"]["nell-byler"]["held_out"]
    per_photo = [split["kinds"]["dice"]["nell-byler"][n].count("nell-byler/1") for n in names]
    assert got["dice"] == sum(per_photo)
    assert got["images"] == sum(1 for n in per_photo if n)
    assert got["correct"] + got["misread"] + got["abstained"] + got["missed"] == got["dice"]
    assert "nell-byler/1 (dark blue)" in out


def test_an_unknown_kind_is_refused_with_the_known_ones(photos_dir, split):
    with pytest.raises(SystemExit, match="unknown kind 'blue'.*nell-byler/0"):
        read_accuracy.main(["--leave-out", "blue"])


def test_an_exported_classifier_reads_the_same_in_cv2_dnn(tmp_path):
    torch = pytest.importorskip("torch", reason="torch is a training tool (not in CI)")
    pytest.importorskip("onnx", reason="exporting needs onnx")
    torch.manual_seed(0)
    net = train_reader.cls_net("grid").eval()
    path = tmp_path / "cls.onnx"
    t = 1.7
    train_reader.export(train_reader.with_temperature(net, t), (1, 3, 40, 40), path)
    x = torch.rand(6, 3, 40, 40) - 0.5
    with torch.no_grad():
        ref = net(x).numpy() / t
    cvnet = cv2.dnn.readNetFromONNX(str(path))
    cvnet.setInput(x.numpy())
    np.testing.assert_allclose(cvnet.forward(), ref, atol=1e-3)
    assert path.stat().st_size < 1_000_000


def test_an_earlier_renderer_s_crops_are_taken_from_its_cache_or_refused_clearly():
    with pytest.raises(SystemExit) as e:
        train_reader.rendered_extra(10, seed=987654, version=rdc.RENDERER + 90)
    assert f"renderer {rdc.RENDERER + 90}" in str(e.value)
    assert "--rendered-version" in str(e.value)


def test_a_find_is_cut_within_the_mined_jitter_and_as_often_as_asked(photos_dir, split,
                                                                      monkeypatch):
    # the detector's finds cut up to 15% larger or smaller and 0.1 edge off centre, evenly:
    # the spread a second detector's find of the same die has
    monkeypatch.setitem(train_reader.MINED_JITTER, "size", 0.14)
    monkeypatch.setitem(train_reader.MINED_JITTER, "centre", 0.1)
    monkeypatch.setitem(train_reader.MINED_JITTER, "even", True)
    rng = np.random.default_rng(3)
    cuts = np.array([train_reader.mined_cut(100.0, 50.0, 40.0, rng) for _ in range(2000)])
    dx, dy, k = (cuts[:, 0] - 100) / 40, (cuts[:, 1] - 50) / 40, np.log(cuts[:, 2] / 40)
    for v, reach in ((dx, 0.1), (dy, 0.1), (k, 0.14)):
        assert np.abs(v).max() <= reach
        assert np.abs(v).max() > 0.95 * reach  # out to the edge, not bunched at the centre
        assert np.mean(np.abs(v) > reach / 2) > 0.4  # even: half of them past half way
    data = train_reader.load_part("held_out")[:2]
    pos = [(0, d.cx, d.cy, d.size, d.value) for d in data[0][1].dice]
    monkeypatch.setitem(train_reader.MINED_JITTER, "repeat", 3)
    xs, ys = train_reader.cls_epoch(data, rng, per_die=0, n_bg=0, n_cocked=0,
                                    mined=(pos, []))
    assert len(ys) == 3 * len(pos)
    assert sorted(ys.tolist()) == sorted(3 * [v - 1 for *_, v in pos])


def test_a_mined_jitter_out_of_reach_is_refused():
    for bad in (["--mined-jitter", "0.9", "0.1"], ["--mined-jitter", "0.1", "0.5"],
                ["--mined-repeat", "0"]):
        with pytest.raises(SystemExit):
            train_reader.main(["cls", *bad])


def test_the_dev_photos_wrong_labels_are_corrected_where_read_and_a_stale_fix_is_refused(tmp_path):
    """tools/label_fixes.json: the marbled green die of IMG_20191209_095954 labelled two shows
    three. Read through the bench's and the training's readers, its label is three and the
    photo's other dice keep theirs; a label file where the fix finds no such die is an error,
    not a silent skip."""
    from reader_data import load_labels

    photo = tmp_path / "nell-byler"
    photo.mkdir()
    txt = photo / "IMG_20191209_095954.txt"
    # class = face - 1, normalised to a 640x640 photo: the wrong two, and a five elsewhere
    txt.write_text(f"1 {239.8 / 640} {338.6 / 640} 0.06 0.06\n4 0.2 0.2 0.06 0.06\n")
    assert [v for v, *_ in read_accuracy.read_labels(txt, 640, 640)] == [3, 5]
    assert [d.value for d in load_labels(txt, 640, 640, "nell-byler")] == [3, 5]
    txt.write_text("1 0.5 0.5 0.06 0.06\n")
    with pytest.raises(ValueError, match="label_fixes.json"):
        read_accuracy.read_labels(txt, 640, 640)
