"""The players' view: ``GET /`` (the page) and ``GET /view/table`` (its live part, re-fetched
by the page on every event so every sentence comes from the catalogs), the web-app manifest."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, url_for
from flask_babel import gettext as _

from web import texts, view

bp = Blueprint("public", __name__)

LAST_THROWS = 6
# a decision that settled more bets than this shows them folded (the phone's page stays short)
SETTLED_SHOWN = 3


def journal() -> view.JournalCache:
    ext = current_app.extensions
    if "tablectl.journal_cache" not in ext:
        ext["tablectl.journal_cache"] = view.JournalCache(ext["tablectl.table"])
    return ext["tablectl.journal_cache"]


def table_context() -> dict:
    """Everything the live part of the page shows."""
    table = current_app.extensions["tablectl.table"]
    snap = table.state()
    game = snap.get("state") or {}
    rows = journal().rows()
    made = view.side_bet_terms(rows)
    throws = view.throws_of(rows)
    bets = [dict(b, odds=view.bet_odds(b, made.get(b.get("id")))) for b in
            game.get("side_bets") or []]
    lights = snap.get("lights") or {}
    return {
        "seq": snap.get("seq", 0),
        "snap": snap,
        "game": game,
        "next_shooter": view.next_shooter(game),
        "center": view.center_view(game.get("center_bet")),
        "bets": bets,
        "players": view.players_view(game),
        "lamps": [(role, lights[role]) for role in lights if role != "buzzer"],
        "last": throws[-1] if throws else None,
        "throws": list(reversed(throws[-LAST_THROWS:])),
        "recall": list(reversed(table.recall(10))),
        "settled_shown": SETTLED_SHOWN,
        "texts": texts,
    }


FEED_LINES = 12


@bp.get("/")
def index():
    ctx = table_context()
    # the feed starts with the last events already played (newest first); live ones follow
    recent = []
    for row in reversed(journal().rows()):
        for event in reversed(row.events):
            recent.append((row.seq, texts.describe(event)))
        if len(recent) >= FEED_LINES:
            break
    return render_template("index.html", recent=recent[:FEED_LINES], **ctx)


@bp.get("/view/table")
def table_fragment():
    return render_template("_table.html", **table_context())


@bp.get("/manifest.webmanifest")
def manifest():
    response = jsonify({
        "name": _("Craps table"),
        "short_name": "tablectl",
        "start_url": url_for("public.index"),
        "display": "standalone",
        "background_color": "#0b3d2e",
        "theme_color": "#0b3d2e",
        "icons": [
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192",
             "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512",
             "type": "image/png"},
            {"src": url_for("static", filename="icon.svg"), "sizes": "any",
             "type": "image/svg+xml"},
        ],
    })
    response.mimetype = "application/manifest+json"
    return response
