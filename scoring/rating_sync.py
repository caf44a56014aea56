"""The machinery that brings a rating up to date with its games (the rating history replayed).

Only the games changed since the previous sync are compared with the stored history;
the replay starts at the earliest game whose result or place in the order changed, from
the ratings just before it. One transaction, under the lock of the rating's run row.
`sync` is that skeleton for any rating (a `RatingSource`): the Barbu players' rating
(scoring/barbu/rating_sync.py) and the Burraco pair rating (scoring/burraco/rating_sync.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Max, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from scoring.engine import ratings as rating_maths
from scoring.models import PlayerRating, RatingHistory


def order_key(starts_at: Any, event_id: int, round_number: int, table: int, game_id: int) -> str:
    """Text that sorts games in rating order: event date, event, round, table, game."""
    stamp = starts_at.astimezone(UTC).strftime("%Y%m%d%H%M%S")
    return f"{stamp}|{event_id:09d}|{round_number:04d}|{table:04d}|{game_id:012d}"


@dataclass(frozen=True)
class RatingsReport:
    games: int
    replayed: int
    from_key: str | None


# A deal's transaction can commit a little after the game row's updated_at was set: games
# changed this long before the previous sync started are looked at again.
SYNC_SLACK = timedelta(minutes=10)


def ratings_before(
    from_key: str, history: Any = RatingHistory, current: Any = PlayerRating
) -> dict[int, rating_maths.Rating]:
    """Each player's rating just before the game with this key (one query), read from
    these models (the Barbu rating's by default; the Burraco pair rating's have the same
    fields: scoring/burraco/rating_sync.py)."""
    if not from_key:
        return {}
    last = history.objects.aggregate(last=Max("order_key"))["last"]
    if last is None or last < from_key:
        # New games after everything rated: the current ratings are the start.
        rows = current.objects.values_list("player_id", "mu", "sigma")
    else:
        rows = (
            history.objects.filter(order_key__lt=from_key)
            .annotate(
                newest=Window(
                    RowNumber(), partition_by=[F("player_id")], order_by=F("order_key").desc()
                )
            )
            .filter(newest=1)
            .values_list("player_id", "mu", "sigma")
        )
    return {p: rating_maths.Rating(mu, sigma) for p, mu, sigma in rows}


@dataclass(frozen=True)
class RatingSource:
    """A rating's games and rows: what `sync` needs to know of one kind of rating (the
    Barbu players', scoring/barbu/rating_sync.py; the Burraco pairs',
    scoring/burraco/rating_sync.py)."""

    run: Any  # the model of the one row that locks a sync and remembers the last
    history: Any  # the model of the rating after each game (player, game, order_key...)
    current: Any  # the model of each player's rating now
    # The rated games (all, or those matching the Q), in rating order, each with `.key`.
    items: Callable[[Q | None], list[Any]]
    starts_at: str  # the path from an item's row to its event's start, for `items`
    first_difference: Callable[[Any], str | None]  # see _first_difference
    game_id: Callable[[Any], int]
    players: Callable[[Any], Iterable[int]]
    # (ratings before, items) -> (final ratings, [(game id, player id, rating)...]).
    replay: Callable[[dict[int, Any], list[Any]], tuple[dict[int, Any], list[Any]]]
    history_row: Callable[[Any, int, Any], Any]  # (item, player id, rating) -> history row
    # Players whose replayed rows are gone and who play no later game go back to their
    # rating before (or to none), instead of keeping the one of the vanished game.
    forget_dropped: bool = False


def sync(source: RatingSource, *, full: bool = False, now: Any = None) -> RatingsReport:
    """Bring a rating up to date with its games: replay from the earliest game whose result
    (or place in the order) changed, or everything when `full`.

    Only games changed since the previous sync are compared with the history, so a new
    game at the end replays one game and a corrected old game replays from it on. Games
    that vanished (an event deleted, its history with it) make it replay everything. One
    transaction, under the lock of the source's run row.
    """
    now = now or timezone.now()
    with transaction.atomic():
        source.run.objects.get_or_create(pk=1)
        run = source.run.objects.select_for_update().get(pk=1)
        rated = source.history.objects.values("game_id").distinct().count()
        if full or run.started_at is None or rated != run.games:
            from_key: str | None = ""
        else:
            from_key = source.first_difference(run.started_at - SYNC_SLACK)
        run.started_at = now
        if from_key is None:
            run.replayed = 0
            run.save()
            return RatingsReport(run.games, 0, None)

        start = ratings_before(from_key, source.history, source.current)
        if from_key:
            since = datetime.strptime(from_key[:14], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
            todo = [
                item
                for item in source.items(Q(**{f"{source.starts_at}__gte": since}))
                if item.key >= from_key
            ]
        else:
            todo = source.items(None)
        by_id = {source.game_id(item): item for item in todo}
        final, history = source.replay(start, todo)
        replaced = source.history.objects.filter(order_key__gte=from_key)
        dropped: set[int] = set()
        if source.forget_dropped:
            dropped = set(replaced.values_list("player_id", flat=True).distinct())
        replaced.delete()
        source.history.objects.bulk_create(
            (source.history_row(by_id[game_id], player_id, r) for game_id, player_id, r in history),
            batch_size=2000,
        )
        touched = {p for item in todo for p in source.players(item)}
        touched |= {p for p in dropped if p in final}
        write_current_ratings(
            {p: final[p] for p in touched},
            full=not from_key,
            history=source.history,
            current=source.current,
        )
        if source.forget_dropped:
            source.current.objects.filter(player_id__in=dropped - touched).delete()
        run.games = source.history.objects.values("game_id").distinct().count()
        run.replayed = len(todo)
        run.finished_at = timezone.now()
        run.save()
    return RatingsReport(run.games, len(todo), from_key)


def write_current_ratings(
    final: dict[int, rating_maths.Rating],
    *,
    full: bool,
    history: Any = RatingHistory,
    current: Any = PlayerRating,
) -> None:
    """Store these players' ratings and game counts (a full replay also drops the others),
    in these models (the Barbu rating's by default)."""
    counts = dict(
        history.objects.filter(player_id__in=list(final))
        .values("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
        .order_by()
    )
    if full:
        current.objects.exclude(player_id__in=list(final)).delete()
    existing = dict(
        current.objects.filter(player_id__in=list(final)).values_list("player_id", "pk")
    )
    rows = [
        current(
            pk=existing.get(p),
            player_id=p,
            mu=r.mu,
            sigma=r.sigma,
            ordinal=r.ordinal,
            games=counts.get(p, 0),
        )
        for p, r in final.items()
    ]
    current.objects.bulk_create([r for r in rows if r.pk is None], batch_size=2000)
    current.objects.bulk_update(
        [r for r in rows if r.pk is not None],
        ["mu", "sigma", "ordinal", "games"],
        batch_size=2000,
    )
