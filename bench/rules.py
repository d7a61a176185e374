"""Rules-engine benchmark: a table starting on a 100,000-throw journal, and the engine playing
that journal, against crapssim.

    .venv/bin/python bench/rules.py                 # 100,000 throws (targets below)
    .venv/bin/python bench/rules.py --throws 2000   # a quick run
    .venv/bin/python bench/rules.py --no-start      # the engine alone (no journal file)

The journal (a list of command dicts, the form the SQLite journal stores) is generated with a
seed by driving a live Game, so every command in it is one the rules accept: four players, a
center bet faded before each come-out, and 2..12 side bets open at all times (line, come, point,
hardway, number and proposition bets).

The figure the target applies to is a table's start on that journal: it is written to a real
SQLite journal (``Journal.apply_all``) and the table is opened on it as ``tablectl run`` opens
it (``Journal.open``, then ``Table``). A start does not replay the 100,000 throws: it checks
the whole file (integrity, every row's hash in the chain, the head record, the snapshots),
loads the newest snapshot and replays the rows after it (fewer than ``snapshot_every``) with
their events, which must be the recorded ones. So the start's cost is reading and hashing every
row, and it grows with the journal; the game's part is the few rows after the snapshot.

The engine alone is then timed on the same commands, as a journal reads them back (each row's
JSON text decoded), two ways: ``Game.rebuild`` (the state alone, no events: how the journal
rebuilds the game after a failed commit, from its newest snapshot) and ``Game.replay`` (every command's events too: what ``journal verify`` does over
the whole journal and a start over the rows after the snapshot). The same dice are then played
through crapssim (PyPI ``crapssim``) with four players carrying several bets each (pass, don't
pass, come, hardway, place, field, hop), and our throughput is printed as a ratio to crapssim's.

Targets: the table's start on the 100,000-throw journal < 2 s (wall: a long journal's chain is
checked by several processes at once, so the line also gives the CPU time of all of them and
how many there were), the engine's rebuild of the 100,000 throws < 2 s (CPU), and the engine's
throws/s (rebuild and replay) >= 20x crapssim's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from tablectl.game import Game, RuleViolation, TableRules  # noqa: E402
from tablectl.journal import Journal  # noqa: E402
from tablectl.table import Table  # noqa: E402

PLAYERS = ("ann", "bob", "cy", "dee")
BUY_IN = 10**12  # deep pockets: nobody goes broke in the run, so the load stays constant
TARGET_RATIO = 20.0
TARGET_START_S = 2.0
TARGET_THROWS = 100_000

# the proposition bets the journal mixes in (R-S7 a and b)
PROPOSITIONS = (
    {"wins": [2, 3, 12], "within": 1},  # any craps, one throw
    {"wins": ["6-5"], "within": 1},  # eleven 6-5, one throw
    {"wins": ["3-3"], "within": 3},  # a pair of threes within three throws
    {"wins": [7], "within": 2},
    {"wins": [12], "loses": [4]},  # 12 before 4 (R-Q1's 3-1)
    {"wins": [5, 9], "loses": [7]},
    {"wins": ["4-4", "5-5"], "loses": [7, 11]},
    {"wins": [6, 8], "loses": [7], "within": 4},
)


class JournalBuilder:
    """Builds a valid journal by playing a live Game; tracks what the generator must know."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.game = Game(rules=TableRules())
        self.journal: list[dict] = []
        self.open_bets: dict[str, str] = {}  # id -> the player backing it
        self.callable: set[str] = set()  # come bets the bettors may call off or carry (R-S4)
        self.point: int | None = None
        self.next_id = 0
        self.throws = 0
        self.refused = 0

    def do(self, command: dict) -> list[dict] | None:
        try:
            events = self.game.apply(command)
        except RuleViolation:
            self.refused += 1  # not journaled: a refused command changes nothing
            return None
        self.journal.append(command)
        for event in events:
            name = event["event"]
            if name == "side_bet_made":
                self.open_bets[event["id"]] = event["for"]
            elif name in ("side_bet_won", "side_bet_lost", "side_bet_returned"):
                self.open_bets.pop(event["id"], None)
                self.callable.discard(event["id"])
            elif name == "side_bet_callable":  # R-S4: carry it or call it off before next throw
                self.callable.add(event["id"])
            elif name == "point_set":
                self.point = event["point"]
            elif name in ("point_made", "seven_out"):
                self.point = None
        if command["command"] == "throw":
            self.callable -= {i for i in self.callable if i not in self.open_bets}
        return events

    def seat_players(self) -> None:
        for player in PLAYERS:
            self.do({"command": "join", "player": player, "buy_in": BUY_IN})
        self.do({"command": "shooter", "player": PLAYERS[0]})

    def center_bet(self) -> None:
        """R-C1..R-C5: the shooter's center bet, faded by the others (sometimes taken down)."""
        rng = self.rng
        shooter = self.game.state()["shooter"]
        amount = rng.randint(5, 60)
        self.do({"command": "center_bet", "amount": amount})
        faders = [p for p in PLAYERS if p != shooter]
        rng.shuffle(faders)
        left = amount
        for i, fader in enumerate(faders[: rng.randint(1, 3)]):
            if left <= 0:
                break
            last = i == 2 or rng.random() < 0.4
            part = left if last else rng.randint(1, left)
            self.do({"command": "fade", "player": fader, "amount": part})
            left -= part
        if left > 0:
            self.do({"command": "take_down"})

    def side_bet(self, point: int | None) -> None:
        """One side bet of a random kind the phase allows (R-S1..R-S7)."""
        rng = self.rng
        backer, layer = rng.sample(PLAYERS, 2)
        kinds = ["come", "hardway", "number", "proposition", "proposition"]
        kinds.append("line" if point is None else "point")
        kind = rng.choice(kinds)
        self.next_id += 1
        bet_id = f"b{self.next_id}"
        command = {
            "command": "side_bet", "id": bet_id, "kind": kind, "for": backer, "against": layer,
            "stakes": {backer: rng.randint(1, 20), layer: rng.randint(1, 20)},
        }
        if kind == "hardway":
            command["number"] = rng.choice((4, 6, 8, 10))
        elif kind == "number":
            command["number"] = rng.choice((2, 3, 4, 5, 6, 8, 9, 10, 11, 12))
        elif kind == "proposition":
            command.update(rng.choice(PROPOSITIONS))
        self.do(command)

    def build(self, throws: int) -> list[dict]:
        rng = self.rng
        self.seat_players()
        while self.throws < throws:
            point = self.point
            if point is None:
                self.center_bet()
            target = rng.randint(2, 12)
            for _ in range(30):  # top up to the target (a refusal just costs a try)
                if len(self.open_bets) >= target:
                    break
                self.side_bet(point)
            self.settle_pending_come_bets()
            dice = [rng.randint(1, 6), rng.randint(1, 6)]
            if self.do({"command": "throw", "dice": dice}) is not None:
                self.throws += 1
        return self.journal

    def settle_pending_come_bets(self) -> None:
        """R-S4: come bets whose shooter made his point are carried on (or, now and then,
        called off) when the engine asks for it."""
        for bet_id in sorted(self.callable):
            if self.rng.random() < 0.8:
                self.do({"command": "carry", "id": bet_id})
            else:
                self.do({"command": "call_off", "id": bet_id, "player": self.open_bets[bet_id]})
        self.callable.clear()  # the option lapses with the next throw in any case


def replay(journal: list[dict]) -> tuple[float, float, Game]:
    """Seconds (wall, CPU) to replay the journal's commands with their events, as ``journal
    verify`` and a start do (``Game.replay``: a fresh Game, every command's events in turn),
    then read its state."""
    start, cpu = time.perf_counter(), time.process_time()
    game = Game(rules=TableRules())
    for _events in game.replay(journal):
        pass
    game.state()
    return time.perf_counter() - start, time.process_time() - cpu, game


def rebuild(journal: list[dict]) -> tuple[float, float, Game]:
    """Seconds (wall, CPU) to rebuild the state alone from the journal's commands, as the
    journal does after a failed commit (``Game.rebuild``: no events built), then read it."""
    start, cpu = time.perf_counter(), time.process_time()
    game = Game(rules=TableRules())
    game.rebuild(journal)
    game.state()
    return time.perf_counter() - start, time.process_time() - cpu, game


def table_start(journal: list[dict], repeat: int) -> dict:
    """Write ``journal`` to a SQLite journal in a temporary folder, then open a table on it
    ``repeat`` times as ``tablectl run`` does (``Journal.open``, ``Table``; no camera, no
    lamps): the best wall and CPU seconds, and what the start did."""
    with tempfile.TemporaryDirectory(prefix="tablectl-bench-") as folder:
        path = Path(folder) / "table.db"
        t0 = time.perf_counter()
        with Journal.open(path, TableRules()) as writer:
            writer.apply_all(journal)
        write_s = time.perf_counter() - t0
        walls, cpus = [], []
        for _ in range(repeat):
            start, cpu = time.perf_counter(), all_cpu()
            opened = Journal.open(path)
            table = Table(opened, state_dir=folder)
            walls.append(time.perf_counter() - start)
            cpus.append(all_cpu() - cpu)
            seen = table.state()["seq"]
            resumed_from, replayed = opened.resumed_from, opened.replayed
            processes = opened.chain_processes
            table.close()
        assert seen == len(journal), "the table did not start on the whole journal"
        best = min(range(repeat), key=walls.__getitem__)
        return {"wall": walls[best], "cpu": cpus[best], "walls": walls, "write_s": write_s,
                "bytes": sum(p.stat().st_size for p in Path(folder).glob("table.db*")),
                "resumed_from": resumed_from, "replayed": replayed, "processes": processes}


def all_cpu() -> float:
    """CPU seconds of this process and of its children waited for (the chain check's workers):
    what a start costs in all the processes it runs."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def crapssim_run(dice: list[tuple[int, int]]) -> tuple[float, float, int] | None:
    """Seconds (wall, CPU) for crapssim to play ``dice`` with four players holding several bets
    each, and the number of bets open at the end; None if crapssim is not installed."""
    try:
        from crapssim.strategy import BetDontPass, BetPassLine, BetPlace
        from crapssim.strategy.single_bet import BetCome, BetField, BetHardWay, BetHop
        from crapssim.table import Table
    except ImportError:
        return None
    table = Table(seed=0)
    for i, player in enumerate(PLAYERS):
        strategy = (
            BetPassLine(10) + BetDontPass(10) + BetCome(5) + BetHardWay((6, 8)[i % 2], 1)
            + BetPlace({(5, 6, 8, 9)[i]: 5}) + BetField(2) + BetHop((3, 3), 1)
        )
        table.add_player(bankroll=BUY_IN, strategy=strategy, name=player)
    start, cpu = time.perf_counter(), time.process_time()
    table.fixed_run(dice, verbose=False)
    return (time.perf_counter() - start, time.process_time() - cpu,
            sum(len(p.bets) for p in table.players))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throws", type=int, default=TARGET_THROWS,
                        help=f"throws in the journal (default {TARGET_THROWS:,})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the journal (default 1)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="replays to time; the best is reported (default 3)")
    parser.add_argument("--no-start", action="store_true",
                        help="leave out the table's start (writing the journal file takes a "
                             "while)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.throws < 1 or args.repeat < 1:
        parser.error("--throws and --repeat must be at least 1")

    t0 = time.perf_counter()
    builder = JournalBuilder(args.seed)
    journal = builder.build(args.throws)
    build_s = time.perf_counter() - t0
    dice = [tuple(c["dice"]) for c in journal if c["command"] == "throw"]
    n = len(dice)
    counts: dict[str, int] = {}
    for c in journal:
        key = c["kind"] if c["command"] == "side_bet" else None
        if key:
            counts[key] = counts.get(key, 0) + 1

    # the engine is timed on the commands as a journal reads them back (each row's JSON text
    # decoded, as Journal.open and a rebuild after a failed commit do), not on the builder's
    # own dicts: those lie scattered among the builder's objects, which made the same rebuild
    # 5-15% slower (memory, not the engine)
    commands = [json.loads(json.dumps(c)) for c in journal]
    timed = {}
    for name, play in (("rebuild", rebuild), ("replay", replay)):
        walls, cpus = [], []
        for _ in range(args.repeat):
            wall, cpu, game = play(commands)
            walls.append(wall)
            cpus.append(cpu)
        assert game.snapshot() == builder.game.snapshot(), f"{name} did not rebuild the state"
        assert game.money_total() == BUY_IN * len(PLAYERS), "money was created or lost"
        timed[name] = min(walls), min(cpus), walls

    print(f"tablectl rules benchmark (seed {args.seed}, load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
    print(f"  journal: {len(journal):,} commands, {n:,} throws, 4 players, a faded center bet "
          f"each come-out; {builder.refused} refused while generating; built in {build_s:.1f} s")
    print("  side bets made: " + ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())))
    rows = [("", "wall", "CPU", "")]
    labels = {"rebuild": "replay (rebuild state)", "replay": "replay with events"}
    for name, (wall, cpu, walls) in timed.items():
        rows.append((labels[name], f"{wall:.3f} s", f"{cpu:.3f} s",
                     f"best of {args.repeat}: " + ", ".join(f"{t:.3f}" for t in walls)))
    wall, cpu, _ = timed["rebuild"]
    rows.append(("tablectl throws/s (rebuild)", f"{n / wall:,.0f}", f"{n / cpu:,.0f}",
                 f"{len(journal) / cpu:,.0f} commands/s (CPU)"))
    ok = True
    peer = crapssim_run(dice)
    if peer is None:
        rows.append(("crapssim", "-", "-", "not installed: comparison skipped"))
    else:
        peer_wall, peer_cpu, peer_open = peer
        rows.append(("crapssim throws/s", f"{n / peer_wall:,.0f}", f"{n / peer_cpu:,.0f}",
                     f"4 players x 7 bets, same dice; {peer_open} bets open at the end"))
        for name, (wall, cpu, _) in timed.items():
            ratio = peer_cpu / cpu
            ok &= ratio >= TARGET_RATIO
            verdict = "OK" if ratio >= TARGET_RATIO else "BELOW TARGET"
            rows.append((f"ratio tablectl/crapssim ({name})", f"{peer_wall / wall:.1f}x",
                         f"{ratio:.1f}x", f"target >= {TARGET_RATIO:g}x: {verdict}"))
    scale = TARGET_THROWS / n
    note = "" if n == TARGET_THROWS else " (scaled from this run)"
    for name, (wall, cpu, _) in timed.items():
        verdict = ""
        if name == "rebuild":  # the "100,000-throw replay under 2 s": the state alone
            ok &= cpu * scale < TARGET_START_S
            verdict = (f"; CPU < {TARGET_START_S:g} s: "
                       + ("OK" if cpu * scale < TARGET_START_S else "BELOW TARGET"))
        rows.append((f"{name} of 100,000 throws", f"{wall * scale:.3f} s", f"{cpu * scale:.3f} s",
                     f"the engine alone, {len(journal) * scale:,.0f} commands{note}{verdict}"))
    if not args.no_start:
        start = table_start(journal, args.repeat)
        verdict = "OK" if start["wall"] * scale < TARGET_START_S else "BELOW TARGET"
        ok &= start["wall"] * scale < TARGET_START_S
        rows.append(("table start on 100,000 throws", f"{start['wall'] * scale:.3f} s",
                     f"{start['cpu'] * scale:.3f} s", f"wall < {TARGET_START_S:g} s: {verdict}"
                     f"{note}; best of {args.repeat} (wall): "
                     + ", ".join(f"{t:.3f}" for t in start["walls"])
                     + "; CPU of all its processes"))
        rows.append(("  what the start did", "", "",
                     f"checked {len(journal):,} rows ({start['bytes'] / 1e6:.0f} MB, written in "
                     f"{start['write_s']:.0f} s) in {start['processes']} process(es), "
                     f"integrity_check in a thread meanwhile; loaded the snapshot at row "
                     f"{start['resumed_from']:,}, replayed {start['replayed']} rows"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        line = f"  {r[0].ljust(widths[0])}  {r[1].rjust(widths[1])}  {r[2].rjust(widths[2])}  {r[3]}"
        print(line.rstrip())
    print("  (the engine's verdicts use CPU time: it equals wall time on an idle machine and "
          "leaves out the time spent waiting for a CPU while other jobs ran; the start's verdict "
          "uses wall time, as its chain check runs in several processes at once)")
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
