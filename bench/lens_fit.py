"""How well ``tablectl calibrate --lens`` measures a wide lens's barrel (``vision.lens.measure_k1``).

    .venv/bin/python bench/lens_fit.py [--clips DIR] [--k1 -0.1 -0.2]

The second renderer's clips (1280x720) bent by ``_Barrel(k1)`` (bench/tracker.py), as shot and
through a few other cameras' looks (a webcam's JPEG stream, sensor noise, a dim room, half the
size): ``lens_k1`` measured on each clip's first frame with the look's calibration, as an owner
would run ``tablectl calibrate --lens`` on a frame of the empty table. Prints, per look and k1,
the least and the greatest of the ten measures and the seconds one took.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tracker import _Barrel, _jpeg, _light, _sensor_noise  # noqa: E402
from tests.support.throws import THROW_CLIPS, CameraLook, throw_clips  # noqa: E402
from vision.lens import measure_k1  # noqa: E402

LOOKS = [
    ("as shot, 1280x720", None, 1.0),
    ("JPEG q40", _jpeg(40), 1.0),
    ("sensor noise sigma 6", _sensor_noise(6.0), 1.0),
    ("dim room (x0.55)", _light((0.55, 0.55, 0.55)), 1.0),
    ("640x360", None, 0.5),
]


def bent(k1: float, scale: float, then):
    """The look: the frame scaled by ``scale``, bent by ``_Barrel(k1)``, then ``then``."""
    lens = _Barrel(k1, (int(round(1280 * scale)), int(round(720 * scale))))

    def image(img, k):
        img = lens.image(img, k)
        return then(img, k) if then is not None else img

    return CameraLook(f"barrel {k1}", scale=scale, image=image, point=lens.point)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clips", type=Path, default=THROW_CLIPS, metavar="DIR")
    ap.add_argument("--k1", type=float, nargs="+", default=[0.0, -0.1, -0.2])
    args = ap.parse_args()
    clips = throw_clips(args.clips)
    print(f"lens_k1 measured on the first frame of each of {len(clips)} clips in {args.clips}")
    print("| look | barrel k1 | measured, least .. greatest | seconds per measure |")
    print("| --- | --- | --- | --- |")
    for name, then, scale in LOOKS:
        for k1 in args.k1:
            look = bent(k1, scale, then)
            found, took = [], 0.0
            for clip in clips:
                clip = clip.shot_as(look)
                frame = next(iter(clip.frames()))[1]
                t0 = time.process_time()
                k, _ = measure_k1(frame, clip.calibration)
                took += time.process_time() - t0
                found.append(k)
            print(f"| {name} | {k1:g} | {min(found):+.4f} .. {max(found):+.4f} "
                  f"| {took / len(clips):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
