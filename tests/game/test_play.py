"""``tablectl play``: events as JSON lines, refusals, the final state, errors, --journal."""

import io
import json
import subprocess
import sys

import pytest

from tablectl.cli import main

SCRIPT = [
    {"command": "join", "player": "ann", "buy_in": 100},
    {"command": "join", "player": "bob", "buy_in": 100},
    {"command": "shooter", "player": "ann"},
    {"command": "center_bet", "amount": 20},
    {"command": "fade", "player": "bob", "amount": 25},
    {"command": "fade", "player": "bob", "amount": 20},
    {"command": "throw", "dice": [6, 5]},
]


def write(tmp_path, lines, name="s.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return str(path)


def play(capsys, *argv):
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, [json.loads(x) for x in out.splitlines()], err


def test_play_prints_events_refusals_and_state(tmp_path, capsys):
    code, lines, err = play(capsys, write(tmp_path, SCRIPT[:4] + ["", "# a comment"]
                                          + SCRIPT[4:]))
    assert code == 0 and err == ""
    assert [x.get("event") for x in lines[:4]] == ["joined", "joined", "shooter_set",
                                                   "center_bet_made"]
    assert lines[4] == {"refused": "faders may not fade more than the shooter's bet (the bet "
                                   "is 20, 0 faded, 20 open; fade at most that, or the shooter "
                                   "raises)", "rule": "R-C6", "line": 7}
    assert [x.get("event") for x in lines[5:-1]] == ["faded", "come_out", "natural",
                                                     "center_settled"]
    state = lines[-1]["state"]
    assert state["shooter"] == "ann" and state["point"] is None
    assert state["balances"] == {"ann": 120, "bob": 80} and state["escrow"] == {"ann": 0, "bob": 0}


def test_play_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(json.dumps(c) for c in SCRIPT)))
    code, lines, _ = play(capsys, "-")
    assert code == 0 and lines[-1]["state"]["balances"]["ann"] == 120


@pytest.mark.parametrize("bad, message", [
    ('{"command": "join", "player": "ann"', "malformed JSON"),
    ('{"command": "dance"}', "unknown command 'dance'"),
    ('{"command": "throw", "dice": [9, 9]}', "dice"),
])
def test_play_bad_line_exits_2_naming_the_line(tmp_path, capsys, bad, message):
    path = write(tmp_path, SCRIPT[:2] + [bad] + SCRIPT[2:])
    code, lines, err = play(capsys, path)
    assert code == 2 and f"{path}:3:" in err and message in err
    assert [x["event"] for x in lines] == ["joined", "joined"]  # what ran before is printed


def test_play_missing_script_exits_2(tmp_path, capsys):
    code, _, err = play(capsys, str(tmp_path / "nope.jsonl"))
    assert code == 2 and "cannot open script" in err


def test_play_rules_file(tmp_path, capsys):
    toml = tmp_path / "table.toml"
    toml.write_text("[rules]\nmin_players = 3\n")
    code, lines, _ = play(capsys, write(tmp_path, SCRIPT[:3] + [{"command": "throw",
                                                                 "dice": [3, 4]}]),
                          "--rules", str(toml))
    assert code == 0 and lines[-2]["rule"] == "R-P1"


def test_play_journal_resumes_and_empty_script_prints_state(tmp_path, capsys):
    pytest.importorskip("tablectl.journal")
    journal = str(tmp_path / "evening.db")
    code, lines, err = play(capsys, write(tmp_path, SCRIPT), "--journal", journal)
    assert code == 0, err
    first_state = lines[-1]["state"]
    code, lines, err = play(capsys, write(tmp_path, [], "empty.jsonl"), "--journal", journal)
    assert code == 0 and lines == [{"state": first_state}]
    code, lines, _ = play(capsys, write(tmp_path, [{"command": "throw", "dice": [2, 2]}],
                                        "more.jsonl"), "--journal", journal)
    assert [x.get("event") for x in lines[:-1]] == ["come_out", "point_set"]
    assert lines[-1]["state"]["point"] == 4


def test_play_as_a_real_command(tmp_path):
    path = write(tmp_path, SCRIPT)
    done = subprocess.run([sys.executable, "-m", "tablectl.cli", "play", path],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["state"]["balances"]["bob"] == 80


def test_play_journal_module_missing_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tablectl.journal", None)  # import now raises ImportError
    code, lines, err = play(capsys, write(tmp_path, SCRIPT), "--journal",
                            str(tmp_path / "j.db"))
    assert code == 2 and lines == [] and "tablectl.journal" in err


def test_play_damaged_journal_exits_2(tmp_path, capsys):
    pytest.importorskip("tablectl.journal")
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a journal" * 100)
    code, lines, err = play(capsys, write(tmp_path, SCRIPT), "--journal", str(bad))
    assert code == 2 and lines == [] and "journal" in err
