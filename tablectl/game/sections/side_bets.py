"""Side bets between two players (R-S0..R-S7): made, called off, carried, settled by a throw.

The bet kinds themselves (their terms, per-throw decision and true odds) are in ``sidebets.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BetsClosed, CallOffNotAllowed, SideBetError
from ..fields import parse_side_bet
from ..sidebets import (
    AGAINST,
    BET_CLASSES,
    COME_POINT,
    COUNT,
    FOR,
    KIND_RULE,
    NO_TERM_KINDS,
    NO_TERMS,
    POINT_MADE,
    SideBet,
    parse_terms,
    true_odds,
    win_odds,
)
from .seating import pay_out_leavers

if TYPE_CHECKING:
    from ..engine import Game


def side_bet(game: Game, bet_id: str | int, kind: str, backer: str, layer: str,
             stake_for: int, stake_against: int, terms: dict, key: int,
             extra: tuple | None) -> list[dict]:
    rule = KIND_RULE[kind]
    # the most frequent command after the throw: the checks that pass go by in a comparison
    # each; the helpers with the messages run only for a bet they refuse
    if game.pending_ruling is not None or game.rolling:
        game.check_bets_open()
    if bet_id in game.used_ids:
        raise SideBetError("R-S0", f"side bet id {bet_id!r} is already used; give each bet "
                                   f"its own id")
    seats = game.seats
    if backer not in seats or layer not in seats:
        game.check_bettor(backer, "R-S0")
        game.check_bettor(layer, "R-S0")
    point = game.point
    if kind == "line":
        if point is not None:
            raise SideBetError("R-S1", f"right and wrong bets are made before a come-out; "
                                       f"the point {point} is pending: make a point bet "
                                       f"(kind point) or wait for its decision")
    elif kind == "point" and point is None:
        raise SideBetError("R-S2", "point bets are made once a point is set; there is none: "
                                   "bet after the come-out sets one")
    balances = game.ledger.balances
    if stake_for > balances[backer] or stake_against > balances[layer]:
        game.check_funds(backer, stake_for, "R-S0")
        game.check_funds(layer, stake_against, "R-S0")
    # only a point bet's odds depend on the point (a line bet is made on the come-out only):
    # the others are priced with None, so true_odds' cache holds one entry per stake pair, not
    # seven (its hits went from half the side bets to nearly all of them, bench/rules.py)
    if game.quiet:  # Game.rebuild: no event to price, but terms that cannot be priced refuse
        win_odds(kind, key, point if kind == "point" else None)
    else:
        p_win, ev_for, ev_against = true_odds(kind, key, point if kind == "point" else None,
                                              stake_for, stake_against)
    # nothing below can refuse
    if kind == "point":
        terms = {"number": point}
    game.bets[bet_id] = BET_CLASSES[kind](bet_id, backer, layer, stake_for, stake_against,
                                          terms, extra)
    game.used_ids[bet_id] = True
    # Ledger.put_up inlined for both stakes (the balances were checked above)
    escrow = game.ledger.escrow
    balances[backer] -= stake_for
    escrow[backer] += stake_for
    balances[layer] -= stake_against
    escrow[layer] += stake_against
    if game.quiet:
        return []
    if not terms:
        return [{"event": "side_bet_made", "id": bet_id, "kind": kind, "for": backer,
                 "against": layer, "stakes": {backer: stake_for, layer: stake_against},
                 "p_win": p_win, "ev_for": ev_for, "ev_against": ev_against, "rule": rule}]
    if extra is None:  # a number of its own (point, hardway, number): the one field inline
        return [{"event": "side_bet_made", "id": bet_id, "kind": kind, "for": backer,
                 "against": layer, "stakes": {backer: stake_for, layer: stake_against},
                 "number": terms["number"], "p_win": p_win, "ev_for": ev_for,
                 "ev_against": ev_against, "rule": rule}]
    event = {"event": "side_bet_made", "id": bet_id, "kind": kind, "for": backer,
             "against": layer, "stakes": {backer: stake_for, layer: stake_against}}
    for k, v in terms.items():
        event[k] = list(v) if type(v) is list else v
    event["p_win"] = p_win
    event["ev_for"] = ev_for
    event["ev_against"] = ev_against
    event["rule"] = rule
    return [event]


def run_side_bet(game: Game, command: dict) -> list[dict]:
    """The side_bet command: the fields of a well-formed bet checked inline (after the throw
    the most frequent command); parse_side_bet says what is wrong with any other."""
    try:  # subscripts, not get(): a field missing goes to the parser too
        bet_id, kind, backer = command["id"], command["kind"], command["for"]
        layer, stakes = command["against"], command["stakes"]
    except KeyError:
        return side_bet(game, *parse_side_bet(command))
    if (type(bet_id) is str and bet_id and type(kind) is str and kind in KIND_RULE
            and type(backer) is str and backer and type(layer) is str and layer
            and backer != layer and type(stakes) is dict and len(stakes) == 2):
        stake_for = stakes.get(backer)
        stake_against = stakes.get(layer)
        if (type(stake_for) is int and type(stake_against) is int and stake_for > 0
                and stake_against > 0):
            terms, key, extra = NO_TERMS if kind in NO_TERM_KINDS else parse_terms(
                kind, command)
            return side_bet(game, bet_id, kind, backer, layer, stake_for, stake_against,
                            terms, key, extra)
    return side_bet(game, *parse_side_bet(command))


def open_bet(game: Game, bet_id: str | int) -> SideBet:
    """The open side bet ``bet_id`` (for call_off, carry)."""
    bet = game.bets.get(bet_id)
    if bet is None:
        if bet_id in game.used_ids:
            raise CallOffNotAllowed("R-S0", f"side bet {bet_id!r} is already decided")
        raise CallOffNotAllowed("R-S0", f"there is no side bet {bet_id!r} (the state's "
                                       f"side_bets lists the open ones)")
    return bet


def call_off(game: Game, player: str, bet_id: str | int) -> list[dict]:
    game.check_no_ruling_pending()
    if game.rolling:
        raise BetsClosed("R-S0", "a bet is called off before the deciding throw, not while "
                                 "the dice roll")
    bet = open_bet(game, bet_id)
    rule = KIND_RULE[bet.kind]
    if player != bet.backer and player != bet.layer:
        raise CallOffNotAllowed(rule, f"only {bet.backer} and {bet.layer} may call off bet "
                                      f"{bet.id!r}")
    if not bet.callable_by_either():
        if bet.kind == "come":
            raise CallOffNotAllowed("R-S4", "a come bet may be called off only right after "
                                            "the shooter makes his point before its come "
                                            "point is decided")
        raise CallOffNotAllowed(rule, f"a {bet.kind} bet stands until decided; only number "
                                      f"bets (R-S6) and come bets under R-S4 may be called off")
    del game.bets[bet.id]
    if bet in game.callable_bets:
        game.callable_bets.remove(bet)
    game.ledger.release(bet.backer, bet.stake_for)
    game.ledger.release(bet.layer, bet.stake_against)
    events = [
        {"event": "side_bet_returned", "id": bet.id, "player": bet.backer,
         "units": bet.stake_for, "by": player, "rule": rule},
        {"event": "side_bet_returned", "id": bet.id, "player": bet.layer,
         "units": bet.stake_against, "by": player, "rule": rule},
    ]
    pay_out_leavers(game, events)
    return events


def carry(game: Game, bet_id: str | int, player: str | None) -> list[dict]:
    game.check_no_ruling_pending()
    bet = open_bet(game, bet_id)
    if player is not None and player != bet.backer and player != bet.layer:
        raise CallOffNotAllowed("R-S4", f"only {bet.backer} and {bet.layer} may carry bet "
                                        f"{bet.id!r}")
    if bet.kind != "come" or not bet.may_call_off:
        raise CallOffNotAllowed("R-S4", "only a come bet whose come point is pending when the "
                                        "shooter makes his point can be carried")
    if player is not None and bet.kept_by != (
            bet.layer if player == bet.backer else bet.backer):
        # one party keeps it: the other may still call it off until the next throw (either
        # party may call off, so one party's "carry" cannot take the other's right away)
        bet.kept_by = player
        return [{"event": "side_bet_carried", "id": bet.id, "come_point": bet.come_point,
                 "by": player, "final": False, "rule": "R-S4"}]
    bet.may_call_off = False
    bet.carried = True
    bet.kept_by = None
    game.callable_bets.remove(bet)
    event = {"event": "side_bet_carried", "id": bet.id, "come_point": bet.come_point,
             "final": True, "rule": "R-S4"}
    if player is not None:
        event["by"] = player
    return [event]


def settle_side_bets(game: Game, idx: int, total: int, line: int, events: list,
                     keep=None) -> None:
    """The side bets the throw decides (R-S1..R-S7): each open bet's answer read from its
    decision table (``SideBet.table``, or ``verdicts`` by the line), applied in the order the
    bets were made. ``keep``: when given, called with ``(bet, bet.progress())`` just before the
    throw changes a bet's progress (the throw's undo record, which keeps only what changes)."""
    balances = game.ledger.balances
    escrow = game.ledger.escrow
    append = None if game.quiet else events.append  # None: Game.rebuild, no events
    decided = None
    for bet in game.bets.values():
        table = bet.table
        r = bet.verdicts[line] if table is None else table[idx]
        if not r:
            continue
        if r == COUNT:  # R-S7a: one more throw of its "within"
            if keep is not None:
                keep((bet, bet.progress()))
            bet.seen += 1
            if bet.seen < bet.within:
                continue
            r = AGAINST
        elif r == COME_POINT:  # R-S3
            if keep is not None:
                keep((bet, bet.progress()))
            bet.set_come_point(total)
            if append is not None:
                append({"event": "come_point_set", "id": bet.id, "come_point": total,
                        "rule": "R-S3"})
            continue
        if r == FOR:
            winner, loser, won, lost = bet.backer, bet.layer, bet.stake_against, bet.stake_for
        else:
            winner, loser, won, lost = bet.layer, bet.backer, bet.stake_for, bet.stake_against
        # the winner's own stake back and the loser's stake to him: Ledger.release and
        # Ledger.pay inlined for speed (0.23 us a settled bet against 0.36 us with the two
        # calls, timeit on the loaded VM; about 1% of bench/rules.py's replay)
        escrow[winner] -= lost
        escrow[loser] -= won
        balances[winner] += lost + won
        if append is not None:
            side, other = ("for", "against") if r == FOR else ("against", "for")
            rule = bet.rule
            append({"event": "side_bet_won", "id": bet.id, "player": winner, "units": won,
                    "side": side, "rule": rule})
            append({"event": "side_bet_lost", "id": bet.id, "player": loser, "units": won,
                    "side": other, "rule": rule})
        if decided is None:
            decided = [bet.id]
        else:
            decided.append(bet.id)
    if decided:
        for bet_id in decided:
            del game.bets[bet_id]
    if line == POINT_MADE:
        # R-S4: a come point still pending when the shooter makes his point
        for bet in game.bets.values():
            if bet.kind == "come" and bet.come_point is not None:
                if keep is not None:
                    keep((bet, bet.progress()))
                bet.may_call_off = True
                game.callable_bets.append(bet)
                events.append({"event": "side_bet_callable", "id": bet.id,
                               "come_point": bet.come_point, "rule": "R-S4"})


HANDLERS = {"side_bet": side_bet, "call_off": call_off, "carry": carry}
RUNNERS = {"side_bet": run_side_bet}
