"""A small world for the API tests: two clubs, their organisers, a member, a published
event with two tables and their keys, and the deals of a valid game."""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Club, Membership
from games.barbu.submission import deal_submit
from games.burraco import scorecards, tournaments
from games.models import Event, Game, Table
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES, make_club, make_event, make_game, make_organiser, make_player
from tests.games.burraco.builders import tournament

ROLES = ["anonymous", "other_organiser", "member", "other_table_key", "table_key", "organiser"]


def game_deals(seed: int = 1, preset: str = "italian7") -> list[dict]:
    """The deals of a random valid full game between NAMES, in order."""
    return random_game(random.Random(seed), preset, players=list(NAMES))["deals"]


@dataclass
class World:
    club: Club
    game: Game  # published event, table 1, two deals stored
    other_game: Game  # published event, table 2, no deals
    hidden_game: Game  # unpublished event of the same club, one deal
    table: Table
    other_table: Table
    deals: list[dict]  # the full game of `game`, deal by deal
    tokens: dict[str, str]

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if role in ("organiser", "other_organiser", "member"):
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[role]}")
        elif role == "table_key":
            client.credentials(HTTP_X_TABLE_KEY=self.table.key)
        elif role == "other_table_key":
            client.credentials(HTTP_X_TABLE_KEY=self.other_table.key)
        return client


def build_world(*, confirm_deals: bool = False) -> World:
    club = make_club("Circolo Uno", confirm_deals=confirm_deals)
    other = make_club("Circolo Due")
    organiser = make_organiser(club, "organiser")
    other_organiser = make_organiser(other, "rival")
    member = get_user_model().objects.create_user(username="member", password="tavolo-test")
    make_player(club, "Member", role=Membership.Role.MEMBER, user=member)
    event = make_event(club, name="Published evening")
    hidden = make_event(club, name="Private evening", published=False)
    game = make_game(club, event=event)
    other_game = make_game(club, event=event)
    hidden_game = make_game(club, event=hidden)
    deals = game_deals()
    for deal in deals[:2]:
        deal_submit(game_id=game.pk, deal=deal)
    deal_submit(game_id=hidden_game.pk, deal=game_deals(2)[0])
    tokens = {
        "organiser": Token.objects.create(user=organiser).key,
        "other_organiser": Token.objects.create(user=other_organiser).key,
        "member": Token.objects.create(user=member).key,
    }
    return World(
        club=club,
        game=game,
        other_game=other_game,
        hidden_game=hidden_game,
        table=game.table,
        other_table=other_game.table,
        deals=deals,
        tokens=tokens,
    )


def url(world: World, suffix: str = "") -> str:
    return f"/api/v1/games/{world.game.pk}/deals/{suffix}"


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
