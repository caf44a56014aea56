"""A Barbu table phone without a network (static/offline_queue.js, entry.js and the
service worker static/table_worker.js): its deals are kept, survive a reload and a
restart, and are stored once each, in order, when the network returns."""

from __future__ import annotations

import pytest

from games.barbu.selectors import game_record
from games.models import Deal
from scoring.engine import barbu
from tests.browser.offline_phone import THREE_DEALS, open_ready, phone, save_offline, waiting_text
from tests.factories import make_club, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_three_deals_kept_offline_are_stored_once_in_order(live_server, browser, tmp_path):
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    profile = tmp_path / "phone"
    with phone(browser, profile, live_server) as context:
        page = open_ready(context, url)
        context.set_offline(True)
        for deal in THREE_DEALS:
            save_offline(page, deal, names)
        assert waiting_text(page) == "3 deals waiting to be sent"
        assert page.locator("#deal-heading").inner_text() == "Deal 4 · dealer Anna"
        # The contracts the dealer chose offline are not offered again.
        offered = page.locator('input[name="contract"]').evaluate_all(
            "nodes => nodes.map(n => n.value)"
        )
        assert {"barbu", "hearts", "last_two"}.isdisjoint(offered)
        page.reload()  # offline: the service worker's copy, the queue from IndexedDB
        assert waiting_text(page) == "3 deals waiting to be sent"
        rows = page.locator("#score-table tr.queued")
        assert rows.count() == 3
        assert "(not yet sent)" in rows.first.inner_text()
        assert page.locator("#offline-provisional").is_visible()
        assert page.locator('input[name="number"]').get_attribute("value") == "4"
    assert Deal.objects.filter(game=game).count() == 0

    # The phone restarts without a network: the page opens, the deals are still there.
    with phone(browser, profile, live_server, offline=True) as context:
        page = context.new_page()
        page.goto(url)
        assert waiting_text(page) == "3 deals waiting to be sent"
        # The network returns: the deals go by themselves and the page shows the server's.
        with page.expect_navigation():
            context.set_offline(False)
        page.locator('#score-table tr[data-deal="3"]').wait_for()
        assert page.locator("#score-table tr.queued").count() == 0
        assert page.locator("#offline").is_hidden()
        shown = page.locator("#score-table tfoot th.total").all_inner_texts()

    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [(d.number, d.contract) for d in deals] == [(1, "barbu"), (2, "hearts"), (3, "last_two")]
    game.refresh_from_db()
    totals = barbu.score_game(game_record(game))["totals"]
    assert game.totals == totals
    assert shown == [str(totals[name]) for name in names]
