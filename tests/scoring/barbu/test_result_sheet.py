"""The PDF result sheet prints right in every language: no word outside its column or the
page, the tie-break said in full, each number column aligned with its head.

Checked on the PDF itself (pdftotext's word boxes) and on its pages drawn as pixels
(pdftoppm); the pages are also written as PNG to var/screenshots/print/<language>/ for a
person to look at (PAGE_SCREENSHOTS=folder for another place)."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.utils import translation

from scoring.barbu.exports import evening_pdf, result_table, sheet_columns
from scoring.barbu.selectors import TIEBREAK_LABELS
from tests.print_checks import (
    MM,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    pdf_to_png,
    words_outside,
)

pytestmark = needs_poppler

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))
MARGIN_MM = 10  # fpdf2's page margins
NAMES = [
    "Valentina Conti",
    "Maximilian Hohenzollern-Sigmaringen",
    "Paola Giovannini",
    "Donaudampfschifffahrtsgesellschaftskapitän Bruno",
    "Sara Marino",
    "Elena Bruno",
]


def _column(rows: list[dict], language: str, index: int) -> tuple[float, float]:
    """A column's left and right edges, in points."""
    with translation.override(language):
        widths = sheet_columns(*result_table(rows))
    left = MARGIN_MM + sum(widths[:index])
    return left * MM, (left + widths[index]) * MM


def _sheet(language: str) -> tuple[bytes, list[str], list[dict]]:
    with translation.override(language):
        labels = [str(TIEBREAK_LABELS[key]) for key in ("tied", "head_to_head", "tied", "wins")]
        rows = [
            {
                "rank": 1 + i - (1 if i in (2, 3) else 0),
                "player": name,
                "points": 412 - 97 * i,
                "games": 4,
                "details": {"wins": 40 + i, "unfinished": 1 if i == 5 else 0},
                "tiebreak_label": labels[i % len(labels)] if i < 5 else "",
            }
            for i, name in enumerate(NAMES)
        ]
        event = SimpleNamespace(
            name="Campionato sociale – Schlussabend der Wintermeisterschaft",
            club=SimpleNamespace(name="Circolo Barbu Demo"),
            starts_at=dt.datetime(2026, 11, 24, 20, 30, tzinfo=dt.UTC),
        )
        tables = [
            {
                "round": 1,
                "table": 1,
                "players": NAMES[:4],
                "totals": {n: 100 - 50 * i for i, n in enumerate(NAMES[:4])},
                "deals_count": 28,
                "deals_target": 28,
                "complete": True,
            }
        ]
        status = {"provisional": True, "sentence": "Provisional: a game is not finished."}
        data = evening_pdf(event, rows, tables, status=status)
    return data, labels, rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_result_sheet_keeps_every_word_on_the_page_and_in_its_column(language: str) -> None:
    data, labels, rows = _sheet(language)
    pdf_to_png(data, SHOTS / "print" / language / "results", dpi=80)
    pages = pdf_pages(data)
    assert not words_outside(pages, margin_mm=MARGIN_MM - 1)
    assert not ink_in_margin(data, margin_mm=MARGIN_MM - 2)
    words = [w for p in pages for w in p.words]
    # The tie-break said in full, every word of it inside the tie-break column.
    text = " ".join(w.text for w in words)
    for label in labels:
        for part in label.split():
            assert part in text, f"{language}: {part!r} of {label!r} is missing"
    left, right = _column(rows, language, 5)
    tail = [w for w in words if w.text == labels[0].split()[-1]]
    assert tail and all(left <= w.x0 and w.x1 <= right for w in tail)
    # Names stay in the player column, even a word longer than it (broken, not spilled);
    # the standings end with the last row's wins (the list of tables follows).
    wins_left, wins_right = _column(rows, language, 4)
    end = max(w.y1 for w in words if wins_left <= w.x0 and w.x1 <= wins_right)
    left, right = _column(rows, language, 1)
    for w in words:
        if w.y1 > end:
            continue
        if any(w.text in name for name in NAMES) and w.x0 < right and w.x1 > left:
            assert left <= w.x0 and w.x1 <= right + 0.5, f"{w.text!r} leaves its column"


@pytest.mark.parametrize("language", LANGUAGES)
def test_number_columns_line_up_with_their_heads(language: str) -> None:
    data, _labels, rows = _sheet(language)
    words = [w for p in pdf_pages(data) for w in p.words]
    with translation.override(language):
        heads = {2: translation.gettext("Points"), 4: translation.gettext("Wins")}
        header, _cells = result_table(rows)
    # Every head printed whole: no "Victoir-/es", no "Ran-/g".
    printed = {w.text for w in words}
    broken = [part for head in header for part in head.split() if part not in printed]
    assert not broken, f"{language}: heads broken over two lines: {broken}"
    for index, head in heads.items():
        left, right = _column(rows, language, index)
        head_word = next(
            w for w in words if w.text == head.split()[-1] and left <= w.x0 and w.x1 <= right
        )
        key = "points" if index == 2 else "wins"
        for row in rows:
            value = str(row[key] if key == "points" else row["details"]["wins"])
            cell = next(w for w in words if w.text == value and left <= w.x0 and w.x1 <= right)
            where = f"{language}: {value} ends at {cell.x1:.1f}"
            assert abs(cell.x1 - head_word.x1) < 1, f"{where}, {head!r} at {head_word.x1:.1f}"
