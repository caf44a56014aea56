"""A player's federation membership number in a club (issue 31): optional, held by one
player of the club at most, set when the player is added or edited, kept by a merge, and
read by the pairs' import of a Burraco tournament."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from clubs import services
from clubs.models import Membership
from tests.factories import make_club, make_organiser, make_player

pytestmark = pytest.mark.django_db


def _number(club, player) -> str:
    return Membership.objects.get(club=club, player=player).federation_number


def test_added_with_a_number_unique_in_the_club() -> None:
    club, other = make_club("Uno"), make_club("Due")
    anna = services.player_add(club=club, name="Anna", federation_number=" IT001 ")
    assert _number(club, anna) == "IT001"
    with pytest.raises(services.ClubError, match="already Anna's"):
        services.player_add(club=club, name="Bruno", federation_number="IT001")
    # Another club may know the same number; many players have none.
    services.player_add(club=other, name="Anna R.", federation_number="IT001")
    services.player_add(club=club, name="Carla")
    services.player_add(club=club, name="Dario")
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.filter(club=club, player__name="Carla").update(federation_number="IT001")


def test_edited_on_the_players_page_or_refused_leaving_everything() -> None:
    club = make_club()
    client = Client()
    client.force_login(make_organiser(club, "boss"))
    anna = services.player_add(club=club, name="Anna", federation_number="IT001")
    bruno = make_player(club, "Bruno")
    url = reverse("club-player-edit", args=[club.slug, bruno.pk])
    form = {"name": "Bruno", "email": "", "role": "guest", "federation_number": "IT001"}
    refused = client.post(url, form)
    assert refused.status_code == 200 and "already Anna&#x27;s" in refused.content.decode()
    assert _number(club, bruno) == "" and Membership.objects.get(player=bruno).role == "member"
    assert client.post(url, {**form, "federation_number": "IT002"}).status_code == 302
    assert _number(club, bruno) == "IT002" and Membership.objects.get(player=bruno).role == "guest"
    assert _number(club, anna) == "IT001"


def test_a_merge_keeps_the_duplicates_number() -> None:
    club = make_club()
    keep = make_player(club, "Anna Rossi")
    duplicate = services.player_add(club=club, name="Anna R.", federation_number="IT001")
    services.player_merge(club=club, keep=keep, duplicate=duplicate)
    assert _number(club, keep) == "IT001"
