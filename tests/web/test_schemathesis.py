"""The API fuzzed against its own OpenAPI document (schemathesis 4, in-process over WSGI, on a
real Table): no 5xx for any generated request, every response as documented, and no change
without the operator's credentials (401 or 403, the journal untouched)."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from tablectl.journal import Journal
from tablectl.table import Table
from tests.support.tables import OPENING, play
from web import create_app
from web.security import COOKIE_NAME, write_pin

from .conftest import PIN

_DIR = Path(tempfile.mkdtemp(prefix="tablectl-fuzz-"))
TABLE = Table(Journal.open(_DIR / "evening.sqlite"))
play(TABLE, OPENING)
write_pin(_DIR / "state", PIN)
APP = create_app(TABLE, {"STATE_DIR": _DIR / "state"})
# the event stream never ends: it is tested in test_stream and the browser tests
SCHEMA = schemathesis.openapi.from_wsgi("/api/openapi.json", APP).exclude(path="/api/events")
FUZZ = settings(max_examples=25, deadline=None,
                suppress_health_check=list(HealthCheck))


def _close_the_table() -> None:
    TABLE.close()
    APP.extensions["tablectl.sessions"].close()
    shutil.rmtree(_DIR, ignore_errors=True)


# the schema is built at import (schemathesis parametrizes from it), so the table is made
# then too; it is closed when the session ends, whichever of these tests ran
atexit.register(_close_the_table)


def _excluded(case) -> list:
    # which fields a schema-valid odds query or command may combine depends on the kind, the
    # command and the table's point (a hardway on 5, a side bet whose stakes name other
    # players): those get 400, so "schema-valid is accepted" cannot hold there
    if case.path in ("/api/odds", "/api/commands"):
        return [schemathesis.checks.positive_data_acceptance]
    return []


def _operator() -> tuple[str, str]:
    client = APP.test_client()
    r = client.post("/api/login", json={"pin": PIN})
    assert r.status_code == 200
    return client.get_cookie(COOKIE_NAME).value, r.json["csrf_token"]


@SCHEMA.parametrize()
@FUZZ
def test_anyone(case):
    """Without credentials: as documented, no 5xx; a POST (but the login) changes nothing."""
    seq = TABLE.state()["seq"]
    response = case.call_and_validate(excluded_checks=_excluded(case))
    if case.operation.method.upper() == "POST" and case.method.upper() == "POST" and (
            case.path != "/api/login"):
        assert response.status_code in (401, 403), response.text
    assert TABLE.state()["seq"] == seq


OPERATOR_SCHEMA = schemathesis.openapi.from_wsgi("/api/openapi.json", APP).include(
    path=["/api/commands", "/api/logout", "/api/audit"])


@OPERATOR_SCHEMA.auth()
class OperatorLogin:
    """A fresh operator session (cookie and CSRF token) through POST /api/login."""

    def get(self, case, ctx):
        return _operator()

    def set(self, case, data, ctx):
        session, token = data
        case.headers = {**(case.headers or {}), "X-CSRF-Token": token}
        case.cookies = {**(case.cookies or {}), COOKIE_NAME: session}


@OPERATOR_SCHEMA.parametrize()
@FUZZ
def test_the_operator(case):
    """With a session and the token: any body gets a documented answer, never a 5xx."""
    case.call_and_validate(excluded_checks=_excluded(case))
