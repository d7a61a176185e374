"""Pictures of a calibration and of a throw, and checks that a calibration fits a frame."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibration import Calibration, CalibrationError
from vision.observation import ThrowObservation

AREA_COLOUR = (0, 220, 255)  # yellow
WALL_COLOUR = (0, 0, 255)  # red
DIE_COLOUR = (255, 160, 0)  # blue
TRACK_COLOURS = ((255, 0, 255), (255, 255, 0), (0, 255, 0), (0, 128, 255))


def _pt(p) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


def _die_square(centre, die_px: float, angle_deg: float = 0.0) -> np.ndarray:
    box = ((float(centre[0]), float(centre[1])), (float(die_px), float(die_px)), angle_deg)
    return cv2.boxPoints(box).round().astype(np.int32)


def _as_lens_shows(points, cal: Calibration, size: tuple[int, int], closed: bool) -> np.ndarray:
    """The polyline through ``points`` (image points) as the camera shows straight lines
    between them: with ``lens_k1``, each side bowed as the lens bows it (a point the lens
    cannot straighten: the straight side)."""
    pts = [tuple(p) for p in points]
    if cal.lens_k1:
        from vision.lens import Lens

        lens = Lens(cal.lens_k1)
        try:
            flat = [lens.straight(p, size) for p in pts]
        except CalibrationError:
            flat = None
        if flat is not None:
            sides = len(flat) if closed else len(flat) - 1
            out = []
            for i in range(sides):
                (ax, ay), (bx, by) = flat[i], flat[(i + 1) % len(flat)]
                out += [lens.raw((ax + t * (bx - ax), ay + t * (by - ay)), size)
                        for t in np.linspace(0.0, 1.0, 33)[:-1]]
            if not closed:
                out.append(pts[-1])
            pts = out
    return np.array([_pt(p) for p in pts], np.int32)


def draw_calibration(frame: np.ndarray, cal: Calibration) -> np.ndarray:
    """The frame with the area (yellow), the back wall (red) and die-sized squares (blue) drawn:
    one in the middle of the area, one touching the middle of the wall. With ``lens_k1`` the
    area's sides and the wall are drawn bowed as the lens shows straight lines: they should
    lie on the felt's lines and the wall's edge."""
    img = frame.copy()
    size = (img.shape[1], img.shape[0])
    th = max(1, int(round(min(img.shape[:2]) / 300)))
    poly = _as_lens_shows(cal.area, cal, size, closed=True)
    cv2.polylines(img, [poly], True, AREA_COLOUR, th, cv2.LINE_AA)
    (x1, y1), (x2, y2) = cal.back_wall
    cv2.polylines(img, [_as_lens_shows(cal.back_wall, cal, size, closed=False)], False,
                  WALL_COLOUR, 2 * th, cv2.LINE_AA)
    cx = sum(p[0] for p in cal.area) / len(cal.area)
    cy = sum(p[1] for p in cal.area) / len(cal.area)
    cv2.polylines(img, [_die_square((cx, cy), cal.die_px)], True, DIE_COLOUR, th, cv2.LINE_AA)
    # a die resting against the wall: its centre half a die from the wall, on the table's side
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    if (cx - mx) * nx + (cy - my) * ny < 0:
        nx, ny = -nx, -ny
    angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    wall_die = (mx + nx * cal.die_px / 2, my + ny * cal.die_px / 2)
    cv2.polylines(img, [_die_square(wall_die, cal.die_px, angle)], True, DIE_COLOUR, th, cv2.LINE_AA)
    scale = 0.4 * th + 0.1
    low = max(cal.area, key=lambda p: p[1])  # label the area at its lowest corner, off the wall
    cv2.putText(
        img, "area", _pt((low[0] + 4, low[1] - 6)), cv2.FONT_HERSHEY_SIMPLEX, scale, AREA_COLOUR, th
    )
    cv2.putText(img, "back wall", _pt((x1, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, scale, WALL_COLOUR, th)
    cv2.putText(
        img,
        f"die {cal.die_px:g}px",
        _pt((cx + cal.die_px, cy)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        DIE_COLOUR,
        th,
    )
    return img


def _outside(p, w: int, h: int) -> bool:
    return not (0 <= p[0] <= w - 1 and 0 <= p[1] <= h - 1)


# the felt: a pixel further from the felt's median colour (CIELAB distance) than this many
# robust deviations of the felt's own distances, and at least FELT_FLOOR, stands out from it
FELT_DEVIATIONS = 6.0
FELT_FLOOR = 20.0
# how far (summed chromaticity) a darker pixel's hue may be from the felt's to be its shadow
SHADOW_HUE = 0.08
_CROSS = np.ones((3, 3), np.uint8)
# what a die measures on the frame, in die_px (its top face's edge): a camera not straight above
# also sees some of its sides and the rim of its shadow, so a die may look half as large again
SEEN_LOW, SEEN_HIGH = 0.75, 1.5


def _square_edge(blob: np.ndarray) -> float | None:
    """The edge (px) of ``blob`` (a 0/255 mask) when it is a filled square, else None."""
    area = cv2.countNonZero(blob)
    if area < 64:
        return None
    ys, xs = np.nonzero(blob)
    bw, bh = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))[1]
    if min(bw, bh) < 4:
        return None
    if max(bw, bh) / min(bw, bh) < 1.35 and area / (bw * bh) > 0.6:
        return float(math.sqrt(bw * bh))
    return None


def _split_touching(blob: np.ndarray, most: int = 12) -> list[np.ndarray]:
    """Two dice that touch make one blob: erode it until it falls apart, and give each part
    grown back to its share of the blob (none when it never splits)."""
    eroded = blob
    for k in range(1, most + 1):
        eroded = cv2.erode(eroded, _CROSS)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(eroded, connectivity=8)
        parts = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 16]
        if len(parts) >= 2:
            return [cv2.bitwise_and(cv2.dilate((labels == i).astype(np.uint8) * 255, _CROSS,
                                               iterations=k), blob) for i in parts]
        if not parts:
            return []
    return []


def seen_die_sizes(frame: np.ndarray, cal: Calibration) -> list[float]:
    """Edge lengths (px) of the square objects that stand out from the felt inside the area.

    "Stands out" is measured as a colour distance (CIELAB) from the felt's median colour against
    the felt's own spread, so that dark dice on a dark felt count as well as white ones; dice
    that touch are split apart."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.array([_pt(p) for p in cal.area], np.int32)], 255)
    if cv2.countNonZero(mask) < 100:
        return []
    lab = cv2.cvtColor(frame, cv2.COLOR_BGR2LAB).astype(np.float32)
    felt = np.median(lab[mask > 0].reshape(-1, 3), axis=0)
    dist = np.sqrt(((lab - felt) ** 2).sum(axis=2))
    inside = dist[mask > 0]
    median = float(np.median(inside))
    deviation = 1.4826 * float(np.median(np.abs(inside - median)))
    threshold = max(FELT_FLOOR, median + FELT_DEVIATIONS * deviation)
    # a die's shadow is the felt darker: the felt's own hue (chromaticity), less light
    bgr = frame.astype(np.float32)
    chroma = bgr / (bgr.sum(axis=2, keepdims=True) + 1.0)
    felt_chroma = np.median(chroma[mask > 0].reshape(-1, 3), axis=0)
    shadow = (np.abs(chroma - felt_chroma).sum(axis=2) < SHADOW_HUE) & (lab[..., 0] < felt[0])
    fg = ((dist > threshold) & (mask > 0) & ~shadow).astype(np.uint8) * 255
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    sizes = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 64:
            continue
        x, y, bw, bh = stats[i, :4]
        blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8) * 255
        edge = _square_edge(blob)
        if edge is not None:
            sizes.append(edge)
            continue
        sizes.extend(e for part in _split_touching(np.pad(blob, 1))
                     if (e := _square_edge(part)) is not None)
    return sizes


def fit_warnings(frame: np.ndarray, cal: Calibration) -> list[str]:
    """Sentences saying where a calibration does not fit this frame (empty when it fits)."""
    h, w = frame.shape[:2]
    out: list[str] = []
    off = [p for p in cal.area if _outside(p, w, h)]
    if off:
        out.append(
            f"{len(off)} area point(s) lie outside the {w}x{h} frame, e.g. {list(off[0])}: "
            "the area must be where the camera sees it"
        )
    off_wall = [p for p in cal.back_wall if _outside(p, w, h)]
    if off_wall:
        out.append(
            f"the back wall point {list(off_wall[0])} lies outside the {w}x{h} frame: "
            "the camera must see the whole wall line, or hits cannot be judged"
        )
    poly = np.array(cal.area, np.float32).reshape(-1, 1, 2)
    for p in cal.back_wall:
        dist = -cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), True)
        if dist > 2 * cal.die_px:
            out.append(
                f"the back wall point {list(p)} is {dist:.0f} px from the area: "
                "the wall should run along the area's far edge"
            )
            break
    if cal.lens_k1:
        from vision.lens import Lens

        try:
            Lens(cal.lens_k1).straight_calibration(cal, (w, h))
        except CalibrationError as exc:
            out.append(str(exc))
    if cal.die_px > min(w, h) / 3 or cal.die_px < 6:
        out.append(f"die_px {cal.die_px:g} is implausible for a {w}x{h} frame")
    sizes = seen_die_sizes(frame, cal)
    if not sizes:
        out.append(
            "no die-like square was seen inside the area to check die_px against: "
            "calibrate on a frame with both dice lying in the area (dice of the felt's own "
            "colour do not stand out: lay two of another colour for this picture)"
        )
    elif not any(SEEN_LOW * cal.die_px <= s <= SEEN_HIGH * cal.die_px for s in sizes):
        seen = ", ".join(f"{s:.0f}" for s in sorted(sizes)[:6])
        out.append(
            f"die_px {cal.die_px:g} matches nothing seen: the square objects in the area "
            f"measure {seen} px; measure a die's edge on this frame and set die_px"
        )
    return out


def draw_observation(frame: np.ndarray, cal: Calibration, obs: ThrowObservation) -> np.ndarray:
    """The rest frame with the area, the wall, each die's track, box and reading drawn."""
    img = frame.copy()
    th = max(1, int(round(min(img.shape[:2]) / 400)))
    poly = np.array([_pt(p) for p in cal.area], np.int32)
    cv2.polylines(img, [poly], True, AREA_COLOUR, th, cv2.LINE_AA)
    cv2.line(img, _pt(cal.back_wall[0]), _pt(cal.back_wall[1]), WALL_COLOUR, 2 * th, cv2.LINE_AA)
    for i, die in enumerate(obs.dice):
        colour = TRACK_COLOURS[i % len(TRACK_COLOURS)]
        if len(die.track) >= 2:
            pts = np.array([_pt((x, y)) for _, x, y in die.track], np.int32)
            cv2.polylines(img, [pts], False, colour, th, cv2.LINE_AA)
        if die.box is not None:
            cv2.polylines(img, [cv2.boxPoints(die.box).round().astype(np.int32)], True, colour, th)
        where = die.center or (die.track[-1][1:] if die.track else None)
        if where is None:
            continue
        label = "?" if die.value is None else str(die.value)
        flags = "".join(
            c
            for c, on in (("W", die.hit_wall), ("O", die.left_area), ("C", die.cocked))
            if on
        )
        cv2.putText(
            img,
            f"{label} {flags}".strip(),
            _pt((where[0] + cal.die_px * 0.6, where[1] - cal.die_px * 0.6)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5 * th,
            colour,
            th,
            cv2.LINE_AA,
        )
    return img
