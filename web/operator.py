"""The operator's console: ``GET /operator`` (behind the PIN) and its login page."""

from __future__ import annotations

import io
import struct

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request

from web import forms, texts
from web.guard import current_session, operator_page
from web.public import table_context

bp = Blueprint("operator", __name__, url_prefix="/operator")

AUDIT_SHOWN = 10
# the last throws an override may change (R-I2): counted, counted with a warning, void
OVERRIDABLE = ("counts", "warning", "void")


def dashboard_url() -> str:
    return request.host_url


@bp.get("/login")
def login_page():
    return render_template("login.html")


@bp.get("")
@operator_page
def console():
    return render_template("operator.html", csrf_token=current_session().csrf_token,
                           dashboard_url=dashboard_url(), kinds=texts.KIND_NAMES,
                           forms=forms.FORMS, groups=forms.GROUPS, audit=last_audit(),
                           calibration=_calibration_available(), **ruling_context())


@bp.get("/audit")
@operator_page
def audit_fragment():
    """The audit card, re-fetched on every event (an act shows without reloading the page)."""
    return render_template("_audit.html", audit=last_audit(), texts=texts)


def last_audit() -> list[dict]:
    """The last operator acts and sanctions, newest first."""
    return list(reversed(current_app.extensions["tablectl.table"].audit()[-AUDIT_SHOWN:]))


@bp.get("/ruling")
@operator_page
def ruling_fragment():
    """The ruling part of the console, re-fetched on every event."""
    return render_template("_ruling.html", **ruling_context())


def ruling_context() -> dict:
    ctx = table_context()
    pending = ctx["snap"].get("pending_ruling")
    ctx["image_size"] = None
    if pending and pending.get("throw"):
        png = current_app.extensions["tablectl.table"].throw_image(pending["throw"])
        ctx["image_size"] = png_size(png)
    ctx["override_open"] = override_open(ctx["snap"])
    return ctx


def override_open(snap: dict) -> bool:
    """Whether the game still takes an override of the last throw (R-I2): it counted or was
    void, and nothing but its warning (R-I3) was journaled after it. The console offers the
    form only then, rather than one the rules will refuse."""
    last = snap.get("last_throw") or {}
    if last.get("kind") not in OVERRIDABLE or last.get("throw") is None:
        return False
    after = snap.get("seq", 0) - last["throw"]
    return after == 0 or (after == 1 and (last["kind"] == "warning" or bool(last.get("warned"))))


def png_size(png: bytes | None) -> tuple[int, int] | None:
    """(width, height) from a PNG's header, or None."""
    if not png or len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", png[16:24])


@bp.get("/qr.svg")
def qr_svg():
    """A QR code of the dashboard's address (for players to scan off the operator's phone)."""
    # a standalone SVG document: an <img> shows nothing without the SVG namespace, which
    # segno's svg_inline() leaves out (it is made for inline HTML)
    out = io.BytesIO()
    # the standard's quiet zone of four modules: phones' scanners find the code by it
    segno.make(dashboard_url(), error="m").save(out, kind="svg", scale=6, border=4,
                                                dark="#111", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")


def _calibration_available() -> bool:
    return current_app.config.get("CALIBRATOR") is not None


def calibrator():
    c = current_app.config.get("CALIBRATOR")
    if c is None:
        abort(404)
    return c


@bp.get("/calibrate")
@operator_page
def calibrate_page():
    calibrator()
    return render_template("calibrate.html", csrf_token=current_session().csrf_token)


@bp.get("/calibrate/frame.png")
@operator_page
def calibrate_frame():
    from web.calibrate import CalibrationRefused

    try:
        png = calibrator().fresh_frame_png()
    except CalibrationRefused as exc:
        return Response(str(exc), status=503, mimetype="text/plain")
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/calibrate/picture.png")
@operator_page
def calibrate_picture():
    png = calibrator().picture
    if png is None:
        abort(404)
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response
