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


@pytest.mark.parametrize("quality", [None, 40])
def test_the_last_stage_is_find(reader, quality):
    """The readings after the last stage are find's, as photographed and through JPEG q40 (a
    find that changed its stages would leave the tool blaming stages it no longer has)."""
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
    """Read right at some stage, then lost: the stage that lost it; never read right: the
    first stage whose outcome differs from the photo's."""
    photo = [("found", None), ("abstained", None), ("abstained", None), ("abstained", None),
             ("correct", None), ("correct", None), ("correct", None), ("correct", None)]
    vetoed = photo[:6] + [("abstained", None), ("abstained", None)]
    assert blame(photo, vetoed) == "pip_vote"
    never = photo[:4] + [("abstained", None)] * 4
    assert blame(photo, never) == "second_look"
    misread = [("found", None)] + [("misread", None)] * 7
    assert blame([("found", None)] + [("correct", None)] * 7, misread) == "classify"
