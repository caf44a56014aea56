"""Two phones at 390 px at a Burraco table (issue 31, item 4): the entering phone sees the
hand's MP (the engine's, from the server) and the totals before saving, and the turn's
clock; the confirming phone, left open, shows how the counted hand was made; the entering
phone undoes its last hand in two steps and the other phone follows; once time is up the
phone marks the hand and the desk lists the late tables. No sideways scroll, no axe
violation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.burraco import tournaments
from games.models import BurracoHand
from scoring.engine import burraco
from tests.browser.score_cards import CARDS, log_in
from tests.browser.walk import Walk
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone(browser, url: str, line: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.locator(f'#line-choice button[value="{line}"]').click()
    page.locator("#my-line").wait_for()
    return context, page, errors


def _engine_score(table) -> dict:
    """The engine's score of score_cards.CARDS, both pozzettos taken."""
    ns = {"melded": {"aces": 4, "high": 10, "low": 10}, "in_hand": 0, "clean": 1}
    ew = {"melded": {"high": 7}, "in_hand": 40}
    full = {"jokers": 0, "twos": 0, "aces": 0, "high": 0, "low": 0}
    ns["melded"], ew["melded"] = {**full, **ns["melded"]}, {**full, **ew["melded"]}
    ns["pozzetto"] = ew["pozzetto"] = True
    return burraco.calculate_hand("NS", ns, ew, table.game.ruleset, 1).score


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_preview_breakdown_and_undo_on_two_phones(live_server, browser, axe):
    event = tournament(4)
    seated = tournaments.turn_seat(event=event, movement="first", time_limit=75)
    table = seated.round.tables.get(number=1)
    url = f"{live_server.url}/t/{table.key}/card/"
    ns_context, ns, ns_errors = _phone(browser, url, "NS")
    ew_context, ew, ew_errors = _phone(browser, url, "EW")
    ns_walk = Walk(ns, live_server.url, "en", "390")
    ew_walk = Walk(ew, live_server.url, "en", "390")
    try:
        # The clock counts down on the phone, minutes and seconds.
        clock = ns.locator("#turn-clock")
        first = clock.inner_text()
        assert first.startswith("Time left: 74:") or first.startswith("Time left: 75:"), first
        ns.wait_for_function(
            "t => document.getElementById('turn-clock').textContent !== t", arg=first
        )

        # Hand 1 counted from the cards: the preview shows the engine's MP before saving.
        ns.check('input[name="mode"][value="cards"]')
        cards = dict(CARDS)
        ns.select_option("#closed", cards.pop("closed"))
        for name, value in cards.items():
            ns.fill(f'input[name="{name}"]', value)
        ns.check('input[name="NS-pozzetto"]')
        ns.check('input[name="EW-pozzetto"]')
        score = _engine_score(table)
        shown = f"Hand 1: NS {score['NS']['score']}, EW {score['EW']['score']}"
        ns.wait_for_function(
            "w => (document.querySelector('#hand-preview li') || {}).textContent === w", arg=shown
        )
        words = ns.locator("#hand-preview").inner_text()
        assert f"Totals with it: NS {score['NS']['score']}, EW {score['EW']['score']}" in words
        assert BurracoHand.objects.filter(game=table.game).count() == 0  # nothing saved yet
        _no_sideways_scroll(ns)
        ns_walk.check("table-card-preview", axe)
        with ns.expect_navigation():
            ns.locator("#save-hand").click()
        stored = BurracoHand.objects.get(game=table.game, number=1)
        assert (stored.ns_mp, stored.ew_mp) == (score["NS"]["score"], score["EW"]["score"])

        # The other phone, left open, shows how hand 1 was made.
        parts = ew.locator("#hand-1-parts")
        parts.wait_for(timeout=2_500)
        text = parts.inner_text()
        for fact in ("closed", "1 clean burraco", "pozzetto taken", "in hand: 40 points"):
            assert fact in text, text
        _no_sideways_scroll(ew)
        ew_walk.check("table-card-breakdown", axe)

        # A wrong hand 2, then undone from the phone that entered it.
        ns.fill("#NS-mp", "1005")
        ns.locator("#hand-preview li").first.wait_for()
        ns.fill("#EW-mp", "-20")
        ns.wait_for_function(
            "() => document.querySelector('#hand-preview').textContent.includes('EW -20')"
        )
        with ns.expect_navigation():
            ns.locator("#save-hand").click()
        ew.locator("#hand-2").wait_for(timeout=2_500)
        assert ew.locator("#undo-hand").count() == 0
        ns.locator("#undo-hand summary").click()
        ns.locator("#undo-confirm").wait_for()
        _no_sideways_scroll(ns)
        ns_walk.check("table-card-undo", axe)
        with ns.expect_navigation():
            ns.locator("#undo-confirm").click()
        assert "Hand 2 undone: enter it again." in ns.content()
        assert ns.locator("#hand-entry h2").inner_text() == "Hand 2"
        ew.locator("#hand-2").wait_for(state="detached", timeout=2_500)
        assert list(
            BurracoHand.objects.filter(game=table.game).values_list("number", flat=True)
        ) == [1]
        assert not ns_errors and not ew_errors, (ns_errors, ew_errors)
        assert not ns_walk.problems and not ew_walk.problems, ns_walk.problems + ew_walk.problems
    finally:
        ns_context.close()
        ew_context.close()


def test_late_tables_on_the_desk_and_the_phone_in_italian(live_server, browser, axe):
    """Time is up: the phone says so and marks the hand saved then; the desk lists the
    late tables; both read at 390 px in Italian."""
    event = tournament(4)
    rnd = tournaments.turn_seat(
        event=event, movement="first", time_limit=60, now=timezone.now() - timedelta(minutes=61)
    ).round
    table = rnd.tables.get(number=1)
    make_organiser(event.club, "referee")
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        extra_http_headers={"Accept-Language": "it"},
    )
    try:
        phone = context.new_page()
        walk = Walk(phone, live_server.url, "it", "390")
        phone.goto(f"{live_server.url}/t/{table.key}/card/")
        phone.locator('#line-choice button[value="NS"]').click()
        phone.locator("#my-line").wait_for()
        assert "Tempo scaduto" in phone.locator("#turn-clock").inner_text()
        phone.fill("#NS-mp", "300")
        phone.fill("#EW-mp", "100")
        with phone.expect_navigation():
            phone.locator("#save-hand").click()
        assert phone.locator("#hand-1-late").inner_text() == "Salvata fuori tempo"
        walk.check("table-card-late", axe)
        desk = context.new_page()
        desk_walk = Walk(desk, live_server.url, "it", "390")
        log_in(desk, live_server.url, f"/manage/{event.club.slug}/events/{event.pk}/burraco/")
        late = desk.locator("#late-tables")
        assert "Tavoli in ritardo" in late.inner_text()
        assert "1 smazzata su 3" in desk.locator("#late-table-1").inner_text()
        assert "tavolo 1 (smazzata 1)" in desk.locator("#late-hands").inner_text()
        desk_walk.check("desk-late-tables", axe)
        assert not walk.problems and not desk_walk.problems, walk.problems + desk_walk.problems
    finally:
        context.close()
