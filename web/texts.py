"""What the dashboard says about the table, in the request's language (gettext).

Every sentence is a catalog entry; the game's and the camera's own texts (in English) are
matched to an entry here or, where none matches, shown as they are beside the rule's name.
"""

from __future__ import annotations

import re

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

# every event name the stream sends (the page listens for each)
EVENT_NAMES = (
    "joined", "left", "cashed_out", "shooter_set", "center_bet_made", "faded", "fade_returned",
    "center_raised", "center_taken_down", "center_called_off", "center_settled",
    "side_bet_made", "side_bet_won", "side_bet_lost", "side_bet_returned", "side_bet_carried",
    "side_bet_callable", "come_point_set", "dice_rolling", "come_out", "thrown", "natural",
    "craps", "point_set", "point_made", "seven_out", "dice_passed", "dice_changed",
    "dice_change_called", "dice_change_cancelled", "throw_void", "awaiting_ruling",
    "operator_ruled", "warned", "sanction_open", "substituted", "barred", "throw_refused",
    "table_status",
)

# a short statement of each rule (RULES.md), for refusals and rulings
RULE_TITLES = {
    "R-E1": _l("two identical dice and a surface with a back wall"),
    "R-E2": _l("several pairs of dice, one pair in use at a time"),
    "R-P1": _l("a come-out needs the table's minimum number of seated players"),
    "R-O1": _l("the first shooter is chosen by agreement; then the dice pass clockwise"),
    "R-O2": _l("a newcomer may join at any stage"),
    "R-O3": _l("a player may leave at any time; his stakes stay until decided"),
    "R-T1": _l("the dice must rebound from the back wall"),
    "R-T2": _l("the result is the sum of the two top faces at rest"),
    "R-B1": _l("each new shooter, and each decision, starts a come-out"),
    "R-B2": _l("a come-out 7 or 11 is a natural: the dice win"),
    "R-B3": _l("a come-out 2, 3 or 12 is craps: the dice lose"),
    "R-B4": _l("a come-out 4, 5, 6, 8, 9 or 10 sets the point"),
    "R-B5": _l("the point repeated before a 7: the dice win"),
    "R-B6": _l("a 7 before the point: seven-out, the dice lose and pass"),
    "R-D1": _l("after a seven-out the dice pass clockwise"),
    "R-D2": _l("the dice may be passed only when the next throw is a come-out"),
    "R-D3": _l("a warned shooter may be replaced, a repeat offender barred"),
    "R-X1": _l("new dice take effect before the next come-out"),
    "R-C1": _l("the shooter puts his center bet before the come-out"),
    "R-C2": _l("any other player may fade part of the center bet"),
    "R-C3": _l("faders add until the bet is covered"),
    "R-C4": _l("the last whole fader who lost may claim the next bet first"),
    "R-C5": _l("an unfaded part is taken down, or the whole bet is called off"),
    "R-C6": _l("faders may not fade more than the shooter's bet"),
    "R-C7": _l("the center bet is settled at even money"),
    "R-C8": _l("the dice win 244 of 495 decisions"),
    "R-S0": _l("a side bet is agreed by two players before the dice are thrown"),
    "R-S1": _l("right and wrong bets are made before a come-out"),
    "R-S2": _l("point bets are made once a point is set"),
    "R-S3": _l("a come bet counts from the next throw as its own come-out"),
    "R-S4": _l("a come bet may be called off or carried when the shooter makes his point"),
    "R-S5": _l("a hardway wins when the pair comes before a 7 or the easy way"),
    "R-S6": _l("a number bet wins when the total comes before a 7; either side may call it off"),
    "R-S7": _l("a proposition bet: whatever the two agree on"),
    "R-Q1": _l("true odds of each total"),
    "R-Q2": _l("true odds of the hardways"),
    "R-Q3": _l("true odds of one-throw bets"),
    "R-I1": _l("a die that leaves the marked area voids the throw"),
    "R-I2": _l("a cocked or hidden die is ruled by the operator, or the throw is void"),
    "R-I3": _l("both dice must hit the back wall; one alone is a warning"),
    "R-I4": _l("a die that hits the wall and then an object counts"),
    "R-I5": _l("knocking the dice aside does not make a no-roll"),
}

KIND_NAMES = {
    "line": _l("right / wrong (the line)"),
    "point": _l("point bet"),
    "come": _l("come / don't come"),
    "hardway": _l("hardway"),
    "number": _l("number bet"),
    "proposition": _l("proposition"),
}

LAMP_NAMES = {
    "throw": _l("throw"), "wait": _l("wait"), "no_roll": _l("no roll"),
    "ruling": _l("ruling"), "warning": _l("warning"), "fault": _l("fault"),
    "point_4": "4", "point_5": "5", "point_6": "6", "point_8": "8", "point_9": "9",
    "point_10": "10",
}

OUTCOME_NAMES = {
    "counts": _l("counts"), "warning": _l("counts, shooter warned"), "void": _l("void"),
    "operator": _l("waiting for the operator"), "refused": _l("not allowed"),
}


# what each kind of refusal (tablectl.game.errors) means, in the reader's language: the game's
# own detail (the figures of the case and what to do) stays in English beside it
REFUSALS = {
    "SeatingError": _l("The player cannot be seated, leave or shoot as asked."),
    "PlayerLeft": _l("This player has left the table: he may bet or shoot again once he joins."),
    "NotEnoughPlayers": _l("Too few players are seated for a come-out."),
    "NoShooter": _l("No shooter is named, or this player is not the shooter."),
    "BarredShooter": _l("This player is barred from shooting; he may still bet."),
    "DicePassError": _l("The dice may not be passed now."),
    "DiceChangeError": _l("The dice cannot be changed as asked."),
    "CenterBetError": _l("The center bet cannot be changed this way now."),
    "FadeTooMuch": _l("The faders would cover more than the shooter's bet."),
    "FadeClaimError": _l("This player has no claim to fade the whole bet first."),
    "UncoveredCenterBet": _l("Part of the center bet is not faded: take it down, call no bet, "
                             "or fade it."),
    "InsufficientBalance": _l("The player has not enough free units for this stake."),
    "BetsClosed": _l("Bets are closed while the dice roll."),
    "SideBetError": _l("This side bet cannot be made as asked."),
    "CallOffNotAllowed": _l("This side bet may not be called off or carried now."),
    "AwaitingRuling": _l("The operator must rule on the last throw first."),
    "NoRulingPending": _l("There is no throw for the operator to rule on or override now."),
    "SanctionNotOpen": _l("No sanction is open against this player."),
}


def rule_title(rule: str | None) -> str:
    if not rule:
        return ""
    title = RULE_TITLES.get(rule)
    return f"{rule}: {title}" if title is not None else rule


def kind_name(kind: str) -> str:
    name = KIND_NAMES.get(kind)
    return str(name) if name is not None else kind


def lamp_name(role: str) -> str:
    name = LAMP_NAMES.get(role)
    return str(name) if name is not None else role


def outcome_name(kind: str | None) -> str:
    name = OUTCOME_NAMES.get(kind or "")
    return str(name) if name is not None else (kind or "")


def _die_count(n: int, one: str, many: str) -> str:
    return ngettext(one, many, n, n=n)


_REASONS: list[tuple[re.Pattern, object]] = [
    (re.compile(r"^(?P<n>\d+) dice on the table: rule the throw$"),
     lambda m: _("%(n)s dice on the table: rule the throw", n=m["n"])),
    (re.compile(r"^(?P<n>\d+) di(?:e|ce) did not move since the last throw$"),
     lambda m: ngettext("%(num)s die did not move since the last throw",
                        "%(num)s dice did not move since the last throw", int(m["n"]))),
    (re.compile(r"^(?P<n>\d+) di(?:e|ce) not found at rest$"),
     lambda m: ngettext("%(num)s die not found at rest", "%(num)s dice not found at rest",
                        int(m["n"]))),
    (re.compile(r"^die (?P<i>\d+) came to rest outside the area$"),
     lambda m: _("die %(i)s came to rest outside the area", i=m["i"])),
    (re.compile(r"^die (?P<i>\d+) left the area during the throw$"),
     lambda m: _("die %(i)s left the area during the throw", i=m["i"])),
    (re.compile(r"^neither die hit the back wall$"), lambda m: _("neither die hit the back wall")),
    (re.compile(r"^die (?P<i>\d+) is cocked: rule its value or void the throw(?P<one>.*)$"),
     lambda m: _("die %(i)s is cocked: rule its value or void the throw", i=m["i"])
     + _one_wall(m["one"])),
    (re.compile(r"^die (?P<i>\d+) cannot be read: rule its value or void the throw(?P<one>.*)$"),
     lambda m: _("die %(i)s cannot be read: rule its value or void the throw", i=m["i"])
     + _one_wall(m["one"])),
    (re.compile(r"^only one die hit the back wall: shooter warned$"),
     lambda m: _("only one die hit the back wall: shooter warned")),
    (re.compile(r"^both dice hit the back wall$"), lambda m: _("both dice hit the back wall")),
    (re.compile(r"^voided by the operator$"), lambda m: _("voided by the operator")),
]


def _one_wall(rest: str) -> str:
    if rest.strip():
        return " (" + _("only one die hit the back wall: R-I3 warning if it counts") + ")"
    return ""


def reason(text: str | None) -> str:
    """The camera's or the operator's reason in the page's language (as is when unknown)."""
    if not text:
        return ""
    for pattern, render in _REASONS:
        m = pattern.match(text)
        if m:
            return render(m)
    return text


def refusal(rule: str | None, message: str, kind: str | None = None) -> dict:
    """A refusal for the page: what it means (``says``, from the refusal's class ``kind``), the
    rule that refused, both translated, and the game's own detail (English)."""
    detail = message
    if rule and message.startswith(f"{rule}: "):
        detail = message[len(rule) + 2:]
    title = rule_title(rule) if rule else _("refused")
    says = REFUSALS.get(kind or "")
    return {"rule": rule, "title": title, "says": str(says) if says is not None else title,
            "detail": detail}


def _units(n) -> str:
    return ngettext("%(num)s unit", "%(num)s units", n)


def describe(event: dict) -> str:
    """One sentence for one journal event (or a live table status)."""
    e = event
    name = e.get("event")
    p = e.get("player")
    sh = e.get("shooter")
    if name == "joined":
        return _("%(p)s joined with %(u)s", p=p, u=_units(e.get("units", 0)))
    if name == "left":
        return _("%(p)s left the table", p=p)
    if name == "cashed_out":
        return _("%(p)s cashed out %(u)s", p=p, u=_units(e.get("units", 0)))
    if name == "shooter_set":
        return _("%(p)s shoots", p=p)
    if name == "center_bet_made":
        return _("%(p)s shoots %(u)s (center bet)", p=p, u=_units(e.get("units", 0)))
    if name == "faded":
        return _("%(p)s fades %(u)s", p=p, u=_units(e.get("units", 0)))
    if name == "fade_returned":
        return _("%(p)s's fade of %(u)s returned", p=p, u=_units(e.get("units", 0)))
    if name == "center_raised":
        return _("%(p)s raises the center bet to %(u)s", p=p, u=_units(e.get("units", 0)))
    if name == "center_taken_down":
        return _("%(p)s takes down %(u)s not faded", p=p, u=_units(e.get("units", 0)))
    if name == "center_called_off":
        return _("no bet: the center bet is called off, every stake returned")
    if name == "center_settled":
        if e.get("winner") == "dice":
            return _("center bet: %(p)s wins %(u)s", p=p, u=_units(e.get("units", 0)))
        return _("center bet: the faders win %(u)s from %(p)s", p=p,
                 u=_units(-int(e.get("units", 0))))
    if name == "side_bet_made":
        return _("side bet %(id)s: %(a)s backs %(kind)s against %(b)s", id=e.get("id"),
                 a=e.get("for"), b=e.get("against"), kind=kind_name(e.get("kind", "")))
    if name == "side_bet_won":
        return _("side bet %(id)s: %(p)s wins %(u)s", id=e.get("id"), p=p,
                 u=_units(e.get("units", 0)))
    if name == "side_bet_lost":
        return _("side bet %(id)s: %(p)s loses %(u)s", id=e.get("id"), p=p,
                 u=_units(e.get("units", 0)))
    if name == "side_bet_returned":
        return _("side bet %(id)s called off: %(u)s back to %(p)s", id=e.get("id"), p=p,
                 u=_units(e.get("units", 0)))
    if name == "side_bet_carried":
        return _("come bet %(id)s carried on", id=e.get("id"))
    if name == "side_bet_callable":
        return _("come bet %(id)s may be called off or carried (R-S4)", id=e.get("id"))
    if name == "come_point_set":
        return _("come bet %(id)s: come point %(n)s", id=e.get("id"), n=e.get("come_point"))
    if name == "dice_rolling":
        return _("the dice are rolling: bets closed")
    if name in ("come_out", "thrown"):
        d = e.get("dice") or ["?", "?"]
        return _("%(s)s throws %(a)s + %(b)s = %(t)s", s=sh, a=d[0], b=d[1], t=e.get("total"))
    if name == "natural":
        return _("natural %(t)s: the dice win", t=e.get("total"))
    if name == "craps":
        return _("craps %(t)s: the dice lose", t=e.get("total"))
    if name == "point_set":
        return _("the point is %(n)s", n=e.get("point"))
    if name == "point_made":
        return _("point %(n)s made: the dice win", n=e.get("point"))
    if name == "seven_out":
        return _("seven-out: the dice lose")
    if name == "dice_passed":
        if e.get("to"):
            return _("the dice pass to %(p)s", p=e.get("to"))
        return _("the dice pass: no one may shoot")
    if name == "dice_changed":
        return _("new dice: pair %(n)s", n=e.get("pair"))
    if name == "dice_change_called":
        return _("new dice (pair %(n)s) called for the next come-out", n=e.get("pair"))
    if name == "dice_change_cancelled":
        return _("the change of dice is cancelled")
    if name == "throw_void":
        why = reason(e.get("reason")) or rule_title(e.get("rule"))
        return _("void throw (%(rule)s): %(why)s", rule=e.get("rule"), why=why)
    if name == "awaiting_ruling":
        return _("waiting for the operator: %(why)s", why=reason(e.get("reason")))
    if name == "operator_ruled":
        if e.get("void"):
            what = _("void")
        else:
            d = e.get("dice") or ["?", "?"]
            what = f"{d[0]} + {d[1]}"
        previous = e.get("previous")
        if e.get("override") and isinstance(previous, dict) and previous.get("void"):
            return _("the operator makes the void throw (%(rule)s) count: %(what)s (%(why)s)",
                     rule=previous.get("rule"), what=what, why=reason(e.get("why")))
        if e.get("override"):
            return _("the operator overrides the last throw: %(what)s (%(why)s)", what=what,
                     why=reason(e.get("why")))
        return _("the operator rules: %(what)s (%(why)s)", what=what, why=reason(e.get("why")))
    if name == "warned":
        return _("%(p)s is warned (%(rule)s)", p=p, rule=rule_title(e.get("rule")))
    if name == "sanction_open":
        return _("%(p)s offended again: the players may substitute or bar him", p=p)
    if name == "substituted":
        return _("%(p)s finishes %(q)s's turn", p=p, q=e.get("for"))
    if name == "barred":
        return _("%(p)s may not shoot for the rest of the game", p=p)
    if name == "throw_refused":
        # the rule's statement in the reader's language; the game's reason as it gave it
        return _("a throw that was not allowed (%(rule)s): %(why)s",
                 rule=rule_title(e.get("rule")) or "?", why=reason(e.get("reason")))
    if name == "table_status":
        return _("table status changed")
    return str(name)
