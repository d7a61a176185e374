"""``tablectl doctor``'s checks: is this machine ready to run the table, and if not, what to do.

Each check looks at one thing and answers with a :class:`Finding`: ``ok``, ``warning`` (the table
runs, but something will go wrong sooner or later) or ``failure`` (the table cannot run as
configured), with the fix. No check changes anything: config.txt is read, never edited; the
journal is probed with a temporary file, never written; the port is bound and let go at once.

What the checks look at besides the configuration (the board, config.txt, the pins, the clock) is
a :class:`Machine`; ``Machine.here()`` is this computer, tests give their own. Off a Raspberry Pi
a ``picamera2`` camera is replaced by the throw simulator and the lights by gpiozero's mock pins,
and the report says so.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tablectl.board import raspberry_pi_model

OK, WARNING, FAILURE = "ok", "warning", "failure"
STATUSES = (OK, WARNING, FAILURE)

#: where Raspberry Pi OS keeps config.txt (Bookworm and later first, then older releases)
BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))

# A month of evenings, for the journal's free space: an evening of 4 hours with a throw every
# 20 seconds, three evenings a week.
THROWS_PER_EVENING = 4 * 3600 // 20
EVENINGS_PER_MONTH = 13
# a throw's journal rows (the throw and the commands around it, with the camera's observation)
ROW_BYTES_PER_THROW = 8 * 1024
# the clock can be no earlier than this (before this version of tablectl was written)
CLOCK_FLOOR = datetime(2026, 1, 1, tzinfo=UTC)
# frames measured for the camera's rate (at most; a short simulated clip gives fewer)
MEASURE_FRAMES = 120
# frames measured for the mount's tremble (each a fit on the image at half size)
TREMBLE_FRAMES = 60
# the image moving more than this from frame to frame (camera pixels) is a loose mount: the
# tracker steadies it (TrackerSettings.loose_mount_px, the same bar) up to about a pixel or two
LOOSE_MOUNT_PX, MOUNT_REACH_PX = 0.15, 1.5
# the longest exposure that does not smear a die thrown at ~2 m/s by more than ~1/2 of its edge
BLUR_EXPOSURE_US = 4000
# the sensor overlays of the Pi cameras (a camera_auto_detect=0 config.txt names one)
CAMERA_OVERLAYS = ("imx708", "imx477", "imx219", "imx296", "imx500", "ov5647", "imx290",
                   "imx519", "arducam")
# the colour of each lamp (firmware_config/wiring.md), named while --blink lights them
LAMP_COLOURS = {"throw": "green", "wait": "amber", "no_roll": "red", "ruling": "red",
                "warning": "amber", "fault": "blue",
                **{f"point_{n}": "white" for n in (4, 5, 6, 8, 9, 10)}}


@dataclass(frozen=True)
class Finding:
    """One check's answer.

    :param check: what was checked ("camera", "journal", ...).
    :param status: "ok", "warning" or "failure".
    :param message: what was found, with the figures measured.
    :param fix: what to do about a warning or a failure ("" when ok).
    """

    check: str
    status: str
    message: str
    fix: str = ""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")


@dataclass
class Machine:
    """The computer the checks run on.

    :param pi_model: the Raspberry Pi's model, or None off a Pi (simulator and mock pins).
    :param boot_config: config.txt, or None when there is none.
    :param pin_factory: gpiozero's pin factory for the lights (None: ``tablectl.lights``'
        choice: gpiozero's default on a Pi, mock pins elsewhere).
    :param clock: seconds since the epoch.
    :param ntp_synchronized: True / False when known, None when it cannot be told.
    :param service_active: whether tablectl.service runs now (it holds camera, pins, port).
    :param user: the user the checks run as (the service runs as ``tablectl``).
    """

    pi_model: str | None
    boot_config: Path | None
    pin_factory: Any = None
    clock: Callable[[], float] = time.time
    ntp_synchronized: Callable[[], bool | None] = field(default=lambda: None)
    service_active: Callable[[], bool] = field(default=lambda: False)
    user: str = ""

    @property
    def on_pi(self) -> bool:
        return self.pi_model is not None

    @classmethod
    def here(cls) -> Machine:
        """This computer."""
        boot = next((p for p in BOOT_CONFIGS if _is_real_config(p)), None)
        try:
            import pwd

            user = pwd.getpwuid(os.geteuid()).pw_name
        except (ImportError, KeyError):
            user = str(os.geteuid())
        return cls(pi_model=raspberry_pi_model(), boot_config=boot,
                   ntp_synchronized=timedatectl_synchronized, service_active=service_running,
                   user=user)


def _is_real_config(path: Path) -> bool:
    """config.txt itself, not Bookworm's /boot/config.txt stub that points to the new place."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    return "/boot/firmware/config.txt" not in text or path == BOOT_CONFIGS[0]


def timedatectl_synchronized() -> bool | None:
    """systemd's answer to "is the clock synchronised?", None when it cannot say."""
    try:
        out = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    answer = out.stdout.strip()
    if out.returncode != 0 or answer not in ("yes", "no"):
        return None
    return answer == "yes"


def service_running() -> bool:
    try:
        out = subprocess.run(["systemctl", "is-active", "--quiet", "tablectl.service"],
                             capture_output=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0


# --------------------------------------------------------------------------- camera
@dataclass(frozen=True)
class CameraProbe:
    """What the camera delivered: the frames' count, size and measured rate, the last frame."""

    frames: int
    size: tuple[int, int] | None
    fps: float | None
    image: Any = None
    live: bool = True
    # the median move of the whole image from frame to frame, camera pixels (a loose mount)
    tremble_px: float | None = None


def doctor_source(camera: Any, machine: Machine) -> tuple[Any, str]:
    """The frame source to check for ``[camera]`` and a note when it is not the configured one.

    Off a Pi a picamera2 camera is replaced by the simulator (one throw whose dice come to rest
    in the area, for the calibration check; read to its end); "simulator" is that too.
    """
    from vision.sources import SimulatorSource, source_from_config

    source = camera.source
    if source == "simulator" or (source.startswith("picamera2") and not machine.on_pi):
        from vision.simulator import Scenario

        note = "" if source == "simulator" else (
            f'not a Raspberry Pi: the camera "{source}" is replaced by the throw simulator')
        sim = SimulatorSource.generate([2], scenario=Scenario.BOTH_HIT, size=tuple(camera.size),
                                       fps=camera.fps)
        return sim, note
    return source_from_config(camera.to_mapping()), ""


def measure_camera(source: Any, n_frames: int = MEASURE_FRAMES) -> CameraProbe:
    """Read up to ``n_frames`` frames; their size and rate from their own timestamps (the
    sensor's for the Pi camera). Raises the source's CameraFault / SourceError."""
    from vision.mount_steady import TrembleMeter

    first = last = None
    count = 0
    tremble = TrembleMeter()
    for frame in source:
        if first is None:
            first = frame
        last = frame
        count += 1
        if count <= TREMBLE_FRAMES:
            tremble.add(frame.image)
        if count >= n_frames:
            break
    if last is None:
        return CameraProbe(0, None, None)
    h, w = last.image.shape[:2]
    span = last.timestamp - first.timestamp
    fps = (count - 1) / span if count > 1 and span > 0 else None
    from vision.sources import CaptureSource, ImageFolderSource, SimulatorSource

    live = not isinstance(source, SimulatorSource | ImageFolderSource) and not (
        isinstance(source, CaptureSource) and not source.is_device)
    return CameraProbe(count, (w, h), fps, last.image, live, tremble.px)


def check_camera(probe: CameraProbe | None, size: tuple[int, int], fps: float,
                 error: str = "") -> Finding:
    """The camera delivers frames of the configured size at the configured rate."""
    if probe is None or probe.frames == 0:
        return Finding("camera", FAILURE, f"no frame: {error or 'the source gave none'}",
                       "check the [camera] source; for the Pi camera `rpicam-hello "
                       "--list-cameras` must list it (cable, camera_auto_detect=1 in config.txt)")
    w, h = size
    got = f"{probe.size[0]}x{probe.size[1]}"
    if probe.size != (w, h):
        return Finding("camera", FAILURE, f"frames are {got}, [camera] size is {w}x{h}",
                       f"set [camera] size = [{probe.size[0]}, {probe.size[1]}] or a size the "
                       "camera offers (docs/hardware.md), then calibrate again at that size")
    if probe.fps is None:
        return Finding("camera", WARNING, f"{probe.frames} frame(s) of {got}: too few to "
                       "measure the rate", "check the camera delivers a steady stream")
    clock = "" if probe.live else " of its own timestamps (not a live camera)"
    rate = f"{got} at {probe.fps:.1f} fps measured over {probe.frames} frames{clock}"
    if probe.fps >= 0.95 * fps:
        return Finding("camera", OK, rate + f" ({fps:g} asked)")
    status = WARNING if probe.fps >= 0.8 * fps else FAILURE
    return Finding("camera", status, f"{rate}, but {fps:g} fps asked",
                   f"set [camera] fps = {round(probe.fps)} or a smaller size; a long exposure "
                   "caps the rate (more light, or a shorter exposure_us); docs/hardware.md lists "
                   "what each camera does")


def check_mount(probe: CameraProbe) -> Finding:
    """The camera's image stands still from frame to frame (a rigid mount)."""
    px = probe.tremble_px
    if px is None:
        return Finding("mount", WARNING, "no sharp edge in view to measure the image's "
                       "tremble on", "check the camera sees the felt's lines and the wall")
    if px <= LOOSE_MOUNT_PX:
        return Finding("mount", OK, f"the image stands still: {px:.2f} px from frame to frame")
    fix = ("fix the camera rigidly to the table's frame, not to a gooseneck, a loose arm or a "
           "shelf that sways (docs/hardware.md)")
    if px <= MOUNT_REACH_PX:
        return Finding("mount", WARNING, f"the image moves {px:.2f} px from frame to frame (a "
                       "loose mount): the tracker steadies it, at a cost on every frame", fix)
    return Finding("mount", FAILURE, f"the image moves {px:.2f} px from frame to frame: more "
                   "than the tracker can steady, throws will not settle", fix)


def check_exposure(source: Any, fps: float) -> Finding:
    """Exposure and white balance fixed once auto exposure settled, short enough for flying
    dice and for the frame rate."""
    from vision.sources import CaptureSource, Picamera2Source

    if isinstance(source, Picamera2Source):
        fixed = source.fixed_controls
        if not fixed or fixed.get("AeEnable", True) or fixed.get("AwbEnable", True):
            return Finding("exposure", FAILURE, "auto exposure was not turned off after it "
                           "settled: a drifting exposure looks like motion to the tracker",
                           "update tablectl; report it if this persists")
        us = int(fixed.get("ExposureTime", 0))
        frame_us = 1e6 / fps
        msg = (f"fixed after settling: {us} us, gain {fixed.get('AnalogueGain', 0):.2f}, "
               f"white balance fixed")
        if us > frame_us:
            return Finding("exposure", FAILURE, f"{msg}; longer than a frame at {fps:g} fps "
                           f"({frame_us:.0f} us), which caps the rate",
                           "add light over the table or set [camera] exposure_us below "
                           f"{int(frame_us)}")
        if us > BLUR_EXPOSURE_US:
            return Finding("exposure", WARNING, f"{msg}; flying dice smear over more than "
                           f"{BLUR_EXPOSURE_US} us",
                           f"add diffuse light or set [camera] exposure_us = {BLUR_EXPOSURE_US}")
        return Finding("exposure", OK, msg)
    if isinstance(source, CaptureSource) and source.is_device:
        return Finding("exposure", WARNING, f"{source.name}: OpenCV asked for manual exposure "
                       "but cannot tell whether the webcam obeyed",
                       "fix it with `v4l2-ctl -d /dev/video0 -c auto_exposure=1 -c "
                       "exposure_time_absolute=40` (names vary: `v4l2-ctl -L`)")
    return Finding("exposure", OK, "not a live camera: nothing to fix")


# --------------------------------------------------------------------------- lights
def check_lights(pins: Mapping[str, int], active_high: bool, machine: Machine, *,
                 blink: bool = False, say: Callable[[str], None] = print,
                 blink_s: float = 0.6) -> Finding:
    """Every light's pin can be claimed; with ``blink`` each lamp lights once in turn, named."""
    from tablectl.lights import Lights, LightsError

    if not pins:
        return Finding("lights", WARNING, "no lamp in [lights]: the shooter sees no signal",
                       "wire the lamps (firmware_config/wiring.md) and list their pins")
    mock = "" if machine.on_pi or machine.pin_factory is not None else " (mock pins: not a " \
        "Raspberry Pi, nothing lights up)"
    try:
        lights = Lights(pins, active_high=active_high, pin_factory=machine.pin_factory,
                        blink_s=blink_s / 2, beep_s=blink_s / 2)
    except (LightsError, ValueError) as exc:
        busy = " (tablectl.service is running: `sudo systemctl stop tablectl` first)" \
            if machine.service_active() else ""
        return Finding("lights", FAILURE, f"{exc}{busy}",
                       "free or fix the pin; the user must be in the gpio group "
                       "(`sudo usermod -aG gpio USER`)")
    try:
        if blink:
            for role in lights.roles:
                if role == "buzzer":
                    say(f"         beeping the buzzer (GPIO {pins[role]})")
                    lights.beep()
                else:
                    say(f"         lighting {role} (GPIO {pins[role]}, {LAMP_COLOURS[role]})")
                    lights.show({role: "on"})
                time.sleep(blink_s)
                lights.show({})
                time.sleep(blink_s / 3)
    finally:
        lights.close()
    listed = ", ".join(f"{role} {pin}" for role, pin in pins.items())
    return Finding("lights", OK, f"{len(pins)} pins claimed and released: {listed}{mock}")


# --------------------------------------------------------------------------- config.txt
@dataclass
class BootConfig:
    """The settings of config.txt that apply to this board, later lines winning."""

    settings: dict[str, str] = field(default_factory=dict)
    gpio: dict[int, str] = field(default_factory=dict)   # pin -> "op,dl" ...
    overlays: list[str] = field(default_factory=list)    # "imx708", "gpio-shutdown,gpio_pin=3"

    @classmethod
    def parse(cls, text: str, pi_model: str | None = None) -> BootConfig:
        board = _board_filter(pi_model)
        out = cls()
        applies = True
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip().lower()
                # a model filter ([pi4], [pi5], [cm4]...) applies to that board only; other
                # filters ([HDMI:0], [EDID=...]) may apply, so their lines are counted
                model_filter = re.fullmatch(r"(pi|cm)\d\w*\+?", section) is not None
                applies = section == "all" or (section != "none" and (
                    not model_filter or board is None or section.startswith(board)))
                continue
            if not applies or "=" not in line:
                continue
            key, value = (s.strip() for s in line.split("=", 1))
            if key == "gpio":
                pins, _, opts = value.partition("=")
                for pin in _pin_list(pins):
                    out.gpio[pin] = opts.strip().replace(" ", "")
            elif key == "dtoverlay":
                out.overlays.append(value)
            else:
                out.settings[key] = value
        return out


def _board_filter(pi_model: str | None) -> str | None:
    """config.txt's section name for the board ("pi5", "pi4"...), None when unknown."""
    if not pi_model:
        return None
    m = re.search(r"Raspberry Pi (\d+)", pi_model)
    if m:
        return f"pi{m.group(1)}"
    m = re.search(r"Compute Module (\d+)", pi_model)
    return f"cm{m.group(1)}" if m else None


def _pin_list(text: str) -> list[int]:
    pins: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            if lo.isdigit() and hi.isdigit():
                pins.extend(range(int(lo), int(hi) + 1))
        elif part.isdigit():
            pins.append(int(part))
    return pins


def check_boot_config(machine: Machine, pins: Mapping[str, int], active_high: bool,
                      camera_source: str) -> Finding:
    """config.txt holds the camera and the lights' boot state (drift is reported, not fixed)."""
    path = machine.boot_config
    if path is None:
        where = " or ".join(str(p) for p in BOOT_CONFIGS)
        if not machine.on_pi:
            return Finding("config.txt", WARNING, f"no {where}: not a Raspberry Pi, nothing to "
                           "check", "on the Pi, run tablectl doctor there")
        return Finding("config.txt", FAILURE, f"no {where} found",
                       "is the boot partition mounted? (`findmnt /boot/firmware`)")
    try:
        boot = BootConfig.parse(path.read_text(errors="replace"), machine.pi_model)
    except OSError as exc:
        return Finding("config.txt", FAILURE, f"cannot read {path}: {exc.strerror}",
                       "run doctor as a user who can read it")
    failures: list[str] = []
    drift: list[str] = []
    if camera_source.startswith("picamera2"):
        auto = boot.settings.get("camera_auto_detect")
        sensor = [o for o in boot.overlays if o.split(",")[0] in CAMERA_OVERLAYS]
        if auto != "1" and not sensor:
            failures.append("the camera is not enabled (no camera_auto_detect=1 and no camera "
                            "overlay such as dtoverlay=imx708)")
    level = "dl" if active_high else "dh"
    for role, pin in pins.items():
        opts = boot.gpio.get(pin)
        if opts is None:
            drift.append(f"GPIO {pin} ({role}) is not set from boot (gpio={pin}=op,{level})")
        elif set(opts.split(",")) != {"op", level}:
            drift.append(f"GPIO {pin} ({role}) is gpio={pin}={opts} at boot, the lamp wants "
                         f"op,{level}")
    lamp_pins = {pin: role for role, pin in pins.items()}
    for pin, opts in sorted(boot.gpio.items()):
        if pin not in lamp_pins and "op" in opts.split(","):
            drift.append(f"GPIO {pin} is driven at boot ({opts}) but no lamp is on it in "
                         "[lights]: left from an older wiring?")
    for overlay in boot.overlays:
        name, _, args = overlay.partition(",")
        if name == "gpio-shutdown":
            m = re.search(r"gpio_pin=(\d+)", args)
            button = int(m.group(1)) if m else 3
            if button in lamp_pins:
                failures.append(f"the shutdown button's GPIO {button} is also the "
                                f"{lamp_pins[button]} lamp")
    fix = f"compare {path} with firmware_config/config.txt.fragment (install.sh writes it); " \
          "reboot after a change"
    if failures:
        return Finding("config.txt", FAILURE, f"{path}: " + "; ".join(failures + drift), fix)
    if drift:
        return Finding("config.txt", WARNING, f"{path}: " + "; ".join(drift), fix)
    return Finding("config.txt", OK, f"{path} enables the camera and sets the {len(pins)} light "
                   "pins from boot" if camera_source.startswith("picamera2") else
                   f"{path} sets the {len(pins)} light pins from boot")


# --------------------------------------------------------------------------- calibration
def check_calibration(image: Any, calibration: Any) -> Finding:
    """The calibration fits the camera's frame: ``tablectl calibrate``'s checks."""
    from vision.calibrate_view import fit_warnings, seen_die_sizes

    if image is None:
        return Finding("calibration", FAILURE, "no frame to check it on (the camera failed)",
                       "fix the camera first")
    h, w = image.shape[:2]
    problems = fit_warnings(image, calibration)
    if not problems:
        return Finding("calibration", OK, f"fits the {w}x{h} frame (area, back wall, die size "
                       f"{calibration.die_px:g} px)")
    fix = "save a frame with both dice in the area and check it with `tablectl calibrate " \
          "--image FRAME` (docs/calibration.md)"
    if not seen_die_sizes(image, calibration) and len(problems) == 1:
        return Finding("calibration", WARNING, f"fits the {w}x{h} frame, but no die was seen in "
                       "the area to check die_px against", "put both dice in the area and run "
                       "doctor again")
    return Finding("calibration", FAILURE, "; ".join(problems), fix)


# --------------------------------------------------------------------------- journal
def month_bytes(picture_bytes: int) -> int:
    """Bytes a month of evenings takes: each throw's rows and its picture."""
    return THROWS_PER_EVENING * EVENINGS_PER_MONTH * (ROW_BYTES_PER_THROW + picture_bytes)


def picture_bytes(image: Any, size: tuple[int, int]) -> int:
    """A throw picture's size: the camera's frame encoded as PNG, else an estimate."""
    if image is not None:
        import cv2

        ok, png = cv2.imencode(".png", image)
        if ok:
            return len(png)
    return size[0] * size[1] * 3 * 4 // 10  # PNG of a felt scene: about 40 % of the raw frame


def check_journal(path: Path, need_bytes: int, user: str = "") -> Finding:
    """The journal's folder is writable and holds a month of evenings' free space."""
    folder = Path(path).parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    who = f" by {user}" if user else ""
    service = " (the service runs as tablectl: `sudo -u tablectl tablectl doctor`)" \
        if user and user != "tablectl" else ""
    if not existing.is_dir():
        return Finding("journal", FAILURE, f"{existing} is not a folder",
                       "set [journal] path to a file in a folder")
    probe = folder if folder.is_dir() else existing
    try:
        with tempfile.NamedTemporaryFile(dir=probe, prefix=".tablectl-doctor-") as f:
            f.write(b"\0" * 65536)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        reason = "the disk is full" if exc.errno == errno.ENOSPC else exc.strerror
        return Finding("journal", FAILURE, f"{probe} is not writable{who}: {reason}{service}",
                       f"free space, or make {folder} writable for the table's user (the "
                       "service's StateDirectory= creates /var/lib/tablectl), or set [journal] "
                       "path elsewhere")
    if Path(path).is_file():
        try:
            con = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=1.0)
            try:
                con.execute("BEGIN IMMEDIATE")
                con.execute("ROLLBACK")
            finally:
                con.close()
        except sqlite3.Error as exc:
            return Finding("journal", FAILURE, f"{path} cannot be written{who}: {exc}{service}",
                           "is the table running (`systemctl status tablectl`)? else check the "
                           "file's owner and `tablectl journal verify`")
    free = shutil.disk_usage(probe).free
    gib = 1024 ** 3
    figures = (f"{free / gib:.1f} GiB free in {probe}, a month of evenings takes about "
               f"{need_bytes / gib:.1f} GiB")
    if free >= need_bytes:
        created = "" if folder.is_dir() else f" ({folder} is made at the first start)"
        return Finding("journal", OK, f"writable; {figures}{created}")
    evening = need_bytes // EVENINGS_PER_MONTH
    status = WARNING if free >= evening else FAILURE
    return Finding("journal", status, f"writable, but {figures}",
                   "free space on that disk (old throw pictures, `sudo apt clean`), or use a "
                   "bigger card or disk for [journal] path")


# --------------------------------------------------------------------------- clock
def last_journal_time(path: Path) -> datetime | None:
    """The time of the journal's last row, None when there is no journal (read only)."""
    if not Path(path).is_file():
        return None
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
        try:
            row = con.execute("SELECT time FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    if not row:
        return None
    try:
        stamp = datetime.fromisoformat(row[0])
    except (TypeError, ValueError):
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def check_clock(machine: Machine, journal_path: Path) -> Finding:
    """The clock is set: the journal's times depend on it."""
    now = datetime.fromtimestamp(machine.clock(), UTC)
    shown = now.strftime("%Y-%m-%d %H:%M UTC")
    fix = ("connect the Pi to a network with NTP once (`timedatectl`), or fit an RTC battery "
           "(Pi 5); then `sudo systemctl restart tablectl`")
    if now < CLOCK_FLOOR:
        return Finding("clock", FAILURE, f"the clock says {shown}, before this software was "
                       "written: it was never set", fix)
    last = last_journal_time(journal_path)
    if last is not None and last > now:
        return Finding("clock", FAILURE, f"the clock says {shown}, earlier than the journal's "
                       f"last entry ({last:%Y-%m-%d %H:%M} UTC): its times would run backwards",
                       fix)
    synced = machine.ntp_synchronized()
    if synced is False:
        return Finding("clock", WARNING, f"{shown}, not synchronised with a time server (a Pi "
                       "has no battery clock: after a power cut it starts from the last "
                       "shutdown)", fix)
    known = "synchronised" if synced else "synchronisation unknown"
    return Finding("clock", OK, f"{shown} ({known})")


# --------------------------------------------------------------------------- dashboard
def check_port(host: str, port: int, machine: Machine | None = None) -> Finding:
    """The dashboard's port is free to listen on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        sock.bind((host, port))
        sock.listen(1)
    except OSError as exc:
        running = machine is not None and machine.service_active()
        why = "tablectl.service is running" if running else exc.strerror
        return Finding("dashboard", FAILURE, f"port {port} on {host} is taken ({why})",
                       f"see who holds it: `sudo ss -ltnp 'sport = :{port}'`; stop it, or set "
                       "[dashboard] port to another")
    finally:
        sock.close()
    where = "every interface" if host in ("0.0.0.0", "::", "") else host
    return Finding("dashboard", OK, f"port {port} is free on {where}")


# --------------------------------------------------------------------------- all of them
def diagnose(config: Any, machine: Machine, *, blink: bool = False,
             say: Callable[[str], None] = print) -> list[Finding]:
    """Every check on ``config`` (a TableConfig), in the order they are printed."""
    from vision.sources import CameraFault, SimulatorSource, SourceError

    findings: list[Finding] = []
    if machine.service_active():
        findings.append(Finding("service", WARNING, "tablectl.service is running: it holds the "
                                "camera, the pins and the port, so their checks fail",
                                "`sudo systemctl stop tablectl`, run doctor, then start it"))
    camera = config.camera
    probe: CameraProbe | None = None
    source = None
    if not camera.source:
        findings.append(Finding("camera", WARNING, "no camera configured ([camera] source = "
                                '""): throws are only entered by hand', "set [camera] source"))
    else:
        error = ""
        try:
            source, note = doctor_source(camera, machine)
            if note:
                say(f"note: {note}")
            finite = isinstance(source, SimulatorSource)  # to the rest frame of its throw
            probe = measure_camera(source, 10**6 if finite else MEASURE_FRAMES)
        except (CameraFault, SourceError) as exc:
            error = str(exc)
        findings.append(check_camera(probe, tuple(camera.size), camera.fps, error))
        if source is not None and probe is not None and probe.frames:
            findings.append(check_mount(probe))
            findings.append(check_exposure(source, camera.fps))
        if source is not None:
            source.close()
    findings.append(check_lights(config.lights.pins, config.lights.active_high, machine,
                                 blink=blink, say=say))
    findings.append(check_boot_config(machine, config.lights.pins, config.lights.active_high,
                                      camera.source))
    if camera.source:
        findings.append(check_calibration(probe.image if probe else None, config.calibration))
    need = month_bytes(picture_bytes(probe.image if probe else None, tuple(camera.size)))
    findings.append(check_journal(config.journal.path, need, machine.user))
    findings.append(check_clock(machine, config.journal.path))
    findings.append(check_port(config.dashboard.host, config.dashboard.port, machine))
    return findings


def report(findings: Iterable[Finding]) -> list[str]:
    """The lines printed for the findings: status, check, message, and the fix below."""
    lines = []
    for f in findings:
        lines.append(f"{f.status.upper() if f.status == FAILURE else f.status:<8} "
                     f"{f.check:<12} {f.message}")
        if f.fix and f.status != OK:
            lines.append(f"{'':<8} {'':<12} fix: {f.fix}")
    return lines
