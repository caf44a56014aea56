"""The home page: public clubs, evenings running now, recent results, in constant queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Event
from scoring.models import EventStanding
from tests.factories import make_club, make_event, make_organiser, make_player

pytestmark = pytest.mark.django_db


def clubs_with_evenings(count: int, start: int = 0) -> list:
    made = []
    now = timezone.now()
    for i in range(start, start + count):
        club = make_club(f"Club {i:02d}", slug=f"club-{i:02d}", language="en")
        running = make_event(club, name=f"Tonight {i:02d}", status=Event.Status.RUNNING)
        closed = make_event(
            club,
            name=f"Last week {i:02d}",
            status=Event.Status.CLOSED,
            starts_at=now - timedelta(7),
        )
        winner = make_player(club, f"Winner {i:02d}")
        EventStanding.objects.create(event=closed, player=winner, rank=1, points=10)
        made.append((club, running, closed))
    return made


def test_home_shows_clubs_running_evenings_and_recent_results(client):
    ((club, running, closed),) = clubs_with_evenings(1)
    hidden = make_club("Private club", slug="private", published=False)
    make_event(hidden, name="Private evening", status=Event.Status.RUNNING)
    make_event(club, name="Unlisted evening", status=Event.Status.RUNNING, published=False)
    page = client.get(reverse("home")).content.decode()
    running_part = page.split('id="home-running-list"')[1].split("</ul>")[0]
    results_part = page.split('id="home-results-list"')[1].split("</ul>")[0]
    clubs_part = page.split('id="home-clubs-list"')[1].split("</ul>")[0]
    assert reverse("scoring:event", args=[running.pk]) in running_part
    assert reverse("scoring:event", args=[closed.pk]) in results_part
    assert "won by Winner 00" in results_part
    assert reverse("scoring:club", args=[club.slug]) in clubs_part
    assert "2 evenings" in clubs_part
    for secret in ("Private club", "Private evening", "Unlisted evening"):
        assert secret not in page


def test_home_says_when_nothing_is_played(client):
    page = client.get(reverse("home")).content.decode()
    assert "No evening is being played right now." in page
    assert "No results yet." in page


def test_home_lists_an_organisers_clubs(client):
    club = make_club("Mine", slug="mine", published=False)
    client.force_login(make_organiser(club))
    page = client.get(reverse("home")).content.decode()
    assert reverse("club-manage", args=[club.slug]) in page


def test_home_queries_do_not_grow_with_clubs_and_evenings(client, django_assert_num_queries):
    clubs_with_evenings(1)
    with django_assert_num_queries(4):
        client.get(reverse("home"))
    clubs_with_evenings(12, start=1)
    with django_assert_num_queries(4):
        page = client.get(reverse("home")).content.decode()
    assert page.count("won by Winner") == 8  # the latest eight results


def test_home_in_italian(client):
    clubs_with_evenings(1)
    page = client.get("/it/").content.decode()
    assert "Ora in gioco" in page
