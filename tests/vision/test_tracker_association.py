"""Which blob is which die, frame to frame (``ThrowTracker._claim_blobs`` and ``_follow``), on
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


def near(tr: DieTrack, x: float, y: float, within: float = 0.3 * DIE) -> bool:
    return float(np.hypot(tr.xs[-1] - x, tr.ys[-1] - y)) <= within


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
    a_next, b_next = (300.0, 324.0), (243.0, 410.0)
    labels, stats, cents, blobs = blobs_of(tracker, [a_next, b_next])
    assert len(blobs) == 2
    claims, drop = tracker._claim_blobs(blobs, stats, cents, 11 / FPS)
    assert not drop
    owner = {trs[0].ident: cents[b] * tracker._s for b, trs in claims.items() if len(trs) == 1}
    assert set(owner) == {0, 1}
    assert np.hypot(*(owner[0] - a_next)) < 0.3 * DIE
    assert np.hypot(*(owner[1] - b_next)) < 0.3 * DIE


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


def test_dice_crossing_in_one_blob_keep_their_headings():
    """Two dice meet in one blob by the wall at 30 fps: one rebounding off it at 0.7 edge a
    frame, the other coming in at 0.6 edge a frame, the first flying over the second. On the
    next frame the rebounding die, turned by the contact, lies past the incoming one, which
    kept its heading. Each part of the blob goes to the die whose motion leads there (the
    least change of velocity over both dice), not to the die that was nearest it a frame ago:
    that swapped the dice, and with them the wall strike."""
    leaving = track(0, [(14, 313.0, 103.0), (15, 326.0, 120.0)])
    coming = track(1, [(14, 359.0, 178.0), (15, 357.0, 153.0)])
    tracker = tracker_at(16)
    tracker._tracks = [leaving, coming]
    leaving_at, coming_at = (352.0, 166.0), (350.0, 130.0)
    labels, stats, cents, blobs = blobs_of(tracker, [leaving_at, coming_at])
    assert len(blobs) == 1  # the two dice overlap
    (b,) = blobs
    tracker._follow(b, [leaving, coming], labels, stats, cents, 16 / FPS, set())
    assert leaving.frames[-1] == coming.frames[-1] == 16
    assert near(leaving, *leaving_at) and near(coming, *coming_at)
