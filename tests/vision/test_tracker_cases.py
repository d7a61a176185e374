"""The tracker (with the real dice reader) on the simulator's extra cases, as a table needs them:
a third die on the felt goes to the operator (DESIGN.md "Ruling a throw": more than two dice ->
operator, R-I2); the shooter's hand over the throw does not change what is read of the two dice.

Figures over 30 throws per case: bench/sim_cases.py.
"""

from __future__ import annotations

import math

import pytest

from tablectl.rulings import rule_throw
from vision.simulator import Scenario, simulate_throw
from vision.tracker import ThrowTracker, TrackerSettings

AFTER_S = 0.6  # the camera films on after the dice rest and the hand has gone


@pytest.fixture(scope="module")
def reader():
    from vision.dice import DiceReader

    return DiceReader()


def _observe(clip, reader, settings=None) -> list:
    tracker = ThrowTracker(clip.calibration, reader, settings, annotate=False)
    return [obs for t, frame in clip.frames if (obs := tracker.feed(t, frame)) is not None]


def _nearest(obs, truth_die):
    found = [d for d in obs.dice if d.center is not None]
    return min(found, key=lambda d: math.dist(d.center, truth_die["rest_center"]))


@pytest.mark.parametrize("seed,kind", [(1, "thrown"), (0, "stray")])
def test_a_third_die_goes_to_the_operator(reader, seed, kind):
    clip = simulate_throw(seed=seed, scenario=Scenario.EXTRA_DIE, extra_kind=kind)
    assert clip.truth["extra"] == 1
    (obs,) = _observe(clip, reader)
    assert obs.extra == 1 and obs.missing == 0
    # all three found where they rest
    assert sum(d.center is not None for d in obs.dice) == 3
    for d in clip.truth["dice"]:
        assert math.dist(_nearest(obs, d).center, d["rest_center"]) < clip.calibration.die_px
    ruling = rule_throw(obs)
    # DESIGN.md: more than two dice -> operator (the camera cannot be trusted), R-I2
    assert (ruling.kind, ruling.rule) == ("operator", "R-I2")
    assert "3 dice" in ruling.reason
    assert ruling.commands()[0]["command"] == "await_ruling"


def _assert_the_throw_is_read(clip, obs) -> None:
    """Each of the two dice as the truth has it, and the ruling DESIGN.md's table gives."""
    truth = clip.truth["dice"]
    assert obs.missing == 0 and obs.extra == 0
    for d in truth:
        seen = _nearest(obs, d)
        assert math.dist(seen.center, d["rest_center"]) < clip.calibration.die_px
        assert (seen.value, seen.hit_wall, seen.left_area, seen.cocked) == (
            d["value"], d["hit_wall"], d["left_area"], d["cocked"])


def test_the_shooters_hand_does_not_change_the_reading(reader):
    """One die hits the wall: counts with a warning (R-I3), the hand over the felt at the
    release and drawing back while the dice fly."""
    clip = simulate_throw(seed=3001, scenario=Scenario.ONE_HITS, hand=True,
                          after_seconds=AFTER_S)
    observations = _observe(clip, reader)
    assert len(observations) == 1  # the hand coming in with the dice is no throw of its own
    obs = observations[0]
    _assert_the_throw_is_read(clip, obs)
    ruling = rule_throw(obs)
    assert (ruling.kind, ruling.rule) == ("warning", "R-I3")
    assert sorted(ruling.dice) == sorted(d["value"] for d in clip.truth["dice"])


def test_the_hand_hiding_the_dice_at_release_keeps_both_dice(reader):
    """The two dice come out from under the hand as one blob while pieces of the hand (its edge
    at the image's border) are in view: both dice are found, the leaning one goes to the
    operator (R-I2), not void R-I1 for a die "not found"."""
    clip = simulate_throw(seed=3017, scenario=Scenario.COCKED_DIE, hand=True,
                          after_seconds=AFTER_S)
    (obs,) = _observe(clip, reader)
    assert obs.missing == 0 and sum(d.center is not None for d in obs.dice) == 2
    ruling = rule_throw(obs)
    assert (ruling.kind, ruling.rule) == ("operator", "R-I2")  # a die is cocked


def test_picking_the_dice_up_is_no_throw(reader):
    """A hand picking the dice up after they were read is no second throw (it would be a
    phantom void R-I1 "2 dice not found at rest" in the journal)."""
    clip = simulate_throw(seed=3013, scenario=Scenario.BOTH_HIT, hand=True, pickup=True,
                          after_seconds=AFTER_S)
    observations = _observe(clip, reader)
    assert observations, "the throw itself was not observed"
    _assert_the_throw_is_read(clip, observations[0])
    assert rule_throw(observations[0]).kind == "counts"
    assert len(observations) == 1, [
        (o.rest_frame, o.missing, rule_throw(o).reason) for o in observations[1:]]


@pytest.fixture(scope="module")
def pickup_clip():
    clip = simulate_throw(seed=3011, scenario=Scenario.BOTH_HIT, hand=True, pickup=True,
                          after_seconds=AFTER_S)
    # the hand comes back well after the dice rest (their rest is long enough to be read)
    assert clip.truth["pickup"]["enter_frame"] - clip.truth["rest_frame"] > 0.5 * clip.fps
    return clip


def test_a_hand_coming_for_the_dice_before_they_are_read(reader, pickup_clip):
    """The dice rest, a hand comes to take them before the tracker's settle time is over: the
    throw is read on the rest frame before the hand came near (same values, counts), once."""
    clip = pickup_clip
    slow = TrackerSettings(settle_s=1.5)  # longer than the dice lie before the hand comes
    observations = _observe(clip, reader, slow)
    assert len(observations) == 1
    obs = observations[0]
    assert clip.truth["rest_frame"] <= obs.rest_frame < clip.truth["pickup"]["grab_frames"][0]
    _assert_the_throw_is_read(clip, obs)
    assert rule_throw(obs).kind == "counts"


def test_a_hand_taking_dice_that_barely_rested_makes_no_observation(reader, pickup_clip):
    """Dice taken before they lay still for ``hand_rest_s``: nothing is observed (never a
    phantom "thrown out of view" void)."""
    impatient = TrackerSettings(settle_s=1.5, hand_rest_s=5.0)
    assert _observe(pickup_clip, reader, impatient) == []


def test_dice_landing_by_the_shooters_edge_are_a_throw(reader):
    """A weak throw whose dice come to rest just inside the near edge of the view: no die may be
    born at the image's border (pieces of a hand are), so each die is first seen a little way
    in and moves less than half a die after; it came into the view, so it was thrown (once, a
    throw like this was dropped as 'no die moved' and never ruled)."""
    clip = simulate_throw(seed=5002, scenario=Scenario.NONE_HITS)
    h = clip.frames[0][1].shape[0]
    assert all(d["rest_center"][1] > h - 2.5 * clip.calibration.die_px for d in clip.truth["dice"])
    (obs,) = _observe(clip, reader)
    _assert_the_throw_is_read(clip, obs)
    assert all(d.moved for d in obs.dice)
    assert rule_throw(obs).kind == "void"  # neither die hit the wall (R-I3)


def test_a_hand_held_still_before_the_throw_is_not_learnt_as_felt(reader):
    """The shooter holds the dice still over the table for a second before throwing (the
    tracker goes idle meanwhile and may learn the hand into its background): the throw after
    it is still read as the truth has it."""
    clip = simulate_throw(seed=6001, scenario=Scenario.ONE_HITS, hand=True, after_seconds=AFTER_S)
    frames = clip.frames
    hold = clip.truth["hand"]["release_frame"] - 8
    dt = frames[1][0] - frames[0][0]
    held = frames[:hold] + [frames[hold]] * 60 + frames[hold:]
    tracker = ThrowTracker(clip.calibration, reader, annotate=False)
    (obs,) = [o for i, (_, f) in enumerate(held) if (o := tracker.feed(i * dt, f)) is not None]
    _assert_the_throw_is_read(clip, obs)
