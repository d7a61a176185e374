"""GET /api/events: ids are journal seqs, a reconnect replays what it missed, keep-alives, and
the cap on open streams."""

from __future__ import annotations

import json

from tests.support.tables import OPENING, play
from web import create_app


def read_events(response, until_id: int, limit: int = 400) -> list[tuple[int, str, dict]]:
    """Parse the stream until an event with ``until_id`` came (or ``limit`` chunks)."""
    out: list[tuple[int, str, dict]] = []
    buf = ""
    chunks = response.response
    for _ in range(limit):
        buf += next(chunks).decode()
        while "\n\n" in buf:
            block, buf = buf.split("\n\n", 1)
            fields = {}
            for line in block.split("\n"):
                if line.startswith(":") or ":" not in line:
                    continue
                k, v = line.split(":", 1)
                fields[k] = v.strip()
            if "id" in fields:
                out.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
        if out and out[-1][0] >= until_id:
            break
    response.close()
    return out


def test_events_carry_the_journal_seq_and_replay_after_last_event_id(client, table):
    play(table, OPENING + [{"command": "throw", "dice": [3, 3]}])
    r = client.get("/api/events", headers={"Last-Event-ID": "3"}, buffered=False)
    assert r.mimetype == "text/event-stream"
    events = read_events(r, 6)
    assert [s for s, _, _ in events] == [4, 5, 6, 6]
    assert [n for _, n, _ in events] == ["center_bet_made", "faded", "come_out", "point_set"]
    assert events[2][2]["dice"] == [3, 3]
    assert events[2][2]["text"] == "ann throws 3 + 3 = 6"


def test_since_param_and_live_events_in_order(client, table):
    play(table, OPENING)
    r = client.get("/api/events?since=5", buffered=False)
    next(r.response)  # the opening (retry and a comment)
    table.submit({"command": "throw", "dice": [1, 1]})
    events = read_events(r, 6)
    assert [(s, n) for s, n, _ in events] == [(6, "come_out"), (6, "craps"),
                                               (6, "center_settled")]


def test_russian_text_with_the_event(client, table):
    play(table, OPENING)
    r = client.get("/api/events?since=0", headers={"Accept-Language": "ru"}, buffered=False)
    events = read_events(r, 1)
    assert events[0][2]["text"] == "ann садится за стол с 100 единиц"


def test_a_comment_keeps_the_line_alive(table, state_dir):
    app = create_app(table, {"STATE_DIR": state_dir, "SSE_WAIT_SECONDS": 0.02,
                             "SSE_KEEPALIVE_SECONDS": 0.05})
    r = app.test_client().get("/api/events", buffered=False)
    seen = "".join(next(r.response).decode() for _ in range(3))
    r.close()
    assert ": keepalive\n\n" in seen


def test_streams_beyond_the_cap_get_503(table, state_dir):
    app = create_app(table, {"STATE_DIR": state_dir, "SSE_MAX_STREAMS": 1,
                             "SSE_WAIT_SECONDS": 0.02})
    c = app.test_client()
    first = c.get("/api/events", buffered=False)
    next(first.response)
    second = c.get("/api/events")
    assert second.status_code == 503 and second.headers["Retry-After"]
    first.close()
    third = c.get("/api/events", buffered=False)
    assert third.status_code == 200
    third.close()


def test_a_bad_last_event_id_is_400(client):
    assert client.get("/api/events", headers={"Last-Event-ID": "abc"}).status_code == 400
