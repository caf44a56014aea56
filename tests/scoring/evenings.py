"""Builders of played evenings for the standings tests: real deals through
games.barbu.submission."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta
from decimal import Decimal

from django.utils import timezone

from clubs.models import Club, League, Player
from games.barbu.game_creation import game_create
from games.barbu.submission import deal_submit
from games.models import Event, Game
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_event, make_player, make_table


def play(game: Game, rng: random.Random, deals: int | None = None) -> None:
    """Enter `deals` deals of a random valid game (all of them when None)."""
    record = random_game(rng, game.ruleset, players=list(game.player_names))
    already = game.deals.count()
    end = len(record["deals"]) if deals is None else min(already + deals, game.deals_target)
    for deal in record["deals"][already:end]:
        deal_submit(game_id=game.pk, deal=deal, by_label="test")


def seat(event: Event, players: Sequence[Player], *, round_number: int = 1) -> Game:
    table = make_table(event, players, round_number=round_number)
    return game_create(table=table)


def players(club: Club, n: int, prefix: str = "P") -> list[Player]:
    return [make_player(club, f"{prefix}{i:03d}") for i in range(n)]


def evening(
    club: Club,
    people: Sequence[Player],
    *,
    league: League | None = None,
    rng: random.Random,
    days_ago: int = 0,
    complete: bool = True,
    name: str = "Evening",
) -> Event:
    """An evening with the people seated in fours (in order), every game played."""
    event = make_event(
        club,
        league=league,
        name=name,
        starts_at=timezone.now() - timedelta(days=days_ago),
        status=Event.Status.RUNNING,
    )
    for i in range(0, len(people) - len(people) % 4, 4):
        game = seat(event, people[i : i + 4])
        play(game, rng, None if complete else 5)
    return event


def place_of(totals: list[float], mine: float) -> Decimal:
    above = sum(1 for t in totals if t > mine)
    tied = sum(1 for t in totals if t == mine)
    return Decimal(above) + Decimal(tied + 1) / 2


# Each game's totals in seat order, per evening. Together they hold all ten
# (players above, players level) cases of maths.PLACEMENT_CASES.
EVENINGS = [
    [
        [10, 5, 0, -15],  # no tie
        [10, 10, 0, -20],  # two level for first
        [5, 0, 0, -5],  # two level for second
        [1, 1, 1, -3],  # three level for first
        [0, 0, 0, 0],  # all four level
    ],
    [
        [7.5, 7.5, -2.5, -12.5],  # half points, two level for first
        [3, 0, 0, 0],  # three level for second
        [5, 3, -4, -4],  # two level for third
        [2.5, -0.5, -0.5, -1.5],  # half points, two level for second
        [-1, 4, -1, -2],
    ],
]
