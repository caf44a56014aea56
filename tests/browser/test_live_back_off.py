"""A live part told to wait (503 with Retry-After, as the proxy answers past the site's
capacity: docker/haproxy/503.http) skips its polls for that long, then polls again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.barbu import evenings
from tests.factories import make_club, make_event, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_busy_answer_quiets_the_live_part_for_its_retry_after(browser, live_server) -> None:
    club = make_club("Circolo")
    event = make_event(club)
    players = [make_player(club, f"Player {i}") for i in range(8)]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    evenings.round_seat(event=event, seed=1)
    live = reverse("scoring:event-live", args=[event.pk])

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.clock.install()
    page.goto(live_server.url + reverse("scoring:event", args=[event.pk]))
    asked: list[str] = []
    busy = {"on": True}

    def answer(route):
        asked.append(route.request.url)
        if busy["on"]:
            route.fulfill(status=503, headers={"Retry-After": "4"}, body="busy")
        else:
            route.continue_()

    page.route(f"**{live}", answer)
    page.clock.run_for(1_100)  # the first poll: told to wait 4 s
    page.wait_for_timeout(300)
    assert len(asked) == 1
    page.clock.run_for(3_000)  # three ticks inside the 4 s: none sent
    page.wait_for_timeout(300)
    assert len(asked) == 1
    busy["on"] = False
    page.clock.run_for(2_000)  # past the 4 s: polling again, every second
    page.wait_for_timeout(300)
    assert len(asked) >= 2
    context.close()
