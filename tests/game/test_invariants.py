"""Hypothesis: invariants over random command sequences (refused commands are skipped).

Money is conserved (balances + escrow change only by buy-ins and cash-outs), escrow matches the
open stakes, no bet is decided twice, a refusal changes nothing, replaying the accepted commands
rebuilds the same game and events, and a snapshot round trip (through JSON) continues the same.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablectl.game import CommandError, Game, RuleViolation, TableRules

NAMES = ["ann", "bob", "cy", "dee", "eve"]
player = st.sampled_from(NAMES)
units = st.integers(1, 60)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6)).map(list)
outcome = st.one_of(st.integers(2, 12), st.sampled_from(["6-5", "3-3", "1-2", "4-4", "2-5"]))


def cmd(name, **fields):
    return st.fixed_dictionaries({k: v for k, v in fields.items()}).map(
        lambda d: {"command": name, **d})


@st.composite
def side_bet(draw):
    kind = draw(st.sampled_from(["line", "point", "come", "hardway", "number", "proposition"]))
    a, b = draw(st.lists(player, min_size=2, max_size=2, unique=True))
    c = {"command": "side_bet", "id": draw(st.integers(0, 40)), "kind": kind, "for": a,
         "against": b, "stakes": {a: draw(units), b: draw(units)}}
    if kind == "hardway":
        c["number"] = draw(st.sampled_from([4, 6, 8, 10]))
    elif kind == "number":
        c["number"] = draw(st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
    elif kind == "proposition":
        wins = draw(st.lists(outcome, min_size=1, max_size=3))
        c["wins"] = wins
        if draw(st.booleans()):
            c["within"] = draw(st.integers(1, 4))
            if draw(st.booleans()):
                c["loses"] = [7]
        else:
            c["loses"] = [7]
        if 7 in wins or "2-5" in wins:
            c.pop("loses", None)
            c["within"] = c.get("within", 2)
    return c


throw = cmd("throw", dice=dice)
command = st.one_of(
    throw, throw, throw, throw, throw, throw,
    cmd("join", player=player, buy_in=st.integers(1, 300)),
    cmd("leave", player=player),
    cmd("shooter", player=player),
    cmd("center_bet", amount=units), cmd("center_bet", amount=units),
    cmd("fade", player=player, amount=units), cmd("fade", player=player, amount=units),
    cmd("fade", player=player, amount=units, claim=st.just(True)),
    cmd("raise", amount=st.integers(1, 120)),
    cmd("take_down"), cmd("no_bet"),
    side_bet(), side_bet(), side_bet(),
    cmd("call_off", id=st.integers(0, 40), player=player),
    cmd("carry", id=st.integers(0, 40)),
    cmd("dice_rolling"),
    cmd("void", rule=st.sampled_from(["R-I1", "R-I2", "R-I3"]), reason=st.just("x")),
    cmd("await_ruling", rule=st.just("R-I2"), reason=st.just("cocked")),
    cmd("operator_ruling", by=st.just("op"), why=st.just("seen"), dice=dice),
    cmd("operator_ruling", by=st.just("op"), void=st.just(True)),
    cmd("warn", rule=st.sampled_from(["R-I3", "R-I5"])),
    cmd("substitute", player=player),
    cmd("bar", player=player),
    cmd("pass_dice"),
    cmd("change_dice"),
)
opening = [{"command": "join", "player": p, "buy_in": 200} for p in NAMES[:4]] + [
    {"command": "shooter", "player": "ann"}]
rules = st.builds(TableRules, min_players=st.integers(2, 3),
                  warnings_before_sanction=st.integers(0, 2), fade_first_claim=st.booleans(),
                  dice_pairs=st.integers(1, 3))


def open_stakes(g: Game) -> dict:
    stakes = {p: 0 for p in g.ledger.escrow}
    if g.center is not None:
        for p, u in g.center.stakes().items():
            stakes[p] += u
    for b in g.bets.values():
        stakes[b.backer] += b.stake_for
        stakes[b.layer] += b.stake_against
    return stakes


def check(g: Game) -> None:
    ledger = g.ledger
    assert g.money_total() == ledger.bought_in_total - ledger.cashed_out_total
    assert ledger.escrow == open_stakes(g)
    assert all(v >= 0 for v in ledger.balances.values())
    assert set(g.seats) | set(g.leaving) == set(ledger.balances)
    # an open bet settles on the accounts it holds: they must be the ledger's own
    for b in g.bets.values():
        assert b.backing is ledger.accounts[b.backer] and b.laying is ledger.accounts[b.layer]
    assert g.shooter is None or (g.shooter in g.seats and g.shooter not in g.barred)


def play(rules_, commands):
    """Apply all; return (game, accepted commands, events per accepted command)."""
    g = Game(rules_)
    accepted, outputs = [], []
    decided: set = set()
    last: set = set()  # decided by the last accepted command
    for c in opening + commands:
        before = g.snapshot()
        try:
            events = g.apply(c)
        except RuleViolation as exc:
            assert exc.rule.startswith("R-")
            assert g.snapshot() == before, f"refused {c} changed the state"
            continue
        except CommandError as exc:  # generated commands are well formed except these
            assert c["command"] == "side_bet", exc
            assert g.snapshot() == before
            continue
        now = {e["id"] for e in events
               if e["event"] in ("side_bet_won", "side_bet_lost", "side_bet_returned")}
        if events and events[0].get("override"):  # the overridden throw decided nothing
            decided -= last
        assert not (now & decided), f"bet(s) {now & decided} decided twice"
        assert not (now & set(g.bets))
        decided |= now
        if c["command"] != "warn":  # a warning keeps its throw open to the override
            last = now
        json.dumps(events)
        accepted.append(c)
        outputs.append(events)
        check(g)
    return g, accepted, outputs


@st.composite
def evening(draw, max_steps=150):
    """Commands drawn from the state of a game played alongside: mostly legal, some not.

    A blind random list mostly stalls (an unfaded center bet or a pending ruling blocks the
    throws), so each step looks at the game and favours what can go on from there.
    """
    rules_ = draw(rules)
    g = Game(rules_)
    for c in opening:
        g.apply(c)
    commands = []
    next_id = 0
    for _ in range(draw(st.integers(0, max_steps))):
        c = None
        if g.pending_ruling is not None and draw(st.integers(0, 9)):
            c = draw(st.sampled_from([
                {"command": "operator_ruling", "by": "op", "why": "seen"},
                {"command": "operator_ruling", "by": "op", "void": True}]))
            if "void" not in c:
                c = {**c, "dice": draw(dice)}
        elif g.center is not None and g.point is None and g.center.open and draw(st.booleans()):
            others = [p for p in g.seats if p != g.center.shooter] or ["ann"]
            c = draw(st.sampled_from([
                {"command": "fade", "player": draw(st.sampled_from(others)),
                 "amount": draw(st.integers(1, g.center.open))},
                {"command": "take_down"}, {"command": "no_bet"}]))
        else:
            what = draw(st.sampled_from(["throw"] * 8 + ["center"] * 2 + ["side"] * 4
                                        + ["call_off", "carry", "any", "any", "any"]))
            if what == "throw":
                c = {"command": "throw", "dice": draw(dice)}
            elif what == "center":
                c = {"command": "center_bet", "amount": draw(units)}
            elif what == "side":
                c = draw(side_bet())
                if draw(st.integers(0, 4)):  # mostly a fresh id
                    c["id"] = next_id
                    next_id += 1
            elif what in ("call_off", "carry") and g.bets:
                bet = g.bets[draw(st.sampled_from(list(g.bets)))]
                c = {"command": what, "id": bet.id,
                     "player": draw(st.sampled_from([bet.backer, bet.layer, "cy"]))}
            else:
                c = draw(command)
        commands.append(c)
        try:
            g.apply(c)
        except (RuleViolation, CommandError):
            pass
    return rules_, commands


SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(evening())
def test_invariants_money_escrow_and_no_double_decision(drawn):
    play(*drawn)


@SETTINGS
@given(rules, st.lists(command, max_size=60))
def test_invariants_hold_for_blind_random_commands(rules_, commands):
    play(rules_, commands)


@SETTINGS
@given(evening(), st.integers(0, 200))
def test_replay_and_snapshot_round_trip_continue_identically(drawn, cut):
    rules_, commands = drawn
    g, accepted, outputs = play(rules_, commands)
    # replaying the accepted commands gives the same events and the same snapshot
    replay = Game(rules_)
    assert [replay.apply(c) for c in accepted] == outputs
    assert replay.snapshot() == g.snapshot()
    # a game restored from a JSON snapshot taken midway continues exactly like the original
    cut = min(cut, len(accepted))
    first = Game(rules_)
    for c in accepted[:cut]:
        first.apply(c)
    restored = Game.from_snapshot(json.loads(json.dumps(first.snapshot())))
    assert restored.snapshot() == first.snapshot()
    assert restored.state() == first.state()
    check(restored)
    assert [restored.apply(c) for c in accepted[cut:]] == outputs[cut:]
    assert restored.snapshot() == g.snapshot()


@SETTINGS
@given(evening(), dice, st.booleans())
def test_operator_override_equals_playing_the_other_dice(drawn, other, void):
    rules_, commands = drawn
    g, accepted, outputs = play(rules_, commands + [{"command": "throw", "dice": [2, 2]}])
    if not accepted or accepted[-1]["command"] != "throw":
        return
    ruling = {"command": "operator_ruling", "by": "op", "why": "seen"}
    ruling.update({"void": True} if void else {"dice": other})
    events = g.apply(ruling)
    assert events[0]["override"] and events[0]["previous"] == accepted[-1]["dice"]
    straight = Game(rules_)
    for c in accepted[:-1]:
        straight.apply(c)
    if void:
        expected = straight.apply({"command": "void", "rule": "R-I2", "reason": "seen"})
    else:
        expected = straight.apply({"command": "throw", "dice": other})
        assert events[1:] == expected
    got = events[1:]
    assert [e["event"] for e in got] == [e["event"] for e in expected]
    assert straight.snapshot() == g.snapshot()
    check(g)
