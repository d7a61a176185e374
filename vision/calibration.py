"""Calibration of the camera's view of the table, in image pixels.

The ``[calibration]`` table of DESIGN.md::

    [calibration]
    area = [[x, y], [x, y], [x, y], [x, y]]   # the marked playing area, a polygon (3+ points)
    back_wall = [[x1, y1], [x2, y2]]          # the inner edge of the back wall
    die_px = 44                               # a die's edge length in pixels, roughly
    lens_k1 = -0.12                           # optional: a wide lens's barrel (vision/lens.py)

``lens_k1`` (default 0: the image is taken as it comes) is the lens's radial distortion: a point
that a distortion-free lens would show r from the image's centre ``(width / 2, height / 2)``,
r measured in half the image's width, is shown at ``r (1 + lens_k1 r^2)``. A wide lens's barrel
is negative (the benches model wide webcam lenses at -0.1 and -0.2); ``tablectl calibrate
--lens`` measures it. The area and the back wall are still given as the owner sees them on the camera's image.
Being in half widths, it is the same at every resolution of the same camera.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

Point = tuple[float, float]

# the lens distortions the tracker straightens (``lens_k1``): beyond, the model (one term) does
# not describe a real lens over the image, and most of the image cannot be straightened
LENS_K1_MAX = 0.5


class CalibrationError(ValueError):
    """A calibration file or table that is missing, malformed or inconsistent."""


def read_toml(path: Path, error: type[Exception] = ValueError, what: str = "") -> dict:
    """The TOML file at ``path`` as a dict; a file that cannot be read or is not TOML raises
    ``error`` saying which and why (``what``: how to name the file, e.g. "calibration file ")."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"cannot read {what}{path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{path} is not valid TOML: {exc}") from None


@dataclass(frozen=True)
class Calibration:
    """Where the table lies in the image.

    :param area: the marked playing area, a polygon of 3 or more image points.
    :param back_wall: the inner edge of the back wall, two image points.
    :param die_px: a die's edge length in pixels, roughly.
    :param lens_k1: the lens's barrel (negative) or pincushion (positive) distortion, in the
        convention of the module's docstring; 0: none (frames are used as they come).
    """

    area: tuple[Point, ...]
    back_wall: tuple[Point, Point]
    die_px: float
    lens_k1: float = 0.0

    def __post_init__(self) -> None:
        if len(self.area) < 3:
            raise CalibrationError(f"area needs 3 or more points, got {len(self.area)}")
        if len(self.back_wall) != 2:
            raise CalibrationError("back_wall needs exactly two points [[x1, y1], [x2, y2]]")
        if not self.die_px > 0:
            raise CalibrationError(f"die_px must be a positive number of pixels, got {self.die_px}")
        k1 = self.lens_k1
        if isinstance(k1, bool) or not isinstance(k1, (int, float)) or not math.isfinite(k1):
            raise CalibrationError(
                f"lens_k1 must be a number (0: no lens correction), got {k1!r}; measure it with "
                "`tablectl calibrate --image FRAME --lens` (docs/calibration.md)")
        if abs(k1) > LENS_K1_MAX:
            raise CalibrationError(
                f"lens_k1 = {k1:g} is beyond what the table straightens ({-LENS_K1_MAX:g} to "
                f"{LENS_K1_MAX:g}, in half the image's width; a wide lens's barrel is a few "
                "tenths at most): check the value (measure it with `tablectl calibrate --image "
                "FRAME --lens`), or use a less wide lens (docs/hardware.md)")

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
        k1 = table.get("lens_k1", 0.0)
        if isinstance(k1, bool) or not isinstance(k1, (int, float)):
            raise CalibrationError(
                f"{source}: lens_k1 must be a number such as -0.12 (0 or left out: no lens "
                f"correction), got {k1!r}; measure it with `tablectl calibrate --image FRAME "
                "--lens` (docs/calibration.md)")
        try:
            return cls(area, ((float(x1), float(y1)), (float(x2), float(y2))), die_px,
                       float(k1))
        except CalibrationError as exc:
            if str(exc).startswith("lens_k1"):
                raise CalibrationError(f"{source}: {exc}") from None
            raise

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read the ``[calibration]`` table of a TOML file."""
        path = Path(path)
        data = read_toml(path, CalibrationError, "calibration file ")
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
            + (f"lens_k1 = {self.lens_k1!r}\n" if self.lens_k1 else "")
        )

    def scaled(self, factor: float) -> Calibration:
        """The same table seen at another resolution (all pixel values times ``factor``;
        ``lens_k1``, in half the image's width, is the same at every resolution)."""
        if not factor > 0:
            raise CalibrationError(f"scale factor must be positive, got {factor}")
        return Calibration(
            tuple((x * factor, y * factor) for x, y in self.area),
            (
                (self.back_wall[0][0] * factor, self.back_wall[0][1] * factor),
                (self.back_wall[1][0] * factor, self.back_wall[1][1] * factor),
            ),
            self.die_px * factor,
            self.lens_k1,
        )

    def to_dict(self) -> dict:
        """The ``[calibration]`` table as a dict (JSON-able; ``lens_k1`` only when not 0)."""
        out = {
            "area": [[x, y] for x, y in self.area],
            "back_wall": [list(self.back_wall[0]), list(self.back_wall[1])],
            "die_px": self.die_px,
        }
        if self.lens_k1:
            out["lens_k1"] = self.lens_k1
        return out
