"""Two dice in separate blobs that meet (``ThrowTracker._keep_energy``,
``TrackerSettings.energy_margin``): nothing on the table gives a thrown die speed, so blobs
taken so that both dice would speed up are exchanged. On the dev throw that missed it and on
constructed tracks (docs/replay.md "The dev bench's wall and area misses, one by one")."""

from __future__ import annotations

import math

import numpy as np

from tests.support.throws import SIM_CASES, match
from tests.vision.test_tracker_association import FPS, blobs_of, track, tracker_at
from tests.vision.tracker_synth import DIE
from vision.simulator import simulate_throw
from vision.simulator.worlds import world_of
from vision.tracker import ThrowTracker, TrackerSettings


def owners(tracker: ThrowTracker, frame: int, centres) -> dict[int, np.ndarray]:
    """On ``frame``, with one blob at each of ``centres``: the die each blob went to."""
    labels, stats, cents, blobs = blobs_of(tracker, centres)
    assert len(blobs) == len(centres)
    tracker.frame_index = frame
    claims, _ = tracker._claim_blobs(blobs, stats, cents, frame / FPS)
    return {trs[0].ident: cents[b] * tracker._s for b, trs in claims.items() if len(trs) == 1}


def test_dev_89097_two_dice_meeting_by_the_wall_keep_their_own_tracks():
    """Dev 89097 (30 fps): die 0 comes off the wall at 38 edges/s, die 1 comes in at 28, and
    between frames 15 and 16 they collide 1.6 edges apart (seen on both frames in separate
    blobs): die 0 goes on at 9 edges/s, die 1 turns. By where their motion says, each track
    took the other's blob: both dice would have sped up (to 52 and 39 edges/s). Exchanged,
    the strike is die 0's alone, as it truly is."""
    seed, first = 89097, 89000
    clip = simulate_throw(seed=seed, scenario=SIM_CASES[(seed - first) % len(SIM_CASES)],
                          size=(640, 480), **world_of("physical", seed, 60.0))
    truth = clip.truth["dice"]
    assert [d["hit_wall"] for d in truth] == [True, False]

    def hits(**settings):
        tracker = ThrowTracker(clip.calibration, reader=None, annotate=False,
                               settings=TrackerSettings(**settings))
        (obs,) = [o for t, f in clip.frames if (o := tracker.feed(t, f)) is not None]
        return [od.hit_wall for od in match(truth, obs.dice)]

    assert hits() == [True, False]
    assert hits(energy_margin=math.inf) == [False, True]


# dev 89097's two tracks on frames 13-15 and its blobs on frame 16 (full-res px, 30 fps)
MEET_0 = [(13, 314.0, 103.0), (14, 317.0, 107.0), (15, 320.0, 160.0)]
MEET_1 = [(13, 356.0, 321.0), (14, 344.0, 266.0), (15, 330.0, 227.0)]
MEET_NEXT = [(307.0, 173.0), (334.0, 233.0)]


def test_dice_that_meet_and_slow_are_not_taken_to_fly_on_faster():
    """Dev 89097's frame 16 as the tracker saw it: each die is given the blob it slowed to,
    not the one its motion pointed at (with the exchange off, the other)."""
    tracker = tracker_at(15)
    tracker._tracks = [track(0, MEET_0), track(1, MEET_1)]
    got = owners(tracker, 16, MEET_NEXT)
    assert np.hypot(*(got[0] - np.array(MEET_NEXT[0]))) < 0.3 * DIE
    assert np.hypot(*(got[1] - np.array(MEET_NEXT[1]))) < 0.3 * DIE
    tracker = tracker_at(15)
    tracker.settings.energy_margin = math.inf
    tracker._tracks = [track(0, MEET_0), track(1, MEET_1)]
    got = owners(tracker, 16, MEET_NEXT)
    assert np.hypot(*(got[0] - np.array(MEET_NEXT[1]))) < 0.3 * DIE


def test_dice_flying_past_each_other_keep_their_blobs():
    """Two dice flying past each other at 30 edges/s, 2 edges apart: as their motion says,
    each goes on at its speed (no speed gained); exchanged, each would jump sideways."""
    tracker = tracker_at(2)
    tracker._tracks = [track(0, [(0, 280.0, 100.0), (1, 280.0, 140.0), (2, 280.0, 180.0)]),
                       track(1, [(0, 360.0, 300.0), (1, 360.0, 260.0), (2, 360.0, 220.0)])]
    got = owners(tracker, 3, [(280.0, 220.0), (360.0, 180.0)])
    assert np.hypot(*(got[0] - np.array((280.0, 220.0)))) < 0.3 * DIE
    assert np.hypot(*(got[1] - np.array((360.0, 180.0)))) < 0.3 * DIE
