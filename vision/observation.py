"""What the camera saw of one throw: the tracker's output, the rulings' input.

Coordinates are full-resolution image pixels; frame numbers count the frames fed to the tracker
(for a video or an image folder: the frame's index in it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]
RotatedRect = tuple[tuple[float, float], tuple[float, float], float]


@dataclass
class DieObservation:
    """One die over one throw.

    :param value: the top face 1..6, or None when it could not be read with confidence.
    :param confidence: the reader's confidence in ``value``, 0..1.
    :param cocked: the die rests tilted (its top face is not square to the camera).
    :param hit_wall: the die reached the back wall and rebounded (R-I3, R-T1).
    :param left_area: its centre left the marked area at some moment (R-I1 ``any_time``).
    :param at_rest_in_area: it came to rest with its centre inside the marked area (R-I1).
    :param center: where it rests; None when it was not found at rest (lost from view).
    :param track: its path, ``(frame, x, y)`` per frame it was seen.
    :param moved: False when it lay at the same spot since the previous throw's rest.
    :param box: its rotated rectangle at rest ``((cx, cy), (w, h), angle)``, or None.
    """

    value: int | None
    confidence: float
    cocked: bool
    hit_wall: bool
    left_area: bool
    at_rest_in_area: bool
    center: Point | None
    track: list[tuple[int, float, float]] = field(default_factory=list)
    moved: bool = True
    box: RotatedRect | None = None

    def to_dict(self, with_track: bool = False) -> dict[str, Any]:
        """JSON-able form (the ``dice`` items of ``tablectl replay --json``)."""
        d: dict[str, Any] = {
            "value": self.value,
            "cocked": bool(self.cocked),
            "confidence": round(float(self.confidence), 3),
            "hit_wall": bool(self.hit_wall),
            "left_area": bool(self.left_area),
            "at_rest_in_area": bool(self.at_rest_in_area),
            "center": None
            if self.center is None
            else [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
            "moved": bool(self.moved),
        }
        if with_track:
            d["track"] = [[int(f), round(float(x), 1), round(float(y), 1)] for f, x, y in self.track]
        return d


@dataclass
class ThrowObservation:
    """One throw, from the first motion to both dice at rest.

    :param dice: the dice that were thrown (tracked), in the order first seen.
    :param start_frame: the frame where motion in the area began.
    :param rest_frame: the frame where every die was at rest (faces read on it).
    :param missing: how many of the expected dice were not found at rest.
    :param extra: how many dice more than expected lay at rest.
    :param unmoved: how many dice at rest had not moved since the previous throw.
    :param snapshot: the rest frame (BGR) annotated with each die's track, or None.
    :param start_time: timestamp (seconds) of ``start_frame``.
    :param rest_time: timestamp (seconds) of ``rest_frame``.
    """

    dice: list[DieObservation]
    start_frame: int
    rest_frame: int
    missing: int = 0
    extra: int = 0
    unmoved: int = 0
    snapshot: Any = None
    start_time: float = 0.0
    rest_time: float = 0.0

    def to_dict(self, with_tracks: bool = False) -> dict[str, Any]:
        """JSON-able form, without the snapshot image."""
        return {
            "start_frame": int(self.start_frame),
            "rest_frame": int(self.rest_frame),
            "start_time": round(float(self.start_time), 4),
            "rest_time": round(float(self.rest_time), 4),
            "dice": [d.to_dict(with_track=with_tracks) for d in self.dice],
            "missing": int(self.missing),
            "extra": int(self.extra),
            "unmoved": int(self.unmoved),
        }
