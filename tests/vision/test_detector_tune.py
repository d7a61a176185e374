"""tools/reader_tune.py: what it collects of the detector's finds and the classifier's reading
on the tune photos, from which it chooses the card's thresholds (heat among them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from vision.dice import DiceReader

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import reader_tune  # noqa: E402


@pytest.mark.skipif(not reader_tune.PHOTOS.is_dir(), reason="the labelled dice photos are not here")
def test_collect_pairs_the_finds_with_the_labelled_dice_of_the_tune_photos():
    """Each labelled die paired with at most one find, carrying the find's heat; the shipped
    reader reads nearly all of them right, so the pairing is of the right finds."""
    got = reader_tune.collect(DiceReader(), "tune")
    assert set(got) == set(reader_tune.SETS)
    for name, (matched, unmatched, n_labels) in got.items():
        assert 0.95 * n_labels <= len(matched) <= n_labels, name
        for true, face, confidence, cocked_share, background, heat in matched:
            assert 1 <= true <= 6 and 1 <= face <= 6
            assert 0 < confidence <= 1 and 0 <= cocked_share and 0 <= background <= 1
            assert 0 < heat <= 1
        right = sum(1 for true, face, *_ in matched if true == face)
        assert right >= 0.95 * len(matched), name
        assert all(0 <= bg <= 1 and 0 < heat <= 1 for bg, heat in unmatched)
