"""The organiser records a substitute on a phone; both players' pages say who played what.

Screenshots (390 px wide, English and Italian) go to var/screenshots/substitute/ for a
person to look at (PAGE_SCREENSHOTS=folder to choose another).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.barbu import evenings
from games.models import Game, Seat, Substitution
from tests.factories import make_club, make_event, make_organiser, make_player
from tests.games.barbu.builders import play

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("PAGE_SCREENSHOTS", settings.BASE_DIR / "var" / "screenshots"))
NAMES = [
    "Anna Rossi",
    "Bruno Bianchi",
    "Carla Neri",
    "Dario Russo",
    "Elena Galli",
    "Fabio Conti",
    "Giulia Ferri",
    "Luca Greco",
    "Marta Villa",
]
WIDE = "() => document.scrollingElement.scrollWidth > document.scrollingElement.clientWidth + 1"


def localised(name: str, language: str, *args: object) -> str:
    with translation.override(language):
        return reverse(name, args=args)


def test_a_substitute_recorded_on_a_phone(live_server, browser):
    club = make_club("Circolo Barbu", language="en")
    make_organiser(club)
    event = make_event(club)
    players = [make_player(club, name) for name in NAMES]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    rnd = evenings.round_seat(event=event, seed=4).round
    seat = Seat.objects.select_related("player").get(table__round=rnd, table__number=1, position=0)
    game = Game.objects.get(table=seat.table)
    play(game, 5)
    starter, bye = seat.player, rnd.byes.get()
    folder = SHOTS / "substitute"
    folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "organiser")
        page.fill("#id_password", "tavolo-test")
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        for language in ("it", "en"):
            page.goto(live_server.url + localised("round-detail", language, club.slug, event.pk, 1))
            form = page.locator("#seat-1-0 form")
            form.locator("select[name=target]").select_option(f"player:{bye.pk}")
            form.locator("input[value=substitute]").check()
            assert not page.evaluate(WIDE)
            form.scroll_into_view_if_needed()
            page.screenshot(path=str(folder / f"swap-form-{language}-390.png"), full_page=True)
        with page.expect_navigation():
            page.locator("#seat-1-0 form button[type=submit]").click()
        assert "Substitute recorded" in page.content()
        assert Substitution.objects.filter(game=game, player_in=bye, from_deal=6).exists()
        play(game, 9)
        for language in ("en", "it"):
            for who in (starter, bye):
                page.goto(live_server.url + localised("scoring:player", language, who.pk))
                note = page.locator(".substitution-note").first.inner_text()
                assert ("6" in note) and (bye.name in note or starter.name in note)
                assert not page.evaluate(WIDE)
                page.screenshot(
                    path=str(folder / f"player-{who.pk}-{language}-390.png"), full_page=True
                )
        page.goto(live_server.url + localised("scoring:player", "it", starter.pk))
        assert (
            f"ha giocato le smazzate 1–5; sostituito da {bye.name} dalla smazzata 6"
            in page.content()
        )
    finally:
        context.close()
