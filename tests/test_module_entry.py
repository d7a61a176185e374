"""`python -m tablectl` runs the same command line as the `tablectl` script."""

import json
import subprocess
import sys


def test_python_dash_m_tablectl_runs_the_cli():
    out = subprocess.run([sys.executable, "-m", "tablectl", "odds", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "table1" in json.loads(out.stdout)
    bad = subprocess.run([sys.executable, "-m", "tablectl", "no-such-command"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no-such-command" in bad.stderr
