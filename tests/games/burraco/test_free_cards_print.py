"""The blank score cards of an evening of free matches print right on A4 in every
language, two and four a page: each card its table and match, the target, a row per hand
with both lines' running totals, the winner and the signatures, no VP table; no word
outside its card or in the page's margin. From the desk, a sitting of free matches gets
these cards, not a tournament's turn card.

The pages are written as PNG to var/screenshots/print/<language>/free-score-cards-N.png
(PAGE_SCREENSHOTS=folder for another place) for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.burraco.cards_print import MARGIN, PAGE_H, PAGE_W
from games.burraco.free_cards_print import free_score_cards_pdf, hand_rows
from tests.print_checks import MM, ink_in_margin, needs_poppler, pdf_pages, pdf_to_png

pytestmark = needs_poppler

LANGUAGES = [code for code, _name in settings.LANGUAGES]
SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))
LONG = "Schwarzenberger-Hohenlohe / Müller-Lüdenscheidt"
TABLES = [(t, 1 + t % 2, f"{t} – Rossi / Bianchi", f"{t + 9} – {LONG}") for t in range(1, 6)]


def _cards(per_page: int) -> list[tuple[float, float, float, float]]:
    """The card rectangles of a page, in points."""
    columns = 1 if per_page == 2 else 2
    w, h = PAGE_W / columns - 2 * MARGIN, PAGE_H / 2 - 2 * MARGIN
    out = []
    for slot in range(per_page):
        row, column = divmod(slot, columns)
        x, y = column * PAGE_W / columns + MARGIN, row * PAGE_H / 2 + MARGIN
        out.append((x * MM, y * MM, (x + w) * MM, (y + h) * MM))
    return out


def _inside(word, card) -> bool:
    return (
        card[0] <= word.x0
        and word.x1 <= card[2] + 0.5
        and card[1] <= word.y0
        and word.y1 <= card[3] + 0.5
    )


@pytest.mark.parametrize("per_page", [2, 4])
@pytest.mark.parametrize("language", LANGUAGES)
def test_free_cards_keep_every_word_in_its_card(language: str, per_page: int) -> None:
    data = free_score_cards_pdf(
        event_name="Circolo Burraco – Serata libera del martedì",
        target=2005,
        tables=TABLES,
        language=language,
        per_page=per_page,
    )
    pages = pdf_pages(data)
    assert len(pages) == -(-len(TABLES) // per_page)
    assert all(abs(p.width - PAGE_W * MM) < 1 and abs(p.height - PAGE_H * MM) < 1 for p in pages)
    problems = []
    for page in pages:
        cards = _cards(per_page)
        for word in page.words:
            if not any(_inside(word, card) for card in cards):
                problems.append(f"page {page.number}: {word.text!r} outside every card")
    assert not problems, "\n".join(problems)
    assert not ink_in_margin(data, margin_mm=MARGIN - 1)
    with translation.override(language):
        from django.utils.translation import gettext as _

        heading = _("Table %(number)s, match %(match)s") % {"number": 3, "match": 2}
        total = _("Total NS")
    text = " ".join(w.text for p in pages for w in p.words)
    assert heading.split()[0] in text and "2005" in text
    assert total.split()[0] in text
    # A row numbered for every hand a card holds, and no VP table.
    first = [w.text for w in pages[0].words if _inside(w, _cards(per_page)[0])]
    rows = hand_rows(PAGE_H / 2 - 2 * MARGIN)
    assert rows >= 12
    assert all(str(n) in first for n in range(1, rows + 1))
    assert "VP" not in first and "PV" not in first and "SP" not in first
    pdf_to_png(data, SHOTS / "print" / language / f"free-score-cards-{per_page}")


@pytest.mark.django_db
def test_the_desk_prints_a_sittings_free_cards(settings) -> None:
    from tests.factories import make_organiser
    from tests.games.burraco.builders import burraco_club
    from tests.games.burraco.free_matches.builders import free_evening, start

    club = burraco_club()
    event = free_evening(4, club=club)
    first = start(event, 1, 1, 2)
    start(event, 2, 3, 4)
    referee = Client()
    referee.force_login(make_organiser(club, "referee"))
    desk = referee.get(reverse("burraco-desk", args=[club.slug, event.pk])).content.decode()
    url = reverse("burraco-score-cards", args=[club.slug, event.pk, first.table.round.number])
    assert url in desk
    answer = referee.get(url)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    words = [w.text for p in pdf_pages(answer.content) for w in p.words]
    text = " ".join(words)
    assert "Table 1, match 1" in text and "Table 2, match 1" in text
    assert "Match to 2005" in text and "Winner" in text and "Total EW" in text
    assert "VP" not in words and "Turn" not in words
    assert referee.head(url)["Content-Type"] == "application/pdf"
