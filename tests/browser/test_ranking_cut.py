"""A long ranking on a phone (scoring/views.py RANKING_ROWS): its first rows, "Show the
whole ranking" one tap away, the whole kept by the live part's polls through a change,
and back to the first rows; for a Barbu evening and a Burraco tournament, in Italian (the
texts translated) at 390 px, with the walk's checks (overflow, axe, console errors)."""

from __future__ import annotations

import pytest

from games.core import live
from scoring import views
from tests.browser.walk import VIEWPORTS, Walk, localised
from tests.scoring.test_ranking_cut import barbu_evening, burraco_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = {"barbu": (barbu_evening, "giocatori"), "burraco": (burraco_tournament, "coppie")}


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_shows_the_first_rows_then_the_whole_ranking_through_its_polls(
    browser, live_server, axe, monkeypatch, game
) -> None:
    build, entries = GAMES[game]
    monkeypatch.setattr(views, "RANKING_ROWS", 3)
    event = build()
    context = browser.new_context(viewport=VIEWPORTS["390"], is_mobile=True, locale="it")
    page = context.new_page()
    walk = Walk(page, live_server.url, "it", "390")
    rows = page.locator("#live td.rank")

    walk.open(f"ranking-first-{game}", localised("scoring:event", "it", event.pk), axe)
    assert rows.count() == 3
    cut = page.locator("#ranking-cut")
    assert "Sono mostrat" in cut.inner_text() and f"di 8 {entries}." in cut.inner_text()

    page.get_by_role("link", name="Mostra tutta la classifica").click()
    page.wait_for_load_state()
    walk.check(f"ranking-whole-{game}", axe)
    assert rows.count() == 8
    etag = page.locator("#live").get_attribute("data-etag")
    live.touch("event", [event.pk])  # something changed: the next poll brings a new part
    page.wait_for_function(
        "(etag) => document.getElementById('live').getAttribute('data-etag') !== etag",
        arg=etag,
        timeout=8_000,  # the whole ranking polls every third second
    )
    assert rows.count() == 8, "the poll brought the first rows back"

    page.get_by_role("link", name="Mostra solo le prime 3 righe").click()
    page.wait_for_load_state()
    assert rows.count() == 3
    context.close()
    assert walk.problems == []
