"""Fixtures of the dashboard's tests: a real Table on a temporary SQLite journal (no camera),
the app over it, a client, and a client logged in as the operator."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablectl.journal import Journal
from tablectl.table import Table
from web import create_app
from web.security import write_pin

PIN = "481516"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture
def state_dir(tmp_path) -> Path:
    d = tmp_path / "state"
    write_pin(d, PIN)
    return d


@pytest.fixture
def table(tmp_path):
    t = Table(Journal.open(tmp_path / "evening.sqlite"))
    yield t
    t.close()


@pytest.fixture
def app(table, state_dir):
    app = create_app(table, {"STATE_DIR": state_dir, "SSE_WAIT_SECONDS": 0.05})
    yield app
    app.extensions["tablectl.sessions"].close()


@pytest.fixture
def client(app):
    return app.test_client()


class Operator:
    """A test client logged in as the operator; ``post`` sends the CSRF token."""

    def __init__(self, client, token: str) -> None:
        self.client = client
        self.token = token

    def post(self, path: str, body: dict):
        return self.client.post(path, json=body, headers={"X-CSRF-Token": self.token})

    def command(self, body: dict):
        return self.post("/api/commands", body)


@pytest.fixture
def operator(app) -> Operator:
    client = app.test_client()
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200, r.data
    return Operator(client, r.json["csrf_token"])
