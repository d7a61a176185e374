"""tablectl doctor: every check, ok and failing, on stand-ins (picamera2's, the simulator, mock
pins, real folders, files and sockets)."""

from __future__ import annotations

import os
import socket
import subprocess
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero import LED

from tablectl import doctor
from tablectl.cli import main
from tablectl.doctor import (
    FAILURE,
    OK,
    WARNING,
    BootConfig,
    check_boot_config,
    check_calibration,
    check_camera,
    check_clock,
    check_exposure,
    check_journal,
    check_lights,
    check_mount,
    check_port,
    diagnose,
    doctor_source,
    measure_camera,
)
from tablectl.journal import Journal
from vision.simulator.clip import SimClip
from vision.sources import ImageFolderSource

from .conftest import ROOT, write_config

PINS = {"throw": 17, "wait": 27, "no_roll": 22, "ruling": 23, "warning": 24, "fault": 25,
        "buzzer": 12, "point_4": 5, "point_5": 6, "point_6": 13, "point_8": 19, "point_9": 26,
        "point_10": 21}
FRAGMENT = (ROOT / "firmware_config" / "config.txt.fragment").read_text()


def camera_finding(config, machine):
    source, _ = doctor_source(config.camera, machine)
    try:
        probe = measure_camera(source)
        return check_camera(probe, config.camera.size, config.camera.fps), source
    finally:
        source.close()


# --------------------------------------------------------------------------- camera
def test_pi_camera_at_the_configured_size_and_rate(config_at, pi, picamera2):
    config = config_at(camera='source = "picamera2"\nsize = [640, 480]\nfps = 60')
    finding, _ = camera_finding(config, pi)
    assert finding.status == OK, finding
    assert "640x480 at 60.0 fps measured over 120 frames" in finding.message


def test_pi_camera_slower_than_asked_fails(config_at, pi, picamera2):
    config = config_at(camera='source = "picamera2"\nsize = [640, 480]\nfps = 120')
    finding, _ = camera_finding(config, pi)  # the stand-in's sensor runs at 60 fps
    assert finding.status == FAILURE
    assert "60.0 fps measured" in finding.message and "120 fps asked" in finding.message
    assert "fps = 60" in finding.fix


def test_pi_camera_somewhat_slow_warns(config_at, pi, picamera2):
    picamera2.FRAME_NS = 1_000_000_000 // 55
    try:
        finding, _ = camera_finding(config_at(camera='source = "picamera2"\nfps = 60'), pi)
    finally:
        picamera2.FRAME_NS = 16_666_667
    assert finding.status == WARNING and "55.0 fps" in finding.message


def test_no_pi_camera_fails_with_the_fix(config_at, pi, picamera2, capsys):
    picamera2.CAMERAS.clear()
    findings = diagnose(config_at(camera='source = "picamera2"'), pi, say=lambda _: None)
    camera = next(f for f in findings if f.check == "camera")
    assert camera.status == FAILURE
    assert "not found" in camera.message and "rpicam-hello" in camera.fix
    calibration = next(f for f in findings if f.check == "calibration")
    assert calibration.status == FAILURE  # nothing to check it on


def test_frames_of_another_size_fail(tmp_path, config_at, laptop):
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:03d}.png"), np.zeros((720, 1280, 3), np.uint8))
    config = config_at(camera=f'source = "{frames}"\nsize = [640, 480]\nfps = 60')
    finding, _ = camera_finding(config, laptop)
    assert finding.status == FAILURE
    assert "frames are 1280x720" in finding.message and "size = [1280, 720]" in finding.fix


def test_off_the_pi_the_simulator_stands_in_and_says_so(config_at, laptop):
    config = config_at(camera='source = "picamera2"\nsize = [640, 480]\nfps = 60')
    source, note = doctor_source(config.camera, laptop)
    assert "not a Raspberry Pi" in note and "simulator" in note
    probe = measure_camera(source, 10**6)
    assert probe.size == (640, 480) and not probe.live
    assert check_camera(probe, (640, 480), 60).status == OK


# --------------------------------------------------------------------------- exposure
def picamera_source(config, machine):
    source, _ = doctor_source(config.camera, machine)
    source.open()
    return source


@pytest.mark.parametrize("exposure_us, status, words", [
    (3000, OK, "3000 us"),
    (0, WARNING, "smear"),          # the stand-in's auto exposure settles at 12000 us
    (20000, FAILURE, "longer than a frame"),
])
def test_exposure_fixed_short_enough(config_at, pi, picamera2, exposure_us, status, words):
    config = config_at(camera=f'source = "picamera2"\nfps = 60\nexposure_us = {exposure_us}')
    source = picamera_source(config, pi)
    try:
        finding = check_exposure(source, 60)
    finally:
        source.close()
    assert finding.status == status, finding
    assert words in finding.message
    assert picamera2.INSTANCES[-1].controls["AeEnable"] is False


def test_exposure_left_automatic_fails(config_at, pi, picamera2):
    source = picamera_source(config_at(camera='source = "picamera2"\nfps = 60'), pi)
    try:
        source.fixed_controls = dict(source.fixed_controls, AeEnable=True)
        finding = check_exposure(source, 60)
    finally:
        source.close()
    assert finding.status == FAILURE and "auto exposure" in finding.message


def test_exposure_of_the_simulator_needs_nothing(config_at, laptop):
    source, _ = doctor_source(config_at().camera, laptop)
    assert check_exposure(source, 60).status == OK


# --------------------------------------------------------------------------- mount
def trembling_frames(folder: Path, px: float, n: int = 30) -> ImageFolderSource:
    """A fixture's felt moved by up to ``px`` pixels each way, anew each frame, as a camera on
    a loose mount gives it: a folder of frames."""
    felt = SimClip.load(ROOT / "fixtures" / "clips" / "01_both_hit").frames[0][1]
    rng = np.random.default_rng(7)
    folder.mkdir()
    for k in range(n):
        dx, dy = rng.uniform(-px, px, 2)
        m = np.float32([[1, 0, dx], [0, 1, dy]])
        moved = cv2.warpAffine(felt, m, (felt.shape[1], felt.shape[0]),
                               borderMode=cv2.BORDER_REPLICATE)
        cv2.imwrite(str(folder / f"{k:03d}.png"), moved)
    return ImageFolderSource(folder)


def test_a_rigid_camera_stands_still(config_at, laptop):
    """The simulator's throw: dice roll across the view, the image does not move."""
    source, _ = doctor_source(config_at().camera, laptop)
    finding = check_mount(measure_camera(source, 10**6))
    assert finding.status == OK and "stands still" in finding.message


def test_a_loose_mount_warns_and_says_to_fix_it_rigidly(tmp_path):
    finding = check_mount(measure_camera(trembling_frames(tmp_path / "f", 0.5)))
    assert finding.status == WARNING and "loose mount" in finding.message
    assert "rigidly" in finding.fix


def test_a_mount_moving_past_what_the_tracker_steadies_fails(tmp_path):
    finding = check_mount(measure_camera(trembling_frames(tmp_path / "f", 3.0)))
    assert finding.status == FAILURE and "will not settle" in finding.message


# --------------------------------------------------------------------------- lights
def test_light_pins_claimed_and_released(pi, factory):
    finding = check_lights(PINS, True, pi)
    assert finding.status == OK and "13 pins claimed" in finding.message
    for pin in PINS.values():
        LED(pin, pin_factory=factory).close()  # released: claimable again


def test_a_light_pin_in_use_fails(pi, factory):
    holder = LED(24, pin_factory=factory)
    try:
        finding = check_lights(PINS, True, pi)
    finally:
        holder.close()
    assert finding.status == FAILURE
    assert "GPIO 24" in finding.message and "'warning'" in finding.message
    assert "gpio group" in finding.fix


def test_blink_lights_each_lamp_once_in_turn_and_names_it(pi, factory):
    said = []
    finding = check_lights(PINS, True, pi, blink=True, say=said.append, blink_s=0.01)
    assert finding.status == OK
    assert said[0] == "         lighting throw (GPIO 17, green)"
    assert "beeping the buzzer (GPIO 12)" in said[6]
    assert len(said) == len(PINS)
    for role, pin in PINS.items():
        states = [s.state for s in factory.pin(pin).states]
        assert states[:3] == [False, True, False], (role, states)


def test_lights_off_the_pi_say_mock(laptop, monkeypatch):
    from tablectl import lights

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(lights, "raspberry_pi_model", lambda: None)
    finding = check_lights({"throw": 17}, True, laptop)
    assert finding.status == OK and "mock pins" in finding.message


def test_no_lights_configured_warns(pi):
    assert check_lights({}, True, pi).status == WARNING


# --------------------------------------------------------------------------- config.txt
def boot(tmp_path, pi, text: str):
    path = tmp_path / "config.txt"
    path.write_text("# the Pi's own lines\ndtparam=audio=on\n" + text)
    return replace(pi, boot_config=path)


def test_config_txt_with_the_fragment_is_ok(tmp_path, pi):
    finding = check_boot_config(boot(tmp_path, pi, FRAGMENT), PINS, True, "picamera2")
    assert finding.status == OK, finding


def test_config_txt_without_the_lines_fails_and_names_them(tmp_path, pi):
    finding = check_boot_config(boot(tmp_path, pi, "camera_auto_detect=0\n"), PINS, True,
                                "picamera2")
    assert finding.status == FAILURE
    assert "camera is not enabled" in finding.message
    assert "GPIO 17 (throw) is not set from boot" in finding.message
    assert "config.txt.fragment" in finding.fix


def test_config_txt_pins_drifted_from_the_lights_warn(tmp_path, pi):
    pins = dict(PINS, throw=16)  # rewired, config.txt not updated
    finding = check_boot_config(boot(tmp_path, pi, FRAGMENT), pins, True, "picamera2")
    assert finding.status == WARNING
    assert "GPIO 16 (throw) is not set from boot" in finding.message
    assert "GPIO 17 is driven at boot (op,dl) but no lamp is on it" in finding.message


def test_config_txt_active_low_lamps_want_driven_high(tmp_path, pi):
    finding = check_boot_config(boot(tmp_path, pi, FRAGMENT), PINS, False, "picamera2")
    assert finding.status == WARNING and "wants op,dh" in finding.message


def test_config_txt_sections_of_other_boards_do_not_count(tmp_path, pi):
    text = FRAGMENT.replace("[all]", "[pi4]")
    finding = check_boot_config(boot(tmp_path, pi, text), PINS, True, "picamera2")
    assert finding.status == FAILURE  # a Pi 5 ignores [pi4]
    text = FRAGMENT.replace("[all]", "[pi5]")
    assert check_boot_config(boot(tmp_path, pi, text), PINS, True, "picamera2").status == OK


def test_config_txt_camera_overlay_and_shutdown_button(tmp_path, pi):
    text = FRAGMENT.replace("camera_auto_detect=1", "camera_auto_detect=0\ndtoverlay=imx477")
    text = text.replace("#dtoverlay=gpio-shutdown", "dtoverlay=gpio-shutdown")
    assert check_boot_config(boot(tmp_path, pi, text), PINS, True, "picamera2").status == OK
    clash = check_boot_config(boot(tmp_path, pi, text), dict(PINS, throw=3), True, "picamera2")
    assert clash.status == FAILURE and "shutdown button's GPIO 3" in clash.message


def test_config_txt_is_never_edited(tmp_path, pi):
    machine = boot(tmp_path, pi, "")
    before = machine.boot_config.read_bytes()
    check_boot_config(machine, PINS, True, "picamera2")
    assert machine.boot_config.read_bytes() == before


def test_no_config_txt(pi, laptop):
    assert check_boot_config(pi, PINS, True, "picamera2").status == FAILURE
    off = check_boot_config(laptop, PINS, True, "picamera2")
    assert off.status == WARNING and "not a Raspberry Pi" in off.message


def test_gpio_ranges_and_lists_are_read():
    cfg = BootConfig.parse("gpio=2-4,9=op,dl\n[none]\ngpio=5=ip\n")
    assert cfg.gpio == {2: "op,dl", 3: "op,dl", 4: "op,dl", 9: "op,dl"}


# --------------------------------------------------------------------------- calibration
@pytest.fixture(scope="module")
def rest_frame():
    from vision.simulator import Scenario
    from vision.sources import SimulatorSource

    frames = list(SimulatorSource.generate([2], scenario=Scenario.BOTH_HIT, size=(640, 480)))
    return frames[-1].image


def test_calibration_fits_the_frame(config_at, rest_frame):
    finding = check_calibration(rest_frame, config_at().calibration)
    assert finding.status == OK, finding


def test_calibration_off_the_frame_fails(config_at, rest_frame):
    moved = config_at(calibration="""
[calibration]
area = [[719.3, 76.8], [919.7, 76.8], [947.4, 444], [691.6, 444]]
back_wall = [[651.5, 76.8], [987.5, 76.8]]
die_px = 41.7
""").calibration
    finding = check_calibration(rest_frame, moved)
    assert finding.status == FAILURE
    assert "outside the 640x480 frame" in finding.message
    assert "tablectl calibrate" in finding.fix


def test_calibration_without_dice_in_view_warns(config_at):
    felt = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    finding = check_calibration(felt, config_at().calibration)
    assert finding.status == WARNING and "no die was seen" in finding.message


# --------------------------------------------------------------------------- journal
def test_journal_folder_writable_with_room(tmp_path):
    finding = check_journal(tmp_path / "state" / "journal.sqlite", 1024)
    assert finding.status == OK and "made at the first start" in finding.message
    assert not (tmp_path / "state").exists()  # the doctor creates nothing
    assert list(tmp_path.iterdir()) == []


def test_journal_existing_file_is_probed_not_written(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal.open(path).close()
    before = path.read_bytes()
    assert check_journal(path, 1024).status == OK
    assert path.read_bytes() == before


def test_journal_without_a_month_of_room(tmp_path):
    free = __import__("shutil").disk_usage(tmp_path).free
    month = check_journal(tmp_path / "j.sqlite", free * 2)  # an evening fits, a month not
    assert month.status == WARNING and "a month of evenings takes" in month.message
    evening = check_journal(tmp_path / "j.sqlite", free * doctor.EVENINGS_PER_MONTH * 2)
    assert evening.status == FAILURE and "free space" in evening.fix


def _mount_tmpfs(folder: Path, options: str) -> None:
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip()})")


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs filled to the brim (needs mount rights)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    folder = tmp_path / "small"
    _mount_tmpfs(folder, "size=64k")
    try:
        with open(folder / "filler", "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError:
                pass
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.fixture
def read_only(tmp_path):
    """A folder nobody can write in (a read-only tmpfs as root, else mode 0555)."""
    folder = tmp_path / "ro"
    if os.geteuid() != 0:
        folder.mkdir()
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    _mount_tmpfs(folder, "ro,size=64k")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_journal_on_a_full_disk_fails(small_disk):
    finding = check_journal(small_disk / "journal.sqlite", 1024)
    assert finding.status == FAILURE and "the disk is full" in finding.message


def test_journal_in_a_read_only_folder_fails(read_only):
    finding = check_journal(read_only / "journal.sqlite", 1024, user="pi")
    assert finding.status == FAILURE and "not writable by pi" in finding.message
    assert "sudo -u tablectl" in finding.message


def test_a_month_of_evenings_is_counted_from_the_picture():
    picture = 300_000
    assert doctor.month_bytes(picture) == (doctor.THROWS_PER_EVENING * doctor.EVENINGS_PER_MONTH
                                           * (doctor.ROW_BYTES_PER_THROW + picture))
    frame = np.zeros((480, 640, 3), np.uint8)
    assert 0 < doctor.picture_bytes(frame, (640, 480)) < doctor.picture_bytes(None, (640, 480))


# --------------------------------------------------------------------------- clock
def test_clock_set_and_synchronised(tmp_path, pi):
    finding = check_clock(pi, tmp_path / "none.sqlite")
    assert finding.status == OK and "synchronised" in finding.message


def test_clock_never_set_fails(tmp_path, pi):
    finding = check_clock(replace(pi, clock=lambda: 86_400.0), tmp_path / "none.sqlite")
    assert finding.status == FAILURE and "1970-01-02" in finding.message
    assert "NTP" in finding.fix


def test_clock_behind_the_journal_fails(tmp_path, pi):
    path = tmp_path / "journal.sqlite"
    with Journal.open(path, clock=lambda: 1_800_000_000.0) as journal:  # 2027-01-15
        journal.apply({"command": "join", "player": "ann", "buy_in": 100})
    finding = check_clock(pi, path)
    assert finding.status == FAILURE and "journal's last entry (2027-01-15" in finding.message
    later = replace(pi, clock=lambda: 1_800_000_100.0)
    assert check_clock(later, path).status == OK


def test_clock_not_synchronised_warns(tmp_path, pi):
    finding = check_clock(replace(pi, ntp_synchronized=lambda: False), tmp_path / "x")
    assert finding.status == WARNING and "not synchronised" in finding.message


# --------------------------------------------------------------------------- dashboard port
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dashboard_port_free():
    port = free_port()
    finding = check_port("127.0.0.1", port)
    assert finding.status == OK and str(port) in finding.message


def test_dashboard_port_held_fails():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        finding = check_port("127.0.0.1", port)
    assert finding.status == FAILURE and f"port {port} on 127.0.0.1 is taken" in finding.message
    assert f"sport = :{port}" in finding.fix


# --------------------------------------------------------------------------- all together
def test_doctor_command_off_the_pi(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "raspberry_pi_model", lambda: None)
    monkeypatch.setattr(doctor, "BOOT_CONFIGS", (tmp_path / "no-config.txt",))
    from tablectl import lights

    monkeypatch.setattr(lights, "raspberry_pi_model", lambda: None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    config = write_config(tmp_path, camera='source = "picamera2"\nsize = [640, 480]\nfps = 60',
                          port=free_port())
    assert main(["doctor", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "not a Raspberry Pi (simulator and mock pins stand in)" in out
    assert 'the camera "picamera2" is replaced by the throw simulator' in out
    for check in ("camera", "exposure", "lights", "config.txt", "calibration", "journal",
                  "clock", "dashboard"):
        assert f" {check} " in out, check
    assert "0 failure(s)" in out


def test_doctor_command_fails_when_a_check_fails(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(doctor, "BOOT_CONFIGS", (tmp_path / "no-config.txt",))
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        config = write_config(tmp_path, port=holder.getsockname()[1])
        assert main(["doctor", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "FAILURE  dashboard" in out and "1 failure(s)" in out


def test_doctor_command_bad_config(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text("[camera]\nsorce = 1\n")
    assert main(["doctor", "--config", str(bad)]) == 2
    assert "unknown key 'sorce'" in capsys.readouterr().out


def test_a_running_service_is_named_as_the_cause(config_at, pi):
    running = replace(pi, service_active=lambda: True)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        findings = diagnose(config_at(port=port), running, say=lambda _: None)
    assert findings[0].check == "service" and findings[0].status == WARNING
    assert "systemctl stop tablectl" in findings[0].fix
    dashboard = next(f for f in findings if f.check == "dashboard")
    assert dashboard.status == FAILURE and "tablectl.service is running" in dashboard.message
