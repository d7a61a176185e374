"""Dice motion on the table plane, with height for flight and bounces.

Each die is a square footprint on the felt (x, y, yaw) with a height z while in the air, and a
cube orientation that tips over an edge (a quarter roll) as it tumbles: in flight at its tumble
rate, on the felt in proportion to the distance it rolls. Contacts (back wall, side rails, the
other die) are resolved in sub-steps, so a contact between two frames still counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .dice3d import ROLL_DIRS, ROTATIONS, quarter_roll, rot_z
from .scene import DIE_MM, Table

G = 9810.0  # mm/s^2
H = DIE_MM / 2


@dataclass
class Launch:
    """How a die leaves the shooter's hand (world mm, mm/s, radians).

    :param pos: (x, y) on the felt below the die.
    :param z: height of the die's bottom above the felt.
    :param vel: (vx, vy) horizontal velocity (vy < 0 goes toward the wall).
    :param vz: vertical velocity.
    :param yaw: turn about the vertical; spin: its rate (rad/s).
    :param orientation: index into the 24 cube orientations (the face up at release).
    :param tumble: quarter rolls per second while in the air; tumble_dir: 0..3.
    :param roll_frac: how much of the sliding on the felt is rolling (0..1).
    :param wall_restitution: bounce off the back wall (0 = dead stop).
    :param friction: sliding friction coefficient on the felt.
    """

    pos: tuple[float, float]
    z: float
    vel: tuple[float, float]
    vz: float
    yaw: float
    spin: float
    orientation: int
    tumble: float
    tumble_dir: int
    roll_frac: float = 0.7
    wall_restitution: float = 0.55
    friction: float = 0.45


@dataclass
class Track:
    """One die's recorded state per frame and what happened to it."""

    x: list[float] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    z: list[float] = field(default_factory=list)  # height of the bottom above the felt
    yaw: list[float] = field(default_factory=list)
    rot: list[np.ndarray] = field(default_factory=list)  # integer orientation, yaw frame
    roll_dir: list[int] = field(default_factory=list)
    phi: list[float] = field(default_factory=list)  # fraction of the current quarter roll
    moving: list[bool] = field(default_factory=list)
    wall_hit_frames: list[int] = field(default_factory=list)
    die_hit_frames: list[int] = field(default_factory=list)
    rail_hit_frames: list[int] = field(default_factory=list)
    outside_frames: list[int] = field(default_factory=list)  # centre outside the area
    entered_frame: int | None = None  # first frame the centre was inside the area
    min_wall_gap_mm: float = float("inf")  # closest the footprint came to the back wall
    max_outside_mm: float = 0.0  # farthest the centre went outside the area after entering
    rest_frame: int | None = None


class Body:
    def __init__(self, launch: Launch, rng: np.random.Generator):
        self.p = np.array(launch.pos, np.float64)
        self.v = np.array(launch.vel, np.float64)
        self.z, self.vz = float(launch.z), float(launch.vz)
        self.yaw, self.w = float(launch.yaw), float(launch.spin)
        self.rot = ROTATIONS[launch.orientation % 24].copy()
        self.tumble, self.rdir, self.phi = float(launch.tumble), int(launch.tumble_dir), 0.0
        self.launch = launch
        self.rng = rng
        self.airborne = self.z > 0 or self.vz > 0
        self.at_rest = False

    def half_extent(self, angle: float) -> float:
        """Half the footprint's width along the direction `angle`."""
        d = self.yaw - angle
        return H * (abs(np.cos(d)) + abs(np.sin(d)))

    def step(self, dt: float) -> None:
        if self.at_rest:
            return
        speed = float(np.hypot(*self.v))
        if self.airborne:
            self.p += self.v * dt
            self.z += self.vz * dt
            self.vz -= G * dt
            self.phi += self.tumble * dt
            if self.z <= 0.0:
                self.z = 0.0
                if -self.vz > 250.0:
                    # a bounce on the felt: loses height, speed and some tumble
                    self.vz = -self.vz * 0.3
                    self.v *= 0.8
                    self.tumble *= self.rng.uniform(0.4, 0.9)
                    self.w += self.rng.normal(0.0, 4.0)
                else:
                    self.vz = 0.0
                    self.airborne = False
        else:
            if speed > 0:
                dec = self.launch.friction * G * dt
                self.v -= self.v / speed * min(speed, dec)
            self.p += self.v * dt
            if speed > 140.0 and self.launch.roll_frac > 0:
                if self.phi == 0.0:
                    self.rdir = self._roll_dir()
                self.phi += speed * dt / DIE_MM * self.launch.roll_frac
            elif self.phi > 0.0:
                # too slow to tip over the next edge: fall forward or back onto a face
                self.phi += (6.0 if self.phi >= 0.5 else -6.0) * dt
                self.phi = max(self.phi, 0.0)
        while self.phi >= 1.0:
            self.rot = quarter_roll(self.rot, self.rdir)
            self.phi -= 1.0
            if not self.airborne:
                self.rdir = self._roll_dir()
        # spin decays, fast once the die no longer slides
        if self.w:
            k = 2.0 if self.airborne else (4.0 if speed > 1 else 25.0)
            dw = (k * abs(self.w) + 6.0) * dt
            self.w = 0.0 if abs(self.w) <= dw else self.w - np.sign(self.w) * dw
        self.yaw += self.w * dt
        if (not self.airborne and self.phi == 0.0 and self.w == 0.0
                and not np.any(self.v)):
            self.at_rest = True

    def _roll_dir(self) -> int:
        local = rot_z(-self.yaw)[:2, :2] @ self.v
        return int(np.argmax(ROLL_DIRS[:, :2] @ local))

    def wake(self) -> None:
        self.at_rest = False


def _collide(a: Body, b: Body, restitution: float) -> bool:
    """Separate two overlapping footprints (separating axes) and exchange momentum."""
    if abs(a.z - b.z) >= DIE_MM:
        return False
    d = b.p - a.p
    dist = float(np.hypot(*d))
    if dist > 2.9 * H:
        return False
    best, axis = np.inf, None
    for ang in (a.yaw, a.yaw + np.pi / 2, b.yaw, b.yaw + np.pi / 2):
        n = np.array([np.cos(ang), np.sin(ang)])
        overlap = a.half_extent(ang) + b.half_extent(ang) - abs(float(d @ n))
        if overlap <= 0:
            return False
        if overlap < best:
            best, axis = overlap, n if d @ n >= 0 else -n
    a.p -= axis * best / 2
    b.p += axis * best / 2
    vrel = float((b.v - a.v) @ axis)
    if vrel < 0:
        j = -(1 + restitution) * vrel / 2
        a.v -= j * axis
        b.v += j * axis
        a.w += a.rng.normal(0.0, 5.0)
        b.w += b.rng.normal(0.0, 5.0)
    a.wake()
    b.wake()
    return True


def simulate(
    table: Table,
    launches: list[Launch],
    fps: float,
    rng: np.random.Generator,
    substeps: int = 8,
    max_seconds: float = 6.0,
    die_restitution: float = 0.5,
) -> tuple[list[Track], int | None]:
    """Run the throw until every die rests; returns per-die tracks and the rest frame (or None).

    Frame 0 is the instant of release; one frame per 1/fps seconds.
    """
    bodies = [Body(launch, rng) for launch in launches]
    tracks = [Track() for _ in bodies]
    dt = 1.0 / (fps * substeps)
    n_frames = int(max_seconds * fps)
    rest_frame = None

    def record(i: int) -> None:
        for b, t in zip(bodies, tracks, strict=True):
            t.x.append(float(b.p[0]))
            t.y.append(float(b.p[1]))
            t.z.append(float(b.z))
            t.yaw.append(float(b.yaw))
            t.rot.append(b.rot.copy())
            t.roll_dir.append(b.rdir)
            t.phi.append(float(b.phi))
            t.moving.append(not b.at_rest)

    record(0)
    for i in range(1, n_frames):
        for _ in range(substeps):
            for b in bodies:
                b.step(dt)
            for k, b in enumerate(bodies):
                t = tracks[k]
                r = b.half_extent(np.pi / 2)
                t.min_wall_gap_mm = min(t.min_wall_gap_mm, max(0.0, b.p[1] - r))
                if b.p[1] - r < 0.0:
                    b.p[1] = r
                    if b.v[1] < 0:
                        # the back wall: its rubber pyramids kick the die off at an angle
                        e = b.launch.wall_restitution
                        b.v[1] = -b.v[1] * e
                        b.v[0] = b.v[0] * 0.8 + b.rng.normal(0.0, 60.0) * e
                        b.w += b.rng.normal(0.0, 10.0)
                        b.wake()
                        if not t.wall_hit_frames or t.wall_hit_frames[-1] != i:
                            t.wall_hit_frames.append(i)
                rx = b.half_extent(0.0)
                if abs(b.p[0]) + rx > table.x_rail:
                    s = np.sign(b.p[0])
                    b.p[0] = s * (table.x_rail - rx)
                    if b.v[0] * s > 0:
                        b.v[0] = -b.v[0] * 0.5
                        b.wake()
                        if not t.rail_hit_frames or t.rail_hit_frames[-1] != i:
                            t.rail_hit_frames.append(i)
                inside = table.in_area(b.p[0], b.p[1])
                if inside and t.entered_frame is None:
                    t.entered_frame = i
                if not inside and t.entered_frame is not None:
                    t.max_outside_mm = max(t.max_outside_mm, table.outside_mm(*b.p))
                    if not t.outside_frames or t.outside_frames[-1] != i:
                        t.outside_frames.append(i)
            for ia in range(len(bodies)):
                for ib in range(ia + 1, len(bodies)):
                    if _collide(bodies[ia], bodies[ib], die_restitution):
                        for t in (tracks[ia], tracks[ib]):
                            if not t.die_hit_frames or t.die_hit_frames[-1] != i:
                                t.die_hit_frames.append(i)
        record(i)
        for b, t in zip(bodies, tracks, strict=True):
            if b.at_rest and t.rest_frame is None:
                t.rest_frame = i
            elif not b.at_rest:
                t.rest_frame = None
        if all(b.at_rest for b in bodies):
            rest_frame = i
            break
    return tracks, rest_frame
