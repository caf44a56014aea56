"""The referee's desk follows the turn without a reload: the tables' progress, the cards
to look at and the time left come again every 20 seconds (htmx), the forms below stay as
the referee left them."""

from __future__ import annotations

import pytest

from games.burraco import scorecards, tournaments
from tests.browser.walk import localised
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_shows_a_hand_entered_at_a_table_without_a_reload(browser, live_server) -> None:
    event = tournament(4)
    make_organiser(event.club, "referee")
    rnd = tournaments.turn_seat(event=event, movement="first", time_limit=45).round
    table = rnd.tables.get(number=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}{localised('login', 'en')}?next=/")
        page.fill("#id_username", "referee")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        page.goto(live_server.url + localised("burraco-desk", "en", event.club.slug, event.pk))
        badge = page.locator("#desk-table-1 h3 .badge")
        assert badge.inner_text() == "0/3"
        assert "minutes left" in page.locator("#time-left").inner_text()
        page.fill("#id_reason", "typed before the refresh")
        scorecards.hand_submit(
            game_id=table.game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS"
        )
        page.wait_for_function(
            "() => document.querySelector('#desk-table-1 h3 .badge').textContent.trim() === '1/3'",
            timeout=30_000,
        )
        assert page.locator("#desk-table-1").get_by_text("300 – 100").count() == 1
        # The penalty form below was not touched.
        assert page.input_value("#id_reason") == "typed before the refresh"
    finally:
        context.close()
