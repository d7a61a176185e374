"""`tablectl read IMAGE... [--json] [--annotate DIR]` end to end."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from tablectl.cli import main

STILLS = Path(__file__).resolve().parents[2] / "fixtures" / "stills"


def test_json_lines_annotations_and_a_corrupt_file(tmp_path, capsys):
    corrupt = tmp_path / "broken.jpg"
    corrupt.write_bytes(b"GIF89a truncated")
    two = str(STILLS / "two_white_wood.jpg")
    empty = str(STILLS / "empty_wood.jpg")
    out_dir = tmp_path / "annotated"
    status = main(["read", two, str(corrupt), empty, "--json", "--annotate", str(out_dir)])
    cap = capsys.readouterr()
    assert status == 1  # one image could not be read; the others were
    assert "broken.jpg" in cap.err and "not a readable image" in cap.err
    lines = [json.loads(line) for line in cap.out.splitlines()]
    assert [r["image"] for r in lines] == [two, empty]
    dice = lines[0]["dice"]
    assert [d["value"] for d in dice] == [4, 4]
    for d in dice:
        assert set(d) >= {"value", "center", "confidence", "cocked"}
        assert d["cocked"] is False and 0.5 < d["confidence"] <= 1.0
        assert len(d["center"]) == 2 and len(d["box"]) == 3
    assert lines[1]["dice"] == []
    shot = cv2.imread(str(out_dir / "two_white_wood.png"))
    plain = cv2.imread(two)
    assert shot is not None and shot.shape == plain.shape
    # the outlines are drawn in green (read dice) where the photo had none
    green = (shot[..., 1] > 150) & (shot[..., 0] < 80) & (shot[..., 2] < 80)
    assert green.sum() > 100 and not ((plain[..., 1] > 150) & (plain[..., 0] < 80)
                                      & (plain[..., 2] < 80)).sum() > 100
    assert (out_dir / "empty_wood.png").exists()
    assert not (out_dir / "broken.png").exists()


def test_text_output_and_missing_file(tmp_path, capsys):
    status = main(["read", str(STILLS / "two_white_wood.jpg"), str(tmp_path / "gone.jpg")])
    cap = capsys.readouterr()
    assert status == 1
    assert "gone.jpg: no such file" in cap.err
    assert "two_white_wood.jpg: 2 dice: 4 (" in cap.out


def test_all_good_images_exit_zero(capsys):
    assert main(["read", str(STILLS / "empty_wood.jpg")]) == 0
    assert capsys.readouterr().out.strip().endswith("no dice")


def test_bad_die_px_is_refused(capsys):
    assert main(["read", str(STILLS / "empty_wood.jpg"), "--die-px", "0"]) == 2
    assert "--die-px" in capsys.readouterr().err


def test_annotate_dir_that_cannot_be_made(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status = main(["read", str(STILLS / "empty_wood.jpg"), "--annotate", str(blocker / "sub")])
    assert status == 2 and "--annotate" in capsys.readouterr().err


def test_any_photo_size_is_read_without_die_px(tmp_path, capsys):
    """A 4000x3000 phone photo whose dice are the size they are in a 640x480 webcam frame, and
    a 320x240 photo of the same pair: both read as the pair of fours, with no --die-px."""
    src = cv2.imread(str(STILLS / "two_white_wood.jpg"))
    big = cv2.copyMakeBorder(src, 1260, 1260, 1680, 1680, cv2.BORDER_REPLICATE)
    assert big.shape[:2] == (3000, 4000)
    small = cv2.resize(src, (320, 240), interpolation=cv2.INTER_AREA)
    paths = [tmp_path / "phone_12mp.jpg", tmp_path / "small_320.png"]
    cv2.imwrite(str(paths[0]), big)
    cv2.imwrite(str(paths[1]), small)
    assert main(["read", *map(str, paths), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [[d["value"] for d in r["dice"]] for r in lines] == [[4, 4], [4, 4]]
    # the centres are where the dice lie in each photo (the big one's 1680, 1260 further),
    # within a third of a die's edge (48 px)
    for a, b in zip(lines[0]["dice"], lines[1]["dice"], strict=True):
        assert abs(a["center"][0] - 1680 - 2 * b["center"][0]) < 16
        assert abs(a["center"][1] - 1260 - 2 * b["center"][1]) < 16
