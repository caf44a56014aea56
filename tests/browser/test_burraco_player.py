"""The player page's Burraco sections on a phone (390 px) and a laptop (1366 px), in
every language: nothing scrolls sideways, axe finds nothing, and a screenshot of each is
written (var/screenshots/<language>/<width>/player-burraco*.png) to be looked at."""

from __future__ import annotations

import random
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from scoring import rebuild
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.burraco.rating_sync import sync_burraco_ratings
from tests.browser.walk import LANGUAGES, VIEWPORTS, Walk, localised
from tests.factories import make_player
from tests.scoring.burraco.builders import (
    burraco_club,
    card,
    cards_hand,
    pair_tournament,
    play_table,
    seat_turn,
    submit_cards,
)
from tests.scoring.evenings import evening

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def players():
    """Rosa plays Burraco only (six tournaments with four partners, some hands counted
    from the cards); Marco plays both games."""
    club = burraco_club("Circolo Burraco Roma Nord", slug="roma-nord")
    names = ["Rosa Bellini", "Marco Esposito-Santangelo", "Giulia Ferri", "Luca Moretti"]
    names += ["Chiara Romano", "Paolo Greco", "Sara Conti", "Davide Ricci"]
    people = [make_player(club, name) for name in names]
    rosa, marco = people[0], people[1]
    rng = random.Random(18)
    for i in range(6):
        partner = people[1 + i % 4]
        others = [p for p in people[1:] if p != partner]
        rng.shuffle(others)
        pairs = [(rosa, partner), (others[0], others[1]), (others[2], others[3])]
        pairs += [(others[4], others[5])] if len(others) > 5 else []
        event = pair_tournament(
            club, pairs, days_ago=70 - 12 * i, name=f"Torneo del martedì n. {i + 1}"
        )
        for _turn in range(2):
            rnd = seat_turn(event)
            for table in rnd.tables.order_by("number"):
                if i % 2:
                    closer = rng.choice(["NS", "EW"])
                    made = [(rng.randint(1, 3), rng.randint(0, 2)) for _ in range(3)]
                    hands = [cards_hand(closer, *(m if closer == "NS" else m[::-1])) for m in made]
                    submit_cards(table.game, hands)
                else:
                    mps = [(rng.randrange(0, 80) * 5, rng.randrange(0, 80) * 5) for _ in range(3)]
                    play_table(card(rnd, table.number), mps)
        rebuild.rebuild_event_standings(event_id=event.pk)
    evening(club, people[1:5], rng=rng, days_ago=5, name="Serata di Barbù")
    barbu_rating_sync.sync_ratings()
    sync_burraco_ratings()
    return rosa, marco


@pytest.mark.parametrize("language", LANGUAGES)
def test_player_page_with_burraco_fits_a_phone_and_passes_axe(
    browser, live_server, players, language: str
) -> None:
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    rosa, marco = players
    problems = []
    for width, viewport in VIEWPORTS.items():
        context = browser.new_context(viewport=viewport, locale=language)
        host = urlsplit(live_server.url).hostname
        cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language}
        context.add_cookies([{**cookie, "domain": host, "path": "/"}])
        walk = Walk(context.new_page(), live_server.url, language, width)
        for name, player in (("player-burraco", rosa), ("player-burraco-and-barbu", marco)):
            walk.open(name, localised("scoring:player", language, player.pk), axe)
            if not walk.page.locator("#burraco-rating svg").is_visible():
                walk._add("no Burraco pair rating chart")
        context.close()
        problems += [f"[{language} {width}] {line}" for line in walk.problems]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
