"""The Burraco pages this polish changed, in a browser at a phone's width (390 px) and at
A4 (printed), in Italian and German, with axe: a closed evening's desk (read only), a won
free match's card offering the pairs waiting, a tournament's desk with its entries, and an
individual tournament's public ranking (players named, the VP labelled on the phone).
Screenshots in var/screenshots/<language>/<width>/polish-*.png."""

from __future__ import annotations

import pytest

from games.burraco import tournaments
from games.core import closing
from scoring.rebuild import rebuild_event_standings
from tests.browser.walk import Walk, localised
from tests.factories import make_organiser
from tests.games.burraco.builders import burraco_club, individual_tournament, play_turn, tournament
from tests.games.burraco.free_matches.builders import MATCH_TO_2005, free_evening, play_match, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"390": {"width": 390, "height": 844}, "a4": {"width": 794, "height": 1123}}


@pytest.mark.parametrize("language", ["it", "de"])
def test_the_changed_burraco_pages_fit_and_pass_axe(live_server, browser, axe, language) -> None:
    club = burraco_club(language=language)
    make_organiser(club, "referee")
    waiting = free_evening(6, club=club, name="Serata aperta")
    for p in waiting.pairs.all():
        tournaments.pair_checkin(pair=p)
    won = start(waiting, 1, 1, 2)
    start(waiting, 2, 3, 4)
    play_match(won, MATCH_TO_2005)
    closed = free_evening(4, club=club, name="Serata chiusa", names="Socio")
    played = start(closed, 1, 1, 2)
    play_match(played, MATCH_TO_2005)
    closing.event_close(event=closed, unfinished="exclude")
    pairs = tournament(6, club=club)
    tournaments.pair_checkin(pair=pairs.pairs.get(number=1))
    solo = individual_tournament(9, club=club)
    rnd = tournaments.turn_seat(event=solo, movement="first", seed=1).round
    play_turn(rnd)
    rebuild_event_standings(event_id=solo.pk)
    problems: list[str] = []
    for width, size in WIDTHS.items():
        context = browser.new_context(viewport=size, locale=language)
        try:
            page = context.new_page()
            walk = Walk(page, live_server.url, language, width)
            page.goto(f"{live_server.url}{localised('login', language)}?next=/")
            page.fill("#id_username", "referee")
            page.fill("#id_password", "tavolo-test")
            with page.expect_navigation():
                page.locator("main form button[type=submit]").click()
            if width == "a4":
                page.emulate_media(media="print")
            desk = localised("burraco-desk", language, club.slug, closed.pk)
            walk.open("polish-closed-desk", desk, axe)
            assert page.locator("#match-form, #pair-form, button[name=action]").count() == 0
            desk = localised("burraco-desk", language, club.slug, waiting.pk)
            walk.open("polish-free-desk", desk, axe)
            desk = localised("burraco-desk", language, club.slug, pairs.pk)
            walk.open("polish-tournament-desk", desk, axe)
            card = localised("burraco-card", language, won.table.key)
            page.goto(live_server.url + card)
            with page.expect_navigation():
                page.locator('#line-choice button[value="NS"]').click()
            walk.check("polish-won-card", axe)
            assert page.locator("#sit-ns").input_value() == "5"
            assert page.locator("#sit-ew").input_value() == "6"
            walk.open(
                "polish-individual-ranking", localised("scoring:event", language, solo.pk), axe
            )
            problems += walk.problems
        finally:
            context.close()
    assert not problems, "\n".join(problems)
