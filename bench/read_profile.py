"""A learnt profile on dice the general reader knows less well: ``read_accuracy.py --profile``
on photos given another look first, one core.

    taskset -c 0 python bench/read_profile.py --look hue-half   # every colour turned 180 degrees
    taskset -c 0 python bench/read_profile.py --look plain      # the photos as they are

The general reader has learnt the colours of the photo sets' dice; turning every photo's hues
half way round (a red die becomes cyan, a blue one orange, white stays white) or lighting it
from one side makes kinds of dice it never saw, as a table's own pair may be. Per kind, a
profile is learnt from two photos of that look and the kind's dice on the other held-out photos
are scored alone and with it (``read_accuracy.score_profiles``: same kinds, same choice of
photos, same scoring); so is every other kind's die on those photos (a profile must not turn a
stranger into a guess).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import read_accuracy  # noqa: E402


def hue_half(frame: np.ndarray) -> np.ndarray:
    """Every hue turned 180 degrees (OpenCV's hue runs 0..179), lightness and saturation kept."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = (hsv[..., 0].astype(np.int16) + 90) % 180
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def side_lit(frame: np.ndarray) -> np.ndarray:
    """A light from the left: a gain from 1.3 down to 0.45 across the photo, gamma 1.3."""
    ramp = np.linspace(1.3, 0.45, frame.shape[1], dtype=np.float32)[None, :, None]
    x = np.power(frame.astype(np.float32) / 255.0, 1.3) * ramp
    return np.clip(x * 255.0, 0, 255).astype(np.uint8)


LOOKS = {"plain": lambda f: f, "hue-half": hue_half, "side-lit": side_lit}


class _LookedAt:
    """``cv2`` as ``read_accuracy`` uses it, except that each photo it reads is given a look."""

    def __init__(self, look):
        self._look = look

    def __getattr__(self, name):
        return getattr(cv2, name)

    def imread(self, *args, **kwargs):
        frame = cv2.imread(*args, **kwargs)
        return None if frame is None else self._look(frame)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Score learnt profiles on photos of another look.")
    ap.add_argument("--look", choices=sorted(LOOKS), default="hue-half")
    ap.add_argument("--kinds", type=int, default=9, metavar="K",
                    help="nell-byler's dice fall into K colours (default 9)")
    ap.add_argument("--learn", type=int, default=2, metavar="N",
                    help="learn from N photos of a kind (0: as many as show every face three "
                    "times; default 2)")
    ap.add_argument("--all", action="store_true", help="score every photo, not the held-out")
    ap.add_argument("--pips", action=argparse.BooleanOptionalAction, default=True,
                    help="the profiles heed the pair's own pips (DiceProfile.heed_pips, on in "
                    "the table; --no-pips: not)")
    ap.add_argument("--draw", action=argparse.BooleanOptionalAction, default=True,
                    help="the profiles draw each learnt die's other faces (vision/profile_draw.py;"
                    " --no-draw: not)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="list each die the profile leaves unread or misread, and each other "
                    "kind's die whose reading it changes, with the profile's verdict")
    a = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from vision.dice import DiceReader

    read_accuracy.cv2 = _LookedAt(LOOKS[a.look])
    print(f"look: {a.look}", flush=True)
    read_accuracy.score_profiles(DiceReader(), a.kinds, a.learn, None if a.all else "held_out",
                                 a.verbose, a.pips, a.draw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
