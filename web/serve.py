"""Serve the dashboard with waitress in a background thread (``tablectl run`` / ``demo``).

Each open event stream (one per phone) holds one of waitress's threads for as long as the page
is open, so the pool has ``STREAM_SLOTS`` threads for phones plus ``SPARE_THREADS`` for the
console, the pages and the pictures. A phone beyond ``STREAM_SLOTS`` gets 503 on
``/api/events`` and its page polls ``/api/state`` every few seconds instead.
"""

from __future__ import annotations

import logging
import socket
import threading
from pathlib import Path

import segno
import waitress

from web import create_app
from web.security import ensure_pin

log = logging.getLogger("tablectl.web")

STREAM_SLOTS = 58       # 50 phones and a margin
SPARE_THREADS = 8       # the console, page loads, pictures, polling fallbacks
THREADS = STREAM_SLOTS + SPARE_THREADS


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), else 127.0.0.1."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def public_url(host: str, port: int) -> str:
    """The address phones open: the LAN address when serving on every interface."""
    if host in ("", "0.0.0.0", "::"):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with block characters, for a terminal."""
    qr = segno.make(url, error="m")
    # two modules per character row: "▀" top, "▄" bottom, "█" both; dark on light terminals
    # and light on dark ones both scan when a quiet zone surrounds it
    matrix = [list(row) for row in qr.matrix_iter(scale=1, border=2)]
    lines = []
    for y in range(0, len(matrix), 2):
        top = matrix[y]
        bottom = matrix[y + 1] if y + 1 < len(matrix) else [0] * len(top)
        line = []
        for t, b in zip(top, bottom, strict=True):
            # light modules are drawn (a dark terminal shows the code as dark-on-light)
            t, b = not t, not b
            line.append("█" if t and b else "▀" if t else "▄" if b else " ")
        lines.append("".join(line))
    return "\n".join(lines)


class Server:
    """The running dashboard.

    url: the address phones open (``http://HOST:PORT/``).
    new_pin: the operator PIN this start set (first run), else None; show it once.
    """

    def __init__(self, app, wsgi_server, url: str, new_pin: str | None) -> None:
        self.app = app
        self.url = url
        self.new_pin = new_pin
        self._wsgi = wsgi_server
        self._thread = threading.Thread(target=self._run, name="tablectl-web", daemon=True)
        self._stopped = False

    def _run(self) -> None:
        try:
            self._wsgi.run()
        except OSError:  # the listening socket closed under it by stop()
            pass

    def qr_text(self) -> str:
        """The dashboard's address as a QR code for the terminal."""
        return qr_text(self.url)

    def stop(self, timeout: float = 5.0) -> None:
        """Close the listening socket and every connection; wait up to ``timeout`` s."""
        if self._stopped:
            return
        self._stopped = True
        wsgi = self._wsgi
        try:
            wsgi.close()
            for channel in list(wsgi._map.values()):
                channel.close()
            wsgi.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)
        finally:
            self._thread.join(timeout)
            self.app.extensions["tablectl.sessions"].close()


def start(table, *, host: str, port: int, state_dir: Path, calibrator=None,
          test_config: dict | None = None) -> Server:
    """Serve ``table``'s dashboard on ``host:port`` (port 0: any free port) in the background.

    state_dir: where the PIN hash, the sessions and the failed-login count are kept; the PIN is
        set here on the first start (``Server.new_pin``).
    calibrator: a ``web.calibrate.Calibrator`` (fresh frames and the config file to write) for
        the calibration screen; None hides it.
    """
    state_dir = Path(state_dir)
    pin = ensure_pin(state_dir)
    config = {"STATE_DIR": state_dir, "SSE_MAX_STREAMS": STREAM_SLOTS, "CALIBRATOR": calibrator}
    config.update(test_config or {})
    app = create_app(table, config)
    wsgi = waitress.create_server(
        app, host=host, port=port, threads=THREADS, connection_limit=THREADS + 100,
        # lets a stream see that its phone went away (waitress.client_disconnected)
        channel_request_lookahead=4, ident="tablectl", clear_untrusted_proxy_headers=True,
        max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
    )
    url = public_url(host, wsgi.effective_port)
    server = Server(app, wsgi, url, pin)
    server._thread.start()
    log.info("dashboard at %s (%d threads)", url, THREADS)
    return server
