"""TableRules: the table rules that RULES.md leaves to the table (each a documented setting)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

DICE_PER_THROW = 2  # R-E1: a throw is of two dice
OUT_OF_BOUNDS_CHOICES = ("at_rest", "any_time")


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table's settings (the ``[rules]`` table of ``table.toml``).

    min_players: seated players needed for a come-out (R-P1), at least 2.
    out_of_bounds: ``"at_rest"`` (void when a die comes to rest outside the area) or
        ``"any_time"`` (void when a die leaves it at any moment) (R-I1); read by the rulings.
    warnings_before_sanction: warnings a shooter gets for an offence before a repeat opens the
        sanction (substitute, bar) (R-I3, R-I5).
    fade_first_claim: R-C4, a whole fader who lost the previous center bet may claim the whole
        next one first (off by default).
    dice_pairs: pairs of dice available to change to (R-E2, R-X1).
    """

    min_players: int = 2
    out_of_bounds: str = "at_rest"
    warnings_before_sanction: int = 1
    fade_first_claim: bool = False
    dice_pairs: int = 2

    def __post_init__(self) -> None:
        for name, kind in (("min_players", int), ("warnings_before_sanction", int),
                           ("dice_pairs", int), ("fade_first_claim", bool)):
            value = getattr(self, name)
            if type(value) is not kind:
                raise ValueError(f"table rule {name} must be {kind.__name__}, got {value!r}")
        if self.min_players < 2:
            raise ValueError(f"table rule min_players must be at least 2 (R-P1), got {self.min_players}")
        if self.out_of_bounds not in OUT_OF_BOUNDS_CHOICES:
            raise ValueError(
                f"table rule out_of_bounds must be one of {', '.join(OUT_OF_BOUNDS_CHOICES)} (R-I1), "
                f"got {self.out_of_bounds!r}")
        if self.warnings_before_sanction < 0:
            raise ValueError("table rule warnings_before_sanction must be 0 or more (R-I3)")
        if self.dice_pairs < 1:
            raise ValueError("table rule dice_pairs must be at least 1 (R-E2)")

    @classmethod
    def from_mapping(cls, mapping: dict | None) -> TableRules:
        """Build from the ``[rules]`` table of table.toml; unknown keys are an error."""
        mapping = dict(mapping or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(mapping) - known)
        if unknown:
            raise ValueError(
                f"unknown table rule(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return cls(**mapping)

    def to_mapping(self) -> dict:
        return asdict(self)
