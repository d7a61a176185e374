"""examples/evening.jsonl: a whole evening of four players, checked against hand arithmetic."""

import json

from tablectl.game import Game, RuleViolation


def play_evening(repo_root):
    g = Game()
    events, refusals = [], []
    for n, line in enumerate((repo_root / "examples" / "evening.jsonl").read_text().splitlines(),
                             start=1):
        command = json.loads(line)
        try:
            events.extend(g.apply(command))
        except RuleViolation as exc:
            refusals.append((n, exc.rule))
    return g, events, refusals


def test_evening_final_balances_by_hand(repo_root):
    g, events, refusals = play_evening(repo_root)
    # Everyone buys in 500. Net per player, decision by decision:
    #   craps 1+2: center 20 (bob 10, cy 10 fade): ann -20, bob +10, cy +10; line L1: bob +10,
    #              dee -10
    #   point 4; hard 8 (H1 5 vs 50): bob +50, dee -50; 10 kills 6-5 one-roll X1: ann +1, cy -1
    #   4 made: center 30 vs dee: ann +30, dee -30; point bet P1: ann +20, cy -20
    #   N1 (number 6) called off: 0; C1 carried (come point 8)
    #   come-out 7: center 20 vs bob: ann +20, bob -20; carried C1 loses: cy +10, dee -10
    #   point 6: group G1 (4,5,6 before 8,9,10): bob +10, cy -10
    #   dee (substitute) sevens out: ann's center 10 vs cy: cy +10, ann -10
    #   bob's come-out 12: center 25 (dee 15, ann 10): dee +15, ann +10, bob -25;
    #              W1 (2,3,12 within 2, one throw was void): dee +15, ann -15
    #   point 9 (center 10 vs ann): S7 (9 before 7): cy +6, bob -6 -> cy leaves with 505
    #   9 made: bob +10, ann -10;  dee's ruled 2+5 natural (center 10 vs bob): dee +10, bob -10
    # ann: -20+1+30+20+20-10+10-15-10 = +26; bob: +10+10+50-20+10-25-6+10-10 = +29
    # cy: +10-1-20+10-10+10+6 = +5 (cashed out); dee: -10-50-30-10+15+15+10 = -60
    state = g.state()
    assert state["balances"] == {"ann": 526, "bob": 529, "dee": 440}
    assert state["escrow"] == {"ann": 0, "bob": 0, "dee": 0}
    assert state["cashed_out"] == {"cy": 505}
    assert g.money_total() + g.ledger.cashed_out_total == 4 * 500
    assert refusals == [(45, "R-C6"), (48, "R-S0")]


def test_evening_covers_every_bet_kind_and_irregularity(repo_root):
    g, events, _ = play_evening(repo_root)
    kinds = {e["kind"] for e in events if e["event"] == "side_bet_made"}
    assert kinds == {"line", "point", "come", "hardway", "number", "proposition"}
    seen = {e["event"] for e in events}
    for needed in ("craps", "point_made", "seven_out", "natural", "throw_void", "warned",
                   "sanction_open", "substituted", "barred", "dice_changed",
                   "dice_change_called", "left", "cashed_out", "side_bet_returned",
                   "side_bet_carried", "awaiting_ruling", "operator_ruled", "center_settled"):
        assert needed in seen, needed
    assert g.state()["barred"] == ["ann"] and g.shooter == "dee"
    # R-S4: dee's carry leaves cy free to call off; cy's carry then ends the option
    carried = [e["final"] for e in events if e["event"] == "side_bet_carried"]
    assert carried == [False, True]
