"""``tablectl calibrate --image FRAME [--calibration FILE] [--out PICTURE] [--lens | --lens-lines FILE]``.

Draws the calibration (the marked area, the back wall, a die-sized square in the area and one
against the wall) on a camera frame and writes the picture, so it can be checked by eye. Warns on
stderr where the calibration does not fit the frame: points outside it, a wall away from the
area, a die size that matches no die seen, a camera tilted more than 20 degrees (read off the
area's perspective, ``vision.camera_view``: printed as ``camera: about N degrees from straight
down``). Exit status 0 when it fits, 1 when it warned, 2 on bad input.

A wide lens bows the table's straight edges (``lens_k1``, vision/lens.py): ``--lens`` measures
it on FRAME from the felt's marked lines between the area's corners (the calibration's area as
clicked on this camera's image, any lens_k1 it holds aside), ``--lens-lines FILE`` from points
the owner read off the image along straight edges (a TOML file: ``lines = [[[x, y], [x, y],
[x, y]], [[x, y], ...]]``, 3+ points on each of 2+ lines). Either prints ``lens_k1 = K`` (the line
to put in the ``[calibration]`` table) and how far from straight the lines lie before and after;
the picture is drawn with it (the area's sides bowed as the lens shows them) and the points it
used.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

# the checkout's table.toml (run from anywhere); a table.toml in the working directory wins
DEFAULT_CONFIG = (
    Path("firmware_config/table.toml")
    if Path("firmware_config/table.toml").is_file()
    else Path(__file__).resolve().parents[2] / "firmware_config" / "table.toml"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="draw the calibration on a camera frame and check that it fits",
        description="Draw the [calibration] (area, back wall, die size) on a frame, write the "
        "picture, and warn where it does not fit the frame.",
    )
    p.add_argument("--image", required=True, type=Path, metavar="FRAME",
                   help="a frame from the table's camera, with both dice lying in the area")
    p.add_argument("--calibration", type=Path, default=DEFAULT_CONFIG, metavar="FILE",
                   help=f"a TOML file with a [calibration] table (default: {DEFAULT_CONFIG})")
    p.add_argument("--out", type=Path, default=None, metavar="PICTURE",
                   help="where to write the picture (default: FRAME's name + .calibration.png)")
    lens = p.add_mutually_exclusive_group()
    lens.add_argument("--lens", action="store_true",
                      help="measure the lens's barrel (lens_k1) on FRAME from the felt's marked "
                           "lines between the area's corners")
    lens.add_argument("--lens-lines", type=Path, default=None, metavar="FILE",
                      help="measure lens_k1 from points along straight edges of the table: a "
                           "TOML file 'lines = [[[x, y], [x, y], [x, y]], ...]' (3+ points on "
                           "each of 2+ lines, on FRAME's pixels)")
    p.set_defaults(func=run)


def _lines_file(path: Path) -> list:
    """The ``lines`` of a ``--lens-lines`` file; raises ValueError saying what is wrong."""
    from vision.calibration import read_toml

    lines = read_toml(path).get("lines")
    try:
        return [[(float(x), float(y)) for x, y in line] for line in lines]
    except (TypeError, ValueError):
        raise ValueError(f"{path}: give 'lines = [[[x, y], [x, y], [x, y]], ...]': a list of "
                         "lines, each a list of [x, y] points along one straight edge") from None


def measure_lens(args, cal, frame) -> tuple[object, list, str]:
    """The calibration with ``lens_k1`` as measured (``--lens`` / ``--lens-lines``), the lines'
    points used, and the line to print; raises ``LensFitError`` / ValueError."""
    from dataclasses import replace

    from vision.lens import fit_k1_robust, line_rms, measure_k1

    h, w = frame.shape[:2]
    if args.lens:
        k1, lines = measure_k1(frame, cal)
        how = f"from the felt's lines along {len(lines)} of the area's sides"
    else:
        lines = _lines_file(args.lens_lines)
        k1, lines = fit_k1_robust(lines, (w, h))
        how = f"from {len(lines)} lines in {args.lens_lines}"
    k1 = round(k1, 3) + 0.0  # never "-0"
    before, after = line_rms(lines, 0.0, (w, h)), line_rms(lines, k1, (w, h))
    advice = ("under 0.02 either way the lens barely bends the table: lens_k1 may be left out"
              if abs(k1) < 0.02 else "put this line in the [calibration] table")
    line = (f"lens_k1 = {k1:g}   ({how}, {sum(len(x) for x in lines)} points: {before:.1f} px "
            f"RMS from straight as shot, {after:.1f} px once straightened; {advice})")
    return replace(cal, lens_k1=k1), lines, line


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.calibrate_view import draw_calibration, fit_warnings
    from vision.calibration import Calibration, CalibrationError

    try:
        cal = Calibration.load(args.calibration)
    except CalibrationError as exc:
        print(f"tablectl calibrate: {exc}", file=sys.stderr)
        return 2
    if not args.image.is_file():  # said before OpenCV, which would only warn on its own
        print(f"tablectl calibrate: {args.image}: no such file; give a frame saved from the "
              f"table's camera (PNG or JPEG)", file=sys.stderr)
        return 2
    frame = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if frame is None:
        print(f"tablectl calibrate: {args.image} is not a readable image", file=sys.stderr)
        return 2
    out = args.out or args.image.with_name(args.image.stem + ".calibration.png")
    lens_line, lines = None, []
    if args.lens or args.lens_lines is not None:
        from vision.lens import LensFitError

        try:
            cal, lines, lens_line = measure_lens(args, cal, frame)
        except (LensFitError, ValueError) as exc:
            print(f"tablectl calibrate: cannot measure lens_k1: {exc}", file=sys.stderr)
            return 2
    picture = draw_calibration(frame, cal)
    for pts in lines:  # the points the lens was measured on
        for x, y in pts:
            cv2.circle(picture, (int(round(x)), int(round(y))), 3, (255, 0, 255), -1)
    if not cv2.imwrite(str(out), picture):
        print(f"tablectl calibrate: cannot write {out}", file=sys.stderr)
        return 2
    warnings = fit_warnings(frame, cal)
    h, w_ = frame.shape[:2]
    view_line, steep = camera_tilt(cal, (w_, h))
    if steep:
        warnings.append(steep)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    verdict = "does not fit" if warnings else "fits"
    print(f"{out}: calibration from {args.calibration} drawn on {w_}x{h} {args.image}: {verdict}")
    if view_line:
        print(view_line)
    if lens_line:
        print(lens_line)
    return 1 if warnings else 0


# beyond this a die at the far side looks a quarter smaller than one at the near side, more
# than one die_px covers (docs/hardware.md: keep the tilt small)
STEEP_TILT_DEG = 20.0


def camera_tilt(cal, size: tuple[int, int]) -> tuple[str | None, str | None]:
    """The camera's tilt read off the area's perspective (``vision.camera_view``), as a line
    to print, and a warning when it is steeper than ``STEEP_TILT_DEG``; (None, None) for an
    area that is not four corners."""
    from vision.camera_view import CameraView, CameraViewError

    try:
        if cal.lens_k1:  # the perspective of the area as a distortion-free lens shows it
            from vision.lens import Lens

            cal = Lens(cal.lens_k1).straight_calibration(cal, size)
        view = CameraView.from_area(cal.area, cal.back_wall, size)
    except (CameraViewError, ValueError):
        return None, None
    lens = (f"focal length {view.focal_px:.0f} px, from the area's perspective"
            if view.focal_found else
            f"lens assumed {math.degrees(2 * math.atan(size[0] / 2 / view.focal_px)):.0f} "
            "degrees wide: a narrower lens means more tilt")
    line = f"camera: about {view.tilt_deg:.0f} degrees from straight down ({lens})"
    steep = None
    if view.tilt_deg > STEEP_TILT_DEG:
        steep = (f"the camera looks about {view.tilt_deg:.0f} degrees off straight down: dice "
                 f"at the back wall look much smaller than die_px; tilt it under "
                 f"{STEEP_TILT_DEG:.0f} degrees (docs/hardware.md)")
    return line, steep
