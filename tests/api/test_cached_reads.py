"""Game detail and event standings answered from cached JSON bytes (games/api/reads.py):
the same answers as rendering them afresh, per language and page, visibility unchanged."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import League
from games.submission import deal_submit
from scoring.rebuild import rebuild_event_standings
from tests.api.conftest import ROLES

pytestmark = pytest.mark.django_db


def standings_url(world) -> str:
    return f"/api/v1/events/{world.game.table.round.event_id}/standings/"


def fresh(client: APIClient, path: str, **headers) -> bytes:
    cache.clear()
    return client.get(path, **headers).content


def test_a_table_key_reads_its_own_game_of_a_hidden_event(world):
    path = f"/api/v1/games/{world.hidden_game.pk}/"
    key = APIClient()
    key.credentials(HTTP_X_TABLE_KEY=world.hidden_game.table.key)
    assert key.get(path).status_code == 200
    for role in ROLES:
        expected = 200 if role == "organiser" else 404
        assert world.client(role).get(path).status_code == expected, role
    admin = get_user_model().objects.create_superuser("root", password="x")
    superuser = APIClient()
    superuser.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=admin).key}")
    assert superuser.get(path).json()["id"] == world.hidden_game.pk


def test_hidden_event_standings_are_hidden(world):
    path = f"/api/v1/events/{world.hidden_game.table.round.event_id}/standings/"
    rebuild_event_standings(event_id=world.hidden_game.table.round.event_id)
    assert world.client("organiser").get(path).status_code == 200
    for role in ROLES[:-1]:
        assert world.client(role).get(path).status_code == 404, role


def test_game_detail_cached_is_fresh_and_follows_deals(world):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/"
    first = fresh(client, path)
    assert client.get(path).content == first
    assert len(json.loads(first)["record"]["deals"]) == 2
    deal_submit(game_id=world.game.pk, deal=world.deals[2])
    third = client.get(path).content
    assert len(json.loads(third)["record"]["deals"]) == 3
    assert third == fresh(client, path)


def test_other_renderings_of_a_cached_answer(world):
    client = world.client("anonymous")
    for path in (f"/api/v1/games/{world.game.pk}/", standings_url(world)):
        plain = client.get(path)
        again = client.get(path)
        assert plain.content == again.content
        assert plain["Content-Type"] == again["Content-Type"] == "application/json"
        indented = client.get(path, HTTP_ACCEPT="application/json; indent=2")
        assert indented.content != plain.content
        assert json.loads(indented.content) == json.loads(plain.content)
        html = client.get(path, HTTP_ACCEPT="text/html")
        assert html.status_code == 200 and html["Content-Type"].startswith("text/html")


def test_event_standings_cached_per_language_page_and_version(
    world, django_capture_on_commit_callbacks
):
    client = world.client("anonymous")
    event_id = world.game.table.round.event_id
    rebuild_event_standings(event_id=event_id)
    path = standings_url(world)
    for query in ("", "?page_size=2", "?page_size=2&page=2"):
        for lang in ("en", "de"):
            first = fresh(client, path + query, HTTP_ACCEPT_LANGUAGE=lang)
            assert client.get(path + query, HTTP_ACCEPT_LANGUAGE=lang).content == first
    english = client.get(path, HTTP_ACCEPT_LANGUAGE="en").json()
    german = client.get(path, HTTP_ACCEPT_LANGUAGE="de").json()
    assert english["ranking"]["explanation"] != german["ranking"]["explanation"]
    assert english["status"] == world.game.table.round.event.status
    # New rows: the cached page is forgotten with them.
    for deal in world.deals[2:6]:
        deal_submit(game_id=world.game.pk, deal=deal)
    with django_capture_on_commit_callbacks(execute=True):
        rebuild_event_standings(event_id=event_id)  # forgets the cached rows on commit
    after = client.get(path).content
    assert after != json.dumps(english).encode()
    assert after == fresh(client, path)
    # The event's status and its league's ranking are part of the answer's key.
    event = world.game.table.round.event
    event.status = "closed"
    event.save()
    assert client.get(path).json()["status"] == "closed"
    event.league = League.objects.create(
        club=world.club, name="L", ranking={"method": "average", "min_games": 3}
    )
    event.save()
    assert client.get(path).json()["ranking"]["method"] == "average"
