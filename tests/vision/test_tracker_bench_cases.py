"""bench/tracker.py --cases throws only the cases asked for (enough cocked throws to see one paid
in a hundred), and refuses a case it does not know rather than scoring another mix."""

from __future__ import annotations

import re
import subprocess
import sys


def _bench(repo_root, *args):
    return subprocess.run(
        [sys.executable, str(repo_root / "bench" / "tracker.py"), *args],
        capture_output=True, text=True, cwd=repo_root, timeout=300,
    )


def test_an_unknown_case_is_refused(repo_root):
    done = _bench(repo_root, "--cases", "cocked_wal", "--throws", "1", "--hd-throws", "0")
    assert done.returncode == 2
    assert "unknown cocked_wal" in done.stderr and "cocked_wall" in done.stderr


def test_only_the_cases_asked_for_are_thrown(repo_root):
    done = _bench(repo_root, "--cases", "cocked_wall", "--world", "physical", "--seed", "80000",
                  "--throws", "2", "--hd-throws", "0", "--no-reader")
    assert done.returncode == 0, done.stderr
    assert "cases cocked_wall\n" in done.stdout
    # every throw has a cocked die: two throws, two cocked dice at rest to flag
    flagged = re.search(r"cocked\s+flagged\s+\d+\.\d+% \(\d+/(\d+)\)", done.stdout)
    assert flagged and int(flagged.group(1)) == 2, done.stdout
