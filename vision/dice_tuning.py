"""The dice reader's thresholds: one object, loaded from the model card's ``thresholds``
(``vision/models/dice_reader.json``). How each was chosen, and the figures, are in
docs/reader.md; ``tools/reader_tune.py`` sets the first four."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields

from vision.pip_count import PipSettings


@dataclass(frozen=True)
class ReaderTuning:
    """Every threshold of ``DiceReader``.

    Reading a crop:

    :param min_confidence: a face below this share of the six faces is not read (value None).
    :param cocked: a die whose "cocked" share of "a die" is at least this is flagged.
    :param background: a crop whose "not a die" probability is at least this is no die.
    :param views: crops classified per die (1, 2 or 4 quarter-turned views, averaged).
    :param ask_below: a crop the first classifier reads below this is put to the second
        opinions ...
    :param no_die: ... unless it calls it "not a die" at least this surely.
    :param sure: a reading at least this confident is not looked at again.
    :param min_die_px: a die smaller than this (its edge, frame pixels) is not read ...
    :param blur_max: ... nor one whose edges are wider than this many die edges (blurred) ...
    :param odd_size: ... nor one read below ``sure`` at more than this many times the median
        size of at least three other dice of the frame (its crop shows more than its face);
        0: no such rule. A card without it takes the default.

    Finding dice:

    :param heat: the detector's weakest find kept (``read_at``'s closer look).
    :param read_heat: ``find`` reads only finds at least this hot.
    :param same_find: two detector cells closer than this many die edges are one find.
    :param rescue_heat: a find at least this hot that the classifier calls no die is cut again
        where the detector, looking closer, puts it ...
    :param rescue_doubt: ... unless the classifier calls it no die at least this surely.
    :param sizes_again: an unsure die is read again at these times its size (and where the
        detector, looking closer, puts it) ...
    :param sizes_last: ... and, still unsure, at these.
    :param refine_px: the detector's patch (pixels at its scale) for a closer look.
    :param refine_reach: a closer look takes the detector's find within this many die edges.
    :param refine_sizes: ... and its size only within this band of the given size.
    :param size_band: with the die's size known, a closer look moves a die only onto a find of
        a size within this band.

    The dice's size, for ``find`` without ``die_px``:

    :param die_px_range: a die's edge in frame pixels lies within this (smallest, largest).
    :param probe_heat: finds at least this hot tell the dice's size ...
    :param coarse_big: ... and at half the first guess's scale, finds at least this large (at
        the detector's input) say the dice are larger than guessed;
    :param finer_gain: a look without a find ``probe_heat`` hot is looked at again at twice
        the scale, taken if its five hottest finds are on average this much hotter;
    :param size_fit: the scale is moved until the dice at the detector's input are within
        this (pixels) ...
    :param scale_moves: ... at most this many times.

    Two finds of one die (the twin rule):

    :param two_faces: two finds closer than this many die edges are one leaning die ...
    :param two_faces_cocked: ... this many when either looks cocked ...
    :param body_chroma: ... unless both bodies are at least this chromatic (Lab) ...
    :param hue_apart: ... and their hues this many degrees apart (two dice touching).
    :param body_disc: a body colour is measured within this many die edges of a find's centre,
    :param body_lightness: on the pixels within this lightness of the disc's median.

    The pips' count as a second opinion (``vision.pip_count``, ``DiceReader._pip_vote``):

    :param pip_veto: a die read as a face its pips' pattern, counted cleanly at a quality of
        at least this, says is another is not read (above 1: no veto) ...
    :param pip_veto_below: ... when read below this confidence (above 1: at any);
    :param pip_agree: a die not read, whose likeliest face is at least ``pip_agree_floor``
        likely and whose pips make that face's pattern at a quality of at least this, is read
        as that face (above 1: never) ...
    :param pip_agree_floor: ... (the likeliest face's lowest confidence) ...
    :param pip_agree_lean: ... unless its cocked share is above this;
    :param grey_look: a die still not read after the last look is read once more on its
        lightness alone, and read as a face if that agrees, more surely, with the colour
        crop's likeliest face (``DiceReader._grey_look``; a card without it: off, the reader
        as it was);
    :param pip_count: what a clean pattern is (``vision.pip_count.PipSettings``; the card's
        ``pip_count`` object, any setting left out at its default).
    """

    min_confidence: float
    cocked: float
    background: float
    views: int
    ask_below: float
    no_die: float
    sure: float
    min_die_px: float
    blur_max: float
    heat: float
    read_heat: float
    same_find: float
    rescue_heat: float
    rescue_doubt: float
    sizes_again: tuple[float, ...]
    sizes_last: tuple[float, ...]
    refine_px: int
    refine_reach: float
    refine_sizes: tuple[float, float]
    size_band: tuple[float, float]
    die_px_range: tuple[float, float]
    probe_heat: float
    coarse_big: float
    finer_gain: float
    size_fit: tuple[float, float]
    scale_moves: int
    two_faces: float
    two_faces_cocked: float
    body_chroma: float
    hue_apart: float
    body_disc: float
    body_lightness: float
    odd_size: float = 1.8
    pip_veto: float = 2.0
    pip_veto_below: float = 2.0
    pip_agree: float = 0.0
    pip_agree_floor: float = 0.3
    pip_agree_lean: float = 0.3
    pip_count: PipSettings = field(default_factory=PipSettings)
    grey_look: bool = False

    @classmethod
    def from_card(cls, thresholds: dict, **overrides) -> ReaderTuning:
        """From the card's ``thresholds`` object (lists become tuples); ValueError naming the
        keys missing or unknown."""
        names = [f.name for f in fields(cls)]
        optional = {f.name for f in fields(cls)
                    if f.default is not MISSING or f.default_factory is not MISSING}
        missing = [n for n in names
                   if n not in thresholds and n not in overrides and n not in optional]
        unknown = sorted(set(thresholds) - set(names))
        if missing or unknown:
            raise ValueError(
                "dice_reader.json \"thresholds\": "
                + (f"missing {', '.join(missing)}" if missing else "")
                + ("; " if missing and unknown else "")
                + (f"unknown {', '.join(unknown)}" if unknown else ""))
        values = {**thresholds, **{k: v for k, v in overrides.items() if v is not None}}
        if not isinstance(values.get("pip_count", PipSettings()), PipSettings):
            values["pip_count"] = PipSettings.from_card(values["pip_count"])
        return cls(**{n: tuple(values[n]) if isinstance(values[n], list) else values[n]
                      for n in names if n in values})
