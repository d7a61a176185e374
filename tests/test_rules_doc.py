"""docs/rules.md against the code: every rule the code cites is defined there, nothing else is,
the table-rule settings carry their real defaults and the odds tables are the odds module's."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from tablectl.game import TableRules
from tablectl.odds.tables import odds_before, one_roll, table1, table2

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"
# the private-craps rule source, beside the checkout when it is there (not in the repository)
RULES_SOURCE = ROOT.parent / "shared" / "RULES.md"
CODE_DIRS = ("tablectl", "vision", "web")
TEXT_SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".toml", ".txt", ".md"}

# Every rule of the table, by group: (letter, first number, last number).
RULE_GROUPS = (("E", 1, 2), ("P", 1, 1), ("O", 1, 3), ("T", 1, 2), ("B", 1, 6), ("D", 1, 3),
               ("X", 1, 1), ("C", 1, 8), ("S", 0, 7), ("Q", 1, 3), ("I", 1, 5))
RULES = frozenset(f"R-{letter}{n}" for letter, first, last in RULE_GROUPS
                  for n in range(first, last + 1))

RULE_ID = re.compile(r"(?<![A-Za-z0-9])R-[A-Z]\d+(?!\d)")
# a definition: a paragraph (or table row) that opens with the ID in bold
DEFINITION = re.compile(r"^(?:\|\s*)?\*\*(R-[A-Z]\d+)\*\*", re.MULTILINE)
SETTING = re.compile(r"`(\w+)\s*=\s*([^`]+)`")


def doc_text() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def defined_ids(text: str) -> list[str]:
    return DEFINITION.findall(text)


def cited_ids() -> dict[str, list[str]]:
    """Rule ID -> the places ("path:line") in the code that cite it."""
    cited: dict[str, list[str]] = {}
    for top in CODE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in TEXT_SUFFIXES or "__pycache__" in path.parts:
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in enumerate(lines, 1):
                for rule in RULE_ID.findall(line):
                    cited.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{number}")
    return cited


def test_every_rule_the_code_cites_is_defined():
    cited = cited_ids()
    assert len(cited) > 20, "the code should cite the rules it applies (R-C6, R-I3, ...)"
    defined = set(defined_ids(doc_text()))
    missing = {rule: places[:3] for rule, places in sorted(cited.items()) if rule not in defined}
    assert not missing, f"rules cited in the code but not defined in docs/rules.md: {missing}"


def test_the_code_cites_only_known_rules():
    unknown = {rule: places[:3] for rule, places in sorted(cited_ids().items())
               if rule not in RULES}
    assert not unknown, f"the code cites rules the table does not have: {unknown}"


def test_rules_doc_defines_each_rule_exactly_once():
    defined = defined_ids(doc_text())
    repeated = sorted({rule for rule in defined if defined.count(rule) > 1})
    assert not repeated, f"docs/rules.md defines these more than once: {repeated}"
    invented = sorted(set(defined) - RULES)
    assert not invented, f"docs/rules.md defines rules the table does not have: {invented}"
    missing = sorted(RULES - set(defined))
    assert not missing, f"docs/rules.md lacks a definition (**ID** opening a paragraph): {missing}"


def test_each_rule_opens_its_own_paragraph():
    lines = doc_text().splitlines()
    crowded = [line[:40] for i, line in enumerate(lines)
               if DEFINITION.match(line) and not line.startswith("|")
               and i > 0 and lines[i - 1].strip()]
    assert not crowded, f"a rule must start a paragraph (blank line before it): {crowded}"


def test_rule_catalogue_matches_the_rules_source():
    if not RULES_SOURCE.is_file():
        pytest.skip(f"the rules source is not beside the checkout ({RULES_SOURCE})")
    source = set(re.findall(r"^- (R-[A-Z]\d+)\b", RULES_SOURCE.read_text(encoding="utf-8"),
                            re.MULTILINE))
    assert source == RULES, (f"only in {RULES_SOURCE}: {sorted(source - RULES)}; "
                             f"only in this test: {sorted(RULES - source)}")


def test_every_table_rule_is_named_with_its_default():
    text = doc_text()
    defaults = TableRules().to_mapping()
    named: dict[str, list] = {}
    for key, value in SETTING.findall(text):
        if key in defaults:
            named.setdefault(key, []).append(tomllib.loads(f"{key} = {value}")[key])
    assert set(named) == {f.name for f in fields(TableRules)}, (
        f"[rules] keys not named as `key = default` in docs/rules.md: "
        f"{sorted(set(defaults) - set(named))}")
    wrong = {key: values for key, values in named.items()
             if any(value != defaults[key] for value in values)}
    assert not wrong, f"docs/rules.md gives defaults TableRules does not have: {wrong} " \
                      f"(the defaults are {defaults})"


def table_rows(text: str) -> set[tuple[str, ...]]:
    """Every markdown table row of the text as a tuple of its stripped cells."""
    return {tuple(cell.strip() for cell in line.strip().strip("|").split("|"))
            for line in text.splitlines() if line.startswith("|")}


def test_table_1_is_the_odds_modules():
    rows = table_rows(doc_text())
    for row in table1():
        before = row["before_seven_against"] or "-"
        expected = (str(row["total"]), str(row["ways"]), row["one_roll_against"], before)
        assert expected in rows, f"R-Q1 row {expected} not in docs/rules.md"


def test_before_matrix_is_the_odds_modules():
    rows = table_rows(doc_text())
    totals = [t for t in range(2, 13) if t != 7]
    for first in totals:
        expected = (str(first), *("" if second == first else odds_before(first, second)
                                  for second in totals))
        assert expected in rows, f"R-Q1 'before' row {expected} not in docs/rules.md"


def test_table_2_is_the_odds_modules():
    rows = table_rows(doc_text())
    for row in table2():
        half = row["number"] // 2
        expected = (f"{row['number']} ({half}+{half})", str(row["ways_hard"]),
                    str(row["ways_easy"]), str(row["ways_seven"]), str(row["losing_ways"]),
                    row["against"])
        assert expected in rows, f"R-Q2 row {expected} not in docs/rules.md"


def test_one_throw_odds_are_the_odds_modules():
    odds = {row[0].split(" (")[0]: row[-1] for row in table_rows(doc_text()) if len(row) == 3}
    computed = one_roll()
    assert odds.get("one given pair") == computed["specific_pair"]
    assert odds.get("one given mix of two different faces") == computed["specific_combination"]
    assert odds.get("any craps") == computed["any_craps"]
