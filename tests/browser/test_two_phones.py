"""Two phones at one table: the second learns of the first's deal and cannot overwrite it."""

from __future__ import annotations

import pytest

from games.barbu.submission import deal_submit
from games.models import Deal
from tests.browser.table_entry import enter_deal, save
from tests.factories import make_club, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HEARTS = {
    "dealer": "Anna",
    "contract": "hearts",
    "result": {
        "hearts": {
            "Anna": ["AH", "KH", "QH", "JH"],
            "Bruno": ["TH", "9H", "8H", "7H", "6H"],
            "Carla": ["5H", "4H", "3H", "2H"],
        }
    },
}
BARBU = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}


def test_second_phone_is_told_and_shown_the_new_state(live_server, browser):
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    contexts = [
        browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
        for _ in range(2)
    ]
    try:
        first, second = (context.new_page() for context in contexts)
        first.goto(url)
        second.goto(url)
        enter_deal(second, BARBU, names)  # the second phone is busy with deal 1 too
        enter_deal(first, HEARTS, names)
        save(first)
        assert Deal.objects.get(game=game).contract == "hearts"
        # The busy phone is not reloaded under its thumb: it is told (the page polls every
        # second, so within two seconds of the save).
        second.locator("#refresh-banner").wait_for(state="visible", timeout=2_500)
        save(second)
        problems = second.locator("#server-problems").inner_text()
        assert "Deal 1 was already entered from another phone: Hearts, dealer Anna" in problems
        assert second.locator('input[name="number"]').get_attribute("value") == "2"
        assert second.locator('#score-table tr[data-deal="1"]').count() == 1
        assert Deal.objects.filter(game=game).count() == 1
    finally:
        for context in contexts:
            context.close()


def test_an_idle_second_phone_shows_the_new_deal_within_two_seconds(live_server, browser):
    game = make_game(make_club(language="en"))
    url = f"{live_server.url}/t/{game.table.key}/"
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(url)
        assert phone.locator('#score-table tr[data-deal="1"]').count() == 0
        deal_submit(game_id=game.pk, deal=BARBU, by_label="Table 1, seat 1 (Anna)")
        phone.locator('#score-table tr[data-deal="1"]').wait_for(timeout=2_500)
    finally:
        context.close()
