"""Configurations read by the real loader, the picamera2 stand-in, machines for the doctor."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tablectl.config import load_config
from tablectl.doctor import Machine

ROOT = Path(__file__).resolve().parents[2]
FAKES = ROOT / "tests" / "fakes"
CALIBRATION = ROOT / "firmware_config" / "table.toml"

# the simulator's table at 640x480 (firmware_config/table.toml's calibration)
CALIBRATION_TOML = """
[calibration]
area = [[119.3, 76.8], [519.7, 76.8], [547.4, 444], [91.6, 444]]
back_wall = [[51.5, 76.8], [587.5, 76.8]]
die_px = 41.7
"""


def write_config(folder: Path, *, camera: str = 'source = "simulator"', lights: str = "",
                 journal: Path | None = None, port: int = 8765,
                 calibration: str = CALIBRATION_TOML) -> Path:
    """A table.toml in ``folder`` (the given [camera] lines, [lights] lines or the defaults)."""
    journal = journal or folder / "state" / "journal.sqlite"
    text = (f"[camera]\n{camera}\n{calibration}\n[journal]\npath = \"{journal}\"\n"
            f"[dashboard]\nhost = \"127.0.0.1\"\nport = {port}\n")
    if lights:
        text += f"[lights]\n{lights}\n"
    path = folder / "table.toml"
    path.write_text(text)
    return path


@pytest.fixture
def config_at(tmp_path):
    def make(**kw):
        return load_config(write_config(tmp_path, **kw))
    return make


@pytest.fixture
def picamera2(monkeypatch):
    """The picamera2 stand-in importable as ``picamera2``, reset."""
    monkeypatch.syspath_prepend(str(FAKES))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    import picamera2 as fake

    fake.reset()
    yield fake
    fake.reset()


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def pi(factory):
    """A Raspberry Pi 5 with mock pins and no config.txt (tests add one)."""
    return Machine(pi_model="Raspberry Pi 5 Model B Rev 1.0", boot_config=None,
                   pin_factory=factory, clock=lambda: 1_796_000_000.0,
                   ntp_synchronized=lambda: True)


@pytest.fixture
def laptop():
    """Not a Pi: the simulator and the mock pins stand in."""
    return Machine(pi_model=None, boot_config=None, clock=lambda: 1_796_000_000.0)
