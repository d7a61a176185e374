"""Who may change the table: the operator's session, its CSRF token, the request's Origin.

Every request that changes something is a POST; GET changes nothing. A POST passes only with
a live session cookie (else 401), the session's token in ``X-CSRF-Token`` (else 403) and, when
the browser sends one, an ``Origin`` of this very server (else 403).
"""

from __future__ import annotations

import hmac
from functools import wraps

from flask import abort, current_app, g, jsonify, redirect, request, url_for

from web.security import COOKIE_NAME, Session, SessionStore

CSRF_HEADER = "X-CSRF-Token"


def sessions() -> SessionStore:
    return current_app.extensions["tablectl.sessions"]


def current_session() -> Session | None:
    if "operator_session" not in g:
        g.operator_session = sessions().get(request.cookies.get(COOKIE_NAME))
    return g.operator_session


def same_origin() -> bool:
    """False when the browser says the request comes from another site."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True  # not a browser's cross-site request (those always carry Origin on POST)
    return origin == f"{request.scheme}://{request.host}"


def _refuse(code: int, message: str):
    response = jsonify({"error": message})
    response.status_code = code
    abort(response)


def check_origin() -> None:
    if not same_origin():
        _refuse(403, "this request comes from another site (its Origin is not this dashboard)")


def operator_api(view):
    """A JSON endpoint of the operator: session, CSRF token (for POST) and Origin checked."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            check_origin()
        session = current_session()
        if session is None:
            _refuse(401, "log in as the operator first (POST /api/login with the PIN)")
        if request.method not in ("GET", "HEAD"):
            token = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(token.encode(), session.csrf_token.encode()):
                _refuse(403, f"missing or wrong {CSRF_HEADER} header (the token given at login)")
        return view(*args, **kwargs)

    return wrapped


def operator_page(view):
    """An HTML page of the operator: without a session, the login page."""

    @wraps(view)
    def wrapped(*args, **kwargs):
        if current_session() is None:
            return redirect(url_for("operator.login_page"))
        return view(*args, **kwargs)

    return wrapped


def set_session_cookie(response, session: Session) -> None:
    response.set_cookie(COOKIE_NAME, session.id, httponly=True, samesite="Strict", path="/",
                        secure=request.is_secure)


def clear_session_cookie(response) -> None:
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="Strict")
