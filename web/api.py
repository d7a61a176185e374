"""The JSON API (docs/api.md; the OpenAPI document is ``GET /api/openapi.json``)."""

from __future__ import annotations

import json
import logging
import re
from fractions import Fraction
from importlib import resources

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext as _

from tablectl.game import CommandError, RuleViolation
from web import texts
from web.guard import (
    check_origin,
    clear_session_cookie,
    current_session,
    operator_api,
    sessions,
    set_session_cookie,
)
from web.security import MAX_FAILURES_PER_HOUR, check_pin

log = logging.getLogger("tablectl.web")

bp = Blueprint("api", __name__, url_prefix="/api")

# what the dashboard never sends: the camera's own commands
CAMERA_ONLY = ("await_ruling", "refused_throw", "dice_rolling")


def table():
    return current_app.extensions["tablectl.table"]


def _json_body() -> dict:
    body = request.get_json(silent=True)
    if type(body) is not dict:
        response = jsonify({"error": "the body must be a JSON object "
                                     "(Content-Type: application/json)"})
        response.status_code = 400
        abort(response)
    return body


@bp.get("/state")
def state():
    return jsonify(table().state())


@bp.get("/recall")
def recall():
    return jsonify(table().recall(10))


@bp.get("/throws/<int:n>/image")
def throw_image(n: int):
    png = table().throw_image(n) if 0 < n < 2**62 else None
    if png is None:
        return jsonify({"error": f"no picture of throw {n}"}), 404
    return _png(png)


@bp.get("/throws/<int:n>/raw")
def throw_raw_image(n: int):
    png = table().throw_image(n, raw=True) if 0 < n < 2**62 else None
    if png is None:
        return jsonify({"error": f"no rest frame of throw {n}: one is kept only for a throw "
                                 "the operator had to rule"}), 404
    return _png(png)


def _png(png: bytes) -> Response:
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=86400, immutable"
    return response


@bp.post("/login")
def login():
    check_origin()
    store = sessions()
    if store.failures_last_hour() >= MAX_FAILURES_PER_HOUR:
        log.warning("operator login refused: %d failed PINs in the last hour",
                    MAX_FAILURES_PER_HOUR)
        return jsonify({"error": f"too many wrong PINs ({MAX_FAILURES_PER_HOUR} in the last "
                                 f"hour): wait, or set a new PIN with `tablectl pin reset`"}), 429
    body = _json_body()
    if not check_pin(current_app.config["STATE_DIR"], body.get("pin")):
        store.record_failure(request.remote_addr)
        return jsonify({"error": "wrong PIN"}), 401
    old = current_session()
    if old is not None:
        store.end(old.id)
    session = store.create()  # a fresh id at every login
    response = jsonify({"csrf_token": session.csrf_token})
    set_session_cookie(response, session)
    log.info("operator logged in from %s", request.remote_addr)
    return response


@bp.post("/logout")
@operator_api
def logout():
    sessions().end(current_session().id)
    response = jsonify({"ok": True})
    clear_session_cookie(response)
    return response


@bp.post("/commands")
@operator_api
def commands():
    command = _json_body()
    name = command.get("command")
    if name in CAMERA_ONLY:
        return jsonify({"error": f"{name} comes from the camera, not from the dashboard"}), 400
    if name == "operator_ruling" and not command.get("by"):
        command["by"] = "operator"
    try:
        events = table().submit(command, by="operator")
    except RuleViolation as exc:
        shown = texts.refusal(exc.rule, str(exc), type(exc).__name__)
        return jsonify({"refused": str(exc), "rule": exc.rule, "title": shown["title"],
                        "says": shown["says"], "detail": getattr(exc, "detail", None)}), 409
    except CommandError as exc:
        return jsonify({"error": str(exc)}), 400
    except Exception as exc:
        if type(exc).__name__ == "TableFault":
            return jsonify({"error": f"the table stopped: {exc}"}), 503
        raise
    return jsonify({"seq": table().state()["seq"], "events": events,
                    "text": [texts.describe(e) for e in events]})


@bp.post("/calibration")
@operator_api
def calibration():
    """The calibration tapped on the phone: written into the config file, drawn on its frame."""
    from web.calibrate import CalibrationRefused

    calibrator = current_app.config.get("CALIBRATOR")
    if calibrator is None:
        return jsonify({"error": "this table was started without a camera to calibrate"}), 404
    body = _json_body()
    try:
        warnings = calibrator.apply(body)
    except CalibrationRefused as exc:
        return jsonify({"error": str(exc)}), 400
    except OSError as exc:
        return jsonify({"error": f"cannot write {calibrator.config_path}: {exc.strerror}"}), 503
    log.info("calibration written to %s by the operator", calibrator.config_path)
    return jsonify({"file": str(calibrator.config_path), "warnings": warnings,
                    "picture": "/operator/calibrate/picture.png",
                    "restart": True})


@bp.get("/audit")
@operator_api
def audit():
    return jsonify(table().audit())


@bp.get("/odds")
def odds():
    """The true odds of a side bet before the two players agree (R-S0..R-S7)."""
    from tablectl.odds import side_bet_win_probability

    args = request.args
    problem = _odds_query_problem(args)
    if problem:
        return jsonify({"error": problem}), 400
    kind = args["kind"]
    stake_for = int(args.get("stake_for", "1"))
    stake_against = int(args.get("stake_against", "1"))
    terms: dict = {}
    try:
        if kind in ("hardway", "number"):
            terms["number"] = int(args.get("number", ""))
        elif kind == "proposition":
            terms["wins"] = _outcomes(args.get("wins", ""))
            if args.get("loses"):
                terms["loses"] = _outcomes(args["loses"])
            if args.get("within"):
                terms["within"] = int(args["within"])
        point = table().state()["state"].get("point")
        if kind == "point" and point is None:
            return jsonify({"error": texts.rule_title("R-S2")}), 400
        p = side_bet_win_probability(kind, terms, point)
    except (ValueError, TypeError, KeyError) as exc:
        return jsonify({"error": _("these terms cannot be priced: %(why)s", why=exc)}), 400
    ev_for = p * stake_against - (1 - p) * stake_for
    backer = args.get("for") or _("the backer")
    layer = args.get("against") or _("the other side")
    if ev_for == 0:
        edge = _("a fair bet: neither side is favoured")
    else:
        fav, units = (backer, ev_for) if ev_for > 0 else (layer, -ev_for)
        edge = _("%(p)s is favoured by %(u)s units a bet", p=fav, u=f"{float(units):.2f}")
    summary = _("%(p)s wins %(pct)s of the time (%(frac)s); fair stakes %(fair)s; %(edge)s",
                p=backer, pct=f"{float(p) * 100:.1f}%", frac=f"{p.numerator}/{p.denominator}",
                fair=_fair(p), edge=edge)
    return jsonify({
        "kind": kind, "point": point, "p_win": f"{p.numerator}/{p.denominator}",
        "ev_for": f"{ev_for.numerator}/{ev_for.denominator}",
        "ev_against": f"{(-ev_for).numerator}/{(-ev_for).denominator}",
        # the stakes that make the bet fair: for : against = p : 1-p
        "fair_stakes": _fair(p),
        "summary": summary,
    })


KINDS = ("line", "point", "come", "hardway", "number", "proposition")
OUTCOMES = re.compile(r"^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$")


def _odds_query_problem(args) -> str | None:
    """What is wrong with an odds query (as the OpenAPI document bounds it), or None."""
    if args.get("kind") not in KINDS:
        return f"kind must be one of {', '.join(KINDS)}"
    bounds = {"stake_for": (1, 999_999_999), "stake_against": (1, 999_999_999),
              "number": (2, 12), "within": (1, 1000)}
    for name, (low, high) in bounds.items():
        if name in args:
            raw = args[name]
            if not re.fullmatch(r"-?[0-9]{1,12}", raw) or not low <= int(raw) <= high:
                return f"{name} must be a whole number {low}..{high}"
    for name in ("wins", "loses"):
        if name in args and not OUTCOMES.match(args[name]):
            return f"{name} must list totals and combinations like 8,6-5,3-3"
    for name in ("for", "against"):
        if len(args.get(name, "")) > 40:
            return f"{name} must be a player's name (at most 40 characters)"
    return None


def _fair(p: Fraction) -> str:
    if p <= 0 or p >= 1:
        return "-"
    r = p / (1 - p)  # stake_for : stake_against
    return f"{r.numerator}:{r.denominator}"


def _outcomes(text: str) -> list:
    """'8, 6-5, 3-3' -> [8, '6-5', '3-3']."""
    out: list = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        out.append(part if "-" in part else int(part))
    if not out:
        raise ValueError("name at least one total or combination")
    return out


_OPENAPI: dict | None = None


def openapi_document() -> dict:
    global _OPENAPI
    if _OPENAPI is None:
        _OPENAPI = json.loads(resources.files("web").joinpath("openapi.json").read_text("utf-8"))
    return _OPENAPI


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())
