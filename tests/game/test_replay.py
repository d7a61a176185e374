"""Game.replay and Game.rebuild: a journal's commands played in one go give exactly the game that
applying them one by one gives (events, state, snapshot, the last throw's override), and a
malformed or refused command is refused with the same error."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablectl.game import CommandError, Game, RuleViolation
from tests.game.helpers import table
from tests.game.test_invariants import SETTINGS, check, dice, evening, play


@SETTINGS
@given(evening())
def test_replay_gives_the_events_and_the_game_of_apply_one_by_one(drawn):
    rules, commands = drawn
    g, accepted, outputs = play(rules, commands)
    replayed = Game(rules)
    assert list(replayed.replay(accepted)) == outputs
    assert replayed.snapshot() == g.snapshot()
    assert replayed.state() == g.state()


@SETTINGS
@given(evening())
def test_rebuild_gives_the_game_of_apply_one_by_one(drawn):
    rules, commands = drawn
    g, accepted, _ = play(rules, commands)
    rebuilt = Game(rules)
    assert rebuilt.rebuild(accepted) == len(accepted)
    assert rebuilt.snapshot() == g.snapshot()  # the last throw's undo record too
    assert rebuilt.state() == g.state()
    assert rebuilt.money_total() == g.money_total()
    check(rebuilt)
    assert not rebuilt.quiet and rebuilt.keep_undo  # back to playing for real


@SETTINGS
@given(evening(), dice, st.booleans())
def test_the_last_throw_of_a_rebuild_can_still_be_overridden(drawn, other, void):
    rules, commands = drawn
    g, accepted, _ = play(rules, commands + [{"command": "throw", "dice": [2, 2]}])
    if not accepted or accepted[-1]["command"] != "throw":
        return
    rebuilt = Game(rules)
    rebuilt.rebuild(accepted)
    ruling = {"command": "operator_ruling", "by": "op", "why": "seen"}
    ruling.update({"void": True} if void else {"dice": other})
    assert rebuilt.apply(ruling) == g.apply(ruling)  # R-I2
    assert rebuilt.snapshot() == g.snapshot()


@SETTINGS
@given(evening(), st.sets(st.integers(0, 200), max_size=8))
def test_replay_snapshots_after_the_positions_asked_for(drawn, positions):
    rules, commands = drawn
    _, accepted, _ = play(rules, commands)
    straight = Game(rules)
    expected = {}
    for i, c in enumerate(accepted):
        straight.apply(c)
        if i in positions:
            expected[i] = straight.snapshot()
    replayed = Game(rules)
    got = {}
    for i, _events in enumerate(replayed.replay(accepted, snapshots_after=positions)):
        if i in positions:
            got[i] = replayed.snapshot()
    assert got == expected


def test_a_throw_with_no_override_to_follow_keeps_no_undo_record():
    g = table()
    g.apply({"command": "center_bet", "amount": 10})
    g.apply({"command": "fade", "player": "bob", "amount": 10})
    commands = [{"command": "throw", "dice": [2, 2]}, {"command": "throw", "dice": [3, 3]}]
    replay = g.replay(commands)
    next(replay)  # the first throw: a throw follows, nothing can override it
    assert g.undo is None
    next(replay)  # the last: kept
    assert g.undo is not None and g.snapshot()["undo"]["dice"] == [3, 3]


def test_a_throw_before_a_warn_or_a_ruling_keeps_its_undo_record():
    commands = [{"command": "throw", "dice": [2, 2]},
                {"command": "warn", "rule": "R-I5"},
                {"command": "operator_ruling", "by": "op", "why": "cocked", "dice": [4, 3]},
                {"command": "throw", "dice": [5, 5]}]
    straight = table()
    expected = [straight.apply(c) for c in commands]
    assert expected[2][0]["override"]  # the warn kept the throw open to the override
    assert list(table().replay(commands)) == expected


MALFORMED = [
    {"command": "throw", "dice": [3, 9]},
    {"command": "throw", "dice": [3]},
    {"command": "throw"},
    {"command": "side_bet", "id": "x", "kind": "hardway", "for": "ann", "against": "bob",
     "stakes": {"ann": 5, "bob": 5}, "number": 5},
    {"command": "side_bet", "id": "x", "kind": "line", "for": "ann", "against": "ann",
     "stakes": {"ann": 5}},
    {"command": "side_bet", "id": "x", "kind": "proposition", "for": "ann", "against": "bob",
     "stakes": {"ann": 5, "bob": 5}, "wins": [7], "loses": [7]},
    {"command": "side_bet", "id": "x", "kind": "line", "for": "ann", "against": "bob",
     "stakes": {"ann": 5.0, "bob": 5}},
    {"command": "fade", "player": "bob", "amount": -1},
    {"command": "fly"},
    {"player": "ann"},
    ["throw", [3, 4]],
    None,
]


@pytest.mark.parametrize("bad", MALFORMED, ids=lambda c: json.dumps(c)[:40])
@pytest.mark.parametrize("how", ["replay", "rebuild"])
def test_a_malformed_command_is_refused_with_the_error_apply_gives(bad, how):
    before = [{"command": "center_bet", "amount": 10},
              {"command": "fade", "player": "bob", "amount": 10},
              {"command": "throw", "dice": [2, 2]}]  # a point: line bets are refused below
    with pytest.raises(CommandError) as by_apply:
        straight = table()
        for c in before:
            straight.apply(c)
        straight.apply(bad)
    g = table()
    with pytest.raises(CommandError) as by_replay:
        if how == "replay":
            list(g.replay(before + [bad] + [{"command": "throw", "dice": [3, 4]}]))
        else:
            g.rebuild(before + [bad] + [{"command": "throw", "dice": [3, 4]}])
    assert str(by_replay.value) == str(by_apply.value)
    # and no other exception shown with it (rebuild refuses while it handles a KeyError)
    for refusal in (by_apply.value, by_replay.value):
        assert refusal.__cause__ is None
        assert refusal.__context__ is None or refusal.__suppress_context__
    assert g.state() == straight.state()  # the commands before it, nothing after
    assert g.commands_applied == straight.commands_applied
    assert not g.quiet and g.keep_undo


@pytest.mark.parametrize("how", ["replay", "rebuild"])
def test_a_refused_command_stops_the_replay_with_the_rule_that_refuses_it(how):
    commands = [{"command": "center_bet", "amount": 10},
                {"command": "throw", "dice": [3, 4]},  # the center bet is not faded (R-C5)
                {"command": "take_down"}]
    g = table()
    with pytest.raises(RuleViolation) as refused:
        if how == "replay":
            list(g.replay(commands))
        else:
            g.rebuild(commands)
    assert refused.value.rule == "R-C5"
    straight = table()
    straight.apply(commands[0])
    assert g.state() == straight.state()


def test_the_example_evening_rebuilds_to_its_balances(repo_root):
    g = Game()
    accepted = []
    for line in (repo_root / "examples" / "evening.jsonl").read_text().splitlines():
        command = json.loads(line)
        try:
            g.apply(command)
        except RuleViolation:
            continue
        accepted.append(command)
    for how in ("replay", "rebuild"):
        again = Game()
        if how == "replay":
            list(again.replay(accepted))
        else:
            again.rebuild(accepted)
        assert again.state()["balances"] == {"ann": 526, "bob": 529, "dee": 440}
        assert again.snapshot() == g.snapshot()


def test_replay_reads_any_iterable_of_commands():
    commands = [{"command": "center_bet", "amount": 10},
                {"command": "fade", "player": "bob", "amount": 10},
                {"command": "throw", "dice": [6, 5]}]
    g = table()
    events = list(g.replay(iter(commands)))
    assert [e[0]["event"] for e in events] == ["center_bet_made", "faded", "come_out"]
    assert g.state()["balances"]["ann"] == 1010


def test_the_side_bets_a_rebuild_does_not_price_can_all_be_priced():
    """Game.rebuild checks only a proposition's terms against the odds (it builds no event to
    price): every other kind's terms are one of a fixed few, and each has a price."""
    from tablectl.game.sidebets import HARDWAY_NUMBERS, POINT_NUMBERS, parse_terms, win_odds

    fixed = [("line", {}, None), ("come", {}, None)]
    fixed += [("point", {}, point) for point in POINT_NUMBERS]
    fixed += [("hardway", {"number": n}, None) for n in HARDWAY_NUMBERS]
    fixed += [("number", {"number": n}, None) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)]
    for kind, fields, point in fixed:
        _terms, key, extra = parse_terms(kind, fields)
        assert extra is None  # what side_bet takes for "no proposition"
        num, den, _ = win_odds(kind, key, point)
        assert 0 < num < den, (kind, fields, point)


def test_with_a_player_leaving_a_side_bet_is_made_or_refused_alike_in_apply_and_rebuild():
    # run_side_bet takes the accounts for the seats only while no one is leaving (R-O3): a
    # player who left with a stake out still has one, and may not bet
    from tablectl.game.errors import PlayerLeft
    from tests.game.helpers import side

    opening = [{"command": "join", "player": p, "buy_in": 100} for p in ("ann", "bob", "cy")]
    opening += [{"command": "shooter", "player": "ann"},
                side("n", "number", "cy", "bob", 5, 5, number=8),
                {"command": "leave", "player": "cy"}]
    made = side("m", "come", "ann", "bob", 3, 4)
    for by_leaver in (side("x", "come", "cy", "ann", 1, 1), side("y", "come", "ann", "cy", 1, 1)):
        g = Game()
        for c in opening + [made]:
            g.apply(c)
        rebuilt = Game()
        rebuilt.rebuild(opening + [made])
        assert rebuilt.snapshot() == g.snapshot() and "m" in g.bets
        for game in (g, rebuilt):
            before = game.snapshot()
            with pytest.raises(PlayerLeft) as info:
                game.rebuild([by_leaver]) if game is rebuilt else game.apply(by_leaver)
            assert info.value.rule == "R-O3" and game.snapshot() == before
