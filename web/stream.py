"""``GET /api/events``: the journal's events as server-sent events.

Each event goes out as ``id: <journal seq>``, ``event: <name>``, ``data: <the event's JSON>``
(with ``text``: the event in the reader's language). A reconnect with ``Last-Event-ID`` (or
``?since=N``) first gets every event after N, from the journal; a comment every 15 s keeps the
line alive. Each open stream holds one of waitress's threads: past ``SSE_MAX_STREAMS`` a new
stream gets 503 and the page polls ``/api/state`` instead, so the console is never starved.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from web import i18n, texts

bp = Blueprint("stream", __name__)


class StreamCount:
    """How many streams are open (to keep threads for everything else)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def enter(self, limit: int) -> bool:
        with self._lock:
            if self.open >= limit:
                return False
            self.open += 1
            return True

    def leave(self) -> None:
        with self._lock:
            self.open -= 1


def _since() -> int | None:
    for raw in (request.headers.get("Last-Event-ID"), request.args.get("since")):
        if raw is None or raw == "":
            continue
        try:
            n = int(raw)
        except ValueError:
            return -1
        return n if 0 <= n < 2**62 else -1
    return None


class FormatCache:
    """Each journal event formatted once per language, for every stream: fifty phones wake
    at one event, and only the first formats it."""

    def __init__(self, size: int = 2048) -> None:
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple, str] = OrderedDict()
        self._size = size

    def get(self, key: tuple, make) -> str:
        with self._lock:
            text = self._items.get(key)
            if text is not None:
                return text
        text = make()
        with self._lock:
            self._items[key] = text
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return text


def format_event(seq: int, event: dict) -> str:
    data = dict(event)
    data["text"] = texts.describe(event)
    name = str(event.get("event", "message")).replace("\n", " ")
    return f"id: {seq}\nevent: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@bp.get("/api/events")
def events():
    table = current_app.extensions["tablectl.table"]
    since = _since()
    if since == -1:
        return jsonify({"error": "Last-Event-ID / since must be a journal seq (an integer "
                                 ">= 0)"}), 400
    if since is None:
        since = int(table.state()["seq"])
    count: StreamCount = current_app.extensions.setdefault("tablectl.streams", StreamCount())
    cfg = current_app.config
    if not count.enter(int(cfg["SSE_MAX_STREAMS"])):
        response = jsonify({"error": "too many live pages: poll /api/state"})
        response.status_code = 503
        response.headers["Retry-After"] = "30"
        return response
    keepalive = float(cfg["SSE_KEEPALIVE_SECONDS"])
    wait = min(float(cfg["SSE_WAIT_SECONDS"]), keepalive)
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    cache: FormatCache = current_app.extensions.setdefault("tablectl.sse_cache", FormatCache())
    lang = i18n.current_language()

    def generate():
        seq = since
        try:
            # the browser waits 2 s before reconnecting by itself
            yield f"retry: 2000\n: since {seq}\n\n"
            last = time.monotonic()
            while not gone():
                items = table.events_since(seq, wait)
                now = time.monotonic()
                if items:
                    chunk = []
                    index, row = 0, None
                    for s, event in items:
                        index = index + 1 if s == row else 0
                        row = s
                        if event.get("event") == "table_status":  # live, never cached
                            chunk.append(format_event(s, event))
                            continue
                        # a journal row's events never change: (seq, place, language) is a key
                        chunk.append(cache.get((s, index, lang),
                                               lambda s=s, e=event: format_event(s, e)))
                        if s > seq:
                            seq = s
                    yield "".join(chunk)
                    last = now
                elif now - last >= keepalive:
                    yield ": keepalive\n\n"
                    last = now
        finally:
            count.leave()

    response = Response(stream_with_context(generate()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
