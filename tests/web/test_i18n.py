"""English and Russian: chosen from Accept-Language, ?lang= (kept in a cookie); every string the
app says is in the Russian catalog, and the compiled catalog is the one shipped."""

from __future__ import annotations

import re
from io import BytesIO
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from tests.support.tables import OPENING, play
from web import texts

WEB = Path(__file__).resolve().parents[2] / "web"
PO = WEB / "translations" / "ru" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")


def extracted_ids() -> set:
    ids = set()
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "_l": None, "lazy_gettext": None}
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(WEB), method_map, keywords=keywords):
        ids.add(message if isinstance(message, str) else tuple(message))
    return ids


def test_every_string_has_a_russian_translation():
    catalog = read_po(PO.open("rb"))
    translated = {(m.id if isinstance(m.id, str) else tuple(m.id)): m.string for m in catalog
                  if m.id}
    missing = [i for i in extracted_ids() if not translated.get(i) or (
        isinstance(translated[i], tuple) and not all(translated[i]))]
    assert missing == [], "add these to messages.po (docs/dashboard.md says how)"
    assert not catalog.fuzzy


def test_the_shipped_mo_is_the_po_compiled():
    compiled = BytesIO()
    write_mo(compiled, read_po(PO.open("rb")))
    compiled.seek(0)
    def entries(catalog):
        return {(m.id if isinstance(m.id, str) else tuple(m.id)):
                (m.string if isinstance(m.string, str) else tuple(m.string))
                for m in catalog if m.id}

    fresh = entries(read_mo(compiled))
    shipped = entries(read_mo(MO.open("rb")))
    assert shipped == fresh, "messages.mo is stale: pybabel compile -d web/translations"


def test_accept_language_chooses_russian(client, table):
    play(table, OPENING + [{"command": "throw", "dice": [2, 1]}])
    ru = client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}).data.decode()
    assert 'lang="ru"' in ru and "крэпс: кости проигрывают" in ru
    en = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).data.decode()
    assert 'lang="en"' in en and "craps: the dice lose" in en


def test_the_switch_is_kept_in_a_cookie(client):
    r = client.get("/?lang=ru", headers={"Accept-Language": "en"})
    assert "lang=ru" in r.headers["Set-Cookie"]
    assert 'lang="ru"' in client.get("/stats", headers={"Accept-Language": "en"}).data.decode()
    client.get("/?lang=en")
    assert 'lang="en"' in client.get("/stats").data.decode()


def test_refusals_and_rulings_in_russian(app, operator, table):
    play(table, OPENING)
    r = operator.client.post("/api/commands", json={"command": "fade", "player": "bob",
                                                    "amount": 5},
                             headers={"X-CSRF-Token": operator.token, "Accept-Language": "ru"})
    assert r.json["title"] == ("R-C6: отвечающие не могут ответить больше ставки "
                               "бросающего")
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert texts.reason("die 2 is cocked: rule its value or void the throw (only one die "
                            "hit the back wall: R-I3 warning if it counts)") == (
            "кость 2 стоит наклонно: назовите её значение или аннулируйте бросок (о стенку "
            "ударилась только одна кость: предупреждение R-I3, если бросок засчитан)")
        assert texts.reason("2 dice did not move since the last throw") == (
            "2 кости не сдвинулись с прошлого броска")
        assert texts.reason("something new") == "something new"  # shown as it is
        for rule in texts.RULE_TITLES:
            assert re.search("[а-я]", texts.rule_title(rule)), rule


def test_every_ruling_reason_of_the_camera_is_known():
    """The reasons tablectl/rulings.py writes each match a catalog pattern."""
    samples = ["2 dice on the table: rule the throw", "1 die did not move since the last throw",
               "1 die not found at rest", "die 2 came to rest outside the area",
               "die 1 left the area during the throw", "neither die hit the back wall",
               "die 1 is cocked: rule its value or void the throw",
               "die 2 cannot be read: rule its value or void the throw",
               "only one die hit the back wall: shooter warned", "both dice hit the back wall"]
    for text in samples:
        assert any(p.match(text) for p, _ in texts._REASONS), text


def test_the_odds_preview_says_in_russian_why_terms_cannot_be_priced(client):
    r = client.get("/api/odds?kind=hardway&number=5", headers={"Accept-Language": "ru"})
    assert r.status_code == 400
    # the reason after the colon is the odds module's own (English) words
    assert r.json["error"].startswith("эти условия нельзя оценить: "), r.json
