"""The lean model's dev tools: tools/train_lean.py cuts labelled crops from a world's throws and
scores a model as the table runs it (cv2.dnn); bench/lean.py and bench/cocked_rest.py ask a
candidate model. A tool that quietly fell back to the default world or the shipped model would
report a candidate's figures wrongly."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tests.support.scripts import load_script


@pytest.fixture(scope="module")
def train_lean(repo_root):
    return load_script(repo_root / "tools" / "train_lean.py", "train_lean")


def test_crops_come_from_the_world_asked(train_lean):
    # seed 500004: CASES[500004 % 9] is "cocked_die"; the physical world draws its own rails,
    # lamp and frame rate from the seed, so its crops are not the default world's
    default = train_lean.throw_crops(500_004, per_die=1)
    physical = train_lean.throw_crops(500_004, per_die=1, world="physical")
    for crops, labels, meta in (default, physical):
        assert crops and len(crops) == len(labels) == len(meta)
        assert all(c.shape == (48, 48, 3) for c in crops)
        assert sum(labels) >= 1 and 0 in labels  # a die leaning on the other, its flat partner
    assert not np.array_equal(np.stack(default[0]), np.stack(physical[0]))
    with pytest.raises(ValueError, match="unknown world"):
        train_lean.throw_crops(500_004, world="moon")


def test_eval_scores_the_model_at_the_trackers_bars(train_lean, tmp_path, capsys):
    crops, labels, meta = [], [], []
    for seed in (500_004, 500_006):  # CASES[seed % 9]: cocked_die, cocked_wall
        x, y, m = train_lean.throw_crops(seed, per_die=1, world="physical")
        crops += x
        labels += y
        meta += m
    data = tmp_path / "crops.npz"
    np.savez_compressed(data, x=np.stack(crops), y=np.array(labels), meta=np.array(meta))
    train_lean.evaluate(train_lean.ROOT / "vision" / "models" / "dice_lean.onnx", [data])
    out = capsys.readouterr().out
    on_wall = sum(1 for y, m in zip(labels, meta, strict=True) if y and m[4] == 1)
    on_die = sum(1 for y, m in zip(labels, meta, strict=True) if y and m[4] == 0)
    assert on_wall and on_die
    assert f"% of {on_wall}" in out.split("leaning on the wall:")[1].splitlines()[0]
    assert f"% of {on_die}" in out.split("leaning on the die:")[1].splitlines()[0]


def test_cocked_rest_refuses_a_lean_model_that_is_not_there(repo_root, tmp_path):
    done = subprocess.run(
        [sys.executable, str(repo_root / "bench" / "cocked_rest.py"), "--lean",
         str(tmp_path / "none.onnx"), "judge", str(tmp_path / "none.pkl")],
        capture_output=True, text=True, cwd=repo_root, timeout=120,
    )
    assert done.returncode != 0
    assert "none.onnx" in done.stderr and "not found" in done.stderr
