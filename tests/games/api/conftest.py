"""One game of each kind, with who may write to it, for the API tests of both games."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import scorecards, tournaments
from games.models import Event, Game, Table
from tests.api.conftest import build_world
from tests.factories import make_organiser
from tests.tournaments.builders import tournament

GAMES = ["barbu", "burraco"]


@dataclass
class Side:
    """A published event of one game, its organiser's token and a game with a deal (Barbu)
    or a hand (Burraco) stored, at `table`."""

    kind: str
    event: Event
    game: Game
    table: Table
    token: str
    path: str  # where the table writes the next deal or hand
    first: dict  # the body of deal or hand 1, as stored
    next: dict  # a body the engine accepts as the next deal or hand

    def client(self, role: str = "anonymous") -> APIClient:
        client = APIClient()
        if role == "organiser":
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        elif role == "table_key":
            client.credentials(HTTP_X_TABLE_KEY=self.table.key)
        return client


def barbu_side() -> Side:
    world = build_world()
    game = world.game
    event = game.table.round.event
    return Side(
        "barbu",
        event,
        game,
        world.table,
        world.tokens["organiser"],
        path=f"/api/v1/games/{game.pk}/deals/",
        first={"number": 1, **world.deals[0]},
        next={"number": 3, **world.deals[2]},
    )


def burraco_side() -> Side:
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    table = rnd.tables.order_by("number").first()
    game = table.game
    scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 300, "EW": 100}}, line="NS")
    organiser = make_organiser(event.club, "referee")
    return Side(
        "burraco",
        event,
        game,
        table,
        Token.objects.create(user=organiser).key,
        path=f"/api/v1/games/{game.pk}/hands/",
        first={"number": 1, "line": "NS", "mp": {"NS": 300, "EW": 100}},
        next={"number": 2, "line": "NS", "mp": {"NS": 150, "EW": 250}},
    )


@pytest.fixture(params=GAMES)
def side(request, db) -> Side:
    """Each test taking `side` runs once per game."""
    return barbu_side() if request.param == "barbu" else burraco_side()


@pytest.fixture(autouse=True)
def _api_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # Throttle counters live in the cache, which outlives a test's database.
    cache.clear()
    yield
    cache.clear()
