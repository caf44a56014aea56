"""A long ranking on an evening's public page and its live part: the first rows, with the
whole ranking one tap away (`?all=1`, scoring/views.py RANKING_ROWS) and polled every
third second, for a Barbu evening, a Burraco tournament and free matches alike. The whole
and the first rows are answers of their own: each has its ETag, its polls keep what they
asked for, and one never stands for the other.
"""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from clubs.models import Club
from games.burraco import tournaments
from games.models import Event
from scoring import views
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_club
from tests.games.burraco.builders import play_turn, tournament
from tests.games.burraco.free_matches.builders import free_evening, play_match, start
from tests.scoring.evenings import evening, players

pytestmark = pytest.mark.django_db  # each test with a cache of its own: tests/scoring/conftest.py

ROW = 'class="num lead rank"'


def barbu_evening() -> Event:
    """A running Barbu evening of eight players, both tables played through."""
    club = make_club("Circolo", language="en", game=Club.Games.BARBU)
    event = evening(club, players(club, 8), rng=random.Random(3))
    rebuild_event_standings(event_id=event.pk)
    return event


def burraco_tournament() -> Event:
    """A Burraco tournament of eight pairs: turn 1 played and confirmed, turn 2 seated."""
    event = tournament(8)
    play_turn(tournaments.turn_seat(event=event, movement="first").round)
    tournaments.turn_seat(event=event, movement="mitchell")
    rebuild_event_standings(event_id=event.pk)
    return event


def free_matches() -> Event:
    """A Burraco evening of free matches, eight pairs, one match played."""
    event = free_evening(8)
    play_match(start(event, 1, 1, 2), [(1500, 600), (700, 300)])
    rebuild_event_standings(event_id=event.pk)
    return event


GAMES = {
    "barbu": (barbu_evening, "players"),
    "burraco": (burraco_tournament, "pairs"),
    "free matches": (free_matches, "pairs"),
}


@pytest.fixture(params=GAMES)
def long_ranking(request, monkeypatch) -> tuple[Event, str]:
    """An evening whose ranking (8 rows) is longer than the 3 rows shown by default."""
    build, entries = GAMES[request.param]
    monkeypatch.setattr(views, "RANKING_ROWS", 3)
    return build(), entries


def page(client, event: Event, whole: bool = False, live: bool = False, etag: str = ""):
    name = "scoring:event-live" if live else "scoring:event"
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse(name, args=[event.pk]), {"all": "1"} if whole else {}, **headers)


@pytest.mark.parametrize("live", [False, True], ids=["page", "live part"])
def test_a_long_ranking_shows_its_first_rows_and_the_whole_one_tap_away(client, long_ranking, live):
    event, entries = long_ranking
    html = page(client, event, live=live).content.decode()
    assert html.count(ROW) == 3
    assert 'hx-trigger="every 1s"' in html
    assert f"Showing the first 3 of 8 {entries}." in html
    whole_url = reverse("scoring:event", args=[event.pk]) + "?all=1"
    assert f'href="{whole_url}"' in html
    assert f'hx-get="{reverse("scoring:event-live", args=[event.pk])}"' in html


@pytest.mark.parametrize("live", [False, True], ids=["page", "live part"])
def test_the_whole_ranking_keeps_its_polls_whole(client, long_ranking, live):
    event, _entries = long_ranking
    html = page(client, event, whole=True, live=live).content.decode()
    assert html.count(ROW) == 8
    # A slow phone lays a long whole ranking out again in over a second: every third one.
    assert 'hx-trigger="every 3s"' in html
    assert "Showing the first" not in html
    assert "Show only the first 3 rows" in html
    live_url = reverse("scoring:event-live", args=[event.pk])
    assert f'hx-get="{live_url}?all=1"' in html


def test_the_first_rows_and_the_whole_have_etags_of_their_own(client, long_ranking):
    event, _entries = long_ranking
    first = page(client, event, live=True)
    whole = page(client, event, whole=True, live=True)
    assert first["ETag"] != whole["ETag"]
    # Each poll is a 304 only against what it shows; the other's tag brings the answer.
    assert page(client, event, live=True, etag=first["ETag"]).status_code == 304
    assert page(client, event, whole=True, live=True, etag=whole["ETag"]).status_code == 304
    again = page(client, event, live=True, etag=whole["ETag"])
    assert again.status_code == 200 and again.content.decode().count(ROW) == 3
    # The answer kept for the other viewers is the one they asked for.
    assert page(client, event, whole=True, live=True).content.decode().count(ROW) == 8
    assert page(client, event, live=True).content.decode().count(ROW) == 3


def test_the_page_hands_the_first_poll_the_etag_of_what_it_shows(client, long_ranking):
    event, _entries = long_ranking
    for whole in (False, True):
        html = page(client, event, whole=whole).content.decode()
        etag = page(client, event, whole=whole, live=True)["ETag"]
        assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in html


@pytest.mark.parametrize("build", [build for build, _entries in GAMES.values()], ids=GAMES)
def test_a_ranking_no_longer_than_the_first_rows_is_shown_whole_without_a_word(
    client, monkeypatch, build
):
    monkeypatch.setattr(views, "RANKING_ROWS", 8)
    event = build()
    for whole in (False, True):
        html = page(client, event, whole=whole).content.decode()
        assert html.count(ROW) == 8
        assert 'id="ranking-cut"' not in html
        assert 'hx-trigger="every 1s"' in html


def test_a_big_tournaments_earlier_turns_show_their_prints_not_their_tables(client, monkeypatch):
    monkeypatch.setattr(views, "RANKING_ROWS", 3)
    event = burraco_tournament()
    first = page(client, event, live=True).content.decode()
    assert "Earlier turns show their prints only." in first
    assert first.count('class="tables turn-tables"') == 1  # the turn being played
    assert 'id="turn-1-prints"' in first and 'id="turn-2-prints"' in first
    whole = page(client, event, whole=True, live=True).content.decode()
    assert whole.count('class="tables turn-tables"') == 2
    assert "Earlier turns" not in whole
