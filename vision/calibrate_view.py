"""Pictures of a calibration and of a throw, and checks that a calibration fits a frame."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.calibration import Calibration
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


def draw_calibration(frame: np.ndarray, cal: Calibration) -> np.ndarray:
    """The frame with the area (yellow), the back wall (red) and die-sized squares (blue) drawn:
    one in the middle of the area, one touching the middle of the wall."""
    img = frame.copy()
    th = max(1, int(round(min(img.shape[:2]) / 300)))
    poly = np.array([_pt(p) for p in cal.area], np.int32)
    cv2.polylines(img, [poly], True, AREA_COLOUR, th, cv2.LINE_AA)
    (x1, y1), (x2, y2) = cal.back_wall
    cv2.line(img, _pt((x1, y1)), _pt((x2, y2)), WALL_COLOUR, 2 * th, cv2.LINE_AA)
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


def seen_die_sizes(frame: np.ndarray, cal: Calibration) -> list[float]:
    """Edge lengths (px) of the square objects that stand out from the felt inside the area."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(mask, [np.array([_pt(p) for p in cal.area], np.int32)], 255)
    if cv2.countNonZero(mask) < 100:
        return []
    felt = np.median(frame[mask > 0].reshape(-1, 3), axis=0).astype(np.uint8)
    diff = cv2.absdiff(frame, np.full_like(frame, felt))
    diff = cv2.transform(diff, np.array([[1.0, 1.0, 1.0]], np.float32))
    fg = cv2.threshold(diff, 90, 255, cv2.THRESH_BINARY)[1]
    fg = cv2.bitwise_and(fg, mask)
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, lab, st, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    sizes = []
    for i in range(1, n):
        a = st[i, cv2.CC_STAT_AREA]
        if a < 64:
            continue
        ys, xs = np.nonzero(lab[st[i, 1] : st[i, 1] + st[i, 3], st[i, 0] : st[i, 0] + st[i, 2]] == i)
        rect = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
        bw, bh = rect[1]
        if min(bw, bh) < 4:
            continue
        squareness = max(bw, bh) / min(bw, bh)
        fill = a / (bw * bh)
        if squareness < 1.35 and fill > 0.6:
            sizes.append(float(math.sqrt(bw * bh)))
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
    if cal.die_px > min(w, h) / 3 or cal.die_px < 6:
        out.append(f"die_px {cal.die_px:g} is implausible for a {w}x{h} frame")
    sizes = seen_die_sizes(frame, cal)
    if not sizes:
        out.append(
            "no die-like square was seen inside the area to check die_px against: "
            "calibrate on a frame with both dice lying in the area"
        )
    elif not any(0.75 * cal.die_px <= s <= 1.3 * cal.die_px for s in sizes):
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
