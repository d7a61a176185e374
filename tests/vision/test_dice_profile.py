"""A profile of one pair of dice (vision.dice_profile): learnt from labelled photos, read with
``DiceReader(profile=...)`` and ``tablectl read --dice``; it never turns a die into a guess."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablectl.cli import main
from vision.dice import DiceReader, ReaderError
from vision.dice_profile import DiceProfile, ProfileError, learn, locate, read_yolo_labels

STILLS = Path(__file__).resolve().parents[2] / "fixtures" / "stills"
# two photos of many dice: every face shown at least three times
LEARN_FROM = [STILLS / "colours_tray.jpg", STILLS / "look_again_tray.jpg"]


@pytest.fixture(scope="module")
def reader():
    return DiceReader()


def _labelled(reader, paths, relabel=lambda v: v):
    frames, dice = [], []
    for p in paths:
        frame = cv2.imread(str(p))
        h, w = frame.shape[:2]
        labels = [(relabel(v), *rest) for v, *rest in read_yolo_labels(p.with_suffix(".txt"),
                                                                       w, h)]
        dice += locate(reader, frame, labels, len(frames))
        frames.append(frame)
    return frames, dice


@pytest.fixture(scope="module")
def profile(reader):
    return learn(reader, *_labelled(reader, LEARN_FROM), name="tray")


def test_learnt_from_two_photos_every_face_three_times(profile):
    assert profile.card["photos"] == 2
    assert all(n >= 3 for n in profile.card["faces"].values()), profile.card["faces"]
    assert profile.known_faces == {1, 2, 3, 4, 5, 6}
    held = profile.card["held_out"]
    assert held["crops"] == 44 and held["right"] >= 40  # each photo read by the other's profile
    assert 0.9 <= profile.min_confidence <= 0.995 and 0 < profile.match_distance <= 0.35


def test_reads_the_pair_with_its_profile(reader, profile):
    frame = cv2.imread(str(STILLS / "two_colours_touching.jpg"))
    h, w = frame.shape[:2]
    labels = read_yolo_labels(STILLS / "two_colours_touching.txt", w, h)
    got = DiceReader(profile=profile).find(frame)
    right = wrong = 0
    for v, cx, cy, _w, _h in labels:
        d = min(got, key=lambda d: np.hypot(d.center[0] - cx, d.center[1] - cy))
        if d.value is not None:
            right += d.value == v
            wrong += d.value != v
    assert wrong == 0 and right >= len(labels) - 2


def test_a_die_the_profile_reads_as_another_face_is_not_guessed(reader):
    """A profile that learnt every face under the wrong name (a two called a three...)
    disagrees with the general reader on every die it is sure of: those get no value, and no
    die is given a value the general reader did not give."""
    wrong = learn(reader, *_labelled(reader, LEARN_FROM, relabel=lambda v: v % 6 + 1))
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    alone = reader.find(frame)
    with_wrong = DiceReader(profile=wrong).find(frame)
    assert [d.center for d in alone] == [d.center for d in with_wrong]
    withdrawn = 0
    for a, b in zip(alone, with_wrong, strict=True):
        assert b.value in (None, a.value)
        withdrawn += a.value is not None and b.value is None
    assert withdrawn >= len(alone) // 2


def test_a_die_unlike_the_pair_keeps_the_general_reading(reader, profile):
    stranger = DiceProfile(profile.pictures, profile.faces, profile.head,
                           {**profile.card, "match_distance": 0.0})
    frame = cv2.imread(str(STILLS / "dark_die_lost.jpg"))
    assert DiceReader(profile=stranger).find(frame) == reader.find(frame)
    boxes = [d.box for d in reader.find(frame)]
    assert DiceReader(profile=stranger).read_at(frame, boxes) == reader.read_at(frame, boxes)


def test_saved_and_loaded(tmp_path, profile):
    path = profile.save(tmp_path / "pair")
    assert path.name == "pair.npz"
    back = DiceProfile.load(path)
    assert back.card == profile.card and back.known_faces == profile.known_faces
    np.testing.assert_allclose(back.head[0], profile.head[0])
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a profile")
    with pytest.raises(ReaderError, match="not a dice profile") as said:
        DiceReader(profile=broken)
    assert "pickle" not in str(said.value)  # numpy's advice to load it unsafely is not passed on
    other = DiceProfile(profile.pictures[:, :100], profile.faces,
                        (profile.head[0][:, :100], profile.head[1]), profile.card)
    with pytest.raises(ReaderError, match="another face classifier"):
        DiceReader(profile=other)
    with pytest.raises(ProfileError, match="no such file"):
        DiceProfile.load(tmp_path / "missing.npz")
    with pytest.raises(ProfileError, match="cannot hold 28 a die"):  # a learnt die cut short
        DiceProfile(profile.pictures[:-1], profile.faces[:-1], profile.head, profile.card)
    with pytest.raises(ProfileError, match="no labelled die"):
        learn(DiceReader(), [], [])


def test_cli_learns_then_reads_with_the_profile(tmp_path, capsys):
    out = tmp_path / "pair.npz"
    assert main(["dice", "learn", str(out), *map(str, LEARN_FROM)]) == 0
    said = capsys.readouterr().out
    assert "44 dice on 2 pictures" in said and out.is_file()
    two = str(STILLS / "two_white_wood.jpg")
    assert main(["read", "--dice", str(out), "--json", two]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["image"] == two and [d["value"] for d in line["dice"]] == [4, 4]


def test_cli_says_what_is_wrong(tmp_path, capsys):
    bare = tmp_path / "bare.jpg"
    shutil.copy(STILLS / "empty_wood.jpg", bare)
    assert main(["dice", "learn", str(tmp_path / "p.npz"), str(bare)]) == 2
    err = capsys.readouterr().err
    assert "bare.txt" in err and "class cx cy w h" in err
    bad = tmp_path / "bad.jpg"
    shutil.copy(STILLS / "two_white_wood.jpg", bad)
    bad.with_suffix(".txt").write_text("7 0.5 0.5 0.1 0.1\n")
    assert main(["dice", "learn", str(tmp_path / "p.npz"), str(bad)]) == 2
    assert "class must be 0..5" in capsys.readouterr().err
    assert main(["dice", "learn", str(tmp_path / "p.npz")]) == 2
    assert "either labelled IMAGE" in capsys.readouterr().err
    assert main(["read", "--dice", str(tmp_path / "none.npz"), str(bad)]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["dice", "learn", str(tmp_path / "p.npz"), str(tmp_path / "gone.jpg")]) == 2
    assert "gone.jpg: no such file" in capsys.readouterr().err
    (tmp_path / "text.jpg").write_text("not a photo")
    assert main(["dice", "learn", str(tmp_path / "p.npz"), str(tmp_path / "text.jpg")]) == 2
    assert "text.jpg: not a readable image" in capsys.readouterr().err


def test_reading_values_unchanged_without_a_profile(reader):
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    assert DiceReader(profile=None).find(frame) == reader.find(frame)


def _two_dice_photo(path: Path) -> Path:
    """mixed_white_wood with three of its five dice painted out: a five above a two."""
    frame = cv2.imread(str(STILLS / "mixed_white_wood.jpg"))
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    for v, cx, cy, _, _ in read_yolo_labels(STILLS / "mixed_white_wood.txt", w, h):
        if v != 2 and not (v == 5 and cx > w / 2):
            cv2.circle(mask, (int(cx), int(cy) + 10), 45, 255, -1)
    cv2.imwrite(str(path), cv2.inpaint(frame, mask, 5, cv2.INPAINT_TELEA))
    return path


def test_cli_learns_from_the_throws_the_operator_ruled_on(tmp_path, capsys):
    """A journal's ruled throws: each picture's two dice found and given the faces the
    operator ruled, in whichever order he gave them; a throw whose picture is gone is skipped
    and said so."""
    from tablectl.journal import Journal

    two = _two_dice_photo(tmp_path / "throw_1.png")
    reader = DiceReader()
    assert sorted(d.value for d in reader.find(cv2.imread(str(two)))) == [2, 5]
    journal = tmp_path / "journal.sqlite"
    rulings = [(two, [2, 5]),  # he names the lower die first
               (STILLS / "two_white_wood.jpg", [4, 4]),
               (tmp_path / "gone.png", [3, 3])]
    with Journal.open(journal) as j:
        for player in ("ann", "bob"):
            j.apply({"command": "join", "player": player, "buy_in": 200})
        j.apply({"command": "shooter", "player": "ann"})
        for n, (image, dice) in enumerate(rulings):
            if n < 2:  # a come-out: the center bet first (R-C1); then the point is pending
                j.apply({"command": "center_bet", "amount": 10})
                j.apply({"command": "fade", "player": "bob", "amount": 10})
            j.apply({"command": "await_ruling", "rule": "R-I2", "reason": "a die is cocked"},
                    image=image)
            j.apply({"command": "operator_ruling", "by": "olga", "why": "read", "dice": dice})
    out = tmp_path / "pair.npz"
    assert main(["dice", "learn", str(out), "--journal", str(journal)]) == 0
    cap = capsys.readouterr()
    assert "gone.png unreadable" in cap.err
    assert "4 dice on 2 pictures" in cap.out
    card = DiceProfile.load(out).card
    assert card["faces"] == {"1": 0, "2": 1, "3": 0, "4": 2, "5": 1, "6": 0}
    # the profile learnt the five where the five lies (a swap would call it a two)
    frame = cv2.imread(str(two))
    five = next(d for d in reader.find(frame) if d.value == 5)
    verdict = DiceProfile.load(out).judge(reader.features(frame, [(*five.center,
                                                                    five.box[1][0])]))[0]
    assert verdict.nearest == 5


def test_verdict_names_the_heads_odds_and_the_nearest_picture_of_each_face(reader, profile):
    frame = cv2.imread(str(STILLS / "two_colours_touching.jpg"))
    dice = [(*d.center, d.box[1][0]) for d in reader.find(frame)]
    no_six = profile.faces != 6
    lacking = DiceProfile(profile.pictures[no_six], profile.faces[no_six], profile.head,
                          profile.card)
    assert lacking.known_faces == {1, 2, 3, 4, 5}
    for v in lacking.judge(reader.features(frame, dice, turns=4), views=4):
        assert sum(v.probabilities) == pytest.approx(1.0)
        assert v.nearest == int(np.argmax(v.probabilities)) + 1
        assert v.confidence == pytest.approx(max(v.probabilities))
        assert v.distance == pytest.approx(min(v.face_distances))
        assert v.pictured == int(np.argmin(v.die_distances)) + 1
        assert v.face_distances[5] == float("inf")  # no picture of a six: no distance to one
        assert v.die_distances[5] == float("inf")
        # a die's distance is a mean of nearest pictures: never nearer than its nearest one
        assert all(d >= p - 1e-6 for d, p in zip(v.die_distances, v.face_distances,
                                                 strict=True))


def test_the_nearest_learnt_die_outweighs_one_picture_near_one_view(reader, profile):
    """A learnt die whose 28 pictures all copy one view of a die lies nearest that view, yet
    further from the die than a learnt die near each of its four views: the verdict names the
    face of the second (its nearest learnt die), not of the one picture nearest."""
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    r = next(d for d in reader.find(frame) if d.value is not None and not d.cocked)
    views = reader.features(frame, [(*r.center, r.box[1][0])], turns=4)
    other = reader.features(frame, [(*d.center, d.box[1][0]) for d in reader.find(frame)
                                    if d.value != r.value][:1], turns=4)
    per_die = profile.crops_per_die
    one_view = np.repeat(views[:1], per_die, axis=0)  # face a: one view, copied
    each_view = np.tile(0.8 * views + 0.2 * other, (per_die // 4, 1))  # face b: near all four
    a, b = r.value % 6 + 1, (r.value + 1) % 6 + 1
    planted = DiceProfile(np.vstack([one_view, each_view]), np.repeat([a, b], per_die),
                          profile.head, profile.card)
    v = planted.judge(views, views=4)[0]
    assert int(np.argmin(v.face_distances)) + 1 == a and v.face_distances[a - 1] < 1e-4
    assert v.pictured == b and v.die_distances[b - 1] < v.die_distances[a - 1]


def _hesitant(reader, profile, frame, r):
    """Die ``r`` read at 0.9, another face, the head's odds (half on each) and a verdict of the
    pair that hesitates between them, its nearest learnt die the other face."""
    from dataclasses import replace

    r = replace(r, confidence=0.9)
    v = profile.judge(reader.features(frame, [(*r.center, r.box[1][0])], turns=4), views=4)[0]
    other = r.value % 6 + 1
    odds = [0.0] * 6
    odds[r.value - 1], odds[other - 1] = 0.5, 0.5
    return r, other, odds, replace(v, of_pair=True, value=None, nearest=r.value,
                                   confidence=0.5, pictured=other, probabilities=tuple(odds),
                                   drawn=other)


def test_heed_the_nearest_picture_only_where_the_head_does_not_vouch(reader, profile):
    """A general reading below ``sure`` whose nearest picture is of another face loses its
    value, unless the pair's face head still gives that face at least its floor, or the
    profile has no picture of that face; a die unlike the pair keeps its reading."""
    from dataclasses import replace

    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    r = next(d for d in reader.find(frame) if d.value is not None and not d.cocked)
    r, other, odds, hesitant = _hesitant(reader, profile, frame, r)
    assert profile.heed(r, hesitant, sure=0.97).value is None
    assert profile.heed(replace(r, confidence=0.98), hesitant, sure=0.97) == replace(
        r, confidence=0.98)
    odds[r.value - 1], odds[other - 1] = profile.min_confidence, 1 - profile.min_confidence
    vouched = replace(hesitant, confidence=profile.min_confidence,
                      probabilities=tuple(odds))
    assert profile.heed(r, vouched, sure=0.97) == r
    keep = profile.faces != r.value
    unseen = DiceProfile(profile.pictures[keep], profile.faces[keep], profile.head,
                         profile.card)
    assert profile.heed(r, hesitant, sure=0.97).value is None
    assert unseen.heed(r, hesitant, sure=0.97) == r
    assert profile.heed(r, replace(hesitant, of_pair=False), sure=0.97) == r
    sure_other = replace(hesitant, value=other, nearest=other)
    assert profile.heed(r, sure_other, sure=0.97).value is None
    assert profile.heed(replace(r, value=None, best_face=other), sure_other,
                        sure=0.97).value == other


def _kept_and_an_old_file(tmp_path, profile, key: str) -> DiceProfile:
    """Checks the profile's array ``key`` comes back from its file; the profile loaded from a
    file written before that array was (its file without ``key``)."""
    back = DiceProfile.load(profile.save(tmp_path / "pair"))
    np.testing.assert_array_equal(getattr(back, key), getattr(profile, key))
    with np.load(tmp_path / "pair.npz") as z:
        old = {k: z[k] for k in z.files if k != key}
    np.savez_compressed(tmp_path / "old.npz", **old)
    return DiceProfile.load(tmp_path / "old.npz")


def test_the_pairs_pips_are_kept_and_an_old_profile_reads_as_before(tmp_path, reader, profile):
    """The pair's pips' colours are learnt from the labelled dice whose count makes their face,
    saved and loaded with the profile; a profile written before them (no ``pips`` in its file)
    loads, counts nothing and reads as the same profile without pips."""
    assert profile.card["pips"] == len(profile.pips) >= 10 and profile.pips.shape[1] == 6
    before = _kept_and_an_old_file(tmp_path, profile, "pips")
    back = DiceProfile.load(tmp_path / "pair.npz")
    assert len(before.pips) == 0
    frame = cv2.imread(str(STILLS / "two_colours_touching.jpg"))
    r = reader.find(frame)[0]
    assert before.count(frame, r) is None and back.count(frame, r) is not None
    before.heed_pips = True
    bare = DiceProfile(profile.pictures, profile.faces, profile.head, profile.card)
    assert DiceReader(profile=before).find(frame) == DiceReader(profile=bare).find(frame)


def test_heed_the_pairs_pips_where_they_make_the_face(reader, profile):
    """With ``heed_pips``, a reading below ``sure`` that the nearest learnt die gainsays is kept
    where the pair's pips make its face, and a die neither reads is read where the pips, the
    head and the nearest learnt die name one face; where only the head and the nearest die
    name a face the pips do not make (a stranger they call another face), no value."""
    from dataclasses import replace

    frame = cv2.imread(str(STILLS / "two_colours_touching.jpg"))  # not a learning photo
    settings = reader.tuning.pip_count
    counted = [(d, profile.count(frame, d, settings)) for d in reader.find(frame)
               if d.value is not None and not d.cocked]
    r = next(d for d, c in counted if c.count == d.value)
    r, other, odds, hesitant = _hesitant(reader, profile, frame, r)
    count = lambda: profile.count(frame, r, settings)  # noqa: E731
    pips = DiceProfile(profile.pictures, profile.faces, profile.head, profile.card,
                       profile.pips, heed_pips=True)
    off = DiceProfile(profile.pictures, profile.faces, profile.head, profile.card,
                      profile.pips, heed_pips=False)
    assert off.heed(r, hesitant, sure=0.97, count=count).value is None
    assert pips.heed(r, hesitant, sure=0.97, count=count) == r
    assert pips.heed(r, hesitant, sure=0.97).value is None  # no count given
    unread = replace(r, value=None)
    agreed = replace(hesitant, pictured=r.value)
    assert pips.heed(unread, agreed, sure=0.97, count=count).value == r.value
    assert off.heed(unread, agreed, sure=0.97, count=count).value is None
    called = replace(hesitant, nearest=other, pictured=other)
    assert pips.heed(unread, called, sure=0.97, count=count).value is None
    # a stranger (a white die on wood, not of the tray's pair) left unread, that the head and
    # the nearest learnt die both call a six: its pips make no clean face, so no value
    wood = cv2.imread(str(STILLS / "touching_white_wood.jpg"))
    six = next(d for d in reader.find(wood) if d.best_face == 6)
    assert profile.count(wood, six, settings).count is None
    stranger = replace(six, value=None)
    as_six = replace(agreed, nearest=6, pictured=6)
    assert pips.heed(stranger, as_six, sure=0.97,
                     count=lambda: profile.count(wood, six, settings)).value is None


def test_the_pips_own_colour_is_learnt_kept_and_counted_with(tmp_path, reader, profile):
    """The pips' own colour is learnt from the labelled dice its count makes, saved and loaded
    with the profile (a profile written before it loads without); the count with it beside
    the colour found on the die is never wrong on the learning dice and its pips lie on the
    die."""
    from vision.profile_pips import count_pair

    assert profile.card["own_pips"] == len(profile.own) >= 5 and profile.own.shape[1] == 3
    assert len(_kept_and_an_old_file(tmp_path, profile, "own").own) == 0
    frames, dice = _labelled(reader, LEARN_FROM)
    settings = reader.tuning.pip_count
    right = 0
    for d in dice:
        got = count_pair(frames[d.photo], d.center, d.size, 0.0, profile.pips, settings,
                         profile.own)
        assert got.count in (None, d.value)
        right += got.count == d.value
        assert all(np.hypot(x - d.center[0], y - d.center[1]) < d.size for x, y in got.pips)
    assert right >= 25


def test_a_face_drawn_on_the_nearest_die_keeps_a_reading_it_would_withhold(reader, profile):
    """Where the nearest learnt die is of another face, a general reading below ``sure`` is
    kept when the die lies nearest as the general reader's face over the learnt dice drawn
    showing each face (``heed_drawn``); not when it lies nearest as another, nor with
    ``heed_drawn`` off."""
    from dataclasses import replace

    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    r = next(d for d in reader.find(frame) if d.value is not None and not d.cocked)
    r, other, _, hesitant = _hesitant(reader, profile, frame, r)
    assert profile.heed(r, hesitant, sure=0.97).value is None
    drawn_as_read = replace(hesitant, drawn=r.value)
    assert profile.heed(r, drawn_as_read, sure=0.97) == r
    off = DiceProfile(profile.pictures, profile.faces, profile.head, profile.card,
                      drawn=(profile.drawn, profile.drawn_faces, profile.drawn_source),
                      heed_drawn=False)
    assert off.heed(r, drawn_as_read, sure=0.97).value is None


def test_every_face_is_drawn_on_the_learnt_dice(reader, profile):
    """``learn`` draws every face on the learnt dice but the ones (``draw_faces``): six faces
    of four pictures each a die drawn, and the verdict names the face a die lies nearest as
    over them; the pair's own dice mostly lie nearest as their own face."""
    n = profile.card["drawn"]
    assert 0 < n <= sum(1 for f, c in profile.card["faces"].items() if f != "1" for _ in range(c))
    assert profile.drawn.shape == (n * 6 * 4, profile.pictures.shape[1])
    assert (profile.drawn_faces.reshape(n, 6, 4) == np.arange(1, 7)[None, :, None]).all()
    frame = cv2.imread(str(STILLS / "two_colours_touching.jpg"))
    dice = [d for d in reader.find(frame) if d.value is not None and not d.cocked]
    got = profile.judge(reader.features(frame, [(*d.center, d.box[1][0]) for d in dice],
                                        turns=4), views=4)
    named = [v for v in got if v.drawn]
    assert named and all(v.drawn_margin >= 0 for v in named)
    assert sum(v.drawn == d.value for v, d in zip(got, dice, strict=True) if v.drawn) >= (
        0.8 * len(named))


def test_learnt_without_drawing_and_an_old_profile_reads_as_before(tmp_path, reader, profile):
    """``learn(draw=False)`` and a profile written before the faces were drawn (no ``drawn`` in
    its file) draw none: their verdicts name no drawn face and heed as before."""
    back = DiceProfile.load(profile.save(tmp_path / "pair"))
    np.testing.assert_allclose(back.drawn, profile.drawn, atol=2e-3)  # kept as float16
    np.testing.assert_array_equal(back.drawn_faces, profile.drawn_faces)
    np.testing.assert_array_equal(back.drawn_source, profile.drawn_source)
    with np.load(tmp_path / "pair.npz") as z:
        np.savez_compressed(tmp_path / "old.npz", **{k: z[k] for k in z.files
                                                     if not k.startswith("drawn")})
    old = DiceProfile.load(tmp_path / "old.npz")
    assert len(old.drawn) == 0 and old.card["drawn"] == profile.card["drawn"]
    frame = cv2.imread(str(STILLS / "colours_tray.jpg"))
    feats = reader.features(frame, [(*d.center, d.box[1][0]) for d in reader.find(frame)],
                            turns=4)
    assert all(v.drawn == 0 for v in old.judge(feats, views=4))
    bare = learn(reader, *_labelled(reader, LEARN_FROM[:1]), name="tray", draw=False)
    assert "drawn" not in bare.card and len(bare.drawn) == 0


def test_fit_lattice_finds_a_rendered_faces_pips():
    """A rendered face (pips of a known step, turn and centre on a plain body) is fitted
    where it was drawn, and painted out to its body's colour."""
    from vision.pip_count import _EDGE_PX
    from vision.profile_draw import _places, fit_lattice, paint_out

    n = 52
    for face, step, turn in ((5, 0.26, 6.0), (3, 0.22, -9.0), (6, 0.28, 93.0)):
        crop = np.full((n, n, 3), (40, 40, 170), np.uint8)  # a red body
        centre = (n / 2 - 0.5 + 1.2, n / 2 - 0.5 - 0.8)
        for x, y in _places(face, step * _EDGE_PX, turn, centre):
            cv2.circle(crop, (round(x), round(y)), 4, (235, 235, 235), -1)
        lat = fit_lattice(crop, face)
        assert abs(lat.step / _EDGE_PX - step) <= 0.021, (face, lat)
        assert min(abs((lat.turn - turn + 90) % 180 - 90), 99) <= 6.0 or face in (5,) and (
            abs((lat.turn - turn + 45) % 90 - 45) <= 6.0), (face, lat)
        assert np.hypot(lat.centre[0] - centre[0], lat.centre[1] - centre[1]) <= 1.7
        assert min(lat.colour) > 180  # the pips' colour, not the body's
        blank, _ = paint_out(crop, face, lat)
        assert np.abs(blank.astype(int) - (40, 40, 170)).max() < 40


def test_a_die_drawn_showing_another_face_is_read_as_it():
    """Each die of a photo drawn showing each face (its pips painted out, its own pips moved
    onto that face's places) is read as that face by the general reader: all 30 of five
    white dice on wood, most of a tray of 22 dice of many colours; a one is not drawn."""
    from vision.profile_draw import redraw

    reader_ = DiceReader()
    for name, least in (("mixed_white_wood", 28), ("colours_tray", 80)):
        frames, dice = _labelled(reader_, [STILLS / f"{name}.jpg"])
        right = total = 0
        for face in range(1, 7):
            drawn, which = redraw(frames[0], dice, face)
            assert all(dice[i].value != 1 for i in which)
            got = reader_.read_at(drawn, [((dice[i].center[0], dice[i].center[1]),
                                           (dice[i].size, dice[i].size), 0.0) for i in which])
            right += sum(g.value == face for g in got)
            total += len(which)
        assert right >= least, (name, right, total)
