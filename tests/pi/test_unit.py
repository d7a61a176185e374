"""firmware_config/tablectl.service: systemd accepts it, and it keeps what the table needs."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tablectl.config import JournalConfig

from .conftest import ROOT

UNIT = ROOT / "firmware_config" / "tablectl.service"
INSTALLED_TABLECTL = "/opt/tablectl/venv/bin/tablectl"


def service() -> dict[str, list[str]]:
    """The [Service] section, each key's values in order (keys may repeat)."""
    out: dict[str, list[str]] = {}
    section = None
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, value = line.split("=", 1)
            out.setdefault(key, []).append(value)
    return out


def verify(unit_text: str, folder: Path) -> subprocess.CompletedProcess:
    """systemd-analyze verify on the unit, its ExecStart pointed at a program that exists here
    (verify insists on it; on the Pi install.sh puts tablectl there)."""
    tablectl = shutil.which("tablectl") or str(Path(sys.executable).with_name("tablectl"))
    path = folder / "tablectl.service"
    path.write_text(unit_text.replace(INSTALLED_TABLECTL, tablectl))
    return subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)


@pytest.fixture
def analyze():
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (it comes with systemd)")


def test_systemd_analyze_verify(analyze, tmp_path):
    done = verify(UNIT.read_text(), tmp_path)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_verify_would_catch_a_broken_line(analyze, tmp_path):
    broken = UNIT.read_text().replace("RestartSec=5", "RestartSec=five")
    assert "Failed to parse sec value" in verify(broken, tmp_path).stderr


def test_the_table_user_with_camera_and_gpio_groups():
    s = service()
    assert s["User"] == ["tablectl"]
    assert set(s["SupplementaryGroups"][0].split()) == {"video", "gpio"}
    assert s["Restart"] == ["on-failure"]
    assert s["ExecStart"][0].startswith(INSTALLED_TABLECTL + " run --config /etc/tablectl/")


def test_state_directory_holds_the_default_journal():
    s = service()
    assert s["StateDirectory"] == ["tablectl"]
    assert JournalConfig().path.parent == Path("/var/lib/tablectl")


def test_hardening_leaves_the_camera_and_the_pins_reachable():
    s = service()
    assert s.get("PrivateDevices", ["no"]) == ["no"]  # it would hide /dev/video* and gpiochip
    assert s["DevicePolicy"] == ["closed"]
    allowed = {v.split()[0] for v in s["DeviceAllow"]}
    assert allowed == {"char-video4linux", "char-media", "char-dma_heap", "char-gpiochip"}
    assert s["ProtectSystem"] == ["strict"] and s["NoNewPrivileges"] == ["yes"]
    assert "AF_NETLINK" in s["RestrictAddressFamilies"][0]  # udev device discovery
    parser = configparser.ConfigParser(strict=False)
    parser.read_string(UNIT.read_text())
    assert parser["Install"]["WantedBy"] == "multi-user.target"
