"""The settlement's decision tables agree with the bets' own ``decide()`` (R-S1..R-S7).

The settlement reads each open bet's answer from a table (``SideBet.table``, by what the line
did and the throw) built from ``decide()``; ``decide()`` states the rule. These tests check the two on
every table, and on random journals: before each throw a copy of every open bet is asked
``decide()``, and the throw's events must be what it answers. The throw's undo record, which
keeps only the progress the throw changes, is checked on the way: a snapshot taken right after
each throw must rebuild (``Game.from_snapshot`` replays the throw from the record's state and
compares), and an operator's override must put back the state before the throw.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablectl.game import RuleViolation
from tablectl.game.engine import Game
from tablectl.game.sidebets import (
    AGAINST,
    COME_POINT,
    COME_TABLES,
    COUNT,
    CRAPS,
    FOR,
    HARDWAY_TABLES,
    LINE_NONE,
    LINE_RESULTS,
    LINE_TABLES,
    NATURAL,
    NUMBER_TABLES,
    OPEN,
    POINT_MADE,
    POINT_SET,
    SEVEN_OUT,
    THROWS,
    SideBet,
    bet_from_dict,
    dice_index,
    parse_terms,
    table_key,
)

from .helpers import table


def test_THROWS_are_in_dice_index_order():
    assert [i for i, _, _ in THROWS] == list(range(36))
    assert THROWS[dice_index(3, 3)] == (dice_index(3, 3), 6, True)
    assert THROWS[dice_index(6, 5)] == (dice_index(6, 5), 11, False)


def decided(bet) -> tuple:
    """``bet.decide`` on every throw under every line result, at its ``table_key``."""
    answers = {table_key(i, line): bet.decide(i, t, h, line)
               for line in LINE_RESULTS for i, t, h in THROWS}
    return tuple(answers[k] for k in range(len(answers)))


def test_table_keys_cover_every_throw_and_line_once():
    keys = [table_key(i, line) for line in LINE_RESULTS for i, _, _ in THROWS]
    assert sorted(keys) == list(range(36 * len(LINE_RESULTS)))


def test_the_shared_tables_are_decide_on_every_throw():
    for n, tab in HARDWAY_TABLES.items():
        bet = SideBet("h", "hardway", "a", "b", 1, 1, {"number": n})
        assert bet.table is tab
        assert tab == decided(bet)
        assert tab[table_key(dice_index(n // 2, n // 2), LINE_NONE)] == FOR  # R-S5: the pair
    for n, tab in NUMBER_TABLES.items():
        bet = SideBet("n", "number", "a", "b", 1, 1, {"number": n})
        assert bet.table is tab
        assert tab == decided(bet)
    for cp, tab in COME_TABLES.items():
        bet = SideBet("c", "come", "a", "b", 1, 1, {})
        bet.set_come_point(cp)
        assert bet.table is tab
        assert tab == decided(bet)
    # R-S3: a 4 becomes its point, whatever the line did
    assert COME_TABLES[None][table_key(dice_index(2, 2), POINT_SET)] == COME_POINT


def test_line_bets_answer_by_the_line():
    for kind in ("line", "point"):
        bet = SideBet("l", kind, "a", "b", 1, 1, {})
        assert bet.table is LINE_TABLES[kind]
        assert bet.table == decided(bet)
    eleven = dice_index(6, 5)
    line, point = LINE_TABLES["line"], LINE_TABLES["point"]
    assert line[table_key(eleven, NATURAL)] == FOR
    assert line[table_key(dice_index(1, 1), CRAPS)] == AGAINST
    assert point[table_key(dice_index(2, 2), POINT_MADE)] == FOR
    assert point[table_key(dice_index(3, 4), SEVEN_OUT)] == AGAINST
    assert line[table_key(dice_index(2, 2), POINT_SET)] == OPEN


PROPOSITIONS = (
    {"wins": [2, 3, 12], "within": 1},
    {"wins": ["6-5"], "within": 1},
    {"wins": ["3-3"], "within": 3},
    {"wins": [12], "loses": [4]},
    {"wins": ["4-4", "5-5"], "loses": [7, 11]},
    {"wins": [6, 8], "loses": [7], "within": 4},
    {"wins": 9, "loses": "6-1"},  # single outcomes, not lists
)


def test_proposition_tables_are_decide_and_a_snapshot_rebuilds_them():
    for fields in PROPOSITIONS:
        terms, _key, extra = parse_terms("proposition", fields)
        bet = SideBet("p", "proposition", "a", "b", 1, 1, terms, extra)
        assert bet.table == decided(bet)
        assert (COUNT in bet.table) == ("within" in fields)
        again = bet_from_dict(bet.to_dict())
        assert again.table == bet.table


def test_proposition_parse_cache_keeps_the_types_apart():
    """8.0 and True are equal to 8 and 1 but are no totals: the cache must not take them."""
    import pytest

    from tablectl.game import CommandError

    parse_terms("proposition", {"wins": [8], "within": 2})
    with pytest.raises(CommandError, match="wins"):
        parse_terms("proposition", {"wins": [8.0], "within": 2})
    with pytest.raises(CommandError, match="wins"):
        parse_terms("proposition", {"wins": [[8]], "within": 2})  # unhashable: no cache
    # the losing outcomes and the count of throws are keyed by their types too
    parse_terms("proposition", {"wins": [6], "loses": [8]})
    with pytest.raises(CommandError, match="loses"):
        parse_terms("proposition", {"wins": [6], "loses": [8.0]})
    with pytest.raises(CommandError, match="loses"):
        parse_terms("proposition", {"wins": [6], "loses": [[8]]})
    parse_terms("proposition", {"wins": [6], "within": 1})
    with pytest.raises(CommandError, match="within"):
        parse_terms("proposition", {"wins": [6], "within": True})
    # a missing "wins" and a "wins" of null are told apart
    with pytest.raises(CommandError, match="needs \"wins\""):
        parse_terms("proposition", {"within": 1})
    with pytest.raises(CommandError, match="None"):
        parse_terms("proposition", {"wins": None, "within": 1})


def line_of(point, total):
    if point is None:
        if total in (7, 11):
            return NATURAL
        return CRAPS if total in (2, 3, 12) else POINT_SET
    if total == point:
        return POINT_MADE
    return SEVEN_OUT if total == 7 else LINE_NONE


def expected_settlement(game: Game, d1: int, d2: int):
    """What decide() says the throw does to each open bet: ({id: (winner, units)}, come
    points set, {id: progress after the throw} of the bets left open)."""
    idx, total, hard = dice_index(d1, d2), d1 + d2, d1 == d2
    line = line_of(game.point, total)
    won, come_points, progress = {}, [], {}
    for bet in game.bets.values():
        copy = bet_from_dict(bet.to_dict())
        if copy.kind == "come" and copy.may_call_off:  # R-S4: the option lapses
            copy.may_call_off, copy.carried, copy.kept_by = False, True, None
        r = copy.decide(idx, total, hard, line)
        if r == COUNT:
            copy.seen += 1
            r = AGAINST if copy.seen >= copy.within else OPEN
        elif r == COME_POINT:
            copy.set_come_point(total)
            come_points.append(copy.id)
            r = OPEN
        if r == FOR:
            won[copy.id] = (copy.backer, copy.stake_against)
        elif r == AGAINST:
            won[copy.id] = (copy.layer, copy.stake_for)
        else:
            if line == POINT_MADE and copy.kind == "come" and copy.come_point is not None:
                copy.may_call_off = True
            progress[copy.id] = copy.progress()
    return won, come_points, progress


PLAYERS = ("ann", "bob", "cy")
side_bets = st.fixed_dictionaries({
    "kind": st.sampled_from(("line", "point", "come", "hardway", "number", "proposition")),
    "for": st.sampled_from(PLAYERS), "against": st.sampled_from(PLAYERS),
    "stake_for": st.integers(1, 9), "stake_against": st.integers(1, 9),
    "number": st.sampled_from((4, 6, 8, 10)), "proposition": st.sampled_from(PROPOSITIONS),
})
actions = st.lists(st.one_of(
    st.tuples(st.just("bet"), side_bets),
    st.tuples(st.just("throw"), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.tuples(st.just("override"), st.tuples(st.integers(1, 6), st.integers(1, 6))),
    st.tuples(st.just("carry"), st.booleans()),
), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions)
def test_random_journals_settle_as_decide_says(plan):
    g = table(3, buy_in=10**6)
    money = g.money_total()
    pre = None
    for n, (what, arg) in enumerate(plan):
        if what == "bet":
            if arg["for"] == arg["against"]:
                continue
            cmd = {"command": "side_bet", "id": f"b{n}", "kind": arg["kind"], "for": arg["for"],
                   "against": arg["against"],
                   "stakes": {arg["for"]: arg["stake_for"], arg["against"]: arg["stake_against"]}}
            if arg["kind"] in ("hardway", "number"):
                cmd["number"] = arg["number"]
            elif arg["kind"] == "proposition":
                cmd.update(arg["proposition"])
            try:
                g.apply(cmd)
            except RuleViolation:
                pass  # e.g. a line bet with a point pending: refused, nothing changed
        elif what == "carry":
            for bet in list(g.callable_bets):
                g.apply({"command": "carry", "id": bet.id} if arg else
                        {"command": "call_off", "id": bet.id, "player": bet.backer})
        elif what == "override":
            before = g.snapshot()
            if g.undo is not None and g.undo_valid_at == g.commands_applied:
                # R-I2: the state before the throw, then the dice he reads
                expected = Game.from_snapshot(pre)
                expected.apply({"command": "throw", "dice": list(arg)})
                g.apply({"command": "operator_ruling", "by": "op", "dice": list(arg)})
                for key in ("side_bets", "balances", "escrow", "point", "shooter", "throws"):
                    assert g.state()[key] == expected.state()[key], key
                again = Game.from_snapshot(g.snapshot())
                assert again.snapshot() == g.snapshot()
            else:
                assert before == g.snapshot()
        else:
            d1, d2 = arg
            pre = g.snapshot()
            won, come_points, progress = expected_settlement(g, d1, d2)
            events = g.apply({"command": "throw", "dice": [d1, d2]})
            got = {e["id"]: (e["player"], e["units"]) for e in events
                   if e["event"] == "side_bet_won"}
            assert got == won
            assert [e["id"] for e in events if e["event"] == "come_point_set"] == come_points
            assert {b.id: b.progress() for b in g.bets.values()} == progress
            # the undo record keeps only what the throw changed: the snapshot, which holds
            # the state before the throw, must still rebuild and check out
            snap = g.snapshot()
            assert Game.from_snapshot(snap).snapshot() == snap
        assert g.money_total() == money


def _slots(bet: SideBet) -> dict:
    """Every slot the bet has set, by name (its parties' accounts as what they hold)."""
    slots = {name: getattr(bet, name) for name in SideBet.__slots__ if hasattr(bet, name)}
    for name in ("backing", "laying"):
        if name in slots:
            account = slots[name]
            slots[name] = (account.player, account.balance, account.escrow)
    return slots


@pytest.mark.parametrize("terms", [
    {"kind": "line"}, {"kind": "come"}, {"kind": "point"},
    {"kind": "hardway", "number": 8}, {"kind": "number", "number": 11},
    *({"kind": "proposition", **fields} for fields in PROPOSITIONS),
])
@pytest.mark.parametrize("quiet", [False, True])
def test_a_bet_the_fast_path_makes_is_the_bet_the_class_makes(terms, quiet):
    """``run_side_bet`` sets a well-formed bet's fields itself, without ``SideBet.__init__``;
    the bet must be the one ``side_bet`` (the checked path, through the class) makes: the same
    fields set to the same values, no other, and the same stakes moved."""
    from tablectl.game.fields import parse_side_bet
    from tablectl.game.sections.side_bets import run_side_bet, side_bet

    command = {"command": "side_bet", "id": "x", "for": "bob", "against": "cy",
               "stakes": {"bob": 5, "cy": 7}, **terms}
    fast, checked = table(), table()
    if terms["kind"] == "point":
        for g in (fast, checked):
            g.apply({"command": "throw", "dice": [4, 2]})  # the point 6
    fast.quiet = checked.quiet = quiet  # as Game.rebuild plays (no events)
    run_side_bet(fast, command)
    side_bet(checked, *parse_side_bet(command))
    assert _slots(fast.bets["x"]) == _slots(checked.bets["x"])
    assert fast.snapshot() == checked.snapshot()


def test_a_snapshot_whose_bet_is_held_by_a_player_without_an_account_is_refused():
    g = table()
    g.apply({"command": "side_bet", "id": "x", "kind": "come", "for": "bob", "against": "cy",
             "stakes": {"bob": 5, "cy": 7}})
    snap = g.snapshot()
    snap["side_bets"][0]["layer"] = "zed"
    with pytest.raises(ValueError, match="side bet 'x' is held by 'zed', who has no account"):
        Game.from_snapshot(snap)
