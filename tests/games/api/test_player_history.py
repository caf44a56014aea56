"""A player's history (scoring/barbu/player_history.py), read by the ORM: the games each visitor
may see, oldest first on the page and newest first in the API, with substitutions both
ways; the page and the API list the same games; and a fixed number of statements
whatever the length of the history."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from clubs.models import Player
from games.barbu.submission import deal_submit
from games.barbu.substitutions import substitute
from games.models import EventPlayer, Game, Seat
from tests.factories import NAMES, make_player, make_table
from tests.games.api.world import game_deals

pytestmark = pytest.mark.django_db


def _play(players, event, deals: int, seed: int, *, round_number: int = 1) -> Game:
    from games.barbu.game_creation import game_create

    game = game_create(table=make_table(event, players, round_number=round_number))
    for deal in game_deals(seed)[:deals]:
        deal_submit(game_id=game.pk, deal=deal)
    return game


@pytest.fixture
def busy(world):
    """Anna (the world's game, seat 0) in more games: a private evening, a second round,
    a game she left to a substitute after two deals, and one she joined as a
    substitute for one deal (no GameScore row of hers there)."""
    anna = world.game.table.seats.get(position=0).player
    four = [s.player for s in world.game.table.seats.order_by("position")]
    event = world.game.table.round.event
    private = world.hidden_game.table.round.event
    world.private = _play(four, private, 3, 5)
    world.second = _play(four, event, 4, 6, round_number=2)
    world.left = left = _play(four, event, 2, 7, round_number=3)
    newcomer = make_player(world.club, "Newcomer")
    EventPlayer.objects.create(event=event, player=newcomer)
    seat = Seat.objects.get(table=left.table, position=0)
    substitute(rnd=left.table.round, seat_id=seat.pk, player_id=newcomer.pk)
    deal_submit(game_id=left.pk, deal={**game_deals(7)[2], "number": 3})
    others = [make_player(world.club, n) for n in NAMES]  # namesakes: the deals' names
    world.joined = joined = _play(others, private, 2, 8, round_number=2)
    seat = Seat.objects.get(table=joined.table, position=2)
    EventPlayer.objects.create(event=private, player=anna)
    substitute(rnd=joined.table.round, seat_id=seat.pk, player_id=anna.pk)
    deal_submit(game_id=joined.pk, deal={**game_deals(8)[2], "number": 3})
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    world.anna, world.newcomer, world.bea = anna, newcomer, others[0]
    return world


ROLES = ["anonymous", "organiser", "other_organiser", "member", "table_key", "superuser"]
# Who sees the club's private evening: its organisers and a superuser.
SEES_PRIVATE = {"organiser", "superuser"}


def _client(world, role):
    if role == "superuser":
        from rest_framework.test import APIClient

        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens['superuser']}")
        return client
    return world.client(role)


def _answer(client, path: str) -> tuple[int, bytes, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return response.status_code, response.content, len(queries)


def _summary(rows: list[dict]) -> list[tuple]:
    """Each game as (game, deals played, whether it carries the result, note)."""
    return [(r["game_id"], r["deals"], r["total"] is not None, r["note"]) for r in rows]


def _expected(busy, role: str) -> dict[int, list[tuple]]:
    """Each player's history, newest first, as `role` may see it."""
    private = role in SEES_PRIVATE
    anna = [
        *(
            [
                # Anna sat in for the third of the game's three deals: its result is
                # the one who played the other two.
                (busy.joined.pk, 1, False, "played deals 3; substitute for Carla from deal 3"),
                (busy.private.pk, 3, True, ""),
            ]
            if private
            else []
        ),
        (busy.left.pk, 2, True, "played deals 1–2; substituted by Newcomer from deal 3"),
        (busy.second.pk, 4, True, ""),
        (busy.game.pk, 2, True, ""),
    ]
    return {
        busy.anna.pk: anna,
        busy.newcomer.pk: [
            (busy.left.pk, 1, False, "played deals 3; substitute for Anna from deal 3")
        ],
        busy.bea.pk: [(busy.joined.pk, 3, True, "")] if private else [],
    }


@pytest.mark.parametrize("role", ROLES)
def test_the_history_lists_the_games_each_visitor_may_see(busy, role):
    client = _client(busy, role)
    for player, expected in _expected(busy, role).items():
        body = client.get(f"/api/v1/players/{player}/history/").json()
        assert body["player"] == player
        assert body["count"] == len(expected)
        assert _summary(body["results"]) == expected, player
        # Paged as every list of the API, newest first across the pages.
        pages = [
            client.get(f"/api/v1/players/{player}/history/?page={n}&page_size=2") for n in (1, 2)
        ]
        if len(expected) > 2:
            paged = [row for page in pages for row in page.json()["results"]]
            assert _summary(paged) == expected[:4]
        else:
            assert pages[1].status_code == 404


def test_a_game_of_the_history_says_where_and_how_it_was_played(busy):
    rows = busy.client("organiser").get(f"/api/v1/players/{busy.anna.pk}/history/").json()
    first = rows["results"][-1]  # the oldest: the world's game, two deals of 28
    game = busy.game
    score = game.scores.get(player=busy.anna)
    assert first == {
        "game_id": game.pk,
        "event_id": game.table.round.event_id,
        "event": "Published evening",
        "date": first["date"],
        "round": 1,
        "table": game.table.number,
        "total": float(score.total) if score.total % 1 else int(score.total),
        "place": float(score.place),
        "deals": 2,
        "complete": False,
        "note": "",
    }
    assert first["date"].endswith("Z")
    joined = rows["results"][0]
    assert joined["total"] is None and joined["place"] is None
    assert joined["event"] == "Private evening" and joined["round"] == 2


@pytest.mark.parametrize("role", ROLES)
def test_a_player_s_history_is_there_for_whoever_may_see_the_player(busy, role):
    """200 for a player of Player.objects.visible_to(the visitor), 404 for any other:
    members of a published club, of an unpublished one, of another club, of none."""
    from clubs.models import Club
    from tests.factories import make_club

    hidden = make_club("Circolo Nascosto", published=False)
    make_player(hidden, "Secret")
    make_player(None, "Nobody")
    Club.objects.filter(name="Circolo Due").update(published=False)
    make_player(Club.objects.get(name="Circolo Due"), "Rival member")
    client = _client(busy, role)
    user = None if role in ("anonymous", "table_key") else _user(busy, role)
    visible = set(Player.objects.visible_to(user).values_list("pk", flat=True))
    for player in Player.objects.all():
        status = client.get(f"/api/v1/players/{player.pk}/history/").status_code
        assert status == (200 if player.pk in visible else 404), (role, player.name)
    # Nobody and Secret: only the superuser; the rival club's members: its organiser too.
    public = Player.objects.visible_to(None).count()
    expected = {"superuser": Player.objects.count(), "other_organiser": public + 2}
    assert len(visible) == expected.get(role, public)


def _user(world, role: str):
    return Token.objects.get(key=world.tokens[role]).user


def test_the_player_page_lists_the_games_of_the_api(busy, settings):
    from django.test import Client

    settings.ROOT_URLCONF = "config.urls"
    client = Client()
    client.force_login(_user(busy, "organiser"))
    page = client.get(f"/players/{busy.anna.pk}/").content.decode()
    api = busy.client("organiser").get(f"/api/v1/players/{busy.anna.pk}/history/").json()
    games = page.split("<h2>Games</h2>")[1]
    # The page lists them newest first too, each with its note.
    links = re.findall(r'href="/games/(\d+)/"', games)
    assert [int(g) for g in links] == [r["game_id"] for r in api["results"]]
    assert "substituted by Newcomer" in games and "substitute for Carla" in games


def test_history_statements_do_not_grow_with_the_games(world):
    client = world.client("organiser")
    anna = world.game.table.seats.get(position=0).player
    four = [s.player for s in world.game.table.seats.order_by("position")]
    path = f"/api/v1/players/{anna.pk}/history/?page_size=200"
    few = _answer(client, path)
    for n in range(6):
        _play(four, world.game.table.round.event, 2, 10 + n, round_number=2 + n)
    many = _answer(client, path)
    # The token; the player; the games; the substitutions (none yet).
    assert few[2] == 4, few
    assert many[1].count(b'"game_id"') == 7 > few[1].count(b'"game_id"') == 1
    assert many[2] == few[2]
    # Substitutions cost no statement more, whatever their number.
    newcomer = make_player(world.club, "Newcomer")
    event = world.game.table.round.event
    EventPlayer.objects.create(event=event, player=newcomer)
    games = Game.objects.filter(table__round__number__gte=2).select_related("table__round")
    for game in games[:1]:
        seat = Seat.objects.get(table=game.table, position=0)
        substitute(rnd=game.table.round, seat_id=seat.pk, player_id=newcomer.pk)
    one = _answer(client, path)
    for game in games[1:]:
        seat = Seat.objects.get(table=game.table, position=0)
        substitute(rnd=game.table.round, seat_id=seat.pk, player_id=newcomer.pk)
    all_of_them = _answer(client, path)
    assert one[1].count(b"substituted by") == 1
    assert all_of_them[1].count(b"substituted by") == 6
    assert all_of_them[2] == one[2] == few[2]
    # The substitute's own history: the same statements for one game or six.
    _status, body, statements = _answer(client, f"/api/v1/players/{newcomer.pk}/history/")
    assert body.count(b'"game_id"') == 6 and statements == few[2]


def test_the_organiser_s_clubs_are_read_as_a_set(world):
    """organiser_club_ids and selectors.viewer give the clubs the user organises, each in
    one query."""
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from games.api.permissions import organiser_club_ids
    from scoring.selectors import viewer

    user = _user(world, "organiser")
    drf = Request(APIRequestFactory().get("/"))
    drf.user = user
    for read in (lambda: organiser_club_ids(drf), lambda: viewer(user).organises):
        with CaptureQueriesContext(connection) as queries:
            assert read() == frozenset({world.club.pk})
        assert len(queries) == 1
