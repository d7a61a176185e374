"""The front face of a die at the back wall found by its edge lines, not its colour.

A die at the back wall seen by a camera tilted toward the wall shows its top and, away from the
wall, a strip of its front face. The top's front edge and the front face's lower rim (where the
die meets the felt) are straight lines along the die's own edges, whatever the die's colour:
each is a step of the image along the whole face, where a pip's outline is a step along a part
of it. ``rim_band`` samples the rest frame on lines along the die's edges (its yaw from the
image's gradients around its top) stepping away from the wall, takes at each step the strength
that all but a quarter of the line's samples reach (``LINE_SHARE``: a row of pips seen
foreshortened crosses up to two thirds of a line, so it makes no line), and finds the two lines:
the rim, the outermost, and the top's front edge before it. Their distance is the front face as
seen (``RimBand.band``), which a flat die shows about ``toward`` edges tall
(``vision.camera_view``) and a die tipped t away from the wall ``toward cos t - sin t``.
``side_bands`` does the same across the die, for its side faces: a flat die shows them only as
far as the view's slope across them, a die tipped sideways by t ``sin t`` more.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np

# the sampled lines: half their length along the die's edge, and the step between them (die
# edges); a pip is about 0.2 edge wide, so fewer than half of a line's samples cross one
HALF_LINE = 0.3
STEP = 0.02
# the share of a line's samples (percent) that may lack its step: a row of three pips on the
# front face, seen foreshortened, crosses up to two thirds of a line
LINE_SHARE = 25


class RimBand(NamedTuple):
    """The two edge lines of a die's front face, from its top face's centre away from the wall
    (die edges), and their strengths (``line_steps``, grey levels per pixel)."""

    top_edge: float
    rim: float
    top_strength: float
    rim_strength: float

    @property
    def band(self) -> float:
        return self.rim - self.top_edge


def edge_direction(frame: np.ndarray, top, die: float, wall_u, wall_n=None,
                   wall_p=None) -> np.ndarray | None:
    """The unit direction of the die's edges nearest the wall's (``wall_u``), from the image's
    gradients within 0.75 edge of its top face's centre ``top`` (their angle taken four times
    over: a cube's edges repeat every 90 degrees). With the wall line (``wall_p``, ``wall_n``
    away from it), pixels beyond it are left out: the rail's edge runs along the wall, not
    along the die. None where the window leaves the frame."""
    x, y = int(round(top[0])), int(round(top[1]))
    r = int(0.75 * die)
    h, w = frame.shape[:2]
    if x - r < 0 or y - r < 0 or x + r >= w or y + r >= h:
        return None
    grey = cv2.cvtColor(frame[y - r:y + r + 1, x - r:x + r + 1], cv2.COLOR_BGR2GRAY)
    grey = grey.astype(np.float32)
    gx, gy = cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    yy, xx = np.mgrid[y - r:y + r + 1, x - r:x + r + 1]
    weight = np.hypot(gx, gy) * ((xx - top[0]) ** 2 + (yy - top[1]) ** 2 < r * r)
    if wall_p is not None and wall_n is not None:
        weight = weight * ((xx - wall_p[0]) * wall_n[0] + (yy - wall_p[1]) * wall_n[1] > 0)
    z = complex((weight * np.exp(4j * np.arctan2(gy, gx))).sum())
    if abs(z) == 0:
        return None
    th = math.atan2(z.imag, z.real) / 4  # the gradient across an edge
    e = np.array([-math.sin(th), math.cos(th)])
    u = np.array(wall_u, float)
    e = max((e, np.array([-e[1], e[0]])), key=lambda c: abs(float(c @ u)))
    return e if float(e @ u) >= 0 else -e


def line_steps(frame: np.ndarray, top, die: float, wall_n, edge, v0: float = -0.2,
               v1: float = 1.8) -> tuple[np.ndarray, np.ndarray]:
    """``(vs, steps)``: at each distance ``vs`` (die edges along ``wall_n`` from ``top``) the
    colour's step across a line along ``edge`` (its part along the line's mean step, grey levels
    per pixel) that all but ``LINE_SHARE`` percent of the line's samples reach."""
    vs = np.arange(v0, v1, STEP)
    us = np.linspace(-HALF_LINE, HALF_LINE, max(5, int(2 * HALF_LINE * die) + 1))
    n = np.array(wall_n, float)
    half = 0.5 / die  # half a pixel, in die edges: the step over one pixel
    # only the window the lines cover is taken to floats
    reach = die * (max(abs(v0), abs(v1)) + HALF_LINE) + 2
    h, w = frame.shape[:2]
    x0, y0 = max(0, int(top[0] - reach)), max(0, int(top[1] - reach))
    x1, y1 = min(w, int(top[0] + reach) + 2), min(h, int(top[1] + reach) + 2)
    window = frame[y0:y1, x0:x1].astype(np.float32)
    out = []
    for dv in (-half, half):
        vv, uu = np.meshgrid(vs + dv, us, indexing="ij")
        xs = (top[0] - x0 + die * (uu * edge[0] + vv * n[0])).astype(np.float32)
        ys = (top[1] - y0 + die * (uu * edge[1] + vv * n[1])).astype(np.float32)
        out.append(cv2.remap(window, xs, ys, cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE))
    step = out[1] - out[0]  # (len vs, len us, 3)
    mean = step.mean(axis=1, keepdims=True)
    unit = mean / np.maximum(np.linalg.norm(mean, axis=2, keepdims=True), 1e-6)
    along = (step * unit).sum(axis=2)
    return vs, np.percentile(along, LINE_SHARE, axis=1)


def _lines(vs: np.ndarray, steps: np.ndarray, lo: float, hi: float,
           least: float) -> list[tuple[float, float]]:
    """The line steps within ``lo``..``hi`` at least ``least`` strong (local maxima, each
    refined between its neighbours by a parabola): ``(distance, strength)`` outward."""
    out = []
    for k in range(1, len(vs) - 1):
        if not lo <= vs[k] <= hi or steps[k] < least:
            continue
        if steps[k] >= steps[k - 1] and steps[k] > steps[k + 1]:
            a, b, c = steps[k - 1], steps[k], steps[k + 1]
            bend = a - 2 * b + c
            shift = 0.5 * (a - c) / bend if bend < 0 else 0.0
            out.append((float(vs[k] + shift * (vs[1] - vs[0])), float(b)))
    return out


def side_bands(frame: np.ndarray, top, die: float, edge, other_tops: list = (),
               window: tuple[float, float] = (0.38, 0.62), reach: float = 0.4,
               least: float = 3.0) -> tuple[float, float] | None:
    """How far each side face of a die shows beyond its top, by their edge lines: stepping
    from the top face's centre ``top`` along the die's edge ``edge`` (``edge_direction``) one
    way and the other, the top's side edge (the strongest line ``window`` out) and the
    outermost line up to ``reach`` beyond it (the side face's rim; none: the top's edge is the
    die's). ``(this way, the other)``, die edges (0 where no side face shows), or None where a
    top's side edge is not found. A flat die shows a side face only as wide as the view's
    slope across it; a die tipped sideways by t shows sin t more."""
    edge = np.asarray(edge, float)
    across = np.array([-edge[1], edge[0]])
    out = []
    for way in (edge, -edge):
        vs, steps = line_steps(frame, top, die, way, across, 0.2, 1.2)
        hi = _own_reach(top, die, way, across, list(other_tops), 1.2)
        side = [ln for ln in _lines(vs, steps, *window, least) if ln[0] <= hi]
        if not side:
            return None
        at = max(side, key=lambda ln: ln[1])[0]
        beyond = _lines(vs, steps, at + 0.06, min(at + reach, hi), least)
        out.append(beyond[-1][0] - at if beyond else 0.0)
    return out[0], out[1]


def _own_reach(top, die: float, wall_n, edge, other_tops: list, hi: float) -> float:
    """How far (die edges, up to ``hi``) the lines away from the wall from ``top`` stay nearer
    it than any of ``other_tops``: a die in front of this one has lines of its own."""
    t = np.array(top, float)
    vs = np.arange(0.0, hi, STEP)
    # the lines' middles and ends at each distance
    points = (t + die * (np.array([-HALF_LINE, 0.0, HALF_LINE])[None, :, None] * np.asarray(edge)
                         + vs[:, None, None] * np.asarray(wall_n, float)))
    mine = np.linalg.norm(points - t, axis=2)
    lost = np.zeros(len(vs), bool)
    for o in other_tops:
        lost |= (np.linalg.norm(points - np.array(o, float), axis=2) < mine).any(axis=1)
    return float(vs[np.argmax(lost)]) if lost.any() else hi


def rim_band(frame: np.ndarray, top, die: float, wall_n, edge, other_tops: list = (),
             reach: tuple[float, float] = (0.3, 1.4),
             least: float = 3.0, top_window: tuple[float, float] = (0.42, 0.6),
             band_window: tuple[float, float] = (0.05, 0.75)) -> RimBand | None:
    """The front face of a die at the wall by its edge lines (``RimBand``), from its top
    face's centre ``top`` away from the wall (``wall_n``): the rim, the outermost line step at
    least ``least`` strong within ``reach`` die edges (beyond it lies only the felt; the reach
    ends where the lines come nearer another die's top, ``other_tops``), and the top's front
    edge, the strongest line within ``band_window`` before it, which must lie ``top_window``
    out (half an edge, less the rim's blur); the lines run along ``edge``
    (``edge_direction``). None where there are not two such lines."""
    vs, steps = line_steps(frame, top, die, wall_n, edge)
    hi = _own_reach(top, die, wall_n, edge, list(other_tops), reach[1])
    lines = _lines(vs, steps, reach[0], hi, least)
    if not lines:
        return None
    rim, rim_strength = lines[-1]
    inner = [ln for ln in lines if rim - band_window[1] <= ln[0] <= rim - band_window[0]]
    if not inner:
        return None
    top_edge, top_strength = max(inner, key=lambda ln: ln[1])
    if not top_window[0] <= top_edge <= top_window[1]:
        return None
    return RimBand(top_edge, rim, top_strength, rim_strength)
