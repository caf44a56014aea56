"""An individual Burraco tournament in a real browser (issue 18, short): the referee
creates it as individual, enters 9 players at the desk and seats the first turn (two
players a side, one resting); on phones (390 x 844) NS's phone enters both tables' hands
and EW's phone confirms; the second turn is seated with new partners. The public ranking
equals the engine's; the desk, the score card and the ranking pass axe."""

from __future__ import annotations

import re

import pytest

from clubs.models import Club
from games.burraco.results import ranking_so_far
from games.models import Event
from tests.browser.score_cards import PASSWORD, go, log_in, play_table
from tests.browser.walk import SHOTS, Walk
from tests.factories import make_club, make_organiser, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 9


def _seat(desk, turn: int) -> tuple[list[frozenset[int]], list[str]]:
    """Seat the next turn from the desk: each line's two player numbers, table card links."""
    desk.select_option("#id_movement", "individual")
    desk.select_option("#id_hands_per_turn", "2")
    go(desk, "#turn-seat-submit")
    assert f"Turn {turn} seated." in desk.content()
    lines = []
    for box in desk.locator(".tables .table-box").all():
        text = box.inner_text()
        for line in ("NS", "EW"):
            found = re.search(rf"{line} (\d+)\. .+? – (\d+)\. ", text)
            assert found, text
            lines.append(frozenset(map(int, found.groups())))
    assert len(lines) == 2 * (PLAYERS // 4)
    assert "Bye" in desk.locator("#byes").inner_text()
    cards = desk.locator("#turn-cards").get_attribute("href")
    desk.goto(desk.url.split("/manage/")[0] + cards)
    links = [a.get_attribute("href") for a in desk.locator("#table-cards a.entry-link").all()]
    desk.go_back()
    return lines, links


def test_a_referee_runs_an_individual_tournament(live_server, browser, axe, eager_tasks) -> None:
    club = make_club("Circolo", slug="circolo", language="en", game=Club.Games.BURRACO)
    make_organiser(club, "referee", PASSWORD)
    names = [make_player(club, f"Solo {n}").name for n in range(1, PLAYERS + 1)]
    base = live_server.url
    referee = browser.new_context(viewport={"width": 1366, "height": 900})
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
        for _ in range(2)
    ]
    try:
        desk = referee.new_page()
        log_in(desk, base, f"/manage/{club.slug}/events/new/")
        desk.fill("#id_name", "Individuale")
        desk.fill("#id_planned_rounds", "2")
        desk.check("#id_individual")
        go(desk, "#event-create-submit")
        event = Event.objects.get(club=club)
        assert event.individual
        for name in names:
            desk.select_option("#id_player", label=name)
            go(desk, "#pair-add-submit")
        assert event.pairs.count() == PLAYERS
        walk = Walk(desk, base, "en", "1366")
        walk.folder = SHOTS / "burraco-individual"
        walk.folder.mkdir(parents=True, exist_ok=True)
        first, links = _seat(desk, 1)
        walk.check("desk", axe)
        ns_phone, ew_phone = (context.new_page() for context in phones)
        for index, link in enumerate(links):
            play_table(ns_phone, ew_phone, link, [(300 + 50 * index, 100), (150, 200)])
        phone_walk = Walk(ew_phone, base, "en", "390")
        phone_walk.folder = walk.folder
        phone_walk.check("table-card-confirmed", axe)
        desk.reload()
        second, _links = _seat(desk, 2)
        assert not set(first) & set(second)  # nobody partners the same player twice
        walk.open("ranking", f"/events/{event.pk}/", axe)
        shown = [
            int(row.get_attribute("id").removeprefix("pair-row-"))
            for row in desk.locator("#pair-ranking tbody tr[id]").all()
        ]
        assert shown == [r.pair for r in ranking_so_far(event)]
        assert not walk.problems + phone_walk.problems, walk.problems + phone_walk.problems
    finally:
        for context in (referee, *phones):
            context.close()
