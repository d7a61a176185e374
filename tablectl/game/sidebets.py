"""Side bets between two players (R-S0..R-S7): terms, per-throw decision, true odds.

A side bet is one small value type, ``SideBet``, whatever its kind; each kind's rule is a small
function (``DECIDE``: ``decide_line`` .. ``decide_proposition``) that states what one counted
throw does to the bet: FOR (the backer of the event wins both stakes), AGAINST, OPEN,
COME_POINT (a come bet gets its come point) or COUNT (a proposition with "within" counts the
throw). ``decide`` changes nothing; the settlement (``sections/side_bets.py``) applies the
answer.

The settlement does not call ``decide``: each bet carries ``table``, its answers to every
counted throw indexed by ``table_key`` (what the line did, and the ordered throw's
``dice_index``), built once from ``decide`` and shared by every bet with the same terms and
progress. A throw then costs one tuple index per open bet, not a method call, and bets the
line decides (line, point) are read the same way as the bets the dice decide."""

from __future__ import annotations

from functools import lru_cache
from math import gcd

from .errors import CommandError

# decide() answers
OPEN = 0
FOR = 1
AGAINST = -1
COME_POINT = 2
COUNT = 3  # a proposition with "within": no outcome of its own, one more throw seen

# what the line did on a throw (passed to decide())
LINE_NONE = 0
NATURAL = 1
CRAPS = 2
POINT_SET = 3
POINT_MADE = 4
SEVEN_OUT = 5

KIND_RULE = {
    "line": "R-S1",
    "point": "R-S2",
    "come": "R-S3",
    "hardway": "R-S5",
    "number": "R-S6",
    "proposition": "R-S7",
}
POINT_NUMBERS = (4, 5, 6, 8, 9, 10)
HARDWAY_NUMBERS = (4, 6, 8, 10)
MAX_WITHIN = 1000  # the odds module's limit: a longer window is no "throws bet" (R-S7a)


def dice_index(d1: int, d2: int) -> int:
    """Bit position of an ordered throw (d1, d2) in a 36-bit outcome mask."""
    return (d1 - 1) * 6 + (d2 - 1)


def _total_mask(total: int) -> int:
    mask = 0
    for a in range(1, 7):
        b = total - a
        if 1 <= b <= 6:
            mask |= 1 << dice_index(a, b)
    return mask


TOTAL_MASKS = {t: _total_mask(t) for t in range(2, 13)}
# every ordered throw as decide() takes it, (index, total, hard), in dice_index order
THROWS = tuple((dice_index(a, b), a + b, a == b) for a in range(1, 7) for b in range(1, 7))
LINE_RESULTS = (LINE_NONE, NATURAL, CRAPS, POINT_SET, POINT_MADE, SEVEN_OUT)
# the shared decision tables (see decision_table), filled once the bet classes are defined
HARDWAY_TABLES: dict[int, tuple] = {}  # number -> table
NUMBER_TABLES: dict[int, tuple] = {}   # number -> table
COME_TABLES: dict[int | None, tuple] = {}  # come point (None: the bet's come-out) -> table
LINE_TABLES: dict[str, tuple] = {}  # line, point -> table
_PROPOSITION_TABLES: dict[tuple, tuple] = {}  # (wins mask, loses mask, counted) -> table


def _proposition_table(wins_mask: int, loses_mask: int, counted: bool) -> tuple[int, ...]:
    """The shared decision table of a proposition with these outcome masks (``counted``: it
    has "within")."""
    key = (wins_mask, loses_mask, counted)
    table = _PROPOSITION_TABLES.get(key)
    if table is None:
        probe = SideBet(None, "proposition", "", "", 0, 0, {"within": 1} if counted else {},
                        (wins_mask, loses_mask, None, 1 if counted else None))
        table = _PROPOSITION_TABLES[key] = decision_table(probe)
    return table


def table_key(idx: int, line: int) -> int:
    """Where a decision table holds its answer to the ordered throw ``idx`` (``dice_index``)
    when the line did ``line``."""
    return line * 36 + idx


def decision_table(bet: SideBet) -> tuple[int, ...]:
    """``bet.decide`` for each of the 36 ordered throws under each line result, indexed by
    ``table_key`` (what the line did and the throw are known before the bets are settled)."""
    return tuple(bet.decide(idx, total, hard, line)
                 for line in LINE_RESULTS for idx, total, hard in THROWS)


def parse_outcome(value, field: str) -> tuple[int | str, int]:
    """One proposition outcome: a total 2..12 or a combination "6-5" (either order).

    Returns (canonical form, 36-bit mask of the ordered throws it covers).
    """
    if type(value) is int:
        if 2 <= value <= 12:
            return value, TOTAL_MASKS[value]
        raise CommandError(f"{field}: total {value} is not 2..12")
    if isinstance(value, str):
        parts = value.replace("+", "-").split("-")
        if len(parts) == 2 and all(p.strip().isdigit() for p in parts):
            a, b = int(parts[0]), int(parts[1])
            if 1 <= a <= 6 and 1 <= b <= 6:
                hi, lo = max(a, b), min(a, b)
                return f"{hi}-{lo}", (1 << dice_index(a, b)) | (1 << dice_index(b, a))
        raise CommandError(
            f"{field}: {value!r} is not a combination like \"6-5\" or \"3-3\" (faces 1..6)")
    raise CommandError(f"{field}: {value!r} must be a total (2..12) or a combination like \"6-5\"")


def parse_outcomes(value, field: str) -> tuple[list, int]:
    """A list (group) of outcomes, or a single one; returns (canonical list, union mask)."""
    items = value if isinstance(value, list) else [value]
    if not items:
        raise CommandError(f"{field} must name at least one total or combination")
    canon: list = []
    mask = 0
    for item in items:
        c, m = parse_outcome(item, field)
        if c not in canon:
            canon.append(c)
        mask |= m
    return canon, mask


class SideBet:
    """A contract between two players: ``backer`` bets the event happens, ``layer`` that not.

    bet_id: the id the players gave it. kind: its kind, one of ``KIND_RULE``'s. backer, layer:
    the parties (``backing`` and ``laying``, their ledger accounts, are set by the game that
    opens the bet: ``sections/side_bets.py``, ``Game.from_snapshot``). stake_for /
    stake_against: units each side has in escrow; the winner takes both. terms: the kind's
    fields as given to the odds module (canonical form). extra: a proposition's (wins mask,
    loses mask, decision table, within) as ``parse_terms`` gives them; None: parsed from
    ``terms``.

    One class for every kind: what a throw does to a bet of a kind is that kind's rule in
    ``DECIDE``, and the kind's own fields (a come bet's come point, a number, a proposition's
    outcomes and throws seen) are slots set for that kind only. Not a class a kind, because
    the settlement reads the same fields of every open bet on every throw, and this Python
    (3.11) specialises an attribute read for one class: over six classes each such read cost
    about 150 machine instructions more (valgrind, docs/commands.md "Speed").
    """

    __slots__ = ("id", "kind", "backer", "layer", "stake_for", "stake_against", "terms",
                 "table", "keeps_progress",
                 "backing", "laying",  # the parties' ledger Accounts, once the bet is open
                 "come_point", "may_call_off", "carried", "kept_by",  # come (R-S3, R-S4)
                 "number",  # hardway, number (R-S5, R-S6)
                 "wins_mask", "loses_mask", "within", "seen")  # proposition (R-S7)

    def __init__(self, bet_id, kind: str, backer: str, layer: str, stake_for: int,
                 stake_against: int, terms: dict, extra=None) -> None:
        self.id = bet_id
        self.kind = kind
        self.backer = backer
        self.layer = layer
        self.stake_for = stake_for
        self.stake_against = stake_against
        self.terms = terms
        # the kind's own fields, the kinds in the order of how often they are made; table:
        # the settlement's answers (see decision_table; None only while the tables are built);
        # keeps_progress: whether a throw can change progress() (what a throw's undo keeps)
        if kind == "proposition":
            if extra is None:  # rebuilt from a snapshot: parse the stored terms again
                within = terms.get("within")
                wm, lm = _parse_proposition(terms["wins"], terms.get("loses"), within)[2:]
                extra = wm, lm, _proposition_table(wm, lm, within is not None), within
            self.wins_mask, self.loses_mask, self.table, within = extra
            self.within = within  # None: no limit on throws
            self.seen = 0
            self.keeps_progress = within is not None
        elif kind == "hardway" or kind == "number":
            number = self.number = terms["number"]
            self.table = (HARDWAY_TABLES if kind == "hardway" else NUMBER_TABLES).get(number)
            self.keeps_progress = False
        elif kind == "come":
            self.come_point: int | None = None
            self.table = COME_TABLES.get(None)
            self.may_call_off = False  # R-S4: the shooter made his point before the come point
            self.carried = False
            self.kept_by: str | None = None  # who said "carry" while the option is open
            self.keeps_progress = True
        elif kind in LINE_KINDS:
            self.table = LINE_TABLES.get(kind)
            self.keeps_progress = False
        else:
            raise ValueError(f"unknown side bet kind {kind!r}; one of {', '.join(KIND_RULE)}")

    @property
    def rule(self) -> str:
        """The rule of the bet's kind (R-S1..R-S7)."""
        return KIND_RULE[self.kind]

    def decide(self, idx: int, total: int, hard: bool, line: int) -> int:
        """What the counted throw (``idx`` its ``dice_index``, ``total``, ``hard``: a pair)
        does to the bet, given what the line did (``line``); changes nothing."""
        return DECIDE[self.kind](self, idx, total, hard, line)

    def set_come_point(self, come_point: int | None) -> None:
        """A come bet's come point (R-S3); None: its own come-out is still to come."""
        self.come_point = come_point
        self.table = COME_TABLES[come_point]

    def callable_by_either(self) -> bool:
        """Whether either party may call the bet off now (R-S6; R-S4 for come bets)."""
        if self.kind == "come":
            return self.may_call_off
        return self.kind == "number"

    # -- snapshot -------------------------------------------------------------------------
    def progress(self) -> dict:
        """The kind's state that changes while the bet is open (for snapshots)."""
        if self.kind == "come":
            d = {"come_point": self.come_point, "may_call_off": self.may_call_off,
                 "carried": self.carried}
            if self.kept_by is not None:
                d["kept_by"] = self.kept_by
            return d
        if self.kind == "proposition" and self.within is not None:
            return {"throws_seen": self.seen}
        return {}

    def restore(self, progress: dict) -> None:
        """Put back what ``progress()`` gave."""
        if self.kind == "come":
            self.set_come_point(progress["come_point"])
            self.may_call_off = progress["may_call_off"]
            self.carried = progress["carried"]
            self.kept_by = progress.get("kept_by")
        elif self.kind == "proposition":
            self.seen = progress.get("throws_seen", 0)

    def public(self) -> dict:
        d = {
            "id": self.id, "kind": self.kind, "for": self.backer, "against": self.layer,
            "stakes": {self.backer: self.stake_for, self.layer: self.stake_against},
        }
        for k, v in self.terms.items():
            d[k] = list(v) if isinstance(v, list) else v
        d.update(self.progress())
        return d

    def to_dict(self) -> dict:
        return {
            "id": self.id, "kind": self.kind, "backer": self.backer, "layer": self.layer,
            "stake_for": self.stake_for, "stake_against": self.stake_against,
            "terms": {k: list(v) if isinstance(v, list) else v for k, v in self.terms.items()},
            "progress": self.progress(),
        }


# Each kind's rule: what one counted throw does to a bet of that kind (SideBet.decide).

def decide_line(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S1: right (for: the dice pass) against wrong, decided like the line."""
    if line == NATURAL or line == POINT_MADE:
        return FOR
    if line == CRAPS or line == SEVEN_OUT:
        return AGAINST
    return OPEN


def decide_point(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S2: the shooter makes his point (for) or sevens out (against)."""
    if line == POINT_MADE:
        return FOR
    if line == SEVEN_OUT:
        return AGAINST
    return OPEN


def decide_come(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S3/R-S4: the dice pass counting from the next throw, the bet's own come-out."""
    cp = bet.come_point
    if cp is None:
        if total == 7 or total == 11:
            return FOR
        if total == 2 or total == 3 or total == 12:
            return AGAINST
        return COME_POINT
    if total == cp:
        return FOR
    if total == 7:
        return AGAINST
    return OPEN


def decide_hardway(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S5: the number thrown as a pair before a 7 or before it is thrown "easy"."""
    if total == bet.number:
        return FOR if hard else AGAINST
    if total == 7:
        return AGAINST
    return OPEN


def decide_number(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S6: an agreed total before a 7; either party may call it off before it is decided."""
    if total == bet.number:
        return FOR
    if total == 7:
        return AGAINST
    return OPEN


def decide_proposition(bet: SideBet, idx: int, total: int, hard: bool, line: int) -> int:
    """R-S7: a ``wins`` outcome within n throws and/or before a ``loses`` outcome. COUNT:
    the throw counts towards "within"; the bet is lost (AGAINST) on the throw that reaches
    it (the settlement counts)."""
    bit = 1 << idx
    if bet.wins_mask & bit:
        return FOR
    if bet.loses_mask & bit:
        return AGAINST
    if bet.within is not None:
        return COUNT
    return OPEN


DECIDE = {"line": decide_line, "point": decide_point, "come": decide_come,
          "hardway": decide_hardway, "number": decide_number,
          "proposition": decide_proposition}
LINE_KINDS = ("line", "point")  # decided by the line alone: one table a kind


def _probe(kind: str, **progress) -> SideBet:
    """A bet of ``kind`` with no parties, to ask its decide() (the tables are built from it)."""
    bet = SideBet(None, kind, "", "", 0, 0, {"number": progress.pop("number", 0)})
    for name, value in progress.items():
        setattr(bet, name, value)
    return bet


HARDWAY_TABLES.update(
    {n: decision_table(_probe("hardway", number=n)) for n in HARDWAY_NUMBERS})
NUMBER_TABLES.update(
    {n: decision_table(_probe("number", number=n)) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)})
COME_TABLES.update(
    {cp: decision_table(_probe("come", come_point=cp)) for cp in (None, *POINT_NUMBERS)})
LINE_TABLES.update({kind: decision_table(_probe(kind)) for kind in LINE_KINDS})


def parse_terms(kind: str, cmd: dict) -> tuple[dict, int, tuple | None]:
    """The kind's fields of a side_bet command, checked and in canonical form.

    Returns (terms, key, extra): ``terms`` as given to the odds module and stored with the bet,
    ``key`` a small int standing for them (for the odds caches), ``extra`` the (wins, loses)
    outcome masks of a proposition, its decision table and its "within" (None for other
    kinds). Raises CommandError naming the field and what it should be.
    """
    # the kinds in the order of how often they come here (run_side_bet sends propositions
    # only; parse_side_bet every kind)
    if kind == "proposition":
        try:  # a subscript, not "in" and a subscript: one lookup
            wins = cmd["wins"]
        except KeyError:
            raise CommandError("proposition bet needs \"wins\": a total, a combination like "
                               "\"6-5\", or a list of them") from None
        loses, within = cmd.get("loses"), cmd.get("within")
        # the same proposition is usually offered again and again: its parsing is cached; the
        # keys must tell the types apart, else True or 8.0 would hit the entries of 1 and 8.
        # Lists (the usual form) go by one key in a plain dict, which holds the finished
        # result: the values alone when each is an int or a str (what JSON gives a well-formed
        # outcome; those equal only their own type), else the values and their types (keys of
        # three, four or six items: no shape meets another). The types are checked with
        # type() in a loop, one specialised bytecode each, not with map(type, ...), a call
        # through C per value, and each list on its own, not the two joined (valgrind,
        # docs/commands.md "Speed")
        if type(wins) is list and (loses is None or type(loses) is list):
            for value in wins:
                if type(value) is not int and type(value) is not str:
                    raw = _typed_key(wins, loses, within)
                    break
            else:
                if loses is None:
                    raw = (tuple(wins), within, type(within))
                else:
                    for value in loses:
                        if type(value) is not int and type(value) is not str:
                            raw = _typed_key(wins, loses, within)
                            break
                    else:
                        raw = (tuple(wins), tuple(loses), within, type(within))
            try:
                parsed = _PROPOSITIONS_PARSED.get(raw)
            except TypeError:  # something unhashable: the uncached parse says what is wrong
                raw = parsed = None
            if parsed is None:
                terms, key, wm, lm = _parse_proposition(wins, loses, within)
                parsed = terms, key, (wm, lm, _proposition_table(wm, lm, within is not None),
                                     within)
                if raw is not None and len(_PROPOSITIONS_PARSED) < 4096:
                    _PROPOSITIONS_PARSED[raw] = parsed
            return parsed
        w = (tuple(wins), tuple(map(type, wins))) if type(wins) is list else (
            _ONE, wins, type(wins))
        lo = None if loses is None else (tuple(loses), tuple(map(type, loses))) if type(
            loses) is list else (_ONE, loses, type(loses))
        try:
            terms, key, wm, lm = _parse_proposition_cached((w, lo, within, type(within)))
        except TypeError:  # something unhashable: the uncached parse says what is wrong
            terms, key, wm, lm = _parse_proposition(wins, loses, within)
        return terms, key, (wm, lm, _proposition_table(wm, lm, within is not None), within)
    if kind == "hardway":
        n = cmd.get("number")
        parsed = HARDWAY_TERMS_PARSED.get(n) if type(n) is int else None
        if parsed is None:
            raise CommandError(f"hardway bet needs \"number\": one of 4, 6, 8, 10 (got {n!r})")
        return parsed
    if kind == "number":
        n = cmd.get("number")
        parsed = NUMBER_TERMS_PARSED.get(n) if type(n) is int else None
        if parsed is None:
            raise CommandError(f"number bet needs \"number\": a total 2..12 other than 7 "
                               f"(got {n!r})")
        return parsed
    if kind in NO_TERM_KINDS:
        return NO_TERMS
    raise CommandError(f"unknown side bet kind {kind!r}; one of {', '.join(KIND_RULE)}")


NO_TERMS = ({}, 0, None)  # line, point, come: no fields (the dict is never mutated)
# what parse_terms returns for each valid number (the terms dicts are shared: never mutated)
HARDWAY_TERMS_PARSED = {n: ({"number": n}, n, None) for n in HARDWAY_NUMBERS}
NUMBER_TERMS_PARSED = {n: ({"number": n}, n, None) for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)}
# ... and the terms dicts alone, by number (a point bet's number is the point)
HARDWAY_TERMS = {n: parsed[0] for n, parsed in HARDWAY_TERMS_PARSED.items()}
NUMBER_TERMS = {n: parsed[0] for n, parsed in NUMBER_TERMS_PARSED.items()}
POINT_TERMS = {n: {"number": n} for n in POINT_NUMBERS}
_PROPOSITIONS_PARSED: dict[tuple, tuple] = {}  # raw fields and their types -> parse_terms'
NO_TERM_KINDS = ("line", "point", "come")
_PROPOSITION_KEYS: dict[tuple, int] = {}  # canonical terms -> a small int (cheap cache keys)
_PROPOSITION_TERMS: list[dict] = []       # ... and back
PRICED_PROPOSITIONS: set[int] = set()  # the keys win_odds priced (Game.rebuild asks it once)
_ONE = object()  # marks a single outcome (not a list) in a parse cache key


def _typed_key(wins: list, loses: list | None, within) -> tuple:
    """parse_terms' cache key of lists holding a value that is no int nor str."""
    return (tuple(wins), tuple(map(type, wins)), None if loses is None else tuple(loses),
            None if loses is None else tuple(map(type, loses)), within, type(within))


def _unraw(value: tuple):
    return value[1] if value[0] is _ONE else list(value[0])


@lru_cache(maxsize=4096)
def _parse_proposition_cached(raw: tuple) -> tuple[dict, int, int, int]:
    wins, loses, within, _ = raw
    return _parse_proposition(_unraw(wins), None if loses is None else _unraw(loses), within)


def _parse_proposition(wins, loses, within) -> tuple[dict, int, int, int]:
    """(terms, key, wins mask, loses mask) of a proposition's fields."""
    wins, wins_mask = parse_outcomes(wins, "wins")
    terms: dict = {"wins": wins}
    loses_mask = 0
    if loses is not None:
        loses, loses_mask = parse_outcomes(loses, "loses")
        if wins_mask & loses_mask:
            raise CommandError("proposition: \"wins\" and \"loses\" share an outcome; "
                               "a throw must decide one way")
        terms["loses"] = loses
    if within is not None:
        if type(within) is not int or not 1 <= within <= MAX_WITHIN:
            raise CommandError(f"proposition \"within\" must be a count of throws "
                               f"1..{MAX_WITHIN} (got {within!r})")
        terms["within"] = within
    elif not loses_mask:
        raise CommandError("proposition needs \"within\" (n throws) or \"loses\" (e.g. [7] "
                           "for \"before a 7\"), else it could never be decided")
    canonical = (tuple(wins), None if loses is None else tuple(loses), within)
    key = _PROPOSITION_KEYS.get(canonical)
    if key is None:
        key = _PROPOSITION_KEYS[canonical] = len(_PROPOSITION_TERMS)
        _PROPOSITION_TERMS.append(terms)
    return terms, key, wins_mask, loses_mask


@lru_cache(maxsize=4096)
def win_odds(kind: str, key: int, point: int | None) -> tuple[int, int, str]:
    """The backer's chance as (numerator, denominator, "num/den"); raises CommandError for
    terms the odds module cannot price (a malformed bet)."""
    # imported here so the engine itself never needs the odds module until a side bet is made
    from tablectl.odds import side_bet_win_probability

    if kind == "proposition":
        terms = {k: list(v) if type(v) is list else v
                 for k, v in _PROPOSITION_TERMS[key].items()}
    elif kind in ("hardway", "number"):
        terms = {"number": key}
    else:
        terms = {}
    try:
        p = side_bet_win_probability(kind, terms, point)
    except ValueError as exc:  # terms the odds module cannot price: a malformed bet
        raise CommandError(f"side_bet: {exc}") from exc
    return p.numerator, p.denominator, f"{p.numerator}/{p.denominator}"


@lru_cache(maxsize=65536)
def true_odds(kind: str, key: int, point: int | None, stake_for: int,
              stake_against: int) -> tuple[str, str, str]:
    """``p_win``, ``ev_for``, ``ev_against`` as "num/den" strings (the EVs in units).

    The EV of "for" is p*stake_against - (1-p)*stake_for, computed in integers over den.
    """
    num, den, p_text = win_odds(kind, key, point)
    ev = num * stake_against - (den - num) * stake_for
    g = gcd(ev, den)
    ev //= g
    den //= g
    return p_text, f"{ev}/{den}", f"{-ev}/{den}"


def bet_from_dict(d: dict) -> SideBet:
    """Rebuild a bet from ``SideBet.to_dict()``."""
    bet = SideBet(d["id"], d["kind"], d["backer"], d["layer"], d["stake_for"],
                  d["stake_against"], d["terms"])
    bet.restore(d["progress"])
    return bet
