"""Two dice in one blob: which part is which die when they cross or collide
(``ThrowTracker._follow`` and ``_untangle``), and a die's sightings held by its twin
(``_fill_from_twins``), on constructed tracks and blobs shaped as the dev throws that missed
(docs/replay.md "The dev bench's wall and area misses, one by one")."""

from __future__ import annotations

import math

from tests.vision.test_tracker_association import FPS, blobs_of, track
from tests.vision.tracker_synth import CAL, DIE, WALL_Y, background
from vision.die_track import DieTrack
from vision.tracker import ThrowTracker, TrackerSettings


def tracker_with(tracks: list[DieTrack], frame_index: int, **settings) -> ThrowTracker:
    tracker = ThrowTracker(CAL, annotate=False, settings=TrackerSettings(**settings))
    tracker.feed(0.0, background())
    tracker.frame_index = frame_index
    tracker._dt = 1 / FPS
    tracker._tracks = tracks
    return tracker


def see(tracker: ThrowTracker, frame: int, centres: list[tuple[float, float]]) -> None:
    """Frame ``frame``: dice drawn square, one edge wide, at ``centres`` (dice that overlap
    make one blob), given to the dice as the tracker does."""
    labels, stats, cents, _ = blobs_of(tracker, centres)
    tracker.frame_index = frame
    tracker._associate(labels, stats, cents, len(stats), frame / FPS)


def near(tr: DieTrack, frame: int, x: float, y: float) -> bool:
    k = tr.frames.index(frame)
    return math.hypot(tr.xs[k] - x, tr.ys[k] - y) < 0.3 * DIE


# dev 87077 (30 fps): die 0 comes off the wall and flies over die 1, which rolls in to rest
# by the wall; on frame 16 the two lie in one blob, die 1 on the wall's side of die 0
CROSS_0 = [(13, 293.0, 113.0), (14, 313.0, 103.0), (15, 326.0, 121.0)]
CROSS_1 = [(13, 359.0, 218.0), (14, 359.0, 178.0), (15, 357.0, 153.0)]
CROSS_NEXT = [((353.0, 172.0), (350.0, 133.0)), ((371.0, 197.0), (347.0, 133.0))]
# dev 80004 (30 fps): die 0 lies against the wall, die 1 flies into it and is stopped there
# (the two in one blob on frame 14), then rolls off along the wall
HIT_0 = [(11, 332.0, 101.0), (12, 332.0, 100.0), (13, 332.0, 99.0)]
HIT_1 = [(11, 403.0, 306.0), (12, 383.0, 233.0), (13, 363.0, 160.0)]
HIT_NEXT = [((341.0, 84.0), (333.0, 121.0)), ((340.0, 82.0), (306.0, 120.0))]


def follow(first, second, after, start: int, **settings):
    a, b = track(0, first), track(1, second)
    tracker = tracker_with([a, b], start - 1, **settings)
    for k, (p, q) in enumerate(after):
        see(tracker, start + k, [p, q])
    return a, b


def test_a_die_flying_over_the_other_keeps_its_velocity_through_the_crossing():
    """Dev 87077: the two dice's parts of their blob taken by where each was and was heading
    give die 0 the part on the wall's side (nearer where it was) and die 1 the other: die 1,
    rolling at the wall, would have turned 1.8 edges out with nothing to turn it, die 0
    stopped leaving the wall. A frame later the paths say which: each die kept its velocity,
    so the parts are exchanged, and die 0 holds its own path out from the wall."""
    a, b = follow(CROSS_0, CROSS_1, CROSS_NEXT, 16)
    assert near(a, 16, *CROSS_NEXT[0][0]) and near(a, 17, *CROSS_NEXT[1][0])
    assert near(b, 16, *CROSS_NEXT[0][1]) and near(b, 17, *CROSS_NEXT[1][1])
    # without the second look, the tracks swap dice at the crossing
    a, b = follow(CROSS_0, CROSS_1, CROSS_NEXT, 16, untangle_margin=math.inf)
    assert near(a, 16, *CROSS_NEXT[0][1]) and near(b, 16, *CROSS_NEXT[0][0])


def test_a_die_stopped_by_the_other_at_the_wall_keeps_its_own_part():
    """Dev 80004 (and the second renderer's clip_003): a die flying into the other, which lies
    against the wall, is stopped there. By heading alone it would take the part at the wall
    and the die at rest would jump a die's width off it: a collision, both dice changing
    velocity at once, is what the paths show; each die keeps the part where it was."""
    a, b = follow(HIT_0, HIT_1, HIT_NEXT, 14)
    assert near(a, 14, *HIT_NEXT[0][0]) and near(a, 15, *HIT_NEXT[1][0])
    assert near(b, 14, *HIT_NEXT[0][1]) and near(b, 15, *HIT_NEXT[1][1])


def test_dice_flying_side_by_side_in_one_blob_are_not_exchanged():
    """Two dice flying together at the same speed, 0.95 edge apart (one blob): exchanging
    their parts would make each jump sideways; they stay as they are."""
    left = [(f, 280.0, 400.0 - 30 * f) for f in range(3)]
    right = [(f, 280.0 + 0.95 * DIE, 400.0 - 30 * f) for f in range(3)]
    after = [((280.0, 400.0 - 30 * f), (280.0 + 0.95 * DIE, 400.0 - 30 * f)) for f in (3, 4, 5)]
    a, b = follow(left, right, after, 3)
    for f, (p, q) in zip((3, 4, 5), after, strict=True):
        assert near(a, f, *p) and near(b, f, *q)


def test_a_twins_sighting_at_the_wall_is_the_dies_own():
    """Dev 87337 (30 fps): a die blurred into a blob too big for one is followed as two (its
    twin born of its blob); lost for a frame at the wall, only its twin sees it there, then
    the twin is lost and the die's track goes on from 1.4 edges out. Its own path shows no
    strike; the twin's sighting of the frame it lacked (0.94 edge out, between 2.1 and 1.4) is
    the die's: it turned there, within a fast die's reach of the wall."""
    wall = WALL_Y + 0.94 * DIE  # the twin's sighting of the frame the die's track lacks
    die = track(0, [(10, 240.0, WALL_Y + 6.5 * DIE), (11, 242.0, WALL_Y + 4.1 * DIE),
                    (12, 238.0, WALL_Y + 2.1 * DIE), (14, 260.0, WALL_Y + 1.4 * DIE),
                    (15, 261.0, WALL_Y + 1.45 * DIE), (16, 263.0, WALL_Y + 1.7 * DIE),
                    (17, 266.0, WALL_Y + 1.75 * DIE)])
    twin = track(1, [(10, 240.0, WALL_Y + 6.5 * DIE), (11, 233.0, WALL_Y + 4.9 * DIE),
                     (12, 235.0, WALL_Y + 3.4 * DIE), (13, 241.0, wall),
                     (14, 242.0, WALL_Y + 0.68 * DIE)])
    twin.gone = True
    twin.share(die, 10)
    tracker = tracker_with([die, twin], 30)
    assert not tracker.hit_wall(die.times, die.xs, die.ys)
    tracker._fill_from_twins([die])
    assert die.frames == [10, 11, 12, 13, 14, 15, 16, 17]
    assert tracker.hit_wall(die.times, die.xs, die.ys)
    # a lost track that is no die's twin gives it nothing
    other = track(0, [(f, x, y) for f, x, y in zip(die.frames, die.xs, die.ys, strict=True)
                      if f != 13])
    stranger = track(2, [(13, 241.0, wall)])
    stranger.gone = True
    tracker = tracker_with([other, stranger], 30)
    tracker._fill_from_twins([other])
    assert 13 not in other.frames


def test_a_twins_sighting_out_of_the_dies_reach_is_not_taken():
    """The twin's sighting of a frame the die lacks is taken only if a thrown die could fly
    there from the die's sightings either side (``throw_speed``, 3.3 edges a frame at 30 fps)."""
    die = track(0, [(10, 100.0, 400.0), (12, 120.0, 400.0)])
    twin = track(1, [(10, 100.0, 400.0), (11, 100.0 + 4 * DIE, 400.0)])
    assert die.fill_from(twin, 100.0 * DIE / FPS) == 0
    twin.xs[-1] = 110.0
    assert die.fill_from(twin, 100.0 * DIE / FPS) == 1
    assert die.frames == [10, 11, 12]
