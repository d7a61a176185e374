"""A journal written before the engine was split into its rule sections still verifies, opens
and replays to the state recorded when it was written.

``fixtures/journals/evening-v1.db`` (and its ``-head``) is examples/evening.jsonl played with
``tablectl play --journal``, then 16 more commands committed with ``snapshot_every=1``: side
bets (a proposition within 3 throws, a come bet, a hardway), the operator's overrides of a
throw with other dice and with a void (one after a warn), a cocked die ruled (R-I2), and a
throw last, so the newest snapshot carries the undo record an override needs.
``evening-v1.state.json`` holds that game's ``snapshot()``, ``state()`` and the journal's seq
as that code produced them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tablectl.game import Game, TableRules
from tablectl.journal import Journal, canonical, read_rows, verify

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "journals"


@pytest.fixture
def old_journal(tmp_path: Path) -> Path:
    """A copy of the fixture (opening a journal may write to it)."""
    for name in ("evening-v1.db", "evening-v1.db-head"):
        shutil.copy(FIXTURE / name, tmp_path / name)
    return tmp_path / "evening-v1.db"


@pytest.fixture
def recorded() -> dict:
    return json.loads((FIXTURE / "evening-v1.state.json").read_text())


def test_old_journal_verifies_with_replay(old_journal):
    report = verify(old_journal)
    assert report.ok, report.summary()
    assert report.snapshots == 3


def test_old_journal_opens_to_the_recorded_state(old_journal, recorded):
    journal = Journal.open(old_journal)
    try:
        assert journal.seq == recorded["seq"]
        assert journal.game.state() == recorded["state"]
        assert canonical(journal.game.snapshot()) == canonical(recorded["snapshot"])
    finally:
        journal.close()


def test_old_journal_replays_to_the_recorded_state(old_journal, recorded):
    rows = list(read_rows(old_journal))
    game = Game(TableRules.from_mapping(recorded["snapshot"]["rules"]))
    for row in rows:
        assert game.apply(row.command) == row.events, f"row {row.seq}"
    assert game.state() == recorded["state"]
    assert canonical(game.snapshot()) == canonical(recorded["snapshot"])


def test_old_snapshot_keeps_the_last_throw_overridable(old_journal, recorded):
    # the newest snapshot was taken right after a throw: rebuilt from it, the game still takes
    # the operator's override of that throw (R-I2), as a game that played every row would
    assert recorded["snapshot"]["undo"] is not None
    override = {"command": "operator_ruling", "by": "operator", "why": "misread", "dice": [4, 3]}
    journal = Journal.open(old_journal)
    try:
        events = journal.apply(override)
        reopened = journal.game.snapshot()
    finally:
        journal.close()
    replayed = Game(TableRules.from_mapping(recorded["snapshot"]["rules"]))
    for row in list(read_rows(old_journal))[:-1]:
        replayed.apply(row.command)
    assert events == replayed.apply(override)
    assert events[0]["previous"] == recorded["snapshot"]["undo"]["dice"] == [3, 3]
    assert events[1:] == [{"event": "come_out", "shooter": "dee", "dice": [4, 3], "total": 7},
                          {"event": "natural", "shooter": "dee", "total": 7, "rule": "R-B2"}]
    assert canonical(reopened) == canonical(replayed.snapshot())
