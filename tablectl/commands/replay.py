"""``tablectl replay VIDEO_OR_DIR --calibration FILE [--json] [--snapshots DIR]``.

Runs recorded frames (a video file, a folder of frames, a glob pattern, or a saved simulator
clip folder) through the throw tracker and the rulings, as the live table would. With ``--json``
one line per throw (DESIGN.md)::

    {"throw": n, "start_frame": i, "rest_frame": j,
     "dice": [{"value", "cocked", "confidence", "hit_wall", "left_area", "at_rest_in_area",
               "center"}],
     "ruling": {"kind": "counts" | "warning" | "void" | "operator", "rule": "R-I3", "reason": "..."}}

Exit status 0; 2 on bad input (a missing file, a bad calibration).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# the checkout's table.toml (run from anywhere); a table.toml in the working directory wins
DEFAULT_CONFIG = (
    Path("firmware_config/table.toml")
    if Path("firmware_config/table.toml").is_file()
    else Path(__file__).resolve().parents[2] / "firmware_config" / "table.toml"
)
DIE_KEYS = ("value", "cocked", "confidence", "hit_wall", "left_area", "at_rest_in_area", "center")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="run recorded frames through the tracker and rule each throw",
        description="Track every throw in a video or a folder of frames and print what the "
        "camera saw and the ruling (R-I1..R-I3), one throw per line.",
    )
    p.add_argument("source", metavar="VIDEO_OR_DIR",
                   help="a video file, a folder of frames, a pattern like 'f/*.png', "
                   "or a saved simulator clip folder")
    p.add_argument("--calibration", type=Path, default=None, metavar="FILE",
                   help="TOML with a [calibration] table (default: the folder's calibration.toml, "
                   f"else {DEFAULT_CONFIG})")
    p.add_argument("--rules", type=Path, default=None, metavar="FILE",
                   help=f"TOML with a [rules] table (default: {DEFAULT_CONFIG} if present, "
                   "else the RULES.md defaults)")
    p.add_argument("--json", action="store_true", help="one JSON object per throw per line")
    p.add_argument("--fps", type=float, default=60.0,
                   help="frame rate of a folder of frames (videos carry their own)")
    p.add_argument("--snapshots", type=Path, default=None, metavar="DIR",
                   help="write each throw's annotated rest frame into DIR as throw-N.png")
    p.add_argument("--no-reader", action="store_true",
                   help="track only: do not read the faces (values null)")
    p.set_defaults(func=run)


def _calibration_path(args) -> Path:
    if args.calibration is not None:
        return args.calibration
    src = Path(args.source)
    if src.is_dir() and (src / "calibration.toml").is_file():
        return src / "calibration.toml"
    return DEFAULT_CONFIG


def _missing_path(source: str) -> bool:
    """A source written as a path (not a camera, not an image pattern) that is not there."""
    looks_like_path = "/" in source or "." in source
    return looks_like_path and not any(c in source for c in "*?[") and not Path(source).exists()


def _rules(path: Path | None):
    import tomllib

    from tablectl.game import TableRules

    if path is None:
        if not DEFAULT_CONFIG.is_file():
            return TableRules()
        path = DEFAULT_CONFIG
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return TableRules.from_mapping(data.get("rules", {}))


def throw_record(n: int, obs, ruling) -> dict:
    """The --json line of one throw."""
    return {
        "throw": n,
        "start_frame": obs.start_frame,
        "rest_frame": obs.rest_frame,
        "dice": [{k: d.to_dict()[k] for k in DIE_KEYS} for d in obs.dice],
        "ruling": ruling.to_dict(),
    }


def _text(n: int, obs, ruling) -> str:
    dice = []
    for d in obs.dice:
        v = "?" if d.value is None else str(d.value)
        flags = [f for f, on in (("wall", d.hit_wall), ("left area", d.left_area),
                                 ("cocked", d.cocked), ("not found", d.center is None)) if on]
        dice.append(v + (f" ({', '.join(flags)})" if flags else ""))
    rule = f" {ruling.rule}" if ruling.rule else ""
    return (f"throw {n}: frames {obs.start_frame}-{obs.rest_frame}: {' + '.join(dice) or 'no dice'}"
            f" -> {ruling.kind}{rule}: {ruling.reason}")


def run(args: argparse.Namespace) -> int:
    import tomllib

    from tablectl.rulings import rule_throw
    from vision.calibration import Calibration, CalibrationError
    from vision.sources import CameraFault, SourceError, open_source
    from vision.tracker import ThrowTracker

    try:
        cal = Calibration.load(_calibration_path(args))
        rules = _rules(args.rules)
        if _missing_path(args.source):
            raise SourceError(f"{args.source}: no such file or folder; give a video file, a "
                              f"folder of frames (such as fixtures/clips/01_both_hit) or a "
                              f"camera")
        source = open_source(args.source, fps=args.fps)
    except (CalibrationError, SourceError, ValueError, OSError, tomllib.TOMLDecodeError) as exc:
        print(f"tablectl replay: {exc}", file=sys.stderr)
        return 2
    reader = None
    if not args.no_reader:
        try:
            from vision.dice import DiceReader

            reader = DiceReader()
        except (ImportError, ValueError) as exc:
            print(f"tablectl replay: no dice reader ({exc}): values are not read",
                  file=sys.stderr)
    if args.snapshots is not None:
        args.snapshots.mkdir(parents=True, exist_ok=True)
    tracker = ThrowTracker(cal, reader=reader, annotate=args.snapshots is not None)
    n = 0
    try:
        for frame in source:
            obs = tracker.feed(frame.timestamp, frame.image)
            if obs is None:
                continue
            n += 1
            ruling = rule_throw(obs, rules)
            if args.snapshots is not None and obs.snapshot is not None:
                import cv2

                cv2.imwrite(str(args.snapshots / f"throw-{n}.png"), obs.snapshot)
            if args.json:
                print(json.dumps(throw_record(n, obs, ruling)), flush=True)
            else:
                print(_text(n, obs, ruling), flush=True)
    except (SourceError, CameraFault, ValueError) as exc:
        print(f"tablectl replay: {exc}", file=sys.stderr)
        return 2
    finally:
        source.close()
    if not args.json:
        print(f"{n} throw(s)")
    return 0
