"""Which blob is which die, frame to frame (``ThrowTracker._claim_blobs``), on
constructed tracks and blobs: the kinds of 30 fps throw in which the dev sets' tracks swapped
dice (docs/replay.md "The dev bench's wall and area misses, one by one")."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.tracker_synth import CAL, DIE, WALL_Y, background
from vision.die_track import DieTrack
from vision.tracker import ThrowTracker

FPS = 30.0


def tracker_at(frame_index: int) -> ThrowTracker:
    """A tracker set up for the synthetic 640x480 table, at ``frame_index``, 30 fps."""
    tracker = ThrowTracker(CAL, annotate=False)
    tracker.feed(0.0, background())
    tracker.frame_index = frame_index
    tracker._dt = 1 / FPS
    return tracker


def track(ident: int, sightings: list[tuple[int, float, float]]) -> DieTrack:
    """A die seen at (frame, x, y) full-resolution px, 30 fps."""
    tr = DieTrack(ident)
    for f, x, y in sightings:
        tr.add(f, f / FPS, x, y)
    tr.moved = True
    return tr


def blobs_of(tracker: ThrowTracker, centres: list[tuple[float, float]]):
    """The work-res blobs of dice drawn square, one die's edge wide, at ``centres`` (full-res
    px; dice that overlap make one blob): (labels, stats, cents, the die-sized blobs)."""
    mask = np.zeros((480, 640), np.uint8)
    half = DIE / 2
    for x, y in centres:
        cv2.rectangle(mask, (int(x - half), int(y - half)), (int(x + half), int(y + half)), 255, -1)
    work = cv2.resize(mask, tracker._wsize, interpolation=cv2.INTER_AREA)
    work = np.where(work > 127, 255, 0).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(work, connectivity=8)
    return labels, stats, cents, tracker._die_blobs(stats, n)


def assert_each_follows_its_own(tracker, a_next, b_next) -> None:
    """On frame 11, with one blob at ``a_next`` and one at ``b_next``: die 0 claims the first
    alone, die 1 the second alone, and no die's claim is dropped."""
    labels, stats, cents, blobs = blobs_of(tracker, [a_next, b_next])
    assert len(blobs) == 2
    claims, drop = tracker._claim_blobs(blobs, stats, cents, 11 / FPS)
    assert not drop
    owner = {trs[0].ident: cents[b] * tracker._s for b, trs in claims.items() if len(trs) == 1}
    assert set(owner) == {0, 1}
    assert np.hypot(*(owner[0] - np.array(a_next))) < 0.3 * DIE
    assert np.hypot(*(owner[1] - np.array(b_next))) < 0.3 * DIE


def test_two_fast_dice_first_seen_once_each_keep_their_own_blob():
    """At 30 fps two dice thrown side by side move about 2.4 edges a frame. Seen once each,
    they have no speed yet: the near die's nearest blob on the next frame is the far die's
    (1.5 edges from it, its own 2.4), while the far die's only blob within reach is its own.
    Both are followed: the near die must not take the other's blob and leave that die with
    none (it was then taken for a new die, its first sighting given to the other)."""
    a = track(0, [(10, 300.0, 420.0)])  # heading for the wall at 2.4 edges a frame
    b = track(1, [(10, 150.0, 440.0)])  # heading across the table, 2.4 edges a frame
    tracker = tracker_at(11)
    tracker._tracks = [a, b]
    assert_each_follows_its_own(tracker, (300.0, 324.0), (243.0, 410.0))


def test_a_die_unseen_as_it_flies_at_the_wall_is_looked_for_at_the_wall_not_beyond_it():
    """A die coming at the wall at 2 edges a frame is lost for two frames (in the other's blob,
    or blurred) and seen again rebounding, an edge out. Straight on at its speed it would be
    4 edges beyond the wall, far out of reach of that blob: a die cannot pass the wall, so it
    is looked for there, and its blob is its own (not a new die's, its strike on no path)."""
    y0 = WALL_Y + 5 * DIE
    fast = track(0, [(8, 300.0, y0), (9, 300.0, y0 - 2 * DIE), (10, 300.0, y0 - 4 * DIE)])
    tracker = tracker_at(13)
    tracker._tracks = [fast]
    back = (300.0, WALL_Y + DIE)
    labels, stats, cents, blobs = blobs_of(tracker, [back])
    claims, _ = tracker._claim_blobs(blobs, stats, cents, 13 / FPS)
    assert [trs for trs in claims.values()] == [[fast]]
    x, y = tracker._predict(fast, 13 / FPS)
    assert tracker.geometry.wall_distance(x, y)[0] >= 0.5 * DIE - 1e-6


def test_a_die_seen_once_is_looked_for_as_far_as_a_thrown_die_flies_in_a_frame():
    """Dev 80004 (30 fps): two dice are first made out side by side, one 2.7 edges from where
    it is seen on the next frame (beyond the 2.5 edges a die with a known speed is given
    around where that speed takes it), the other 2.2. With no speed yet, a die is looked for
    as far as a thrown die flies in a frame interval (``throw_speed``, over 3 edges at 30 fps):
    each takes its own blob, where the far one's only blob in reach was the other's (the two
    tracks then held each other's die until they met at the wall, and one die's strike went
    to the other)."""
    a = track(0, [(10, 355.0, 330.0)])
    b = track(1, [(10, 427.0, 403.0)])
    tracker = tracker_at(11)
    tracker._tracks = [a, b]
    assert_each_follows_its_own(tracker, (342.0, 216.0), (406.0, 316.0))
