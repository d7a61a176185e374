"""Phones on the event stream: N clients on GET /api/events while a throw comes every second.

The server (a real Table on a fresh SQLite journal, served by ``web.serve`` with waitress) runs
in its own process, which also plays the throws and prints when each one's commit returned.
This process holds the phones: one socket per stream.
The phones share one thread (a selector), so that a phone's receipt time is taken when its
bytes arrive rather than when a thread of its own gets the interpreter. At the end every phone's events are compared with the journal's rows (every event, in order,
none twice), and it prints the delay from commit to receipt (p50, p99, max) and the server
process's memory before the phones connected and after the run.

    .venv/bin/python bench/sse.py [--clients 50] [--seconds 60] [--interval 1.0]

Run it pinned (``taskset -c 0``) and repeat it: on a shared machine the figures are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SERVER = r"""
import json, random, sys, time
from pathlib import Path
from tablectl.journal import Journal
from tablectl.table import Table
from web import serve

folder, seconds, interval, seed = Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
table = Table(Journal.open(folder / "evening.sqlite"))
for c in ({"command": "join", "player": "ann", "buy_in": 10000},
          {"command": "join", "player": "bob", "buy_in": 10000},
          {"command": "shooter", "player": "ann"}):
    table.submit(c)
server = serve.start(table, host="127.0.0.1", port=0, state_dir=folder / "state")
print(json.dumps({"url": server.url, "seq": table.state()["seq"]}), flush=True)
sys.stdin.readline()  # the phones are connected
rng = random.Random(seed)
end = time.monotonic() + seconds
next_at = time.monotonic()
while next_at < end:
    time.sleep(max(0.0, next_at - time.monotonic()))
    dice = [rng.randint(1, 6), rng.randint(1, 6)]
    t0 = time.monotonic()
    table.submit({"command": "throw", "dice": dice})
    t1 = time.monotonic()
    print(json.dumps({"seq": table.state()["seq"], "t0": t0, "t1": t1}), flush=True)
    next_at += interval
print(json.dumps({"done": True}), flush=True)
sys.stdin.readline()  # the phones have read everything
server.stop()
table.close()
"""


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


class Phone:
    """One stream on its own socket (HTTP/1.0: the stream comes unchunked): records
    (seq, event name, receipt time) of every event."""

    def __init__(self, host: str, port: int, since: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=30)
        self.sock.sendall(f"GET /api/events?since={since} HTTP/1.0\r\nHost: {host}\r\n"
                          f"\r\n".encode())
        self.sock.setblocking(False)
        self.events: list[tuple[int, str, float]] = []
        self.buf = b""
        self.status: str | None = None
        self.closed = False

    def read(self, now_fn=time.monotonic) -> None:
        try:
            chunk = self.sock.recv(262144)
        except BlockingIOError:
            return
        now = now_fn()
        if not chunk:
            self.closed = True
            return
        self.buf += chunk
        if self.status is None:
            if b"\r\n\r\n" not in self.buf:
                return
            head, self.buf = self.buf.split(b"\r\n\r\n", 1)
            self.status = head.split(b"\r\n", 1)[0].decode()
        while b"\n\n" in self.buf:
            block, self.buf = self.buf.split(b"\n\n", 1)
            seq = name = None
            for line in block.split(b"\n"):
                if line.startswith(b"id:"):
                    seq = int(line[3:])
                elif line.startswith(b"event:"):
                    name = line[6:].strip().decode()
            if seq is not None and name != "table_status":
                self.events.append((seq, name, now))


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--interval", type=float, default=1.0, help="seconds between throws")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)

    from tablectl.journal import read_rows

    folder = Path(tempfile.mkdtemp(prefix="tablectl-sse-"))
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(folder), str(args.seconds), str(args.interval),
         str(args.seed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    hello = json.loads(server.stdout.readline())
    host, port = "127.0.0.1", int(hello["url"].rsplit(":", 1)[1].strip("/"))
    start_seq = hello["seq"]
    time.sleep(0.5)
    rss_before = rss_kib(server.pid)

    phones = [Phone(host, port, start_seq) for _ in range(args.clients)]
    sel = selectors.DefaultSelector()
    for p in phones:
        sel.register(p.sock, selectors.EVENT_READ, p)

    def pump(until) -> None:
        while not until():
            for key, _ in sel.select(timeout=0.05):
                phone = key.data
                phone.read()
                if phone.closed:
                    sel.unregister(phone.sock)

    t_connect = time.monotonic()
    pump(lambda: all(p.status is not None or p.closed for p in phones)
         or time.monotonic() - t_connect > 30)
    refused = [p.status for p in phones if p.status is None or " 200 " not in p.status]
    commits: dict[int, tuple[float, float]] = {}
    done = threading.Event()

    def read_commits() -> None:
        for line in server.stdout:
            msg = json.loads(line)
            if msg.get("done"):
                break
            commits[msg["seq"]] = (msg["t0"], msg["t1"])
        done.set()

    reader = threading.Thread(target=read_commits, daemon=True)
    reader.start()
    server.stdin.write("go\n")
    server.stdin.flush()
    pump(done.is_set)
    last = max(commits)
    deadline = time.monotonic() + 10
    pump(lambda: time.monotonic() > deadline or all(
        p.closed or (p.events and p.events[-1][0] >= last) for p in phones))
    rss_after = rss_kib(server.pid)
    for p in phones:
        p.sock.close()
    server.stdin.write("stop\n")
    server.stdin.flush()
    server.wait(30)

    journal = [(r.seq, e["event"]) for r in read_rows(folder / "evening.sqlite", since=start_seq)
               for e in r.events]
    ok = 0
    problems = []
    delays, submit_delays = [], []
    for i, p in enumerate(phones):
        got = [(s, name) for s, name, _ in p.events]
        if p.status is None or " 200 " not in p.status:
            problems.append(f"phone {i}: {p.status}")
        elif got != journal:
            missing = len(set(journal) - set(got))
            twice = len(got) - len(set(got))
            problems.append(f"phone {i}: {len(got)} events vs {len(journal)} in the journal "
                            f"({missing} missing, {twice} twice, order "
                            f"{'kept' if sorted(got) == got else 'broken'})")
        else:
            ok += 1
        seen = set()
        for s, _, at in p.events:
            if s in commits and s not in seen:  # the first event of each throw's row
                seen.add(s)
                delays.append((at - commits[s][1]) * 1000)
                submit_delays.append((at - commits[s][0]) * 1000)

    print(f"phones: {args.clients} ({len(refused)} refused), throws: {len(commits)} "
          f"every {args.interval:g} s over {args.seconds:g} s, journal events: {len(journal)}")
    print(f"every event to every phone, in order, none twice: {ok} of {args.clients} phones")
    for line in problems[:10]:
        print("  " + line)
    print(f"commit -> receipt (ms): p50 {percentile(delays, 50):.1f}  "
          f"p99 {percentile(delays, 99):.1f}  max {max(delays, default=float('nan')):.1f}  "
          f"(target p99 < 50)")
    print(f"submit -> receipt (ms, with the journal's fsync): p50 "
          f"{percentile(submit_delays, 50):.1f}  p99 {percentile(submit_delays, 99):.1f}")
    print(f"server memory (RSS): {rss_before / 1024:.1f} MiB before the phones, "
          f"{rss_after / 1024:.1f} MiB after the run")
    return 0 if ok == args.clients else 1


if __name__ == "__main__":
    random.seed(0)
    sys.exit(main())
