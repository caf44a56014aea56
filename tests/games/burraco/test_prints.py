"""The Burraco papers print right on A4 in every language: the final ranking (several
pages, long names, penalties, shared places, the tie-break said in full) and the blank
score cards with their VP table (two or four a page). Every page is A4, no word reaches
into the margins, no ink either, every head is printed whole.

The pages are also written as PNG to var/screenshots/print/<language>/ for a person to
look at (PAGE_SCREENSHOTS=folder for another place). The table cards, an HTML page printed
by the browser, are checked in tests/browser/test_burraco_table_cards_print.py."""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games.burraco.cards_print import score_cards_pdf
from scoring.burraco.exports import decided_by_label, printed_columns, ranking_pdf, ranking_rows
from scoring.engine.burraco import PRESETS
from scoring.engine.burraco.ranking import PairRow
from tests.print_checks import (
    a4_problems,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    pdf_to_png,
    words_outside,
)

pytestmark = needs_poppler

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))
LONG = "Maximiliane Hohenzollern-Sigmaringen / Donaudampfschifffahrtskapitän Brünhild"
PAIRS = 48  # a large evening: the ranking runs over a second page


def _rows() -> tuple[list[PairRow], dict[int, str]]:
    rows = []
    for i in range(PAIRS):
        decided = (None, "vp", "mp_difference", "head_to_head", "draw")[i % 5] if i else None
        rows.append(
            PairRow(
                pair=i + 1,
                place=i + 1 - (1 if i == 7 else 0),
                vp=Decimal(80) - Decimal(i) - (Decimal("0.5") if i % 3 else 0),
                mp_difference=1500 - 65 * i,
                turns=4,
                byes=1 if i % 7 == 0 else 0,
                decided_by=None if i == 7 else decided,
                shared=i in (6, 7),
                penalty_vp=Decimal(1) if i == 3 else Decimal(0),
                penalty_mp=105 if i == 3 else 0,
            )
        )
    labels = {r.pair: f"{r.pair} – Rossi / Bianchi" for r in rows}
    labels[2] = f"2 – {LONG}"
    return rows, labels


def _ranking(language: str) -> tuple[bytes, list[list[str]]]:
    rows, labels = _rows()
    with translation.override(language):
        lines = ranking_rows(rows, labels)
        data = ranking_pdf(
            lines,
            title="Circolo Burraco Roma Nord – Torneo di Natale della Vereinsmeisterschaft",
            subtitle=translation.gettext("Burraco pair tournament") + " · 24/11/2026 20:30",
            status=translation.gettext("Final ranking"),
        )
        text = [[str(c) for c in line] for line in lines]
        columns = printed_columns(text)
    return data, [[line[i] for i in columns] for line in text]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_final_ranking_prints_on_a4_in_every_language(language: str) -> None:
    data, lines = _ranking(language)
    pdf_to_png(data, SHOTS / "print" / language / "burraco-ranking", dpi=80)
    pages = pdf_pages(data)
    assert len(pages) >= 2, "48 pairs should need a second page"
    assert not a4_problems(pages)
    assert not words_outside(pages, margin_mm=9)
    assert not ink_in_margin(data, margin_mm=8)
    printed = {w.text for p in pages for w in p.words}
    text = " ".join(w.text for p in pages for w in p.words)
    # Every head whole on every page (repeated on the second), never broken in two.
    broken = [part for head in lines[0] for part in head.split() if part not in printed]
    assert not broken, f"{language}: heads broken: {broken}"
    assert all(lines[0][0] in {w.text for w in p.words} for p in pages)
    # Every pair; a long name wraps at its spaces (a word longer than the column breaks,
    # as on the Barbu sheet, never spills); each tie-break said in full.
    for part in ("Maximiliane", "Hohenzollern-", "Donaudampf", "Brünhild"):
        assert part in text, f"{language}: {part!r} of the long name is missing"
    with translation.override(language):
        for key in ("vp", "mp_difference", "head_to_head", "draw"):
            for part in decided_by_label(key, False).split():
                assert part in printed, f"{language}: {part!r} of the tie-break is missing"
    assert str(PAIRS) in printed and "+1500" in printed and "-105" in printed


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("per_page", [2, 4])
def test_the_blank_score_cards_print_on_a4(language: str, per_page: int) -> None:
    hands = 4
    tables = [(t, f"{t} – Rossi / Bianchi", f"{t + 9} – {LONG}") for t in range(1, 6)]
    data = score_cards_pdf(
        event_name="Torneo del giovedì sera – Circolo Burraco Roma Nord, Sala grande",
        turn=3,
        hands=hands,
        tables=tables,
        vp_table=PRESETS["fibur"].vp_tables[hands],
        language=language,
        per_page=per_page,
    )
    pdf_to_png(data, SHOTS / "print" / language / f"burraco-score-cards-{per_page}", dpi=80)
    pages = pdf_pages(data)
    assert len(pages) == -(-len(tables) // per_page)
    assert not a4_problems(pages)
    assert not words_outside(pages, margin_mm=5)
    assert not ink_in_margin(data, margin_mm=4)
    for page in pages:
        text = " ".join(w.text for w in page.words)
        # Each card carries the whole VP table, up to its last band.
        assert text.count("≥ 2005") == len([t for t in text.split() if t == "Rossi"]) > 0


def test_a4_problems_names_a_page_of_another_size() -> None:
    from tests.print_checks import Page

    letter = Page(1, 612, 792, ())
    a4 = Page(2, 595.3, 841.9, ())
    assert a4_problems([a4]) == []
    assert a4_problems([letter, a4]) == ["page 1: 215.9 x 279.4 mm, not A4 (210 x 297 mm)"]
