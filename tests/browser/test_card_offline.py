"""A Burraco score card on a phone without a network (static/offline_queue.js,
burraco_offline.js and the service worker static/table_worker.js): its hands are kept,
survive a reload and a restart, and are stored once each, in order, when the network
returns; a hand another phone stored first is shown and resolved on screen."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.burraco import tournaments
from games.burraco.scorecards import card_body, hand_submit
from games.models import BurracoHand, ScoreCard
from tests.browser.offline_phone import expect_waiting, go_offline, go_online, open_ready, phone
from tests.browser.score_cards import fill_cards
from tests.games.burraco.builders import tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _seated_table(**options):
    event = tournament(5, **options)
    return tournaments.turn_seat(event=event, movement="first").round.tables.get(number=1)


def _open_as(context, url: str, line: str = "NS"):
    """The card opened, this phone's line chosen, the page kept for offline use."""
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(url)
    with page.expect_navigation():
        page.locator(f'#line-choice button[value="{line}"]').click()
    return open_ready(context, url)


def _save(page, mp: tuple[int, int] | None) -> None:
    """Type a hand (each line's MP, or counted from the cards) and save it offline."""
    before = page.locator("#card-hands tr.queued").count()
    if mp is None:
        fill_cards(page)
    else:
        page.fill("#NS-mp", str(mp[0]))
        page.fill("#EW-mp", str(mp[1]))
    page.locator("#save-hand").click()
    page.locator("#card-hands tr.queued").nth(before).wait_for()


def _stored(table) -> list[tuple[int, int, int]]:
    return list(
        BurracoHand.objects.filter(game=table.game)
        .order_by("number")
        .values_list("number", "ns_mp", "ew_mp")
    )


def test_three_hands_kept_offline_are_stored_once_in_order(live_server, browser, tmp_path):
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    profile = tmp_path / "phone"
    with phone(browser, profile, live_server) as context:
        page = _open_as(context, url)
        go_offline(context)
        _save(page, (300, 100))
        assert page.locator("#hand-heading").inner_text() == "Hand 2"
        _save(page, None)  # counted from the cards: only the server's engine scores it
        # The next hand's form is a new one: each line's MP, the cards' fields closed.
        assert page.locator('input[name="mode"][value="mp"]').is_checked()
        assert not page.locator("details.cards-fields").evaluate("d => d.open")
        _save(page, (-50, 415))
        expect_waiting(page, "3 hands waiting to be sent")
        # The turn's three hands are in: no form for a fourth.
        expect(page.locator("#hand-entry")).to_be_hidden()
        expect(page.locator("#offline-full")).to_be_visible()
        rows = page.locator("#card-hands tr.queued")
        assert rows.nth(0).inner_text().split("\t") == [
            "1 (not yet sent)",
            "300",
            "100",
            "300",
            "100",
        ]
        assert rows.nth(1).inner_text().split("\t")[1:] == ["…", "…", "…", "…"]
        page.reload()  # offline: the service worker's copy, the queue from IndexedDB
        expect_waiting(page, "3 hands waiting to be sent")
        assert page.locator("#card-hands tr.queued").count() == 3
        expect(page.locator("#offline-provisional")).to_be_visible()
        expect(page.locator("#hand-entry")).to_be_hidden()
    assert _stored(table) == []

    # The phone restarts without a network: the card opens, the hands are still there.
    with phone(browser, profile, live_server, offline=True) as context:
        page = context.new_page()
        page.goto(url)
        expect_waiting(page, "3 hands waiting to be sent")
        # The network returns: the hands go by themselves; the card shows the server's.
        go_online(context)
        page.locator("#card-hands #hand-3").wait_for(timeout=10_000)
        assert page.locator("#card-hands tr.queued").count() == 0
        expect(page.locator("#offline")).to_be_hidden()
        expect(page.locator("#wait-confirm")).to_be_visible()
        shown = page.locator("#hand-3 td").all_inner_texts()[2:]

    hands = _stored(table)
    assert [(n, ns, ew) for n, ns, ew in hands if n != 2] == [(1, 300, 100), (3, -50, 415)]
    card = ScoreCard.objects.get(game=table.game)
    assert card.status == ScoreCard.Status.ENTERED
    totals = card_body(table.game, card)["totals"]
    assert shown == [str(totals["NS"]), str(totals["EW"])]


def test_a_hand_another_phone_stored_first_is_shown_and_resolved(live_server, browser, tmp_path):
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = _open_as(context, url)
        go_offline(context)
        _save(page, (300, 100))
        _save(page, (120, 80))
        # Meanwhile the line's other phone, online, stores another hand 1.
        hand_submit(game_id=table.game.pk, hand={"mp": {"NS": 400, "EW": 200}}, line="NS")
        go_online(context)
        refusal = page.locator('[data-refused="1"]')
        refusal.wait_for(timeout=10_000)
        text = refusal.inner_text()
        assert "Hand 1 was not stored: NS 300 – EW 100" in text
        assert "Hand 1 is already entered: 400–200." in text
        assert "Stored version: NS 400 – EW 200" in text
        expect_waiting(page, "2 hands waiting to be sent")
        assert "(refused)" in page.locator('#card-hands tr[data-queued="1"]').inner_text()
        # Hand 2 waits behind it: nothing lost, nothing sent out of order.
        assert _stored(table) == [(1, 400, 200)]
        refusal.get_by_role("button", name="Drop my version").click()
        page.locator("#card-hands #hand-2").wait_for(timeout=10_000)
        expect(page.locator("#offline")).to_be_hidden()
    assert _stored(table) == [(1, 400, 200), (2, 120, 80)]


def test_a_double_tap_offline_keeps_one_hand(live_server, browser, tmp_path):
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = _open_as(context, url)
        go_offline(context)
        page.fill("#NS-mp", "300")
        page.fill("#EW-mp", "100")
        page.locator("#save-hand").dblclick()
        page.locator("#card-hands tr.queued").first.wait_for()
        page.wait_for_timeout(300)
        assert page.locator("#card-hands tr.queued").count() == 1
        expect_waiting(page, "1 hand waiting to be sent")
        go_online(context)
        page.locator("#card-hands #hand-1").wait_for(timeout=10_000)
    assert _stored(table) == [(1, 300, 100)]


def test_the_phone_checks_what_needs_no_engine_offline(live_server, browser, tmp_path):
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = _open_as(context, url)
        go_offline(context)
        page.fill("#NS-mp", "303")
        page.fill("#EW-mp", "100")
        preview = page.locator("#hand-preview")
        expect(preview).to_have_text("NS: 303 is not a multiple of 5, as every Burraco score is.")
        page.locator("#save-hand").click()
        page.wait_for_timeout(300)
        assert page.locator("#card-hands tr.queued").count() == 0
        page.check('input[name="mode"][value="cards"]')
        page.fill('input[name="NS-melded-jokers"]', "3")
        page.fill('input[name="EW-melded-jokers"]', "2")
        expect(preview).to_have_text("this hand counts 5 jokers, more than the 4 two decks hold")
        page.fill('input[name="EW-melded-jokers"]', "1")
        expect(preview).to_be_hidden()


def test_the_card_opens_offline_from_the_service_worker(live_server, browser, tmp_path):
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = _open_as(context, url)
        # Installable to the home screen, and the icon opens this score card.
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = json.loads(cdp.send("Page.getAppManifest")["data"])
        assert manifest["start_url"] == f"/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server, offline=True) as context:
        page = context.new_page()
        response = page.goto(url)
        assert response.from_service_worker
        assert page.locator("#hand-heading").inner_text() == "Hand 1"
        expect(page.locator("#offline-note")).to_be_visible()


@pytest.mark.parametrize(
    ("language", "waiting", "heading"),
    [
        ("it", "1 smazzata in attesa di invio", "Smazzata 2"),
        ("de", "1 Spiel wartet auf das Senden", "Spiel 2"),
    ],
)
def test_offline_words_and_width_on_a_phone(
    live_server, browser, tmp_path, language, waiting, heading
):
    table = _seated_table()
    url = f"{live_server.url}/{language}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server, language) as context:
        page = _open_as(context, url)
        go_offline(context)
        _save(page, (300, 100))
        expect_waiting(page, waiting)
        assert page.locator("#hand-heading").inner_text() == heading
        expect(page.locator("#offline-note")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390


def test_a_card_kept_offline_still_follows_the_server_while_a_hand_is_typed(
    live_server, browser, tmp_path
):
    """Under the service worker, which keeps the card as it was when first opened, the
    card's in-place refresh still shows the new hand of the line's other phone, and the
    hand being typed on this one stays as typed."""
    table = _seated_table()
    url = f"{live_server.url}/t/{table.key}/card/"
    with phone(browser, tmp_path / "phone", live_server) as context:
        page = open_ready(context, url)  # kept before its line is chosen
        with page.expect_navigation():
            page.locator('#line-choice button[value="NS"]').click()
        page.fill("#NS-mp", "400")
        page.fill("#EW-mp", "200")
        hand_submit(game_id=table.game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
        page.locator("#card-hands #hand-1").wait_for(timeout=5_000)
        page.wait_for_timeout(2_500)  # the polls after it
        assert page.locator("#line-choice").count() == 0
        assert page.locator("#card-hands #hand-1").count() == 1
        assert (page.input_value("#NS-mp"), page.input_value("#EW-mp")) == ("400", "200")
