"""An evening of free matches in a browser: the organiser's desk, the public ranking with
its matches, the season's league page and a table's score card (a match being played,
with what each line needs, and a won match with its button for another one) fit a phone
(390 px) and a laptop (1366 px) and pass axe, in Italian, as the tournament pages are held
to (tests/browser/test_burraco_pages.py). Screenshots in var/screenshots/free/."""

from __future__ import annotations

import pytest

from clubs.models import GameChoice
from games.burraco import tournaments
from scoring.rebuild import rebuild_event_standings
from tests.browser.walk import SHOTS, Walk, localised
from tests.factories import make_league, make_organiser
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import MATCH_TO_2005, free_evening, play_match, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 900}}


def test_free_match_pages_fit_and_pass_axe(live_server, browser, axe) -> None:
    language = "it"
    club = burraco_club(language=language)
    league = make_league(club, "Serate libere", game=GameChoice.BURRACO)
    event = free_evening(4, club=club, league=league)
    for p in event.pairs.all():  # checked in: the won match's card offers them a seat
        tournaments.pair_checkin(pair=p)
    make_organiser(club, "referee")
    won = start(event, 1, 1, 2)
    play_match(won, MATCH_TO_2005)
    playing = start(event, 2, 3, 4)
    play_match(playing, MATCH_TO_2005[:4], confirm=False)
    rebuild_event_standings(event_id=event.pk)
    problems: list[str] = []
    for width, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale=language)
        try:
            page = context.new_page()
            walk = Walk(page, live_server.url, language, width)
            walk.folder = SHOTS / "free" / language / width
            walk.folder.mkdir(parents=True, exist_ok=True)
            page.goto(f"{live_server.url}{localised('login', language)}?next=/")
            page.fill("#id_username", "referee")
            page.fill("#id_password", "tavolo-test")
            with page.expect_navigation():
                page.locator("main form button[type=submit]").click()
            walk.open("desk", localised("burraco-desk", language, club.slug, event.pk), axe)
            walk.open("ranking", localised("scoring:event", language, event.pk), axe)
            walk.open("season", localised("scoring:league", language, league.pk), axe)
            card = localised("burraco-card", language, playing.table.key)
            walk.open("table-card-line", card, axe)
            with page.expect_navigation():
                page.locator('#line-choice button[value="NS"]').click()
            walk.check("table-card-entry", axe)
            assert "A NS mancano 340 punti per vincere" in page.inner_text("#match-state")
            done = localised("burraco-card", language, won.table.key)
            walk.open("table-card-won", done, axe)
            with page.expect_navigation():
                page.locator('#line-choice button[value="EW"]').click()
            walk.check("table-card-rematch", axe)
            assert page.locator("#rematch button").is_visible()
            problems += walk.problems
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def test_table_cards_and_the_sit_down_page_fit_and_pass_axe(live_server, browser, axe) -> None:
    """The printed table cards (laptop) and the page their QR code opens (a phone at 390
    px): two pairs sit down at table 1 for the evening's first match, in Italian."""
    from games.burraco import free_tables

    language = "it"
    club = burraco_club(language=language)
    event = free_evening(4, club=club)
    for p in event.pairs.all():
        tournaments.pair_checkin(pair=p)
    make_organiser(club, "referee")
    problems: list[str] = []
    for width, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale=language)
        try:
            page = context.new_page()
            walk = Walk(page, live_server.url, language, width)
            walk.folder = SHOTS / "free" / language / width
            walk.folder.mkdir(parents=True, exist_ok=True)
            sit = localised(
                "burraco-free-sit",
                language,
                free_tables.seat_key(event.pk, 1 if width == "390" else 2),
            )
            walk.open("table-sit-down", sit, axe)
            page.select_option("#sit-ns", "1" if width == "390" else "3")
            page.select_option("#sit-ew", "2" if width == "390" else "4")
            with page.expect_navigation():
                page.locator("#sit-submit").click()
            assert "/card/" in page.url
            walk.check("table-sit-down-card", axe)
            page.goto(f"{live_server.url}{localised('login', language)}?next=/")
            page.fill("#id_username", "referee")
            page.fill("#id_password", "tavolo-test")
            with page.expect_navigation():
                page.locator("main form button[type=submit]").click()
            walk.open(
                "free-cards", localised("burraco-free-cards", language, club.slug, event.pk), axe
            )
            assert page.locator(".card svg").count() == 2
            problems += walk.problems
        finally:
            context.close()
    assert not problems, "\n".join(problems)
