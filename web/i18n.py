"""English and Russian (the rules' source language) from gettext catalogs (Flask-Babel).

The language is the ``?lang=`` of the request (then kept in a ``lang`` cookie), else the cookie,
else the best match of the browser's ``Accept-Language``. English is the catalogs' source text;
``web/translations/ru/LC_MESSAGES/messages.po`` holds the Russian, compiled to ``messages.mo``
(both committed; docs/dashboard.md says how to update them).
"""

from __future__ import annotations

from flask import Flask, g, request
from flask_babel import Babel, get_locale

LANGUAGES = ("en", "ru")
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
COOKIE = "lang"


def select_locale() -> str:
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        g.lang_asked = asked
        return asked
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return request.accept_languages.best_match(LANGUAGES) or "en"


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories="translations")

    @app.after_request
    def _remember_language(response):
        asked = g.get("lang_asked")
        if asked and request.cookies.get(COOKIE) != asked:
            # a preference of this browser only (changes nothing on the table)
            response.set_cookie(COOKIE, asked, max_age=365 * 86400, samesite="Strict",
                                httponly=True)
        return response

    @app.context_processor
    def _languages():
        return {"languages": LANGUAGE_NAMES, "lang": current_language()}


def current_language() -> str:
    loc = get_locale()
    return loc.language if loc is not None else "en"
