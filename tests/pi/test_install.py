"""firmware_config/install.sh: shellcheck, its refusal off the Pi, and its dry run."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT

SCRIPT = ROOT / "firmware_config" / "install.sh"


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"")
            for p in sorted(folder.rglob("*"))}


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


def test_shellcheck():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt install shellcheck)")
    done = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_refuses_off_the_pi_without_force(tmp_path):
    done = run(env={"TABLECTL_ROOT": str(tmp_path), "TABLECTL_MODEL_FILE": "/nonexistent"})
    assert done.returncode == 1
    assert "not a Raspberry Pi" in done.stderr and "--force" in done.stderr
    assert tree(tmp_path) == {}


@pytest.fixture
def pi_root(tmp_path):
    """A scratch tree with a Pi's model file and config.txt."""
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    root = tmp_path / "root"
    boot = root / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    return {"TABLECTL_ROOT": str(root), "TABLECTL_MODEL_FILE": str(model)}


def test_dry_run_prints_every_step_and_changes_nothing(pi_root):
    root = Path(pi_root["TABLECTL_ROOT"])
    before = tree(root)
    done = run("--dry-run", "--force", env=pi_root)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert tree(root) == before
    assert "board: Raspberry Pi 5 Model B Rev 1.0" in out
    for step in ("python3 -m venv --system-site-packages", "pip install",
                 f"{root}/etc/tablectl/table.toml", "ln -sfn",
                 f"{root}/etc/systemd/system/tablectl.service", "systemctl enable tablectl",
                 "tablectl pin reset"):
        assert step in out, step
    assert out.count("would run: ") >= 15
    # the config.txt block, shown as the change it would make
    assert "+# >>> tablectl >>>" in out and "+gpio=5,6,12,13,17,19,21,22,23,24,25,26,27=op,dl" in out
    assert "Reboot to apply config.txt" in out
    assert "dashboard: http://" in out and out.rstrip().endswith("Dry run: nothing was changed.")


def test_help_says_what_it_does():
    done = run("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Install tablectl on a Raspberry Pi")
    assert done.stdout.rstrip().endswith("what it changed and the dashboard's address.")
    assert run("--bogus").returncode == 2
