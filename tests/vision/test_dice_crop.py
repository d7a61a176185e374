"""Cutting a die out square to its edges (vision.dice_crop)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice_crop import (
    CROP_PX,
    _area_shrunk,
    _gradients_u8,
    crop_die,
    die_angle,
    die_angles,
    edge_width,
)


def square(angle: float, colour=(235, 235, 235), felt=(40, 110, 30), size=44, centre=(160, 120)):
    img = np.zeros((240, 320, 3), np.uint8)
    img[:] = felt
    pts = cv2.boxPoints((centre, (size, size), angle)).astype(np.float32)
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), colour, cv2.LINE_AA, 4)
    return img


def angle_error(a: float, b: float) -> float:
    d = (a - b) % 90.0
    return min(d, 90.0 - d)


@pytest.mark.parametrize("angle", [0.0, 7.0, 22.0, 38.0, 44.0, 61.0, 83.0])
@pytest.mark.parametrize("colour", [(235, 235, 235), (30, 30, 30), (40, 30, 190)])
def test_die_angle_is_found_modulo_a_quarter_turn(angle, colour):
    img = square(angle, colour)
    got = die_angle(img, (160, 120), 44)
    assert -45.0 <= got < 45.0
    assert angle_error(got, angle) < 3.0


def test_crop_turns_the_die_square_to_the_crop():
    img = square(30.0)
    crop = crop_die(img, (160, 120), 44, die_angle(img, (160, 120), 44))
    assert crop.shape == (CROP_PX, CROP_PX, 3)
    # the die fills the middle of the crop and its edges are axis-aligned: the column sums of
    # the die mask step sharply (a turned square would ramp)
    mask = (crop[..., 0] > 128).astype(np.float32)
    cols = mask.sum(axis=0)
    inner = cols[CROP_PX // 2 - 10 : CROP_PX // 2 + 10]
    assert inner.min() > 0.7 * CROP_PX / 1.25
    assert np.ptp(inner) < 3


def test_crop_at_the_frame_edge_and_off_it():
    img = square(0.0, centre=(10, 10))
    assert crop_die(img, (10, 10), 44, 0.0).shape == (CROP_PX, CROP_PX, 3)
    off = crop_die(img, (-500, -500), 44, 0.0)
    assert off.shape == (CROP_PX, CROP_PX, 3) and not off.any()
    # a big die (downscaled crop) keeps its size
    big = square(0.0, size=200, centre=(160, 120))
    assert crop_die(big, (160, 120), 200, 0.0).shape == (CROP_PX, CROP_PX, 3)


@pytest.mark.parametrize("grey", [False, True])
def test_die_angles_measures_each_die_as_if_alone(grey):
    """The angles of many dice are measured in one stacked pass: a die's angle must not depend
    on its neighbours in the stack, at the frame's edge or off it included."""
    img = square(0.0)
    for k, (angle, centre) in enumerate([(12.0, (60, 60)), (33.0, (250, 70)), (71.0, (70, 190)),
                                          (5.0, (300, 230))]):
        part = square(angle, colour=(40 + 60 * k, 200, 230 - 50 * k), centre=centre, size=40)
        mask = np.any(part != square(0.0, size=0)[0, 0], axis=2)
        img[mask] = part[mask]
    if grey:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    dice = [(60, 60, 40), (250, 70, 40), (70, 190, 40), (300, 230, 40), (160, 120, 44),
            (-30, 100, 40), (5, 5, 90)]
    got = die_angles(img, dice)
    assert got == [die_angle(img, (x, y), s) for x, y, s in dice]
    for want, a in zip((12.0, 33.0, 71.0), got, strict=False):
        assert angle_error(a, want) < 3.0
    assert die_angles(img, []) == []


def test_edge_width_is_the_faces_contrast_over_its_steepest_gradient():
    """``edge_width`` takes the grey levels' 2nd and 98th percentiles from their histogram: the
    same levels as ranking every pixel, on real dice and on patches cut by the frame's edge."""
    from pathlib import Path

    stills = Path(__file__).resolve().parents[2] / "fixtures" / "stills"
    frame = cv2.imread(str(stills / "colours_tray.jpg"))
    h, w = frame.shape[:2]
    rng = np.random.default_rng(3)
    for _ in range(200):
        c = (float(rng.uniform(-4, w + 4)), float(rng.uniform(-4, h + 4)))
        size = float(rng.uniform(3, 90))
        r = max(2, int(round(0.5 * size)))
        x, y = int(round(c[0])), int(round(c[1]))
        patch = frame[max(0, y - r) : min(h, y + r + 1), max(0, x - r) : min(w, x + r + 1)]
        got = edge_width(frame, c, size)
        if patch.shape[0] < 3 or patch.shape[1] < 3:
            assert got == float("inf")
            continue
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
        steep = np.sort(cv2.magnitude(gx, gy)[1:-1, 1:-1].ravel())
        steep = float(steep[int(0.98 * (steep.size - 1))])
        levels = np.sort(grey.ravel())
        n = levels.size - 1
        contrast = float(levels[int(0.98 * n)] - levels[int(0.02 * n)])
        if steep <= 1e-3:
            assert got == float("inf")
        else:
            assert got == pytest.approx(contrast / steep / size, rel=1e-6)
    # within half an edge of the centre of a sharp white square on felt, its edges: about a
    # pixel wide, a small share of a 44 px die; blurred, wider; the flat inside has none
    sharp = edge_width(square(0.0, size=30), (160, 120), 44)
    assert 0.0 < sharp < 0.1 < edge_width(cv2.GaussianBlur(square(0.0, size=30), (0, 0), 4),
                                            (160, 120), 44)
    assert edge_width(square(0.0, size=30), (160, 120), 20) == float("inf")


def test_an_8bit_frames_derivatives_are_sobels_of_the_float_patches():
    """die_angles takes both derivatives of an 8-bit frame's patches in one integer pass: the
    same floats, to the bit, as Sobel of each float patch with its mirrored rim, which is what
    the angles were measured on before (the sums after it are the same operations)."""
    from pathlib import Path

    frame = cv2.imread(str(Path(__file__).resolve().parents[2] / "fixtures" / "stills"
                           / "colours_tray.jpg"))
    h, w = frame.shape[:2]
    rng = np.random.default_rng(7)
    for img in (frame, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)):
        chans = 1 if img.ndim == 2 else 3
        dice = [(float(rng.uniform(-20, w + 20)), float(rng.uniform(-20, h + 20)),
                 float(rng.uniform(8, 120))) for _ in range(9)]
        gx, gy = _gradients_u8(img, dice, chans)
        for k, (cx, cy, size) in enumerate(dice):
            scale = 24 / (size * 1.35)
            m = np.array([[scale, 0, 12 - scale * cx], [0, scale, 12 - scale * cy]])
            patch = cv2.warpAffine(img, m, (24, 24), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
            flat = cv2.copyMakeBorder(patch, 1, 1, 1, 1, cv2.BORDER_REFLECT_101).astype(
                np.float32).reshape(26, 26, chans)
            for c in range(chans):
                want_x = cv2.Sobel(flat[..., c], cv2.CV_32F, 1, 0, ksize=3)[1:-1, 1:-1]
                want_y = cv2.Sobel(flat[..., c], cv2.CV_32F, 0, 1, ksize=3)[1:-1, 1:-1]
                assert np.array_equal(gx[c, k].view(np.uint32), want_x.view(np.uint32))
                assert np.array_equal(gy[c, k].view(np.uint32), want_y.view(np.uint32))


def test_a_large_dies_neighbourhood_shrinks_to_cv2s_pixels():
    """crop_die shrinks a large die's neighbourhood with float sums: the pixels of cv2's 8-bit
    INTER_AREA, on real photos' patches at any factor below the crop's."""
    from pathlib import Path

    frame = cv2.imread(str(Path(__file__).resolve().parents[2] / "fixtures" / "stills"
                           / "two_white_wood.jpg"))
    h, w = frame.shape[:2]
    rng = np.random.default_rng(11)
    for _ in range(150):
        r = int(rng.integers(20, 120))
        x0, y0 = int(rng.integers(0, w - 2 * r)), int(rng.integers(0, h - 2 * r))
        src = frame[y0 : y0 + 2 * r + 1, x0 : x0 + 2 * r + 1]
        f = float(rng.uniform(0.15, 0.96))
        assert np.array_equal(_area_shrunk(src, f),
                              cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA))


def _crop_whole_neighbourhood(frame, center, die_px, angle_deg, out_px=CROP_PX, scale=1.25):
    """crop_die as it was: the die's whole neighbourhood shrunk by cv2.resize, then turned."""
    import math

    cx, cy = center
    side = die_px * scale
    k = out_px / side
    ca, sa = math.cos(math.radians(angle_deg)) * k, math.sin(math.radians(angle_deg)) * k
    m = np.array([[ca, sa, out_px / 2 - (ca * cx + sa * cy)],
                  [-sa, ca, out_px / 2 - (-sa * cx + ca * cy)]])
    r = int(side * 0.75) + 2
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
    src = frame[y0:y1, x0:x1]
    m[:, 2] += m[:, 0] * x0 + m[:, 1] * y0
    f = k * 1.6
    src = cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    m[:, :2] /= f
    return cv2.warpAffine(src, m, (out_px, out_px), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def test_a_large_die_is_cut_from_the_part_of_its_neighbourhood_it_reads():
    """A large die's crop shrinks only the part of its neighbourhood the crop reads (the
    columns and rows past it left off): the same crop, to the bit, as shrinking the whole
    neighbourhood, at every angle, at the frame's edges and beyond them."""
    from pathlib import Path

    stills = Path(__file__).resolve().parents[2] / "fixtures" / "stills"
    rng = np.random.default_rng(5)
    for name in ("two_white_wood.jpg", "colours_tray.jpg"):
        frame = cv2.imread(str(stills / name))
        h, w = frame.shape[:2]
        for _ in range(120):
            size = float(np.exp(rng.uniform(np.log(54), np.log(400))))
            c = (float(rng.uniform(-0.3 * size, w + 0.3 * size)),
                 float(rng.uniform(-0.3 * size, h + 0.3 * size)))
            angle = float(rng.uniform(-45, 45))
            if int(c[0]) + int(0.94 * size) < 0 or int(c[1]) + int(0.94 * size) < 0:
                continue  # nothing of it on the frame (crop_die returns black)
            want = _crop_whole_neighbourhood(frame, c, size, angle)
            assert np.array_equal(crop_die(frame, c, size, angle), want), (name, c, size, angle)
