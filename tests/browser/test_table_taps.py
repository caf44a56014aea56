"""The table page's shortcuts, in a browser: "all the rest to …" and the demanded doubles'
lines that go once ticked (static/deal_form.js)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.conf import settings

from games.barbu.submission import deal_submit
from tests.factories import NAMES, make_game
from tests.games.barbu.table.pages import anna_without_doubles

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_table(browser, live_server, game):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    host = urlsplit(live_server.url).hostname
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "en", "domain": host, "path": "/"}]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{game.table.key}/")
    return context, page


def test_all_the_rest_of_the_hearts_and_queens_in_one_tap(browser, live_server) -> None:
    game = make_game(names=("Paola Giordano", "Paola Gilli", "Martina Esposito", "Anna Conti"))
    context, page = open_table(browser, live_server, game)
    try:
        page.locator("#contract-hearts").check(force=True)
        page.get_by_role("radio", name="A♥: Martina Esposito", exact=True).check(force=True)
        page.get_by_role("radio", name="K♥: Anna Conti", exact=True).check(force=True)
        rest = page.get_by_role(
            "button", name="Every heart not yet given to Paola Gilli", exact=True
        )
        assert rest.is_visible()
        assert rest.locator("[aria-hidden=true]").inner_text() == "Paola Gil."
        rest.click()
        gilli = page.locator("input[name^=hearts_][value='1']:checked").count()
        assert gilli == 11
        assert page.get_by_role("radio", name="A♥: Martina Esposito", exact=True).is_checked()
        assert page.locator(".checks li.ok").inner_text() == "Ready to save."

        page.locator("#contract-queens").check(force=True)
        page.get_by_role(
            "button", name="Every queen not yet given to Anna Conti", exact=True
        ).click()
        assert page.locator("input[name^=queens_][value='3']:checked").count() == 4
        # The hearts' buttons are hidden with their section.
        assert not page.get_by_role(
            "button", name="Every heart not yet given to Anna Conti", exact=True
        ).is_visible()
    finally:
        context.close()


def test_the_demanded_doubles_lines_go_once_ticked(browser, live_server) -> None:
    game = make_game(names=NAMES)
    deals = anna_without_doubles()
    for deal in deals[:5]:
        deal_submit(game_id=game.pk, deal=deal)
    context, page = open_table(browser, live_server, game)
    try:
        contract = deals[5]["contract"]
        page.locator(f"#contract-{contract}").check(force=True)
        must = page.locator(".doubles .must")
        assert must.is_visible()
        for n, by in enumerate(("Bruno", "Carla", "Dario")):
            assert page.locator(".doubles .must li").nth(n).is_visible()
            page.get_by_role("checkbox", name=f"{by} doubles: Anna", exact=True).check(force=True)
            assert not page.locator(".doubles .must li").nth(n).is_visible()
        # All ticked: no amber line stands beside "Ready to save" (or the deal's checks).
        assert not must.is_visible()
        page.get_by_role("checkbox", name="Carla doubles: Anna", exact=True).uncheck(force=True)
        assert must.is_visible()
        assert page.locator(".doubles .must li").nth(1).is_visible()
    finally:
        context.close()
