"""The band between the tops proves a pair flat only where the dice do not touch
(vision.cocked.pair.lie_flat_together, ``pair_band_apart``): a die leaning on the other
touches it. Rest frames rendered by our simulator's physical world (dev seeds), tracked and
read as the table does (R-I2: a die not proved flat goes to the operator)."""

from __future__ import annotations

from dataclasses import replace

from tests.vision import test_cocked_band as band_tests
from vision.cocked.judge import judge_cocked
from vision.cocked.pair import band_between, felt_band, silhouettes_touch
from vision.cocked.settings import CockedSettings

# the band proof as it was before it went off by default (dev 79083)
ON = CockedSettings(pair_band_clear=0.03)

# the band's tests' fixture: (reader, throw(seed, case), the bench module)
rest = band_tests.rest


def _judge(reader, r, settings):
    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


def _touch(r):
    centres = [b[0] for b in r["boxes"]]
    return silhouettes_touch(r["sil"], r["frame"], *centres, ON.pair_touch_chroma)


def test_a_die_leaning_on_the_other_at_a_corner_is_not_cleared_by_felt_beside_the_touch(rest):
    """A green die leaning 14.2 degrees on a green die on blue felt (dev 88259), turned to
    it and touching it at a corner: the face that was against the other shows as a strip the
    tops' rims take in, and the rest of the band is open felt either side of the touch, so the
    band alone reads as felt. The silhouettes touch, so the band proves nothing: a die of the
    pair goes to the operator, where without the touch test the throw was paid."""
    reader, throw, _ = rest
    r = throw(88259, "cocked_die")
    lean = [t["cocked"] and t["cocked_on"] for t in r["truth"]]
    assert sorted(lean, key=str) == [False, "die"]
    assert felt_band(band_between(r["sil"], ON, r["frame"], tuple(r["readings"])), ON)
    assert _touch(r)
    assert ON.pair_band_apart
    assert any(_judge(reader, r, ON))
    # (the lean model, 1.00 for the leaning die, keeps the pair too: pair_lean_keep)
    assert not any(_judge(reader, r, replace(ON, pair_band_apart=False, pair_lean_keep=None)))


def test_two_flat_dice_apart_are_still_cleared_by_the_felt_between_them(rest):
    """Two flat yellow dice 0.2 edge apart in their shadow (dev 84008): their shadow-free
    silhouettes do not touch, so the band of felt still proves them flat."""
    reader, throw, _ = rest
    r = throw(84008, "none_hits")
    assert not any(t["cocked"] for t in r["truth"])
    assert not _touch(r)
    assert _judge(reader, r, ON) == [False, False]


def test_a_cocked_throw_with_a_die_not_found_is_counted_apart_by_the_bench(rest):
    """Two blue dice on blue felt, one leaning 10.6 degrees on the other (dev 88252), seen as
    one blob: one die found, no cue flags it, and the table sends the throw to the operator
    for the die not found; ``judge`` counts it among the cocked throws unflagged and apart."""
    reader, _, bench = rest
    records = bench.capture("physical", 88252, 1, (640, 480), reader, log=lambda *_: None,
                            cases=["cocked_die"])
    assert len(records) == 1 and len(records[0]["boxes"]) == 1
    r = records[0]
    n, misses = bench.judge([r], ON, reader)
    assert n["cocked_throws_unflagged"] == 1 and n["cocked_throws_unflagged_unfound"] == 1
    assert misses[0] == "88252: cocked throw, no die flagged (a die not found: the operator's)"


def test_a_lean_whose_touch_hides_in_the_shadow_is_flagged_with_the_band_proof_off(rest):
    """A white die leaning 12.5 degrees on a white die on wood (dev 79083, a set drawn after
    the band proof's bars were set), touching it at a corner: the touch lies in what the
    silhouettes take for the pair's shadow, so the shadow-free silhouettes do not touch and the
    band beside the touch is open felt. With the band proof (0.03) the pair was cleared and
    the throw paid (R-I2 says the operator rules a cocked die); by default the proof is off and
    the leaning die is flagged. The lean model believing it leans now keeps the pair with the
    proof on as well (``pair_lean_keep``)."""
    reader, throw, _ = rest
    r = throw(79083, "cocked_die")
    lean = [t["cocked"] and t["cocked_on"] for t in r["truth"]]
    assert lean == ["die", False]
    assert not _touch(r)
    assert not any(_judge(reader, r, replace(ON, pair_lean_keep=None)))  # the proof on: paid
    assert _judge(reader, r, ON) == [True, False]
    assert CockedSettings().pair_band_clear is None
    assert _judge(reader, r, CockedSettings()) == [True, False]
