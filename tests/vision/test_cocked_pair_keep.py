"""Where the lean model keeps a close pair's flag: it never clears one, but where it believes a
die of the pair leans, what the geometry took as proof is overruled.

- A pair one of whose dice the wall cue flags (``CockedSettings.pair_wall_both``): the die at
  the wall explains the pair only if the other lies flat, so where the model believes the other
  leans, both are flagged.
- A pair a proof clears (``pair_lean_keep``): a black die's face turned from the lamp passes for
  shadow, and a strip of "felt" opens between a leaning die and the other.

Dev seeds of the physical world (never >= 90000), tracked and read as the table does. R-I2: the
die that leans must be among those the operator is shown.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision.cocked.judge import judge_cocked, lean_beliefs
from vision.cocked.pair import lie_flat_together, silhouettes_gap
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import top_faces

OFF = CockedSettings(pair_wall_both=None)


def _flags(reader, r, settings):
    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


@pytest.mark.parametrize("seed", [85224, 79264])
def test_the_die_leaning_on_a_die_the_wall_cue_flags_is_flagged_too(rest_throws, seed):
    """Dev 85224 (a green die leaning 12.2 degrees on a green die lying flat 0.35 edge from
    the wall) and 79264 (black dice, 35.8 degrees, the flat one 0.43 edge from the wall): the
    wall cue takes the flat die for the leaning one, and it alone was flagged; the lean model
    believes the other leans (0.62, 1.00; the flat dice 0.00), so now both are."""
    reader, throw = rest_throws
    r = throw(seed, "cocked_die")
    lean = [k for k, t in enumerate(r["truth"]) if t["cocked"]]
    assert len(lean) == 1 and r["truth"][lean[0]]["cocked_on"] == "die"
    (i,) = lean
    flat = 1 - i
    geo = r["sil"].geometry
    beliefs = lean_beliefs(geo, CockedSettings(), reader, r["frame"], r["boxes"], r["readings"])
    assert beliefs[i] >= CockedSettings().pair_wall_both

    before = _flags(reader, r, OFF)
    assert before[flat] and not before[i]  # the flat die at the wall flagged in its stead

    after = _flags(reader, r, CockedSettings())
    assert after[i] and after[flat]

    # the bar is the model's belief: above it, nothing is added
    above = _flags(reader, r, replace(CockedSettings(), pair_wall_both=beliefs[i] + 0.01))
    assert above == before


def test_a_black_die_whose_leaning_face_passes_for_shadow_is_kept_by_the_model(rest_throws):
    """Dev 79102: a black five leaning 15.5 degrees on a black one, 1.8 edges from the wall.
    The face it turned up toward the other is as dark as a shadow, so with the shadows left out
    the two silhouettes lie 0.32 edge apart, past the strip's proof (0.25): the pair was
    cleared and the throw paid. The lean model believes it leans (1.00, the flat die 0.00):
    the pair is not cleared, and the leaning die is flagged."""
    reader, throw = rest_throws
    r = throw(79102, "cocked_die")
    (i,) = [k for k, t in enumerate(r["truth"]) if t["cocked"]]
    sil, frame, boxes, readings = r["sil"], r["frame"], r["boxes"], r["readings"]
    st = CockedSettings()
    gap = silhouettes_gap(sil, frame, boxes[0][0], boxes[1][0], st.pair_touch_chroma)
    assert gap is not None and gap >= st.pair_clear_gap
    tilted = tuple(top_faces(sil.geometry, st, frame, boxes, readings))
    assert lie_flat_together(sil, st, frame, (boxes[0][0], boxes[1][0]), tuple(readings), tilted)
    beliefs = lean_beliefs(sil.geometry, st, reader, frame, boxes, readings)
    assert beliefs[i] >= st.pair_lean_keep > beliefs[1 - i]

    assert not any(_flags(reader, r, replace(st, pair_lean_keep=None)))  # paid
    assert _flags(reader, r, st) == [k == i for k in range(2)]


def test_a_die_of_the_felts_colour_seen_cut_short_is_still_a_pair(rest_throws):
    """Dev 69377: a green die on green felt leaning 16.2 degrees on the other. Its shaded faces
    pass for felt and shadow, so its silhouette is 0.47 by 0.72 edge and its centre lies 1.82
    edges from the other's, past the pair cue's reach (1.8): nothing looked at the pair and the
    throw was paid. Taken up to half the width it lacks nearer (``pair_cut_short``), the two are
    a pair, and the lean model (0.94 against 0.00) names the leaning die."""
    reader, throw = rest_throws
    r = throw(69377, "cocked_die")
    (i,) = [k for k, t in enumerate(r["truth"]) if t["cocked"]]
    die = r["sil"].geometry.die
    (_, (w, h), _) = r["boxes"][i]
    assert min(w, h) < CockedSettings().pair_cut_short * die
    assert _flags(reader, r, CockedSettings())[i]
    assert not any(_flags(reader, r, CockedSettings(pair_cut_short=None)))
