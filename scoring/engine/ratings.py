"""OpenSkill (Plackett–Luce) ratings from the places at each table: pure, no Django."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import permutations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate (mu - 3 sigma) players are ranked by."""
        return self.mu - 3 * self.sigma


def initial() -> Rating:
    fresh = MODEL.rating()
    return Rating(fresh.mu, fresh.sigma)


@dataclass(frozen=True)
class TableResult:
    """One complete game: each player's shared place at the table (1..4, .5 for ties)."""

    game_id: int
    places: Mapping[int, float]  # player_id -> place


def _strict_orders(places: Mapping[int, float]) -> list[list[int]]:
    """Every order of the players that breaks their ties (one order when nobody is tied)."""
    groups: dict[float, list[int]] = {}
    for player, place in places.items():
        groups.setdefault(float(place), []).append(player)
    orders: list[list[int]] = [[]]
    for place in sorted(groups):
        orders = [o + list(p) for o in orders for p in permutations(groups[place])]
    return orders


def rate_game(current: Mapping[int, Rating], result: TableResult) -> dict[int, Rating]:
    """The new ratings of the game's players (unknown players start from the default).

    openskill 6.2 mis-rates tied ranks in Plackett–Luce (a player below a tie can gain as
    much as the tied winners: vivekjoshy/openskill.py#155, #176), so a tie is rated as the
    average of every strict order that breaks it: tied players get the same update, and
    the order of the seats does not matter.
    """
    players = list(result.places)
    start = {p: current.get(p) or initial() for p in players}
    orders = _strict_orders(result.places)
    mu = dict.fromkeys(players, 0.0)
    sigma = dict.fromkeys(players, 0.0)
    for order in orders:
        teams = [[MODEL.create_rating([start[p].mu, start[p].sigma])] for p in order]
        rated = MODEL.rate(teams, ranks=list(range(1, len(order) + 1)))
        for p, team in zip(order, rated, strict=True):
            mu[p] += team[0].mu
            sigma[p] += team[0].sigma
    n = len(orders)
    return {p: Rating(mu[p] / n, sigma[p] / n) for p in players}


def replay(
    start: Mapping[int, Rating], results: Iterable[TableResult]
) -> tuple[dict[int, Rating], list[tuple[int, int, Rating]]]:
    """Rate the games in order from these ratings: final ratings and (game, player, rating)
    after each game, for the history."""
    current = dict(start)
    history: list[tuple[int, int, Rating]] = []
    for result in results:
        new = rate_game(current, result)
        current.update(new)
        history.extend((result.game_id, p, r) for p, r in new.items())
    return current, history
