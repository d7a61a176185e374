"""``tablectl read IMAGE... [--json] [--annotate DIR] [--dice PROFILE]``: find and read the dice in still images.

With ``--json`` one object per image on its own line (DESIGN.md)::

    {"image": PATH, "dice": [{"value": 1..6 or null, "center": [x, y], "confidence": 0..1,
                              "cocked": bool, "box": [[cx, cy], [w, h], angle]}]}

An image that cannot be read is named on stderr; the others are still read; exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read",
        help="read the dice in still images",
        description="Find every die in each image and read its top face (1..6). A die that "
        "cannot be read with confidence gets value null; a die not lying flat is flagged cocked.",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, BMP)")
    p.add_argument("--json", action="store_true", help="one JSON object per image per line")
    p.add_argument("--annotate", metavar="DIR", type=Path,
                   help="write each image with its dice outlined and read into DIR (PNG)")
    p.add_argument("--dice", metavar="PROFILE", type=Path, default=None,
                   help="read with the profile of the pair on the table (tablectl dice learn)")
    p.add_argument("--die-px", type=float, default=None,
                   help="a die's edge in pixels, if known (default: found from the image, at any photo size)")
    p.set_defaults(func=run)


def _text(path: str, dice) -> str:
    if not dice:
        return f"{path}: no dice"
    parts = []
    for d in dice:
        what = "cocked" if d.cocked else (str(d.value) if d.value is not None else "unread")
        parts.append(f"{what} ({d.confidence:.2f}) at ({d.center[0]:.0f}, {d.center[1]:.0f})")
    return f"{path}: {len(dice)} dice: " + "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.dice import DiceReader, ReaderError, annotate

    if args.die_px is not None and not args.die_px > 0:
        print("tablectl read: --die-px must be a positive number of pixels", file=sys.stderr)
        return 2
    try:
        reader = DiceReader(profile=args.dice)
    except ReaderError as exc:
        print(f"tablectl read: {exc}", file=sys.stderr)
        return 2
    if args.annotate is not None:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"tablectl read: cannot create --annotate directory {args.annotate}: {exc}",
                  file=sys.stderr)
            return 2
    status = 0
    for path in args.images:
        frame = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
        if frame is None or frame.size == 0:
            why = "no such file" if not Path(path).is_file() else "not a readable image (corrupt?)"
            print(f"tablectl read: {path}: {why}; skipped", file=sys.stderr)
            status = 1
            continue
        try:
            dice = reader.find(frame, die_px=args.die_px)
        except ReaderError as exc:
            print(f"tablectl read: {path}: {exc}; skipped", file=sys.stderr)
            status = 1
            continue
        if args.json:
            print(json.dumps({"image": path, "dice": [d.to_dict() for d in dice]}), flush=True)
        else:
            print(_text(path, dice), flush=True)
        if args.annotate is not None:
            out = args.annotate / (Path(path).stem + ".png")
            if not cv2.imwrite(str(out), annotate(frame, dice)):
                print(f"tablectl read: cannot write {out}", file=sys.stderr)
                status = 1
    return status
