"""The pair model (``vision.pair_pick``): one crop of both dice of a close pair, laid along
their axis with the back wall's side up, and the learned pick of the leaning die."""

from __future__ import annotations

import numpy as np
import pytest

from vision.pair_pick import PAIR_EDGES, PAIR_H, PAIR_W, PairJudge, pair_crop


def _frame():
    """A grey frame with a red disc at (200, 240), a blue one at (280, 240) and a green bar
    along the top (the back wall's side, wall_dir (0, -1))."""
    import cv2

    f = np.full((480, 640, 3), 90, np.uint8)
    cv2.circle(f, (200, 240), 12, (0, 0, 255), -1)
    cv2.circle(f, (280, 240), 12, (255, 0, 0), -1)
    cv2.rectangle(f, (0, 0), (639, 200), (0, 200, 0), -1)
    return f


def test_the_first_die_lies_left_and_the_wall_up():
    f = _frame()
    crop = pair_crop(f, (200.0, 240.0), (280.0, 240.0), 40.0, (0.0, -1.0))
    assert crop.shape == (PAIR_H, PAIR_W, 3)
    # 40 px a die edge: the crop is PAIR_EDGES edges wide, the dice 2 edges apart
    scale = PAIR_W / (PAIR_EDGES * 40.0)
    y = PAIR_H // 2
    left, right = PAIR_W // 2 - round(40 * scale), PAIR_W // 2 + round(40 * scale)
    assert crop[y, left, 2] > 200 and crop[y, left, 0] < 50  # red: the first die
    assert crop[y, right, 0] > 200 and crop[y, right, 2] < 50  # blue: the second
    assert crop[1, PAIR_W // 2, 1] > 150  # the wall's side is up

    # the pair the other way round is the mirror image, the wall still up
    swapped = pair_crop(f, (280.0, 240.0), (200.0, 240.0), 40.0, (0.0, -1.0))
    assert np.array_equal(swapped, crop[:, ::-1])

    # a pair along the wall's normal still keeps the wall on the crop's upper side: the
    # axis is horizontal, so "up" is the side the wall direction leans to (here the right)
    turned = pair_crop(f, (240.0, 300.0), (240.0, 180.0), 40.0, (0.3, -0.95))
    assert turned.shape == (PAIR_H, PAIR_W, 3)


def test_the_shipped_pick_is_antisymmetric():
    judge = PairJudge()
    f = _frame()
    a = judge.first_leans(f, (200.0, 240.0), (280.0, 240.0), 40.0, (0.0, -1.0))
    b = judge.first_leans(f, (280.0, 240.0), (200.0, 240.0), 40.0, (0.0, -1.0))
    assert 0.0 <= a <= 1.0
    assert a + b == pytest.approx(1.0, abs=1e-4)


def _flags(reader, r, settings):
    from vision.cocked.judge import judge_cocked

    return judge_cocked(r["sil"], settings, reader, r["frame"], r["boxes"], r["readings"])[1]


@pytest.mark.parametrize("seed", [78746, 74755])
def test_the_pair_model_moves_the_flag_to_the_leaning_die(rest_throws, seed):
    """Dev 78746 (a yellow die leaning 10.2 degrees on a yellow die; the lean model believes
    neither leans, 0.04 and 0.09, the flat one more) and 74755 (blue, 13.1 degrees; the lean
    model 0.78 on the flat die, 0.03 on the leaning one): the lean model, judging each die
    from its crop alone, picked the flat die, and the operator was shown the wrong one. The
    pair model, seeing both, picks the leaning die surely, and the summed log-odds follow it.
    The throw is the operator's either way: only the mark moves (R-I2)."""
    from dataclasses import replace

    from vision.cocked.judge import lean_beliefs
    from vision.cocked.settings import CockedSettings

    reader, throw = rest_throws
    r = throw(seed, "cocked_die")
    (i,) = [k for k, t in enumerate(r["truth"]) if t["cocked"]]
    flat = 1 - i
    st = CockedSettings()
    beliefs = lean_beliefs(r["sil"].geometry, st, reader, r["frame"], r["boxes"], r["readings"])
    assert beliefs[flat] > beliefs[i]  # the lean model alone picks the flat die

    before = _flags(reader, r, replace(st, pair_pick=None))
    assert before[flat] and not before[i]
    assert _flags(reader, r, st) == [k == i for k in range(2)]

    # without the pair model on the reader, the pick is the lean model's again
    pair, reader.pair = reader.pair, None
    try:
        assert _flags(reader, r, st) == before
    finally:
        reader.pair = pair


def test_the_picks_bench_counts_and_draws_what_the_sum_mends(rest_throws, cocked_rest_bench,
                                                             tmp_path, capsys):
    """``bench/cocked_rest.py picks``: 78746's row says the beliefs pick the wrong die and
    the sum at the shipped weight the right one; the table counts it so, and the picture
    draws it among the pairs mended."""
    from vision.cocked.settings import CockedSettings

    reader, throw = rest_throws
    bench = cocked_rest_bench
    r = throw(78746, "cocked_die")
    (row,) = bench.pick_rows([r, r], reader, CockedSettings())  # each seed once
    w = CockedSettings().pair_pick
    assert (row["lean"] > 0) != row["first"]
    assert (row["lean"] + w * row["pair"] > 0) == row["first"]
    bench.print_picks([row], [w])
    out = capsys.readouterr().out
    assert "| the lean model's beliefs | 1 |" in out
    assert f"| summed, pair_pick {w:g} | 0 |" in out
    picture = tmp_path / "picks.png"
    bench.draw_picks([row], w, picture)
    import cv2

    sheet = cv2.imread(str(picture))
    assert sheet is not None and sheet.shape[1] == 4 * (2 * PAIR_W + 4)
