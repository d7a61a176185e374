"""``tablectl odds [--json]``: DESIGN.md's JSON shape and the readable tables."""

from __future__ import annotations

import json
import subprocess
import sys

from tablectl.cli import main


def test_odds_json_shape(capsys):
    assert main(["odds", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"table1", "table2", "one_roll", "dice_win", "shooter_disadvantage"}
    assert [r["total"] for r in report["table1"]] == list(range(2, 13))
    for row in report["table1"]:
        assert set(row) == {"total", "ways", "one_roll_against", "before_seven_against"}
    seven = next(r for r in report["table1"] if r["total"] == 7)
    assert seven["before_seven_against"] is None
    assert [r["number"] for r in report["table2"]] == [4, 6, 8, 10]
    for row in report["table2"]:
        assert set(row) == {"number", "ways_hard", "ways_easy", "ways_seven", "losing_ways",
                            "against"}
    assert report["one_roll"] == {"specific_pair": "35-1", "specific_combination": "17-1",
                                  "any_craps": "8-1"}
    assert report["dice_win"] == "244/495"
    assert report["shooter_disadvantage"] == "7/495"


def test_odds_text_runs_as_a_command(repo_root):
    done = subprocess.run(
        [sys.executable, "-m", "tablectl.cli", "odds"],
        capture_output=True, text=True, cwd=repo_root, check=True,
    )
    text = done.stdout
    assert "Table 1 (R-Q1)" in text and "Table 2 (R-Q2)" in text
    assert "244/495" in text and "7/495" in text
    # the row for 4 in table 1: 3 ways, 11-1 in one throw, 2-1 before a 7
    assert any(line.split() == ["4", "3", "11-1", "2-1"] for line in text.splitlines())
    # R-Q1: 12 before 4 is 3-1 in the before-matrix (row 12, column 4)
    matrix = text.split("column total (R-Q1)")[1].split("Table 2")[0].splitlines()
    header = matrix[1].split()
    row12 = next(line.split() for line in matrix if line.split()[:1] == ["12"])
    assert row12[header.index("4")] == "3-1"
