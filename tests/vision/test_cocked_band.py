"""What the band between two close dice's tops is made of (vision.pair_band,
vision.cocked.pair.band_between, felt_band, ``pair_band_clear``): the felt between two flat
dice, the leaning die's own side face between a die leaning on the other and that other.
Rest frames rendered by our simulator's physical world (dev seeds), tracked and read as the
table does (R-I2: a die not proved flat goes to the operator)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import pytest

from vision.cocked.judge import judge_cocked
from vision.cocked.pair import band_between, felt_band, lie_flat_together
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import top_faces

# the band proof as it was before it went off by default (dev 79083)
ON = CockedSettings(pair_band_clear=0.03)


@pytest.fixture(scope="module")
def rest(rest_throws, cocked_rest_bench):
    return (*rest_throws, cocked_rest_bench)


def _judge(reader, r, settings):
    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


def _band(r, settings=ON):
    return band_between(r["sil"], settings, r["frame"], tuple(r["readings"]))


def test_two_flat_dice_apart_with_felt_between_their_tops_are_read(rest):
    """Two flat yellow dice 0.2 edge apart, the felt between them in their shadow (dev 84008):
    from above the band looks like a die leaning 10-20 degrees on the other, but it keeps
    the felt's chromaticity, so neither goes to the operator."""
    reader, throw, _ = rest
    r = throw(84008, "none_hits")
    assert not any(t["cocked"] for t in r["truth"])
    band = _band(r)
    assert band is not None and band.area >= ON.pair_band_area
    assert band.off_felt <= ON.pair_band_clear and band.dark <= ON.pair_band_dark
    assert band.dice_off_felt > 0.4  # yellow dice on green felt
    assert _judge(reader, r, ON) == [False, False]
    assert ON.pair_band_clear is not None
    # without the band, nor the lean model's clearing (pair_min_lean below any belief)
    off = replace(ON, pair_band_clear=None, pair_min_lean=-1.0)
    assert sorted(_judge(reader, r, off)) == [False, True]
    # the lean model of both worlds believes both flat (0.00), the reader and the silhouettes
    # agree: the default settings clear them too
    assert _judge(reader, r, CockedSettings()) == [False, False]


def test_a_die_leaning_on_the_other_shows_its_own_face_between_the_tops(rest):
    """A white die leaning 11.8 degrees on the other (dev 85178), both tops whole squares:
    the band between the tops holds the leaning die's side face, off the felt's
    chromaticity, so a die of the pair stays flagged (the throw goes to the operator); a bar
    past what that face shows would pay it, but for the touch (``pair_band_apart``: the
    leaning die's silhouette meets the other's, which keeps the flag too)."""
    reader, throw, _ = rest
    r = throw(85178, "cocked_die")
    lean = [i for i, t in enumerate(r["truth"]) if t["cocked"]]
    assert len(lean) == 1 and 10 < r["truth"][lean[0]]["cocked_tilt_deg"] < 13
    band = _band(r)
    assert band is not None and band.area >= ON.pair_band_area
    assert band.off_felt > 2 * ON.pair_band_clear
    assert any(_judge(reader, r, ON))
    loose = replace(ON, pair_band_clear=band.off_felt + 0.01)
    assert felt_band(band, loose) and any(_judge(reader, r, loose))
    loose = replace(loose, pair_band_apart=False)
    assert not any(_judge(reader, r, loose))


def test_dice_of_the_felts_colour_are_not_cleared_by_the_band(rest):
    """A green die leaning 11.6 degrees on a green die on green felt (dev 85015): its shaded
    side face keeps nearly the felt's chromaticity, so the band proves nothing there; without
    the bar on the dice's colour a loose enough bar would take the face for felt."""
    reader, throw, _ = rest
    r = throw(85015, "cocked_die")
    assert any(t["cocked"] for t in r["truth"])
    band = _band(r)
    assert band is not None and band.dice_off_felt < ON.pair_band_dice
    loose = replace(ON, pair_band_clear=band.off_felt + 0.01)
    assert not felt_band(band, loose)
    assert felt_band(band, replace(loose, pair_band_dice=0.0))
    assert any(_judge(reader, r, loose))


def test_the_bench_measures_the_bands_of_flat_and_leaning_pairs(rest, capsys, tmp_path):
    """``bench/cocked_rest.py bands``: per close pair, what its band is made of, grouped flat
    by the true tops' gap and leaning by angle; ``--picture`` draws the bands."""
    reader, throw, bench = rest
    records = [throw(84008, "none_hits"), throw(85178, "cocked_die")]
    rows = bench.band_rows(records, reader, ON)
    assert [(r["seed"], r["tilt"] > 0, r["felt"]) for r in rows] == [
        (84008, False, True), (85178, True, False)]
    bench.print_bands(rows, ON, verbose=True)
    out = capsys.readouterr().out
    assert "flat, tops 0.1-0.3 apart" in out and "leaning 10-15 deg" in out
    assert "84008 640" in out and "85178 640" in out
    picture = tmp_path / "bands.png"
    bench.draw_bands(records, [84008, 85178], ON, picture)
    drawn = cv2.imread(str(picture))
    assert drawn is not None and drawn.shape[1] > drawn.shape[0]  # two tiles side by side


def test_a_pair_proved_not_leaning_on_each_other_keeps_a_die_that_may_lean_on_the_wall(rest):
    """A white die leaning on the wall beside a flat white die, their tops touching (the
    default world's dev seed 1028): the tops prove neither leans on the other, and the wall
    cue's bar as it was (``wall_top_shift`` 0.2) misses the lean by 0.002 edge; the lean model
    all but sure that the die at the wall leans keeps the pair's flag (``pair_lean_keep``),
    where clearing it paid the throw. (The bar now at 0.22 flags it by the wall cue as well;
    the keep stands for a die the wall cue misses by more.)"""
    reader, throw, _ = rest
    on = replace(ON, wall_top_shift=0.2)
    r = throw(1028, "cocked_wall", "default")
    assert any(_judge(reader, r, replace(ON, pair_lean_keep=None)))
    assert [t["cocked"] and t["cocked_on"] for t in r["truth"]] == ["wall", False]
    sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
    tilted = tuple(top_faces(sil.geometry, on, frame, boxes, readings))
    assert lie_flat_together(sil, on, frame, (boxes[0][0], boxes[1][0]), tuple(readings), tilted)
    assert any(_judge(reader, r, on))
    # (the two models' keep at the wall, wall_lean_sure and wall_lean_share 0.2, flag it too)
    assert not any(_judge(reader, r, replace(on, pair_lean_keep=None, wall_lean_sure=None,
                                             wall_lean_share=0.25)))
