"""Render the reader's test stills with the throw simulator (dev tool, run once).

    python tools/reader_fixtures.py     # writes fixtures/stills/rendered_*.png + .json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
STILLS = ROOT / "fixtures" / "stills"
COLOURS = ("white", "black", "red", "green", "blue", "yellow")


def save(name: str, still, die_px: float) -> None:
    cv2.imwrite(str(STILLS / f"{name}.png"), still.image)
    truth = {"die_px": die_px, "dice": still.dice, "source": "vision.simulator.render_dice"}
    (STILLS / f"{name}.json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"wrote {name}.png ({len(still.dice)} dice)")


def main() -> None:
    from vision.simulator import DieSpec, Look, render_dice

    specs = []
    for i, colour in enumerate(COLOURS):
        for row, v in enumerate((i % 6 + 1, (i + 3) % 6 + 1)):
            specs.append(DieSpec(value=v, center=(70 + 100 * i, 170 + 150 * row),
                                 angle=11.0 * i + 37 * row, colour=colour))
    st = render_dice(specs, (640, 480), die_px=40, tilt_deg=18,
                     look=Look(felt="wood", noise=2.0, glare=True), seed=11)
    save("rendered_colours", st, 40.0)

    specs = [
        DieSpec(value=5, center=(120, 200), angle=20, colour="white", cocked=30,
                cocked_toward=270),
        DieSpec(value=2, center=(320, 200), angle=65, colour="red", cocked=25, cocked_toward=0),
        DieSpec(value=6, center=(520, 200), angle=5, colour="black", cocked=35,
                cocked_toward=300),
        DieSpec(value=3, center=(120, 360), angle=40, colour="white"),
        DieSpec(value=4, center=(320, 360), angle=10, colour="red"),
        DieSpec(value=1, center=(520, 360), angle=75, colour="black"),
    ]
    st = render_dice(specs, (640, 480), die_px=44, tilt_deg=20,
                     look=Look(felt="green", noise=2.0), seed=12)
    save("rendered_cocked", st, 44.0)


if __name__ == "__main__":
    main()
