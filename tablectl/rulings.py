"""Turn what the camera saw of a throw into a ruling and the game commands that carry it out.

DESIGN.md "Ruling a throw" (RULES.md R-I1..R-I5), checked in this order, the first that applies
decides (later checks assume the earlier ones passed):

1. more than two dice, or a die that did not move since the last throw -> operator (the camera
   cannot be trusted; R-I2 is the rule that hands the throw to a bystander);
2. a die out of bounds (per ``TableRules.out_of_bounds``), or lost after its centre left the
   area (off the table) -> void (R-I1); a die missing that the camera did not see leave (under
   an object, a hand, a chip) -> operator (R-I2: he sees where it lies);
3. neither die hit the back wall -> void (R-I3): the faces do not matter then;
4. a die cocked or unreadable -> operator rules a value or voids it (R-I2); if only one die hit
   the wall the ruling also carries ``warn_if_counted = "R-I3"``: the shooter is warned once the
   operator gives values (the throw counts), not when he voids it (see ``Ruling``);
5. only one die hit the wall -> counts, shooter warned (R-I3);
6. otherwise -> counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tablectl.game.rules import DICE_PER_THROW as EXPECTED_DICE
from tablectl.game.rules import OUT_OF_BOUNDS_CHOICES as OUT_OF_BOUNDS_MODES
from vision.observation import ThrowObservation

# key of the await_ruling observation naming the warning due if the operator lets it count
WARN_KEY = "warn_if_counted"


def after_operator(operator_cmd: dict[str, Any], pending: dict[str, Any] | None) -> list[dict]:
    """The commands due right after an ``operator_ruling``: a ``warn`` (R-I3) when the throw he
    ruled on had only one die hit the back wall and he gave values (the throw counts).

    :param operator_cmd: the operator's ``operator_ruling`` command (``dice`` or ``void``).
    :param pending: the game's pending ruling as it was before that command
        (``game.state()["awaiting_ruling"]``), whose ``observation`` may name the warning.
    """
    if operator_cmd.get("command") != "operator_ruling":
        raise ValueError(
            f"after_operator needs an operator_ruling command, got {operator_cmd.get('command')!r}"
        )
    observation = (pending or {}).get("observation") or {}
    rule = observation.get(WARN_KEY)
    if rule and operator_cmd.get("dice") is not None and not operator_cmd.get("void"):
        return [{"command": "warn", "rule": rule}]
    return []


@dataclass(frozen=True)
class Ruling:
    """The table's decision on one throw.

    :param kind: "counts" | "warning" | "void" | "operator".
    :param rule: the RULES.md id behind the decision (None for a plain "counts").
    :param reason: a sentence for the dashboard and the journal.
    :param dice: the two values when the throw counts, else None.
    :param observation: the observation as a dict (sent with "operator" rulings).
    :param warn_if_counted: for an "operator" ruling, the rule ("R-I3": only one die hit the
        back wall) under which the shooter is warned if the operator lets the throw count.

    What the table must do with an "operator" ruling: apply ``commands()`` (``await_ruling``;
    ``warn_if_counted`` rides in its ``observation`` so the game's pending ruling, journaled,
    keeps it across a restart), then, when the operator has ruled, apply his ``operator_ruling``
    followed by ``after_operator(that command, pending)``: a ``warn`` when he gave values and the
    warning is due. The game refuses ``warn`` while it awaits the ruling, and a warning belongs
    to a throw that counts (R-I3), so it cannot be sent earlier nor after a void.
    """

    kind: str
    rule: str | None
    reason: str
    dice: tuple[int, int] | None = None
    observation: dict[str, Any] | None = None
    warn_if_counted: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``ruling`` object of ``tablectl replay --json``."""
        return {"kind": self.kind, "rule": self.rule, "reason": self.reason}

    def after_operator(self, operator_cmd: dict[str, Any]) -> list[dict[str, Any]]:
        """The commands to apply right after the operator's ``operator_ruling`` on this ruling:
        ``[{"command": "warn", "rule": "R-I3"}]`` when he gave values and only one die hit the
        wall, else []."""
        pending = {"observation": {WARN_KEY: self.warn_if_counted}}
        return after_operator(operator_cmd, pending)

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
            observation = dict(self.observation or {})
            if self.warn_if_counted:
                observation[WARN_KEY] = self.warn_if_counted
            if observation:
                cmd["observation"] = observation
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

    def operator(rule: str, reason: str, warn: str | None = None) -> Ruling:
        return Ruling("operator", rule, reason, None, obs.to_dict(), warn)

    # 1. the camera cannot be trusted
    if obs.extra > 0 or len(found) > EXPECTED_DICE:
        n = max(len(found), EXPECTED_DICE + obs.extra)
        return operator("R-I2", f"{n} dice on the table: rule the throw")
    if obs.unmoved > 0 or any(not d.moved for d in found):
        n = max(obs.unmoved, sum(not d.moved for d in found))
        return operator(
            "R-I2", f"{n} di{'e' if n == 1 else 'ce'} did not move since the last throw"
        )

    # 2. out of bounds or not found (R-I1); a die that vanished inside the area (R-I2)
    if obs.missing > 0 or len(found) < EXPECTED_DICE:
        n = max(obs.missing, EXPECTED_DICE - len(found))
        lost = [d for d in dice if d.center is None]
        dice_word = f"{n} di{'e' if n == 1 else 'ce'}"
        if any(d.left_area for d in lost):
            return Ruling("void", "R-I1", f"{dice_word} not found at rest: left the area")
        return operator("R-I2", f"{dice_word} not found at rest (under an object?): rule "
                                "the value where it lies or void the throw")
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
        warn = "R-I3" if hits == 1 else None
        if d.cocked:
            return operator(
                "R-I2", f"die {i} is cocked: rule its value or void the throw{also}", warn
            )
        if d.value is None:
            return operator(
                "R-I2", f"die {i} cannot be read: rule its value or void the throw{also}", warn
            )

    values = (int(dice[0].value), int(dice[1].value))
    if hits == 1:
        return Ruling("warning", "R-I3", "only one die hit the back wall: shooter warned", values)
    return Ruling("counts", None, "both dice hit the back wall", values)
