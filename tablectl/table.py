"""The running table: one object that owns the game (through the journal), the lights and the
camera pipeline (DESIGN.md "The running table").

Every command, from the camera (through ``tablectl.rulings``), the dashboard or a script, goes
through :meth:`Table.submit` under one lock: it is committed to the journal first, and only then
do the lights and the subscribers (:meth:`Table.events_since`) hear of it.

The camera thread runs source -> ``ThrowTracker`` -> ``rule_throw`` -> ``submit``:

- when the tracker sees the dice let go (its state goes from IDLE to THROW) it sends
  ``dice_rolling``, which closes the bets (R-S0); if the rules refuse it (nobody seated, a ruling
  pending, the center bet not covered...), the throw that follows is journaled as
  ``refused_throw`` with that rule, its observation and its picture, and decides nothing;
- when the dice rest, the ruling's commands are played, the first one journaled with the
  observation and the annotated picture (a PNG in the state folder). Throw n is the journal seq
  of the row that recorded it.

A camera that fails stops play (the state says why, the fault lamp lights), invents nothing, and
is reopened with a growing back-off until it comes back. A journal that cannot be written stops
play the same way; a throw seen meanwhile is held and committed once the journal takes it.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tablectl.game import CommandError, RuleViolation
from tablectl.journal import Journal, JournalError
from tablectl.lights import Lights, lamp_states
from tablectl.rulings import after_operator, rule_throw

log = logging.getLogger("tablectl.table")

# commands that make or judge a throw: none while the camera is down (it could not see it)
THROW_COMMANDS = ("dice_rolling", "throw", "void", "await_ruling", "refused_throw")
# the rows that record a throw seen (or its ruling), for ``last_throw``
THROW_ROWS = ("throw", "void", "await_ruling", "operator_ruling", "refused_throw")
EVENTS_KEPT = 1000  # rows whose events stay in memory for the event stream; older are read back
STATUS_KEPT = 64
DIE_KEYS = ("value", "cocked", "confidence", "center")


class TableFault(RuntimeError):
    """Play is stopped (camera or journal fault) or the table is closed; nothing was changed.
    The message says why and what to do."""


def _image_url(n: int, kind: str = "image") -> str:
    return f"/api/throws/{n}/{kind}"


def _remember(paths: collections.OrderedDict[int, str], seq: int, path: str,
              keep: int = 256) -> None:
    """Note the picture of row ``seq``, forgetting the oldest past ``keep`` (older ones are
    looked up in the journal)."""
    paths[seq] = path
    while len(paths) > keep:
        paths.popitem(last=False)


def alert_of(observation: dict | None) -> str | None:
    """The unthrown-dice alert for a throw's observation: the camera cannot be trusted."""
    if not observation:
        return None
    if observation.get("extra"):
        n = 2 + int(observation["extra"])
        return f"{n} dice on the table: a die that is not in play lies in the area"
    dice = observation.get("dice") or []
    unmoved = max(int(observation.get("unmoved") or 0), sum(not d.get("moved", True)
                                                             for d in dice))
    if unmoved:
        return (f"{unmoved} di{'e' if unmoved == 1 else 'ce'} did not move since the last "
                "throw: were the dice thrown?")
    if observation.get("missing"):
        n = int(observation["missing"])
        return f"{n} di{'e' if n == 1 else 'ce'} missing: not found at rest"
    return None


class Table:
    """The running table: owns the game (through the journal), the lights, the camera thread.

    :param journal: the open journal (``Journal.open(path, rules)``); the table closes it.
    :param source: the camera's frame source (``vision.sources``), or None for no camera.
    :param calibration: where the table lies in the camera's image (needed with a source).
    :param lights: an object with ``show(states)`` and ``close()`` (``tablectl.lights.Lights``),
        or None for no lamps.
    :param readers: the dice reader for each pair of dice (index = pair, R-E2; None: the
        faces are not read); the tracker switches reader when the dice are changed (R-X1).
    :param state_dir: where throw pictures are kept (default: the journal's folder).
    :param reopen_backoff: (first, longest) wait in seconds before reopening a failed camera.
    :param tracker: a ready ``ThrowTracker`` (tests, the benchmark); default: one is built.
    :param tracker_settings: the ``TrackerSettings`` of the tracker built (``[judgement]`` of
        table.toml); None: the defaults.
    :param keep_images: keep only the pictures of this many last throws on disk (the demo,
        which runs for hours on a temporary folder); None keeps every picture.
    :param clock: monotonic seconds (the camera's back-off, event waits).
    """

    def __init__(
        self,
        journal: Journal,
        *,
        source: Any = None,
        calibration: Any = None,
        lights: Any = None,
        readers: Sequence[Any] = (),
        state_dir: Path | str | None = None,
        reopen_backoff: tuple[float, float] = (0.5, 8.0),
        tracker: Any = None,
        clock: Callable[[], float] = time.monotonic,
        keep_images: int | None = None,
        tracker_settings: Any = None,
    ) -> None:
        self._journal = journal
        self._rules = journal.rules
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._clock = clock
        self._lights = lights
        self._readers = list(readers)
        self.state_dir = Path(state_dir) if state_dir is not None else journal.path.parent
        self._images = self.state_dir / f"{journal.path.stem}-throws"
        self._images.mkdir(parents=True, exist_ok=True)
        self._events: collections.deque[tuple[int, list[dict]]] = collections.deque(
            maxlen=EVENTS_KEPT)
        self._status: collections.deque[tuple[int, int, dict]] = collections.deque(
            maxlen=STATUS_KEPT)
        self._status_gen = 0
        self._closed = False
        self._camera = {"ok": True, "fault": None}
        self._journal_health = {"ok": True, "fault": None}
        self._lamps: dict[str, str] = {}
        self._last_throw: dict | None = None
        self._pending_throw: int | None = None  # the seq of the row awaiting the ruling
        self._alert: str | None = None
        self._image_paths: collections.OrderedDict[int, str] = collections.OrderedDict()
        self._raw_paths: collections.OrderedDict[int, str] = collections.OrderedDict()
        self._pictures = Pictures(self._images, keep=keep_images)
        # the camera pipeline
        self._source = source
        self._tracker = tracker
        if source is not None and tracker is None:
            if calibration is None:
                raise ValueError("a Table with a camera source needs its calibration")
            from vision.tracker import ThrowTracker

            self._tracker = ThrowTracker(calibration, settings=tracker_settings, annotate=True)
        self._mount_loose = False  # said once in the log when the tracker finds it loose
        if self._tracker is not None and self._readers:  # the pair in use (R-E2, R-X1)
            self._tracker.reader = self._reader_for(journal.game.dice_pair)
        self._backoff = reopen_backoff
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._refusal: tuple[str, str] | None = None  # why the dice let go were refused
        self._held: tuple | None = None  # a throw the journal could not take yet
        self._resume_from_journal()
        self._update_lamps(announce=False)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_config(cls, config: Any, **overrides: Any) -> Table:
        """A table as ``config`` (a ``TableConfig``) describes it.

        Overrides: ``journal`` (an open Journal) or ``journal_path``; ``source`` (a frame
        source, or None for no camera); ``lights`` (an object with show/close, or None);
        ``pin_factory`` (gpiozero's, for the real ``Lights``); ``readers``; ``calibration``;
        ``state_dir``; ``reopen_backoff``; ``tracker``; ``keep_images``; ``tracker_settings``.
        """
        journal = overrides.pop("journal", None)
        if journal is None:
            path = Path(overrides.pop("journal_path", config.journal.path))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise TableFault(f"cannot create the journal's folder {path.parent}: "
                                 f"{exc.strerror}; set [journal] path to a writable place"
                                 ) from None
            journal = Journal.open(path, config.rules)
        try:
            if "lights" in overrides:
                lights = overrides.pop("lights")
            else:
                lights = Lights(config.lights.pins, active_high=config.lights.active_high,
                                pin_factory=overrides.pop("pin_factory", None))
            overrides.pop("pin_factory", None)
            if "source" in overrides:
                source = overrides.pop("source")
            else:
                source = camera_source(config.camera)
            readers = overrides.pop("readers", None)
            if readers is None:
                readers = dice_readers(config.dice.profiles) if source is not None else ()
            calibration = overrides.pop("calibration", None)
            if calibration is None:  # the simulator renders its own table
                calibration = getattr(source, "calibration", None) if \
                    config.camera.source == "simulator" else None
            calibration = calibration or config.calibration
            if config.judgement and "tracker_settings" not in overrides:
                from vision.judgement_settings import tracker_settings

                overrides["tracker_settings"] = tracker_settings(config.judgement)
            return cls(journal, source=source, calibration=calibration, lights=lights,
                       readers=readers, **overrides)
        except BaseException:
            journal.close()
            raise

    def _reader_for(self, pair: int) -> Any:
        if not self._readers:
            return None
        return self._readers[pair % len(self._readers)]

    # ------------------------------------------------------------------ commands
    def submit(self, command: dict, by: str = "script", *, observation: dict | None = None,
               image: str | Path | None = None) -> list[dict]:
        """Play one command: journal commit first, then lights and subscribers.

        :param command: a command of the vocabulary (docs/commands.md).
        :param by: who sends it ("camera", "operator", a player's name, "script"); kept in the
            journal row. An ``operator_ruling`` without ``by`` gets this one.
        :param observation: the camera's observation of a throw (``ThrowObservation.to_dict()``).
        :param image: the path of the throw's annotated picture.
        Raises RuleViolation / CommandError (nothing changed) or TableFault (play stopped or the
        journal cannot be written; nothing changed).
        """
        with self._lock:
            return self._submit(command, by, observation, image, None)

    def _submit(self, command: dict, by: str, observation: dict | None,
                image: str | Path | None, extra: dict | None) -> list[dict]:
        if self._closed:
            raise TableFault("the table is closed; start it again to play")
        if type(command) is not dict:
            raise CommandError(f"a command must be a JSON object, got {type(command).__name__}")
        name = command.get("command")
        if name in THROW_COMMANDS and not self._camera["ok"]:
            raise TableFault(f"play is stopped: {self._camera['fault']}; no throw can be "
                             "made or ruled until the camera sees the table again")
        pending = self._journal.game.pending_ruling
        if name == "operator_ruling" and "by" not in command:
            command = {**command, "by": by}
        events = self._commit(command, by, observation, image, extra)
        if name == "operator_ruling":
            # R-I3: the warning due on a one-wall throw the operator let count
            for follow in after_operator(command, pending):
                # the table's own command, by the rules: journaled as the table's
                events = events + self._commit(follow, "table", None, None, None)
        return events

    def _commit(self, command: dict, by: str, observation: dict | None,
                image: str | Path | None, extra: dict | None) -> list[dict]:
        try:
            events = self._journal.apply(command, observation=observation, image=image,
                                         extra={"by": by, **(extra or {})})
        except JournalError as exc:
            self._set_health(self._journal_health, str(exc))
            raise TableFault(f"play is stopped: the journal cannot be written: {exc}") from exc
        seq = self._journal.seq
        self._after_commit(seq, command, events, observation, image, extra or {})
        if not self._journal_health["ok"]:
            self._set_health(self._journal_health, None)
        else:
            self._update_lamps()
        self._changed.notify_all()
        return events

    def _after_commit(self, seq: int, command: dict, events: list[dict],
                      observation: dict | None, image: str | Path | None, extra: dict) -> None:
        self._events.append((seq, events))
        if image is not None:
            _remember(self._image_paths, seq, str(image))
        if extra.get("raw_image"):
            _remember(self._raw_paths, seq, extra["raw_image"])
        self._note_row(seq, command, events, observation, image, extra)
        if self._tracker is not None:
            for e in events:
                if e.get("event") == "dice_changed":  # R-X1: read the new pair with its profile
                    self._tracker.reader = self._reader_for(e["pair"])

    def _note_row(self, seq: int, command: dict, events: list[dict],
                  observation: dict | None, image: Any, extra: dict) -> None:
        """Keep ``last_throw``, the pending ruling's throw and the alert up to date."""
        name = command.get("command")
        last = self._last_throw
        if name == "warn" and last and last["throw"] == seq - 1:
            if last["kind"] == "counts":
                # the warning of the throw just made (R-I3, R-I5): it counted with a warning
                self._last_throw = {**last, "kind": "warning", "rule": command.get("rule")}
            elif last["kind"] == "void":
                # a warning right after a void: the void may still be overridden (R-I2)
                self._last_throw = {**last, "warned": command.get("rule")}
            return
        if name not in THROW_ROWS:
            return
        names = [e.get("event") for e in events]
        dice = [{k: d.get(k) for k in DIE_KEYS} for d in (observation or {}).get("dice", [])]
        ruling = extra.get("ruling") or {}
        throw: dict[str, Any] = {"throw": seq, "kind": None, "dice": dice,
                                 "rule": command.get("rule"),
                                 "reason": command.get("reason"),
                                 "image": _image_url(seq) if image is not None else None}
        if name == "throw":
            throw["kind"] = ruling.get("kind") or "counts"
            throw["rule"], throw["reason"] = ruling.get("rule"), ruling.get("reason")
            if not dice:
                throw["dice"] = [{"value": v} for v in command["dice"]]
            self._alert = None
        elif name == "void":
            throw["kind"] = "void"
            self._alert = alert_of(observation)
        elif name == "await_ruling":
            throw["kind"] = "operator"
            self._pending_throw = seq
            self._alert = alert_of(observation)
        elif name == "refused_throw":
            throw["kind"] = "refused"
        elif name == "operator_ruling":
            ruled = next((e for e in events if e.get("event") == "operator_ruled"), {})
            # the throw ruled on: the one pending, or (an override) the last one
            before = self._last_throw
            n = self._pending_throw or (before or {}).get("throw") or seq
            throw = dict(before or {"throw": n, "dice": [],
                                    "image": _image_url(n) if self._image_of(n) else None})
            throw.pop("warned", None)  # the warning kept a void open to this ruling: done
            throw.update({"kind": "void" if ruled.get("void") else "operator",
                          "rule": ruled.get("rule"),
                          "reason": f"ruled by {ruled.get('by')}" + (
                              f": {ruled['why']}" if ruled.get("why") else ""),
                          "ruled": ruled.get("dice")})
            self._pending_throw = None
            self._alert = None
        if "throw_void" in names and throw["kind"] not in ("void", "refused"):
            throw["kind"] = "void"
        self._last_throw = throw

    def _resume_from_journal(self) -> None:
        """After a restart: the last throw, the pending ruling's throw and the alert, from the
        journal's last rows."""
        seq = self._journal.seq
        if seq == 0:
            return
        since = max(0, seq - 400)
        rows = self._journal.rows(since)
        if since and not any(r.command.get("command") in THROW_ROWS for r in rows):
            rows = self._journal.rows(0)
        pending_seq = None
        if self._journal.game.pending_ruling is not None:
            for attempt in (rows, None):
                if attempt is None and since:  # the ruling was asked for longer ago
                    rows = self._journal.rows(0)
                pending_seq = next((r.seq for r in reversed(rows)
                                    if r.command.get("command") == "await_ruling"), None)
                if pending_seq is not None:
                    break
        for r in rows:
            if r.command.get("command") in THROW_ROWS + ("warn",) or r.seq == pending_seq:
                self._note_row(r.seq, r.command, r.events, r.extra.get("observation"),
                               r.extra.get("image"), r.extra)
            if "image" in r.extra:
                _remember(self._image_paths, r.seq, r.extra["image"])
            if r.extra.get("raw_image"):
                _remember(self._raw_paths, r.seq, r.extra["raw_image"])
        for r in rows[-EVENTS_KEPT:]:
            self._events.append((r.seq, r.events))

    # ------------------------------------------------------------------ reading
    def state(self) -> dict:
        """The public state (see the brief's contract): the game's state with the journal's seq,
        the pending ruling with its picture, the last throw, lights, health, alert, sanctions."""
        with self._lock:
            view = self._view()
            view["lights"] = dict(self._lamps)
            return view

    def _view(self) -> dict:
        game = self._journal.game.state()
        pending = game.get("awaiting_ruling")
        pending_view = None
        if pending is not None:
            n = self._pending_throw
            observation = pending.get("observation") or {}
            pending_view = {
                "throw": n,
                "image": _image_url(n) if n is not None and self._image_of(n) else None,
                # the rest frame as taken: the console's die close-ups are cut from it, so no
                # annotation covers the faces the operator must read
                "raw_image": (_image_url(n, "raw") if n is not None
                              and self._image_of(n, raw=True) else None),
                "dice": [{k: d.get(k) for k in DIE_KEYS} for d in observation.get("dice", [])],
                "rule": pending.get("rule"),
                "reason": pending.get("reason"),
            }
        barred = set(game.get("barred", ()))
        sanctions = {p: list(r) for p, r in game.get("sanctions_open", {}).items()
                     if r and p not in barred}
        stopped = None
        if not self._camera["ok"]:
            stopped = f"camera fault: {self._camera['fault']}"
        if not self._journal_health["ok"]:
            stopped = f"journal fault: {self._journal_health['fault']}"
        return {
            "seq": self._journal.seq,
            "state": game,
            "pending_ruling": pending_view,
            "last_throw": dict(self._last_throw) if self._last_throw else None,
            "camera": dict(self._camera),
            "journal": dict(self._journal_health),
            "play_stopped": stopped,
            "alert": self._alert,
            "sanctions": sanctions,
        }

    def events_since(self, seq: int, timeout: float) -> list[tuple[int, dict]]:
        """Every journal event after ``seq`` as (seq of its row, event), oldest first; waits up
        to ``timeout`` seconds for one when there is none yet ([] on timeout). Live-only
        ``table_status`` items come too when the camera's or the journal's health, the alert or
        the lights change while waiting (they are not replayed: ``state()`` has them)."""
        deadline = self._clock() + max(0.0, timeout)
        with self._changed:
            since_status = self._status_gen
            while True:
                if self._journal.seq > seq:
                    if not self._events or self._events[0][0] > seq + 1:
                        break  # older than what memory keeps: read them back below
                    items = [(s, e) for s, events in self._events if s > seq for e in events]
                    if items:
                        return items
                    seq = self._journal.seq  # rows without events: nothing to tell
                fresh = [(s, item) for g, s, item in self._status if g > since_status]
                if fresh:
                    return fresh
                left = deadline - self._clock()
                if left <= 0 or self._closed:
                    return []
                self._changed.wait(left)
        return [(r.seq, e) for r in self._journal.rows(seq) for e in r.events]

    def throw_image(self, n: int, *, raw: bool = False) -> bytes | None:
        """The annotated picture (PNG) of throw n (n = journal seq of its row), or None.

        :param raw: the rest frame as the camera took it, without annotations (kept only for
            a throw the operator had to rule); None when there is none.
        """
        path = self._image_of(n, raw=raw)
        if path is None:
            return None
        self._pictures.wait(path)
        try:
            return Path(path).read_bytes()
        except OSError:
            return None

    def _image_of(self, n: int, raw: bool = False) -> str | None:
        if type(n) is not int or n < 1:
            return None
        path = (self._raw_paths if raw else self._image_paths).get(n)
        if path is None and n <= self._journal.seq:
            rows = self._journal.rows(n - 1)
            if rows and rows[0].seq == n:
                path = rows[0].extra.get("raw_image" if raw else "image")
        return path

    def recall(self, n: int = 10) -> list[dict]:
        """The last ``n`` decisions, as ``tablectl recall --json``."""
        return self._journal.recall(n)

    def audit(self) -> list[dict]:
        """Every operator override and every sanction, oldest first."""
        return self._journal.audit()

    def journal_rows(self, since: int = 0) -> list:
        """The journal's rows after ``since`` (``tablectl.journal.Row``), for statistics."""
        return self._journal.rows(since)

    # ------------------------------------------------------------------ health and lamps
    def _set_health(self, health: dict, fault: str | None) -> None:
        if health["fault"] == fault and health["ok"] == (fault is None):
            return
        health["ok"] = fault is None
        health["fault"] = fault
        if fault is not None:
            log.error("play stopped: %s", fault)
        else:
            log.warning("play resumes")
        self._update_lamps(force_status=True)

    def _update_lamps(self, *, announce: bool = True, force_status: bool = False) -> None:
        """Map the state to the lamps and show them; announce a change of health, alert or
        lamps to the subscribers."""
        view = self._view()
        try:
            lamps = lamp_states(view, min_players=self._rules.min_players)
        except Exception:  # a lamp mapping bug must not stop the table
            log.exception("lamp mapping failed")
            lamps = dict(self._lamps)
        changed = lamps != self._lamps
        alert_changed = getattr(self, "_announced_alert", None) != view["alert"]
        self._lamps = lamps
        self._announced_alert = view["alert"]
        if changed and self._lights is not None:
            try:
                self._lights.show(lamps)
            except Exception:
                log.exception("cannot drive the lamps")
        if announce and (changed or alert_changed or force_status):
            self._status_gen += 1
            self._status.append((self._status_gen, view["seq"], {
                "event": "table_status", "camera": view["camera"], "journal": view["journal"],
                "play_stopped": view["play_stopped"], "alert": view["alert"],
                "lights": dict(lamps)}))
            self._changed.notify_all()

    # ------------------------------------------------------------------ the camera
    def start(self) -> None:
        """Start the camera thread (if a camera is configured); idempotent."""
        with self._lock:
            if self._source is None or self._thread is not None or self._closed:
                return
            self._thread = threading.Thread(target=self._camera_main, name="table-camera",
                                            daemon=True)
            self._thread.start()

    def _camera_main(self) -> None:
        from vision.sources import CameraFault, SourceError

        wait = self._backoff[0]
        while not self._stop.is_set():
            try:
                for frame in self._source:
                    if self._stop.is_set():
                        return
                    if not self._camera["ok"]:
                        with self._lock:
                            self._set_health(self._camera, None)
                        wait = self._backoff[0]
                    self._on_frame(frame)
                with self._lock:  # a video or a simulation that ends: the camera is gone
                    self._set_health(self._camera, "the camera's source has no more frames")
                return
            except (CameraFault, SourceError, OSError) as exc:
                fault = str(exc) or type(exc).__name__
            except Exception as exc:  # a bug must not end the thread silently
                log.exception("camera pipeline failed")
                fault = f"camera pipeline failed: {exc}"
            # nothing is invented: the throw in progress is dropped, the bets stay as they are
            self._tracker.reset()
            self._refusal = None
            with self._lock:
                self._set_health(self._camera, fault)
            if self._stop.wait(wait):
                return
            wait = min(wait * 2, self._backoff[1])

    def _on_frame(self, frame: Any) -> None:
        from vision.tracker import IDLE, THROW

        if self._held is not None:  # the journal could not take the last throw: retry it
            if self._clock() < self._held[-1]:
                return
            self._play_throw(*self._held[:-1])
            if self._held is not None:
                return
            self._tracker.reset()
        tracker = self._tracker
        was = tracker.state
        observation = tracker.feed(frame.timestamp, frame.image)
        if tracker.mount_loose != self._mount_loose:
            self._mount_loose = tracker.mount_loose
            if self._mount_loose:
                log.warning("the camera's image moves from frame to frame (a loose mount): the "
                            "tracker steadies it, but fix the camera rigidly (docs/hardware.md)")
            else:
                log.info("the camera's image stands still again")
        if was == IDLE and tracker.state == THROW:
            self._dice_let_go()
        if observation is not None:
            # the frame that ended the throw is its rest frame (unless the dice were read on an
            # earlier one, before a hand came to them)
            rest = frame.image if observation.rest_frame == tracker.frame_index else None
            self.play_observation(observation, rest)

    def _dice_let_go(self) -> None:
        """The dice are moving: bets close (R-S0), or the throw is refused by the rules."""
        self._refusal = None
        with self._lock:
            if self._journal.game.rolling:
                return  # already closed (a pickup before this throw, or a restart mid-throw)
            try:
                self._submit({"command": "dice_rolling"}, "camera", None, None, None)
            except RuleViolation as exc:
                self._refusal = (exc.rule, exc.reason)
            except TableFault:
                pass  # the throw is held and retried when it rests

    def play_observation(self, observation: Any, rest_image: Any = None) -> list[dict]:
        """Rule a throw the tracker saw and play it into the game (what the camera thread does
        when the dice rest): returns the events.

        :param rest_image: the rest frame as the camera took it (not annotated); kept beside a
            throw the operator must rule (``raw_image``), from which ``tablectl dice learn
            --journal`` learns the table's dice with the faces he gave.
        """
        ruling = rule_throw(observation, self._rules)
        refusal, self._refusal = self._refusal, None
        raw = rest_image if ruling.kind == "operator" and refusal is None else None
        return self._play_throw(ruling, observation.to_dict(), (observation.snapshot, raw),
                                refusal)

    def _play_throw(self, ruling: Any, obs: dict, pictures: tuple[Any, Any],
                    refusal: tuple[str, str] | None) -> list[dict]:
        snapshot, raw = pictures
        with self._lock:
            self._held = None
            if refusal is not None:
                commands = [self._refused(refusal, ruling)]
            else:
                commands = ruling.commands()
            events: list[dict] = []
            for i, cmd in enumerate(commands):
                first = i == 0
                seq = self._journal.seq + 1
                image = self._pictures.path_for(seq) if first and snapshot is not None else None
                raw_path = self._pictures.path_for(seq, "raw") if first and raw is not None \
                    else None
                extra = {"ruling": ruling.to_dict()}
                if raw_path is not None:
                    extra["raw_image"] = str(raw_path)
                try:
                    try:
                        events += self._submit(cmd, "camera", obs if first else None, image,
                                               extra if first else None)
                    except RuleViolation as exc:
                        if not first:
                            log.warning("camera: %s refused after its throw: %s",
                                        cmd.get("command"), exc)
                            continue
                        refused = self._refused((exc.rule, exc.reason), ruling)
                        extra.pop("raw_image", None)
                        raw_path = None
                        events += self._submit(refused, "camera", obs, image, extra)
                except TableFault:
                    if self._closed:
                        return events
                    # the journal takes nothing now: keep the rest of this throw, try later
                    rest = ruling if first else _Rest(commands[i:], ruling)
                    self._held = (rest, obs if first else None,
                                  (snapshot, raw) if first else (None, None),
                                  refusal if first else None, self._clock() + self._backoff[0])
                    return events
                if image is not None:  # committed: the picture is written off the camera's path
                    self._pictures.write(image, snapshot)
                if raw_path is not None:
                    self._pictures.write(raw_path, raw)
            return events

    @staticmethod
    def _refused(refusal: tuple[str, str], ruling: Any) -> dict:
        cmd = {"command": "refused_throw", "rule": refusal[0],
               "reason": f"{refusal[1]} (camera's ruling: {ruling.kind})"}
        if ruling.dice is not None:
            cmd["dice"] = list(ruling.dice)
        return cmd

    # ------------------------------------------------------------------ closing
    def close(self) -> None:
        """Stop the camera, lamps off, journal closed; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._changed.notify_all()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        self._pictures.close()
        if self._source is not None:
            try:
                self._source.close()
            except Exception:
                log.exception("closing the camera failed")
        if self._lights is not None:
            try:
                self._lights.close()
            except Exception:
                log.exception("turning the lamps off failed")
        with self._lock:
            self._journal.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Pictures:
    """Writes the throws' annotated pictures (PNG) in a thread of its own, after the throw is
    committed, so that encoding them (tens of ms) never delays a ruling.

    :param folder: where they go, ``throw-NNNNNN.png`` (NNNNNN = the journal row of the throw).
    :param keep: keep only this many of the pictures written by this process (None: all).
    """

    def __init__(self, folder: Path, keep: int | None = None) -> None:
        self.folder = folder
        self.keep = keep
        self._jobs: queue.Queue = queue.Queue()
        self._pending: dict[str, threading.Event] = {}
        self._written: collections.deque[Path] = collections.deque()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def path_for(self, seq: int, kind: str = "") -> Path:
        """The picture of the throw recorded by row ``seq``; ``kind`` "raw": the rest frame as
        taken, without the annotations."""
        return self.folder / f"throw-{seq:06d}{'-' + kind if kind else ''}.png"

    def write(self, path: Path, image: Any) -> None:
        with self._lock:
            self._pending[str(path)] = threading.Event()
            if self._thread is None:
                self._thread = threading.Thread(target=self._main, name="table-pictures",
                                                daemon=True)
                self._thread.start()
        self._jobs.put((path, image))

    def wait(self, path: str | Path, timeout: float = 5.0) -> None:
        """Until the picture at ``path`` is on disk (if it is being written)."""
        with self._lock:
            done = self._pending.get(str(path))
        if done is not None:
            done.wait(timeout)

    def _main(self) -> None:
        import cv2

        while True:
            job = self._jobs.get()
            if job is None:
                return
            path, image = job
            try:
                ok, buf = cv2.imencode(".png", image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
                if not ok:
                    raise OSError("PNG encoding failed")
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(buf.tobytes())
                tmp.replace(path)
                if self.keep is not None:
                    self._written.append(path)
                    while len(self._written) > self.keep:
                        self._written.popleft().unlink(missing_ok=True)
            except (OSError, cv2.error) as exc:
                log.error("cannot save the picture %s: %s", path, exc)
            finally:
                with self._lock:
                    self._pending.pop(str(path)).set()

    def close(self, timeout: float = 1.5) -> None:
        """Write what is queued, then stop."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(timeout)


class _Rest:
    """What is left of a ruling's commands when the journal failed part way through."""

    def __init__(self, commands: list[dict], ruling: Any) -> None:
        self._commands = commands
        self.kind, self.rule, self.reason, self.dice = (ruling.kind, ruling.rule,
                                                        ruling.reason, ruling.dice)
        self._ruling = ruling

    def commands(self) -> list[dict]:
        return list(self._commands)

    def to_dict(self) -> dict:
        return self._ruling.to_dict()


def camera_source(camera: Any) -> Any:
    """The frame source of a ``[camera]`` section (None when ``source`` is "")."""
    if not camera.source:
        return None
    if camera.source == "simulator":
        from tablectl.demo.camera import SimulatedCamera

        return SimulatedCamera(size=camera.size, fps=camera.fps)
    from vision.sources import source_from_config

    return source_from_config(camera.to_mapping())


def dice_readers(profiles: Sequence[str]) -> list[Any]:
    """A dice reader per pair (a profile path, or "" for the general reader); one general
    reader is shared."""
    from vision.dice import DiceReader

    general = None
    readers = []
    for profile in profiles or ("",):
        if profile:
            try:
                readers.append(DiceReader(profile=profile))
            except TypeError:  # a vision package without learnt profiles
                raise TableFault(f"[dice] profile {profile!r}: this tablectl's dice reader "
                                 "cannot load learnt profiles; write \"\" to use the general "
                                 "reader") from None
        else:
            general = general or DiceReader()
            readers.append(general)
    return readers
