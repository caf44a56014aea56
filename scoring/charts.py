"""Line charts drawn on the server as SVG (no JavaScript, no CDN): dates along the x axis,
round values along the y axis, a marker per evening, numbers and dates in the reader's
language, and the same figures as a table for screen readers.

The x coordinates are percentages of the plot's width and the y coordinates pixels, with
no viewBox: the chart takes the page's width while its text keeps the page's font size,
never stretched or shrunk (the axis maths, free of Django, is scoring/engine/chart_axes.py).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.engine.chart_axes import nice_ticks, spaced_labels

HEIGHT = 210  # px, the whole drawing
PLOT_TOP, PLOT_BOTTOM = 16, 172  # px, the plot area (values)
LABEL_Y = 196  # px, the baseline of the dates under the x axis
MAX_VALUE_TICKS = 6
# A date label is about 4.5 em wide; on a 390 px phone the plot is about 290 px wide.
MIN_LABEL_GAP = 0.27


@dataclass(frozen=True)
class ChartPoint:
    """One evening on a chart: when it was, its name, and the value after it."""

    when: dt.date
    evening: str
    value: float


def by_evening(rows: Iterable[dict[str, Any]], value: str) -> list[ChartPoint]:
    """The last row of each evening (rows oldest first, with `event_id`, `event`, `date`),
    so a chart has one point per evening with the value the evening ended on."""
    points: dict[int, ChartPoint] = {}
    for row in rows:
        points.pop(row["event_id"], None)  # keep the evenings in the order they ended
        points[row["event_id"]] = ChartPoint(
            when=_local_date(row["date"]), evening=row["event"], value=float(row[value])
        )
    return list(points.values())


def _local_date(when: dt.date | dt.datetime) -> dt.date:
    if isinstance(when, dt.datetime):
        return timezone.localtime(when).date() if timezone.is_aware(when) else when.date()
    return when


def line_chart(
    points: Sequence[ChartPoint],
    *,
    label: str,
    value_name: str,
    zero_line: bool = True,
    tournaments: bool = False,
) -> SafeString:
    """The chart of the points (oldest first), or nothing without any point.

    `label` names the chart (its title for screen readers, the hidden table's caption),
    `value_name` the value (the table's column head); `zero_line` keeps 0 on the y axis;
    `tournaments`: a point is a tournament, not an evening (the summary says so).
    """
    if not points:
        return mark_safe("")
    values = [p.value for p in points]
    low, high = min(values), max(values)
    if zero_line:
        low, high = min(low, 0.0), max(high, 0.0)
    ticks = nice_ticks(low, high, max_ticks=MAX_VALUE_TICKS)
    bottom, top = float(ticks.low), float(ticks.high)

    def y(value: float) -> str:
        share = (value - bottom) / (top - bottom)
        # A string: the template would write a float the reader's way ("12,5" in German).
        return f"{round(PLOT_BOTTOM - share * (PLOT_BOTTOM - PLOT_TOP), 1)}"

    xs = _positions([p.when for p in points])
    decimals = max(ticks.decimals, 1 if any(not float(v).is_integer() for v in values) else 0)
    markers = [
        {
            "x": _percent(x),
            "y": y(p.value),
            "title": _("%(evening)s, %(date)s: %(value)s")
            % {
                "evening": p.evening,
                "date": formats.date_format(p.when, "DATE_FORMAT"),
                "value": _number(p.value, decimals),
            },
        }
        for x, p in zip(xs, points, strict=True)
    ]
    segments = [
        {"x1": a["x"], "y1": a["y"], "x2": b["x"], "y2": b["y"]}
        for a, b in itertools.pairwise(markers)
    ]
    value_ticks = [
        {"y": y(float(v)), "text": _number(float(v), ticks.decimals)} for v in ticks.values
    ]
    date_format = _axis_date_format(points)
    dates = [
        {
            "x": _percent(xs[i]),
            "text": formats.date_format(points[i].when, date_format),
            "anchor": "middle",
        }
        for i in spaced_labels(xs, min_gap=MIN_LABEL_GAP)
    ]
    context = {
        "label": label,
        "value_name": value_name,
        "summary": _summary(label, points, tournaments=tournaments),
        "height": str(HEIGHT),
        "plot_top": str(PLOT_TOP),
        "plot_bottom": str(PLOT_BOTTOM),
        "label_y": str(LABEL_Y),
        "tick_end": str(PLOT_BOTTOM + 5),
        "value_ticks": value_ticks,
        # Room on the left for the longest value ("-12,345"): a wider margin from 6 signs.
        "wide_values": max(len(t["text"]) for t in value_ticks) > 5,
        "zero_y": y(0.0) if zero_line and bottom < 0 < top else "",
        "dates": dates,
        "segments": segments,
        "markers": markers,
        "rows": [
            {
                "evening": p.evening,
                "date": formats.date_format(p.when, "DATE_FORMAT"),
                "value": _number(p.value, decimals),
            }
            for p in points
        ],
    }
    return mark_safe(render_to_string("scoring/_chart.html", context))


def _summary(label: str, points: Sequence[ChartPoint], *, tournaments: bool = False) -> str:
    """What the chart shows, in one line: its name, how many evenings (or tournaments),
    from when to when."""
    first = formats.date_format(points[0].when, "DATE_FORMAT")
    if len(points) == 1:
        if tournaments:
            return _("%(label)s: one tournament, %(date)s") % {"label": label, "date": first}
        return _("%(label)s: one evening, %(date)s") % {"label": label, "date": first}
    if tournaments:
        text = ngettext(
            "%(label)s: %(count)s tournament from %(first)s to %(last)s",
            "%(label)s: %(count)s tournaments from %(first)s to %(last)s",
            len(points),
        )
    else:
        text = ngettext(
            "%(label)s: %(count)s evening from %(first)s to %(last)s",
            "%(label)s: %(count)s evenings from %(first)s to %(last)s",
            len(points),
        )
    return text % {
        "label": label,
        "count": len(points),
        "first": first,
        "last": formats.date_format(points[-1].when, "DATE_FORMAT"),
    }


def _positions(dates: Sequence[dt.date]) -> list[float]:
    """Each date's place along the x axis, 0 to 1, in proportion to the time between them
    (one date, or all on one day: the middle)."""
    first, last = dates[0], dates[-1]
    days = (last - first).days
    if days <= 0:
        if len(dates) == 1:
            return [0.5]
        return [i / (len(dates) - 1) for i in range(len(dates))]
    return [(d - first).days / days for d in dates]


def _percent(share: float) -> str:
    return f"{round(share * 100, 2)}%"


def _number(value: float, decimals: int) -> str:
    return formats.number_format(round(value, decimals), decimal_pos=decimals, use_l10n=True)


def _axis_date_format(points: Sequence[ChartPoint]) -> str:
    """A short date for the axis: day and month, or month and year across years."""
    if points[0].when.year != points[-1].when.year:
        # Translators: a date format (Django's date filter letters): month and year.
        return pgettext("chart axis date", "M Y")
    # Translators: a date format (Django's date filter letters): day and short month name.
    return pgettext("chart axis date", "M j")
