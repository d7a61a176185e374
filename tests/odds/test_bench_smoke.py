"""bench/rules.py runs end to end on a short journal (speed is judged by the bench, not here)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest


def test_rules_bench_runs_on_2000_throws(repo_root):
    game = pytest.importorskip("tablectl.game")
    if not hasattr(game, "Game"):
        pytest.skip("the game engine (tablectl.game.Game) is not built yet")
    done = subprocess.run(
        [sys.executable, str(repo_root / "bench" / "rules.py"), "--throws", "2000", "--repeat", "1"],
        capture_output=True, text=True, cwd=repo_root, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "2,000 throws" in out
    assert "throws/s" in out and "replay (rebuild state)" in out
    if importlib.util.find_spec("crapssim") is not None:
        assert "ratio tablectl/crapssim" in out
    else:
        assert "comparison skipped" in out
