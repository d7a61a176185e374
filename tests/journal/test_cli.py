"""``tablectl journal verify|export|audit``, ``tablectl recall`` and ``tablectl play --journal``,
run as a user runs them (child processes), plus recall and audit from Python."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys

from tablectl.game import Game
from tablectl.journal import Journal, canonical, read_rows, verify
from tablectl.recall import DECISIONS, audit, recall
from tests.journal.helpers import OPENING, ROOT, run_tablectl, script_text
from tests.support.journal_sessions import OPERATOR, generate_session

POINT_WITH_RULING = [  # ann shoots 10; point 6; a cocked die ruled by the operator; seven-out
    {"command": "center_bet", "amount": 10},
    {"command": "fade", "player": "bob", "amount": 6},
    {"command": "fade", "player": "cy", "amount": 4},
    {"command": "throw", "dice": [4, 2]},
    {"command": "side_bet", "id": "h8", "kind": "hardway", "number": 8, "for": "cy",
     "against": "bob", "stakes": {"cy": 1, "bob": 10}},
    {"command": "throw", "dice": [5, 3]},
    {"command": "await_ruling", "rule": "R-I2", "reason": "a die is cocked"},
    {"command": "operator_ruling", "by": "olga", "why": "the 4 is on top", "dice": [4, 3]},
]


def _journal_with(path, commands):
    with Journal.open(path) as j:
        for command in commands:
            j.apply(command)
        return j.game.state()


def _state_line(stdout: str) -> dict:
    last = json.loads(stdout.strip().splitlines()[-1])
    return last["state"]


# --------------------------------------------------------------------------- verify

def test_verify_exit_status_says_whether_the_journal_is_sound(journal_path, tmp_path):
    _journal_with(journal_path, OPENING)
    done = run_tablectl("journal", "verify", str(journal_path))
    assert done.returncode == 0, done.stderr
    assert "sound: 7 commands" in done.stdout
    as_json = json.loads(run_tablectl("journal", "verify", "--journal", str(journal_path),
                                      "--json").stdout)
    assert as_json["ok"] and as_json["rows"] == 7 and as_json["replayed"]

    with sqlite3.connect(journal_path) as db:
        db.execute("UPDATE journal SET events = replace(events, '20', '2000') WHERE seq = 7")
    damaged = run_tablectl("journal", "verify", str(journal_path))
    assert damaged.returncode == 1
    assert "DAMAGED" in damaged.stdout and "row 7" in damaged.stdout
    assert "journal export" in damaged.stderr

    text = tmp_path / "x.txt"
    text.write_text("not a journal")
    assert run_tablectl("journal", "verify", str(text)).returncode == 2
    missing = run_tablectl("journal", "verify")
    assert missing.returncode == 2 and "give the journal file" in missing.stderr
    # the message names the subcommand it is about, and how to give the file
    assert "tablectl journal verify FILE" in missing.stderr, missing.stderr
    missing = run_tablectl("recall")
    assert missing.returncode == 2 and "tablectl recall FILE" in missing.stderr, missing.stderr


# --------------------------------------------------------------------------- export

def test_export_replays_with_play_to_the_same_state(journal_path, tmp_path):
    commands = generate_session(11, 80)
    state = _journal_with(journal_path, commands)
    out = tmp_path / "evening.jsonl"
    done = run_tablectl("journal", "export", str(journal_path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert len(out.read_text().splitlines()) == len(commands)
    played = run_tablectl("play", str(out))
    assert played.returncode == 0, played.stderr
    assert _state_line(played.stdout) == state
    assert "refused" not in played.stdout


def test_export_of_a_damaged_journal_recovers_the_sound_part(journal_path, tmp_path):
    _journal_with(journal_path, OPENING + POINT_WITH_RULING)
    with sqlite3.connect(journal_path) as db:
        db.execute("UPDATE journal SET command = replace(command, '[5,3]', '[4,4]') "
                   "WHERE seq = 13")
    out = tmp_path / "recovered.jsonl"
    done = run_tablectl("journal", "export", str(journal_path), "-o", str(out))
    assert done.returncode == 1
    assert "up to row 12" in done.stderr
    recovered = [json.loads(line) for line in out.read_text().splitlines()]
    assert recovered == [json.loads(canonical(c)) for c in (OPENING + POINT_WITH_RULING)[:12]]
    new = tmp_path / "new.db"
    played = run_tablectl("play", str(out), "--journal", str(new))
    assert played.returncode == 0, played.stderr
    clean = Game()
    for command in recovered:
        clean.apply(command)
    assert _state_line(played.stdout) == clean.state()
    assert verify(new).ok


# --------------------------------------------------------------------------- play --journal

def test_play_with_a_journal_resumes_what_the_file_holds(journal_path, tmp_path):
    commands = generate_session(12, 40)
    half = len(commands) // 2
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text(script_text(commands[:half]))
    second.write_text(script_text(commands[half:]))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = run_tablectl("play", str(first), "--journal", str(journal_path))
    assert done.returncode == 0, done.stderr
    at_half = _state_line(done.stdout)
    resumed = run_tablectl("play", str(empty), "--journal", str(journal_path))
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip().splitlines() == [json.dumps({"state": at_half})]
    done = run_tablectl("play", str(second), "--journal", str(journal_path))
    assert done.returncode == 0, done.stderr
    whole = tmp_path / "whole.jsonl"
    whole.write_text(script_text(commands))
    assert _state_line(done.stdout) == _state_line(run_tablectl("play", str(whole)).stdout)
    assert [r.seq for r in read_rows(journal_path)] == list(range(1, len(commands) + 1))


def test_play_prints_a_command_only_after_its_commit(journal_path):
    """Feed `play - --journal` one command at a time: when its output line arrives, its row is
    already in the journal (read from another connection)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tablectl.cli", "play", "-", "--journal", str(journal_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        game = Game()
        for n, command in enumerate(OPENING + POINT_WITH_RULING, start=1):
            events = game.apply(json.loads(json.dumps(command)))
            child.stdin.write(json.dumps(command) + "\n")
            child.stdin.flush()
            first = json.loads(child.stdout.readline())
            assert first == events[0]
            assert [r.seq for r in read_rows(journal_path)][-1] == n
            for _ in events[1:]:
                child.stdout.readline()
        child.stdin.close()
        assert "state" in json.loads(child.stdout.readline())
    finally:
        child.stdin.close() if not child.stdin.closed else None
        child.wait(timeout=30)
    assert child.returncode == 0


def test_play_refuses_a_damaged_journal_without_touching_it(journal_path, tmp_path):
    _journal_with(journal_path, OPENING)
    with sqlite3.connect(journal_path) as db:
        db.execute("DELETE FROM journal WHERE seq = 3")
    before = journal_path.read_bytes()
    script = tmp_path / "more.jsonl"
    script.write_text(script_text([{"command": "throw", "dice": [2, 2]}]))
    done = run_tablectl("play", str(script), "--journal", str(journal_path))
    assert done.returncode == 2
    assert "damaged" in done.stderr and "tablectl journal verify" in done.stderr
    assert journal_path.read_bytes() == before


# --------------------------------------------------------------------------- recall

def test_recall_of_a_scripted_evening(journal_path):
    _journal_with(journal_path, OPENING + POINT_WITH_RULING)
    natural, seven_out = recall(journal_path)
    assert (natural["decision"], natural["shooter"], natural["dice"]) == ("natural", "ann", [3, 4])
    assert natural["settled"][0]["amounts"] == {"ann": 20, "bob": -20}
    assert seven_out["decision"] == "seven_out" and seven_out["point"] == 6
    assert [t["dice"] for t in seven_out["throws"]] == [[4, 2], [5, 3], [4, 3]]
    assert seven_out["throws"][-1]["ruled_by"] == "olga"
    assert [r["command"] for r in seven_out["rulings"]] == ["await_ruling", "operator_ruling"]
    assert seven_out["rulings"][1]["why"] == "the 4 is on top"
    settled = {(s["event"], s.get("player")): s for s in seven_out["settled"]}
    assert settled[("center_settled", "ann")]["amounts"] == {"ann": -10, "bob": 6, "cy": 4}
    # the hard 8 lost to the easy 8 (R-S5): cy's 1 unit goes to bob, on that throw (row 13)
    assert settled[("side_bet_lost", "cy")]["units"] == 1
    assert settled[("side_bet_won", "bob")]["units"] == 1
    assert settled[("side_bet_won", "bob")]["seq"] == 13


def test_recall_gives_the_last_ten_decisions_from_python_and_the_cli(journal_path):
    commands = generate_session(21, 120)
    with Journal.open(journal_path) as j:
        for command in commands:
            j.apply(command)
        entries = j.recall()
    rows = list(read_rows(journal_path))
    decided = [(r.seq, e["event"]) for r in rows for e in r.events if e["event"] in DECISIONS]
    assert len(decided) > 10
    assert [(e["to_seq"], e["decision"]) for e in entries] == decided[-10:]
    for before, after in zip(entries, entries[1:], strict=False):
        assert after["from_seq"] == before["to_seq"] + 1  # decisions cover the rows in between
    by_seq = {r.seq: r for r in rows}
    for entry in entries:
        block = [by_seq[s] for s in range(entry["from_seq"], entry["to_seq"] + 1)]
        names = ("center_settled", "center_called_off", "side_bet_won", "side_bet_lost",
                 "side_bet_returned")
        assert [s for s in entry["settled"] if s["event"] in names] == [
            dict(e, seq=r.seq) for r in block for e in r.events if e["event"] in names]
        assert entry["throws"][-1]["result"] == entry["decision"]
        for s in entry["settled"]:
            if s["event"] == "center_settled":
                assert sum(s["amounts"].values()) == 0  # R-C7: the center moves money only
    settled_names = {s["event"] for e in entries for s in e["settled"]}
    assert {"center_settled", "side_bet_won", "side_bet_lost"} <= settled_names
    assert recall(journal_path) == entries
    done = run_tablectl("recall", str(journal_path), "--json")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == entries
    text = run_tablectl("recall", "--journal", str(journal_path), "-n", "3")
    assert text.returncode == 0 and text.stdout.count("throws:") == 3


# --------------------------------------------------------------------------- audit

def test_audit_lists_every_override_and_sanction_with_who_when_why(journal_path):
    commands = generate_session(4, 200)
    with Journal.open(journal_path) as j:
        for command in commands:
            j.apply(command)
        entries = j.audit()
    acts = [c for c in commands if c["command"] in ("operator_ruling", "substitute", "bar")]
    warns = [c for c in commands if c["command"] == "warn"]
    assert acts and warns
    assert len(entries) == len(acts) + len(warns)
    assert audit(journal_path) == entries
    for entry in entries:
        assert entry["who"] == OPERATOR and entry["why"]
        assert entry["time"].endswith("Z")
    # rulings on throws waiting for the operator; the sessions make no override
    assert {e["kind"] for e in entries} == {"ruling", "sanction"}
    done = run_tablectl("journal", "audit", str(journal_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(entries)
    assert all(f"by {OPERATOR}" in line and "why:" in line for line in lines)
    as_json = run_tablectl("journal", "audit", "--journal", str(journal_path), "--json")
    assert [json.loads(line) for line in as_json.stdout.splitlines()] == entries


def _play_in_process(monkeypatch, capsys, args, stdin=None):
    from tablectl.cli import main
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(["play", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_play_of_a_file_in_batches_prints_and_commits_what_one_by_one_does(
        tmp_path, monkeypatch, capsys):
    """A script file is committed a batch at a time (3 here, across several batches), a stdin
    script one command at a time: the same output, refusals with their lines, the same stop at
    a malformed command with the same message, and the same rows committed before it."""
    from tablectl.commands import play
    monkeypatch.setattr(play, "BATCH", 3)
    commands = generate_session(14, 12)
    lines = [json.dumps(c) for c in commands]
    lines.insert(4, json.dumps({"command": "fade", "player": "nobody", "amount": 5}))
    lines.insert(9, "# a comment")
    for stop in (None, {"command": "throw", "dice": [9, 9]}):
        text = "\n".join(lines + ([json.dumps(stop), lines[-1]] if stop else [])) + "\n"
        script = tmp_path / "script.jsonl"
        script.write_text(text)
        by_file, by_stdin = tmp_path / f"file{stop is None}.db", tmp_path / f"in{stop is None}.db"
        batched = _play_in_process(monkeypatch, capsys, [str(script), "--journal", str(by_file)])
        single = _play_in_process(monkeypatch, capsys, ["-", "--journal", str(by_stdin)],
                                  stdin=text)
        assert batched[0] == single[0] == (2 if stop else 0)
        assert batched[1] == single[1].replace("<stdin>", str(script))
        assert batched[2] == single[2].replace("<stdin>", str(script))
        assert '"refused"' in batched[1]
        rows = [r.command for r in read_rows(by_file)]
        assert rows == [r.command for r in read_rows(by_stdin)]
        assert len(rows) == len(commands)  # every command but the refused one (and the stop)
        assert verify(by_file).ok
