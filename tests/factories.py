"""Plain functions that build clubs, events, tables and games for the tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.text import slugify

from clubs.models import Club, League, Membership, Player
from games.barbu import evenings
from games.barbu.corrections import rename_in_deal
from games.barbu.game_creation import game_create
from games.models import Event, Game, Round, Seat, Table
from scoring.engine.barbu.randomgame import random_game

NAMES = ("Anna", "Bruno", "Carla", "Dario")


def make_club(name: str = "Circolo Barbu", *, ruleset: str | dict = "italian7", **kw) -> Club:
    if isinstance(ruleset, str):
        ruleset = {"preset": ruleset, "options": {}}
    slug = kw.pop("slug", None) or slugify(name)
    return Club.objects.create(name=name, slug=slug, ruleset=ruleset, **kw)


def make_player(club: Club | None, name: str, *, role: str = "member", user=None) -> Player:
    player = Player.objects.create(name=name, user=user, email=f"{slugify(name)}@example.org")
    if club is not None:
        Membership.objects.create(club=club, player=player, role=role)
    return player


def make_organiser(club: Club, username: str = "organiser", password: str = "tavolo-test"):
    user = get_user_model().objects.create_user(username=username, password=password)
    make_player(club, username.title(), role=Membership.Role.ORGANISER, user=user)
    return user


def make_league(club: Club, name: str = "Winter league", **kw) -> League:
    return League.objects.create(club=club, name=name, season=kw.pop("season", "2026"), **kw)


def make_event(club: Club, *, league: League | None = None, **kw) -> Event:
    kw.setdefault("name", "Tuesday evening")
    kw.setdefault("starts_at", timezone.now())
    kw.setdefault("ruleset", (league.effective_ruleset() if league else club.ruleset))
    return Event.objects.create(club=club, league=league, **kw)


def make_table(
    event: Event, players: Sequence[Player], *, round_number: int = 1, number: int | None = None
) -> Table:
    rnd, _ = Round.objects.get_or_create(event=event, number=round_number)
    number = number or rnd.tables.count() + 1
    table = Table.objects.create(round=rnd, number=number)
    for position, player in enumerate(players):
        Seat.objects.create(table=table, position=position, player=player)
    return table


def make_game(
    club: Club | None = None,
    *,
    names: Sequence[str] = NAMES,
    event: Event | None = None,
    ruleset: str | dict = "italian7",
    turns: int | None = None,
) -> Game:
    """A seated table of four and its game, in a new club and event unless given."""
    club = club or (event.club if event else make_club(ruleset=ruleset))
    event = event or make_event(club)
    players = [make_player(club, name) for name in names]
    table = make_table(event, players)
    return game_create(table=table, turns=turns)


def full_game(preset: str = "italian7", seed: int = 7) -> dict:
    record = random_game(random.Random(seed), preset)
    mapping = dict(zip(record["players"], NAMES, strict=True))
    return {
        **record,
        "players": list(NAMES),
        "deals": [rename_in_deal(d, mapping) for d in record["deals"]],
    }


def seated_event(club: Club, count: int = 9) -> Event:
    event = make_event(club)
    players = [make_player(club, f"Player {i}") for i in range(count)]
    evenings.checkin_set(event=event, player_ids=[p.pk for p in players])
    evenings.round_seat(event=event, seed=4)
    return event
