"""The organiser swaps two deals' contracts on a phone-wide correction page (two deal forms)."""

from __future__ import annotations

import pytest

from games.barbu.submission import deal_submit
from games.models import Deal
from tests.factories import make_club, make_game, make_organiser
from tests.games.barbu.deal_forms import BARBU, HEARTS, TRUMPS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_swap_of_two_deals_on_a_phone(live_server, browser):
    club = make_club("Circolo Barbu", language="en")
    make_organiser(club)
    game = make_game(club)
    for deal in (BARBU, HEARTS, TRUMPS):
        deal_submit(game_id=game.pk, deal=deal)
    names = list(game.player_names)
    first = Deal.objects.get(game=game, number=1)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en")
    try:
        page = context.new_page()
        url = f"/manage/{club.slug}/deals/{first.pk}/correct/"
        page.goto(f"{live_server.url}/accounts/login/?next={url}")
        page.fill("#id_username", "organiser")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        assert url in page.url

        # Deal 1 was Hearts: Anna's Hearts is deal 2's, offered as a swap.
        assert page.locator('label[for="contract-hearts"]').inner_text() == "Hearts · deal 2"
        page.locator('label[for="contract-hearts"]').click()
        for name, cards in HEARTS["result"]["hearts"].items():
            for card in cards:
                page.locator(f'label[for="hearts_{card}-{names.index(name)}"]').click()
        assert page.locator("#checks li.problem").count() == 0
        with page.expect_navigation():
            page.locator("#deal-correct-submit").click()

        # Deal 2's form below, Barbu chosen, its king of hearts still to enter.
        assert "enter deal 2 as Barbu" in page.locator("#swap-notice").inner_text()
        assert page.is_checked("#contract-hearts")
        assert page.is_checked("#swap-contract-barbu")
        assert page.locator('#swap-deal fieldset[data-for="barbu"]').is_visible()
        assert page.locator('#swap-deal fieldset[data-for="hearts"]').is_hidden()
        assert page.locator("#swap-checks li.problem").count() == 1
        assert page.get_attribute("#deal-correct-submit", "aria-disabled") == "true"
        page.locator("#deal-correct-submit").click(force=True)  # the script sends nothing
        assert page.locator("#swap-notice").count() == 1
        assert Deal.objects.get(game=game, number=2).version == 1
        page.locator('label[for="swap-king_of_hearts-2"]').click()
        assert page.locator("#checks li.problem").count() == 0
        assert page.locator("#swap-checks li.problem").count() == 0
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
        page.fill("#id_reason", "swapped at the table")
        with page.expect_navigation():
            page.locator("#deal-correct-submit").click()
        assert f"/games/{game.pk}/" in page.url
        assert "Deals 1 and 2 corrected together." in page.content()
    finally:
        context.close()
    stored = {d.number: d for d in Deal.objects.filter(game=game)}
    assert (stored[1].contract, stored[1].version) == ("hearts", 2)
    assert (stored[2].contract, stored[2].version) == ("barbu", 2)
    assert stored[2].data["result"] == {"king_of_hearts": "Carla"}
