"""Turn what the camera saw of a throw into a ruling and the game commands that carry it out.

DESIGN.md "Ruling a throw" (RULES.md R-I1..R-I5), checked in this order, the first that applies
decides (later checks assume the earlier ones passed):

1. more than two dice, or a die that did not move since the last throw -> operator (the camera
   cannot be trusted; R-I2 is the rule that hands the throw to a bystander);
2. a die out of bounds (per ``TableRules.out_of_bounds``), or not found -> void (R-I1);
3. neither die hit the back wall -> void (R-I3): the faces do not matter then;
4. a die cocked or unreadable -> operator rules a value or voids it (R-I2);
5. only one die hit the wall -> counts, shooter warned (R-I3);
6. otherwise -> counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vision.observation import ThrowObservation

OUT_OF_BOUNDS_MODES = ("at_rest", "any_time")
EXPECTED_DICE = 2


@dataclass(frozen=True)
class Ruling:
    """The table's decision on one throw.

    :param kind: "counts" | "warning" | "void" | "operator".
    :param rule: the RULES.md id behind the decision (None for a plain "counts").
    :param reason: a sentence for the dashboard and the journal.
    :param dice: the two values when the throw counts, else None.
    :param observation: the observation as a dict (sent with "operator" rulings).
    """

    kind: str
    rule: str | None
    reason: str
    dice: tuple[int, int] | None = None
    observation: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``ruling`` object of ``tablectl replay --json``."""
        return {"kind": self.kind, "rule": self.rule, "reason": self.reason}

    def commands(self) -> list[dict[str, Any]]:
        """The game commands (script form) that play this ruling into the game."""
        if self.kind == "counts":
            return [{"command": "throw", "dice": list(self.dice)}]
        if self.kind == "warning":
            return [
                {"command": "throw", "dice": list(self.dice)},
                {"command": "warn", "rule": self.rule},
            ]
        if self.kind == "void":
            return [{"command": "void", "rule": self.rule, "reason": self.reason}]
        if self.kind == "operator":
            cmd: dict[str, Any] = {
                "command": "await_ruling",
                "rule": self.rule,
                "reason": self.reason,
            }
            if self.observation is not None:
                cmd["observation"] = self.observation
            return [cmd]
        raise ValueError(f"unknown ruling kind {self.kind!r}")


def _out_of_bounds_mode(rules: Any) -> str:
    mode = "at_rest" if rules is None else getattr(rules, "out_of_bounds", "at_rest")
    if mode not in OUT_OF_BOUNDS_MODES:
        raise ValueError(
            f"out_of_bounds must be one of {OUT_OF_BOUNDS_MODES}, got {mode!r} "
            "(set it in the [rules] table of table.toml)"
        )
    return mode


def rule_throw(observation: ThrowObservation, rules: Any = None) -> Ruling:
    """Rule one throw.

    :param observation: what the tracker saw.
    :param rules: the table's ``TableRules`` (only ``out_of_bounds`` is read here); None means
        the RULES.md defaults.
    """
    mode = _out_of_bounds_mode(rules)
    obs = observation
    dice = obs.dice
    found = [d for d in dice if d.center is not None]

    def operator(rule: str, reason: str) -> Ruling:
        return Ruling("operator", rule, reason, None, obs.to_dict())

    # 1. the camera cannot be trusted
    if obs.extra > 0 or len(found) > EXPECTED_DICE:
        n = max(len(found), EXPECTED_DICE + obs.extra)
        return operator("R-I2", f"{n} dice on the table: rule the throw")
    if obs.unmoved > 0 or any(not d.moved for d in found):
        n = max(obs.unmoved, sum(not d.moved for d in found))
        return operator(
            "R-I2", f"{n} di{'e' if n == 1 else 'ce'} did not move since the last throw"
        )

    # 2. out of bounds or not found (R-I1)
    if obs.missing > 0 or len(found) < EXPECTED_DICE:
        n = max(obs.missing, EXPECTED_DICE - len(found))
        return Ruling("void", "R-I1", f"{n} di{'e' if n == 1 else 'ce'} not found at rest")
    outside = [i for i, d in enumerate(dice, 1) if not d.at_rest_in_area]
    if outside:
        return Ruling("void", "R-I1", f"die {outside[0]} came to rest outside the area")
    if mode == "any_time":
        left = [i for i, d in enumerate(dice, 1) if d.left_area]
        if left:
            return Ruling("void", "R-I1", f"die {left[0]} left the area during the throw")

    # 3. the back wall (R-I3)
    hits = sum(bool(d.hit_wall) for d in dice)
    if hits == 0:
        return Ruling("void", "R-I3", "neither die hit the back wall")

    # 4. cocked or unreadable (R-I2); the operator also learns of a one-die wall hit (R-I3)
    also = " (only one die hit the back wall: R-I3 warning if it counts)" if hits == 1 else ""
    for i, d in enumerate(dice, 1):
        if d.cocked:
            return operator("R-I2", f"die {i} is cocked: rule its value or void the throw{also}")
        if d.value is None:
            return operator(
                "R-I2", f"die {i} cannot be read: rule its value or void the throw{also}"
            )

    values = (int(dice[0].value), int(dice[1].value))
    if hits == 1:
        return Ruling("warning", "R-I3", "only one die hit the back wall: shooter warned", values)
    return Ruling("counts", None, "both dice hit the back wall", values)
