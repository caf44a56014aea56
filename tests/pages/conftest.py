"""Fixtures of the organiser pages: a club, its organiser, and an evening with nine players."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Membership
from tests.factories import make_club, make_event, make_organiser, make_player

NINE = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Marco", "Nora")


@pytest.fixture
def club(db):
    return make_club("Circolo Barbu")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def member_user(club):
    user = get_user_model().objects.create_user(username="member", password="x")
    make_player(club, "Member", role=Membership.Role.MEMBER, user=user)
    return user


@pytest.fixture
def other_organiser(db):
    other = make_club("Other club")
    return make_organiser(other, username="elsewhere")


@pytest.fixture
def nine(club):
    return [make_player(club, name) for name in NINE]


@pytest.fixture
def event(club):
    return make_event(club)
