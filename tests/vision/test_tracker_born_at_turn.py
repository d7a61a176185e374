"""A die first made out on the frame of its wall strike (``WallContact.leave_speed``,
docs/replay.md "How a wall strike is decided", 5.): on the dev throws that missed it and on
constructed paths that must stay no strike."""

from __future__ import annotations

import math

import pytest

from tests.support.throws import SIM_CASES, match
from tests.vision.tracker_synth import CAL, DIE, WALL_Y
from vision.simulator import simulate_throw
from vision.simulator.worlds import world_of
from vision.throw_geometry import TableGeometry, WallContact
from vision.tracker import ThrowTracker, TrackerSettings

OFF = WallContact(leave_speed=math.inf)  # the rule off: never fast enough


def tracked(seed: int, first: int, size: tuple[int, int], wall: WallContact | None = None):
    """Dev throw ``seed`` of the set starting at ``first`` (its case cycles from there, as in
    ``bench/wall_misses.py``), tracked without the reader: the truth's dice and the observed
    ones matched to them."""
    clip = simulate_throw(seed=seed, scenario=SIM_CASES[(seed - first) % len(SIM_CASES)],
                          size=size, **world_of("physical", seed, 60.0))
    settings = TrackerSettings(wall=wall or WallContact())
    tracker = ThrowTracker(clip.calibration, reader=None, annotate=False, settings=settings)
    (obs,) = [o for t, f in clip.frames if (o := tracker.feed(t, f)) is not None]
    return clip.truth["dice"], match(clip.truth["dice"], obs.dice)


@pytest.mark.parametrize(("seed", "first", "size", "die"), [
    # 30 fps: first made out 0.83 edge out on its contact frame, 0.86 on the next, then
    # leaving at 27 edges/s
    (89015, 89000, (640, 480), 0),
    # 30 fps: first made out 0.98 out, then 0.94, then leaving at 20 edges/s, 1.0 edge beside
    # the other die lying at the wall (0.51 out): judged where it turned, not turned by it
    (88034, 88000, (1280, 720), 1),
])
def test_a_die_first_made_out_on_its_contact_frame_struck_the_wall(seed, first, size, die):
    truth, seen = tracked(seed, first, size)
    assert truth[die]["hit_wall"] and seen[die] is not None
    assert seen[die].hit_wall
    # the other die's ruling is untouched
    assert seen[1 - die].hit_wall == truth[1 - die]["hit_wall"]
    _, off = tracked(seed, first, size, OFF)
    assert not off[die].hit_wall


def _path(ds, x=300.0, fps=30.0):
    """A die's centre ``ds`` die edges from the wall line on frames 0, 1, ...; its track begins
    on frame 0."""
    return ([i / fps for i in range(len(ds))], [x] * len(ds), [WALL_Y + d * DIE for d in ds])


def test_a_die_first_seen_by_the_wall_and_leaving_slowly_is_no_strike():
    """First made out 0.95 edge out (a die lying by the wall, a cube's reach from it), then
    moving off at 6 edges/s (nudged, rocking): nothing says it touched; leaving at 27 edges/s
    from the same place only the wall sent it."""
    geometry = TableGeometry(CAL)
    assert not geometry.hit_wall(*_path([0.95, 0.96, 1.16, 1.36, 1.56]))
    assert geometry.hit_wall(*_path([0.95, 0.96, 1.86, 2.76, 3.66]))


def test_a_die_first_seen_beyond_the_reach_of_its_speed_is_no_strike():
    """A die first seen still and then leaving fast turned where it was first seen: 1.3 edges
    out at 30 fps (beyond the 1.25 any strike is allowed), or 1.1 out leaving at 15.6 edges/s
    at 120 fps (seen sharp: a cube's 0.87 and the camera's 0.15, and 0.07 of blur), it never
    reached the wall; 0.95 out it did."""
    geometry = TableGeometry(CAL)
    assert not geometry.hit_wall(*_path([1.3, 1.31, 2.21, 3.11, 4.01]))
    assert not geometry.hit_wall(*_path([1.1, 1.1, 1.23, 1.36, 1.49], fps=120.0))
    assert geometry.hit_wall(*_path([0.95, 0.95, 1.08, 1.21, 1.34], fps=120.0))


def test_a_die_first_seen_leaving_a_die_that_lies_against_the_wall_was_turned_by_it():
    """At 60 fps a die first seen 1.1 edges out, then leaving at 15 edges/s, turned within a
    cube's reach of the wall (0.975, its blur taken off). With the other die lying against
    the wall (0.5 out) a full edge from it, 0.8 along the wall, it was turned by that die, not
    by the wall; with the other 1.8 edges along the wall, out of reach, by the wall."""
    geometry = TableGeometry(CAL)
    path = _path([1.1, 1.1, 1.35, 1.6, 1.85], fps=60.0)
    assert geometry.hit_wall(*path)
    beside = _path([0.5] * 5, x=300.0 + 0.8 * DIE, fps=60.0)
    assert not geometry.hit_wall(*path, [beside])
    apart = _path([0.5] * 5, x=300.0 + 1.8 * DIE, fps=60.0)
    assert geometry.hit_wall(*path, [apart])
