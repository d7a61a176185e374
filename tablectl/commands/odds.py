"""``tablectl odds [--json]``: the true-odds tables of RULES.md (R-Q1..R-Q3, R-C8)."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="print the true-odds tables (R-Q1..R-Q3) and the line's odds (R-C8)",
        description="Print the exact true odds of private craps: per total (R-Q1), hardways "
        "(R-Q2), one-throw bets (R-Q3) and the dice's chance on the line (R-C8).",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (the shape in docs/odds.md)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from tablectl.odds import odds_report

    report = odds_report()
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        sys.stdout.write(render_text(report))
    return 0


def _table(headers: list[str], rows: list[list[object]]) -> list[str]:
    cells = [[("-" if v is None else str(v)) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in cells]
    return [line.rstrip() for line in lines]


def render_text(report: dict) -> str:
    """The report as readable tables (the same figures as ``--json``, plus R-Q1's
    total-before-total odds for every pair of totals)."""
    from tablectl.odds import odds_before

    out = ["Table 1 (R-Q1): per total, ways out of 36 and odds against"]
    out += _table(
        ["total", "ways", "in one throw", "before a 7"],
        [
            [r["total"], r["ways"], r["one_roll_against"], r["before_seven_against"]]
            for r in report["table1"]
        ],
    )
    out += ["", "Odds against the row total coming before the column total (R-Q1)"]
    totals = [t for t in range(2, 13) if t != 7]
    out += _table(
        ["before", *map(str, totals)],
        [[a, *(("" if a == b else odds_before(a, b)) for b in totals)] for a in totals],
    )
    out += ["", "Table 2 (R-Q2): hardways, hard before 7 or easy"]
    out += _table(
        ["number", "hard", "easy", "sevens", "losing ways", "against"],
        [
            [r["number"], r["ways_hard"], r["ways_easy"], r["ways_seven"], r["losing_ways"],
             r["against"]]
            for r in report["table2"]
        ],
    )
    one = report["one_roll"]
    out += [
        "",
        "One-throw bets (R-Q3), odds against",
        f"  a specific pair (3+3):            {one['specific_pair']}",
        f"  a specific combination (6+5):     {one['specific_combination']}",
        f"  any craps (2, 3, 12):             {one['any_craps']}",
        "",
        f"The dice win the line (R-C8):       {report['dice_win']}",
        f"Shooter's disadvantage (R-C8):      {report['shooter_disadvantage']}",
    ]
    return "\n".join(out) + "\n"
