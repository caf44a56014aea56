"""The Barbu ratings brought up to date with the complete games (the rating history replayed).

The Barbu players' rating source for the shared machinery of scoring/rating_sync.py
(`sync`): the complete Barbu games with each player's place at the table, in rating order,
replayed with the pure maths of scoring/engine/ratings.py into RatingHistory and
PlayerRating, under the lock of the RatingRun row. Only the games changed since the
previous sync are compared with the stored history; the replay starts at the earliest game
whose result or place in the order changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q

from games.models import Game, GameScore
from scoring.barbu.aggregates import EVENT_FIELD
from scoring.engine import ratings as rating_maths
from scoring.models import PlayerRating, RatingHistory, RatingRun
from scoring.rating_sync import RatingSource, RatingsReport, order_key, sync


@dataclass(frozen=True)
class RatedGame:
    key: str
    game_id: int
    event_id: int
    places: dict[int, Decimal]


def rated_games(where: Q | None = None) -> list[RatedGame]:
    """Complete games (all, or those matching `where`) with their players' places, in
    rating order (four rows a game)."""
    games: dict[int, RatedGame] = {}
    rows = GameScore.objects.filter(game__status=Game.Status.COMPLETE)
    if where is not None:
        rows = rows.filter(where)
    for game_id, player_id, place, event_id, starts_at, rnd, table in rows.values_list(
        "game_id",
        "player_id",
        "place",
        EVENT_FIELD,
        "game__table__round__event__starts_at",
        "game__table__round__number",
        "game__table__number",
    ).order_by():
        game = games.get(game_id)
        if game is None:
            key = order_key(starts_at, event_id, rnd, table, game_id)
            game = games[game_id] = RatedGame(key, game_id, event_id, {})
        game.places[player_id] = place
    return sorted(games.values(), key=lambda g: g.key)


def _first_difference(since: Any) -> str | None:
    """The order key of the earliest complete game changed since then whose places (or
    order) differ from the rating history; None when the history is up to date."""
    changed = rated_games(Q(game__updated_at__gte=since))
    if not changed:
        return None
    stored: dict[int, tuple[str, dict[int, Decimal]]] = {}
    for game_id, player_id, key, place in RatingHistory.objects.filter(
        game_id__in=[g.game_id for g in changed]
    ).values_list("game_id", "player_id", "order_key", "place"):
        stored.setdefault(game_id, (key, {}))[1][player_id] = place
    keys = [g.key for g in changed if stored.get(g.game_id) != (g.key, g.places)]
    return min(keys) if keys else None


def _replay(
    start: dict[int, rating_maths.Rating], games: list[RatedGame]
) -> tuple[dict[int, rating_maths.Rating], list[Any]]:
    return rating_maths.replay(
        start,
        (
            rating_maths.TableResult(g.game_id, {p: float(x) for p, x in g.places.items()})
            for g in games
        ),
    )


def _history_row(game: RatedGame, player_id: int, r: rating_maths.Rating) -> RatingHistory:
    return RatingHistory(
        player_id=player_id,
        game_id=game.game_id,
        event_id=game.event_id,
        order_key=game.key,
        place=game.places[player_id],
        mu=r.mu,
        sigma=r.sigma,
        ordinal=r.ordinal,
    )


BARBU = RatingSource(
    run=RatingRun,
    history=RatingHistory,
    current=PlayerRating,
    items=lambda where: rated_games(where),
    starts_at="game__table__round__event__starts_at",
    first_difference=lambda since: _first_difference(since),
    game_id=lambda game: game.game_id,
    players=lambda game: game.places,
    replay=_replay,
    history_row=_history_row,
)


def sync_ratings(*, full: bool = False, now: Any = None) -> RatingsReport:
    """The Barbu ratings brought up to date with the complete games (see `sync`)."""
    return sync(BARBU, full=full, now=now)
