"""The charts drawn on the server (scoring/charts.py): axes with dates and values in the
reader's language, a marker per evening, a table for screen readers, no inline style."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from django.utils import translation

from scoring.charts import ChartPoint, by_evening, line_chart

POINTS = [
    ChartPoint(dt.date(2026, 11, 3), "Serata 1", 5.6),
    ChartPoint(dt.date(2026, 11, 10), "Serata 2", 4.25),
    ChartPoint(dt.date(2026, 11, 17), "Serata <3>", 5.9),
]


def _chart(language: str, points=POINTS, **options) -> str:
    with translation.override(language):
        return str(line_chart(points, label="Rating", value_name="Rating", **options))


def test_values_and_dates_are_written_the_readers_way() -> None:
    german = _chart("de", zero_line=False)
    english = _chart("en", zero_line=False)
    assert ">5,5<" in german and ">5.5<" in english  # a value tick
    assert "5,90" in german or "5,9" in german
    assert "5.9" not in re.sub(r'="[^"]*"', "", german)  # no English number in the text
    assert ">Nov. 3<" in english or ">Nov 3<" in english
    assert ">3. Nov.<" in german or ">3. Nov<" in german
    assert "17. Nov 2026" in german  # the marker's and the table's date, the German style


def test_a_marker_per_evening_with_its_name_date_and_value() -> None:
    svg = _chart("en", zero_line=False)
    assert svg.count("<circle") == 3
    titles = re.findall(r"<title>(.*?)</title>", svg)
    assert titles[0] == "Serata 1, 3 Nov 2026: 5.6"
    assert "Serata &lt;3&gt;" in titles[2]  # names are escaped


def test_screen_readers_get_a_name_and_a_table() -> None:
    svg = _chart("it", zero_line=False)
    assert re.search(r'<svg[^>]*role="img"[^>]*aria-label="Rating: 3 [^"]+"', svg)
    table = svg[svg.index('<div class="visually-hidden"><table>') :]
    assert table.count("<tr>") == 4 and "5,6" in table


def test_no_inline_style_and_no_stretching() -> None:
    svg = _chart("fr")
    assert "style=" not in svg
    assert "viewBox" not in svg and 'preserveAspectRatio="none"' not in svg
    # Coordinates are never localised: a German page still writes "12.5", not "12,5".
    for value in re.findall(r'\b(?:x|y|cx|cy|x1|x2|y1|y2)="([^"]+)"', _chart("de")):
        assert re.fullmatch(r"-?\d+(\.\d+)?%?", value), value


def test_points_chart_keeps_zero_and_labels_stay_apart() -> None:
    points = [
        ChartPoint(dt.date(2026, 1, 1) + dt.timedelta(days=7 * i), f"E{i}", -40 + 30 * i)
        for i in range(30)
    ]
    svg = _chart("en", points=points)
    assert 'class="zero"' in svg
    xs = [float(x) for x in re.findall(r'<text x="([\d.]+)%"', svg)]
    assert len(xs) >= 3
    assert all(b - a >= 27 for a, b in itertools.pairwise(xs))


def test_one_point_per_evening_the_value_it_ended_on() -> None:
    when = dt.datetime(2026, 11, 3, 20, 30, tzinfo=dt.UTC)
    rows = [
        {"event_id": 1, "event": "A", "date": when, "total": 10},
        {"event_id": 1, "event": "A", "date": when, "total": 25},
        {"event_id": 2, "event": "B", "date": when + dt.timedelta(days=7), "total": 5},
    ]
    points = by_evening(rows, "total")
    assert [(p.evening, p.value) for p in points] == [("A", 25.0), ("B", 5.0)]
    assert points[0].when == dt.date(2026, 11, 3)


def test_no_points_no_chart() -> None:
    assert _chart("en", points=[]) == ""


@pytest.mark.parametrize("language", ["en", "it", "es", "de", "fr"])
def test_a_single_evening_is_drawn_in_the_middle(language: str) -> None:
    svg = _chart(language, points=POINTS[:1])
    assert 'cx="50.0%"' in svg
