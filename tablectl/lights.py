"""The table's signal lights: what each lamp shows (``lamp_states``) and the pins (``Lights``).

``lamp_states`` is pure: it maps the running table's public state (``Table.state()`` without
``"lights"``) to ``"on"``, ``"off"`` or ``"blink"`` for every lamp role. The same mapping drives
the GPIO pins here and the dashboard's virtual lights, so the two never disagree.

The lamps (DESIGN.md "Signal lights"):

- the shooter's signal, one lamp at a time, the first that applies in this order:

  1. ``fault`` on: play is stopped, or the camera or the journal reports a fault;
  2. ``ruling`` on (red, steady): the operator must rule on a throw (R-I2);
  3. ``wait`` on (amber): the dice are rolling (bets are closed, R-S0);
  4. ``no_roll`` blinking (red): the last throw was void (R-I1, R-I3) or refused by the rules;
     it blinks until the next throw begins (the dice roll again);
  5. ``wait`` on (amber): bets are being made: the center bet is not fully faded (R-C2, R-C5);
  6. ``throw`` on (green): bets settled, nothing pending, no alert, and a shooter who may throw
     now (seated, not barred, and on the come-out enough players seated, R-P1);
  7. otherwise all five off (nobody to shoot yet).

  Only one of them is lit so that the shooter reads one answer to "may I throw?": a fault
  outranks everything because no throw can be recorded then; a pending ruling blocks the next
  throw; rolling dice mean the throw is under way, which also ends the previous void's notice.

- ``warning`` blinking (amber), beside the signal: the last throw drew a warning (R-I3, R-I5),
  until the next throw begins, or the table raised an alert (dice that did not move since the
  last throw, a third die, a die missing). The ``buzzer`` beeps once each time it turns on.
- the point board: ``point_4`` .. ``point_10``, the point's lamp on, all off on the come-out.
  It keeps showing the point during a fault (the point still stands).

``Lights`` drives gpiozero ``LED`` devices (and a ``Buzzer``) for the roles given pins; any role
may be absent. On a Raspberry Pi it uses gpiozero's default pin factory (lgpio on a Pi 5);
elsewhere gpiozero's ``MockFactory``, said once in the log.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
from collections.abc import Mapping

from tablectl.board import raspberry_pi_model

log = logging.getLogger(__name__)

ROLES = ("throw", "wait", "no_roll", "ruling", "warning", "fault", "buzzer",
         "point_4", "point_5", "point_6", "point_8", "point_9", "point_10")
#: every role that is a lamp (the buzzer is not one)
LAMP_ROLES = tuple(role for role in ROLES if role != "buzzer")
#: the point board's lamp for each point number (R-B4)
POINT_LAMPS = {4: "point_4", 5: "point_5", 6: "point_6", 8: "point_8", 9: "point_9",
               10: "point_10"}
LAMP_STATES = ("on", "off", "blink")
# last_throw kinds after which the shooter must throw again
NO_ROLL_KINDS = ("void", "refused")
DEFAULT_MIN_PLAYERS = 2  # R-P1's default (TableRules.min_players)


def lamp_states(view: Mapping, *, min_players: int = DEFAULT_MIN_PLAYERS) -> dict[str, str]:
    """What every lamp shows for the table's public state (the precedence is the module's).

    :param view: ``Table.state()`` (its ``"lights"`` key, if present, is ignored). Missing keys
        read as "nothing to report" (no fault, no ruling, no last throw).
    :param min_players: the table rule R-P1 (``TableRules.min_players``): a come-out needs that
        many seated players before the ``throw`` lamp lights.
    """
    game = view.get("state") or {}
    last = view.get("last_throw") or {}
    rolling = bool(game.get("rolling"))
    fault = bool(view.get("play_stopped")
                 or not (view.get("camera") or {}).get("ok", True)
                 or not (view.get("journal") or {}).get("ok", True))
    ruling = view.get("pending_ruling") is not None or game.get("awaiting_ruling") is not None
    alert = bool(view.get("alert"))
    no_roll = last.get("kind") in NO_ROLL_KINDS and not rolling
    center = game.get("center_bet") or {}
    bets_open = (center.get("open") or 0) > 0

    out = dict.fromkeys(LAMP_ROLES, "off")
    if fault:
        out["fault"] = "on"
    elif ruling:
        out["ruling"] = "on"
    elif rolling:
        out["wait"] = "on"
    elif no_roll:
        out["no_roll"] = "blink"
    elif bets_open:
        out["wait"] = "on"
    elif not alert and _may_throw(game, min_players):
        out["throw"] = "on"

    if alert or (last.get("kind") == "warning" and not rolling):
        out["warning"] = "blink"
    lamp = POINT_LAMPS.get(game.get("point"))
    if lamp is not None:
        out[lamp] = "on"
    return out


def _may_throw(game: Mapping, min_players: int) -> bool:
    """A shooter who may throw now (R-O1, R-D3, R-P1); the caller has checked the rest."""
    shooter = game.get("shooter")
    seats = game.get("seats") or []
    if shooter is None or shooter not in seats or shooter in (game.get("barred") or []):
        return False
    return game.get("point") is not None or len(seats) >= min_players


class LightsError(RuntimeError):
    """A light's pin cannot be claimed (wrong number, in use, no GPIO access)."""


_mock_factory = None
_mock_lock = threading.Lock()


def _default_factory():
    """None (gpiozero picks its default) on a Pi or when GPIOZERO_PIN_FACTORY names one; else
    this process's MockFactory, made and logged once."""
    global _mock_factory
    if raspberry_pi_model() is not None or os.environ.get("GPIOZERO_PIN_FACTORY"):
        # lgpio makes its notification pipes in the working directory unless LG_WD names
        # another: one the user cannot write (``sudo -u tablectl`` from a home folder) makes it
        # fail and gpiozero fall back to a lesser factory
        os.environ.setdefault("LG_WD", tempfile.gettempdir())
        return None
    with _mock_lock:
        if _mock_factory is None:
            from gpiozero.pins.mock import MockFactory

            _mock_factory = MockFactory()
            log.info("not a Raspberry Pi: the signal lights drive gpiozero's MockFactory pins "
                     "(nothing lights up)")
        return _mock_factory


class Lights:
    """The signal lamps and buzzer on GPIO pins.

    :param pins: role -> BCM pin number, for the roles wired (any subset of ``ROLES``).
    :param active_high: True when a pin driven high lights its lamp (lamp from pin to ground);
        False for lamps wired from 3.3 V to the pin (or through an inverting driver).
    :param pin_factory: a gpiozero pin factory; None: gpiozero's default on a Raspberry Pi
        (lgpio on a Pi 5), ``MockFactory`` elsewhere.
    :param blink_s: on and off time of a blinking lamp, seconds.
    :param beep_s: length of the buzzer's beep, seconds.

    Every lamp starts off. ``show`` changes only the lamps whose state changed.
    """

    def __init__(self, pins: Mapping[str, int], *, active_high: bool = True, pin_factory=None,
                 blink_s: float = 0.5, beep_s: float = 0.25) -> None:
        from gpiozero import LED, Buzzer
        from gpiozero.exc import GPIOZeroError

        _check_pins(pins)
        self.blink_s = blink_s
        self.beep_s = beep_s
        self.pin_factory = pin_factory if pin_factory is not None else _default_factory()
        self._devices: dict = {}
        self._shown = dict.fromkeys(LAMP_ROLES, "off")
        self._closed = False
        try:
            for role, pin in pins.items():
                kind = Buzzer if role == "buzzer" else LED
                self._devices[role] = kind(pin, active_high=active_high, initial_value=False,
                                           pin_factory=self.pin_factory)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise LightsError(
                f"cannot claim GPIO {pin} for the {role!r} light: {exc}. Check that no other "
                f"program uses it (tablectl doctor), that the user is in the 'gpio' group, and "
                f"the pin number in [lights] of table.toml (BCM numbering)") from exc

    @property
    def roles(self) -> tuple[str, ...]:
        """The roles that have a pin, in ``ROLES`` order."""
        return tuple(role for role in ROLES if role in self._devices)

    @property
    def shown(self) -> dict[str, str]:
        """What each lamp role shows now (as last given to ``show``)."""
        return dict(self._shown)

    def show(self, states: Mapping[str, str]) -> None:
        """Set every lamp to ``states[role]`` ("on", "off", "blink"; a role not given is off).

        Lamps whose state did not change are not touched (a blinking lamp keeps its rhythm).
        The buzzer beeps once when ``warning`` turns on (from "off" to "on" or "blink").
        """
        if self._closed:
            raise RuntimeError("the lights are closed")
        wanted = {}
        for role in LAMP_ROLES:
            state = states.get(role, "off")
            if state not in LAMP_STATES:
                raise ValueError(f"lamp {role!r}: state must be one of {LAMP_STATES}, got "
                                 f"{state!r}")
            wanted[role] = state
        unknown = set(states) - set(LAMP_ROLES)
        if unknown:
            raise ValueError(f"unknown lamp roles {sorted(unknown)}; lamps are {LAMP_ROLES}")
        warning_on = self._shown["warning"] == "off" and wanted["warning"] != "off"
        for role, state in wanted.items():
            if state == self._shown[role]:
                continue
            self._shown[role] = state
            lamp = self._devices.get(role)
            if lamp is None:
                continue
            if state == "on":
                lamp.on()
            elif state == "off":
                lamp.off()
            else:
                lamp.blink(on_time=self.blink_s, off_time=self.blink_s)
        buzzer = self._devices.get("buzzer")
        if warning_on and buzzer is not None:
            buzzer.beep(on_time=self.beep_s, off_time=self.beep_s, n=1)

    def beep(self) -> None:
        """One beep of the buzzer, if there is one (``show`` beeps by itself on a warning)."""
        if self._closed:
            raise RuntimeError("the lights are closed")
        buzzer = self._devices.get("buzzer")
        if buzzer is not None:
            buzzer.beep(on_time=self.beep_s, off_time=self.beep_s, n=1)

    def close(self) -> None:
        """Every lamp and the buzzer off, their pins released. Safe to call twice."""
        self._closed = True
        devices, self._devices = self._devices, {}
        for device in devices.values():
            try:
                device.off()
            finally:
                device.close()
        self._shown = dict.fromkeys(LAMP_ROLES, "off")

    def __enter__(self) -> Lights:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _check_pins(pins: Mapping[str, int]) -> None:
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        if role not in ROLES:
            raise ValueError(f"unknown light role {role!r} in [lights]; the roles are "
                             f"{', '.join(ROLES)}")
        if type(pin) is not int or pin < 0:
            raise ValueError(f"light {role!r}: the pin must be a BCM GPIO number such as 17, "
                             f"got {pin!r}")
        if pin in seen:
            raise ValueError(f"lights {seen[pin]!r} and {role!r} are both on GPIO {pin}: give "
                             f"each its own pin")
        seen[pin] = role
