"""tools/reader_stages.py: find stage by stage, the same readings as find, and the stage blamed
for a die lost under a change."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

from reader_stages import STAGES, blame, find_by_stage  # noqa: E402

from vision.dice import DiceReader  # noqa: E402

STILLS = ROOT / "fixtures" / "stills"


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@pytest.mark.parametrize("grey_look", [False, True])
@pytest.mark.parametrize("quality", [None, 40])
def test_the_last_stage_is_find(reader, quality, grey_look):
    """The readings after the last stage are find's, as photographed and through JPEG q40, with
    the grey look off and on (a find that changed its stages would leave the tool blaming
    stages it no longer has)."""
    from dataclasses import replace

    reader = DiceReader()
    reader.tuning = replace(reader.tuning, grey_look=grey_look)
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    if quality is not None:
        frame = cv2.imdecode(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                             cv2.IMREAD_COLOR)
    staged = find_by_stage(reader, frame)
    assert list(staged) == list(STAGES)
    found = reader.find(frame)
    assert found, "the fixture shows dice"
    assert [(d.value, d.center, d.confidence) for d in staged["too_poor"]] == \
        [(d.value, d.center, d.confidence) for d in found]
    assert len(staged["detect"]) >= len(found)


def test_blame():
    """Misread: the stage that gave the wrong value; read right at some stage, then lost: the
    stage that lost it; never read right: the first stage whose outcome differs from the
    photo's."""
    photo = [("found", None), ("abstained", None), ("abstained", None), ("abstained", None),
             ("correct", None), ("correct", None), ("correct", None), ("correct", None),
             ("correct", None)]
    assert len(photo) == len(STAGES)
    vetoed = photo[:7] + [("abstained", None), ("abstained", None)]
    assert blame(photo, vetoed) == "pip_vote"
    never = photo[:4] + [("abstained", None)] * 5
    assert blame(photo, never) == "second_look"
    misread = [("found", None)] + [("misread", None)] * 8
    assert blame([("found", None)] + [("correct", None)] * 8, misread) == "classify"
    late = photo[:4] + [("misread", None)] * 5
    assert blame(photo, late) == "second_look"
    assert blame(photo, photo[:7] + [("misread", None)] * 2) == "pip_vote"
