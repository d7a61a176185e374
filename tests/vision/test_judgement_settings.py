"""The judgement's settings by name (table.toml's [judgement], the benches' --set)."""

from __future__ import annotations

import pytest

from vision.judgement_settings import SettingError, from_text, settable, tracker_settings
from vision.tracker import TrackerSettings


def test_no_overrides_are_the_defaults_and_each_part_gets_its_own():
    assert tracker_settings() == TrackerSettings()
    s = tracker_settings({"untangle_margin": 0.4, "pair_gap_square": True, "restitution": 0.5})
    assert s.untangle_margin == 0.4 and s.cocked.pair_gap_square and s.wall.restitution == 0.5
    assert s.cocked.pair_lean == TrackerSettings().cocked.pair_lean


def test_every_single_value_field_is_reachable_and_the_parts_are_not():
    known = settable()
    assert {"cocked", "wall"}.isdisjoint(known)
    assert known["scale"] == ("", "int|None") and known["pair_band_clear"][1] == "float|None"
    assert known["geometric_cocked"] == ("cocked", "bool")


@pytest.mark.parametrize("name, text, value", [
    ("pair_gap_square", "on", True), ("pair_gap_square", "0", False),
    ("scale", "2", 2), ("scale", "none", None), ("pair_band_clear", "off", None),
    ("pair_band_clear", "0", 0.0), ("untangle_margin", "0.4", 0.4),
])
def test_text_as_the_field_reads_it(name, text, value):
    assert from_text(name, text) == value and type(from_text(name, text)) is type(value)


@pytest.mark.parametrize("name, value", [
    ("scale", 1.5), ("pair_gap_square", 1), ("untangle_margin", True), ("nope", 1),
])
def test_a_wrong_kind_or_name_is_refused(name, value):
    with pytest.raises(SettingError, match=name):
        tracker_settings({name: value})


def test_an_optional_setting_turned_off_by_text_reaches_its_field():
    # a bench's --set NAME=false: from_text gives None, which the field takes as off
    s = tracker_settings({"wall_cube_clear": from_text("wall_cube_clear", "false")})
    assert s.cocked.wall_cube_clear is None
    assert tracker_settings({"pair_band_clear": False}).cocked.pair_band_clear is None
