"""Calibration from the operator's phone: a fresh frame, the points he taps, the file written.

The ``Table`` does not hand out camera frames, so whoever runs the table gives the dashboard a
``Calibrator``: a callable that returns a fresh frame (BGR, as OpenCV reads it) and the TOML
file whose ``[calibration]`` table it rewrites (``firmware_config/table.toml`` by default). The
picture it answers with is the one ``tablectl calibrate`` draws (``vision.calibrate_view``).
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path

KEYS = ("area", "back_wall", "die_px")


class CalibrationRefused(ValueError):
    """The points given are no calibration (says which and why)."""


def rewrite_calibration(text: str, values: dict) -> str:
    """``text`` (a TOML file) with the ``[calibration]`` keys set to ``values`` (TOML literals),
    keeping every comment and every other table; the table is added when missing."""
    lines = text.splitlines()
    out: list[str] = []
    section = None
    done: set[str] = set()
    end_of_section = None
    for line in lines:
        header = re.match(r"^\s*\[([^\]]+)\]\s*(#.*)?$", line)
        if header:
            if section == "calibration":
                end_of_section = len(out)
            section = header.group(1).strip()
        key = re.match(r"^\s*(area|back_wall|die_px)\s*=", line)
        if section == "calibration" and key and key.group(1) in values:
            name = key.group(1)
            # the values hold no "#": what follows one is the line's comment, kept
            tail = "  #" + line.split("#", 1)[1] if "#" in line else ""
            out.append(f"{name} = {values[name]}{tail}")
            done.add(name)
            continue
        out.append(line)
    if section == "calibration":
        end_of_section = len(out)
    if end_of_section is None:
        out += ["", "[calibration]"] + [f"{k} = {values[k]}" for k in KEYS]
    else:
        missing = [f"{k} = {values[k]}" for k in KEYS if k not in done]
        while end_of_section > 0 and not out[end_of_section - 1].strip():
            end_of_section -= 1
        out[end_of_section:end_of_section] = missing
    return "\n".join(out) + "\n"


def _with_file_lens(cal, text: str):
    """``cal`` with the ``lens_k1`` of the file's ``[calibration]`` (a wide lens's barrel,
    measured with ``tablectl calibrate --lens``; the phone's taps leave it as it is): the
    picture and the warnings see the area as the table will. A file without one (or with one
    the table would refuse): ``cal`` as it is."""
    from dataclasses import replace

    from vision.calibration import CalibrationError

    try:
        k1 = tomllib.loads(text).get("calibration", {}).get("lens_k1", 0.0)
        return replace(cal, lens_k1=k1) if k1 else cal
    except (tomllib.TOMLDecodeError, CalibrationError, AttributeError):
        return cal


class Calibrator:
    """What the calibration screen needs from the table's owner.

    frame: returns a fresh camera frame (BGR ndarray).
    config_path: the TOML file whose ``[calibration]`` table is rewritten.
    """

    def __init__(self, frame: Callable[[], object], config_path: Path) -> None:
        self._frame = frame
        self.config_path = Path(config_path)
        self._lock = threading.Lock()
        self._last_frame = None
        self.picture: bytes | None = None  # the last calibration drawn on its frame (PNG)

    def fresh_frame_png(self) -> bytes:
        import cv2

        frame = self._frame()
        if frame is None:
            raise CalibrationRefused("the camera gave no frame: check it and try again")
        ok, buf = cv2.imencode(".png", frame)
        if not ok:
            raise CalibrationRefused("the frame cannot be encoded")
        with self._lock:
            self._last_frame = frame
        return buf.tobytes()

    def apply(self, body: dict) -> list[str]:
        """Check the tapped points, write them into the file, draw them on the frame they were
        tapped on; return the fit warnings (as ``tablectl calibrate`` prints them)."""
        import cv2

        from vision.calibrate_view import draw_calibration, fit_warnings
        from vision.calibration import Calibration, CalibrationError

        with self._lock:
            frame = self._last_frame
        if frame is None:
            raise CalibrationRefused("take a fresh frame first")
        try:
            cal = Calibration.from_mapping({k: body.get(k) for k in KEYS if k in body},
                                           source="the calibration screen")
        except CalibrationError as exc:
            raise CalibrationRefused(str(exc)) from None
        h, w = frame.shape[:2]
        if any(not (0 <= x <= w and 0 <= y <= h) for x, y in (*cal.area, *cal.back_wall)):
            raise CalibrationRefused(f"every point must lie on the {w}x{h} frame")
        if not 4 <= cal.die_px <= max(w, h) / 2:
            raise CalibrationRefused(f"a die of {cal.die_px:g} px cannot be right: drag a box "
                                     f"round one die")
        values = dict(line.split(" = ", 1) for line in cal.to_toml().splitlines()[1:])
        try:
            text = self.config_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        new = rewrite_calibration(text, values)
        cal = _with_file_lens(cal, text)  # the file's lens_k1 (kept there) for the picture
        tomllib.loads(new)  # never write a file the table cannot read
        tmp = self.config_path.with_suffix(self.config_path.suffix + ".tmp")
        tmp.write_text(new, encoding="utf-8")
        tmp.replace(self.config_path)
        ok, buf = cv2.imencode(".png", draw_calibration(frame, cal))
        self.picture = buf.tobytes() if ok else None
        return fit_warnings(frame, cal)
