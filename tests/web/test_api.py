"""The JSON API on a real Table: state, commands (done, refused with the rule, malformed), the
recall, the throws' pictures, the odds preview and the OpenAPI document."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.tables import OPENING, play
from web.api import openapi_document

ROOT = Path(__file__).resolve().parents[2]


def test_state_is_the_tables(client, table):
    play(table, OPENING)
    body = client.get("/api/state").json
    assert body["seq"] == 5
    assert body["state"]["shooter"] == "ann" and body["state"]["point"] is None
    assert body["pending_ruling"] is None and body["camera"] == {"ok": True, "fault": None}
    assert set(body) >= {"seq", "state", "pending_ruling", "lights", "camera"}


def test_a_command_goes_through_the_journal(operator, table):
    play(table, OPENING)
    r = operator.command({"command": "throw", "dice": [4, 3]})
    assert r.status_code == 200
    assert r.json["seq"] == 6
    names = [e["event"] for e in r.json["events"]]
    assert names[:2] == ["come_out", "natural"] and "center_settled" in names
    row = table.journal_rows(5)[0]
    assert row.command == {"command": "throw", "dice": [4, 3]} and row.extra["by"] == "operator"
    balances = table.state()["state"]["balances"]
    assert balances == {"ann": 110, "bob": 90}  # ann takes the center (R-C7)


def test_a_refusal_names_the_rule_and_changes_nothing(operator, table):
    play(table, OPENING)
    r = operator.command({"command": "fade", "player": "bob", "amount": 5})
    assert r.status_code == 409
    assert r.json["rule"] == "R-C6" and r.json["refused"].startswith("R-C6: ")
    assert r.json["title"].startswith("R-C6: faders may not fade more")
    assert table.state()["seq"] == 5


def test_a_refusal_says_what_it_means_in_the_readers_language(operator, table):
    play(table, OPENING[:4])
    fade = {"command": "fade", "player": "bob", "amount": 50}
    r = operator.client.post("/api/commands?lang=ru", json=fade,
                             headers={"X-CSRF-Token": operator.token})
    assert r.status_code == 409
    assert r.json["says"] == "Отвечающие покрыли бы больше ставки бросающего."
    assert r.json["title"].startswith("R-C6: отвечающие")
    assert r.json["refused"].startswith("R-C6: faders may not fade")  # the game's words stay
    r = operator.client.post("/api/commands?lang=en", json=fade,
                             headers={"X-CSRF-Token": operator.token})
    assert r.json["says"] == "The faders would cover more than the shooter's bet."


def test_every_kind_of_refusal_has_a_sentence_of_its_own():
    from tablectl.game import errors
    from web import texts

    kinds = {name for name, cls in vars(errors).items() if isinstance(cls, type)
             and issubclass(cls, errors.RuleViolation) and cls is not errors.RuleViolation}
    assert kinds == set(texts.REFUSALS), "a refusal class without its sentence in web/texts.py"


def test_a_malformed_command_is_400_with_what_is_wrong(operator, table):
    for body, words in (({"command": "fade", "player": "bob"}, "amount"),
                        ({"command": "no_such"}, "unknown command"),
                        ({"dice": [1, 2]}, "command")):
        r = operator.command(body)
        assert r.status_code == 400 and words in r.json["error"], r.json
    r = operator.client.post("/api/commands", data="[1, 2]", headers={
        "X-CSRF-Token": operator.token, "Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json["error"]
    assert table.state()["seq"] == 0


def test_the_camera_commands_do_not_come_from_the_dashboard(operator, table):
    play(table, OPENING)
    r = operator.command({"command": "await_ruling", "rule": "R-I2", "reason": "x"})
    assert r.status_code == 400 and table.state()["seq"] == 5


def test_operator_ruling_is_signed_by_the_operator(operator, table):
    play(table, OPENING)
    table.submit({"command": "await_ruling", "rule": "R-I2", "reason": "die 1 is cocked: rule "
                  "its value or void the throw"}, by="camera")
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "leans on 5"})
    assert r.status_code == 200
    assert r.json["events"][0] == {"event": "operator_ruled", "by": "operator",
                                   "why": "leans on 5", "rule": "R-I2", "dice": [5, 6]}
    audit = operator.client.get("/api/audit").json
    assert audit[-1]["why"] == "leans on 5"
    console = operator.client.get("/operator").data.decode()
    assert "leans on 5" in console.split("Audit: who, when, why")[1]


def test_recall_is_the_tables(client, table):
    play(table, OPENING + [{"command": "throw", "dice": [6, 5]}])
    recall = client.get("/api/recall").json
    assert recall == json.loads(json.dumps(table.recall(10)))
    assert recall[-1]["decision"] == "natural"


def test_throw_pictures(client, table, tmp_path):
    png = tmp_path / "t.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    play(table, OPENING)
    table.submit({"command": "throw", "dice": [2, 2]}, by="camera", image=png)
    r = client.get("/api/throws/6/image")
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data == png.read_bytes()
    assert client.get("/api/throws/5/image").status_code == 404
    assert client.get("/api/throws/999999/image").status_code == 404
    # no rest frame is kept for a throw the camera ruled itself: a 404 that says so
    r = client.get("/api/throws/6/raw")
    assert r.status_code == 404 and "operator had to rule" in r.json["error"]


def test_odds_before_the_players_agree(client, table):
    r = client.get("/api/odds?kind=hardway&number=6&stake_for=1&stake_against=10")
    # hard 6: 1 way against 10 losing ways (R-S5: 10-1): 1:10 is fair, neither side favoured
    assert r.json["p_win"] == "1/11" and r.json["ev_for"] == "0/1" and r.json["fair_stakes"] == "1:10"
    r = client.get("/api/odds?kind=line&stake_for=10&stake_against=10&for=bob")
    assert r.json["p_win"] == "244/495" and r.json["ev_for"] == "-14/99"
    assert "bob" in r.json["summary"] and "49.3%" in r.json["summary"]
    assert client.get("/api/odds?kind=point").status_code == 400  # no point set (R-S2)
    assert client.get("/api/odds?kind=number&number=7").status_code == 400
    play(table, OPENING + [{"command": "throw", "dice": [2, 2]}])
    assert client.get("/api/odds?kind=point").json["p_win"] == "1/3"


def test_openapi_is_served_and_documented(client):
    assert client.get("/api/openapi.json").json == openapi_document()
    api_md = (ROOT / "docs" / "api.md").read_text()
    for path in openapi_document()["paths"]:
        assert path.replace("{n}", "<n>") in api_md, path
