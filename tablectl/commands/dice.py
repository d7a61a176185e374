"""``tablectl dice learn PROFILE IMAGE...`` / ``tablectl dice learn PROFILE --journal FILE``:
the table learns its own pair of dice (``vision.dice_profile``).

From photos: a label file beside each image (``NAME.txt``, one line ``class cx cy w h`` per die,
normalised to the image, class = face value - 1). From a journal: every throw the operator ruled
on, read from its picture (the throw's row's ``raw_image`` if it keeps one, else its annotated
``image``) with the faces he gave; a throw whose two dice cannot be told apart by their faces is
skipped and said so.

The profile is written to PROFILE (``.npz``); ``tablectl read --dice PROFILE`` and the table
(``[dice] profiles`` in table.toml) read with it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# two photos of the pair showing every face this many times are enough
FACE_SIGHTINGS = 3


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("dice", help="learn the table's own dice (a profile of a pair)",
                              description="Learn a profile of one pair of dice.")
    sub = p.add_subparsers(dest="dice_command", required=True, metavar="ACTION")
    learn = sub.add_parser(
        "learn", help="learn a pair from labelled photos or from a journal's ruled throws",
        description="Learn a profile of one pair of dice from labelled photos (NAME.txt beside "
        "each NAME.jpg: `class cx cy w h` per die, class = face - 1) or from the throws the "
        "operator ruled on in a journal. Two photos showing every face three times are enough.")
    learn.add_argument("profile", metavar="PROFILE", type=Path,
                       help="the profile file to write (.npz)")
    learn.add_argument("images", nargs="*", metavar="IMAGE", help="labelled photos of the pair")
    learn.add_argument("--journal", metavar="FILE", type=Path,
                       help="learn from the dice the operator ruled on in this journal")
    learn.add_argument("--name", default="", help="a name for the pair (kept in the profile)")
    learn.add_argument("--draw", action=argparse.BooleanOptionalAction, default=True,
                       help="draw each die showing every face, its own pips moved (a reading "
                       "the profile would withhold is kept where the die lies nearest as its "
                       "face over the dice drawn; --no-draw: a smaller profile, learnt faster)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.dice import DiceReader, ReaderError
    from vision.dice_profile import ProfileError, learn, locate, read_yolo_labels

    if bool(args.images) == bool(args.journal):
        print("tablectl dice learn: give either labelled IMAGE files or --journal FILE",
              file=sys.stderr)
        return 2
    try:
        reader = DiceReader()
    except ReaderError as exc:
        print(f"tablectl dice learn: {exc}", file=sys.stderr)
        return 2
    frames, dice = [], []
    try:
        if args.journal:
            frames, dice = _from_journal(reader, args.journal)
        else:
            for path in args.images:
                frame = cv2.imread(path, cv2.IMREAD_COLOR) if Path(path).is_file() else None
                if frame is None or frame.size == 0:
                    why = ("not a readable image (corrupt?)" if Path(path).is_file()
                           else "no such file")
                    print(f"tablectl dice learn: {path}: {why}", file=sys.stderr)
                    return 2
                h, w = frame.shape[:2]
                labels = read_yolo_labels(Path(path).with_suffix(".txt"), w, h)
                dice += locate(reader, frame, labels, len(frames))
                frames.append(frame)
        profile = learn(reader, frames, dice, name=args.name or args.profile.stem, draw=args.draw)
        out = profile.save(args.profile)
    except (ProfileError, ReaderError, OSError) as exc:
        print(f"tablectl dice learn: {exc}", file=sys.stderr)
        return 2
    faces = profile.card["faces"]
    print(f"learnt {out}: {len(dice)} dice on {len(frames)} pictures; faces seen "
          + ", ".join(f"{f}: {n}" for f, n in faces.items()))
    few = [f for f, n in faces.items() if n < FACE_SIGHTINGS]
    if few:
        print(f"  faces seen fewer than {FACE_SIGHTINGS} times: {', '.join(few)}; the general "
              "reader reads them. Add photos showing them and learn again.")
    held = profile.card["held_out"]
    if held["crops"]:
        print(f"  held out one picture at a time: {held['right']} of {held['crops']} dice read "
              f"right, {held['wrong']} wrong; reads a face at {profile.card['min_confidence']} "
              "or more")
    if "drawn" in profile.card:
        print(f"  drew every face on {profile.card['drawn']} of the {len(dice)} dice (their own "
              "pips moved; a one, or a die whose pips were not made out, is not drawn)")
    return 0


def _from_journal(reader, path: Path):
    """The pictures and dice of every throw the operator ruled on: the picture of the row
    before the ruling that holds one (the throw he ruled on), its two dice found by the reader,
    matched to the faces he gave by the reader's face probabilities."""
    import cv2

    from tablectl.journal import JournalError, read_rows
    from vision.dice_profile import LabelledDie, ProfileError

    frames, dice = [], []
    skipped: list[str] = []
    last_image: tuple[int, str] | None = None
    try:
        rows = list(read_rows(path))
    except (JournalError, OSError) as exc:
        raise ProfileError(f"journal {path}: {exc}") from None
    for row in rows:
        # the throw's picture as the camera took it if the row keeps one: the journal's
        # "image" is annotated (each die outlined), and a profile learns what its crops show
        picture = row.extra.get("raw_image") or row.extra.get("image")
        if picture:
            last_image = (row.seq, str(picture))
        ruled = next((e for e in row.events if e.get("event") == "operator_ruled"
                      and e.get("dice")), None)
        if ruled is None:
            continue
        if last_image is None:
            skipped.append(f"row {row.seq}: no picture of the throw")
            continue
        image = Path(last_image[1])
        if not image.is_absolute():
            image = path.parent / image
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR) if image.is_file() else None
        if frame is None:
            skipped.append(f"row {row.seq}: picture {image} unreadable")
            continue
        found = [d for d in reader.find(frame) if not d.cocked]
        values = [int(v) for v in ruled["dice"]]
        if len(found) != len(values):
            skipped.append(f"row {row.seq}: {len(found)} flat dice found, {len(values)} ruled")
            continue
        order = _assign(reader, frame, found, values)
        if order is None:
            skipped.append(f"row {row.seq}: cannot tell which die shows which face")
            continue
        for d, v in zip(found, order, strict=True):
            dice.append(LabelledDie(d.center, d.box[1][0], v, len(frames)))
        frames.append(frame)
    for s in skipped:
        print(f"  skipped {s}", file=sys.stderr)
    if not dice:
        raise ProfileError(f"journal {path}: no throw the operator ruled on could be used "
                           f"({len(skipped)} skipped)")
    return frames, dice


def _assign(reader, frame, found, values: list[int]) -> list[int] | None:
    """The ruled faces in the order of ``found``: as given or swapped, whichever the reader's
    face probabilities favour at least twice as much; the same face twice needs no choice."""
    if len(set(values)) == 1:
        return values
    if len(values) != 2:
        return None
    p = reader.face_probabilities(frame, [(d.center[0], d.center[1], d.box[1][0])
                                          for d in found])
    a, b = values
    keep = float(p[0, a - 1] * p[1, b - 1])
    swap = float(p[0, b - 1] * p[1, a - 1])
    if keep >= 2 * swap and keep > 0:
        return [a, b]
    if swap >= 2 * keep and swap > 0:
        return [b, a]
    return None
