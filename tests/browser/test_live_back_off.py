"""A live part backs off (static/live.js): told to wait (503 with Retry-After, as the proxy
answers past the site's capacity: docker/haproxy/503.http) it skips its polls for that
long, then polls again; with nothing new for half a minute it polls every third second,
until something changes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_club, seated_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_busy_answer_quiets_the_live_part_for_its_retry_after(browser, live_server) -> None:
    event = seated_event(make_club("Circolo"), 8)
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


def test_a_quiet_live_part_polls_every_third_second_until_something_changes(
    browser, live_server
) -> None:
    from games.core import live

    event = seated_event(make_club("Circolo"), 8)
    url = reverse("scoring:event-live", args=[event.pk])

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.clock.install()
    page.goto(live_server.url + reverse("scoring:event", args=[event.pk]))
    page.clock.pause_at(page.evaluate("Date.now()") + 10)  # its time moves only by run_for
    asked: list[str] = []
    answers: list[int] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith(url) else None)
    page.on("response", lambda r: answers.append(r.status) if r.url.endswith(url) else None)

    def seconds(n: int) -> int:
        """n ticks of the page's clock, each tick's poll (if any) answered: the polls sent."""
        sent = 0
        for _ in range(n):
            asked_before, answered_before = len(asked), len(answers)
            page.clock.run_for(1_000)
            for step in range(60):  # 0.4 s for a poll to leave, 3 s for its answer
                page.wait_for_timeout(50)
                new = len(asked) - asked_before
                if (new and len(answers) - answered_before >= new) or (not new and step >= 7):
                    break
            sent += len(asked) - asked_before
        return sent

    # Polls leave in real time from the paused clock's ticks: a tick's may cross into the
    # next, so the counts allow one either way.
    assert seconds(32) >= 30 and set(answers) == {304}  # nothing new: every second
    assert 3 <= seconds(12) <= 5  # quiet: every third second
    live.touch("event", [event.pk])  # something changed
    seconds(3)
    assert 200 in answers[-2:]  # the next poll brings it
    assert seconds(6) >= 5  # and the polls are every second again
    context.close()
