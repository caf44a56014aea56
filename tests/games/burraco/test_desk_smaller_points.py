"""The smaller points of issue 31 around the desk, each a test that failed first: the
Burraco club's management page described Barbu's rules; turn 1 by draw was labelled
"Mitchell"; a confirmed card of a closed tournament still said to wait for the next
turn."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from clubs.models import Club
from games.burraco import tournaments
from tests.factories import make_organiser
from tests.games.burraco.builders import burraco_club, play_turn, tournament
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db


def _referee(club) -> Client:
    client = Client()
    client.force_login(make_organiser(club, "referee"))
    return client


def test_the_burraco_clubs_page_describes_burraco_rules_not_barbus() -> None:
    club = burraco_club()
    page = _referee(club).get(reverse("club-manage", args=[club.slug])).content.decode()
    rules = re.search(r'<ul id="club-burraco-rules">.*?</ul>', page, re.S)
    assert rules is not None and 'id="club-rules"' not in page
    assert "Preset: FIBUR (Italian federation)." in rules.group(0)
    assert "Clean burraco 200" in rules.group(0) and "pozzetto" in rules.group(0)
    assert "Barbu" not in rules.group(0) and "King of hearts" not in page


def test_a_club_playing_both_games_shows_both_rules() -> None:
    club = burraco_club("Both", game=Club.Games.BOTH)
    page = _referee(club).get(reverse("club-manage", args=[club.slug])).content.decode()
    assert 'id="club-rules"' in page and 'id="club-burraco-rules"' in page


@pytest.mark.parametrize(
    ("order", "label", "language"),
    [
        ("draw", "first turn by draw", "en"),
        ("entry", "first turn by entry order", "en"),
        ("draw", "primo turno a sorteggio", "it"),
    ],
)
def test_turn_one_is_named_by_its_order_not_mitchell(order, label, language) -> None:
    event = tournament(6)
    tournaments.turn_seat(event=event, movement="first", first_order=order)
    page = (
        _referee(event.club)
        .get(
            reverse("burraco-desk", args=[event.club.slug, event.pk]),
            HTTP_ACCEPT_LANGUAGE=language,
        )
        .content.decode()
    )
    progress = re.search(r'<p class="progress" id="turn-progress">(.*?)</p>', page, re.S)
    assert label in progress.group(1) and "Mitchell" not in progress.group(1)


def test_turn_two_by_mitchell_is_named_mitchell() -> None:
    event = tournament(6)
    play_turn(tournaments.turn_seat(event=event, movement="first", first_order="draw").round)
    tournaments.turn_seat(event=event, movement="mitchell")
    page = _referee(event.club).get(reverse("burraco-desk", args=[event.club.slug, event.pk]))
    progress = re.search(r'id="turn-progress">(.*?)</p>', page.content.decode(), re.S)
    assert "Mitchell" in progress.group(1)


def _card(table) -> str:
    return phone(table).get(reverse("burraco-card", args=[table.key])).content.decode()


def test_a_confirmed_card_of_a_closed_tournament_does_not_say_wait_for_the_next_turn() -> None:
    event = tournament(4, turns=2)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    table = rnd.tables.order_by("number").first()
    assert "Wait for the referee to seat the next turn" in _card(table)
    play_turn(tournaments.turn_seat(event=event, movement="mitchell").round)
    last = event.rounds.get(number=2).tables.order_by("number").first()
    assert "This was the last turn." in _card(last)
    tournaments.tournament_close(event=event)
    for seen in (_card(table), _card(last)):
        assert "seat the next turn" not in seen
        assert "The tournament is closed: the ranking is final." in seen
