"""A Barbu table phone without a network (static/offline_queue.js, entry.js and the
service worker static/table_worker.js): its deals are kept, survive a reload and a
restart, and are stored once each, in order, when the network returns."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.barbu.selectors import game_record
from games.barbu.submission import deal_submit
from games.models import Deal
from scoring.engine import barbu
from tests.browser.offline_phone import (
    BARBU,
    HEARTS,
    LAST_TWO,
    THREE_DEALS,
    expect_waiting,
    go_offline,
    go_online,
    open_ready,
    phone,
    save_offline,
)
from tests.browser.table_entry import enter_deal
from tests.factories import make_club, make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_three_deals_kept_offline_are_stored_once_in_order(live_server, browser, tmp_path):
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    profile = tmp_path / "phone"
    with phone(browser, profile, live_server) as context:
        page = open_ready(context, url)
        go_offline(context)
        for deal in THREE_DEALS:
            save_offline(page, deal, names)
        expect_waiting(page, "3 deals waiting to be sent")
        assert page.locator("#deal-heading").inner_text() == "Deal 4 · dealer Anna"
        # The contracts the dealer chose offline are not offered again.
        offered = page.locator('input[name="contract"]').evaluate_all(
            "nodes => nodes.map(n => n.value)"
        )
        assert {"barbu", "hearts", "last_two"}.isdisjoint(offered)
        page.reload()  # offline: the service worker's copy, the queue from IndexedDB
        expect_waiting(page, "3 deals waiting to be sent")
        rows = page.locator("#score-table tr.queued")
        assert rows.count() == 3
        assert "(not yet sent)" in rows.first.inner_text()
        expect(page.locator("#offline-provisional")).to_be_visible()
        expect(page.locator('input[name="number"]')).to_have_value("4")
    assert Deal.objects.filter(game=game).count() == 0

    # The phone restarts without a network: the page opens, the deals are still there.
    with phone(browser, profile, live_server, offline=True) as context:
        page = context.new_page()
        page.goto(url)
        expect_waiting(page, "3 deals waiting to be sent")
        # The network returns: the deals go by themselves and the page shows the server's.
        with page.expect_navigation():
            go_online(context)
        page.locator('#score-table tr[data-deal="3"]').wait_for()
        assert page.locator("#score-table tr.queued").count() == 0
        expect(page.locator("#offline")).to_be_hidden()
        shown = page.locator("#score-table tfoot th.total").all_inner_texts()

    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [(d.number, d.contract) for d in deals] == [(1, "barbu"), (2, "hearts"), (3, "last_two")]
    game.refresh_from_db()
    totals = barbu.score_game(game_record(game))["totals"]
    assert game.totals == totals
    assert shown == [str(totals[name]) for name in names]


def test_a_deal_another_phone_stored_first_is_shown_and_resolved(live_server, browser, tmp_path):
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        go_offline(context)
        save_offline(page, BARBU, names)
        save_offline(page, LAST_TWO, names)
        # Meanwhile the second phone, online, stores another deal 1.
        deal_submit(game_id=game.pk, deal={**HEARTS, "number": 1}, by_label="Table 1")
        go_online(context)
        refusal = page.locator('[data-refused="1"]')
        refusal.wait_for()
        text = refusal.inner_text()
        assert "Deal 1 was not stored: Barbu" in text
        assert "Deal 1 was already entered from another phone: Hearts, dealer Anna" in text
        assert "Stored version: Hearts, dealer Anna" in text
        expect_waiting(page, "2 deals waiting to be sent")
        assert "(refused)" in page.locator('#score-table tr[data-queued="1"]').inner_text()
        # Deal 2 waits behind it: nothing was lost, nothing sent out of order.
        assert Deal.objects.filter(game=game).count() == 1
        with page.expect_navigation():
            refusal.get_by_role("button", name="Drop my version").click()
        page.locator('#score-table tr[data-deal="2"]').wait_for()
    deals = Deal.objects.filter(game=game).order_by("number")
    assert [(d.number, d.contract) for d in deals] == [(1, "hearts"), (2, "last_two")]


def test_a_double_tap_offline_keeps_one_deal(live_server, browser, tmp_path):
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        go_offline(context)
        enter_deal(page, BARBU, names)
        page.locator("#save").dblclick()
        page.locator("#score-table tr.queued").first.wait_for()
        page.wait_for_timeout(300)
        assert page.locator("#score-table tr.queued").count() == 1
        expect_waiting(page, "1 deal waiting to be sent")
        with page.expect_navigation():
            go_online(context)
        page.locator('#score-table tr[data-deal="1"]').wait_for()
    assert Deal.objects.filter(game=game).count() == 1


def test_the_page_opens_offline_from_the_service_worker(live_server, browser, tmp_path):
    game = make_game(make_club(language="en"))
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        # Installable to the home screen: Chromium finds nothing missing.
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = json.loads(cdp.send("Page.getAppManifest")["data"])
        assert manifest["start_url"] == f"/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server, offline=True) as context:
        page = context.new_page()
        response = page.goto(url)
        assert response.from_service_worker
        assert page.locator("#deal-heading").inner_text() == "Deal 1 · dealer Anna"
        expect(page.locator("#offline-note")).to_be_visible()
        # Its scripts run (the form's checks) and its styles apply, offline.
        assert page.locator(".checks li.problem").first.inner_text() == "Choose the contract."
        assert (
            page.locator("label.tap > span").first.evaluate(
                "node => getComputedStyle(node).borderRadius"
            )
            != "0px"
        )


@pytest.mark.parametrize(
    ("language", "waiting"),
    [("it", "1 smazzata in attesa di invio"), ("de", "1 Spiel wartet auf das Senden")],
)
def test_offline_words_and_width_on_a_phone(live_server, browser, tmp_path, language, waiting):
    game = make_game(
        make_club(language=language),
        names=("Valentina Bianchi", "Francesca Ricci", "Massimiliano Neri", "Anna Conti"),
    )
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server, language) as context:
        page = open_ready(context, url)
        go_offline(context)
        save_offline(
            page, {**BARBU, "dealer": names[0], "result": {"king_of_hearts": names[3]}}, names
        )
        expect_waiting(page, waiting)
        expect(page.locator("#offline-note")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390


def test_the_form_moves_on_to_the_next_dealer_offline(live_server, browser, tmp_path):
    # German rules: the deal passes to the left after every deal.
    game = make_game(make_club(language="en", ruleset="german"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        go_offline(context)
        save_offline(page, BARBU, names)
        assert page.locator("#deal-heading").inner_text() == "Deal 2 · dealer Bruno"
        rows = page.locator(".doubles .doubler:visible .who").all_inner_texts()
        assert rows == ["Anna doubles", "Carla doubles", "Dario doubles"]
        # Barbu is Anna's, not Bruno's: he may choose it.
        assert page.locator("#contract-barbu").count() == 1
        bruno_barbu = {
            "dealer": "Bruno",
            "contract": "barbu",
            "doubles": [{"by": "Anna", "against": "Bruno"}],
            "result": {"king_of_hearts": "Carla"},
        }
        save_offline(page, bruno_barbu, names)
        expect_waiting(page, "2 deals waiting to be sent")
        with page.expect_navigation():
            go_online(context)
        page.locator('#score-table tr[data-deal="2"]').wait_for()
    second = Deal.objects.get(game=game, number=2)
    assert second.data["dealer"] == "Bruno"
    assert second.data["doubles"] == [{"by": "Anna", "against": "Bruno", "redoubled": False}]


def test_a_save_whose_answer_is_lost_is_kept_and_stored_once(live_server, browser, tmp_path):
    """The signal drops while the phone believes it is online: the deal reached the server
    but its answer did not. The phone keeps it and sends it again with the same key."""
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    lost = []

    def answer_lost(route):
        route.fetch()  # the server stores the deal...
        lost.append(route.request.headers.get("idempotency-key"))
        route.abort()  # ...and the phone never hears back

    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        page.route("**/deal/", answer_lost)
        enter_deal(page, BARBU, names)
        page.locator("#save").click()
        page.locator("#score-table tr.queued").first.wait_for()
        expect_waiting(page, "1 deal waiting to be sent")
        assert page.locator("#deal-heading").inner_text() == "Deal 2 · dealer Anna"
        assert Deal.objects.filter(game=game).count() == 1
        page.unroute("**/deal/")
        # Sent again by itself (every 5 s while deals wait): the server's first answer.
        page.locator('#score-table tr[data-deal="1"]').wait_for(timeout=15_000)
        # Each resend under the same key was answered with the first answer: stored once.
        told = page.locator(".flash").all_inner_texts()
        assert told[0] == "Deal 1 saved."
        assert set(told[1:]) == {"Deal 1 was already saved; nothing changed."}
    assert lost and len(set(lost)) == 1
    assert Deal.objects.filter(game=game).count() == 1


def test_the_table_kept_in_one_language_opens_offline_from_the_card_address(
    live_server, browser, tmp_path
):
    """Opened at /it/t/<key>/, the table opens offline at /t/<key>/ too (the card's QR
    code, and the home-screen icon's address)."""
    game = make_game(make_club(language="it"))
    key = game.table.key
    with phone(browser, tmp_path / "phone", live_server, "it") as context:
        open_ready(context, f"{live_server.url}/it/t/{key}/")
    with phone(browser, tmp_path / "phone", live_server, "it", offline=True) as context:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{key}/")
        expect(page.locator("#deal-heading")).to_have_text("Smazzata 1 · mazziere Anna")


def test_the_page_reloads_once_when_its_waiting_deal_is_stored(live_server, browser, tmp_path):
    """Stored, the waiting deal reloads the page; the poll of the table's state, free again
    as nothing waits, must not reload it a second time while the first reload is on its
    way (seen in CI: the first navigation aborted by the second). The page's answer takes
    2.5 s, as on a slow network (less than the service worker's patience, 4 s)."""
    game = make_game(make_club(language="en"))
    names = list(game.player_names)
    url = f"{live_server.url}/t/{game.table.key}/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)
        go_offline(context)
        save_offline(page, BARBU, names)
        asked: list[str] = []

        def slow_page(route) -> None:
            asked.append(route.request.url)
            time.sleep(2.5)
            with contextlib.suppress(PlaywrightError):  # aborted by a second reload meanwhile
                route.continue_()

        context.route(url, slow_page)
        go_online(context)
        page.locator('#score-table tr[data-deal="1"]').wait_for(timeout=15_000)
        page.wait_for_timeout(1_500)  # a second reload would have asked by now
        assert len(asked) == 1, asked
    assert Deal.objects.filter(game=game).count() == 1
