"""One die followed through a throw: where and when it was seen, whether it moved or lay still."""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field


@dataclass
class DieTrack:
    """One die followed through a throw (positions in full-resolution pixels)."""

    ident: int
    frames: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    still: int = 0  # consecutive frames without motion
    moved: bool = False
    was_resting: bool = False  # first seen where a die lay after the previous throw
    from_hand: bool = False  # first seen coming out from under a hand (thrown, though maybe
    # seen only once at rest: the hand hid its roll)
    entered: bool = False  # first seen just clear of the image's border, where a blob touching
    # it was the frame before: it came into view, so it was thrown (a die landing near the
    # shooter's edge may move too little after that to count as moved)
    gone: bool = False
    # the last frame on which its blob held another die too (it flew with that die, or that
    # die came out of its blob), and that die's ident: what the blob did then is the pair's,
    # not surely this die's
    shared_until: int = -1
    shared_with: int | None = None
    bbox: tuple[int, int, int, int] = (0, 0, 0, 0)  # work-res x, y, w, h of its blob
    area: float = 0.0  # work-res pixel area of its blob (share of a merged blob)

    @property
    def came_in(self) -> bool:
        """Whether it was first seen coming into the view (from under a hand or over the
        image's border): thrown, however little it moved after."""
        return self.from_hand or self.entered

    def share(self, other: DieTrack, until: int) -> None:
        """Its blob and ``other``'s were one up to frame ``until``."""
        self.shared_until, self.shared_with = until, other.ident
        other.shared_until, other.shared_with = until, self.ident

    def add(self, frame: int, t: float, x: float, y: float) -> None:
        self.frames.append(frame)
        self.times.append(t)
        self.xs.append(x)
        self.ys.append(y)

    @property
    def last(self) -> tuple[float, float]:
        return self.xs[-1], self.ys[-1]

    def bend(self) -> float | None:
        """How much its velocity changed over its last four sightings (full-res pixels per
        frame interval, the two changes' lengths summed), if they lie on consecutive frames."""
        if len(self.frames) < 4 or self.frames[-1] - self.frames[-4] != 3:
            return None
        return _bend(self.xs[-4:], self.ys[-4:])

    def swap_last(self, other: DieTrack, n: int) -> None:
        """Give its last ``n`` sightings and its blob to ``other`` and take ``other``'s (two
        dice that one blob held, each track found following the other's die)."""
        for name in ("xs", "ys"):
            a, b = getattr(self, name), getattr(other, name)
            a[-n:], b[-n:] = b[-n:], a[-n:]
        self.bbox, other.bbox = other.bbox, self.bbox
        self.area, other.area = other.area, self.area

    def fill_from(self, twin: DieTrack, reach: float) -> int:
        """Take ``twin``'s sightings of frames it lacks between its first and last (``twin``
        was this die seen twice), each within ``reach`` (px per frame interval) of its
        sightings either side; the number taken."""
        taken = 0
        for f, t, x, y in zip(twin.frames, twin.times, twin.xs, twin.ys, strict=True):
            k = bisect.bisect_left(self.frames, f)
            if k == 0 or k == len(self.frames) or self.frames[k] == f:
                continue
            if all(math.hypot(x - self.xs[j], y - self.ys[j]) <= reach * abs(self.frames[j] - f)
                   for j in (k - 1, k)):
                self.frames.insert(k, f)
                self.times.insert(k, t)
                self.xs.insert(k, x)
                self.ys.insert(k, y)
                taken += 1
        return taken

    def velocity(self) -> tuple[float, float]:
        """Full-res pixels per second from the last two sightings."""
        if len(self.xs) < 2:
            return 0.0, 0.0
        dt = self.times[-1] - self.times[-2]
        if dt <= 0:
            return 0.0, 0.0
        return (self.xs[-1] - self.xs[-2]) / dt, (self.ys[-1] - self.ys[-2]) / dt

    def predict(self, t: float) -> tuple[float, float]:
        vx, vy = self.velocity()
        dt = t - self.times[-1]
        return self.xs[-1] + vx * dt, self.ys[-1] + vy * dt


def _bend(xs: list[float], ys: list[float]) -> float:
    total = 0.0
    for k in range(1, len(xs) - 1):
        total += math.hypot(xs[k + 1] - 2 * xs[k] + xs[k - 1], ys[k + 1] - 2 * ys[k] + ys[k - 1])
    return total


def swapped_bend(a: DieTrack, b: DieTrack, n: int) -> float:
    """The two tracks' ``bend`` summed, were their last ``n`` sightings exchanged."""
    return (_bend(a.xs[-4:-n] + b.xs[-n:], a.ys[-4:-n] + b.ys[-n:])
            + _bend(b.xs[-4:-n] + a.xs[-n:], b.ys[-4:-n] + a.ys[-n:]))
