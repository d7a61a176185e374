"""The operator's PIN, sessions, CSRF, Origin, the failed-login limit, limits and error pages."""

from __future__ import annotations

from tests.support.tables import OPENING, play
from web import create_app
from web.security import (
    COOKIE_NAME,
    MAX_FAILURES_PER_HOUR,
    SessionStore,
    check_pin,
    ensure_pin,
    reset_pin,
)

from .conftest import PIN


def test_first_start_sets_a_random_pin_stored_only_as_a_hash(tmp_path):
    first = ensure_pin(tmp_path / "a")
    assert first is not None and first.isdigit() and len(first) == 6
    assert ensure_pin(tmp_path / "a") is None  # set once; never a default
    stored = (tmp_path / "a" / "operator_pin").read_text()
    assert first not in stored and stored.startswith(("scrypt:", "pbkdf2:"))
    assert check_pin(tmp_path / "a", first) and not check_pin(tmp_path / "a", "000000")
    assert (tmp_path / "a" / "operator_pin").stat().st_mode & 0o077 == 0


def test_login_gives_a_fresh_httponly_strict_session_and_a_token(app):
    c = app.test_client()
    r1 = c.post("/api/login", json={"pin": PIN})
    cookie = r1.headers["Set-Cookie"]
    assert r1.status_code == 200 and r1.json["csrf_token"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    first = c.get_cookie(COOKIE_NAME).value
    r2 = c.post("/api/login", json={"pin": PIN})
    second = c.get_cookie(COOKIE_NAME).value
    assert second != first and r2.json["csrf_token"] != r1.json["csrf_token"]
    store = app.extensions["tablectl.sessions"]
    assert store.get(first) is None and store.get(second) is not None


def test_wrong_pin_is_401_and_no_session(client):
    r = client.post("/api/login", json={"pin": "000000"})
    assert r.status_code == 401
    assert client.get_cookie(COOKIE_NAME) is None
    assert client.post("/api/commands", json={"command": "pass_dice"}).status_code == 401


def test_state_change_needs_session_then_token(app, client, operator, table):
    body = {"command": "join", "player": "ann", "buy_in": 10}
    assert client.post("/api/commands", json=body).status_code == 401
    r = operator.client.post("/api/commands", json=body)  # session, no token
    assert r.status_code == 403
    r = operator.client.post("/api/commands", json=body, headers={"X-CSRF-Token": "x" * 43})
    assert r.status_code == 403
    assert table.state()["state"]["seats"] == []
    assert operator.command(body).status_code == 200
    assert table.state()["state"]["seats"] == ["ann"]


def test_another_sites_origin_is_refused(operator, table):
    r = operator.client.post("/api/commands", json={"command": "join", "player": "x",
                                                    "buy_in": 5},
                             headers={"X-CSRF-Token": operator.token,
                                      "Origin": "http://evil.example"})
    assert r.status_code == 403
    assert table.state()["seq"] == 0
    r = operator.client.post("/api/login", json={"pin": PIN},
                             headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    ok = operator.client.post("/api/commands", json={"command": "join", "player": "x",
                                                     "buy_in": 5},
                              headers={"X-CSRF-Token": operator.token,
                                       "Origin": "http://localhost"})
    assert ok.status_code == 200


def test_logout_ends_the_session_on_the_server(app, operator):
    sid = operator.client.get_cookie(COOKIE_NAME).value
    assert operator.post("/api/logout", {}).status_code == 200
    assert app.extensions["tablectl.sessions"].get(sid) is None
    operator.client.set_cookie(COOKIE_NAME, sid)  # a stolen cookie is worth nothing now
    assert operator.command({"command": "pass_dice"}).status_code == 401


def test_pin_reset_ends_every_session(app, operator, state_dir):
    sid = operator.client.get_cookie(COOKIE_NAME).value
    new = reset_pin(state_dir)
    assert app.extensions["tablectl.sessions"].get(sid) is None
    assert check_pin(state_dir, new) and not check_pin(state_dir, PIN)


def test_failed_pins_are_limited_per_hour_across_a_restart(table, state_dir):
    now = [1_000_000.0]
    app = create_app(table, {"STATE_DIR": state_dir})
    app.extensions["tablectl.sessions"] = SessionStore(state_dir, clock=lambda: now[0])
    c = app.test_client()
    for _ in range(MAX_FAILURES_PER_HOUR):
        assert c.post("/api/login", json={"pin": "111111"}).status_code == 401
    assert c.post("/api/login", json={"pin": PIN}).status_code == 429  # even the right one
    # a restart: a new app on the same state folder still counts them
    again = create_app(table, {"STATE_DIR": state_dir})
    again.extensions["tablectl.sessions"] = SessionStore(state_dir, clock=lambda: now[0])
    assert again.test_client().post("/api/login", json={"pin": PIN}).status_code == 429
    now[0] += 3601  # an hour later the count starts again
    assert again.test_client().post("/api/login", json={"pin": PIN}).status_code == 200


def test_no_get_changes_anything(app, client, operator, table):
    play(table, OPENING)
    seq = table.state()["seq"]
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.arguments - {"n", "filename"}:
            continue
        path = rule.rule.replace("<int:n>", str(seq)).replace("<path:filename>", "app.css")
        if path == "/api/events":
            continue  # a stream: tested in test_stream
        for c in (client, operator.client):
            assert c.get(path).status_code < 500, path
    assert table.state()["seq"] == seq


def test_a_big_body_is_refused(operator):
    r = operator.command({"command": "join", "player": "x" * 100_000, "buy_in": 1})
    assert r.status_code == 413


def test_errors_are_generic_and_leak_nothing(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("secret detail of the table computer")

    r = client.get("/boom")
    assert r.status_code == 500
    assert b"secret detail" not in r.data and b"Traceback" not in r.data
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and r.json == {"error": "Not Found"}
    assert not app.debug
