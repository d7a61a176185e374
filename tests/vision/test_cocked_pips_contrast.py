"""The top face's pips found by their contrast (vision.top_pips.pips_by_contrast,
``pip_contrast``) on rest frames of our simulator's physical world, whose lamp lays a glare
and a shade across the dice: a flat die at the wall whose pips were no holes in its face is
read, the wall-face cue measures from the pips' centre, and a die leaning on the wall, whose
pips now put its top where it is, stays flagged (R-I2: a die not proved flat goes to the
operator). Dev seeds (never >= 90000), tracked and read as the table does."""

from __future__ import annotations

import math
from dataclasses import replace

from vision.cocked.judge import judge_cocked
from vision.cocked.pair import tops_gap
from vision.cocked.settings import CockedSettings
from vision.cocked.top_face import agreeing_pips, pips_centre, pips_foreshortened, top_square
from vision.cocked.wall import (
    camera_view,
    flat_by_rims,
    rim_front,
    rim_shows_flat,
    wall_face_reach,
    wall_faces,
)
from vision.cocked.windows import top_centres
from vision.top_pips import pips_as_holes

HOLES_ONLY = CockedSettings(pip_contrast=None)


def _judge(reader, r, settings):
    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


def test_a_flat_die_at_the_wall_under_a_glare_is_read(rest_throws):
    """Dev 81000 (both dice struck the wall): a flat blue two resting against it under the
    lamp; its top's region is split by the glare, so its pips are no holes in it, and the wall
    cue's flag stood (the reader's centre 0.13 edge off the top's, toward the front). By their
    contrast its two pips are found, their centre 0.01 edge from the true top's, and put the
    top wall-ward of the silhouette as a flat die's: it is read."""
    reader, throw = rest_throws
    r = throw(81000, "both_hit")
    geo = r["sil"].geometry
    (i,) = [k for k, box in enumerate(r["boxes"]) if geo.wall_distance(*box[0])[0] < geo.die]
    truth, rd, die = r["truth"][i], r["readings"][i], r["sil"].geometry.die
    assert not truth["cocked"] and rd.value == truth["value"]
    held = pips_as_holes(r["frame"], rd.center, die)
    assert held is None or held.count != rd.value
    centre = pips_centre(CockedSettings(), r["frame"], rd, die)
    assert centre is not None and math.dist(centre, truth["rest_center"]) < 0.03 * die
    assert _judge(reader, r, HOLES_ONLY)[i]
    assert not _judge(reader, r, CockedSettings())[i]


def test_a_die_leaning_corner_on_stays_flagged_when_its_pips_are_found(rest_throws):
    """Dev 82088: a red five leaning 10.6 degrees on the wall, turned 39 degrees to it. Its
    pips, found by contrast, put its top within 0.01 edge of the true one; measured from
    there its faces' edge lines show a flat die's front (the band moves 0.13 edge with the
    2.2 px between that centre and the reader's), from the reader's centre they do not: the edge lines' proof must see a flat
    die from both to clear it, and the die stays flagged. From the pips' centre alone it was
    paid."""
    reader, throw = rest_throws
    r = throw(82088, "cocked_wall")
    (i,) = [k for k, t in enumerate(r["truth"]) if t is not None and t["cocked"]]
    truth, rd, die = r["truth"][i], r["readings"][i], r["sil"].geometry.die
    assert truth["cocked_on"] == "wall" and 10 <= truth["cocked_tilt_deg"] <= 12
    st = CockedSettings()
    centre = pips_centre(st, r["frame"], rd, die)
    assert centre is not None and math.dist(centre, truth["rest_center"]) < 0.03 * die
    view, tops = camera_view(r["sil"]), top_centres(r["boxes"], r["readings"])
    others = [t for k, t in enumerate(tops) if k != i]
    slope = view.slope(*tops[i])

    def flat_from(c):
        return rim_shows_flat(rim_front(r["sil"], r["frame"], c, others, slope), st)

    assert flat_from(centre) and not flat_from(tops[i])
    walls = [k == i for k in range(len(r["boxes"]))]
    assert not flat_by_rims(r["sil"], st, r["frame"], r["boxes"], r["readings"], walls)[i]
    assert _judge(reader, r, st)[i]
    # the lean model, with the reader, does not see this lean: the edge lines' proof is what
    # decides it
    assert _judge(reader, r, replace(st, wall_lean_keep=None))[i]


def test_the_wall_face_cue_measures_from_the_pips_centre(rest_throws):
    """Dev 81162 (both dice struck the wall): a flat green five against the wall. From the
    reader's centre (0.02 edge off the top's) its silhouette reached 0.10 edge toward the wall
    past its top, beyond the wall-face cue's 0.08, and a payable throw went to the operator;
    from its pips' centre (0.01 edge off) it reaches 0.07: it is read."""
    reader, throw = rest_throws
    r = throw(81162, "both_hit")
    geo = r["sil"].geometry
    (i,) = [k for k, box in enumerate(r["boxes"]) if geo.wall_distance(*box[0])[0] < geo.die]
    truth, rd = r["truth"][i], r["readings"][i]
    assert not truth["cocked"] and rd.value == truth["value"]
    st = CockedSettings()
    tops = top_centres(r["boxes"], r["readings"])
    others = [t for k, t in enumerate(tops) if k != i]
    centre = pips_centre(st, r["frame"], rd, geo.die)
    assert centre is not None
    assert wall_face_reach(r["sil"], r["frame"], tops[i], others) > st.wall_face_excess
    assert wall_face_reach(r["sil"], r["frame"], centre, others) < st.wall_face_excess
    assert not any(wall_faces(r["sil"], st, r["frame"], r["boxes"], r["readings"]))
    assert not any(_judge(reader, r, st))


def test_a_steep_leans_upturned_side_face_stands_for_no_top(rest_throws):
    """Dev 85219: a six leaning 43.5 degrees on the other die turns a side face up to the
    camera, square to it; the reader takes the die for leaning and sees that face (a four) as
    its best. Its pips lie square, but they prove no flat top of a die the reader did not read:
    no square is set on them (a square there touched the other die's top: the tops' proof
    would have taken the pair for flat) and the top-face cue does not take it for square."""
    reader, throw = rest_throws
    r = throw(85219, "cocked_die")
    (i,) = [k for k, t in enumerate(r["truth"]) if t is not None and t["cocked"]]
    truth, rd, die = r["truth"][i], r["readings"][i], r["sil"].geometry.die
    assert truth["cocked_on"] == "die" and truth["cocked_tilt_deg"] > 40
    st = CockedSettings()
    pips = agreeing_pips(st, r["frame"], rd, die)
    assert rd.value is None and pips is not None and pips.squareness >= st.pair_top_square
    assert top_square(st, r["frame"], rd, die, st.wall_pip_agree) is None
    assert pips_foreshortened(st, r["frame"], rd, die) is None
    assert tops_gap(st, r["frame"], tuple(r["readings"]), die, st.wall_pip_agree) is None
    assert _judge(reader, r, st)[i]
