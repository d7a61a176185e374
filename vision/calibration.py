"""Calibration of the camera's view of the table, in image pixels.

The ``[calibration]`` table of DESIGN.md::

    [calibration]
    area = [[x, y], [x, y], [x, y], [x, y]]   # the marked playing area, a polygon (3+ points)
    back_wall = [[x1, y1], [x2, y2]]          # the inner edge of the back wall
    die_px = 44                               # a die's edge length in pixels, roughly
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]


class CalibrationError(ValueError):
    """A calibration file or table that is missing, malformed or inconsistent."""


@dataclass(frozen=True)
class Calibration:
    """Where the table lies in the image.

    :param area: the marked playing area, a polygon of 3 or more image points.
    :param back_wall: the inner edge of the back wall, two image points.
    :param die_px: a die's edge length in pixels, roughly.
    """

    area: tuple[Point, ...]
    back_wall: tuple[Point, Point]
    die_px: float

    def __post_init__(self) -> None:
        if len(self.area) < 3:
            raise CalibrationError(f"area needs 3 or more points, got {len(self.area)}")
        if len(self.back_wall) != 2:
            raise CalibrationError("back_wall needs exactly two points [[x1, y1], [x2, y2]]")
        if not self.die_px > 0:
            raise CalibrationError(f"die_px must be a positive number of pixels, got {self.die_px}")

    @classmethod
    def from_mapping(cls, table: dict, source: str = "calibration") -> Calibration:
        """Build from the ``[calibration]`` table (a dict as tomllib returns it)."""
        try:
            area = tuple((float(x), float(y)) for x, y in table["area"])
            (x1, y1), (x2, y2) = table["back_wall"]
            die_px = float(table["die_px"])
        except KeyError as exc:
            raise CalibrationError(f"{source}: [calibration] lacks {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            raise CalibrationError(f"{source}: malformed [calibration]: {exc}") from None
        return cls(area, ((float(x1), float(y1)), (float(x2), float(y2))), die_px)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read the ``[calibration]`` table of a TOML file."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise CalibrationError(f"cannot read calibration file {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise CalibrationError(f"{path} is not valid TOML: {exc}") from None
        if "calibration" not in data:
            raise CalibrationError(f"{path} has no [calibration] table")
        return cls.from_mapping(data["calibration"], source=str(path))

    def to_toml(self) -> str:
        """The ``[calibration]`` table as TOML text (round-trips through :meth:`load`)."""
        pts = ", ".join(f"[{x:g}, {y:g}]" for x, y in self.area)
        (x1, y1), (x2, y2) = self.back_wall
        return (
            "[calibration]\n"
            f"area = [{pts}]\n"
            f"back_wall = [[{x1:g}, {y1:g}], [{x2:g}, {y2:g}]]\n"
            f"die_px = {self.die_px:g}\n"
        )

    def scaled(self, factor: float) -> Calibration:
        """The same table seen at another resolution (all pixel values times ``factor``)."""
        if not factor > 0:
            raise CalibrationError(f"scale factor must be positive, got {factor}")
        return Calibration(
            tuple((x * factor, y * factor) for x, y in self.area),
            (
                (self.back_wall[0][0] * factor, self.back_wall[0][1] * factor),
                (self.back_wall[1][0] * factor, self.back_wall[1][1] * factor),
            ),
            self.die_px * factor,
        )

    def to_dict(self) -> dict:
        """The ``[calibration]`` table as a dict (JSON-able)."""
        return {
            "area": [[x, y] for x, y in self.area],
            "back_wall": [list(self.back_wall[0]), list(self.back_wall[1])],
            "die_px": self.die_px,
        }
