"""Throws of the physical world: tumbling cubes (``rigid``) thrown in from outside the view.

`PhysicalSetup` is what one clip's table and camera are like beyond the default world: the
back wall's surface (wood, padding or rubber pyramids) and its restitution (0.3-0.95), the
felt, the shutter's exposure (motion blur integrated over sub-frame poses), one hard lamp
low enough to throw long shadows, and how far a cocked die leans (10-45 degrees).
`physical_throw` draws launches for a scenario from the shooter's end, below the image, at
full speed (1-1.5 m/s for a throw that reaches the wall), simulates them, and returns the
per-frame poses and the truth (hit_wall from the simulated wall contacts).

A die that ends cocked is placed: after its simulated rest it tips into a lean against the
wall or the other die over the last tenth of a second (the lean itself is not simulated).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from .dice3d import CUBE_VERTICES, ROTATIONS, rot_axis
from .dice3d import top_value as _top_value
from .render import DiePose, rest_centre_z, top_face_box, top_face_point
from .rigid import REACH, RigidLaunch, RigidTrack, Surfaces, simulate_rigid, top_tilt_deg
from .scene import DIE_MM, Table

H = DIE_MM / 2
RAILS = ("wood", "padding", "pyramids")
# per wall surface: restitution range, how much its texture scatters the normal (radians)
RAIL_PHYSICS = {
    "wood": ((0.7, 0.95), 0.03),
    "padding": ((0.3, 0.5), 0.06),
    "pyramids": ((0.45, 0.8), 0.3),
}
SHORT_LO, SHORT_HI = 550.0, 900.0  # mm/s: a throw meant to stop short of the wall
SEP_LO, SEP_HI = 1.75, 2.4  # die edges between the two dice at release
CONVERGE = 0.12  # radians: how much the second die's heading may turn toward the first's
COCKED_TILT_DEG = 5.0  # truth: a die at rest whose top face is tilted more than this is cocked


@dataclass(frozen=True)
class PhysicalSetup:
    """One clip's physical table and camera exposure.

    :param rail: the back wall's and rails' surface: "wood", "padding" or "pyramids".
    :param wall_restitution: bounce off the back wall (0.3 .. 0.95).
    :param wall_scatter: random tilt of the wall's normal per contact, radians.
    :param felt_restitution: bounce on the felt.
    :param felt_friction: sliding friction on the felt.
    :param exposure: shutter open time as a fraction of the frame time (motion blur).
    :param lamp: unit vector from the table toward the one lamp (low: long shadows).
    :param shadow: how much light a die's shadow takes (0..1; the rest is the room's).
    :param lean_deg: range of a cocked die's lean, degrees.
    """

    rail: str = "pyramids"
    wall_restitution: float = 0.6
    wall_scatter: float = 0.3
    felt_restitution: float = 0.3
    felt_friction: float = 0.45
    exposure: float = 0.5
    lamp: tuple[float, float, float] = (-0.5, 0.3, 0.81)
    shadow: float = 0.45
    lean_deg: tuple[float, float] = (10.0, 45.0)

    def __post_init__(self):
        if self.rail not in RAILS:
            raise ValueError(f"rail must be one of {RAILS}, got {self.rail!r}")
        if not 0.0 <= self.wall_restitution <= 1.0:
            raise ValueError(f"wall_restitution must be in 0..1, got {self.wall_restitution}")
        if not 0.0 < self.exposure <= 1.0:
            raise ValueError(f"exposure is a fraction of the frame time, 0 < exposure <= 1, "
                             f"got {self.exposure}")
        if not 0.0 < self.lean_deg[0] <= self.lean_deg[1] < 60.0:
            raise ValueError(f"lean_deg must be (low, high) within 0..60, got {self.lean_deg}")

    @classmethod
    def random(cls, rng: np.random.Generator) -> PhysicalSetup:
        """A setup drawn from `rng`: any wall surface, restitution 0.3-0.95 by surface, a lamp
        30-55 degrees above the table from any side (shadows 0.7-1.7 die edges long, taking
        30-55% of the light), exposure 0.25-1 of the frame time."""
        rail = str(rng.choice(RAILS))
        (lo, hi), scatter = RAIL_PHYSICS[rail]
        elevation = np.radians(rng.uniform(30.0, 55.0))
        azimuth = rng.uniform(0.0, 2 * np.pi)
        lamp = (float(np.cos(elevation) * np.cos(azimuth)),
                float(np.cos(elevation) * np.sin(azimuth)), float(np.sin(elevation)))
        return cls(
            rail=rail,
            wall_restitution=float(rng.uniform(lo, hi)),
            wall_scatter=scatter,
            felt_restitution=float(rng.uniform(0.2, 0.45)),
            felt_friction=float(rng.uniform(0.3, 0.6)),
            exposure=float(rng.uniform(0.25, 1.0)),
            lamp=lamp,
            shadow=float(rng.uniform(0.3, 0.55)),
        )

    def surfaces(self, die_restitution: float) -> Surfaces:
        return Surfaces(
            felt_restitution=self.felt_restitution,
            felt_friction=self.felt_friction,
            wall_restitution=self.wall_restitution,
            wall_scatter=self.wall_scatter,
            rail_restitution=min(self.wall_restitution, 0.7),
            die_restitution=die_restitution,
        )


def _random_rotation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random orientation."""
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]) @ ROTATIONS[int(rng.integers(24))]


def entry_y(table: Table, z: float) -> float:
    """The felt y (mm) of a point at height z seen on the image's bottom row, mid-image."""
    w, h = table.size
    return float(table.camera.unproject(np.array([[w / 2, h - 1.0]]), z=z)[0, 1])


def _launches(scenario: str, table: Table, rng: np.random.Generator
              ) -> tuple[list[RigidLaunch], float]:
    """Two dice leaving the shooter's hand below the image, and the die-die restitution."""
    hit, short = (1000.0, 1500.0), (SHORT_LO, SHORT_HI)
    if scenario in ("both_hit", "cocked_wall", "cocked_die"):
        speeds = [rng.uniform(*hit), rng.uniform(*hit)]
    elif scenario == "one_hits":
        speeds = [rng.uniform(*hit), rng.uniform(*short)]
        rng.shuffle(speeds)
    elif scenario == "none_hits":
        speeds = [rng.uniform(*short), rng.uniform(*short)]
    else:
        speeds = [rng.uniform(900, 1700), rng.uniform(900, 1700)]
    x0 = rng.uniform(-0.35, 0.35) * table.x_area
    sep = rng.uniform(1.8, 2.2) if scenario == "cocked_die" else rng.uniform(SEP_LO, SEP_HI)
    dx = rng.choice([-1.0, 1.0]) * sep * DIE_MM
    heading0 = rng.normal(0.0, 0.08) - 0.25 * x0 / table.x_area
    out = []
    for k, speed in enumerate(speeds):
        z = rng.uniform(H + 12.0, H + 45.0)
        y = entry_y(table, z + REACH) + REACH + rng.uniform(2.0, 25.0) + (
            rng.uniform(0.0, 1.0) * DIE_MM if k else 0.0)
        # the second die's path drifts toward the first's: thrown from one hand, the dice
        # often meet on the way or at the wall
        heading = heading0 + rng.normal(0.0, 0.05) - (np.sign(dx) * rng.uniform(0.0, CONVERGE)
                                                        if k else 0.0)
        spin_axis = rng.normal(size=3)
        spin = spin_axis / np.linalg.norm(spin_axis) * rng.uniform(15.0, 50.0)
        out.append(RigidLaunch(
            pos=(x0 + (dx if k else 0.0), y, z),
            vel=(speed * np.sin(heading), -speed * np.cos(heading), rng.uniform(-250.0, 250.0)),
            rotation=_random_rotation(rng),
            spin=tuple(float(s) for s in spin),
        ))
    if scenario == "out_of_area":
        k = int(rng.integers(2))
        lk = out[k]
        variant = rng.integers(3)
        s = float(np.hypot(lk.vel[0], lk.vel[1]))
        if variant == 0:  # thrown hard to the side: over the side line, off the rail
            side = 1.0 if rng.random() < 0.5 else -1.0
            ang = rng.uniform(0.35, 0.7)
            lk.vel = (side * s * np.sin(ang), -s * np.cos(ang), lk.vel[2])
        elif variant == 1:  # a lively bounce that carries it back past the front line
            lk.vel = (lk.vel[0], -rng.uniform(1600, 2200), lk.vel[2])
        else:  # a slow die that creeps over the side line and stops there
            side = 1.0 if x0 < 0 else -1.0
            lk.pos = (side * table.x_area * rng.uniform(0.6, 0.9), lk.pos[1], lk.pos[2])
            lk.vel = (side * rng.uniform(150, 450), -rng.uniform(500, 900), lk.vel[2])
    if scenario == "cocked_die":
        # thrown together, they come to rest side by side
        v = out[0].vel
        out[1].vel = (v[0] * rng.uniform(0.95, 1.05), v[1] * rng.uniform(0.95, 1.05), v[2])
    return out, (0.15 if scenario == "cocked_die" else 0.5)


@dataclass
class _Lean:
    die: int
    on: str  # "wall" or "die"
    rotation: np.ndarray  # the final (leaning) rotation
    centre: np.ndarray  # the final centre
    tilt_deg: float


def _plan_lean(scenario: str, table: Table, tracks: list[RigidTrack], setup: PhysicalSetup,
               rng: np.random.Generator) -> _Lean | None:
    ends = [(t.centres[-1], t.rotations[-1]) for t in tracks]
    angle = np.radians(rng.uniform(*setup.lean_deg))
    if scenario == "cocked_wall":
        cands = [k for k, t in enumerate(tracks)
                 if t.wall_contacts() and ends[k][0][1] < 2.2 * DIE_MM]
        if not cands:
            return None
        k = cands[0]
        # one bottom edge or corner rides up the wall: the top tips away from it and to one
        # side, so the camera sees a foreshortened top face and part of a side face
        beta = rng.choice([-1.0, 1.0]) * np.radians(rng.uniform(0.0, 50.0))
        axis = np.cross([0.0, 0.0, 1.0], [np.sin(beta), np.cos(beta), 0.0])
        rot = rot_axis(axis, angle) @ ends[k][1]
        verts = CUBE_VERTICES @ rot.T * H
        centre = np.array([ends[k][0][0], -verts[:, 1].min(), -verts[:, 2].min()])
        return _Lean(k, "wall", rot, centre, top_tilt_deg(rot))
    if scenario == "cocked_die":
        pa = [e[0][:2] for e in ends]
        dist = float(np.hypot(*(pa[1] - pa[0])))
        if dist > 2.8 * DIE_MM:
            return None
        rest = [t.rest_step or len(t.centres) for t in tracks]
        k = 1 if rest[1] >= rest[0] else 0  # the die that came to rest last leans
        d = (pa[1 - k] - pa[k]) / max(dist, 1e-6)  # from the leaning die to the other
        axis = np.cross([0.0, 0.0, 1.0], [-d[0], -d[1], 0.0])  # lifted on the other's side
        rot = rot_axis(axis, angle) @ ends[k][1]
        verts = CUBE_VERTICES @ rot.T * H
        ext = float((verts[:, :2] @ d).max())
        other = CUBE_VERTICES @ ends[1 - k][1].T * H
        h_other = float(-(other[:, :2] @ d).min())
        xy = pa[1 - k] - d * (h_other + ext - 0.3)
        if not table.in_area(*xy) or xy[1] < 1.2 * H:
            return None
        centre = np.array([xy[0], xy[1], -verts[:, 2].min()])
        return _Lean(k, "die", rot, centre, top_tilt_deg(rot))
    return None


def _frame_poses(tracks: list[RigidTrack], k: int, n_frames: int, colours: list[str],
                 setup: PhysicalSetup, lean: _Lean | None, lean_frames: int,
                 table: Table) -> list[list[DiePose]]:
    """Per frame, each die's pose at the frame's end and its trail over the exposure."""
    cam = table.camera
    n_blur = max(1, int(round(setup.exposure * k)))
    out = []
    for i in range(n_frames):
        frame = []
        for d, t in enumerate(tracks):
            s = min(i * k, len(t.centres) - 1)
            centre, rot = t.centres[s].copy(), t.rotations[s].copy()
            trail: tuple = ()
            s0 = max(0, s - n_blur)
            if s > s0:
                a, b = cam.project(np.stack([t.centres[s0], centre]))
                px = float(np.hypot(*(b - a)))
                if px >= 1.5:
                    n = int(min(6, max(2, np.ceil(px / (0.12 * table.die_px_nominal)))))
                    idx = np.unique(np.linspace(s0, s, n).round().astype(int))
                    trail = tuple((t.centres[j].copy(), t.rotations[j].copy()) for j in idx)
            if lean is not None and lean.die == d:
                f = float(np.clip((i - (n_frames - 1 - lean_frames)) / lean_frames, 0.0, 1.0))
                if f > 0:
                    # tip from the rest pose into the lean (about the axis between them)
                    delta = lean.rotation @ rot.T
                    ang = float(np.arccos(np.clip((np.trace(delta) - 1) / 2, -1, 1)))
                    if ang > 1e-9:
                        ax = np.array([delta[2, 1] - delta[1, 2], delta[0, 2] - delta[2, 0],
                                       delta[1, 0] - delta[0, 1]]) / (2 * np.sin(ang))
                        rot = rot_axis(ax, ang * f) @ rot
                    xy = centre[:2] + (lean.centre[:2] - centre[:2]) * f
                    centre = np.array([xy[0], xy[1], rest_centre_z(rot)])
                    if f >= 1.0:
                        rot, centre = lean.rotation, lean.centre.copy()
                    trail = ()
            frame.append(DiePose(centre, rot, colours[d], trail=trail))
        out.append(frame)
    return out


def _in_image(table: Table, p: np.ndarray) -> bool:
    w, h = table.size
    return bool(0 <= p[0] < w and 0 <= p[1] < h)


def _truth(scenario: str, table: Table, tracks: list[RigidTrack], k: int,
           poses: list[list[DiePose]], lean: _Lean | None, colours: list[str]) -> dict:
    """The truth dict (the keys of the default world's, plus what the physics knows)."""
    last = len(poses) - 1
    cam = table.camera
    dice = []
    for d, t in enumerate(tracks):
        pose = poses[last][d]
        cocked = lean is not None and lean.die == d
        top = cam.project(top_face_point(pose)[None])[0]
        pts = cam.project(np.array([top_face_point(frame[d]) for frame in poses]))
        track = [[round(float(p[0]), 1), round(float(p[1]), 1)] if _in_image(table, p) else None
                 for p in pts]
        c = t.centres
        inside = ((np.abs(c[:, 0]) <= table.x_area) & (c[:, 1] >= 0.0)
                  & (c[:, 1] <= table.y_area))
        first_in = int(np.argmax(inside)) if inside.any() else None
        outside_after = (~inside[first_in:]) if first_in is not None else np.zeros(0, bool)
        steps_out = np.flatnonzero(outside_after) + (first_in or 0)
        out_mm = np.maximum.reduce([np.abs(c[:, 0]) - table.x_area, c[:, 1] - table.y_area,
                                    -c[:, 1]])
        vy = np.einsum("nij,kj->nki", t.rotations, CUBE_VERTICES)[:, :, 1].min(1) * H
        wall_gap = np.maximum(0.0, c[:, 1] + vy)
        walls = t.wall_contacts()
        in_area = table.in_area(float(pose.centre[0]), float(pose.centre[1]))
        ground = cam.project(np.array([[pose.centre[0], pose.centre[1], 0.0]]))[0]
        heights = c[:, 2] + np.einsum("nij,kj->nki", t.rotations, CUBE_VERTICES)[:, :, 2] \
            .min(1) * H  # of the lowest corner above the felt
        frames_of = lambda steps: sorted({-(-int(s) // k) for s in steps})  # noqa: E731
        dice.append({
            "value": _top_value(pose.rotation),
            "hit_wall": bool(walls),
            "left_area": bool(len(steps_out)) or first_in is None,
            "at_rest_in_area": bool(in_area and _in_image(table, top)),
            "cocked": cocked,
            "cocked_on": lean.on if cocked else None,
            "cocked_tilt_deg": round(lean.tilt_deg, 1) if cocked else 0.0,
            "rest_center": [round(float(top[0]), 1), round(float(top[1]), 1)],
            "rest_box": json.loads(json.dumps(top_face_box(cam, pose))),
            "rest_ground": [round(float(ground[0]), 1), round(float(ground[1]), 1)],
            "visible_at_rest": bool(_in_image(table, top)),
            "rest_outside_mm": round(table.outside_mm(*pose.centre[:2]), 2),
            "max_outside_mm": round(float(out_mm[steps_out].max()) if len(steps_out) else 0.0,
                                    2),
            "min_wall_gap_mm": round(float(wall_gap.min()), 2),
            "colour": colours[d],
            "wall_hit_frames": sorted({w.frame for w in walls}),
            "wall_contacts": [{"frame": w.frame, "centre_edges": round(w.centre_mm / DIE_MM, 3),
                               "corners": w.vertices, "speed_mm_s": round(w.speed, 1)}
                              for w in walls],
            "die_hit_frames": sorted({x.frame for x in t.contacts if x.what == "die"}),
            "entered_frame": frames_of([first_in])[0] if first_in is not None else None,
            "max_height_mm": round(float(heights.max()), 1),
            "track": track,
        })
    entered = [x["entered_frame"] for x in dice if x["entered_frame"] is not None]
    rests = [(t.rest_step + k - 1) // k if t.rest_step is not None else last for t in tracks]
    return {
        "scenario": scenario,
        "dice": dice,
        "throw_start_frame": min(entered) if entered else None,
        "rest_frame": max(rests + ([last] if lean is not None else [])),
    }


@dataclass
class PhysicalThrow:
    tracks: list[RigidTrack]
    poses: list[list[DiePose]]
    truth: dict


def physical_throw(scenario, table: Table, colours: list[str], fps: float, seed: int,
                   setup: PhysicalSetup, max_attempts: int, matches) -> PhysicalThrow | None:
    """Simulate launches drawn from (seed, attempt) until one shows `scenario`; None when no
    attempt within `max_attempts` does.

    :param scenario: a Scenario (BOTH_HIT .. COCKED_DIE; not EXTRA_DIE).
    :param matches: the scenario test, ``matches(scenario, truth) -> bool``.
    """
    name = scenario.value
    if name == "extra_die":
        raise ValueError("the physical world throws two dice: no EXTRA_DIE")
    lean_frames = max(2, int(round(fps * 0.1)))
    for attempt in range(max_attempts):
        rng = np.random.default_rng([seed, attempt, 41])
        launches, e_dd = _launches(name, table, rng)
        tracks, k, rest = simulate_rigid(table, launches, setup.surfaces(e_dd), fps, rng)
        if rest is None:
            continue
        lean = None
        if name in ("cocked_wall", "cocked_die"):
            lean = _plan_lean(name, table, tracks, setup, rng)
            if lean is None:
                continue
        n_frames = rest + 1 + (lean_frames if lean is not None else 0)
        poses = _frame_poses(tracks, k, n_frames, colours, setup, lean, lean_frames, table)
        truth = _truth(name, table, tracks, k, poses, lean, colours)
        if lean is not None and _overlaps(poses[-1]):
            continue
        if matches(scenario, truth):
            truth["attempt"] = attempt
            return PhysicalThrow(tracks, poses, truth)
    return None


def _overlaps(poses: list[DiePose], tolerance_mm: float = 1.0) -> bool:
    """Whether two dice's cubes interpenetrate by more than the tolerance (a placed lean)."""
    for i, a in enumerate(poses):
        for b in poses[i + 1:]:
            va = a.centre + CUBE_VERTICES @ a.rotation.T * H
            local = (va - b.centre) @ b.rotation
            if np.any(np.all(np.abs(local) < H - tolerance_mm, axis=1)):
                return True
    return False


def airborne(pose: DiePose) -> float:
    """Height of a die's lowest corner above the felt, mm."""
    return float(pose.centre[2] + (CUBE_VERTICES @ pose.rotation.T)[:, 2].min() * H)
