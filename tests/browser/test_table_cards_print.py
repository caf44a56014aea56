"""The table cards print right on A4 in every language: in print (at a laptop's width and
at A4's) each card holds all its text, the caption and the URL inside its border; the PDF
Chromium prints (page.pdf, A4) has nothing in the page margins and no word off the page.

The printed pages are written as PNG to var/screenshots/print/<language>/table-cards-N.png
(PAGE_SCREENSHOTS=folder for another place) for a person to look at."""

from __future__ import annotations

import pytest

from clubs.models import Club, Player
from demo.loader import DEMO_SLUG, load_demo
from games.models import Event
from tests.browser.prints import CARD_BOXES_JS, WIDTHS
from tests.browser.walk import LANGUAGES, SHOTS, localised, log_in
from tests.print_checks import ink_in_margin, needs_poppler, pdf_pages, pdf_to_png, words_outside

pytestmark = [pytest.mark.browser, needs_poppler, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_with_long_words() -> None:
    """The demo club, its running evening named with a long German word and a player with
    a long name, as a club might."""
    load_demo(force=True)
    club = Club.objects.get(slug=DEMO_SLUG)
    Event.objects.filter(club=club, status=Event.Status.RUNNING).update(
        name="Vereinsmeisterschaftsabschlussabend Barbu-Wintermeisterschaft"
    )
    seated = Player.objects.filter(seats__table__round__event__status=Event.Status.RUNNING)
    player = seated.order_by("pk").first()
    player.name = "Maximiliane Hohenzollern-Sigmaringen"
    player.save()


def test_table_cards_print_inside_their_borders_in_every_language(
    browser, live_server, demo_with_long_words
) -> None:
    club = Club.objects.get(slug=DEMO_SLUG)
    running = Event.objects.get(club=club, status=Event.Status.RUNNING)
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(viewport=WIDTHS["1366"], locale=language)
        page = context.new_page()
        log_in(page, live_server.url, language)
        page.goto(live_server.url + localised("table-cards", language, club.slug, running.pk, 1))
        assert page.locator(".card").count() >= 4
        page.emulate_media(media="print")
        for width, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            problems += [f"[{language} {width}] {p}" for p in page.evaluate(CARD_BOXES_JS)]
        data = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        pdf_to_png(data, SHOTS / "print" / language / "table-cards", dpi=80)
        pages = pdf_pages(data)
        problems += [f"[{language} pdf] {p}" for p in words_outside(pages, margin_mm=9)]
        problems += [f"[{language} pdf] {p}" for p in ink_in_margin(data, margin_mm=8)]
        text = " ".join(w.text for p in pages for w in p.words)
        if not ("Maximiliane" in text and "Sigmaringen" in text):
            problems.append(f"[{language} pdf] the long name is not printed whole: {text[:200]}")
        context.close()
    assert not problems, "\n".join(problems)
