"""Which board this runs on: a Raspberry Pi (real camera and pins) or anything else (doubles)."""

from __future__ import annotations

from pathlib import Path

# where the Linux device tree names the board (the first exists on every Pi kernel)
MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))


def raspberry_pi_model(model_files: tuple[Path, ...] = MODEL_FILES) -> str | None:
    """The Pi's model ("Raspberry Pi 5 Model B Rev 1.0"), or None when this is not a Pi.

    :param model_files: the device-tree files to read, first found wins (tests pass their own).
    """
    for path in model_files:
        try:
            model = path.read_bytes().rstrip(b"\0\n").decode("ascii", "replace").strip()
        except OSError:
            continue
        return model if model.startswith("Raspberry Pi") else None
    return None
