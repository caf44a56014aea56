"""The table cards of an evening of free matches print right on A4 in every language, as
the tournament's do (tests/browser/test_table_cards_print.py): in print each card holds
its text, QR code and URL inside its border; the PDF Chromium prints has nothing in the
page margins and no word off the page. PNG pages in var/screenshots/print/<language>/."""

from __future__ import annotations

import pytest

from tests.browser.prints import CARD_BOXES_JS, WIDTHS
from tests.browser.walk import LANGUAGES, SHOTS, localised
from tests.factories import make_organiser
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import free_evening
from tests.print_checks import ink_in_margin, needs_poppler, pdf_pages, pdf_to_png, words_outside

pytestmark = [pytest.mark.browser, needs_poppler, pytest.mark.django_db(transaction=True)]


def test_free_table_cards_print_inside_their_borders(browser, live_server) -> None:
    club = burraco_club()
    event = free_evening(
        8, club=club, name="Vereinsmeisterschaftsabschlussabend freier Burraco-Partien"
    )
    make_organiser(club, "referee")
    problems = []
    for language in LANGUAGES:
        context = browser.new_context(viewport=WIDTHS["1366"], locale=language)
        page = context.new_page()
        page.goto(f"{live_server.url}{localised('login', language)}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        page.goto(live_server.url + localised("burraco-free-cards", language, club.slug, event.pk))
        assert page.locator(".card").count() == 4
        page.emulate_media(media="print")
        for width, viewport in WIDTHS.items():
            page.set_viewport_size(viewport)
            problems += [f"[{language} {width}] {p}" for p in page.evaluate(CARD_BOXES_JS)]
        data = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        pdf_to_png(data, SHOTS / "print" / language / "free-table-cards", dpi=80)
        pages = pdf_pages(data)
        problems += [f"[{language} pdf] {p}" for p in words_outside(pages, margin_mm=9)]
        problems += [f"[{language} pdf] {p}" for p in ink_in_margin(data, margin_mm=8)]
        context.close()
    assert not problems, "\n".join(problems)
