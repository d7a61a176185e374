"""What the renderer's dice must show (tools/render_dice_crops.py, renderer 3): the top face's
pips countable even when they stand out by little, the light through a translucent body and the
far faces' pips in it fainter than the top's, glare where a glossy die mirrors the light, and
the looks the reader's unseen kinds need (smoky bodies, low-contrast pips, two-colour clouds)
drawn often enough to matter."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import render_dice_crops as rdc  # noqa: E402

from tests.vision.test_reader_training import count_pips  # noqa: E402

LIGHT_TRAY = (215.0, 215.0, 215.0)
DARK_GROUND = (30.0, 30.0, 30.0)


def _look(body, pip, **kw) -> rdc.DieLook:
    base = dict(marble=None, translucent=0.0, engraved=False, corner=0.1, pip_radius=0.09,
                pip_spacing=0.27)
    base.update(kw)
    return rdc.DieLook(body=np.array(body, float), pip=np.array(pip, float), **base)


def _lab_at(crop: np.ndarray, x: float, y: float, r: int = 1) -> np.ndarray:
    """Mean Lab colour round a point given in the top face's corner-pip units (the crop is 1.25
    die edges wide and centred on the top face)."""
    px = crop.shape[0]
    cx = px / 2 + x * 0.27 * px / 1.25
    cy = px / 2 + y * 0.27 * px / 1.25
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    return lab[int(cy) - r:int(cy) + r + 1, int(cx) - r:int(cx) + r + 1].reshape(-1, 3).mean(0)


def _at(crop: np.ndarray, x: float, y: float, r: int = 1) -> float:
    """Mean lightness round a point (``_lab_at``)."""
    return float(_lab_at(crop, x, y, r)[0])


@pytest.mark.parametrize("value", range(1, 7))
def test_pips_that_stand_out_by_little_are_still_all_there(value):
    rng = np.random.default_rng(200 + value)
    body = np.array([40.0, 40, 48])
    pip = rdc._toward(body, np.array([40.0, 40, 200]), 25)  # dull red on a dark body
    assert 22 < rdc._contrast(body, pip) < 28
    crop, got, _ = rdc.render(rng, value=value, size_px=64, look=_look(body, pip), plain=True,
                              floor=LIGHT_TRAY)
    assert got == value
    seen = np.clip(body * 1.1, 0, 255).astype(np.uint8)  # the overhead light on the top face
    assert count_pips(crop, seen, far_by=12) == value


def test_a_translucent_body_lets_the_ground_s_light_through_and_an_opaque_one_does_not():
    smoky = _look((45, 45, 50), (40, 40, 170), translucent=0.7, transmit=0.5)
    opaque = _look((45, 45, 50), (40, 40, 170))
    body_spot = (0.5, -0.5)  # between the pips of a one, and of the six beneath it
    got = {}
    for name, look in (("smoky", smoky), ("opaque", opaque)):
        for floor in (LIGHT_TRAY, DARK_GROUND):
            crop, _, _ = rdc.render(np.random.default_rng(1), value=1, size_px=64, look=look,
                                    plain=True, floor=floor)
            got[name, floor] = _at(crop, *body_spot)
    # a smoky die is grey over a light tray and dark over a dark ground
    assert got["smoky", LIGHT_TRAY] > got["smoky", DARK_GROUND] + 25
    assert abs(got["opaque", LIGHT_TRAY] - got["opaque", DARK_GROUND]) < 3


def test_the_far_faces_pips_show_through_fainter_than_the_top_s():
    look = _look((45, 45, 50), (40, 40, 170), translucent=0.7, transmit=0.5, ghost=0.35)
    clear = replace(look, ghost=0.0)
    # a one on top: the six beneath has pips at the corners, whichever way it is turned
    ghosted = rdc.render(np.random.default_rng(3), value=1, size_px=64, look=look, plain=True,
                         floor=LIGHT_TRAY)[0]
    without = rdc.render(np.random.default_rng(3), value=1, size_px=64, look=clear, plain=True,
                         floor=LIGHT_TRAY)[0]
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    ghost_dark = np.mean([_at(without, *c) - _at(ghosted, *c) for c in corners])
    ghost_gap = np.mean([np.linalg.norm(_lab_at(without, *c) - _lab_at(ghosted, *c))
                         for c in corners])
    top_gap = np.linalg.norm(_lab_at(ghosted, 0.5, -0.5) - _lab_at(ghosted, 0, 0))
    assert ghost_dark > 3  # the far pips are seen, darker than the body round them
    assert ghost_gap < 0.5 * top_gap  # and are fainter than the top's pip
    # the ghost lies where the far pips are (blurred by the body): less dark between them
    assert abs(_at(without, 0.5, -0.5) - _at(ghosted, 0.5, -0.5)) < 0.75 * ghost_dark


def test_a_glossy_edge_shines_on_the_side_that_faces_the_light():
    look = _look((45, 45, 50), (40, 40, 170), corner=0.15, gloss=1.0)
    half = np.array([0.4, 0.0, 1.0])
    half /= np.linalg.norm(half)
    spec = np.zeros((rdc.TEX, rdc.TEX), np.float32)
    rdc._edge_highlights(spec, look, half, k=40)
    n = rdc.TEX
    toward, away = spec[:, n - n // 6:].max(), spec[:, :n // 6].max()
    assert toward > 0.3 and away == 0
    assert spec[n // 3:2 * n // 3, n // 3:2 * n // 3].max() == 0  # the face's middle is left
    # a matt die: no highlight at all
    _, _, _, matt = rdc.face_texture(1, replace(look, gloss=0.0), np.random.default_rng(0),
                                     half=half)
    assert matt.max() == 0


def test_an_engraved_pip_s_wall_shines_on_the_side_away_from_the_light():
    spec = np.zeros((rdc.TEX, rdc.TEX), np.float32)
    c, pr = rdc.TEX / 2, 0.1 * rdc.TEX
    rdc._pip_wall_highlights(spec, [(c, c)], pr, np.array([0.3, 0.0, 0.95]))
    ys, xs = np.nonzero(spec > 0.5)
    assert len(xs) and xs.mean() < c - 0.3 * pr  # the light leans to +u, the arc lies at -u


def test_the_looks_cover_smoky_bodies_low_contrast_pips_and_clouds():
    rng = np.random.default_rng(7)
    looks = [rdc.DieLook.random(rng) for _ in range(600)]
    gaps = np.array([rdc._contrast(lk.body, lk.pip) for lk in looks])
    assert gaps.min() >= rdc.MIN_PIP_CONTRAST - 1
    assert (gaps < 40).mean() > 0.04  # pips that stand out by little are a real share
    assert (gaps > 70).mean() > 0.6  # most dice still have pips that stand out
    smoky = [lk for lk in looks if lk.body.mean() < 70 and lk.translucent >= 0.45]
    assert len(smoky) > 15
    assert all(0 < lk.ghost <= 0.35 for lk in looks if lk.translucent)
    clouds = [lk for lk in looks if lk.grain == "clouds" and lk.marble is not None]
    assert len(clouds) > 20
    # two colours that stand well apart: a cloud of cyan in black, of pink in green...
    assert np.median([rdc._contrast(lk.body, lk.marble) for lk in clouds]) > 40


def test_a_rendered_batch_is_repeatable_from_its_seed():
    a, ya = rdc.rendered_crops(6, seed=11, cocked_share=0.2)
    b, yb = rdc.rendered_crops(6, seed=11, cocked_share=0.2)
    assert np.array_equal(a, b) and np.array_equal(ya, yb)


def test_a_die_whose_pips_the_camera_cannot_see_is_drawn_again_with_another_look():
    hidden = _look((60, 60, 60), (62, 62, 62))  # pips two grey levels off the body
    crop, value, kept = rdc.render(np.random.default_rng(5), value=4, size_px=30, look=hidden,
                                   legible=False)
    assert kept is hidden and value == 4
    crop, value, redrawn = rdc.render(np.random.default_rng(5), value=4, size_px=30,
                                      look=hidden, legible=True)
    assert redrawn is not hidden and value == 4  # the face is kept, the look is not
    blank = rdc.render(np.random.default_rng(5), value=4, size_px=30,
                       look=replace(hidden, pip=hidden.body.copy()), legible=False)[0]
    visible = rdc.render(np.random.default_rng(5), value=4, size_px=30,
                         look=replace(hidden, pip=np.array([245.0, 245, 245])), legible=False)[0]
    assert rdc.pip_signal(crop, crop, hidden, 4) == 0
    assert rdc.pip_signal(visible, blank, hidden, 4) > 3 * rdc.MIN_LEGIBLE


def test_dark_bodies_are_a_large_share_of_the_looks():
    rng = np.random.default_rng(8)
    looks = [rdc.DieLook.random(rng) for _ in range(500)]
    dark = np.mean([lk.body.mean() < 75 for lk in looks])
    assert dark > 0.25
    red_on_dark = [lk for lk in looks if lk.body.mean() < 75 and lk.pip[2] > 1.8 * lk.pip[:2].max()]
    assert len(red_on_dark) > 15
