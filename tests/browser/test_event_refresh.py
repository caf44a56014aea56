"""The organiser's evening page refreshes its rounds every 20 s, but not under the hand.

The guard used to be an htmx trigger filter (a JavaScript expression htmx evaluates, which
the site's CSP forbids); it is now static/organiser.js, cancelling the refresh while a box
in the rounds is ticked or one of their controls has the focus.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.barbu import evenings
from games.barbu.submission import deal_submit
from games.models import Event
from tests.factories import make_club, make_event, make_game, make_organiser, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "tavolo-test"


def test_rounds_refresh_except_while_the_organiser_is_in_them(browser, live_server) -> None:
    club = make_club("Circolo")
    make_organiser(club, password=PASSWORD)
    event = make_event(club)
    players = [make_player(club, f"Player {i}") for i in range(8)]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    evenings.round_seat(event=event, seed=1)
    path = reverse("event-dashboard", args=[club.slug, event.pk])

    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/accounts/login/?next={path}")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"**{path}")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    refreshes: list[str] = []
    page.on("request", lambda r: refreshes.append(r.url) if r.url.endswith(path) else None)

    # The organiser ticks "close even though some games are not finished": no refresh.
    page.locator("#round-1-close-form input[name=force]").check()
    page.clock.run_for(21_000)
    page.wait_for_timeout(500)
    assert refreshes == []
    assert page.locator("#round-1-close-form input[name=force]").is_checked()

    # Unticked and left: the next tick refreshes the rounds.
    page.locator("#round-1-close-form input[name=force]").uncheck()
    page.locator("h1").click()
    page.evaluate("document.activeElement.blur()")
    page.clock.run_for(21_000)
    page.wait_for_timeout(500)
    assert len(refreshes) == 1
    assert errors == []
    context.close()


def test_the_public_live_page_updates_itself_under_the_csp(browser, live_server) -> None:
    """htmx polls the live part every second with eval off and no style of its own, sending
    the ETag it holds: nothing new is a 304 that leaves the page as it is."""
    club = make_club("Circolo")
    event = make_event(club, status=Event.Status.RUNNING)
    players = [make_player(club, f"Player {i}") for i in range(4)]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    evenings.round_seat(event=event, seed=1)
    live = reverse("scoring:event-live", args=[event.pk])

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.clock.install()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    polls: list[tuple[str | None, int]] = []
    page.on(
        "requestfinished",
        lambda r: (
            polls.append((r.headers.get("if-none-match"), r.response().status))
            if r.url.endswith(live)
            else None
        ),
    )
    page.goto(live_server.url + reverse("scoring:event", args=[event.pk]))
    etag = page.locator("#live").get_attribute("data-etag")
    assert etag
    page.clock.run_for(1_100)
    page.wait_for_timeout(500)
    page.clock.run_for(1_100)
    page.wait_for_timeout(500)
    # The installed clock runs on between the jumps too: at least two polls.
    assert len(polls) >= 2, "the live part was not polled twice in 2.2 s"
    assert set(polls) == {(etag, 304)}
    assert page.locator("#live table.standings").count() == 1
    assert errors == []
    context.close()


def test_a_deal_saved_at_a_table_shows_on_the_live_page_within_two_seconds(
    browser, live_server, eager_tasks
) -> None:
    """A viewer of the evening sees the table's progress and the standings follow, both
    within the poll interval and the standings task's short wait (games/core/live.py)."""
    club = make_club("Circolo", language="en")
    event = make_event(club, status=Event.Status.RUNNING)
    game = make_game(club, event=event)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + reverse("scoring:event", args=[event.pk]))
    progress = page.locator("#live ul.tables .num").first
    assert progress.inner_text() == "0/28"
    page.wait_for_timeout(1_200)  # a few polls answered 304: the page is as it was
    deal = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}
    deal_submit(game_id=game.pk, deal=deal, by_label="test")
    page.locator("#live ul.tables .num", has_text="1/28").wait_for(timeout=2_000)
    page.locator("#live table.standings", has_text="Dario").wait_for(timeout=2_000)
    assert errors == []
    context.close()
