"""One throw's dice at rest judged: the cues run in turn and their flags combined
(``judge_cocked``), the lean model asked once (``lean_beliefs``).
"""

from __future__ import annotations

import math

import numpy as np

from vision.cocked.pair import pairs
from vision.cocked.settings import CockedSettings, cocked_share
from vision.cocked.top_face import top_faces
from vision.cocked.wall import (
    flat_by_cube,
    flat_by_pips,
    flat_by_rims,
    flat_fronts,
    lean_kept,
    leans_on_wall,
    unseen_at_wall,
    wall_faces,
)
from vision.cocked.windows import top_centres
from vision.die_silhouette import RestSilhouettes
from vision.throw_geometry import TableGeometry


def lean_beliefs(
    geometry: TableGeometry, settings: CockedSettings, reader, frame: np.ndarray, boxes: list,
    readings: list,
) -> list[float] | None:
    """The lean model's belief that each resting die leans (one per box, at the reader's top
    face centre, else the box's centre), or None without a model (the reader's ``lean`` is None)
    or with ``lean_model`` or ``geometric_cocked`` off."""
    judge = reader.lean if reader is not None else None
    if judge is None or not (settings.lean_model and settings.geometric_cocked) or not boxes:
        return None
    toward_wall = (-geometry.wall_n[0], -geometry.wall_n[1])
    return judge.beliefs(frame, top_centres(boxes, readings), geometry.die, toward_wall)


def pair_picker(
    geometry: TableGeometry, settings: CockedSettings, reader, frame: np.ndarray, boxes: list,
    readings: list,
):
    """The pair model's pick as the pair cue asks it: ``pick(i, j)``, the belief that die i
    rather than die j of a close pair leans (``PairJudge.first_leans`` at their top-face
    centres), or None without the model (the reader's ``pair`` is None) or with ``pair_pick``,
    ``lean_model`` or ``geometric_cocked`` off."""
    judge = reader.pair if reader is not None else None
    if (judge is None or settings.pair_pick is None
            or not (settings.lean_model and settings.geometric_cocked)):
        return None
    centres = top_centres(boxes, readings)
    toward_wall = (-geometry.wall_n[0], -geometry.wall_n[1])

    def pick(i: int, j: int) -> float:
        return judge.first_leans(frame, centres[i], centres[j], geometry.die, toward_wall)

    return pick


def flat_value(reading, reader) -> int | None:
    """The value of a die the reader flagged cocked (so left unread) that the pair cue finds
    lying flat: its ``best_face`` when the reader's ``confidence`` in it is at least its
    ``min_confidence`` (the bar a value must pass anyway), else None (the operator gives
    it, R-I2). A reading without ``best_face`` or a reader without ``min_confidence`` leaves it
    unread."""
    face = reading.best_face
    floor = reader.min_confidence if reader is not None else None
    if face is None or floor is None:
        return None
    return int(face) if float(reading.confidence) >= float(floor) else None


def judge_cocked(
    silhouettes: RestSilhouettes,
    settings: CockedSettings,
    reader,
    frame: np.ndarray,
    boxes: list,
    readings: list,
) -> tuple[list, list[bool]]:
    """The values and the cocked flags of the dice at rest (their rotated ``boxes`` on the rest
    ``frame``, the reader's ``readings`` of them, maybe fewer or none).

    Returns the values, one per reading (the reading's, or for the flat partner of a leaning
    die that the reader flagged, ``flat_value``), and one cocked flag per box: the reader's
    flag or, with ``geometric_cocked``, the wall cue; for a die of a close pair the pair cue
    says which leans, over the reader's flag (it judges each die alone and often flags the
    flat partner too) unless the reader is all but sure (``pair_keep_share``)."""
    geometry = silhouettes.geometry
    die = geometry.die
    walls = [
        settings.geometric_cocked
        and leans_on_wall(geometry, settings, boxes[i], readings[i] if i < len(readings) else None)
        for i in range(len(boxes))
    ]
    # a die whose front face shows as a flat die's does is not tipped away from the wall
    cleared = flat_fronts(silhouettes, settings, frame, boxes, readings, walls)
    # ...nor is one whose top, where its pips put it, sits wall-ward of its silhouette
    by_pips = flat_by_pips(geometry, settings, frame, boxes, readings, walls)
    walls = [w and not c and not p for w, c, p in zip(walls, cleared, by_pips, strict=True)]
    # ...nor is one whose faces' edge lines show a flat die's front face and no side face
    by_rims = flat_by_rims(silhouettes, settings, frame, boxes, readings, walls)
    walls = [w and not r for w, r in zip(walls, by_rims, strict=True)]
    # ...nor is one whose rim, by the flat hypothesis drawn through the camera model, lies
    # farther out than a die tipped from the wall can show it
    by_cube = flat_by_cube(silhouettes, settings, frame, boxes, readings, walls)
    walls = [w and not c for w, c in zip(walls, by_cube, strict=True)]
    tilted = top_faces(geometry, settings, frame, boxes, readings)
    beliefs = lean_beliefs(geometry, settings, reader, frame, boxes, readings)
    kept = lean_kept(geometry, settings, boxes, readings, beliefs)
    # the top-face cue: a die by the wall or the other die whose top is foreshortened
    near = [
        geometry.wall_distance(*boxes[i][0])[0] <= settings.face_near_wall * die
        or any(
            math.dist(boxes[i][0], boxes[j][0]) <= settings.face_near_die * die
            for j in range(len(boxes))
            if j != i
        )
        for i in range(len(boxes))
    ]
    face_flags = [
        settings.geometric_cocked and n and t is True for n, t in zip(near, tilted, strict=True)
    ]
    if settings.geometric_cocked:
        face_flags = [f or w or u for f, w, u in zip(
            face_flags, wall_faces(silhouettes, settings, frame, boxes, readings),
            unseen_at_wall(geometry, settings, boxes), strict=True)]
    paired = (
        pairs(silhouettes, settings, frame, boxes, readings, walls, beliefs, tilted,
              pair_picker(geometry, settings, reader, frame, boxes, readings))
        if settings.geometric_cocked
        else {}
    )
    values = [None if rd is None else rd.value for rd in readings]
    if settings.geometric_cocked and readings:
        # the flat partner of a leaning die, which the reader flagged (and so did not read)
        for i, lean in paired.items():
            if (
                not lean
                and i < len(readings)
                and readings[i].cocked
                and cocked_share(readings[i]) < settings.pair_keep_share
            ):
                values[i] = flat_value(readings[i], reader)
    cocked = []
    for i in range(len(boxes)):
        rd = readings[i] if i < len(readings) else None
        if settings.geometric_cocked and i in paired:
            # one of a close pair leans (on the other, or on the wall): the pair cue says
            # which, over the reader's flag unless the reader is all but sure
            flag = paired[i] or cocked_share(rd) >= settings.pair_keep_share
        else:
            geo = settings.geometric_cocked and walls[i]
            flag = (rd is not None and rd.cocked) or geo
            if (
                flag
                and not geo
                and beliefs is not None
                and beliefs[i] <= settings.lean_clear
                and tilted[i] is False
                and cocked_share(rd) < settings.lean_clear_share
                and (face := flat_value(rd, reader)) is not None
            ):
                # the reader alone flagged it (a crop cut a little off the die looks tilted),
                # the lean model is all but sure it lies flat and the reader sure enough of
                # its face to read it: it is read
                values[i] = face
                flag = False
        cocked.append(bool(flag or face_flags[i] or kept[i]))
    return values, cocked
