"""The table's configuration: ``firmware_config/table.toml`` (or ``--config FILE``), read once at
start with tomllib into a frozen :class:`TableConfig`.

Every key is checked: an unknown key, a value of the wrong type or a missing calibration is a
:class:`ConfigError` naming the key, the file and what to write instead, so a typo never starts a
table on a silent default. ``docs/configuration.md`` documents each key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tablectl.game import TableRules
from vision.calibration import Calibration, CalibrationError

# what install.sh writes on a Pi; else the checkout's documented defaults
INSTALLED_CONFIG_PATH = Path("/etc/tablectl/table.toml")
CHECKOUT_CONFIG_PATH = Path(__file__).resolve().parents[1] / "firmware_config" / "table.toml"
DEFAULT_CONFIG_PATH = INSTALLED_CONFIG_PATH if INSTALLED_CONFIG_PATH.is_file() \
    else CHECKOUT_CONFIG_PATH

# the lamp roles of DESIGN.md "Signal lights" and their default BCM pins
DEFAULT_PINS = {
    "throw": 17, "wait": 27, "no_roll": 22, "ruling": 23, "warning": 24, "fault": 25,
    "buzzer": 12, "point_4": 5, "point_5": 6, "point_6": 13, "point_8": 19, "point_9": 26,
    "point_10": 21,
}
LIGHT_ROLES = tuple(DEFAULT_PINS)
CAMERA_SOURCES_HELP = ('"picamera2" (or "picamera2:N"), a device number such as "0", a video '
                       'file or a folder of frames, or "simulator"')


class ConfigError(ValueError):
    """The configuration cannot be used as written; the message names the key and the file."""


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: where frames come from.

    :param source: "picamera2" / "picamera2:N", an OpenCV device number, a video file or a
        folder of frames, "simulator" (rendered throws), or "" for no camera (script play).
    :param size: (width, height) of the frames in pixels.
    :param fps: frames per second asked of the camera.
    :param settle_frames: frames of auto exposure before exposure and white balance are fixed.
    :param exposure_us: 0 keeps what auto exposure settled on, else a fixed exposure.
    """

    source: str = "picamera2"
    size: tuple[int, int] = (640, 480)
    fps: float = 120.0
    settle_frames: int = 30
    exposure_us: int = 0

    def to_mapping(self) -> dict[str, Any]:
        """The ``[camera]`` table as ``vision.sources.source_from_config`` reads it."""
        return {"source": self.source, "size": list(self.size), "fps": self.fps,
                "settle_frames": self.settle_frames, "exposure_us": self.exposure_us}


@dataclass(frozen=True)
class LightsConfig:
    """``[lights]``: the BCM pin of each lamp role present (a role left out has no lamp)."""

    pins: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PINS))
    active_high: bool = True


@dataclass(frozen=True)
class DashboardConfig:
    """``[dashboard]``: where the phones' web server listens."""

    host: str = "0.0.0.0"
    port: int = 8765


@dataclass(frozen=True)
class JournalConfig:
    """``[journal]``: the SQLite journal; its folder is the table's state folder (throw
    pictures, the operator PIN's hash, sessions)."""

    path: Path = Path("/var/lib/tablectl/journal.sqlite")


@dataclass(frozen=True)
class DiceConfig:
    """``[dice]``: one learnt profile per pair of dice ("" = the general reader), index = pair
    number (R-E2, R-X1)."""

    profiles: tuple[str, ...] = ("", "")


@dataclass(frozen=True)
class TableConfig:
    """The whole configuration, one section per table of table.toml."""

    camera: CameraConfig
    calibration: Calibration
    lights: LightsConfig
    rules: TableRules
    dashboard: DashboardConfig
    journal: JournalConfig
    dice: DiceConfig
    path: Path | None = None  # the file it was read from
    # [judgement]: settings of the throw judgement by name (vision/judgement_settings.py)
    judgement: dict[str, Any] = field(default_factory=dict)


# key -> (type(s), what to write): the schema every section is checked against
_SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], str]]] = {
    "camera": {
        "source": ((str,), CAMERA_SOURCES_HELP),
        "size": ((list,), "[width, height] in pixels, e.g. [640, 480]"),
        "fps": ((int, float), "frames per second, e.g. 60"),
        "settle_frames": ((int,), "a whole number of frames, e.g. 30"),
        "exposure_us": ((int,), "0 (keep auto exposure's value) or microseconds, e.g. 8000"),
    },
    "calibration": {
        "area": ((list,), "[[x, y], [x, y], [x, y], ...] (3+ image points)"),
        "back_wall": ((list,), "[[x1, y1], [x2, y2]]"),
        "die_px": ((int, float), "a die's edge in pixels, e.g. 44"),
    },
    "lights": {
        **{role: ((int,), f"the BCM pin number of the {role} lamp, e.g. {pin}")
           for role, pin in DEFAULT_PINS.items()},
        "active_high": ((bool,), "true (a pin high lights the lamp) or false"),
    },
    "dashboard": {
        "host": ((str,), 'an address to listen on, e.g. "0.0.0.0" (every interface)'),
        "port": ((int,), "a TCP port 1..65535, e.g. 8765"),
    },
    "journal": {
        "path": ((str,), 'a file path, e.g. "/var/lib/tablectl/journal.sqlite"'),
    },
    "dice": {
        "profiles": ((list,), 'one path or "" per pair of dice, e.g. ["", ""]'),
    },
    "judgement": {},  # any field of the judgement's settings: checked by _judgement
    "rules": {
        "min_players": ((int,), "a whole number, at least 2 (R-P1)"),
        "out_of_bounds": ((str,), '"at_rest" or "any_time" (R-I1)'),
        "warnings_before_sanction": ((int,), "a whole number, 0 or more (R-I3, R-I5)"),
        "fade_first_claim": ((bool,), "true or false (R-C4)"),
        "dice_pairs": ((int,), "a whole number, at least 1 (R-E2)"),
    },
}


def _check_types(data: dict, where: Path) -> None:
    for section, value in data.items():
        if section not in _SCHEMA:
            raise ConfigError(f"{where}: unknown table [{section}]; the tables are "
                              f"{', '.join('[' + s + ']' for s in _SCHEMA)}")
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: {section} must be a table ([{section}]), got {value!r}")
        keys = _SCHEMA[section]
        if section == "judgement":
            continue
        for key, item in value.items():
            if key not in keys:
                raise ConfigError(f"{where}: unknown key {key!r} in [{section}]; known keys: "
                                  f"{', '.join(keys)}")
            types, hint = keys[key]
            # a TOML boolean is not a number here, nor a number a boolean
            wrong = not isinstance(item, types) or (isinstance(item, bool) and bool not in types)
            if wrong:
                raise ConfigError(f"{where}: [{section}] {key} = {item!r} has the wrong type; "
                                  f"write {hint}")


def _camera(raw: dict, where: Path) -> CameraConfig:
    size = raw.get("size", [640, 480])
    if len(size) != 2 or not all(type(v) is int and v > 0 for v in size):
        raise ConfigError(f"{where}: [camera] size = {size!r}; write [width, height] in whole "
                          "pixels, e.g. [640, 480]")
    fps = float(raw.get("fps", 120))
    if fps <= 0:
        raise ConfigError(f"{where}: [camera] fps = {fps}; write a positive frame rate")
    return CameraConfig(source=raw.get("source", "picamera2"), size=(size[0], size[1]), fps=fps,
                        settle_frames=raw.get("settle_frames", 30),
                        exposure_us=raw.get("exposure_us", 0))


def _lights(raw: dict, where: Path) -> LightsConfig:
    pins = {role: pin for role, pin in raw.items() if role != "active_high"}
    for role, pin in pins.items():
        if not 0 <= pin <= 27:
            raise ConfigError(f"{where}: [lights] {role} = {pin}; write a BCM GPIO number 0..27 "
                              "(or leave the role out for no lamp)")
    used: dict[int, str] = {}
    for role, pin in pins.items():
        if pin in used:
            raise ConfigError(f"{where}: [lights] {role} and {used[pin]} both use GPIO {pin}; "
                              "give each lamp its own pin")
        used[pin] = role
    return LightsConfig(pins=pins, active_high=raw.get("active_high", True))


def _dashboard(raw: dict, where: Path) -> DashboardConfig:
    port = raw.get("port", 8765)
    if not 1 <= port <= 65535:
        raise ConfigError(f"{where}: [dashboard] port = {port}; write a TCP port 1..65535")
    return DashboardConfig(host=raw.get("host", "0.0.0.0"), port=port)


def _journal(raw: dict, where: Path) -> JournalConfig:
    text = raw.get("path", str(JournalConfig.path))
    if not text:
        raise ConfigError(f"{where}: [journal] path is empty; write the journal's file path")
    return JournalConfig(path=Path(text).expanduser())


def _dice(raw: dict, where: Path, pairs: int) -> DiceConfig:
    profiles = raw.get("profiles", [""] * pairs)
    if not all(isinstance(p, str) for p in profiles):
        raise ConfigError(f"{where}: [dice] profiles = {profiles!r}; write one path or \"\" per "
                          "pair, e.g. [\"\", \"\"]")
    if len(profiles) > pairs:
        raise ConfigError(f"{where}: [dice] lists {len(profiles)} profiles but [rules] "
                          f"dice_pairs = {pairs}; give at most one profile per pair")
    profiles = list(profiles) + [""] * (pairs - len(profiles))
    for p in profiles:
        if p and not Path(p).expanduser().is_file():
            raise ConfigError(f"{where}: [dice] profile {p!r} does not exist; learn it with "
                              f"`tablectl dice learn {p} IMAGE...` or write \"\"")
    return DiceConfig(profiles=tuple(profiles))


def _judgement(raw: dict, where: Path) -> dict[str, Any]:
    if not raw:
        return {}
    from vision.judgement_settings import SettingError, tracker_settings  # the vision stack

    try:
        tracker_settings(raw)
    except SettingError as exc:
        raise ConfigError(f"{where}: [judgement] {exc} (docs/configuration.md, "
                          "\"[judgement]\")") from None
    return dict(raw)


def parse_config(data: dict, where: Path) -> TableConfig:
    """A TableConfig from the decoded TOML of ``where`` (named in every error)."""
    _check_types(data, where)
    if "calibration" not in data:
        raise ConfigError(f"{where}: no [calibration] table: the table cannot judge a throw "
                          "without it. Add [calibration] with area, back_wall and die_px "
                          "(see docs/calibration.md; `tablectl calibrate` helps draw them)")
    try:
        calibration = Calibration.from_mapping(data["calibration"], source=str(where))
    except CalibrationError as exc:
        raise ConfigError(f"{exc}; write area = [[x, y], ...], back_wall = [[x1, y1], [x2, y2]], "
                          "die_px = N (see docs/calibration.md)") from None
    try:
        rules = TableRules.from_mapping(data.get("rules", {}))
    except ValueError as exc:
        raise ConfigError(f"{where}: [rules]: {exc}") from None
    return TableConfig(
        camera=_camera(data.get("camera", {}), where),
        calibration=calibration,
        lights=_lights(data.get("lights", {}), where) if "lights" in data else LightsConfig(),
        rules=rules,
        dashboard=_dashboard(data.get("dashboard", {}), where),
        journal=_journal(data.get("journal", {}), where),
        dice=_dice(data.get("dice", {}), where, rules.dice_pairs),
        path=where,
        judgement=_judgement(data.get("judgement", {}), where),
    )


def load_config(path: Path | str | None = None) -> TableConfig:
    """Read the table's configuration.

    :param path: a TOML file; None reads ``DEFAULT_CONFIG_PATH`` (/etc/tablectl/table.toml where
        install.sh wrote it, else the checkout's firmware_config/table.toml).
    """
    where = Path(path) if path is not None else DEFAULT_CONFIG_PATH
    try:
        text = where.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"configuration file {where} does not exist; give an existing file "
                          f"with --config, or copy {DEFAULT_CONFIG_PATH.name} from "
                          "firmware_config/") from None
    except OSError as exc:
        raise ConfigError(f"cannot read configuration file {where}: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML ({exc}); fix the line it names") from None
    return parse_config(data, where)
