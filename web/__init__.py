"""web: the table's dashboard (Flask). ``create_app(table)`` builds it; ``web.serve`` runs it.

One blueprint per area:

- ``public``: the players' phone view, the manifest, the language switch
- ``stats``: the statistics page (server-drawn SVG)
- ``operator``: the operator's console (behind the PIN)
- ``api``: the JSON API (state, recall, pictures, login, commands, odds, calibration)
- ``stream``: the server-sent events (``GET /api/events``)

The app knows the table only through its public methods (``submit``, ``state``,
``events_since``, ``throw_image``, ``recall``, ``audit``, ``journal_rows``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from web import i18n
from web.security import SessionStore

log = logging.getLogger("tablectl.web")

DEFAULTS = {
    "DEBUG": False,
    "TESTING": False,
    "PROPAGATE_EXCEPTIONS": False,
    # a command, a PIN or a calibration is a few hundred bytes; nothing bigger is ever needed
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "MAX_FORM_MEMORY_SIZE": 64 * 1024,
    "SSE_KEEPALIVE_SECONDS": 15.0,
    # how long one wait on the table lasts inside a stream (the stream notices a phone that
    # went away at the latest this long after)
    "SSE_WAIT_SECONDS": 1.0,
    # streams beyond this get 503 (the page then polls /api/state): the rest of the pool stays
    # free for the console and the pages
    "SSE_MAX_STREAMS": 58,
    "JSON_SORT_KEYS": False,
}


def create_app(table, test_config: dict | None = None) -> Flask:
    """The dashboard of ``table``.

    table: the running ``tablectl.table.Table`` (or anything with its public methods).
    test_config: settings over DEFAULTS; ``STATE_DIR`` is where the PIN hash, the sessions and
        the failed-login count live (default: the app's instance folder). ``CALIBRATOR``
        (optional) is the object the calibration screen uses (see ``web.calibrate``).
    """
    app = Flask(__name__, instance_relative_config=False)
    app.config.from_mapping(DEFAULTS)
    if test_config:
        app.config.from_mapping(test_config)
    state_dir = Path(app.config.get("STATE_DIR") or app.instance_path)
    app.config["STATE_DIR"] = state_dir
    app.extensions["tablectl.table"] = table
    app.extensions["tablectl.sessions"] = SessionStore(state_dir)
    app.json.sort_keys = False

    i18n.init_app(app)

    from web import api, operator, public, stats, stream

    app.register_blueprint(public.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(operator.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(stream.bp)

    @app.after_request
    def _headers(response):
        h = response.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "same-origin")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Content-Security-Policy",
                     "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                     "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        body, code = _error_response(exc.code or 500, exc.name)
        # keep what the error's own headers say (Allow on a 405, Retry-After ...)
        extra = {k: v for k, v in exc.get_headers() if k.lower() not in (
            "content-type", "content-length")}
        return body, code, extra

    @app.errorhandler(Exception)
    def _server_error(exc: Exception):
        log.exception("error serving %s %s", request.method, request.path)
        return _error_response(500, "Internal Server Error")

    return app


def _error_response(code: int, name: str):
    """A generic error: JSON under /api, a plain page elsewhere; never a stack trace."""
    if request.path.startswith("/api/"):
        return jsonify({"error": name}), code
    return render_template("error.html", code=code, name=name), code


def table_of(app: Flask):
    return app.extensions["tablectl.table"]
