"""Fixtures of the running table's tests: a real SQLite journal in a temporary folder."""

from __future__ import annotations

import pytest

from tablectl.journal import Journal
from tablectl.table import Table


class RecordingLights:
    """Lamps that remember what they were told (the real Lights are tested with MockFactory)."""

    def __init__(self, on_show=None):
        self.shown: list[dict] = []
        self.closed = False
        self.on_show = on_show

    def show(self, states):
        if self.on_show is not None:
            self.on_show(states)
        self.shown.append(dict(states))

    def close(self):
        self.closed = True


@pytest.fixture
def journal_path(tmp_path):
    return tmp_path / "evening.sqlite"


@pytest.fixture
def table(journal_path):
    t = Table(Journal.open(journal_path))
    yield t
    t.close()


