"""A game read through the API: who may read it, its answer following every deal, and the
ETag of its live version (a client holding it gets 304 until the next deal)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.barbu.submission import deal_submit
from tests.games.api.world import ROLES

pytestmark = pytest.mark.django_db


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


def test_the_answer_follows_each_deal(world):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/"
    first = client.get(path)
    assert len(first.json()["record"]["deals"]) == 2
    deal_submit(game_id=world.game.pk, deal=world.deals[2])
    assert len(client.get(path).json()["record"]["deals"]) == 3


def test_an_unchanged_game_is_a_304_until_the_next_deal(world, django_capture_on_commit_callbacks):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/"
    first = client.get(path)
    tag = first["ETag"]
    assert tag and "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    with django_capture_on_commit_callbacks(execute=True):
        deal_submit(game_id=world.game.pk, deal=world.deals[2])
    after = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and after["ETag"] != tag
    assert len(after.json()["record"]["deals"]) == 3


def test_a_tag_opens_nothing_the_client_may_not_read(world):
    path = f"/api/v1/games/{world.hidden_game.pk}/"
    tag = world.client("organiser").get(path)["ETag"]
    refused = world.client("anonymous").get(path, HTTP_IF_NONE_MATCH=tag)
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"


def test_other_renderings_of_the_answer(world):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/"
    plain = client.get(path)
    assert plain["Content-Type"] == "application/json"
    indented = client.get(path, HTTP_ACCEPT="application/json; indent=2")
    assert indented.content != plain.content
    assert json.loads(indented.content) == json.loads(plain.content)
    html = client.get(path, HTTP_ACCEPT="text/html")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
