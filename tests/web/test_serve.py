"""web.serve: waitress in a thread over a real Table; the first start sets the PIN; the QR text;
stop() returns with streams open. And `tablectl pin reset`."""

from __future__ import annotations

import http.client
import json
import time
from urllib.parse import urlparse

import segno

from tablectl.cli import main
from tablectl.journal import Journal
from tablectl.table import Table
from web import serve
from web.security import SessionStore, check_pin


def get(url: str, path: str):
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    conn.request("GET", path)
    return conn, conn.getresponse()


def test_serves_the_state_and_sets_the_pin_once(tmp_path):
    table = Table(Journal.open(tmp_path / "j.sqlite"))
    try:
        server = serve.start(table, host="127.0.0.1", port=0, state_dir=tmp_path / "state")
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/")
        assert server.new_pin and check_pin(tmp_path / "state", server.new_pin)
        table.submit({"command": "join", "player": "ann", "buy_in": 20})
        conn, r = get(server.url, "/api/state")
        assert r.status == 200 and json.loads(r.read())["seq"] == 1
        conn.close()
        # a stream stays open while the server stops
        stream_conn, stream = get(server.url, "/api/events?since=0")
        assert b"joined" in stream.read1(4096) + stream.read1(4096)
        t0 = time.monotonic()
        server.stop()
        assert time.monotonic() - t0 < 5
        stream_conn.close()
        again = serve.start(table, host="127.0.0.1", port=0, state_dir=tmp_path / "state")
        assert again.new_pin is None  # never set twice, never a default
        again.stop()
    finally:
        table.close()


def test_the_pool_has_room_for_fifty_phones_and_the_console():
    assert serve.STREAM_SLOTS >= 51 and serve.THREADS > serve.STREAM_SLOTS


def test_qr_text_is_the_address_as_a_qr_code():
    url = "http://192.168.1.20:8765/"
    text = serve.qr_text(url)
    lines = text.split("\n")
    size = segno.make(url, error="m").symbol_size(scale=1, border=2)[0]
    assert all(len(line) == size for line in lines)
    assert len(lines) == (size + 1) // 2
    # read the modules back (light ones are drawn) and compare with segno's matrix
    matrix = [list(r) for r in segno.make(url, error="m").matrix_iter(scale=1, border=2)]
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            assert (ch in "█▀") == (not matrix[2 * y][x])
            if 2 * y + 1 < len(matrix):
                assert (ch in "█▄") == (not matrix[2 * y + 1][x])


def test_public_url_names_the_lan_address_for_every_interface():
    assert serve.public_url("127.0.0.1", 80) == "http://127.0.0.1:80/"
    assert not serve.public_url("0.0.0.0", 8765).startswith("http://0.0.0.0")


def test_pin_reset_prints_a_new_pin_and_ends_sessions(tmp_path, capsys):
    state = tmp_path / "state"
    store = SessionStore(state)
    old = store.create()
    assert main(["pin", "reset", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    pin = out.split("operator PIN: ")[1].split()[0]
    assert check_pin(state, pin)
    assert store.get(old.id) is None
    store.close()
