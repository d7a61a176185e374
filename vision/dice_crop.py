"""Cutting one die out of a frame, square to its edges, for the face classifier.

Shared by the runtime reader (`vision.dice`) and the training tool (`tools/train_reader.py`) so
that the classifier sees at run time exactly the kind of crop it was trained on.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# The classifier's input: a CROP_PX x CROP_PX colour crop whose side is CROP_SCALE die edges,
# centred on the top face and turned so the die's edges are axis-aligned.
CROP_PX = 40
CROP_SCALE = 1.25
# Patch size on which the die's in-plane angle is measured (small: it only needs the edges).
_ANGLE_PX = 24
_EIGHTH = np.float32(0.125)


def _angle_mask() -> np.ndarray:
    r = (np.arange(_ANGLE_PX) - (_ANGLE_PX - 1) / 2) / (_ANGLE_PX / 2)
    rr = np.sqrt(r[None, :] ** 2 + r[:, None] ** 2)
    # the edges of a die of side 1/CROP_SCALE of the patch lie near radius 0.8..1.1 of it
    return np.clip(1.25 - rr, 0.0, 1.0).astype(np.float32)


_MASK = _angle_mask()


def die_angle(frame: np.ndarray, center: tuple[float, float], die_px: float) -> float:
    """The die's in-plane rotation in degrees, in [-45, 45), from the edges around `center`.

    Edge directions of a square repeat every 90 degrees, so the gradient angles are averaged
    on the circle after multiplying them by 4 (magnitude-weighted).
    """
    return die_angles(frame, [(center[0], center[1], die_px)])[0]


def _angle_patch(frame: np.ndarray, cx: float, cy: float, die_px: float) -> np.ndarray:
    """The _ANGLE_PX square patch a die's angle is measured on (1.35 die edges)."""
    scale = _ANGLE_PX / (die_px * 1.35)
    m = np.array(
        [[scale, 0.0, _ANGLE_PX / 2 - scale * cx], [0.0, scale, _ANGLE_PX / 2 - scale * cy]],
        dtype=np.float64,
    )
    return cv2.warpAffine(frame, m, (_ANGLE_PX, _ANGLE_PX), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


def _gradients_u8(frame: np.ndarray, dice, chans: int) -> tuple[np.ndarray, np.ndarray]:
    """Sobel's x and y derivatives (float32, channels first: chans x n x _ANGLE_PX x
    _ANGLE_PX) of each die's patch of an 8-bit frame: the patches' channels stacked as planes,
    each patch with its mirrored rim (``BORDER_REFLECT_101``), and both derivatives taken in
    one integer pass (``cv2.spatialGradient``): the same numbers as Sobel of float patches,
    in a fraction of the passes."""
    side = _ANGLE_PX + 2
    n = len(dice)
    planes = np.empty((chans, n, side, side), np.uint8)
    for k, (cx, cy, die_px) in enumerate(dice):
        patch = _angle_patch(frame, cx, cy, die_px).reshape(_ANGLE_PX, _ANGLE_PX, chans)
        planes[:, k, 1:-1, 1:-1] = patch.transpose(2, 0, 1)
    planes[:, :, 0, 1:-1] = planes[:, :, 2, 1:-1]
    planes[:, :, -1, 1:-1] = planes[:, :, -3, 1:-1]
    planes[:, :, :, 0] = planes[:, :, :, 2]
    planes[:, :, :, -1] = planes[:, :, :, -3]
    dx, dy = cv2.spatialGradient(planes.reshape(chans * n * side, side))
    inner = (slice(None), slice(None), slice(1, -1), slice(1, -1))
    return (dx.reshape(chans, n, side, side)[inner].astype(np.float32),
            dy.reshape(chans, n, side, side)[inner].astype(np.float32))


def die_angles(frame: np.ndarray, dice) -> list[float]:
    """``die_angle`` of each die (cx, cy, die_px), all measured in one pass: each die's patch
    is cut with a one-pixel mirrored rim (what Sobel would add at its border), the patches are
    stacked, and Sobel and the sums run once (a frame's dozen dice in under half the time)."""
    n = len(dice)
    if n == 0:
        return []
    chans = frame.shape[2] if frame.ndim == 3 else 1
    if chans not in (1, 3):
        raise ValueError(f"die_angles: a grey or BGR frame, not one of shape {frame.shape}")
    side = _ANGLE_PX + 2
    if frame.dtype == np.uint8:
        gx, gy = _gradients_u8(frame, dice, chans)
    else:
        stack = np.empty((n * side, side, chans), np.float32)
        for k, (cx, cy, die_px) in enumerate(dice):
            patch = cv2.copyMakeBorder(_angle_patch(frame, cx, cy, die_px), 1, 1, 1, 1,
                                       cv2.BORDER_REFLECT_101)
            stack[k * side : (k + 1) * side] = patch.reshape(side, side, chans)
        gx = cv2.Sobel(stack, cv2.CV_32F, 1, 0, ksize=3).reshape(n, side, side, chans)
        gy = cv2.Sobel(stack, cv2.CV_32F, 0, 1, ksize=3).reshape(n, side, side, chans)
        gx = np.moveaxis(gx[:, 1:-1, 1:-1], -1, 0)
        gy = np.moveaxis(gy[:, 1:-1, 1:-1], -1, 0)
    if chans == 3:
        # per pixel, the channel with the strongest edge: a red die on red felt still has hue
        # (argmax over the channels, the first of equals, spelt out: twice as fast as a gather)
        mag = gx * gx + gy * gy
        m0, m1, m2 = mag[0], mag[1], mag[2]
        first = (m0 >= m1) & (m0 >= m2)
        second = ~first & (m1 >= m2)
        gx = np.where(first, gx[0], np.where(second, gx[1], gx[2]))
        gy = np.where(first, gy[0], np.where(second, gy[1], gy[2]))
    else:
        gx, gy = gx[0], gy[0]
    # sum of |g|^2 * mask * e^(4i theta) = mask * (gx + i gy)^4 / |g|^2, without arctan/sin/cos
    xx, yy = gx * gx, gy * gy
    z2 = (xx - yy) + 2j * (gx * gy)
    mag2 = xx + yy
    v = (_MASK * (z2 * z2) / np.maximum(mag2, 1e-12)).sum(axis=(1, 2))
    out = []
    for s, c in zip(v.imag.tolist(), v.real.tolist(), strict=True):
        if s == 0.0 and c == 0.0:
            out.append(0.0)
            continue
        deg = math.degrees(math.atan2(s, c)) / 4.0
        out.append(((deg + 45.0) % 90.0) - 45.0)
    return out


def crop_die(
    frame: np.ndarray,
    center: tuple[float, float],
    die_px: float,
    angle_deg: float,
    out_px: int = CROP_PX,
    scale: float = CROP_SCALE,
) -> np.ndarray:
    """The out_px x out_px crop of the die at `center` (edge `die_px`), turned by `angle_deg`."""
    cx, cy = center
    side = die_px * scale
    k = out_px / side
    a = math.radians(angle_deg)
    ca, sa = math.cos(a) * k, math.sin(a) * k
    # maps frame -> crop: rotate by -angle about the centre, scale, then centre in the crop
    m = np.array(
        [
            [ca, sa, out_px / 2 - (ca * cx + sa * cy)],
            [-sa, ca, out_px / 2 - (-sa * cx + ca * cy)],
        ],
        dtype=np.float64,
    )
    # work on the die's neighbourhood only: cheap on a 1280x720 frame
    r = int(side * 0.75) + 2
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
    if x1 <= x0 or y1 <= y0:  # the centre lies off the frame: nothing of the die to see
        return np.zeros((out_px, out_px) + frame.shape[2:], frame.dtype)
    src = frame[y0:y1, x0:x1]
    m[:, 2] += m[:, 0] * x0 + m[:, 1] * y0
    if k < 0.6:
        # shrinking more than ~2x with bilinear sampling would alias small pips away
        f = k * 1.6
        m[:, :2] /= f
        src = _area_shrunk(_read_part(src, m, f, out_px), f)
    return cv2.warpAffine(
        src, m, (out_px, out_px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def _read_part(src: np.ndarray, m: np.ndarray, f: float, out_px: int) -> np.ndarray:
    """The part of ``src`` that its shrink by ``f`` needs for the crop ``m`` (shrunk pixels ->
    crop) to read: ``src`` less the columns and rows past the last shrunk pixel the crop's
    bilinear samples reach (plus a pixel for their fixed-point rounding). An area shrink's
    pixel depends only on the source pixels under it, counted from the top left, so the
    shrunk pixels the crop reads are the same; where it reads the shrink's last column or row
    (the source cut by the frame's edge), nothing is left off."""
    h, w = src.shape[:2]
    inv = cv2.invertAffineTransform(m)
    edge = float(out_px - 1)
    xs = [inv[0, 0] * u + inv[0, 1] * v + inv[0, 2] for u in (0.0, edge) for v in (0.0, edge)]
    ys = [inv[1, 0] * u + inv[1, 1] * v + inv[1, 2] for u in (0.0, edge) for v in (0.0, edge)]
    cols, rows = math.floor(max(xs)) + 2, math.floor(max(ys)) + 2  # the last ones read
    if cols < round(w * f) - 1:
        w = min(w, math.ceil((cols + 1) / f) + 2)
    if rows < round(h * f) - 1:
        h = min(h, math.ceil((rows + 1) / f) + 2)
    return src[:h, :w]


def _area_shrunk(src: np.ndarray, f: float) -> np.ndarray:
    """``cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)``, to the pixel, a
    fifth sooner for an 8-bit image. OpenCV shrinks by a factor that is not whole with float
    sums whatever the pixels' type (its 8-bit loop converts each pixel as it reads it), and
    rounds the sums half to even into 8 bits; given the pixels as floats, it makes the same
    sums faster."""
    if src.dtype != np.uint8:
        return cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    sums = cv2.resize(src.astype(np.float32), None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    # rounded half to even and saturated, as OpenCV's 8-bit store does (the sums are >= 0)
    return cv2.convertScaleAbs(sums)


def edge_width(frame: np.ndarray, center: tuple[float, float], die_px: float) -> float:
    """How blurred a die is, in die edges: its top face's contrast (the 2nd to 98th percentile
    of grey levels within half an edge of ``center``) over its steepest gradient (the 98th
    percentile), a sharp edge's width in pixels, divided by the die's edge. Measured on the
    frame's own pixels, so a small die is not made sharper or blurrier by cutting its crop;
    a pip is about a fifth of an edge across, so a face whose edges are a good part of that
    wide shows no pip to count."""
    h, w = frame.shape[:2]
    r = max(2, int(round(0.5 * die_px)))
    x, y = int(round(center[0])), int(round(center[1]))
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(w, x + r + 1), min(h, y + r + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return float("inf")
    patch = frame[y0:y1, x0:x1]
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY) if patch.ndim == 3 else patch
    if grey.dtype == np.uint8:
        # Sobel's two 3x3 derivatives in one integer pass, its rim too (the same border),
        # then scaled: the same floats to the bit as Sobel of the float patch, in a third of
        # its time (cv2.magnitude, whose result depends on where a pixel lies in its row, is
        # given the same arrays)
        dx, dy = cv2.spatialGradient(grey)
        gx, gy = dx.astype(np.float32), dy.astype(np.float32)
        gx *= _EIGHTH
        gy *= _EIGHTH
    else:
        flat = grey.astype(np.float32)
        gx = cv2.Sobel(flat, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
        gy = cv2.Sobel(flat, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    mag = cv2.magnitude(gx, gy)[1:-1, 1:-1].ravel()
    k = int(0.98 * (mag.size - 1))
    steep = float(np.partition(mag, k)[k])
    if steep <= 1e-3:
        return float("inf")
    # the 2nd and 98th percentile grey levels, from the levels' histogram (256 bins, not a
    # partition of every pixel): the k-th smallest level is the first whose running count
    # passes k
    levels = grey.ravel()
    k_lo, k_hi = int(0.02 * (levels.size - 1)), int(0.98 * (levels.size - 1))
    if levels.dtype == np.uint8:
        running = np.cumsum(np.bincount(levels, minlength=256))
        lo, hi = np.searchsorted(running, (k_lo, k_hi), side="right")
    else:
        ranked = np.partition(levels, (k_lo, k_hi))
        lo, hi = ranked[k_lo], ranked[k_hi]
    return float(hi - lo) / steep / die_px
