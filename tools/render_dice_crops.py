"""Classifier crops of rendered dice of many kinds (dev-only tool; numpy + OpenCV).

A die is a cube in 3-D: each face a texture (its body colour, plain or marbled, its pips painted
or engraved, in any colour, its corners sharp or rounded) warped onto the cube's projection
under a camera tilted up to ``max_tilt`` degrees (so side faces show), lit by a light from the
side (shaded faces, a shine, a long shadow on the ground), the body opaque or translucent (the
ground seen through it, tinted), sometimes beside another die, on a tray, wood, felt or a dark
ground; then blurred, noised and JPEG-coded at the die's size in pixels (``size_px``), and cut
as the reader cuts a die (vision/dice_crop.py ``crop_die`` at the top face's centre, square to
the die as ``die_angle`` finds it). The label is the top face's value, or ``COCKED`` for a die
leaning 18-40 degrees (on a wall or another die) under a nearly overhead camera: the table's
camera looks down, so a die that shows its sides is one that leans, and must not be read.

A marbled body is veined (a second, sometimes third, colour in streaks bent by turbulence, as
acrylic marbled dice are), swirled, or clouded (broad patches of two colours, any two hues, with
sharp edges); a wooden one has growth rings and fine grain.

A translucent body lets the ground's light through (``transmit``: the share that crosses the
die, tinted by the body's hue), more near the edges, where light also comes in through the
sides; the pips of the far faces (painted, so they block that light) show through it faintly,
blurred by the body and shifted by the view (the bottom face's mirrored under the top, the
sides' squeezed into bands along its edges): a smoky die is a dark body that is grey over a
light tray. Pips stand out from the body by a wide range of contrast, down to a few grey levels
(dull red pips on a smoky body); they may nearly touch (a six's columns running together). A
glossy die shines where the half-vector between light and camera meets its surface: a spot or
a streak (a window, a lamp's panel) on the top face, a line along each rounded edge that faces
the light, a crescent on an engraved pip's wall. The photo is as soft as a phone's at that size
(a blur in image pixels, not in die edges).

    python tools/render_dice_crops.py --n 48 --out /tmp/rendered.png   # a contact sheet

``tools/train_reader.py cls --rendered N`` mixes N such crops into each epoch.
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.dice_crop import CROP_PX, CROP_SCALE, crop_die, die_angle  # noqa: E402
from vision.simulator.dice3d import PIP_LAYOUTS  # noqa: E402

# pip centres of each face, in units of the corner pips' offset (the simulator's layout)
_CORNER = abs(PIP_LAYOUTS[4][0][0])
PIPS = {v: [(x / _CORNER, y / _CORNER) for x, y in pts] for v, pts in PIP_LAYOUTS.items()}
TEX = 96  # face texture side, pixels
# the renderer's version, in the name of train_reader's cache of rendered crops (2: veined
# marbling, wood grain, leaning dice, the camera within 15 degrees of overhead; 3: light through
# translucent bodies and the far faces' pips in it, clouded marbling of any two colours,
# low-contrast and large pips, glare on edges and pip walls, a camera's softness; 4: dark
# bodies twice as often, red pips more often, fewer low-contrast pips, an illegible die redrawn)
RENDERER = 4
MIN_PIP_CONTRAST = 12.0  # the least pip-body gap drawn (Lab units): a few grey levels
MIN_LEGIBLE = 14.0  # the least the pips must stand out in the final crop (``pip_signal``)
DARK_SHARE = 0.3  # the share of dice with dark bodies (black, smoky, near-black tinted)
LOW_CONTRAST_SHARE = 0.15  # the share whose pips are drawn toward the body's colour
LEGIBLE_TRIES = 6  # looks drawn for one die before the last is kept whatever it shows
GLOSS = (20.0, 120.0)  # the shininess exponent of a glossy die's highlights
COCKED = 7  # the label of a leaning die (train_reader's class 6, after the six faces)
LEAN_DEG = (18.0, 40.0)  # how far a cocked die leans (the simulator's cocked dice)

# the cube's faces: outward normal and two in-face axes (u, v), in the die's own frame
FACES = [
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),  # top
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),  # bottom
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
]


@dataclass
class DieLook:
    """How one rendered die looks (colours BGR, 0..255)."""

    body: np.ndarray
    pip: np.ndarray
    marble: np.ndarray | None  # a second body colour laid in (``grain``), or None
    translucent: float  # 0 opaque .. 0.7 much of the ground seen through
    engraved: bool  # pips cut into the face (a dark rim), not only painted
    corner: float  # corner rounding, share of the face side (0 sharp .. 0.22)
    pip_radius: float  # share of the face side
    pip_spacing: float  # share of the face side
    grain: str = "swirl"  # how ``marble`` lies in the body: "swirl", "veins", "clouds", "wood"
    third: np.ndarray | None = None  # veins: a third colour in thin streaks, or None
    transmit: float = 0.3  # translucent: the share of the ground's light that crosses the die
    ghost: float = 0.0  # translucent: how dark the far faces' pips show through (0 .. 0.35)
    gloss: float = 0.0  # 0 matt .. 1: how bright the highlights on edges and pip walls are

    @classmethod
    def random(cls, rng: np.random.Generator) -> DieLook:
        """Any body colour (light blues, dark blues, reds, greens, black, white, wood...) and a
        pip colour that stands out from it (white, black, red, gold, or any).

        Dark bodies (black, smoky, near-black tinted) are drawn as often as DARK_SHARE: they
        are where pips stand out least and a translucent body changes most with the ground."""
        while True:
            hue = rng.uniform(0, 180)
            kind = rng.random()
            if kind < 0.15:  # white / ivory / grey
                body = np.array([rng.uniform(170, 250)] * 3) + rng.normal(0, 8, 3)
            elif kind < 0.15 + DARK_SHARE:  # black / very dark, at times tinted (smoke, plum)
                body = np.array([rng.uniform(10, 60)] * 3) + rng.normal(0, 6, 3)
                if rng.random() < 0.5:
                    hsv = np.uint8([[[hue, rng.uniform(60, 200), 255]]])
                    tint = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0] / 255.0
                    body = body * (0.6 + 0.6 * tint)
            else:
                sat = rng.uniform(0.3, 1.0)
                val = rng.uniform(0.25, 1.0)
                hsv = np.uint8([[[hue, 255 * sat, 255 * val]]])
                body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
            p = rng.random()
            if p < 0.35:
                pip = np.array([245.0, 245, 245])
            elif p < 0.6:
                pip = np.array([20.0, 20, 20])
            elif p < 0.8:  # red, bright or dull (paint in a hollow, in shade)
                v = rng.uniform(0.35, 0.85) * 255
                pip = np.array([rng.uniform(0.1, 0.3) * v, rng.uniform(0.1, 0.3) * v, v])
            elif p < 0.88:
                pip = np.array([40.0, 180, 220])  # gold / yellow
            else:
                pip = rng.uniform(0, 255, 3)
            if _contrast(body, pip) > 70:
                break
        smoky = 0.15 <= kind < 0.15 + DARK_SHARE and rng.random() < 0.5  # dark: half smoky
        marble, grain, third = None, "swirl", None
        pattern = rng.random()
        if pattern < 0.12:  # wood: a brown body, its rings a darker brown
            body = _wood_colour(rng)
            marble = body * rng.uniform(0.45, 0.75)
            grain = "wood"
            if _contrast(body, pip) <= 70:
                pip = np.array([20.0, 20, 20]) if body.mean() > 110 else np.array([235.0] * 3)
        elif pattern < 0.42:  # marbled: a second colour (dark in light, light in dark...)
            g = rng.random()
            grain = "veins" if g < 0.5 else "clouds" if g < 0.8 else "swirl"
            marble = np.clip(body + rng.normal(0, 70, 3), 0, 255)
            if rng.random() < 0.4:  # blue-black, purple-black, green-white...
                marble = np.clip(255 - body + rng.normal(0, 30, 3), 0, 255)
            elif grain == "clouds" and rng.random() < 0.6:  # any two hues, either dark or bright
                hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(120, 255),
                                  rng.uniform(50, 255)]]])
                marble = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
            if rng.random() < 0.3:
                third = rng.uniform(0, 255, 3)
        translucent = rng.uniform(0.2, 0.7) if rng.random() < 0.35 and grain != "wood" else 0.0
        if smoky:
            translucent = rng.uniform(0.45, 0.85)
        # a die's pips also come far less distinct (worn paint, dull red on smoke, a tinted
        # body the pips' colour shows through): the contrast drawn down to a few grey levels
        if rng.random() < LOW_CONTRAST_SHARE:
            pip = _toward(body, pip, rng.uniform(MIN_PIP_CONTRAST, 70))
        return cls(body=np.clip(body, 0, 255), pip=pip, marble=marble,
                   translucent=translucent, engraved=rng.random() < 0.4,
                   corner=rng.uniform(0.0, 0.22) if rng.random() < 0.8 else 0.0,
                   pip_radius=rng.uniform(0.065, 0.125), pip_spacing=rng.uniform(0.24, 0.3),
                   grain=grain, third=third, transmit=rng.uniform(0.2, 0.7),
                   ghost=rng.uniform(0.08, 0.35) if translucent else 0.0,
                   gloss=rng.uniform(0.3, 1.0) if rng.random() < 0.6 else 0.0)


def _toward(body: np.ndarray, pip: np.ndarray, gap: float) -> np.ndarray:
    """The pip colour moved toward the body's until the two stand ``gap`` apart (``_contrast``),
    or as it was when it is already that close."""
    if _contrast(body, pip) <= gap:
        return pip
    lo, hi = 0.0, 1.0  # share of the way from body to pip
    for _ in range(12):
        mid = (lo + hi) / 2
        if _contrast(body, body + (pip - body) * mid) < gap:
            lo = mid
        else:
            hi = mid
    return np.clip(body + (pip - body) * hi, 0, 255)


def _wood_colour(rng: np.random.Generator) -> np.ndarray:
    """A wood's BGR colour: pale beech to dark walnut and maroon stained dice."""
    hsv = np.uint8([[[rng.uniform(2, 18), rng.uniform(90, 200), rng.uniform(60, 210)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)


def _noise(n: int, rng: np.random.Generator, scale: float) -> np.ndarray:
    """Smooth noise (n x n, unit spread) whose features are about ``scale`` pixels."""
    z = cv2.GaussianBlur(rng.normal(0, 1, (n, n)), (0, 0), scale)
    return z / (z.std() + 1e-9)


def body_pattern(look: DieLook, n: int, rng: np.random.Generator) -> np.ndarray:
    """The body colour of a face (n x n x 3 float BGR), with its marbling or wood grain.

    Veins: the level lines of a turbulent field (a slanted ramp bent by noise at two scales),
    thin and sharp where the field crosses its levels, as marbled acrylic's streaks are. Wood:
    rings about a centre off the face, bent a little, and fine grain along them."""
    col = np.ones((n, n, 3)) * look.body
    if look.marble is None:
        return col
    yy, xx = np.mgrid[0:n, 0:n] / n
    if look.grain == "swirl":  # slow blobs of the second colour
        w = np.clip(0.5 + 2.0 * _noise(n, rng, n / 8), 0, 1)[..., None]
        return col * (1 - w) + look.marble * w
    if look.grain == "clouds":  # broad patches, edges a few pixels wide, a swirl at times
        field = _noise(n, rng, n / rng.uniform(3, 7)) + 0.35 * _noise(n, rng, n / 14)
        share = rng.uniform(-0.8, 0.8)  # how much of the body is the second colour
        w = 1 / (1 + np.exp(-(field - share) * rng.uniform(4, 12)))
        return col * (1 - w[..., None]) + look.marble * w[..., None]
    if look.grain == "wood":
        cx, cy = rng.uniform(-1.5, 2.5, 2)
        r = np.hypot(xx - cx, yy - cy) + 0.03 * _noise(n, rng, n / 6)
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * r * rng.uniform(5, 14))
        rings = rings ** rng.uniform(1.5, 4)  # late wood: narrower, darker bands
        fine = 0.15 * _noise(n, rng, 0.8)
        w = np.clip(rings * rng.uniform(0.5, 1.0) + fine, 0, 1)[..., None]
        return col * (1 - w) + look.marble * w
    # veins
    ang = rng.uniform(0, math.pi)
    field = (xx * math.cos(ang) + yy * math.sin(ang)) * rng.uniform(2, 6)
    field = field + 0.9 * _noise(n, rng, n / 6) + 0.3 * _noise(n, rng, n / 20)
    frac = np.abs(field - np.round(field))  # 0 on a vein's line .. 0.5 between
    width = rng.uniform(0.08, 0.3)
    w = np.clip(1 - frac / width, 0, 1) ** 0.7
    # broad clouds too: some marbled dice are half one colour, half the other
    cloud = np.clip(0.5 + 1.2 * _noise(n, rng, n / 5), 0, 1) * rng.uniform(0, 0.8)
    w = np.clip(np.maximum(w, cloud), 0, 1)[..., None]
    out = col * (1 - w) + look.marble * w
    if look.third is not None:
        f2 = field * 1.7 + 0.5 * _noise(n, rng, n / 10)
        t = np.clip(1 - np.abs(f2 - np.round(f2)) / 0.06, 0, 1)[..., None] * 0.8
        out = out * (1 - t) + look.third * t
    return out


def _contrast(a: np.ndarray, b: np.ndarray) -> float:
    """How far two BGR colours stand apart: the larger of their lightness and colour gaps."""
    la = cv2.cvtColor(np.uint8([[np.clip(a, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(float)
    lb = cv2.cvtColor(np.uint8([[np.clip(b, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(float)
    return float(max(abs(la[0] - lb[0]), np.hypot(*(la[1:] - lb[1:])) * 1.5))


def _pip_mask(value: int, look: DieLook, n: int = TEX) -> np.ndarray:
    """A face's pips (n x n, 0..1), in the face's own (u, v) frame."""
    pips = np.zeros((n, n), np.float32)
    pr = look.pip_radius * n
    for i, j in PIPS[value]:
        c = (n / 2 + i * look.pip_spacing * n, n / 2 + j * look.pip_spacing * n)
        centre = (int(round(c[0] * 4)), int(round(c[1] * 4)))
        cv2.circle(pips, centre, int(round(pr * 4)), 1.0, -1, cv2.LINE_AA, shift=2)
    return pips


def face_texture(value: int, look: DieLook, rng: np.random.Generator,
                 half: np.ndarray | None = None):
    """One face (TEX x TEX): colour (float BGR), alpha (the rounded outline), pip mask and
    highlight (0..1: the share of white a glossy surface adds where it mirrors the light).

    :param half: the half-vector between the light and the camera in the face's (u, v, normal)
        frame, for a glossy die's highlights (None: none drawn)."""
    n = TEX
    col = body_pattern(look, n, rng) + rng.normal(0, 3, (n, n, 1))
    alpha = np.zeros((n, n), np.float32)
    r = int(look.corner * n)
    cv2.rectangle(alpha, (r, 0), (n - 1 - r, n - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (n - 1, n - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    pips = _pip_mask(value, look, n)
    rim = np.zeros((n, n), np.float32)
    pr = look.pip_radius * n
    centres = [(n / 2 + i * look.pip_spacing * n, n / 2 + j * look.pip_spacing * n)
               for i, j in PIPS[value]]
    if look.engraved:  # the hollow's wall in shade on the side away from the light
        for c in centres:
            off = (int(round((c[0] + 0.25 * pr) * 4)), int(round((c[1] + 0.25 * pr) * 4)))
            cv2.circle(rim, off, int(round(pr * 1.1 * 4)), 1.0, -1, cv2.LINE_AA, shift=2)
    col = col * (1 - pips[..., None]) + look.pip * pips[..., None]
    if look.engraved:
        shade = np.clip(rim - pips, 0, 1)[..., None]
        col = col * (1 - 0.55 * shade)
    spec = np.zeros((n, n), np.float32)
    if look.gloss and half is not None:
        k = GLOSS[0] + (GLOSS[1] - GLOSS[0]) * rng.random()
        _edge_highlights(spec, look, half, k)
        if look.engraved:
            _pip_wall_highlights(spec, centres, pr, half)
        spec = np.clip(spec * look.gloss, 0, 1)
    return col, alpha, pips, spec


def _pip_wall_highlights(spec: np.ndarray, centres, pr: float, half: np.ndarray) -> None:
    """An arc on each engraved pip's wall where it mirrors the light (in place).

    A pip's hollow is a shallow spherical dimple (its sphere about 2.5 pip radii): its normal
    equals the half-vector at an offset of -2.5 pr times the half-vector's lean, on the wall
    away from the light, clipped to the rim; at the rim the highlight spreads into an arc."""
    lean = math.hypot(float(half[0]), float(half[1]))
    if lean < 0.02:
        return
    d = min(0.85, 2.5 * lean)  # from the pip's centre, in pip radii
    facing = math.degrees(math.atan2(-float(half[1]), -float(half[0])))
    spread = 10 + 60 * d  # degrees of arc each side
    for cx, cy in centres:
        cv2.ellipse(spec, (int(round(cx * 4)), int(round(cy * 4))),
                    (int(round(d * pr * 4)), int(round(d * pr * 4))), facing, -spread, spread,
                    1.0, max(1, int(round(0.25 * pr))), cv2.LINE_AA, shift=2)


def _edge_highlights(spec: np.ndarray, look: DieLook, half: np.ndarray, k: float) -> None:
    """Lines along the face's rounded edges where they mirror the light (in place).

    An edge rounded to a quarter cylinder has normals that sweep from the face's to the side's;
    it shines at the one whose tilt toward the side matches the half-vector's, as bright as the
    half-vector lies in that sweep's plane (to the power ``k``)."""
    n = spec.shape[0]
    b = max(look.corner, 0.05) * n * 0.9  # the rounding's width, texels
    r = int(look.corner * n)
    hz = float(half[2])
    for axis, sign in ((0, 1), (0, -1), (1, 1), (1, -1)):
        hd = sign * float(half[axis])  # the half-vector's lean toward this edge's side
        if hd <= 0 or hz <= 0:
            continue
        theta = math.atan2(hd, hz)
        strength = (hd * hd + hz * hz) ** (k / 2)
        if strength < 0.02:
            continue
        d = b * (1 - math.sin(theta))  # from the edge inward
        pos = (n - 1 - d) if sign > 0 else d
        width = max(0.7, 0.18 * b)
        off = np.abs(np.arange(n) - pos)
        line = np.where(off < 3 * width, np.exp(-(off ** 2) / (2 * width * width)), 0) * strength
        span = np.zeros(n)
        span[r:n - r] = 1
        span = cv2.GaussianBlur(span.reshape(1, -1), (0, 0), max(1.0, n / 30)).ravel()
        m = np.outer(span, line) if axis == 0 else np.outer(line, span)
        np.maximum(spec, m.astype(np.float32), out=spec)


def through_light(value: int, look: DieLook, rng: np.random.Generator, shift: np.ndarray,
                  n: int = TEX) -> tuple[np.ndarray, np.ndarray]:
    """What of the ground's light crosses a translucent die under its top face ``value``:
    (gain n x n, the light through as a share of ``transmit``, more near the edges; block
    n x n, where the far faces' pips stop it, 0..1 times ``ghost``).

    The bottom face's pips lie under the top's, mirrored, shifted by ``shift`` (the parallax
    of a die's depth under a tilted camera, in face sides) and blurred by the body; the four
    sides' pips show squeezed into bands along the top's edges (light bent through the
    sides)."""
    yy, xx = (np.mgrid[0:n, 0:n] + 0.5) / n
    edge = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
    gain = 1 + rng.uniform(0.3, 1.2) * np.exp(-edge / rng.uniform(0.05, 0.15))
    block = np.zeros((n, n), np.float32)
    if look.ghost <= 0:
        return gain.astype(np.float32), block
    bottom = _pip_mask(7 - value, look, n)
    bottom = np.rot90(bottom[:, ::-1], int(rng.integers(0, 4)))
    m = np.float32([[1, 0, shift[0] * n], [0, 1, shift[1] * n]])
    block += cv2.warpAffine(np.ascontiguousarray(bottom), m, (n, n))
    sides = [v for v in range(1, 7) if v not in (value, 7 - value)]
    rng.shuffle(sides)
    band = rng.uniform(0.12, 0.25)  # how deep a side's pips show in, share of the face
    for side, (axis, far) in zip(sides, ((0, False), (0, True), (1, False), (1, True)),
                                 strict=True):
        sq = cv2.resize(_pip_mask(side, look, n), (n, max(2, int(band * n))),
                        interpolation=cv2.INTER_AREA)
        strip = np.zeros((n, n), np.float32)
        strip[:sq.shape[0]] = sq
        if far:
            strip = strip[::-1]
        if axis:
            strip = strip.T
        block = np.maximum(block, strip * rng.uniform(0.3, 0.8))
    block = cv2.GaussianBlur(block, (0, 0), n * rng.uniform(0.03, 0.07))
    return gain.astype(np.float32), np.clip(block * look.ghost, 0, 1)


def _rot(axis: str, deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def ground(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A tray (light, smooth), wood (grain), felt (coloured, fine noise) or a dark ground."""
    h, w = shape
    kind = rng.random()
    if kind < 0.3:
        base = np.array([rng.uniform(170, 240)] * 3) + rng.normal(0, 10, 3)
        img = np.ones((h, w, 3)) * base
        img += rng.normal(0, 2, (h, w, 1))
    elif kind < 0.55:
        base = np.array([rng.uniform(30, 90), rng.uniform(70, 140), rng.uniform(110, 200)])
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w]
        t = xx * math.cos(ang) + yy * math.sin(ang)
        grain = np.sin(t / rng.uniform(2, 8) + 3 * cv2.GaussianBlur(
            rng.normal(0, 1, (h, w)), (0, 0), 6) * 4)
        img = base * (1 + 0.12 * grain[..., None])
    elif kind < 0.85:
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(80, 230), rng.uniform(60, 200)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
        img = np.ones((h, w, 3)) * base + rng.normal(0, 7, (h, w, 1))
    else:
        img = np.ones((h, w, 3)) * rng.uniform(15, 60) + rng.normal(0, 4, (h, w, 1))
    # uneven light across the ground
    gy, gx = rng.normal(0, 0.4, 2)
    yy, xx = np.mgrid[0:h, 0:w] / max(h, w)
    return np.clip(img * (1 + gx * (xx - 0.5) + gy * (yy - 0.5))[..., :3], 0, 255)


def draw_die(img: np.ndarray, value: int, look: DieLook, centre, edge: float, yaw: float,
             view: np.ndarray, light: np.ndarray, rng: np.random.Generator,
             lean: float = 0.0, shine: bool = True) -> np.ndarray:
    """Draw a die (edge ``edge`` pixels, top face ``value``) on ``img`` (float BGR, in place)
    seen through ``view`` (world -> camera rotation; orthographic). Returns the image position
    of the top face's centre."""
    h, w = img.shape[:2]
    # side values: opposite faces sum to 7; the four sides in a random order round the die
    rest = [v for v in range(1, 7) if v not in (value, 7 - value)]
    a, b = rest[0], rest[2] if rest[1] == 7 - rest[0] else rest[1]
    if rng.random() < 0.5:
        a, b = b, a
    values = [value, 7 - value, a, 7 - a, b, 7 - b]
    pose = _rot("z", yaw) @ _rot("x", lean)
    to_cam = view @ pose
    cx, cy = centre

    def project(p):
        q = to_cam @ np.asarray(p, float)
        return np.array([cx + q[0] * edge, cy + q[1] * edge]), q[2]

    # the shadow: the cube's corners thrown along the light onto the ground (z = -0.5)
    corners = [np.array([sx, sy, sz]) * 0.5 for sx in (-1, 1) for sy in (-1, 1)
               for sz in (-1, 1)]
    world = [pose @ c for c in corners]
    ground_pts = []
    for p in world:
        t = (p[2] + 0.5) / max(light[2], 0.15)
        ground_pts.append(p - t * light)
    base = world + ground_pts
    pts = np.array([[cx + (view @ p)[0] * edge, cy + (view @ p)[1] * edge] for p in base],
                   np.float32)
    hull = cv2.convexHull(pts).astype(np.int32)
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, 0.06 * edge))
    dark = rng.uniform(0.35, 0.7) * (1 - 0.5 * look.translucent)
    tint = 1.0 if look.translucent == 0 else (look.body / 255.0) * 0.6 + 0.4
    img *= 1 - mask[..., None] * dark * (1 - tint * (look.translucent > 0))
    behind = cv2.GaussianBlur(img, (0, 0), max(0.5, 0.08 * edge))
    # the light through a translucent body takes the body's hue, not its darkness: a smoky die
    # is dark by what it reflects and grey by what it lets through
    hue = np.clip(look.body / max(look.body.max(), 1.0), 0.15, 1.0)
    # the half-vector between light and camera, in the die's frame: where a gloss shines
    to_eye = pose.T @ (view.T @ np.array([0.0, 0.0, -1.0]))
    half_d = pose.T @ light + to_eye
    half_d /= np.linalg.norm(half_d)
    # the faces seen (normal toward the camera: its z in camera space is negative)
    top_centre = None
    for k, (n, u, v) in enumerate(FACES):
        nc = to_cam @ np.array(n, float)
        nw = pose @ np.array(n, float)
        if k == 0:
            top_centre = project(np.array(n, float) * 0.5)[0]
        if nc[2] > -0.05:
            continue
        uvn = np.array([u, v, n], float)
        col, alpha, pips, spec = face_texture(values[k], look, rng, half=uvn @ half_d)
        shade = 0.35 + 0.75 * max(0.0, float(nw @ light))
        col = col * shade
        centre3 = np.array(n, float) * 0.5
        u3, v3 = np.array(u, float), np.array(v, float)
        quad = [centre3 - 0.5 * u3 - 0.5 * v3, centre3 + 0.5 * u3 - 0.5 * v3,
                centre3 + 0.5 * u3 + 0.5 * v3, centre3 - 0.5 * u3 + 0.5 * v3]
        dst = np.array([project(p)[0] for p in quad], np.float32)
        src = np.array([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]], np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(col.astype(np.float32), m, (w, h), flags=cv2.INTER_AREA)
        a = cv2.warpPerspective(alpha, m, (w, h), flags=cv2.INTER_LINEAR)
        if look.translucent:
            if k == 0:  # the depth under the top face seen through a tilted camera
                shift = (to_cam.T @ np.array([0.0, 0.0, 1.0]))[:2] * rng.uniform(0.4, 0.8)
                shift = np.array([shift @ np.array(u, float)[:2], shift @ np.array(v, float)[:2]])
                gain, block = through_light(values[k], look, rng, shift + rng.normal(0, 0.03, 2))
            else:
                gain, block = through_light(values[k], replace(look, ghost=0.0), rng,
                                            np.zeros(2))
            tex = np.dstack([1 - pips, gain, block]).astype(np.float32)
            p_, g_, b_ = cv2.split(cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR))
            see = (look.translucent * p_)[..., None]
            glow = behind * hue * look.transmit * g_[..., None]
            glow = glow * (1 - b_[..., None]) + look.pip * 0.35 * look.transmit * b_[..., None]
            warped = warped * (1 - see) + glow * see
        if look.gloss:
            sp = cv2.warpPerspective(spec, m, (w, h), flags=cv2.INTER_LINEAR)[..., None]
            warped = warped + (255 - warped) * sp
        img *= 1 - a[..., None]
        img += warped * a[..., None]
    # a shine on the top face where the light glances off it
    if shine and rng.random() < 0.5:
        pos = top_centre + rng.normal(0, 0.25, 2) * edge
        yy, xx = np.mgrid[0:h, 0:w]
        r = rng.uniform(0.04, 0.14) * edge
        if rng.random() < 0.4:  # a window's or a lamp panel's mirror image: a streak
            t = rng.uniform(0, math.pi)
            along = (xx - pos[0]) * math.cos(t) + (yy - pos[1]) * math.sin(t)
            across = -(xx - pos[0]) * math.sin(t) + (yy - pos[1]) * math.cos(t)
            g = np.exp(-across ** 2 / (2 * (0.4 * r) ** 2) - along ** 2 / (2 * (4 * r) ** 2))
        else:
            g = np.exp(-((xx - pos[0]) ** 2 + (yy - pos[1]) ** 2) / (2 * r * r))
        img += (255 - img) * (g * rng.uniform(0.15, 0.6))[..., None]
    return top_centre


def render(rng: np.random.Generator, value: int | None = None, size_px: float | None = None,
           look: DieLook | None = None, max_tilt: float = 15.0, plain: bool = False,
           cocked: bool = False, floor: tuple[float, float, float] | None = None,
           legible: bool | None = None):
    """One rendered die: (crop CROP_PX x CROP_PX BGR uint8, label, its DieLook); the label is
    the top face's value 1..6, or ``COCKED``.

    A die whose pips the camera cannot see (too little contrast left after the light through
    the body, the blur, the noise and the JPEG at its size) is no example of its face: with
    ``legible`` (the default when the look is drawn here), the same die is drawn again with
    its pips painted the body's colour, and when the two crops differ by less than
    ``MIN_LEGIBLE`` on the pips (``pip_signal``) another look is drawn. Leaning dice are
    labelled by their lean, not their pips, and are not checked.

    :param size_px: the die's edge in the final image, pixels (default 16..80, more of them
        small: the reader meets dice of any size in pixels).
    :param max_tilt: the camera's most tilt from overhead, degrees. Kept below the least lean
        of a cocked die: a flat die seen at 30 degrees looks as a die leaning 30 degrees seen
        from overhead, and the table's camera looks down.
    :param plain: straight overhead, no shadow, shine, neighbour, blur or noise (for checking a
        crop's pips).
    :param cocked: the die leans ``LEAN_DEG`` (on a wall or another die), the camera within 8
        degrees of overhead; cut at the die's centre, as the detector finds it, and labelled
        ``COCKED``.
    :param floor: a plain ground of this BGR colour, not a random one.
    :param legible: check that the pips are seen (see above); None: when ``look`` is None.
    """
    value = int(rng.integers(1, 7)) if value is None else value
    check = (look is None if legible is None else legible) and not cocked and not plain
    look = look or DieLook.random(rng)
    for _ in range(LEGIBLE_TRIES):
        state = copy.deepcopy(rng.bit_generator.state)
        crop = _draw(rng, value, size_px, look, max_tilt, plain, cocked, floor)
        if not check:
            break
        twin = np.random.Generator(type(rng.bit_generator)())
        twin.bit_generator.state = state
        blank = _draw(twin, value, size_px, replace(look, pip=look.body.copy()), max_tilt,
                      plain, cocked, floor)
        if pip_signal(crop, blank, look, value) >= MIN_LEGIBLE:
            break
        look = DieLook.random(rng)
    return crop, COCKED if cocked else value, look


def pip_signal(crop: np.ndarray, blank: np.ndarray, look: DieLook, value: int) -> float:
    """How far the pips stand out in a crop: the mean Lab distance between ``crop`` and the same
    die drawn with its pips painted the body's colour (``blank``), over as many pixels as the
    pips' cores cover, within the top face."""
    px = crop.shape[0]
    a = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    b = cv2.cvtColor(blank, cv2.COLOR_BGR2LAB).astype(np.float32)
    d = np.linalg.norm(a - b, axis=2)
    yy, xx = np.mgrid[0:px, 0:px]
    face = (xx - px / 2 + 0.5) ** 2 + (yy - px / 2 + 0.5) ** 2 <= (0.48 * px / CROP_SCALE) ** 2
    edge = px / CROP_SCALE
    n = max(4, int(value * math.pi * (look.pip_radius * edge) ** 2 * 0.5))
    return float(np.sort(d[face])[-n:].mean())


def _draw(rng, value, size_px, look, max_tilt, plain, cocked, floor) -> np.ndarray:
    """``render``'s crop of one die of ``look`` (every random draw from ``rng``, in order)."""
    edge_px = size_px or float(np.exp(rng.uniform(math.log(16), math.log(80))))
    # drawn at an edge of about 64 px, then reduced: smooth edges, small pips kept round
    ss = min(4.0, max(1.0, 64.0 / edge_px))
    edge = edge_px * ss
    side = int(2.6 * edge)
    img = (ground((side, side), rng) if floor is None
           else np.ones((side, side, 3)) * np.asarray(floor, float))
    # most photos are taken from nearly overhead; some at an angle that shows the sides
    tilt = 0.0 if plain else max_tilt * rng.random() ** 1.5 * (rng.random() < 0.8)
    if cocked:
        tilt = min(tilt, 8.0)
    # camera axes: x right, y down the image, z away from the camera (looking down)
    view = np.diag([1.0, -1.0, -1.0]) @ _rot("x", tilt) @ _rot("z", rng.uniform(0, 360))
    elev = rng.uniform(20, 70)
    az = rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(az) * math.cos(math.radians(elev)),
                      math.sin(az) * math.cos(math.radians(elev)),
                      math.sin(math.radians(elev))])
    if plain:
        light = np.array([0.0, 0.0, 1.0])
    centre = (side / 2 + rng.normal(0, 0.03) * edge, side / 2 + rng.normal(0, 0.03) * edge)
    if not plain and rng.random() < 0.3:  # another die close by, drawn first
        t = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(1.15, 1.6) * edge
        other = DieLook.random(rng) if rng.random() < 0.3 else look
        draw_die(img, int(rng.integers(1, 7)), other, (centre[0] + d * math.cos(t),
                 centre[1] + d * math.sin(t)), edge, rng.uniform(0, 90), view, light, rng)
    lean = rng.uniform(*LEAN_DEG) if cocked else 0.0 if plain else rng.normal(0, 2)
    top = draw_die(img, value, look, centre, edge, rng.uniform(0, 90), view, light, rng,
                   lean=lean, shine=not plain)
    if cocked:  # the detector finds the middle of what it sees of the die, not its top face
        top = (np.asarray(top) + np.asarray(centre)) / 2
    out_side = max(8, int(round(side / ss)))
    ss = side / out_side
    im = cv2.resize(np.clip(img, 0, 255).astype(np.float32), (out_side, out_side),
                    interpolation=cv2.INTER_AREA)
    top = top / ss
    if not plain:
        if rng.random() < 0.6:  # a phone's softness is in image pixels, whatever the die's size
            im = cv2.GaussianBlur(im, (0, 0), rng.uniform(0.3, 1.2))
        if rng.random() < 0.5:
            im = im + rng.normal(0, rng.uniform(1, 8), im.shape)
    im = np.clip(im, 0, 255).astype(np.uint8)
    if not plain and rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        im = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    centre_px = (float(top[0]), float(top[1]))
    angle = die_angle(im, centre_px, edge_px)
    if not plain:  # as the detector finds it: a little off centre and off size
        centre_px = (centre_px[0] + rng.normal(0, 0.05) * edge_px,
                     centre_px[1] + rng.normal(0, 0.05) * edge_px)
        edge_px *= math.exp(rng.uniform(-0.15, 0.15))
        angle += rng.normal(0, 4)
    return crop_die(im, centre_px, edge_px, angle, out_px=CROP_PX, scale=CROP_SCALE)


def rendered_crops(n: int, seed: int, max_tilt: float = 15.0, cocked_share: float = 0.0):
    """``n`` rendered crops and their labels: (uint8 array n x CROP_PX x CROP_PX x 3, labels
    1..6 or ``COCKED``); a share ``cocked_share`` of them leaning dice."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for _ in range(n):
        c, v, _ = render(rng, max_tilt=max_tilt, cocked=bool(rng.random() < cocked_share))
        xs.append(c)
        ys.append(v)
    return np.stack(xs), np.array(ys)


def dark_crops(n: int, seed: int, size_px: tuple[float, float] = (22.0, 40.0)):
    """``n`` crops of dice whose bodies are dark (black, smoky, dark marbled: the body's mean
    under 75 of 255) at ``size_px`` (the sizes the detector hands over), for looking at."""
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    while len(xs) < n:
        look = DieLook.random(rng)
        if look.body.mean() >= 75:
            continue
        c, v, _ = render(rng, look=look, size_px=float(np.exp(rng.uniform(*np.log(size_px)))))
        xs.append(c)
        ys.append(v)
    return np.stack(xs), np.array(ys)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="A contact sheet of rendered dice crops.")
    ap.add_argument("--n", type=int, default=48)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cocked", type=float, default=0.0, help="share of leaning dice (label c)")
    ap.add_argument("--dark", action="store_true",
                    help="only dice with dark bodies, 22-40 px (as the C folds' black dice)")
    ap.add_argument("--out", type=Path, required=True, help="PNG to write")
    a = ap.parse_args(argv)
    if a.dark:
        xs, ys = dark_crops(a.n, a.seed)
    else:
        xs, ys = rendered_crops(a.n, a.seed, cocked_share=a.cocked)
    cols = 12
    rows = -(-len(xs) // cols)
    sheet = np.zeros((rows * (CROP_PX + 12), cols * CROP_PX, 3), np.uint8)
    for i, (c, v) in enumerate(zip(xs, ys, strict=True)):
        y, x = (i // cols) * (CROP_PX + 12), (i % cols) * CROP_PX
        sheet[y:y + CROP_PX, x:x + CROP_PX] = c
        cv2.putText(sheet, "c" if v == COCKED else str(v), (x + 15, y + CROP_PX + 10),
                    cv2.FONT_HERSHEY_PLAIN, 0.8, (255, 255, 255), 1)
    cv2.imwrite(str(a.out), cv2.resize(sheet, None, fx=2, fy=2,
                                       interpolation=cv2.INTER_NEAREST))
    print(f"wrote {a.out}: {len(xs)} crops")
    return 0


if __name__ == "__main__":
    sys.exit(main())
