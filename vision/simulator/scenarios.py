"""Throws that produce a chosen case, with their ground truth: `simulate_throw`,
`simulate_session`.

Each scenario draws launch conditions from the seed and simulates; when the outcome does not
match the scenario (dice are chaotic) it draws again from the next seed in the sequence.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace

import numpy as np

from .clip import RenderedFrames, SimClip
from .dice3d import CUBE_VERTICES, DIE_COLOURS, check_colour, roll_matrix, rot_axis, rot_z
from .dice3d import top_value as _top_value
from .hand import HAND_LEAD_S, HandPose, HandStyle, pickup_hand, throw_hand
from .physical import PhysicalSetup, physical_throw
from .physics import H, Launch, Track, simulate
from .render import DiePose, Renderer, rest_centre_z, top_face_box, top_face_point
from .scene import DIE_MM, TILT_DEG, Look, Table


class Scenario(enum.Enum):
    """What a simulated throw shows."""

    BOTH_HIT = "both_hit"  # both dice strike the back wall and rest flat in the area
    ONE_HITS = "one_hits"  # exactly one die strikes the wall
    NONE_HITS = "none_hits"  # neither die reaches the wall
    OUT_OF_AREA = "out_of_area"  # a die leaves the area (and may come back) or rests outside
    COCKED_WALL = "cocked_wall"  # a die comes to rest leaning against the back wall
    COCKED_DIE = "cocked_die"  # a die comes to rest leaning on the other die
    RANDOM = "random"  # one of the six cases above, drawn from the seed
    # a third die comes to rest in the area, apart from the two (the shooter threw three, or a
    # stray die from another game rolled in); its truth entry has "extra": True
    EXTRA_DIE = "extra_die"


# the cases RANDOM draws from: fixed, so a seed's RANDOM throw stays the one it always was
CASES = [Scenario.BOTH_HIT, Scenario.ONE_HITS, Scenario.NONE_HITS, Scenario.OUT_OF_AREA,
         Scenario.COCKED_WALL, Scenario.COCKED_DIE]
EXTRA_CASES = [Scenario.EXTRA_DIE]  # cases beyond the two dice of play (never drawn by RANDOM)
EXTRA_KINDS = ("thrown", "stray")  # how a third die gets onto the table
COLOUR_CHOICES = ["white", "red", "black", "green", "blue", "yellow"]


class SimulationError(RuntimeError):
    """No launch within the retry budget produced the scenario."""


@dataclass
class _Lean:
    """A die ends leaning: tilt `angle` about `axis`, sliding from its rest to `target`."""

    die: int
    on: str  # "wall" or "die"
    axis: np.ndarray
    angle: float
    target: np.ndarray  # final (x, y)


def _launches(scenario: Scenario, table: Table, rng: np.random.Generator,
              extra_kind: str | None = None) -> tuple[list[Launch], float]:
    """Launch conditions for the dice of a scenario, and the die-die restitution.

    :param extra_kind: for EXTRA_DIE, how the third die comes: "thrown" with the two by the
        shooter, or "stray" (rolled in from the near side by someone else, off to one side).
    """
    hit = (950.0, 1500.0)
    short = (200.0, 620.0)
    if scenario in (Scenario.BOTH_HIT, Scenario.COCKED_WALL, Scenario.COCKED_DIE,
                    Scenario.EXTRA_DIE):
        speeds = [rng.uniform(*hit), rng.uniform(*hit)]
    elif scenario is Scenario.ONE_HITS:
        speeds = [rng.uniform(*hit), rng.uniform(*short)]
        rng.shuffle(speeds)
    elif scenario is Scenario.NONE_HITS:
        speeds = [rng.uniform(*short), rng.uniform(*short)]
    else:
        speeds = [rng.uniform(700, 1500), rng.uniform(700, 1500)]
    x0 = rng.uniform(-0.35, 0.35) * table.x_area
    sep = rng.uniform(1.1, 1.6) if scenario is Scenario.COCKED_DIE else rng.uniform(1.3, 2.6)
    dx = rng.choice([-1.0, 1.0]) * sep * DIE_MM
    y0 = table.y_bottom + rng.uniform(12.0, 30.0)
    out = []
    for k, speed in enumerate(speeds):
        heading = rng.normal(0.0, 0.12) - 0.25 * x0 / table.x_area
        launch = Launch(
            pos=(x0 + (dx if k else 0.0), y0 + (rng.uniform(-0.5, 1.5) * DIE_MM if k else 0.0)),
            z=rng.uniform(15.0, 45.0),
            vel=(speed * np.sin(heading), -speed * np.cos(heading)),
            vz=rng.uniform(0.0, 350.0),
            yaw=rng.uniform(0, 2 * np.pi),
            spin=rng.normal(0.0, 12.0),
            orientation=int(rng.integers(24)),
            tumble=rng.uniform(6.0, 18.0),
            tumble_dir=int(rng.integers(4)),
            roll_frac=rng.uniform(0.4, 0.9),
            wall_restitution=rng.uniform(0.35, 0.65),
            friction=rng.uniform(0.2, 0.4),
        )
        out.append(launch)
    if scenario is Scenario.OUT_OF_AREA:
        k = int(rng.integers(2))
        lk = out[k]
        variant = rng.integers(3)
        if variant == 0:  # thrown hard to the side: over the side line, off the rail
            side = np.sign(rng.uniform(-1, 1)) or 1.0
            s = float(np.hypot(*lk.vel))
            ang = rng.uniform(0.35, 0.7)
            lk.vel = (side * s * np.sin(ang), -s * np.cos(ang))
        elif variant == 1:  # a lively bounce off the wall that carries it back past the front
            lk.wall_restitution = rng.uniform(0.8, 0.95)
            lk.friction = rng.uniform(0.12, 0.2)
            lk.vel = (lk.vel[0], -rng.uniform(1300, 1700))
        else:  # a slow die that creeps over the side line and stops there
            side = 1.0 if x0 < 0 else -1.0
            lk.pos = (side * table.x_area * rng.uniform(0.6, 0.9), lk.pos[1])
            lk.vel = (side * rng.uniform(150, 450), -rng.uniform(900, 1400))
    if scenario is Scenario.COCKED_WALL:
        k = int(rng.integers(2))
        out[k].wall_restitution = rng.uniform(0.0, 0.06)
        out[k].friction = rng.uniform(0.8, 1.2)
        out[k].roll_frac = 0.3
    if scenario is Scenario.EXTRA_DIE:
        out.append(_extra_launch(extra_kind or "thrown", table, out, x0, y0, dx, rng))
    return out, (0.15 if scenario is Scenario.COCKED_DIE else 0.5)


def _extra_launch(kind: str, table: Table, two: list[Launch], x0: float, y0: float, dx: float,
                  rng: np.random.Generator) -> Launch:
    """The third die of an EXTRA_DIE throw."""
    if kind == "thrown":
        # a third die in the shooter's hand: beside the two, on the other side of the first
        pos = (x0 - dx * rng.uniform(0.9, 1.4), y0 + rng.uniform(-0.5, 1.5) * DIE_MM)
        speed = rng.uniform(950.0, 1500.0)
        heading = float(np.arctan2(two[0].vel[0], -two[0].vel[1])) + rng.normal(0.0, 0.1)
    elif kind == "stray":
        # a die from another game, rolled in from the near side, to one side of the throw
        side = -np.sign(x0) or 1.0
        pos = (side * table.x_area * rng.uniform(0.45, 0.85), y0 + rng.uniform(0.0, 20.0))
        speed = rng.uniform(500.0, 1300.0)
        heading = -side * rng.uniform(0.0, 0.35)
    else:
        raise ValueError(f"extra_kind must be one of {EXTRA_KINDS}, got {kind!r}")
    return Launch(
        pos=(float(pos[0]), float(pos[1])),
        z=rng.uniform(5.0, 45.0) if kind == "thrown" else rng.uniform(0.0, 10.0),
        vel=(speed * np.sin(heading), -speed * np.cos(heading)),
        vz=rng.uniform(0.0, 350.0) if kind == "thrown" else rng.uniform(0.0, 80.0),
        yaw=rng.uniform(0, 2 * np.pi),
        spin=rng.normal(0.0, 12.0),
        orientation=int(rng.integers(24)),
        tumble=rng.uniform(6.0, 18.0) if kind == "thrown" else rng.uniform(0.0, 6.0),
        tumble_dir=int(rng.integers(4)),
        roll_frac=rng.uniform(0.4, 0.9),
        wall_restitution=rng.uniform(0.35, 0.65),
        friction=rng.uniform(0.2, 0.4),
    )


def _pose_rotation(t: Track, i: int) -> np.ndarray:
    return rot_z(t.yaw[i]) @ roll_matrix(t.roll_dir[i], t.phi[i]) @ t.rot[i]


def _plan_lean(scenario: Scenario, table: Table, tracks: list[Track], rng) -> _Lean | None:
    """Where and how a die ends cocked, or None if this throw cannot end so."""
    last = len(tracks[0].x) - 1
    if scenario is Scenario.COCKED_WALL:
        cands = [k for k, t in enumerate(tracks)
                 if t.wall_hit_frames and t.y[last] < 1.8 * DIE_MM]
        if not cands:
            return None
        k = cands[0]
        t = tracks[k]
        angle = np.radians(rng.uniform(22.0, 38.0))
        # one bottom edge or corner rides up the wall: the top tips away from the wall and
        # to one side, so the camera sees a skewed top face and part of a side face
        beta = rng.choice([-1.0, 1.0]) * np.radians(rng.uniform(15.0, 55.0))
        axis = np.cross([0.0, 0.0, 1.0], [np.sin(beta), np.cos(beta), 0.0])
        rot = rot_axis(axis, angle) @ _pose_rotation(t, last)
        ymin = float((CUBE_VERTICES @ rot.T)[:, 1].min() * H)
        return _Lean(k, "wall", axis, angle, np.array([t.x[last], -ymin]))
    if scenario is Scenario.COCKED_DIE:
        pa = [np.array([t.x[last], t.y[last]]) for t in tracks]
        dist = float(np.hypot(*(pa[1] - pa[0])))
        if dist > 2.3 * DIE_MM:
            return None
        # the die that came to rest last leans on the other
        ra = [t.rest_frame or last for t in tracks]
        k = 1 if ra[1] >= ra[0] else 0
        other = tracks[1 - k]
        d = (pa[1 - k] - pa[k]) / max(dist, 1e-6)  # from the leaning die to the other
        angle = np.radians(rng.uniform(18.0, 32.0))
        axis = np.cross([0.0, 0.0, 1.0], [-d[0], -d[1], 0.0])  # lifted on the side of the other
        rot = rot_axis(axis, angle) @ _pose_rotation(tracks[k], last)
        ext = float((CUBE_VERTICES @ rot.T)[:, :2].dot(d).max() * H)
        ang_d = np.arctan2(d[1], d[0])
        yo = other.yaw[last] - ang_d
        h_other = H * (abs(np.cos(yo)) + abs(np.sin(yo)))
        target = pa[1 - k] - d * (h_other + ext - 0.3)
        if not table.in_area(*target) or target[1] < 1.2 * H:
            return None
        return _Lean(k, "die", axis, angle, target)
    return None


def _poses(table: Table, tracks: list[Track], colours: list[str], lean: _Lean | None,
           lean_frames: int) -> list[list[DiePose]]:
    """Per frame, the 3-D pose of each die (without motion blur yet)."""
    n = len(tracks[0].x)
    out: list[list[DiePose]] = []
    for i in range(n):
        frame = []
        for k, t in enumerate(tracks):
            rot = _pose_rotation(t, i)
            xy = np.array([t.x[i], t.y[i]])
            if lean is not None and lean.die == k:
                rest = t.rest_frame if t.rest_frame is not None else n - 1
                f = float(np.clip((i - (rest - lean_frames)) / lean_frames, 0.0, 1.0))
                if f > 0:
                    rot = rot_axis(lean.axis, lean.angle * f) @ rot
                    end = np.array([t.x[rest], t.y[rest]])
                    xy = xy + (lean.target - end) * f
            verts = CUBE_VERTICES @ rot.T * H
            zc = t.z[i] + rest_centre_z(rot)
            # a tipping die never pokes through the back wall
            xy[1] = max(xy[1], -float(verts[:, 1].min()))
            frame.append(DiePose(np.array([xy[0], xy[1], zc]), rot, colours[k]))
        out.append(frame)
    return out


def _in_image(table: Table, p: np.ndarray) -> bool:
    w, h = table.size
    return bool(0 <= p[0] < w and 0 <= p[1] < h)


def _truth(scenario: Scenario, table: Table, tracks: list[Track], poses: list[list[DiePose]],
           lean: _Lean | None, colours: list[str]) -> dict:
    last = len(poses) - 1
    dice = []
    cam = table.camera
    for k, t in enumerate(tracks):
        pose = poses[last][k]
        cocked = lean is not None and lean.die == k
        top = cam.project(top_face_point(pose)[None])[0]
        pts = cam.project(np.array([top_face_point(frame[k]) for frame in poses]))
        track = [[round(float(p[0]), 1), round(float(p[1]), 1)] if _in_image(table, p) else None
                 for p in pts]
        in_area = table.in_area(float(pose.centre[0]), float(pose.centre[1]))
        ground = cam.project(np.array([[pose.centre[0], pose.centre[1], 0.0]]))[0]
        dice.append({
            "value": _top_value(pose.rotation),
            "hit_wall": bool(t.wall_hit_frames),
            # the centre was outside the area after first entering it, or never entered it
            "left_area": bool(t.outside_frames) or t.entered_frame is None,
            "at_rest_in_area": bool(in_area and _in_image(table, top)),
            "cocked": cocked,
            "cocked_on": lean.on if cocked else None,
            "rest_center": [round(float(top[0]), 1), round(float(top[1]), 1)],
            # rotated rect ((cx, cy), (w, h), angle) of the top face at rest, as JSON lists
            "rest_box": json.loads(json.dumps(top_face_box(cam, pose))),
            # the felt point below the die's centre: what "in the area" is judged by
            "rest_ground": [round(float(ground[0]), 1), round(float(ground[1]), 1)],
            "visible_at_rest": bool(_in_image(table, top)),
            "rest_outside_mm": round(table.outside_mm(*pose.centre[:2]), 2),
            "max_outside_mm": round(t.max_outside_mm, 2),
            "min_wall_gap_mm": round(t.min_wall_gap_mm, 2),
            "colour": colours[k],
            "wall_hit_frames": list(t.wall_hit_frames),
            "die_hit_frames": list(t.die_hit_frames),
            "entered_frame": t.entered_frame,
            "track": track,
        })
        if k >= 2:
            dice[-1]["extra"] = True  # not one of the two dice in play
    entered = [t.entered_frame for t in tracks if t.entered_frame is not None]
    out = {
        "scenario": scenario.value,
        "dice": dice,
        "throw_start_frame": min(entered) if entered else None,
        "rest_frame": max(t.rest_frame if t.rest_frame is not None else last for t in tracks),
    }
    if len(tracks) > 2:
        rest = [np.array([t.x[last], t.y[last]]) for t in tracks]
        out["extra"] = len(tracks) - 2
        out["min_die_gap_mm"] = round(min(
            float(np.hypot(*(a - b))) for i, a in enumerate(rest) for b in rest[i + 1:]), 2)
    return out


CLEAR_MM = 0.4 * DIE_MM  # how far from a line a die must stay to be judged clearly
EXTRA_GAP_MM = 1.8 * DIE_MM  # centre to centre: an EXTRA_DIE throw's dice rest clearly apart


def matches(scenario: Scenario, truth: dict) -> bool:
    """Whether a throw's truth shows the case the scenario names, with no die so close to
    the area's line that a camera could not tell in from out."""
    d = truth["dice"]
    for x in d:
        if 0 < x["max_outside_mm"] < CLEAR_MM or abs(x["rest_outside_mm"]) < CLEAR_MM:
            return False
        if not x["hit_wall"] and x["min_wall_gap_mm"] < 1.5 * CLEAR_MM:
            return False  # a near miss a camera could take for a touch
    hits = sum(x["hit_wall"] for x in d)
    clean = all(x["at_rest_in_area"] and not x["left_area"] for x in d)
    cocked = [x for x in d if x["cocked"]]
    if scenario is Scenario.BOTH_HIT:
        return hits == 2 and clean and not cocked
    if scenario is Scenario.ONE_HITS:
        return hits == 1 and clean and not cocked
    if scenario is Scenario.NONE_HITS:
        return hits == 0 and clean and not cocked
    if scenario is Scenario.OUT_OF_AREA:
        return not clean and not cocked
    if scenario is Scenario.COCKED_WALL:
        return (len(cocked) == 1 and cocked[0]["cocked_on"] == "wall" and clean
                and cocked[0]["hit_wall"])
    if scenario is Scenario.COCKED_DIE:
        return len(cocked) == 1 and cocked[0]["cocked_on"] == "die" and clean
    if scenario is Scenario.EXTRA_DIE:
        # three flat dice at rest in the area, apart (no die leaning on or hiding another)
        return (len(d) == 3 and clean and not cocked and d[2].get("extra") is True
                and truth.get("min_die_gap_mm", 0.0) >= EXTRA_GAP_MM)
    raise ValueError(f"no case for {scenario}")


@dataclass
class _Throw:
    tracks: list[Track]
    poses: list[list[DiePose]]
    truth: dict


def _throw(scenario: Scenario, table: Table, colours: list[str], fps: float, seed: int,
           max_attempts: int, extra_kind: str | None = None) -> _Throw:
    for attempt in range(max_attempts):
        rng = np.random.default_rng([seed, attempt, 11])
        launches, e_dd = _launches(scenario, table, rng, extra_kind)
        tracks, rest = simulate(table, launches, fps, rng, die_restitution=e_dd)
        if rest is None:
            continue
        lean = None
        if scenario in (Scenario.COCKED_WALL, Scenario.COCKED_DIE):
            lean = _plan_lean(scenario, table, tracks, rng)
            if lean is None:
                continue
        poses = _poses(table, tracks, colours, lean, lean_frames=max(2, int(fps * 0.1)))
        truth = _truth(scenario, table, tracks, poses, lean, colours)
        if matches(scenario, truth):
            truth["attempt"] = attempt
            return _Throw(tracks, poses, truth)
    raise SimulationError(
        f"no {scenario.value} throw found in {max_attempts} attempts for seed {seed}; "
        "try another seed or raise max_attempts"
    )


def _with_motion(table: Table, look: Look, poses: list[list[DiePose]]) -> None:
    """Set each pose's motion blur from its image displacement since the previous frame."""
    cam = table.camera
    for i in range(1, len(poses)):
        for prev, cur in zip(poses[i - 1], poses[i], strict=True):
            a, b = cam.project(np.stack([prev.centre, cur.centre]))
            d = (b - a) * look.blur
            cur.motion = (float(d[0]), float(d[1])) if np.hypot(*d) >= 1.5 else (0.0, 0.0)


def _plan_throw_hand(table: Table, style: HandStyle, thrown: _Throw, release_frame: int,
                     fps: float, rng: np.random.Generator) -> tuple[dict[int, HandPose], dict]:
    """The shooter's hand, holding at release the dice he threw (not a stray one)."""
    held = [t for k, t in enumerate(thrown.tracks)
            if k < 2 or thrown.truth.get("extra_kind") == "thrown"]
    grip = np.array([np.mean([t.x[0] for t in held]), np.mean([t.y[0] for t in held]),
                     np.mean([t.z[0] for t in held]) + DIE_MM / 2])
    return throw_hand(table, style, grip, release_frame, fps, rng)


def _plan_pickup(table: Table, style: HandStyle, truth: dict, final: list[DiePose], start: int,
                 fps: float) -> tuple[dict[int, HandPose], list[int], list[int], int]:
    """A hand taking the dice in view, the nearest to the shooter first: its poses, the dice
    it takes (indices), the frame each is taken and the frame it has left the view."""
    taken = [k for k, d in enumerate(truth["dice"]) if d["visible_at_rest"]]
    taken.sort(key=lambda k: -final[k].centre[1])
    targets = [np.array(final[k].centre[:2]) for k in taken]
    plan, grabs, leave = pickup_hand(table, style, targets, start, fps)
    return plan, taken, grabs, leave


def _hand_motion(table: Table, look: Look, hands: list[HandPose | None]) -> None:
    """Set each hand pose's motion blur from its grip's image displacement."""
    cam = table.camera
    for prev, cur in zip(hands, hands[1:], strict=False):
        if prev is None or cur is None:
            continue
        a, b = cam.project(np.stack([prev.grip, cur.grip]))
        d = (b - a) * look.blur
        cur.motion = (float(d[0]), float(d[1])) if np.hypot(*d) >= 1.5 else (0.0, 0.0)


def simulate_throw(
    seed: int = 0,
    scenario: Scenario | str = Scenario.BOTH_HIT,
    size: tuple[int, int] = (640, 480),
    fps: float = 60.0,
    *,
    colour: str | tuple[str, str] | None = None,
    look: Look | None = None,
    idle_seconds: float = 0.25,
    after_seconds: float = 0.3,
    previous: list[DiePose] | None = None,
    tilt_deg: float = TILT_DEG,
    die_px: float | None = None,
    max_attempts: int = 300,
    extra_kind: str | None = None,
    extra_colour: str | None = None,
    hand: bool = False,
    pickup: bool = False,
    physical: PhysicalSetup | None = None,
    _table: Table | None = None,
    _renderer: Renderer | None = None,
) -> SimClip:
    """Simulate one throw of two dice and return its clip (frames rendered lazily).

    :param seed: everything follows from it (launch, looks, noise).
    :param scenario: a Scenario (or its value string); RANDOM draws one from the seed.
    :param size: image (width, height); die_px scales with the height (40 px at 480 rows).
    :param fps: frames per second of the camera.
    :param colour: dice colour (a key of DIE_COLOURS), or a pair (one per die); default drawn
        from the seed.
    :param look: felt, lighting, noise, glare, blur; default drawn from the seed.
    :param idle_seconds: still frames before the throw (the previous dice lie there for the
        first half when `previous` is given, then are picked up).
    :param after_seconds: frames kept after both dice rest (and, with `hand`, after the hand
        has left the view).
    :param previous: poses of dice lying on the table at the start (see simulate_session).
    :param extra_kind: Scenario.EXTRA_DIE only: "thrown" (the shooter threw a third die of his
        set) or "stray" (a die of another colour rolled in from the near side); default drawn
        from the seed.
    :param extra_colour: Scenario.EXTRA_DIE only: the third die's colour (default: the pair's
        colour for "thrown", another colour for "stray").
    :param hand: draw the shooter's hand and forearm: it swings in from the near edge holding
        the dice, lets them go at the release frame, follows through and withdraws (truth
        "hand": enter/release/leave frames). Off: the clip is exactly as it always was.
    :param pickup: after the dice rest (and `after_seconds`), a hand comes back and takes each
        die in view, then leaves the empty table (truth "pickup": enter frame, the frame each
        die is taken, leave frame); the clip grows by those frames.
    :param physical: throw in the physical world (see ``physical``): tumbling cubes thrown in
        from below the image, this setup's wall, lamp and exposure. None: the default world,
        exactly as it always was. Not with `hand` or Scenario.EXTRA_DIE.
    """
    if isinstance(scenario, str):
        try:
            scenario = Scenario(scenario.lower())
        except ValueError:
            raise ValueError(f"unknown scenario {scenario!r}; choose one of "
                             f"{[s.value for s in Scenario]}") from None
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    pick = np.random.default_rng([seed, 3])
    if scenario is Scenario.RANDOM:
        scenario = CASES[int(pick.integers(len(CASES)))]
    if colour is None:
        colour = str(pick.choice(COLOUR_CHOICES))
    colours = [colour, colour] if isinstance(colour, str) else list(colour)
    if len(colours) != 2:
        raise ValueError(f"give one colour or a pair of colours, got {colour!r}")
    colours = [check_colour(c) for c in colours]
    look = look or Look.random(pick)
    if physical is not None:
        if hand:
            raise ValueError("the physical world draws no shooter's hand: hand=False")
        look = replace(look, rail=physical.rail, lamp=physical.lamp, lamp_shadow=physical.shadow,
                       blur=physical.exposure)
    table = _table or Table(size, die_px=die_px, tilt_deg=tilt_deg)
    renderer = _renderer or Renderer(table, look, seed)
    kind = None
    if scenario is Scenario.EXTRA_DIE:
        # its own generator: the other scenarios' draws stay as they were
        xrng = np.random.default_rng([seed, 29])
        kind = extra_kind or str(xrng.choice(EXTRA_KINDS))
        if kind not in EXTRA_KINDS:
            raise ValueError(f"extra_kind must be one of {EXTRA_KINDS}, got {kind!r}")
        others = [c for c in COLOUR_CHOICES if c != colours[0]]
        # the shooter's third die matches his pair; a stray one comes from another set
        colours.append(check_colour(extra_colour) if extra_colour else
                       colours[0] if kind == "thrown" else str(xrng.choice(others)))
    elif extra_kind is not None or extra_colour is not None:
        raise ValueError("extra_kind and extra_colour are for Scenario.EXTRA_DIE only")
    if physical is not None:
        thrown = physical_throw(scenario, table, colours, fps, seed, physical, max_attempts,
                                matches)
        if thrown is None:
            raise SimulationError(
                f"no {scenario.value} throw found in {max_attempts} attempts for seed {seed} "
                "(physical world); try another seed or raise max_attempts")
    else:
        thrown = _throw(scenario, table, colours, fps, seed, max_attempts, kind)
    if kind is not None:
        thrown.truth["extra_kind"] = kind

    n_idle = int(round(idle_seconds * fps))
    if hand:  # time for the hand to come in with the dice before it lets them go
        n_idle = max(n_idle, int(round(HAND_LEAD_S * fps)) + 3)
    n_after = int(round(after_seconds * fps))
    rest = thrown.truth["rest_frame"]
    poses = thrown.poses[: rest + 1]
    poses += [poses[-1]] * n_after
    lying: list[DiePose] = list(previous or [])
    empty: list[DiePose] = []
    idle = [lying if previous and i < n_idle // 2 else empty for i in range(n_idle)]
    # at release the dice are below the image (in the shooter's hand)
    _with_motion(table, renderer.look, poses)
    all_poses = idle + poses
    final = poses[-1]
    hands: list[HandPose | None] | None = None
    hand_truth: dict = {}
    if hand or pickup:
        # the hand's own generator: the throw, the looks and the noise stay as without it
        hrng = np.random.default_rng([seed, 31])
        style = HandStyle.random(hrng)
        plan: dict[int, HandPose] = {}
        if hand:
            plan, hand_truth["hand"] = _plan_throw_hand(table, style, thrown, n_idle, fps, hrng)
            # after_seconds count from when the dice rest and the hand has left the view
            end = hand_truth["hand"]["leave_frame"] + n_after + 1
            all_poses += [final] * max(0, end - len(all_poses))
        if pickup:
            start = len(all_poses) - 1
            plan_up, taken, grabs, leave = _plan_pickup(table, style, thrown.truth, final, start,
                                                        fps)
            plan.update(plan_up)
            lying_now = list(final)
            for i in range(start + 1, leave + int(round(0.25 * fps)) + 1):
                for k, g in zip(taken, grabs, strict=True):
                    if g == i:
                        lying_now = [p for p in lying_now if p is not final[k]]
                all_poses.append(lying_now)
            final = lying_now
            hand_truth["pickup"] = {"enter_frame": start + 1, "grab_frames": grabs,
                                    "taken": taken, "leave_frame": leave}
        hands = [plan.get(i) for i in range(len(all_poses))]
        _hand_motion(table, renderer.look, hands)
    noise_rng = np.random.default_rng([seed, 5])
    noise_index = [int(v) for v in noise_rng.integers(0, 1 << 16, len(all_poses))]
    truth = thrown.truth
    truth["throw_start_frame"] = (
        None if truth["throw_start_frame"] is None else truth["throw_start_frame"] + n_idle
    )
    truth["rest_frame"] = rest + n_idle
    truth["release_frame"] = n_idle
    for d in truth["dice"]:
        d["wall_hit_frames"] = [f + n_idle for f in d["wall_hit_frames"]]
        d["die_hit_frames"] = [f + n_idle for f in d["die_hit_frames"]]
        if d["entered_frame"] is not None:
            d["entered_frame"] += n_idle
        d["track"] = [None] * n_idle + d["track"][: rest + 1] + [d["track"][rest]] * n_after
    if physical is not None:
        truth["physical"] = {**asdict(physical), "tilt_deg": round(float(tilt_deg), 2)}
    truth.update({
        "seed": int(seed),
        "fps": float(fps),
        "size": [table.size[0], table.size[1]],
        "n_frames": len(all_poses),
        **hand_truth,
        "previous_dice": len(previous or []),
        "look": {"felt": renderer.look.felt, "noise": round(renderer.look.noise, 2),
                 "glare": renderer.look.glare},
    })
    if hands is not None:
        # the dice's tracks run to the clip's end: lying where they rest until taken
        taken = hand_truth.get("pickup", {})
        grab_of = dict(zip(taken.get("taken", []), taken.get("grab_frames", []), strict=True))
        for k, d in enumerate(truth["dice"]):
            d["track"] += [d["track"][-1]] * (len(all_poses) - len(d["track"]))
            if k in grab_of:
                d["track"][grab_of[k]:] = [None] * (len(all_poses) - grab_of[k])
    frames = RenderedFrames(renderer, all_poses, fps, noise_index, hands)
    clip = SimClip(frames, table.calibration, truth)
    clip.final_poses = final  # type: ignore[attr-defined]
    return clip


def simulate_session(
    seed: int,
    n_throws: int,
    size: tuple[int, int] = (640, 480),
    fps: float = 60.0,
    *,
    scenarios: list[Scenario] | None = None,
    colour: str | None = None,
    look: Look | None = None,
    idle_seconds: float = 0.6,
    after_seconds: float = 0.5,
    hand: bool = False,
    pickup: bool = False,
) -> Iterator[SimClip]:
    """Consecutive throws on one table: each clip opens with the previous throw's dice lying
    where they stopped, then picked up, then the next throw.

    :param scenarios: the case of each throw in turn (cycled); default RANDOM each time.
    :param hand: draw the shooter's hand throwing (see simulate_throw).
    :param pickup: end each clip with a hand taking the dice (the next clip then opens on an
        empty table).
    """
    if n_throws < 0:
        raise ValueError(f"n_throws must be >= 0, got {n_throws}")
    rng = np.random.default_rng([seed, 17])
    colour = check_colour(colour) if colour else str(rng.choice(list(DIE_COLOURS)))
    look = look or Look.random(rng)
    table = Table(size)
    renderer = Renderer(table, look, seed)
    previous: list[DiePose] | None = None
    for n in range(n_throws):
        sc = scenarios[n % len(scenarios)] if scenarios else Scenario.RANDOM
        clip = simulate_throw(
            seed * 1000 + n, sc, size, fps, colour=colour, look=look,
            idle_seconds=idle_seconds, after_seconds=after_seconds, previous=previous,
            hand=hand, pickup=pickup,
            _table=table, _renderer=renderer,
        )
        clip.truth["throw_index"] = n
        previous = [DiePose(p.centre, p.rotation, p.colour) for p in clip.final_poses]
        yield clip
