"""Recall and audit worked out from journal rows (``tablectl.journal.Row``); no file access.

Recall: the last decisions of the line (R-B2..R-B6: natural, craps, point made, seven-out), each
from the rows after the previous decision up to and including it (so the bets made before its
come-out belong to it), with its throws, rulings and the bets settled with their amounts.

Audit: every operator act (a command carrying ``by``, every ``operator_ruling``) and every
sanction (warn, substitute, bar and the game's ``warned`` / ``sanction_open`` / ``substituted`` /
``barred`` events), with who, when and why.

``Journal.recall`` / ``Journal.audit`` (an open journal) and ``tablectl.recall`` (a journal
file, read-only) both use these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# the events that decide the line (R-B2..R-B6)
DECISIONS = ("natural", "craps", "point_made", "seven_out")
# events that settle a bet and name players and units
SETTLEMENT_SUFFIXES = ("_settled", "_won", "_lost", "_returned", "_called_off")
RULING_COMMANDS = ("void", "await_ruling", "operator_ruling", "warn", "substitute", "bar")
RULING_EVENTS = ("throw_void", "awaiting_ruling", "operator_ruled", "warned", "sanction_open",
                 "substituted", "barred")
SANCTION_COMMANDS = ("warn", "substitute", "bar")
SANCTION_EVENTS = ("warned", "sanction_open", "substituted", "barred")


def _names(row) -> list[str]:
    return [e.get("event", "") for e in row.events]


def _is_settlement(event: dict[str, Any]) -> bool:
    return event.get("event", "").endswith(SETTLEMENT_SUFFIXES)


def _throw_of(row) -> dict[str, Any] | None:
    """The throw a row records (a counted throw, an operator's value for one, or a void)."""
    cmd = row.command
    name = cmd.get("command")
    names = _names(row)
    dice = None
    if name == "throw" or (name == "operator_ruling" and "dice" in cmd):
        dice = cmd.get("dice")
    elif name not in ("void", "operator_ruling") and "throw_void" not in names:
        return None
    result = next((n for n in names if n in DECISIONS + ("point_set", "throw_void")), None)
    throw = {"seq": row.seq, "time": row.time, "dice": dice,
             "total": sum(dice) if dice else None,
             "result": result or ("void" if dice is None else "no decision")}
    if name == "operator_ruling":
        throw["ruled_by"] = cmd.get("by")
        ruled = next((e for e in row.events if e.get("event") == "operator_ruled"), {})
        if "previous" in ruled:  # an override: what the throw was ruled before (R-I2)
            throw["previous"] = ruled["previous"]
    if "image" in row.extra:
        throw["image"] = row.extra["image"]
    return throw


def _ruling_of(row) -> dict[str, Any] | None:
    cmd = row.command
    name = cmd.get("command")
    names = [n for n in _names(row) if n in RULING_EVENTS]
    if name not in RULING_COMMANDS and not names:
        return None
    ruling = {"seq": row.seq, "time": row.time, "command": name, "events": names}
    for key in ("rule", "reason", "by", "why", "dice", "void", "player"):
        if key in cmd:
            ruling[key] = cmd[key]
    return ruling


def _decision(block: list) -> dict[str, Any]:
    """One recall entry from the rows of a decision, oldest first (the last row decides)."""
    last = block[-1]
    decided = next(e for e in last.events if e.get("event") in DECISIONS)
    throws = [t for t in (_throw_of(r) for r in block) if t is not None]
    for before, t in zip(throws, throws[1:], strict=False):
        if "previous" in t:  # an override (R-I2): the throw before it no longer stands
            before["overridden"] = True
    rulings = [r for r in (_ruling_of(row) for row in block) if r is not None]
    settled = [dict(e, seq=r.seq) for r in block for e in r.events if _is_settlement(e)]
    point = decided.get("point")
    if point is None:
        point = next((e.get("point") for r in block for e in r.events
                      if e.get("event") == "point_set"), None)
    shooter = decided.get("shooter")
    if shooter is None:
        shooter = next((e.get("shooter") for r in block for e in r.events
                        if e.get("event") == "come_out" and "shooter" in e), None)
    deciding = throws[-1] if throws else {}
    return {
        "decision": decided["event"],
        "shooter": shooter,
        "point": point,
        "dice": deciding.get("dice"),
        "total": deciding.get("total"),
        "from_seq": block[0].seq,
        "to_seq": last.seq,
        "started": throws[0]["time"] if throws else block[0].time,
        "ended": last.time,
        "throws": throws,
        "rulings": rulings,
        "settled": settled,
    }


def recall_rows(rows_desc: Iterable, n: int = 10) -> list[dict[str, Any]]:
    """The last ``n`` decisions, oldest first, from rows given newest first (reads only as far
    back as it needs)."""
    if n < 1:
        return []
    blocks: list[list] = []
    current: list | None = None  # rows of the decision being collected, newest first
    for row in rows_desc:
        if any(name in DECISIONS for name in _names(row)):
            if current is not None:
                blocks.append(current)
                if len(blocks) == n:
                    current = None
                    break
            current = [row]
        elif current is not None:
            current.append(row)
    if current is not None:
        blocks.append(current)  # the oldest decision of the journal: its rows reach row 1
    return [_decision(list(reversed(b))) for b in reversed(blocks)]


def audit_rows(rows: Iterable) -> list[dict[str, Any]]:
    """Every operator act and every sanction, oldest first."""
    entries = []
    for row in rows:
        cmd = row.command
        name = cmd.get("command")
        sanctions = [e for e in row.events if e.get("event") in SANCTION_EVENTS]
        is_operator = "by" in cmd or name == "operator_ruling"
        if not (is_operator or name in SANCTION_COMMANDS or sanctions):
            continue
        ruled = next((e for e in row.events if e.get("event") == "operator_ruled"), {})
        # a ruling on the throw waiting for him is no override: only a change of the camera's
        # (or his own) ruling of the throw just made is (R-I2)
        kind = ("override" if ruled.get("override") else
                "ruling" if name == "operator_ruling" else
                "sanction" if name in SANCTION_COMMANDS or sanctions else "operator")
        entry: dict[str, Any] = {
            "seq": row.seq, "time": row.time, "kind": kind, "command": name,
            # who sent it: the command's own "by", else the sender the table journaled (the
            # camera's rulings, the warning the table adds after an operator's ruling)
            "who": cmd.get("by") or (row.extra or {}).get("by"),
            "why": cmd.get("why") or cmd.get("reason") or cmd.get("rule"),
        }
        for key in ("rule", "player", "dice", "void"):
            if key in cmd:
                entry[key] = cmd[key]
        if "previous" in ruled:
            entry["previous"] = ruled["previous"]
        entry["events"] = [e for e in row.events if e.get("event") in RULING_EVENTS]
        entries.append(entry)
    return entries


# --------------------------------------------------------------------------- text forms

def _dice_text(dice) -> str:
    return f"{dice[0]}+{dice[1]}" if dice else "-"


def _signed(units: int) -> str:
    return f"+{units}" if units > 0 else str(units)


def _settled_text(event: dict[str, Any]) -> str:
    """A settlement in words: who gets or loses how many units."""
    name = event.get("event", "?")
    if name == "center_settled" and isinstance(event.get("amounts"), dict):
        amounts = ", ".join(f"{p} {_signed(u)}" for p, u in event["amounts"].items())
        return f"center bet, {event.get('winner', '?')} win: {amounts}"
    bet = f"side bet {event['id']}" if "id" in event else name
    if name == "side_bet_won":
        return f"{bet}: {event.get('player')} wins {event.get('units')}"
    if name == "side_bet_lost":
        return f"{bet}: {event.get('player')} loses {event.get('units')}"
    if name == "side_bet_returned":
        return f"{bet}: {event.get('units')} returned to {event.get('player')}"
    details = " ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "seq"))
    return f"{name} {details}".strip()


def standing(throws: list[dict[str, Any]]) -> int:
    """How many of a decision's throws stand: an override replaces the throw it overrides."""
    return sum(1 for t in throws if not t.get("overridden"))


def _previous_text(previous) -> str:
    """An override's ``previous`` in words: what the throw was ruled before."""
    if previous is None:
        return ""
    if isinstance(previous, dict):
        return f", overrides void {previous.get('rule') or ''}".rstrip()
    return f", overrides {_dice_text(previous)}"


def format_decision(entry: dict[str, Any]) -> str:
    """A decision as a few readable lines."""
    point = f", point {entry['point']}" if entry.get("point") else ""
    lines = [f"rows {entry['from_seq']}-{entry['to_seq']}  {entry['ended']}  "
             f"shooter {entry.get('shooter') or '?'}{point}: {entry['decision']} "
             f"({_dice_text(entry.get('dice'))}), {standing(entry['throws'])} throw(s)"]
    throws = " ".join(
        ("(overridden) " if t.get("overridden") else "")
        + (_dice_text(t["dice"]) if t["dice"] else "void") + (
            f"[by {t['ruled_by']}{_previous_text(t.get('previous'))}]"
            if t.get("ruled_by") else "")
        for t in entry["throws"])
    lines.append(f"  throws: {throws or '-'}")
    for r in entry["rulings"]:
        detail = ", ".join(f"{k}={r[k]}" for k in ("rule", "reason", "by", "why", "dice",
                                                   "void", "player") if k in r)
        lines.append(f"  ruling #{r['seq']}: {r['command']} {detail}".rstrip())
    for s in entry["settled"]:
        lines.append(f"  settled #{s['seq']}: {_settled_text(s)}")
    return "\n".join(lines)


def format_audit(entry: dict[str, Any]) -> str:
    parts = [f"{k}={entry[k]}" for k in ("rule", "player", "dice", "void") if k in entry]
    if "previous" in entry:
        parts.append(_previous_text(entry["previous"]).lstrip(", "))
    detail = ", ".join(parts)
    events = " ".join(e.get("event", "?") for e in entry["events"])
    return (f"#{entry['seq']} {entry['time']} {entry['kind']}: {entry['command']} "
            f"by {entry['who'] or '(not named)'}; why: {entry['why'] or '(not given)'}"
            + (f"; {detail}" if detail else "") + (f" -> {events}" if events else ""))
