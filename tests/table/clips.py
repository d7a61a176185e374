"""Simulated camera feeds for the table's end-to-end tests: throws rendered by the simulator,
played through a frame source that can run a hook between clips or fail like a camera."""

from __future__ import annotations

import time
from collections.abc import Callable

from vision.simulator import Scenario, simulate_session
from vision.sources import CameraFault, Frame

SIZE = (640, 480)
FPS = 60.0
S = Scenario


def session(seed: int, scenarios: list[Scenario]) -> list:
    """Consecutive throws on one table (each clip starts with the last throw's dice lying
    there, then picked up). Frames are rendered when read."""
    return list(simulate_session(seed, len(scenarios), SIZE, FPS, scenarios=scenarios))


class ScriptedCamera:
    """Plays ``clips`` one after another on one clock, like a camera.

    :param hooks: clip index -> callable run (in the camera thread) before that clip.
    :param fault_at: (clip index, frame index): the camera fails there; iterating again (the
        table reopening it) goes on with the next clip after a gap, as a camera that came back.
    """

    def __init__(self, clips: list, hooks: dict[int, Callable[[], None]] | None = None,
                 fault_at: tuple[int, int] | None = None) -> None:
        self.clips = clips
        self.hooks = dict(hooks or {})
        self.fault_at = fault_at
        self.next_clip = 0
        self.index = 0
        self.clock = 0.0
        self.opened = 0
        self.closed = False

    def __iter__(self):
        self.opened += 1
        while self.next_clip < len(self.clips):
            i = self.next_clip
            self.next_clip += 1
            if i in self.hooks:
                self.hooks.pop(i)()
            for k, (_, image) in enumerate(self.clips[i].frames):
                if self.fault_at == (i, k):
                    self.fault_at = None
                    self.clock += 2.0  # the frames missed while it was away
                    raise CameraFault("camera 0 stopped delivering frames (test)")
                yield Frame(self.index, self.clock, image)
                self.index += 1
                self.clock += 1 / FPS

    def close(self) -> None:
        self.closed = True


def wait_until(predicate: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the table")
        time.sleep(0.02)


def source_done(table) -> bool:
    return table.state()["camera"]["fault"] == "the camera's source has no more frames"
