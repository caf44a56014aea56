"""The desk's pair form proposes two players who can still enter: not the same player
twice, nor a player already in a pair of the tournament."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_organiser, make_player
from tests.games.burraco.builders import individual_tournament, tournament

pytestmark = pytest.mark.django_db


def _selected(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
    assert select, f"no {name} select"
    return re.findall(r'<option value="([^"]*)"[^>]*selected', select.group(0))


def test_the_pair_form_proposes_two_players_free_to_enter() -> None:
    event = tournament(3)
    make_organiser(event.club, "referee")
    free = [make_player(event.club, name) for name in ("Aaron", "Abel", "Ada")]
    client = Client()
    client.login(username="referee", password="tavolo-test")
    page = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    first, second = _selected(page, "player_a"), _selected(page, "player_b")
    by_name = sorted(free, key=lambda p: p.name)  # the form lists players by name
    assert first == [str(by_name[0].pk)] and second == [str(by_name[1].pk)]


def test_an_individual_tournament_proposes_a_player_not_entered() -> None:
    event = individual_tournament(5)
    make_organiser(event.club, "referee")
    aaron = make_player(event.club, "Aaron")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    page = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    assert _selected(page, "player") == [str(aaron.pk)]
