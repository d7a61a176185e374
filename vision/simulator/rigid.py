"""Full 3-D rigid-body motion of dice: tumbling cubes with corner, edge and face contacts.

Each die is a solid cube (uniform density, so its inertia is the same about every axis:
I = m a^2 / 6) with a position, a velocity, an orientation matrix and an angular velocity.
Gravity acts; contacts are found vertex by vertex against the felt (z = 0), the back wall's
face (y = 0), the side rails (x = +-x_rail) and the other die, and resolved with impulses
(restitution along the contact normal, Coulomb friction across it) at the point where the
cube actually touches. So a tumbling die reaches the wall with a corner or an edge first and
its centre is then between half an edge and half a space diagonal from the wall.

`simulate_rigid` steps the dice until they all rest and returns one `RigidTrack` per die: the
pose at every sub-step (for motion blur over an exposure) and every contact it made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .dice3d import CUBE_VERTICES, FACE_NORMALS, rot_axis
from .scene import DIE_MM, Table

G = 9810.0  # mm/s^2
H = DIE_MM / 2
INV_MASS = 1.0  # unit mass: impulses are in mm/s
INV_INERTIA = 6.0 / DIE_MM**2  # a cube's inertia m a^2 / 6, the same about every axis
REACH = float(np.sqrt(3.0)) * H  # centre to corner: half a space diagonal
SLOW_NORMAL = 60.0  # mm/s: a contact slower than this does not bounce (resting contact)
SLEEP_SPEED = 25.0  # mm/s and
SLEEP_SPIN = 2.5  # rad/s below which a die lying flat on the felt settles
SLEEP_S = 0.04  # for this long
CONTACT_SLOP = 0.3  # mm: corners this close to the deepest one touch too


@dataclass
class RigidLaunch:
    """How a die leaves the shooter's hand (world mm, mm/s, rad/s).

    :param pos: centre (x, y, z) of the cube.
    :param vel: its velocity (vy < 0 goes toward the back wall).
    :param rotation: body -> world rotation matrix (3x3).
    :param spin: angular velocity vector, world frame, rad/s.
    """

    pos: tuple[float, float, float]
    vel: tuple[float, float, float]
    rotation: np.ndarray
    spin: tuple[float, float, float]


@dataclass(frozen=True)
class Surfaces:
    """What the dice bounce on.

    :param felt_restitution: bounce on the felt (0 = dead).
    :param felt_friction: sliding friction coefficient on the felt.
    :param wall_restitution: bounce off the back wall, 0.3 (padding) .. 0.95 (hard wood).
    :param wall_friction: friction against the wall's face.
    :param wall_scatter: how far the wall's surface normal tilts at random per contact,
        radians (rubber pyramids: large, so the rebound direction is noisy; flat wood: 0).
    :param rail_restitution: bounce off the side rails.
    :param die_restitution: bounce of one die off the other.
    :param die_friction: friction between the dice.
    :param rolling_drag: how fast the felt takes spin and speed from a die touching it (1/s).
    """

    felt_restitution: float = 0.3
    felt_friction: float = 0.45
    wall_restitution: float = 0.6
    wall_friction: float = 0.3
    wall_scatter: float = 0.0
    rail_restitution: float = 0.5
    die_restitution: float = 0.5
    die_friction: float = 0.2
    rolling_drag: float = 3.0


@dataclass
class Contact:
    """One impact (not a resting touch).

    :param frame: the frame at whose end the impact had happened (contacts between frames
        count for the next frame).
    :param what: "wall", "felt", "rail" or "die".
    :param centre_mm: for the wall, the centre's distance from the wall's plane at contact.
    :param vertices: how many cube corners touched (1 corner, 2 an edge, 4 a face).
    :param speed: the approach speed along the normal, mm/s.
    :param energy_before: kinetic energy (per unit mass) just before the impulse, and
    :param energy_after: just after it.
    """

    frame: int
    what: str
    centre_mm: float
    vertices: int
    speed: float
    energy_before: float
    energy_after: float


@dataclass
class RigidTrack:
    """One die's poses (one per sub-step, sub-step 0 at release) and what happened to it."""

    centres: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # (steps, 3)
    rotations: np.ndarray = field(default_factory=lambda: np.zeros((0, 3, 3)))  # (steps, 3, 3)
    contacts: list[Contact] = field(default_factory=list)
    rest_step: int | None = None

    def wall_contacts(self) -> list[Contact]:
        return [c for c in self.contacts if c.what == "wall"]


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


_CORNERS = [tuple(float(x) * H for x in c) for c in CUBE_VERTICES]
# the corners and the edges' middles: the points of one die tested against the other (so two
# edges crossing are caught too, not only a corner going in)
_PROBES = _CORNERS + [tuple(float(x) * H for x in m) for m in
                      {tuple((a + b) / 2) for a in CUBE_VERTICES for b in CUBE_VERTICES
                       if np.abs(a - b).sum() == 2}]


class _Cube:
    """A die's state in plain floats (the step runs thousands of times per throw: numpy's
    per-call cost on 3-vectors would dominate)."""

    def __init__(self, launch: RigidLaunch):
        self.p = [float(x) for x in launch.pos]
        self.v = [float(x) for x in launch.vel]
        self.q = _quat_of(np.asarray(launch.rotation, np.float64))
        self.w = [float(x) for x in launch.spin]
        self.asleep = False
        self.calm_s = 0.0
        self._m = None

    def matrix(self):
        """Rows of the body -> world rotation matrix."""
        if self._m is None:
            w, x, y, z = self.q
            self._m = ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
                       (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
                       (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
        return self._m

    def rotation(self) -> np.ndarray:
        return np.array(self.matrix())

    def set_rotation(self, r: np.ndarray) -> None:
        self.q = _quat_of(r)
        self._m = None

    def vertices(self, points=_CORNERS) -> list[tuple[float, float, float]]:
        """World positions of body points (default: the eight corners)."""
        (a, b, c), (d, e, f), (g, h, i) = self.matrix()
        px, py, pz = self.p
        return [(px + a * x + b * y + c * z, py + d * x + e * y + f * z, pz + g * x + h * y + i * z)
                for x, y, z in points]

    def energy(self) -> float:
        """Kinetic energy per unit mass (translation and rotation)."""
        return 0.5 * _dot(self.v, self.v) + 0.5 / INV_INERTIA * _dot(self.w, self.w)

    def integrate(self, dt: float) -> None:
        v, p = self.v, self.p
        v[2] -= G * dt
        p[0] += v[0] * dt
        p[1] += v[1] * dt
        p[2] += v[2] * dt
        wx, wy, wz = self.w
        if wx or wy or wz:
            qw, qx, qy, qz = self.q
            h = 0.5 * dt
            qw, qx, qy, qz = (qw - h * (wx * qx + wy * qy + wz * qz),
                              qx + h * (wx * qw + wy * qz - wz * qy),
                              qy + h * (wy * qw + wz * qx - wx * qz),
                              qz + h * (wz * qw + wx * qy - wy * qx))
            s = 1.0 / (qw * qw + qx * qx + qy * qy + qz * qz) ** 0.5
            self.q = (qw * s, qx * s, qy * s, qz * s)
            self._m = None


def _quat_of(r: np.ndarray) -> tuple[float, float, float, float]:
    """Unit quaternion (w, x, y, z) of a rotation matrix."""
    r = np.asarray(r, np.float64)
    t = float(np.trace(r))
    if t > 0:
        s = 2.0 * np.sqrt(t + 1.0)
        q = (0.25 * s, (r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s)
    else:
        i = int(np.argmax(np.diag(r)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(1.0 + r[i, i] - r[j, j] - r[k, k])
        q4 = [0.0, 0.0, 0.0, 0.0]
        q4[0] = (r[k, j] - r[j, k]) / s
        q4[1 + i] = 0.25 * s
        q4[1 + j] = (r[j, i] + r[i, j]) / s
        q4[1 + k] = (r[k, i] + r[i, k]) / s
        q = tuple(q4)
    n = float(np.sqrt(sum(x * x for x in q)))
    return tuple(float(x) / n for x in q)  # type: ignore[return-value]


def _impulse(cube: _Cube, point, n, e: float, mu: float, other: _Cube | None = None) -> float:
    """Apply a contact impulse at `point` with normal `n` (pointing into `cube`, away from
    what it touches); returns the approach speed (0: separating, nothing done)."""
    ra = (point[0] - cube.p[0], point[1] - cube.p[1], point[2] - cube.p[2])
    wr = _cross(cube.w, ra)
    vrel = [cube.v[0] + wr[0], cube.v[1] + wr[1], cube.v[2] + wr[2]]
    rb = None
    if other is not None:
        rb = (point[0] - other.p[0], point[1] - other.p[1], point[2] - other.p[2])
        wr = _cross(other.w, rb)
        for i in range(3):
            vrel[i] -= other.v[i] + wr[i]
    vn = _dot(vrel, n)
    if vn >= 0.0:
        return 0.0
    e = e if -vn > SLOW_NORMAL else 0.0

    def k_along(d) -> float:
        c = _cross(ra, d)
        k = INV_MASS + INV_INERTIA * _dot(c, c)
        if rb is not None:
            c = _cross(rb, d)
            k += INV_MASS + INV_INERTIA * _dot(c, c)
        return k

    jn = -(1.0 + e) * vn / k_along(n)
    jnv = [jn * n[0], jn * n[1], jn * n[2]]
    j = jnv
    vt = (vrel[0] - vn * n[0], vrel[1] - vn * n[1], vrel[2] - vn * n[2])
    st = _dot(vt, vt) ** 0.5
    if st > 1e-9:
        t = (vt[0] / st, vt[1] / st, vt[2] / st)
        jt = min(mu * jn, st / k_along(t))
        j = [j[0] - jt * t[0], j[1] - jt * t[1], j[2] - jt * t[2]]
    bodies = [(cube, ra, 1.0)] + ([(other, rb, -1.0)] if other is not None else [])
    saved = [(b.v[:], b.w[:]) for b, _, _ in bodies]
    before = sum(b.energy() for b, _, _ in bodies)
    for b, r, sign in bodies:
        _push(b, r, j, sign)
    if sum(b.energy() for b, _, _ in bodies) > before + 1e-9:
        # the normal and friction impulses, found one after the other, can together add
        # energy at some contact geometries: then the normal impulse alone (which never does)
        for (b, r, sign), (v, w) in zip(bodies, saved, strict=True):
            b.v, b.w = v, w
            _push(b, r, jnv, sign)
    return -vn


def _push(cube: _Cube, r, j, sign: float) -> None:
    tq = _cross(r, j)
    for i in range(3):
        cube.v[i] += sign * j[i] * INV_MASS
        cube.w[i] += sign * INV_INERTIA * tq[i]


def _plane_contact(cube: _Cube, verts, axis: int, sign: float, c: float, n, e: float,
                   mu: float) -> tuple[int, float, float, float] | None:
    """Resolve the cube against the half-space sign * x[axis] >= c: push it out, then one
    impulse (along `n`, the plane's normal, perhaps tilted by its texture) at the mean of the
    touching corners. Returns (corners touching, approach speed, energy before, energy after)
    or None when no corner reaches the plane."""
    depths = [c - sign * vt[axis] for vt in verts]
    deepest = max(depths)
    if deepest < -1e-6:
        return None
    # corners within a hair of the plane share the contact, so a die settling onto a face
    # pushes back at the face's middle instead of rocking from corner to corner
    touching = [vt for vt, d in zip(verts, depths, strict=True) if d > deepest - CONTACT_SLOP]
    cube.p[axis] += sign * deepest
    m = len(touching)
    point = [sum(vt[0] for vt in touching) / m, sum(vt[1] for vt in touching) / m,
             sum(vt[2] for vt in touching) / m]
    point[axis] = sign * c
    before = cube.energy()
    speed = _impulse(cube, point, n, e, mu)
    return m, speed, before, cube.energy()


def _die_contact(a: _Cube, b: _Cube, e: float, mu: float) -> float | None:
    """Corners or edge middles of either cube inside the other: push them apart and exchange
    an impulse.
    Returns the fastest approach speed, or None when they do not touch."""
    d = (a.p[0] - b.p[0], a.p[1] - b.p[1], a.p[2] - b.p[2])
    dd = _dot(d, d)
    if dd > 4 * REACH * REACH:
        return None
    hit = None
    if dd < DIE_MM * DIE_MM:
        # centres closer than an edge: the cubes overlap whatever their turn (each holds a
        # ball of half an edge); part them along the line between the centres
        dist = max(dd**0.5, 1e-6)
        n = (d[0] / dist, d[1] / dist, d[2] / dist) if dd > 1e-12 else (1.0, 0.0, 0.0)
        gap = (DIE_MM - dist) / 2
        for i in range(3):
            a.p[i] += n[i] * gap
            b.p[i] -= n[i] * gap
        a.asleep = b.asleep = False
        hit = _impulse(a, ((a.p[0] + b.p[0]) / 2, (a.p[1] + b.p[1]) / 2,
                           (a.p[2] + b.p[2]) / 2), n, e, mu, other=b)
    for p, q in ((a, b), (b, a)):
        rq = q.matrix()
        cols = [(rq[0][i], rq[1][i], rq[2][i]) for i in range(3)]  # q's body axes in the world
        best = None
        for vt in p.vertices(_PROBES):
            rel = (vt[0] - q.p[0], vt[1] - q.p[1], vt[2] - q.p[2])
            loc = [_dot(rel, ax) for ax in cols]
            if abs(loc[0]) < H and abs(loc[1]) < H and abs(loc[2]) < H:
                depth_axes = [H - abs(x) for x in loc]
                dmin = min(depth_axes)
                if best is None or dmin > best[0]:
                    best = (dmin, depth_axes.index(dmin), loc, vt)
        if best is None:
            continue
        depth, axis, loc, vt = best
        s = 1.0 if loc[axis] >= 0 else -1.0
        n = (cols[axis][0] * s, cols[axis][1] * s, cols[axis][2] * s)  # out of q, into p
        for i in range(3):
            p.p[i] += n[i] * depth / 2
            q.p[i] -= n[i] * depth / 2
        speed = _impulse(p, vt, n, e, mu, other=q)
        if speed > SLOW_NORMAL:
            p.asleep = q.asleep = False
            p.calm_s = q.calm_s = 0.0
        hit = max(hit or 0.0, speed)
    return hit


def flat_rotation(r: np.ndarray) -> np.ndarray:
    """The rotation nearest to `r` that puts a face exactly on the felt (the face most nearly
    facing down turned to face straight down)."""
    normals = FACE_NORMALS @ r.T
    down = normals[int(np.argmin(normals[:, 2]))]
    axis = np.cross(down, [0.0, 0.0, -1.0])
    s = float(np.linalg.norm(axis))
    if s < 1e-12:
        return r
    angle = float(np.arctan2(s, -down[2]))
    return rot_axis(axis / s, angle) @ r


def top_tilt_deg(r: np.ndarray) -> float:
    """Angle between the face most nearly up and the vertical, degrees."""
    up = float((FACE_NORMALS @ r.T)[:, 2].max())
    return float(np.degrees(np.arccos(np.clip(up, -1.0, 1.0))))


def simulate_rigid(
    table: Table,
    launches: list[RigidLaunch],
    surfaces: Surfaces,
    fps: float,
    rng: np.random.Generator,
    steps_per_frame: int | None = None,
    max_seconds: float = 4.0,
) -> tuple[list[RigidTrack], int, int | None]:
    """Step the dice from release until every one rests.

    :param steps_per_frame: sub-steps per camera frame (default: about 1.7 ms each).
    Returns (tracks, steps_per_frame, the frame every die rests by, or None if they did not
    within max_seconds). Track poses are recorded at every sub-step, index 0 = release.
    """
    k = steps_per_frame or max(4, int(round(600.0 / fps)))
    dt = 1.0 / (fps * k)
    cubes = [_Cube(launch) for launch in launches]
    tracks = [RigidTrack() for _ in cubes]
    up, wall_n = (0.0, 0.0, 1.0), (0.0, 1.0, 0.0)
    left_n, right_n = (1.0, 0.0, 0.0), (-1.0, 0.0, 0.0)
    xr = table.x_rail
    drag = float(np.exp(-surfaces.rolling_drag * dt))
    scatter = surfaces.wall_scatter
    poses = [[] for _ in cubes]

    n_steps = int(max_seconds * fps) * k
    for cube, pl in zip(cubes, poses, strict=True):
        pl.append((*cube.p, *cube.q))
    for step in range(1, n_steps + 1):
        frame = -(-step // k)  # the frame at whose end this sub-step lies
        for cube, t, pl in zip(cubes, tracks, poses, strict=True):
            if cube.asleep:
                pl.append(pl[-1])
                continue
            cube.integrate(dt)
            p = cube.p
            near_felt = p[2] < REACH + 0.5
            near_wall = p[1] < REACH + 0.5
            near_rail = abs(p[0]) > xr - REACH - 0.5
            if near_felt or near_wall or near_rail:
                verts = cube.vertices()
                on_felt = False
                if near_felt:
                    res = _plane_contact(cube, verts, 2, 1.0, 0.0, up,
                                         surfaces.felt_restitution, surfaces.felt_friction)
                    if res is not None:
                        on_felt = True
                        if res[1] > SLOW_NORMAL:
                            t.contacts.append(Contact(frame, "felt", p[2], *res))
                        verts = cube.vertices()
                if near_wall:
                    n = wall_n
                    if scatter > 0:
                        # the wall's texture (rubber pyramids) tilts the normal at random
                        tx, tz = (float(x) for x in rng.normal(0.0, scatter, 2))
                        s = 1.0 / (1.0 + tx * tx + tz * tz) ** 0.5
                        n = (tx * s, s, tz * s)
                    res = _plane_contact(cube, verts, 1, 1.0, 0.0, n,
                                         surfaces.wall_restitution, surfaces.wall_friction)
                    if res is not None:
                        if res[1] > SLOW_NORMAL:
                            t.contacts.append(Contact(frame, "wall", p[1], *res))
                        verts = cube.vertices()
                if near_rail:
                    for sign, n in ((1.0, left_n), (-1.0, right_n)):
                        res = _plane_contact(cube, verts, 0, sign, -xr, n,
                                             surfaces.rail_restitution, surfaces.wall_friction)
                        if res is not None:
                            if res[1] > SLOW_NORMAL:
                                t.contacts.append(Contact(frame, "rail", abs(p[0]), *res))
                            verts = cube.vertices()
                if on_felt:
                    # the felt is soft: it takes spin and speed from a die that touches it
                    g = drag if _dot(cube.v, cube.v) > 1e4 else drag * drag * drag
                    cube.w = [x * g for x in cube.w]
                    cube.v[0] *= g
                    cube.v[1] *= g
                    _settle(cube, dt)
            pl.append((*cube.p, *cube.q))
        for ia in range(len(cubes)):
            for ib in range(ia + 1, len(cubes)):
                a, b = cubes[ia], cubes[ib]
                speed = _die_contact(a, b, surfaces.die_restitution, surfaces.die_friction)
                if speed is not None:
                    poses[ia][-1] = (*a.p, *a.q)
                    poses[ib][-1] = (*b.p, *b.q)
                    if speed > SLOW_NORMAL:
                        for t in (tracks[ia], tracks[ib]):
                            t.contacts.append(Contact(frame, "die", 0.0, 1, speed, 0.0, 0.0))
        for cube, t in zip(cubes, tracks, strict=True):
            if cube.asleep and t.rest_step is None:
                t.rest_step = step
            elif not cube.asleep:
                t.rest_step = None
        if step % k == 0 and all(c.asleep for c in cubes):
            _finish(tracks, poses)
            return tracks, k, step // k
    _finish(tracks, poses)
    return tracks, k, None


def _finish(tracks: list[RigidTrack], poses: list[list[tuple]]) -> None:
    for t, pl in zip(tracks, poses, strict=True):
        arr = np.array(pl, np.float64)
        t.centres = arr[:, :3]
        t.rotations = _matrices(arr[:, 3:])


def _matrices(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (N, 3, 3) of unit quaternions (N, 4) as (w, x, y, z)."""
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], 1)


def _settle(cube: _Cube, dt: float) -> None:
    """Put a die that lies still and nearly flat on the felt to sleep, exactly flat."""
    slow = _dot(cube.v, cube.v) < SLEEP_SPEED**2 and _dot(cube.w, cube.w) < SLEEP_SPIN**2
    if not slow:
        cube.calm_s = 0.0
        return
    r = cube.rotation()
    if top_tilt_deg(r) > 12.0:
        cube.calm_s = 0.0
        return
    cube.calm_s += dt
    if cube.calm_s >= SLEEP_S:
        r = flat_rotation(r)
        cube.set_rotation(r)
        cube.p[2] = H
        # flattened against the wall, it must not poke through it
        cube.p[1] = max(cube.p[1], float(-(CUBE_VERTICES @ r.T)[:, 1].min() * H))
        cube.v = [0.0, 0.0, 0.0]
        cube.w = [0.0, 0.0, 0.0]
        cube.asleep = True
