"""``GET /stats``: the evening's and the whole journal's dice record."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask_babel import gettext as _

from web import statistics
from web.public import journal

bp = Blueprint("stats", __name__)


def _section(name: str, rows: list) -> dict:
    rec = statistics.record(rows)
    return {
        "name": name,
        "rec": rec,
        "chart": statistics.totals_chart_svg(
            rec, title=_("Throws per total: %(name)s", name=name),
            observed_label=_("thrown"), expected_label=_("expected (ways/36)")),
        "ways": statistics.WAYS,
        "totals_test": rec.totals_test,
        "faces_test": rec.faces_test,
        "hands": rec.hands[-12:][::-1],
        "longest": rec.longest_hand,
    }


@bp.get("/stats")
def stats_page():
    rows = journal().rows()
    sections = [_section(_("this evening"), statistics.evening_rows(rows))]
    sections.append(_section(_("the whole journal"), rows))
    return render_template("stats.html", sections=sections, min_expected=statistics.MIN_EXPECTED,
                           biased_p=statistics.BIASED_P)
