"""A player's history read as plain rows in one UNION (scoring/player_history.py, issue
20) answers the same bytes as the model-instance reading it replaces, for every role,
with games in public and private evenings and substitutions both ways; and its
statements do not grow with the games."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from games.api import read_cache
from games.models import EventPlayer, Game, GameScore, Seat
from games.submission import deal_submit
from games.substitutions import substitute
from scoring import player_history
from scoring import standings as maths
from tests.factories import NAMES, make_player, make_table

from .conftest import game_deals

pytestmark = pytest.mark.django_db


# The reading this module replaced (scoring/selectors.py before issue 20's third step),
# kept here as the reference the lean one must match.
def reference_player_games(player, who) -> list[dict[str, Any]]:
    rows = (
        GameScore.objects.filter(player=player)
        .filter(who.visible("game__table__round__"))
        .select_related("game__table__round__event")
        .order_by("game__table__round__event__starts_at", "game__table__round__number", "game_id")
    )
    out = {s.game_id: _game_row(s.game, s.total, s.place, s.deals) for s in rows}
    for game, (deals, note) in player_history.substitution_notes(player, who).items():
        game = Game.objects.select_related("table__round__event").get(pk=game.pk)
        row = out.get(game.pk) or _game_row(game, None, None, deals)
        row.update(deals=deals, note=note)
        out[game.pk] = row
    return sorted(out.values(), key=lambda r: (r["date"], r["round"], r["game_id"]))


def _game_row(game, total, place, deals) -> dict[str, Any]:
    rnd = game.table.round
    return {
        "game_id": game.pk,
        "event_id": rnd.event_id,
        "event": rnd.event.name,
        "date": rnd.event.starts_at,
        "round": rnd.number,
        "table": game.table.number,
        "total": None if total is None else maths.number(maths.Fraction(total)),
        "place": None if place is None else float(place),
        "deals": deals,
        "complete": game.status == Game.Status.COMPLETE,
        "note": "",
    }


def _play(players, event, deals: int, seed: int, *, round_number: int = 1) -> Game:
    from games.game_creation import game_create

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
    _play(four, private, 3, 5)
    _play(four, event, 4, 6, round_number=2)
    left = _play(four, event, 2, 7, round_number=3)
    newcomer = make_player(world.club, "Newcomer")
    EventPlayer.objects.create(event=event, player=newcomer)
    seat = Seat.objects.get(table=left.table, position=0)
    substitute(rnd=left.table.round, seat_id=seat.pk, player_id=newcomer.pk)
    deal_submit(game_id=left.pk, deal={**game_deals(7)[2], "number": 3})
    others = [make_player(world.club, n) for n in NAMES]  # namesakes: the deals' names
    joined = _play(others, private, 2, 8, round_number=2)
    seat = Seat.objects.get(table=joined.table, position=2)
    EventPlayer.objects.create(event=private, player=anna)
    substitute(rnd=joined.table.round, seat_id=seat.pk, player_id=anna.pk)
    deal_submit(game_id=joined.pk, deal={**game_deals(8)[2], "number": 3})
    admin = get_user_model().objects.create_superuser("root", password="x")
    world.tokens["superuser"] = Token.objects.create(user=admin).key
    world.anna, world.newcomer, world.bea = anna, newcomer, others[0]
    return world


ROLES = ["anonymous", "organiser", "other_organiser", "member", "table_key", "superuser"]


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


@pytest.mark.parametrize("role", ROLES)
def test_the_history_answers_the_reference_s_bytes(busy, role, monkeypatch):
    client = _client(busy, role)
    seen = 0
    for player in (busy.anna, busy.newcomer, busy.bea):
        for query in ("", "?page_size=2", "?page=2&page_size=2"):
            path = f"/api/v1/players/{player.pk}/history/{query}"
            got = _answer(client, path)
            with monkeypatch.context() as m:
                m.setattr(player_history, "player_games", reference_player_games)
                want = _answer(client, path)
            assert got[:2] == want[:2], path
            assert got[0] in (200, 404)
            seen += got[1].count(b'"game_id"') if got[0] == 200 else 0
    assert seen > 0
    body = busy.client("organiser").get(f"/api/v1/players/{busy.anna.pk}/history/").json()
    notes = [r["note"] for r in body["results"]]
    assert body["count"] == 5 and sum(bool(n) for n in notes) == 2, notes
    assert [r["total"] is None for r in body["results"]].count(True) == 1


def test_the_player_page_lists_the_same_games(busy, monkeypatch, settings):
    from django.test import Client

    settings.ROOT_URLCONF = "config.urls"

    def page() -> str:
        response = Client().get(f"/players/{busy.anna.pk}/")
        assert response.status_code == 200
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())

    got = page()
    monkeypatch.setattr(player_history, "player_games", reference_player_games)
    assert got == page()
    assert "substituted by Newcomer" in got


def test_history_statements_do_not_grow_with_the_games(world):
    client = world.client("organiser")
    anna = world.game.table.seats.get(position=0).player
    four = [s.player for s in world.game.table.seats.order_by("position")]
    path = f"/api/v1/players/{anna.pk}/history/?page_size=200"
    few = _answer(client, path)
    for n in range(6):
        _play(four, world.game.table.round.event, 2, 10 + n, round_number=2 + n)
    many = _answer(client, path)
    # The token; the player with the organiser's clubs; the games.
    assert few[2] == 3, few
    assert many[1].count(b'"game_id"') == 7 > few[1].count(b'"game_id"') == 1
    assert many[2] == few[2]
    # Substitutions add one statement (who played which deals), whatever their number.
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
    assert one[1].count(b"substituted by") == 1
    assert _answer(client, path)[1].count(b"substituted by") == 6
    read_cache.forget()  # the statements of a read made afresh, not of the cached page
    assert _answer(client, path)[2] == one[2] == few[2] + 1


def test_the_player_read_sees_whom_publicreadable_sees(busy):
    """reads.visible_player_row against PublicReadable.players for each role and player:
    members of a published club, of an unpublished one, of another club, of none."""
    from clubs.models import Club, Player
    from games.api.permissions import PublicReadable, organiser_club_ids
    from games.api.reads import visible_player_row
    from tests.factories import make_club

    hidden = make_club("Circolo Nascosto", published=False)
    make_player(hidden, "Secret")
    make_player(None, "Nobody")
    Club.objects.filter(name="Circolo Due").update(published=False)
    make_player(Club.objects.get(name="Circolo Due"), "Rival member")
    seen = {}
    for role in ["anonymous", "organiser", "other_organiser", "member", "superuser"]:
        drf = Request(APIRequestFactory().get("/"))
        drf.user = (
            AnonymousUser()
            if role == "anonymous"
            else Token.objects.get(key=busy.tokens[role]).user
        )
        readable = set(PublicReadable.players(drf).values_list("pk", flat=True))
        for player in Player.objects.all():
            found = visible_player_row(drf, player.pk)
            assert (found is not None) == (player.pk in readable), (role, player.name)
            assert found is None or (found.pk, found.name) == (player.pk, player.name)
        # The organiser's clubs came with the player, as organiser_club_ids reads them.
        fresh = Request(APIRequestFactory().get("/"))
        fresh.user = drf.user
        with CaptureQueriesContext(connection) as queries:
            kept = organiser_club_ids(drf)
        assert kept == organiser_club_ids(fresh)
        assert len(queries) == 0, role
        seen[role] = len(readable)
    # Nobody and Secret: only the superuser; the rival club's members: its organiser too.
    assert seen["superuser"] == Player.objects.count() == seen["anonymous"] + 4
    assert seen["other_organiser"] == seen["anonymous"] + 2 == seen["organiser"] + 2


def test_the_organiser_s_clubs_are_read_as_a_set(world):
    """organiser_club_ids and selectors.viewer read the ids without Membership's ordering
    (which joined the clubs and sorted them, for a set)."""
    from games.api.permissions import organiser_club_ids
    from scoring.selectors import viewer

    user = Token.objects.get(key=world.tokens["organiser"]).user
    drf = Request(APIRequestFactory().get("/"))
    drf.user = user
    for read in (lambda: organiser_club_ids(drf), lambda: viewer(user).organises):
        with CaptureQueriesContext(connection) as queries:
            assert read() == frozenset({world.club.pk})
        (sql,) = [q["sql"] for q in queries.captured_queries]
        assert "ORDER BY" not in sql and "clubs_club" not in sql, sql
