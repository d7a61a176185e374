"""The operator console's top card: the override of the last throw is offered only while the
game still takes it (R-I2: right after the throw, before any other command but warn)."""

from __future__ import annotations

from tests.support.tables import OPENING, play


def ruling_card(operator) -> str:
    r = operator.client.get("/operator/ruling")
    assert r.status_code == 200
    return r.data.decode()


def throw(table, dice):
    play(table, [{"command": "dice_rolling"}, {"command": "throw", "dice": dice}])
    return table.state()["seq"]


def test_the_override_is_offered_right_after_a_throw_and_taken(table, operator):
    play(table, OPENING)
    n = throw(table, [3, 4])
    html = ruling_card(operator)
    assert 'id="override-form"' in html and f'data-key="o{n}"' in html
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "an 11"})
    assert r.status_code == 200, r.json


def test_the_override_stays_open_across_the_warning(table, operator):
    play(table, OPENING)
    throw(table, [3, 4])
    play(table, [{"command": "warn", "rule": "R-I3"}])
    assert 'id="override-form"' in ruling_card(operator)
    r = operator.command({"command": "operator_ruling", "void": True, "why": "no wall"})
    assert r.status_code == 200, r.json


def test_no_override_is_offered_once_play_went_on(table, operator):
    play(table, OPENING)
    n = throw(table, [3, 4])
    play(table, [{"command": "center_bet", "amount": 10}])
    html = ruling_card(operator)
    assert 'id="override-form"' not in html
    # a card of its own (another key), so the page replaces the form the operator had open
    assert f'data-key="c{n}"' in html and "R-I2" in html
    assert "no longer be overridden" in html
    assert "уже нельзя изменить" in operator.client.get("/operator/ruling?lang=ru").data.decode()
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "too late"})
    assert r.status_code == 409  # what the card says: the game refuses it


def test_a_void_throw_is_offered_for_override_with_dice_only(table, operator):
    play(table, OPENING + [{"command": "dice_rolling"},
                           {"command": "void", "rule": "R-I1", "reason": "die 2 left the area"}])
    n = table.state()["seq"]
    html = ruling_card(operator)
    assert 'id="override-form"' in html and f'data-key="o{n}"' in html
    assert 'value="dice"' in html and 'value="void"' not in html  # void already: no "Void it"
    r = operator.command({"command": "operator_ruling", "void": True, "why": "?"})
    assert r.status_code == 409 and "void already" in r.json["refused"], r.json
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "it stayed in"})
    assert r.status_code == 200, r.json
    assert [e["event"] for e in r.json["events"]][:3] == ["operator_ruled", "come_out", "natural"]


def test_a_void_throw_stays_open_across_its_warning_and_closes_after_play(table, operator):
    play(table, OPENING + [{"command": "void", "rule": "R-I3", "reason": "no wall"},
                           {"command": "warn", "rule": "R-I3"}])
    assert 'id="override-form"' in ruling_card(operator)
    play(table, [{"command": "dice_rolling"}])
    html = ruling_card(operator)
    assert 'id="override-form"' not in html and "no longer be overridden" in html
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "it hit"})
    assert r.status_code == 409


def test_the_login_page_names_the_reset_command_as_code(client):
    for lang in ("en", "ru"):
        html = client.get(f"/operator/login?lang={lang}").data.decode()
        assert "<code>tablectl pin reset</code>" in html, lang
        assert "`" not in html, f"a Markdown backtick shown as it is ({lang})"


def test_the_audit_card_is_a_live_part_of_the_console(table, operator):
    play(table, OPENING)
    console = operator.client.get("/operator").data.decode()
    assert 'data-fragment="/operator/audit"' in console
    assert "No operator act or sanction yet." in operator.client.get("/operator/audit").data.decode()
    throw(table, [3, 4])
    operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "an 11, not a 7"})
    card = operator.client.get("/operator/audit").data.decode()
    assert "operator_ruling 5+6" in card and "an 11, not a 7" in card


def test_the_audit_card_is_behind_the_pin(client):
    assert client.get("/operator/audit").status_code in (302, 401)


def test_the_last_throws_say_which_rule_voided_a_throw(table, client):
    play(table, OPENING + [{"command": "dice_rolling"},
                           {"command": "void", "rule": "R-I3", "reason": "neither die hit the back wall"}])
    html = client.get("/view/table").data.decode()
    card = html.split('class="card throws-card"', 1)[1].split("</section>", 1)[0]
    assert "void" in card and "R-I3" in card and "neither die hit the back wall" in card


def test_the_last_throw_shown_is_the_void_made_to_count(table, client, operator):
    play(table, OPENING + [{"command": "void", "rule": "R-I1", "reason": "die 2 left the area"}])
    r = operator.command({"command": "operator_ruling", "dice": [5, 6], "why": "it stayed in"})
    assert r.status_code == 200, r.json
    page = client.get("/?lang=en").data.decode()
    last = page[page.index('id="last-throw"'):][:3000]
    assert "natural" in last and "void throw" not in last


def test_a_decision_counts_the_throws_that_stand_and_folds_many_settlements(table, client):
    bets = [{"command": "side_bet", "id": f"p{i}", "kind": "proposition", "for": "bob",
             "against": "ann", "stakes": {"bob": 1, "ann": 1}, "wins": [7], "within": 1}
            for i in range(4)]
    play(table, OPENING + bets + [{"command": "void", "rule": "R-I1", "reason": "out"},
                                  {"command": "operator_ruling", "by": "op", "why": "in",
                                   "dice": [3, 4]}])
    decision = table.recall(1)[0]
    assert [t.get("overridden", False) for t in decision["throws"]] == [True, False]
    card = client.get("/?lang=en").data.decode()
    card = card[card.index('class="card recall-card"'):]
    assert "1 throw<" in card  # the void the operator made count is one throw, not two
    # the center bet and four side bets: five settlements, folded on the phone
    assert '<details class="settled-more"><summary>5 bets settled</summary>' in card
