"""The demo's camera: throws rendered by the simulator in real time, one after another on one
table, for as long as the table runs.

Each throw opens with the previous throw's dice lying where they stopped, then picked up, then
the new throw (``vision.simulator.simulate_session``). Between throws the camera keeps showing
the felt (the last frame, at the camera's rate) until ``ready()`` says the players are done
betting, so the bets close when the dice are picked up (R-S0) and not before. Only the clip
being shown is in memory, and its frames are rendered as they are shown.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from vision.simulator import Scenario, SimulationError, Table, simulate_session
from vision.sources import Frame

# how often each case shows: mostly throws that count, so the game moves on
CASE_WEIGHTS = {
    Scenario.BOTH_HIT: 64,
    Scenario.ONE_HITS: 10,
    Scenario.NONE_HITS: 7,
    Scenario.OUT_OF_AREA: 7,
    Scenario.COCKED_DIE: 6,
    Scenario.COCKED_WALL: 6,
}


class _Cases:
    """The scenario of each throw, drawn when the throw is rendered (``simulate_session``
    reads ``scenarios[n % len(scenarios)]``)."""

    def __init__(self, choose: Callable[[int], Scenario]) -> None:
        self._choose = choose

    def __len__(self) -> int:
        return 1 << 62

    def __getitem__(self, n: int) -> Scenario:
        return self._choose(n)


class SimulatedCamera:
    """A frame source of simulated throws, paced in real time.

    :param size: (width, height) of the frames.
    :param fps: frames per second.
    :param speed: 1 is real time; 2 plays twice as fast (as far as rendering keeps up).
    :param seed: the evening's seed (looks, launches).
    :param ready: called (with the seconds waited so far) between throws; the next throw
        starts once it returns True. Default: a throw every ``pause`` seconds.
    :param pause: the least time between one throw's rest and the next throw, in seconds at
        speed 1.
    :param choose: the scenario of throw n; default drawn with ``CASE_WEIGHTS``.
    :param sleep: the pacing's sleep (tests pass a no-op).
    """

    def __init__(self, size: tuple[int, int] = (640, 480), fps: float = 60.0, *,
                 speed: float = 1.0, seed: int = 1, ready: Callable[[float], bool] | None = None,
                 pause: float = 3.0, choose: Callable[[int], Scenario] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        self.size = (int(size[0]), int(size[1]))
        self.fps = float(fps)
        self.speed = float(speed)
        self.seed = int(seed)
        self.ready = ready or (lambda waited: True)
        self.pause = float(pause)
        self._rng = random.Random(seed)
        self.choose = choose or self._weighted
        self._sleep = sleep
        self._closed = threading.Event()
        self.calibration = Table(self.size).calibration
        self.current: Any = None  # the clip being shown (its truth: what really happened)
        self.throws = 0
        self._clock = 0.0  # the camera's timestamps, seconds
        self._index = 0
        self._last: Any = None

    def _weighted(self, n: int) -> Scenario:
        cases = list(CASE_WEIGHTS)
        return self._rng.choices(cases, weights=[CASE_WEIGHTS[c] for c in cases])[0]

    def _clips(self) -> Iterator[Any]:
        seed = self.seed
        while not self._closed.is_set():
            try:
                yield from simulate_session(seed, 1 << 62, self.size, self.fps,
                                            scenarios=_Cases(self.choose),  # type: ignore[arg-type]
                                            idle_seconds=0.6, after_seconds=0.5)
            except SimulationError:
                seed += 1  # a launch the simulator could not make: go on with another table

    def __iter__(self) -> Iterator[Frame]:
        step = 1.0 / self.fps
        start_wall = time.monotonic()
        start_clock = self._clock

        def paced(image: Any) -> Frame:
            nonlocal start_wall, start_clock
            due = start_wall + (self._clock - start_clock) / self.speed
            late = due - time.monotonic()
            if late > 0:
                self._sleep(late)
            elif late < -1.0:  # rendering fell behind: do not rush to catch up
                start_wall, start_clock = time.monotonic(), self._clock
            frame = Frame(self._index, self._clock, image)
            self._index += 1
            self._clock += step
            return frame

        for clip in self._clips():
            if self._closed.is_set():
                return
            # the felt as the last throw left it, until the players are ready
            waited = 0.0
            while self._last is not None and not self._closed.is_set():
                if waited >= self.pause and self.ready(waited):
                    break
                yield paced(self._last)
                waited += step  # camera seconds (seconds at speed 1)
            if self._closed.is_set():
                return
            self.current = clip
            self.throws += 1
            for _, image in clip.frames:
                if self._closed.is_set():
                    return
                self._last = image
                yield paced(image)

    def close(self) -> None:
        self._closed.set()
