"""Wall strikes and the area on the kinds of throw the dev sets showed missed (docs/replay.md
"The dev bench's wall and area misses, one by one"), on constructed paths and frames."""

from __future__ import annotations

import math

from tests.vision.tracker_synth import CAL, DIE, WALL_Y, SynthDie, throw
from vision.throw_geometry import TableGeometry
from vision.tracker import ThrowTracker

FRONT_Y = 440.0  # the synthetic area's front edge (the shooter's side)


def run(frames):
    tracker = ThrowTracker(CAL, annotate=False)
    return [o for t, f in frames if (o := tracker.feed(t, f)) is not None]


def test_a_short_throw_resting_just_inside_the_front_edge_did_not_leave_the_area():
    """A die thrown short comes over the front edge and rests 0.3 edge inside it, never the
    0.45 edge in that says a flying die has come in: lying still it is on the felt, where it
    is seen, so it is in the area (R-I1). Resting 0.3 edge outside it never came in."""
    geometry = TableGeometry(CAL)
    xs = [300.0] * 12
    inside = [FRONT_Y + 0.6 * DIE, FRONT_Y + 0.3 * DIE, FRONT_Y + 0.05 * DIE, FRONT_Y - 0.15 * DIE,
              FRONT_Y - 0.25 * DIE] + [FRONT_Y - 0.3 * DIE] * 7
    assert not geometry.left_area(xs, inside, gone=False)
    outside = [y + 0.6 * DIE for y in inside]
    assert geometry.left_area(xs, outside, gone=False)
    # still moving when last seen (not at rest): it never came in
    assert geometry.left_area(xs[:5], inside[:5], gone=False)
    # lost from view there: where it went is unknown, it never came in
    assert geometry.left_area(xs, inside, gone=True)


# the synthetic felt is (40, 110, 30) BGR: this green differs from it by 25 over B, G, R (under
# the change threshold of 30) but in hue by 0.1 (its chromaticity, B, G, R over their sum)
FELT_GREEN_DIE = (30, 110, 45)


def test_dice_of_nearly_the_felts_colour_are_found_by_their_hue():
    """Two green dice on green felt: their bodies change the frame less than the change
    threshold, only their pips do, so the old tracker never saw a die-sized blob and the throw
    was not observed. Their hue differs from the felt's: they are found, followed and ruled."""
    dice = [SynthDie(250, 400, 30, -900, 3, colour=FELT_GREEN_DIE),
            SynthDie(420, 400, -40, -300, 5, colour=FELT_GREEN_DIE)]
    frames, dice = throw(dice, friction=2.5)
    assert dice[0].hit_wall and not dice[1].hit_wall
    (obs,) = run(frames)
    assert obs.missing == 0 and obs.extra == 0
    by_x = sorted(obs.dice, key=lambda d: d.center[0])
    assert [d.hit_wall for d in by_x] == [True, False]
    assert not any(d.left_area for d in by_x)
    for seen, die in zip(by_x, sorted(dice, key=lambda d: d.x), strict=True):
        assert math.hypot(seen.center[0] - die.x, seen.center[1] - die.y) < 0.5 * DIE


def test_a_shadow_keeps_the_felts_hue_and_is_no_die():
    """The felt darkened to 60% (a shadow the size of a die, moving as a die would) keeps the
    felt's hue: it is no die, with or without the hue test."""
    dice = [SynthDie(250, 400, 30, -900, 3, colour=(24, 66, 18)),
            SynthDie(420, 400, -40, -300, 5)]
    frames, _ = throw(dice, friction=2.5)
    obs = run(frames)
    assert len(obs) == 1 and len([d for d in obs[0].dice if d.center is not None]) == 1


def _path(ds, x=300.0, fps=30.0, first=0):
    """A path straight at the back wall: its centre ``ds`` die edges from the wall line per
    frame from frame ``first``."""
    return ([(first + i) / fps for i in range(len(ds))], [x] * len(ds),
            [WALL_Y + d * DIE for d in ds])


def test_two_dice_striking_the_wall_side_by_side_both_struck_it():
    """Two dice reach the wall side by side on the same frame at 30 fps (dev 84016 at
    1280x720): one is seen 0.49 edge out, the other, blurred, 1.14 out on its contact frame,
    0.65 farther, 1.2 edges beside it along the wall. The lines of its way in (57 edges/s) and
    out (21) cross 0.69 edge out: there it turned, only 0.2 edge farther out than the other
    die, which cannot have turned it back (a die turned by one lying against the wall has its
    centre a full edge beyond that one's). A die that does turn on the other die, a full edge
    out beyond it, still is not a wall strike."""
    geometry = TableGeometry(CAL)
    blurred = _path([6.87, 4.91, 3.04, 1.14, 1.22, 1.92, 2.59, 3.11, 3.52])
    beside = _path([6.76, 4.47, 2.26, 0.49, 0.71, 0.91, 1.06, 1.19, 1.19], x=300.0 + 1.2 * DIE)
    assert geometry.hit_wall(*blurred, others=[beside])
    assert geometry.hit_wall(*beside, others=[blurred])
    on_the_other = _path([6.87, 4.91, 3.04, 1.6, 1.62, 2.2, 2.8, 3.3, 3.7])
    lying = _path([0.55] * 9, x=300.0 + 0.3 * DIE)
    assert not geometry.hit_wall(*on_the_other, others=[lying])


def test_a_die_first_seen_leaving_the_wall_beside_the_other_die_struck_it():
    """Dev 86102 (30 fps): a yellow die is first made out 1.11 edges out, just after its
    strike, leaving at 25 edges/s; the other die, already at the wall 0.58 edge out, is 0.84
    edge beside it. Seen there it looks turned by that die (0.53 edge nearer the wall), but
    traced back at the speed it left it was at the wall itself before it was seen: the wall
    turned it. (It leaves slanting away from the other die, 2.3 edges from it on its next
    sighting.) A die born bouncing off a die lying at the wall, traced back to 0.97 edge out,
    just beyond that die, was turned by it."""
    geometry = TableGeometry(CAL)
    born = _path([1.11, 1.94, 2.19, 2.82, 3.23, 3.49, 3.57, 3.57], first=13)
    born[1][1:] = [300.0 + 0.96 * DIE] * 7  # it leaves across the wall, away from the other
    other = _path([0.58, 1.14, 1.68, 1.85, 1.89, 1.87, 1.88], x=300.0 - 0.84 * DIE, first=14)
    assert geometry.hit_wall(*born, others=[other])
    off_the_other = _path([2.3, 2.97, 3.6, 4.1, 4.4, 4.5, 4.5])
    lying = _path([0.55] * 7, x=300.0 + 0.3 * DIE)
    assert geometry.hit_wall(*off_the_other)  # alone: traced back two frames it reaches the wall
    assert not geometry.hit_wall(*off_the_other, others=[lying])


def test_a_fast_die_first_seen_far_from_the_wall_passing_the_other_die_struck_it():
    """Dev 84153 (30 fps): a die first made out 5 edges out, leaving at 72 edges/s (it struck
    the wall three frames before); a frame back at that speed it passed the other die, 2.4
    edges out. Traced back it reaches the wall: the other die, farther out than that, did not
    turn it."""
    geometry = TableGeometry(CAL)
    leaving = _path([5.05, 7.44, 9.21], first=14)
    leaving[1][:] = [358.0, 385.0, 402.0]
    other = _path([2.38, 1.8, 1.54, 1.5], x=282.0, first=14)
    assert geometry.hit_wall(*leaving, others=[other])


def test_a_die_losing_its_speed_in_one_frame_interval_at_the_wall_stopped_against_it():
    """Dev 87384 (30 fps): a die comes at the wall at 61 then 34 edges/s, seen 0.92 edge out,
    and 0.71 out a frame later, where it stays: it lost 28 edges/s from one frame interval to
    the next (840 edges/s², some 13 m/s² for a 16 mm die: more than the felt's friction can
    take off), so it stopped against the wall (it was 0.54 out at its contact). Averaged over
    two intervals (from its approach to its stillness) the loss looked like 530 edges/s², too
    gentle for a stop. A die slowing as the felt slows it (300 edges/s², 60 fps) to rest an
    edge out did not touch."""
    geometry = TableGeometry(CAL)
    stopped = _path([6.1, 4.09, 2.06, 0.92, 0.71, 0.75, 0.74, 0.75, 0.75])
    assert [k for k, _, _ in geometry.wall_contacts(*stopped)] == ["stop"]
    sliding = _path([2.33, 1.833, 1.5, 1.25, 1.083, 1.0, 1.0, 1.0, 1.0], fps=60.0)
    assert not geometry.hit_wall(*sliding)


def test_a_resting_dies_jitter_at_120_fps_is_no_rebound():
    """Dev 87398 (120 fps, 640x480): a die creeps up to the wall and comes to rest 0.82 edge
    from its line without touching it. Its centre, found on the tracker's copy shrunk four
    times, steps by up to 0.04 edge from frame to frame (0.4 of that copy's pixel) as it lies
    there: 4.8 edges/s at 120 fps, more than the 2 edges/s that make a rebound. Within the
    centre's own uncertainty (a quarter of the shrunk pixel each sighting, 6 edges/s at 120
    fps over one frame interval) it is no motion, and no rebound. The same dip at 30 fps
    (1.2 edges/s) is too slow either way, and a true rebound at 120 fps, 12 edges/s in and
    out, counts."""
    still = [1.3, 1.233, 1.167, 1.1, 1.033, 0.967, 0.93, 0.91, 0.95, 0.98, 0.96, 0.93, 0.95,
             0.97, 0.93, 0.95, 0.95]
    plain = TableGeometry(CAL)
    jitter_aware = TableGeometry(CAL, centre_px=0.25 * 4)
    assert plain.hit_wall(*_path(still, fps=120.0))  # the centre's jitter taken for motion
    assert not jitter_aware.hit_wall(*_path(still, fps=120.0))
    assert not plain.hit_wall(*_path(still, fps=30.0))
    bounce = [1.5, 1.4, 1.3, 1.2, 1.1, 1.0, 0.9, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4]
    assert jitter_aware.hit_wall(*_path(bounce, fps=120.0))
