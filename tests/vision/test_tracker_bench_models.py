"""bench/tracker.py --models DIR scores a candidate's reader, and refuses a folder it cannot load
(a bench that quietly fell back to no reader would report a candidate's figures wrongly)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys


def _bench(repo_root, *args):
    return subprocess.run(
        [sys.executable, str(repo_root / "bench" / "tracker.py"), *args],
        capture_output=True, text=True, cwd=repo_root, timeout=300,
    )


def test_models_without_a_card_is_refused(repo_root, tmp_path):
    done = _bench(repo_root, "--models", str(tmp_path), "--throws", "1", "--hd-throws", "0")
    assert done.returncode == 2
    assert "no dice_reader.json there" in done.stderr


def test_models_with_a_net_missing_stops_instead_of_scoring_without_values(repo_root, tmp_path):
    models = tmp_path / "candidate"
    shutil.copytree(repo_root / "vision" / "models", models)
    (models / "dice_det.onnx").unlink()
    done = _bench(repo_root, "--models", str(models), "--throws", "1", "--hd-throws", "0")
    assert done.returncode != 0
    assert "dice_det.onnx missing" in done.stderr
    assert "cocked throws paid" not in done.stdout


def test_models_reads_with_the_given_folder(repo_root, tmp_path):
    models = tmp_path / "candidate"
    shutil.copytree(repo_root / "vision" / "models", models)
    done = _bench(repo_root, "--models", str(models), "--world", "physical", "--seed", "80000",
                  "--throws", "1", "--hd-throws", "0")
    assert done.returncode == 0, done.stderr
    read = re.search(r"value\s+\d+\.\d+% \((\d+)/\d+\)", done.stdout)
    assert read and int(read.group(1)) > 0, done.stdout  # without a reader no face is read
    assert "no dice reader" not in done.stdout
