"""firmware_config/table.toml and load_config: every key checked, every error says what to do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablectl import config as config_module
from tablectl.config import DEFAULT_CONFIG_PATH, ConfigError, load_config
from tablectl.game import TableRules

ROOT = Path(__file__).resolve().parents[2]
BRIEF_PINS = {"throw": 17, "wait": 27, "no_roll": 22, "ruling": 23, "warning": 24, "fault": 25,
              "buzzer": 12, "point_4": 5, "point_5": 6, "point_6": 13, "point_8": 19,
              "point_9": 26, "point_10": 21}


def write(tmp_path, text: str) -> Path:
    base = DEFAULT_CONFIG_PATH.read_text(encoding="utf-8")
    path = tmp_path / "table.toml"
    path.write_text(base + "\n" + text, encoding="utf-8")
    return path


def test_the_shipped_file_loads_with_the_documented_defaults():
    c = load_config(None)
    assert c.path == DEFAULT_CONFIG_PATH == ROOT / "firmware_config" / "table.toml"
    assert c.lights.pins == BRIEF_PINS and c.lights.active_high is True
    assert (c.dashboard.host, c.dashboard.port) == ("0.0.0.0", 8765)
    assert c.journal.path == Path("/var/lib/tablectl/journal.sqlite")
    assert c.dice.profiles == ("", "")
    assert c.rules == TableRules()
    assert c.camera.source == "picamera2" and c.camera.size == (640, 480)
    assert len(c.calibration.area) == 4 and c.calibration.die_px == pytest.approx(41.7)


@pytest.mark.parametrize("extra, names", [
    ("[camera.lens]\nzoom = 2\n", ["lens", "[camera]"]),  # an unknown key (a sub-table)
    ("[sound]\nvolume = 3\n", ["[sound]"]),
])
def test_an_unknown_key_or_table_is_refused(tmp_path, extra, names):
    path = write(tmp_path, extra)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    text = str(err.value)
    assert str(path) in text and all(n in text for n in names)


def test_a_misspelt_key_names_the_known_ones(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(DEFAULT_CONFIG_PATH.read_text().replace("die_px =", "die_size ="))
    with pytest.raises(ConfigError, match=r"unknown key 'die_size' in \[calibration\].*die_px"):
        load_config(path)


@pytest.mark.parametrize("old, new, key, hint", [
    ("port = 8765", 'port = "8765"', "port", "TCP port"),
    ("fps = 120", "fps = true", "fps", "frames per second"),
    ("active_high = true", "active_high = 1", "active_high", "true"),
    ("min_players = 2", "min_players = 2.5", "min_players", "whole number"),
    ("throw = 17", "throw = 40", "throw", "0..27"),
    ("wait = 27", "wait = 17", "wait", "its own pin"),
])
def test_a_wrong_value_says_what_to_write(tmp_path, old, new, key, hint):
    path = tmp_path / "t.toml"
    text = DEFAULT_CONFIG_PATH.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert key in str(err.value) and hint in str(err.value) and str(path) in str(err.value)


def test_a_missing_calibration_is_refused(tmp_path):
    text = DEFAULT_CONFIG_PATH.read_text()
    start = text.index("\n[calibration]")
    end = text.index("\n[lights]")
    path = tmp_path / "t.toml"
    path.write_text(text[:start] + text[end:])
    with pytest.raises(ConfigError, match=r"no \[calibration\].*docs/calibration.md"):
        load_config(path)


def test_a_missing_file_and_bad_toml(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)


def test_lights_left_out_have_no_lamp_and_profiles_pad_to_the_pairs(tmp_path):
    text = DEFAULT_CONFIG_PATH.read_text()
    text = re.sub(r"^point_\d+ = .*\n", "", text, flags=re.M)
    text = text.replace('profiles = ["", ""]', "profiles = []")
    path = tmp_path / "t.toml"
    path.write_text(text)
    c = load_config(path)
    assert not any(r.startswith("point_") for r in c.lights.pins) and "throw" in c.lights.pins
    assert c.dice.profiles == ("", "")


def test_every_key_is_documented_in_the_file_and_the_docs():
    shipped = DEFAULT_CONFIG_PATH.read_text()
    docs = (ROOT / "docs" / "configuration.md").read_text()
    for section, keys in config_module._SCHEMA.items():
        assert f"[{section}]" in shipped and f"[{section}]" in docs, section
        for key in keys:
            assert re.search(rf"^{key} = .*#", shipped, re.M), \
                f"{section}.{key} has no comment in table.toml"
            assert f"`{key}`" in docs, f"{section}.{key} is not in docs/configuration.md"


def test_judgement_settings_by_name_reach_the_tables_tracker(tmp_path):
    from tablectl.table import Table

    path = write(tmp_path, "pair_gap_square = true\nuntangle_margin = 1\npair_band_clear = false\n")
    path.write_text(path.read_text().replace('source = "picamera2"', 'source = "simulator"'))
    config = load_config(path)
    assert config.judgement == {"pair_gap_square": True, "untangle_margin": 1,
                                "pair_band_clear": False}
    table = Table.from_config(config, journal_path=tmp_path / "j.sqlite", lights=None,
                              readers=[])
    try:
        settings = table._tracker.settings
        assert settings.cocked.pair_gap_square is True
        assert settings.untangle_margin == 1.0 and settings.cocked.pair_band_clear is None
        assert settings.wall == type(settings.wall)()  # what was not named keeps its default
    finally:
        table.close()


@pytest.mark.parametrize("extra, hint", [
    ("pair_gap_sqare = true", "unknown setting 'pair_gap_sqare'"),
    ("pair_gap_square = 1", "pair_gap_square = 1 has the wrong type; write true or false"),
    ('untangle_margin = "0.3"', "untangle_margin = '0.3' has the wrong type; write a number"),
    ("pair_top_size = [0.8, 1.1]", "unknown setting 'pair_top_size'"),  # no single value
])
def test_a_wrong_judgement_setting_stops_the_start_and_says_what_to_write(tmp_path, extra,
                                                                          hint):
    path = write(tmp_path, extra + "\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and "[judgement]" in str(err.value)
    assert hint in str(err.value)
