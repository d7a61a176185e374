"""The physical world: rigid-body invariants of tumbling cubes, its truth, its rendering."""

from __future__ import annotations

import numpy as np
import pytest

from vision.simulator import Look, PhysicalSetup, Scenario, SimulationError, simulate_throw
from vision.simulator.dice3d import CUBE_VERTICES, FACE_NORMALS, ROTATIONS, rot_axis, top_value
from vision.simulator.physical import _random_rotation, airborne
from vision.simulator.render import DiePose, Renderer
from vision.simulator.rigid import (
    RigidLaunch,
    Surfaces,
    simulate_rigid,
    top_tilt_deg,
)
from vision.simulator.scene import DIE_MM, Table
from vision.simulator.worlds import NEVER_TUNED_SEED, WORLDS, world_of

H = DIE_MM / 2
TABLE = Table((640, 480))
CASES = [Scenario.BOTH_HIT, Scenario.ONE_HITS, Scenario.NONE_HITS, Scenario.OUT_OF_AREA,
         Scenario.COCKED_WALL, Scenario.COCKED_DIE]


def _at_wall(rng, n=1, speed=(900.0, 1500.0)):
    """Dice thrown at the back wall from near it, tumbling in any orientation."""
    out = []
    for k in range(n):
        out.append(RigidLaunch(
            pos=(float(rng.uniform(-40, 40)) + 40.0 * k, float(rng.uniform(40, 70)),
                 float(rng.uniform(12, 30))),
            vel=(float(rng.normal(0, 100)), -float(rng.uniform(*speed)),
                 float(rng.uniform(-100, 200))),
            rotation=_random_rotation(rng),
            spin=tuple(float(x) for x in rng.normal(0, 25, 3)),
        ))
    return out


def test_a_tumbling_die_touches_the_wall_with_its_centre_half_an_edge_to_half_a_diagonal_away():
    rng = np.random.default_rng(3)
    distances, corners = [], set()
    for _ in range(25):
        tracks, _, _ = simulate_rigid(TABLE, _at_wall(rng), Surfaces(wall_restitution=0.7),
                                      60.0, rng)
        for c in tracks[0].wall_contacts():
            distances.append(c.centre_mm / DIE_MM)
            corners.add(c.vertices)
    assert len(distances) >= 25
    assert min(distances) >= 0.5 - 1e-6 and max(distances) <= np.sqrt(3) / 2 + 1e-6
    # tumbling cubes mostly meet the wall corner- or edge-first, far from the flat 0.5
    assert np.median(distances) > 0.62
    assert 1 in corners


def test_no_bounce_adds_energy():
    rng = np.random.default_rng(5)
    n = 0
    for e in (0.3, 0.6, 0.95):
        for _ in range(8):
            tracks, _, _ = simulate_rigid(TABLE, _at_wall(rng, 2),
                                          Surfaces(wall_restitution=e, wall_scatter=0.3), 60.0,
                                          rng)
            for t in tracks:
                for c in t.contacts:
                    if c.what in ("wall", "felt", "rail"):
                        n += 1
                        assert c.energy_after <= c.energy_before * (1 + 1e-9) + 1e-6, c
    assert n > 50


@pytest.mark.parametrize("e", [0.3, 0.6, 0.95])
def test_a_face_first_die_leaves_the_wall_at_restitution_times_its_speed(e):
    # square to the wall, no spin, in the air: one normal impulse at the face's middle
    launch = RigidLaunch(pos=(0.0, 25.0, 40.0), vel=(0.0, -1200.0, 0.0),
                         rotation=np.eye(3), spin=(0.0, 0.0, 0.0))
    tracks, k, _ = simulate_rigid(TABLE, [launch], Surfaces(wall_restitution=e), 120.0,
                                  np.random.default_rng(0), max_seconds=0.08)
    (hit,) = tracks[0].wall_contacts()
    assert hit.vertices == 4 and hit.centre_mm == pytest.approx(H, abs=1e-6)
    # it reaches the wall 17 mm / 1.2 m/s = 14.2 ms after release, between frames 1 and 2 at
    # 120 fps: the contact counts for frame 2
    assert hit.frame == 2
    after = np.flatnonzero(np.diff(tracks[0].centres[:, 1]) > 0)[0] + 1
    vy = (tracks[0].centres[after + 2, 1] - tracks[0].centres[after + 1, 1]) * 120.0 * k
    assert vy == pytest.approx(e * 1200.0, rel=0.02)


def _deepest_overlap(ca, ra, cb, rb) -> float:
    """How deep any corner of cube a lies inside cube b, mm (0: none inside)."""
    local = (ca + CUBE_VERTICES @ ra.T * H - cb) @ rb
    inside = np.all(np.abs(local) < H, axis=1)
    return float((H - np.abs(local[inside])).min(1).max()) if inside.any() else 0.0


def test_two_dice_thrown_together_never_interpenetrate_beyond_a_millimetre():
    rng = np.random.default_rng(11)
    touched = 0
    for _ in range(10):
        a, b = _at_wall(rng, 2)
        # apart at release (more than a space diagonal), flying into each other
        b.pos = (a.pos[0] + rng.uniform(28, 32), a.pos[1] + rng.uniform(-5, 5), a.pos[2])
        b.vel = (a.vel[0] - 600.0, a.vel[1], a.vel[2])
        tracks, _, _ = simulate_rigid(TABLE, [a, b], Surfaces(), 60.0, rng)
        ta, tb = tracks
        touched += any(c.what == "die" for c in ta.contacts)
        for s in range(0, len(ta.centres), 2):
            for (c1, r1), (c2, r2) in (((ta.centres[s], ta.rotations[s]),
                                        (tb.centres[s], tb.rotations[s])),
                                       ((tb.centres[s], tb.rotations[s]),
                                        (ta.centres[s], ta.rotations[s]))):
                assert _deepest_overlap(c1, r1, c2, r2) < 1.0
    assert touched >= 5


def test_dice_come_to_rest_flat_on_a_face():
    rng = np.random.default_rng(2)
    for _ in range(6):
        tracks, _, rest = simulate_rigid(TABLE, _at_wall(rng, 2), Surfaces(), 60.0, rng)
        assert rest is not None
        for t in tracks:
            assert top_tilt_deg(t.rotations[-1]) < 1e-6
            assert t.centres[-1][2] == pytest.approx(H)


def test_an_airborne_die_is_drawn_larger_and_its_shadow_falls_away_from_it():
    table = Table((640, 480), tilt_deg=0.0)
    look = Look(noise=0.0, gradient=0.0, lamp=(0.0, -0.7071, 0.7071))
    renderer = Renderer(table, look)
    empty = renderer.frame([])

    def drawn(z):
        img = renderer.frame([DiePose(np.array([0.0, 80.0, z]), np.eye(3))])
        diff = np.abs(img.astype(int) - empty.astype(int)).sum(2)
        die = (img.min(2) > 150) & (diff > 60)  # the white die itself
        shadow = (diff > 25) & ~die & (img.max(2) < empty.max(2))
        return die.sum(), np.argwhere(shadow)[:, 0].mean(), np.argwhere(die)[:, 0].mean()

    area_low, shadow_low, _ = drawn(H)
    area_high, shadow_high, die_row = drawn(H + 40.0)
    assert area_high > area_low * 1.08
    # the lamp is in front (toward +y... its vector points to -y): the shadow lies behind
    assert shadow_high > shadow_low + 5


def test_physical_truth_follows_the_simulated_contacts_and_the_final_pose():
    for k, case in enumerate(CASES):
        seed = 500 + k
        clip = simulate_throw(seed=seed, scenario=case, look=Look(noise=0.0),
                              **world_of("physical", seed, 60.0))
        for d in clip.truth["dice"]:
            assert d["hit_wall"] == bool(d["wall_contacts"]) == bool(d["wall_hit_frames"])
            # a die that struck the wall touched it; one that did not stayed clear of it
            assert (d["min_wall_gap_mm"] < 0.5) == d["hit_wall"]
            assert d["value"] in range(1, 7)
            for c in d["wall_contacts"]:
                assert 0.5 - 1e-6 <= c["centre_edges"] <= 0.867
            if d["cocked"]:
                assert 10.0 - 0.5 <= d["cocked_tilt_deg"] <= 45.0 + 0.5
            else:
                assert d["cocked_tilt_deg"] == 0.0
        final = clip.final_poses
        for d, pose in zip(clip.truth["dice"], final, strict=True):
            assert (top_tilt_deg(pose.rotation) > 5.0) == d["cocked"]
            if not d["cocked"]:
                assert d["value"] == top_value(pose.rotation)
            assert airborne(pose) == pytest.approx(0.0, abs=1e-3)  # resting on the felt


def test_dice_enter_from_below_the_view_at_full_speed_and_in_the_air():
    seed = 40
    w = world_of("physical", seed, 60.0) | {"fps": 60.0}
    clip = simulate_throw(seed=seed, scenario=Scenario.BOTH_HIT, size=(1280, 720), **w)
    t = clip.truth
    for d in t["dice"]:
        track = d["track"][t["release_frame"]:]
        assert track[0] is None  # released outside the view
        first = next(i for i, p in enumerate(track) if p is not None)
        p0, p1 = np.array(track[first]), np.array(track[first + 1])
        step = float(np.hypot(*(p1 - p0)))
        assert p0[1] > 720 - 1.5 * step  # seen first at the image's bottom edge
        step_edges = step / clip.calibration.die_px
        assert 0.6 < step_edges < 2.0  # 1-1.5 m/s, in die edges per frame
        assert d["max_height_mm"] > 5.0


def test_same_seed_same_physical_clip_other_seed_other_clip():
    kw = world_of("physical", 90003, 60.0)
    a = simulate_throw(seed=90003, scenario=Scenario.ONE_HITS, **kw)
    b = simulate_throw(seed=90003, scenario=Scenario.ONE_HITS, **world_of("physical", 90003, 0))
    c = simulate_throw(seed=90004, scenario=Scenario.ONE_HITS,
                       **world_of("physical", 90004, 60.0))
    assert a.truth == b.truth and a.truth != c.truth
    i = a.truth["release_frame"] + 3
    assert np.array_equal(a.frames[i][1], b.frames[i][1])


@pytest.mark.parametrize("size", [(640, 480), (1280, 720)])
@pytest.mark.parametrize("fps", [30.0, 60.0, 120.0])
def test_physical_clips_render_at_each_frame_rate_and_size(size, fps):
    setup = PhysicalSetup.random(np.random.default_rng(int(fps)))
    clip = simulate_throw(seed=7, scenario=Scenario.BOTH_HIT, size=size, fps=fps,
                          physical=setup)
    assert clip.truth["fps"] == fps
    n = len(clip.frames)
    assert n == clip.truth["n_frames"]
    # a throw lasts about as long in seconds at every frame rate
    assert 0.3 < (clip.truth["rest_frame"] - clip.truth["release_frame"]) / fps < 3.0
    for i in (0, clip.truth["release_frame"] + int(fps * 0.1), n - 1):
        t, img = clip.frames[i]
        assert img.shape == (size[1], size[0], 3) and img.dtype == np.uint8
        assert t == pytest.approx(i / fps)


def test_worlds_keep_default_and_wide_and_draw_physical_per_seed():
    assert WORLDS == ("default", "wide", "physical") and NEVER_TUNED_SEED == 90000
    assert world_of(None, 5, 60.0) == {"fps": 60.0} == world_of("default", 5, 60.0)
    wide = world_of("wide", 70001, 60.0)
    rng = np.random.default_rng([70001, 77])
    assert wide == {"fps": float(rng.choice([30.0, 60.0, 120.0])),
                    "tilt_deg": float(rng.uniform(0, 15))}
    draws = [world_of("physical", s, 60.0) for s in range(90000, 90040)]
    assert {d["fps"] for d in draws} == {30.0, 60.0, 120.0}
    assert all(0 <= d["tilt_deg"] <= 15 for d in draws)
    setups = [d["physical"] for d in draws]
    assert {s.rail for s in setups} == {"wood", "padding", "pyramids"}
    e = [s.wall_restitution for s in setups]
    assert 0.3 <= min(e) < 0.4 and 0.85 < max(e) <= 0.95
    with pytest.raises(ValueError, match="unknown world"):
        world_of("moon", 1, 60.0)


def test_a_leaning_die_is_drawn_as_a_cube_with_a_foreshortened_top_and_a_side_face():
    table = Table((640, 480), tilt_deg=0.0)
    renderer = Renderer(table, Look(noise=0.0))
    x, y = table.camera.centre[:2]  # straight below the camera: a flat die shows one face
    flat = DiePose(np.array([x, y, H]), ROTATIONS[0])
    rot = rot_axis(np.array([1.0, 0.0, 0.0]), np.radians(30.0))
    lean = DiePose(np.array([x, y, H * (np.cos(np.radians(30)) + np.sin(np.radians(30)))]), rot)
    idx_flat = renderer._faces(flat.centre, flat.rotation)[0]
    idx, px, *_ = renderer._faces(lean.centre, lean.rotation)
    assert len(idx_flat) == 1 and len(idx) == 2
    top = int(np.argmax((FACE_NORMALS[idx] @ rot.T)[:, 2]))
    side = (px[1, top] - px[0, top], px[2, top] - px[0, top])
    lengths = sorted(float(np.hypot(*v)) for v in side)
    assert lengths[0] / lengths[1] == pytest.approx(np.cos(np.radians(30.0)), abs=0.05)


def test_a_low_lamp_behind_the_shooter_casts_a_die_near_the_wall_onto_the_walls_face():
    table = Table((640, 480), tilt_deg=10.0)
    lamp = np.array([-0.7, 0.5, 0.5])  # low, from the shooter's left: shadows run back right
    renderer = Renderer(table, Look(noise=0.0, gradient=0.0, lamp=tuple(lamp / np.linalg.norm(
        lamp))))
    empty = renderer.frame([]).astype(int)
    img = renderer.frame([DiePose(np.array([0.0, H + 3.0, H]), np.eye(3))]).astype(int)

    def at(x, z):
        u, v = table.camera.project(np.array([[x, 0.0, z]]))[0].round().astype(int)
        return img[v, u].sum(), empty[v, u].sum()

    shaded, lit = at(16.0, 4.0)  # on the wall's face beside and behind the die
    assert shaded < 0.8 * lit
    shaded, lit = at(-40.0, 4.0)  # far to the other side: untouched
    assert shaded == lit


def test_each_wall_surface_looks_different_and_a_bad_setup_is_refused():
    table = Table((640, 480))
    u, v = table.camera.project(np.array([[0.0, 0.0, 20.0]]))[0].round().astype(int)
    faces = {}
    for rail in ("pyramids", "wood", "padding"):
        img = Renderer(table, Look(noise=0.0, rail=rail), seed=3).background
        faces[rail] = img[v - 3:v + 4, u - 40:u + 40].astype(int)
    assert all(np.abs(faces[a] - faces[b]).mean() > 5
               for a, b in (("pyramids", "wood"), ("wood", "padding"), ("pyramids", "padding")))
    with pytest.raises(ValueError, match="rail"):
        Renderer(table, Look(rail="marble"))
    with pytest.raises(ValueError, match="rail"):
        PhysicalSetup(rail="marble")
    with pytest.raises(ValueError, match="exposure"):
        PhysicalSetup(exposure=0.0)
    with pytest.raises(ValueError, match="hand"):
        simulate_throw(seed=1, physical=PhysicalSetup(), hand=True)
    with pytest.raises(ValueError, match="EXTRA_DIE"):
        simulate_throw(seed=1, scenario=Scenario.EXTRA_DIE, physical=PhysicalSetup())


def test_a_case_the_physical_world_cannot_find_says_so():
    with pytest.raises(SimulationError, match="no cocked_die throw found in 0 attempts"):
        simulate_throw(seed=2, scenario=Scenario.COCKED_DIE, physical=PhysicalSetup(),
                       max_attempts=0)
