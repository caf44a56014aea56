"""The API's reads cost a fixed number of queries whatever the number of rows, and read
only what each visitor may see (the models' visible_to querysets, plus a table key's own
table)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from clubs.models import Club, Membership, Player
from games.api.permissions import read_table_key
from games.barbu.submission import deal_submit
from games.models import Event, Table
from scoring import rebuild
from scoring.models import EventStanding
from tests.factories import make_event, make_game, make_player
from tests.games.api.world import game_deals, url

pytestmark = pytest.mark.django_db


def test_the_table_key_grants_its_table_and_game_in_one_query(world):
    world.club.confirm_deals = True
    world.club.save()
    gameless = Table.objects.create(round=world.table.round, number=9)
    expected = {
        world.table.key: (world.table.pk, 1, world.game.pk, True),
        world.other_table.key: (world.other_table.pk, 2, world.other_game.pk, True),
        gameless.key: (gameless.pk, 9, None, True),
    }
    for key, (table, number, game, confirm) in expected.items():
        with CaptureQueriesContext(connection) as queries:
            granted = read_table_key(key)
        assert len(queries) == 1
        assert (granted.table_id, granted.table_number, granted.game_id) == (table, number, game)
        assert granted.club_id == world.club.pk and granted.confirm_deals is confirm
    assert read_table_key("no-such-key") is None


def test_a_phone_writes_only_its_own_table(world):
    client = world.client("table_key")
    assert client.post(url(world), world.deals[2], format="json").status_code == 201
    other = f"/api/v1/games/{world.other_game.pk}/deals/"
    assert client.post(other, world.deals[0], format="json").status_code == 403
    bad = world.client("anonymous")
    bad.credentials(HTTP_X_TABLE_KEY="x" * 41)
    assert bad.post(url(world), world.deals[2], format="json").status_code == 401


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, response.content
    return len(queries)


def _grow(world) -> None:
    """Many more rows of every kind: events, players, rounds, tables, games and deals."""
    client = world.client("organiser")
    for n in range(4):
        event = make_event(world.club, name=f"More {n}")
        for seed in range(3):
            game = make_game(world.club, event=event)
            for deal in game_deals(seed + 10)[:3]:
                answer = client.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json")
                assert answer.status_code == 201, answer.content
        event.rounds.first().byes.add(make_player(world.club, f"Bye {n}"))


LISTS = ["clubs", "leagues", "events", "rounds", "tables", "games", "deals", "players"]


@pytest.mark.parametrize("role", ["anonymous", "organiser", "table_key"])
def test_each_list_costs_the_same_queries_for_few_rows_or_many(world, role):
    client = world.client(role)
    few = {name: _queries(client, f"/api/v1/{name}/?page_size=200") for name in LISTS}
    _grow(world)
    for name in LISTS:
        answer = client.get(f"/api/v1/{name}/?page_size=200").json()
        assert _queries(client, f"/api/v1/{name}/?page_size=200") == few[name], name
        if name in ("games", "deals", "tables"):
            assert answer["count"] > 10, name
            assert _queries(client, f"/api/v1/{name}/?page_size=2&page=2") == few[name], name


def test_a_game_s_deals_cost_the_same_queries_for_few_or_many(world):
    client = world.client("anonymous")
    path = f"/api/v1/games/{world.game.pk}/deals/"
    few = _queries(client, path)
    for deal in world.deals[2:12]:
        deal_submit(game_id=world.game.pk, deal=deal)
    assert _queries(client, path) == few
    assert client.get(path).json()["count"] == 12


def test_a_player_of_two_clubs_is_listed_once(world):
    rival = Club.objects.exclude(pk=world.club.pk).get()
    both = Player.objects.filter(memberships__club=world.club).first()
    Membership.objects.create(club=rival, player=both)
    client = world.client("organiser")
    for query in ("?page_size=200", f"?club={world.club.pk}&page_size=200"):
        ids = [p["id"] for p in client.get("/api/v1/players/" + query).json()["results"]]
        assert len(ids) == len(set(ids)) and both.pk in ids


def test_only_the_organiser_of_a_player_s_club_reads_the_e_mail(world):
    player = Player.objects.filter(memberships__club=world.club, user=None).first()
    for role, shown in (("organiser", True), ("other_organiser", False), ("anonymous", False)):
        rows = world.client(role).get("/api/v1/players/?page_size=200").json()["results"]
        email = {p["id"]: p["email"] for p in rows}[player.pk]
        assert (email == player.email) is shown, role


def test_a_filter_filters_and_a_bad_one_is_refused(world):
    client = world.client("organiser")
    assert client.get("/api/v1/games/").json()["count"] == 3  # the private evening's too
    assert client.get("/api/v1/games/?status=complete").json()["count"] == 0
    assert client.get("/api/v1/games/?status=nonsense").status_code == 400
    anonymous = world.client("anonymous").get("/api/v1/games/").json()
    assert world.hidden_game.pk not in {g["id"] for g in anonymous["results"]}


def test_event_standings_cost_the_same_queries_for_few_players_or_many(world):
    event = world.game.table.round.event
    client = world.client("anonymous")
    path = f"/api/v1/events/{event.pk}/standings/"
    rebuild.rebuild_event_standings(event_id=event.pk)
    cache.clear()
    few = _queries(client, path)
    for _ in range(6):
        make_game(world.club, event=event)
    for player in Player.objects.all()[:3]:
        EventStanding.objects.get_or_create(
            event=event, player=player, defaults={"rank": 99, "points": 0}
        )
    cache.clear()
    assert _queries(client, path) == few


@pytest.mark.parametrize(
    "role", ["anonymous", "organiser", "other_organiser", "member", "table_key", "superuser"]
)
def test_each_visitor_lists_exactly_the_games_they_may_read(world, role):
    rival = Club.objects.exclude(pk=world.club.pk).get()
    rival_games = {
        published: make_game(
            rival, event=make_event(rival, name=f"Rival {published}", published=published)
        )
        for published in (True, False)
    }
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    client = world.client(role)
    if role == "superuser":
        client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens[role]}")
    public = {world.game.pk, world.other_game.pk, rival_games[True].pk}
    expected = {
        "anonymous": public,
        "member": public,
        "table_key": public,
        "organiser": public | {world.hidden_game.pk},
        "other_organiser": public | {rival_games[False].pk},
        "superuser": public | {world.hidden_game.pk, rival_games[False].pk},
    }[role]
    games = client.get("/api/v1/games/?page_size=200").json()["results"]
    assert {g["id"] for g in games} == expected
    deals = client.get("/api/v1/deals/?page_size=200").json()["results"]
    assert {d["game"] for d in deals} <= expected
    assert world.game.pk in {d["game"] for d in deals}
    tables = client.get("/api/v1/tables/?page_size=200").json()["results"]
    assert {t["game"] for t in tables} == expected
    events = {e["id"] for e in client.get("/api/v1/events/?page_size=200").json()["results"]}
    assert events == set(
        Event.objects.filter(rounds__tables__game__in=expected).values_list("pk", flat=True)
    )
