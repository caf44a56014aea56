"""Two phones at a Burraco table (issue 31, items 1 and 2): a double tap on "Save the
hand" stores one hand, and the other line's phone, left open, shows each new hand and then
the confirm button within two seconds, without a reload."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from games.models import BurracoHand
from tests.games.burraco.builders import tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser, url: str, line: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(url)
    page.locator(f'#line-choice button[value="{line}"]').click()
    page.locator("#my-line").wait_for()
    return context, page


def test_a_double_tap_stores_one_hand_and_the_other_phone_follows(live_server, browser):
    event = tournament(4)
    table = tournaments.turn_seat(event=event, movement="first").round.tables.get(number=1)
    url = f"{live_server.url}/t/{table.key}/card/"
    (ns_context, ns), (ew_context, ew) = _phone(browser, url, "NS"), _phone(browser, url, "EW")
    try:
        ew_marker = ew.evaluate("() => (window.stayed = true)")  # gone on a reload
        for number in (1, 2, 3):
            ns.fill("#NS-mp", "300")
            ns.fill("#EW-mp", "100")
            ns.locator("#save-hand").dblclick()
            ns.locator(f"#hand-{number}").wait_for()
            # The other phone shows the hand within two seconds, not reloaded.
            ew.locator(f"#hand-{number}").wait_for(timeout=2_500)
        assert BurracoHand.objects.filter(game=table.game).count() == 3
        ew.locator("#confirm-card").wait_for(timeout=2_500)
        assert ew.evaluate("() => window.stayed") is ew_marker is True
        ew.locator("#confirm-card").click()
        ew.locator("#card-done").wait_for()
        ns.locator("#card-done").wait_for(timeout=2_500)
    finally:
        ns_context.close()
        ew_context.close()
