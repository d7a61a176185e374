"""Side bets between two players (R-S0..R-S7): made, called off, carried, settled by a throw.

The bet kinds themselves (their terms, per-throw decision and true odds) are in ``sidebets.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import BetsClosed, CallOffNotAllowed, SideBetError
from ..fields import parse_side_bet
from ..sidebets import (
    AGAINST,
    COME_TABLES,
    COUNT,
    FOR,
    HARDWAY_TABLES,
    HARDWAY_TERMS,
    KIND_RULE,
    LINE_TABLES,
    NO_TERMS,
    NUMBER_TABLES,
    NUMBER_TERMS,
    POINT_MADE,
    POINT_TERMS,
    PRICED_PROPOSITIONS,
    SideBet,
    parse_terms,
    true_odds,
    win_odds,
)
from .seating import pay_out_leavers

if TYPE_CHECKING:
    from ..engine import Game

new_bet = object.__new__  # run_side_bet: SideBet(...) without the class call (see there)


def side_bet(game: Game, bet_id: str | int, kind: str, backer: str, layer: str,
             stake_for: int, stake_against: int, terms: dict, key: int,
             extra: tuple | None) -> list[dict]:
    """The side bet with its fields parsed (``fields.parse_side_bet``): every check that could
    refuse it, each with its message, then the bet is made (``make_side_bet``)."""
    game.check_bets_open()
    if bet_id in game.used_ids:
        raise SideBetError("R-S0", f"side bet id {bet_id!r} is already used; give each bet "
                                   f"its own id")
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
    game.check_funds(backer, stake_for, "R-S0")
    game.check_funds(layer, stake_against, "R-S0")
    odds = price(game, kind, key, point, stake_for, stake_against, extra)
    # nothing below can refuse
    if kind == "point":
        terms = POINT_TERMS[point]
    bet = SideBet(bet_id, kind, backer, layer, stake_for, stake_against, terms, extra)
    return make_side_bet(game, bet, bet_id, backer, layer, stake_for, stake_against, odds)


def price(game: Game, kind: str, key: int, point: int | None, stake_for: int,
          stake_against: int, extra: tuple | None) -> tuple[str, str, str] | None:
    """The bet's ``true_odds`` for its event (None under ``Game.rebuild``, which prices
    nothing); raises CommandError for terms the odds cannot price."""
    # only a point bet's odds depend on the point (a line bet is made on the come-out only):
    # the others are priced with None, so true_odds' cache holds one entry per stake pair, not
    # seven (its hits went from half the side bets to nearly all of them, bench/rules.py)
    if not game.quiet:
        return true_odds(kind, key, point if kind == "point" else None, stake_for,
                         stake_against)
    if extra is not None:
        # Game.rebuild prices nothing (no event), but terms that cannot be priced still refuse;
        # only a proposition's can be such (the other kinds' fixed terms are all priced:
        # tests/game/test_replay.py)
        win_odds(kind, key, None)
    return None


def make_side_bet(game: Game, bet: SideBet, bet_id: str | int, backer: str, layer: str,
                  stake_for: int, stake_against: int,
                  odds: tuple[str, str, str] | None) -> list[dict]:
    """Open ``bet`` (checked: nothing here refuses): both stakes into escrow; its event
    (none when ``odds`` is None: ``Game.rebuild``). ``bet_id`` .. ``stake_against`` are the
    bet's own. ``run_side_bet`` does the same inline for the bets it checks itself."""
    game.bets[bet_id] = bet
    game.used_ids[bet_id] = True
    accounts = game.ledger.accounts
    bet.backing = accounts[backer]
    bet.laying = accounts[layer]
    game.ledger.put_up(backer, stake_for)
    game.ledger.put_up(layer, stake_against)
    if odds is None:
        return []
    return [side_bet_made(bet, bet_id, backer, layer, stake_for, stake_against, odds)]


def side_bet_made(bet: SideBet, bet_id: str | int, backer: str, layer: str, stake_for: int,
                  stake_against: int, odds: tuple[str, str, str]) -> dict:
    """The event of ``bet`` made, with its true odds (``odds``: p_win, ev_for, ev_against)."""
    event = {"event": "side_bet_made", "id": bet_id, "kind": bet.kind, "for": backer,
             "against": layer, "stakes": {backer: stake_for, layer: stake_against}}
    for k, v in bet.terms.items():
        event[k] = list(v) if type(v) is list else v
    event["p_win"], event["ev_for"], event["ev_against"] = odds
    event["rule"] = KIND_RULE[bet.kind]
    return event


def run_side_bet(game: Game, command: dict) -> list[dict]:
    """The side_bet command. A well-formed bet that every check lets through (after the throw
    the most frequent command) is checked here in one condition and made; anything else goes
    to ``parse_side_bet`` and ``side_bet``, which say what is wrong, in their order."""
    # one condition for the fields and the rules together, and the kind's terms read here: the
    # checks that pass go by in a comparison each, and the helpers with the messages run only
    # for a bet they refuse
    try:  # subscripts, not get(): a field missing goes to the parser too
        bet_id, kind, backer = command["id"], command["kind"], command["for"]
        layer, stakes = command["against"], command["stakes"]
    except KeyError:
        return side_bet(game, *parse_side_bet(command))
    # a player with an account is seated or has left (R-O3, his stakes still out); with no one
    # leaving, the accounts' lookups stand for the names' checks and check_bettor's both (the
    # accounts are keyed by the seated players' names, non-empty strings: of what JSON holds
    # only an equal str finds one), instead of two scans of the seats; a kind that is not a str
    # matches none of the kinds' comparisons below and goes to the parser too
    if (type(bet_id) is str and bet_id and backer != layer and type(stakes) is dict
            and len(stakes) == 2 and game.pending_ruling is None and not game.rolling
            and not game.leaving and bet_id not in game.used_ids):
        accounts = game.ledger.accounts
        try:  # subscripts, not get(): fewer instructions, and a stake missing is malformed
            backing = accounts[backer]
            laying = accounts[layer]
            stake_for = stakes[backer]
            stake_against = stakes[layer]
        except (KeyError, TypeError):  # TypeError: a name JSON cannot key a dict by (a list)
            return side_bet(game, *parse_side_bet(command))
        if (type(stake_for) is int and type(stake_against) is int
                and 0 < stake_for <= backing.balance
                and 0 < stake_against <= laying.balance):
            # SideBet.__init__ inline, the kind's own fields set in the branch that checks the
            # kind (no call with nine arguments, no second test of the kind: valgrind,
            # docs/commands.md "Speed"); the object is dropped if the bet goes to the parser
            bet = new_bet(SideBet)
            # the kinds in the order of how often they are made; a kind's terms that are
            # malformed raise here what parse_side_bet would (the fields before them are fine)
            quiet = game.quiet
            if kind == "proposition":
                terms, key, extra = parse_terms(kind, command)
                if quiet:
                    # terms that cannot be priced still refuse; the keys that priced are kept
                    # in a set (0.7% fewer instructions a rebuild than win_odds' lru_cache)
                    if key not in PRICED_PROPOSITIONS:
                        win_odds(kind, key, None)
                        PRICED_PROPOSITIONS.add(key)
                    odds = None
                else:
                    odds = true_odds(kind, key, None, stake_for, stake_against)
                bet.wins_mask, bet.loses_mask, bet.table, within = extra
                bet.within = within
                bet.seen = 0
                bet.keeps_progress = within is not None
            elif kind == "hardway" or kind == "number":
                n = command.get("number")
                if type(n) is not int:
                    return side_bet(game, *parse_side_bet(command))
                if kind == "hardway":
                    terms = HARDWAY_TERMS.get(n)
                    bet.table = HARDWAY_TABLES.get(n)
                else:
                    terms = NUMBER_TERMS.get(n)
                    bet.table = NUMBER_TABLES.get(n)
                if terms is None:
                    return side_bet(game, *parse_side_bet(command))
                odds = None if quiet else true_odds(kind, n, None, stake_for, stake_against)
                bet.number = n
                bet.keeps_progress = False
            elif kind == "come":
                terms = NO_TERMS[0]
                odds = None if quiet else true_odds(kind, 0, None, stake_for, stake_against)
                bet.come_point = None
                bet.table = COME_TABLES[None]
                bet.may_call_off = False
                bet.carried = False
                bet.kept_by = None
                bet.keeps_progress = True
            elif kind == "line" and game.point is None:
                terms = NO_TERMS[0]
                odds = None if quiet else true_odds(kind, 0, None, stake_for, stake_against)
                bet.table = LINE_TABLES["line"]
                bet.keeps_progress = False
            elif kind == "point" and game.point is not None:
                point = game.point
                terms = POINT_TERMS[point]
                odds = None if quiet else true_odds(kind, 0, point, stake_for, stake_against)
                bet.table = LINE_TABLES["point"]
                bet.keeps_progress = False
            else:
                return side_bet(game, *parse_side_bet(command))
            bet.id = bet_id
            bet.kind = kind
            bet.backer = backer
            bet.layer = layer
            bet.stake_for = stake_for
            bet.stake_against = stake_against
            bet.terms = terms
            bet.backing = backing
            bet.laying = laying
            # make_side_bet inline, its two Ledger.put_up too (the balances were checked):
            # one call less a bet, 2% of a rebuild's machine instructions (valgrind)
            game.bets[bet_id] = bet
            game.used_ids[bet_id] = True
            backing.balance -= stake_for
            backing.escrow += stake_for
            laying.balance -= stake_against
            laying.escrow += stake_against
            if odds is None:  # Game.rebuild: no events (an empty tuple: no new list a bet)
                return ()
            return [side_bet_made(bet, bet_id, backer, layer, stake_for, stake_against, odds)]
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


def settle_side_bets(game: Game, key: int, total: int, line: int, events: list,
                     keep=None) -> None:
    """The side bets the throw decides (R-S1..R-S7): each open bet's answer read from its
    decision table (``SideBet.table`` at ``key``: ``table_key`` of the throw and what the line
    did), applied in the order the bets were made. ``keep``: when given, called with ``(bet,
    bet.progress())`` just before the throw changes a bet's progress (the throw's undo record,
    which keeps only what changes)."""
    append = None if game.quiet else events.append  # None: Game.rebuild, no events
    bets = game.bets
    # over a copy, so that a decided bet is dropped at once; the answers in the order of how
    # often they come (bench/rules.py: about 5% fewer bytecodes a throw than a list of the
    # decided ids dropped after the loop, and COUNT and COME_POINT asked first)
    for bet in list(bets.values()):
        r = bet.table[key]
        if not r:
            continue
        # pairs, not one four-tuple: a pair is swapped on the stack, four build a tuple
        # the parties' accounts from the bet itself (no lookup by name)
        if r == AGAINST:
            winner, loser = bet.laying, bet.backing
            won, lost = bet.stake_for, bet.stake_against
        elif r == FOR:
            winner, loser = bet.backing, bet.laying
            won, lost = bet.stake_against, bet.stake_for
        elif r == COUNT:  # R-S7a: one more throw of its "within"
            if keep is not None:
                keep((bet, bet.progress()))
            bet.seen += 1
            if bet.seen < bet.within:
                continue
            r = AGAINST  # the last throw it waited for: lost
            winner, loser = bet.laying, bet.backing
            won, lost = bet.stake_for, bet.stake_against
        else:  # COME_POINT (R-S3)
            if keep is not None:
                keep((bet, bet.progress()))
            bet.set_come_point(total)
            if append is not None:
                append({"event": "come_point_set", "id": bet.id, "come_point": total,
                        "rule": "R-S3"})
            continue
        # the winner's own stake back and the loser's stake to him: Ledger.release and
        # Ledger.pay inlined for speed (0.23 us a settled bet against 0.36 us with the two
        # calls, timeit on the loaded VM; about 1% of bench/rules.py's replay)
        winner.escrow -= lost
        winner.balance += lost + won
        loser.escrow -= won
        del bets[bet.id]
        if append is not None:
            side, other = ("for", "against") if r == FOR else ("against", "for")
            rule = KIND_RULE[bet.kind]
            append({"event": "side_bet_won", "id": bet.id, "player": winner.player,
                    "units": won, "side": side, "rule": rule})
            append({"event": "side_bet_lost", "id": bet.id, "player": loser.player,
                    "units": won, "side": other, "rule": rule})
    if line == POINT_MADE:
        # R-S4: a come point still pending when the shooter makes his point
        for bet in bets.values():
            if bet.kind == "come" and bet.come_point is not None:
                if keep is not None:
                    keep((bet, bet.progress()))
                bet.may_call_off = True
                game.callable_bets.append(bet)
                events.append({"event": "side_bet_callable", "id": bet.id,
                               "come_point": bet.come_point, "rule": "R-S4"})


HANDLERS = {"side_bet": side_bet, "call_off": call_off, "carry": carry}
RUNNERS = {"side_bet": run_side_bet}
