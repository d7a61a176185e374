"""The wiring table, the config.txt fragment and docs/hardware.md agree with the code."""

from __future__ import annotations

import re

from tablectl.config import DEFAULT_PINS
from tablectl.lights import ROLES

from .conftest import ROOT

WIRING = (ROOT / "firmware_config" / "wiring.md").read_text()
FRAGMENT = (ROOT / "firmware_config" / "config.txt.fragment").read_text()
HARDWARE = (ROOT / "docs" / "hardware.md").read_text()
# BCM number -> header pin of the 40-pin header
HEADER = {3: 5, 5: 29, 6: 31, 12: 32, 13: 33, 17: 11, 19: 35, 21: 40, 22: 15, 23: 16, 24: 18,
          25: 22, 26: 37, 27: 13}


def test_wiring_table_lists_every_role_on_its_default_pin_and_header_pin():
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|", WIRING, re.M)
    assert {role for role, _, _ in rows} == set(ROLES)
    for role, bcm, header in rows:
        assert int(bcm) == DEFAULT_PINS[role], role
        assert HEADER[int(bcm)] == int(header), role


def test_fragment_holds_every_default_light_pin_low_from_boot():
    (line,) = re.findall(r"^gpio=([\d,]+)=op,dl$", FRAGMENT, re.M)
    assert sorted(int(p) for p in line.split(",")) == sorted(DEFAULT_PINS.values())
    assert "#dtoverlay=gpio-shutdown,gpio_pin=3" in FRAGMENT
    assert 3 not in DEFAULT_PINS.values()


def test_die_sizes_follow_from_the_strip_width():
    rows = re.findall(r"^\| (\d+)x\d+ \| ([\d.]+) m x [\d.]+ m \| (\d+)-(\d+) px \|", HARDWARE,
                      re.M)
    assert len(rows) == 4
    for width_px, strip_m, small, large in rows:
        per_mm = int(width_px) / (float(strip_m) * 1000)
        assert (round(16 * per_mm), round(19 * per_mm)) == (int(small), int(large))


def test_docs_point_inside_the_repository():
    for text in (WIRING, HARDWARE):
        assert "../shared" not in text


def test_the_shipped_files_name_only_documents_the_repository_holds():
    # table.toml is what an owner edits on the Pi: every document it cites must be there
    named = re.compile(r"[\w./-]+\.md\b")
    for path in sorted((ROOT / "firmware_config").iterdir()):
        for doc in named.findall(path.read_text()):
            doc = doc.split("/opt/tablectl/src/")[-1]  # where install.sh copies the checkout
            assert (ROOT / doc).is_file(), f"{path.name} names {doc}, which is not in the repository"


def test_the_calibration_steps_name_the_buttons_the_phone_shows():
    steps = HARDWARE.split("## Calibrating", 1)[1].split("\n## ", 1)[0]
    labels = re.findall(r"\*\*(.+?)\*\*", steps)
    pages = "".join((ROOT / "web" / "templates" / name).read_text()
                    for name in ("operator.html", "calibrate.html"))
    assert len(labels) >= 5
    for label in labels:
        assert f'_("{label}")' in pages, f"docs/hardware.md names a button {label!r} no page has"
