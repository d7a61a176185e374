"""Crops of dev rest frames kept as test fixtures (``bench/cocked_rest.py rimcrops``): the
frame, the felt before the throw, and a JSON of the area and wall in the crop's pixels, the
die's size and the tops found."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.calibration import Calibration
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry


def load_rest_crop(folder: Path, name: str):
    """A fixture's rest frame, its silhouettes (the felt before the throw, the area and wall
    in the crop's pixels) and its metadata."""
    meta = json.loads((folder / f"{name}.json").read_text())
    frame = cv2.imread(str(folder / f"{name}.png"))
    felt = cv2.imread(str(folder / f"{name}-felt.png"))
    calibration = Calibration(area=tuple(tuple(p) for p in meta["area"]),
                              back_wall=tuple(tuple(p) for p in meta["back_wall"]),
                              die_px=meta["die_px"])
    h, w = frame.shape[:2]
    sil = RestSilhouettes(TableGeometry(calibration), felt, None, 1, (w, h), False,
                          meta["threshold"])
    return frame, sil, meta
