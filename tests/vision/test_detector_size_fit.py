"""tools/detector_size_fit.py: the map from a candidate detector's log size onto the shipped
one's, fitted on the tune photos."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.dice import DiceReader

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import detector_size_fit as fit_tool  # noqa: E402

PHOTOS = fit_tool.PHOTOS


def test_the_fit_recovers_a_known_line_and_scale():
    rng = np.random.default_rng(3)
    z = rng.uniform(1.2, 2.4, 400)
    line = [("s", 0.2 + 0.9 * x + rng.normal(0, 0.01), x, 0.0, 0.0) for x in z]
    got = fit_tool.fit(line)
    assert got["size_log_line"] == pytest.approx([0.2, 0.9], abs=0.02)
    assert got["mean_abs_log_error"]["line"] < got["mean_abs_log_error"]["identity"]
    shifted = [("s", x + math.log(0.9), x, 0.01, -0.02) for x in z]
    got = fit_tool.fit(shifted)
    assert got["size_scale"] == pytest.approx(0.9, rel=1e-9)
    assert (got["dx_edges"], got["dy_edges"]) == pytest.approx((0.01, -0.02))


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="the labelled dice photos are not here")
def test_the_shipped_detector_against_itself_is_the_identity():
    """Its finds paired with its own on tune photos: one size, one centre, for every die."""
    reader = DiceReader()
    data = fit_tool.pairs(reader, DiceReader(), limit=3)
    assert len(data) >= 6 and {d[0] for d in data} == set(fit_tool.SETS)
    for _, zs, zc, dx, dy in data:
        assert zs == pytest.approx(zc, abs=1e-9) and dx == dy == 0
    assert fit_tool.fit(data)["size_scale"] == pytest.approx(1.0)
