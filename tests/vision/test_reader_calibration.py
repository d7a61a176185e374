"""The reliability table and the thresholds fitted without the dice they are scored on
(tools/reader_calibration.py), on constructed odds and on the bench's own readings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "bench"))

import read_accuracy  # noqa: E402
import reader_calibration as rc  # noqa: E402


def test_a_reliability_table_bins_the_dice_by_confidence_and_counts_the_share_right():
    # 10 dice at 0.55 of which 4 right, 20 at 0.92 of which 19 right, 5 at 0.995 all right
    conf = np.array([0.55] * 10 + [0.92] * 20 + [0.995] * 5)
    right = np.array([1] * 4 + [0] * 6 + [1] * 19 + [0] + [1] * 5, bool)
    rows = rc.reliability(conf, right)
    assert [(r["lo"], r["dice"]) for r in rows] == [(0.5, 10), (0.9, 20), (0.99, 5)]
    assert [r["right"] for r in rows] == pytest.approx([0.4, 0.95, 1.0])
    assert [r["confidence"] for r in rows] == pytest.approx([0.55, 0.92, 0.995])
    # the error: each bin's gap weighted by its share of the dice
    assert rc.calibration_error(conf, right) == pytest.approx(
        (10 * 0.15 + 20 * 0.03 + 5 * 0.005) / 35)


def test_a_confidence_that_is_the_share_right_has_no_calibration_error():
    conf = np.array([0.75] * 4 + [0.96] * 25)
    right = np.array([1, 1, 1, 0] + [1] * 24 + [0], bool)
    assert rc.calibration_error(conf, right) == pytest.approx(0.0)
    assert rc.calibration_error(np.array([]), np.array([], bool)) == 0.0


def test_the_fitted_threshold_counts_misreads_against_every_die_of_the_fit():
    conf = np.array([0.99, 0.98, 0.95, 0.9])
    wrong = np.array([0, 1, 0, 1], bool)
    # of these 4 dice alone, no misread may pass within 10%: only the surest
    assert rc.least_confidence(conf, wrong, 0.1) == 0.99
    # of 10 dice (6 given no face), one may: down to 0.95
    assert rc.least_confidence(conf, wrong, 0.1, total=10) == 0.95
    assert rc.least_confidence(np.array([0.9]), np.array([True]), 0.0) == 1.0


def _row(value, outcome, best, conf, cocked=False, kind="k/1"):
    return {"kind": kind, "photo": "p.jpg", "value": value, "outcome": outcome,
            "best_face": best, "confidence": conf, "cocked": cocked}


def test_a_raised_threshold_turns_the_less_sure_readings_into_abstentions():
    r = rc.Readings([_row(3, "correct", 3, 0.99), _row(3, "correct", 3, 0.85),
                     _row(4, "misread", 6, 0.93), _row(2, "misread", 1, 0.999),
                     _row(5, "abstained", 5, 0.6), _row(5, "abstained", 2, 0.9, cocked=True),
                     _row(1, "missed", None, None)])
    assert r.at(0.0) == {"dice": 7, "read": 2, "misread": 2, "abstained": 2, "missed": 1}
    assert r.at(0.95) == {"dice": 7, "read": 1, "misread": 1, "abstained": 4, "missed": 1}
    # the cocked die and the missed one have no face in the table
    assert sum(b["dice"] for b in r.table()) == 5
    # within 1/7 of the dice one misread may pass: the 0.999 one, not the 0.93 as well
    assert r.fitted(1 / 7) == 0.99
    assert r.fitted(2 / 7) == 0.85


def test_a_fit_leaves_out_the_kinds_it_is_told_to(tmp_path, capsys):
    fit = tmp_path / "fit.json"
    fit.write_text(json.dumps({"dice": [_row(1, "correct", 1, 0.9, kind="a"),
                                        _row(2, "misread", 3, 0.99, kind="b")]}))
    scored = tmp_path / "scored.json"
    scored.write_text(json.dumps({"dice": [_row(1, "correct", 1, 0.95, kind="b")]}))
    rc.main(["--fit", str(fit), "--fit-but", "b", "--share", "0", "--json", str(scored)])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["fit"]["dice"] == 1 and out["fit"]["threshold"] == 0.9
    assert out["scored"]["fitted"]["read"] == 1


def test_the_bench_writes_one_reading_per_die_that_adds_up_to_its_figures(photos_dir, tmp_path,
                                                                           capsys):
    path = tmp_path / "readings.json"
    read_accuracy.main(["--leave-out", "nell-byler/1", "--part", "held_out", "--json",
                        "--repeat", "1", "--readings", str(path)])
    got = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["nell-byler/1"]
    rows = json.loads(path.read_text())["dice"]
    assert len(rows) == got["dice"]
    for what in ("correct", "misread", "abstained", "missed"):
        assert sum(r["outcome"] == what for r in rows) == got[what]
    r = rc.Readings(rows)
    assert r.at(0.0)["read"] == got["correct"] and r.at(0.0)["misread"] == got["misread"]
    for row in rows:
        if row["outcome"] in ("correct", "misread"):
            assert (row["best_face"] == row["value"]) == (row["outcome"] == "correct")
