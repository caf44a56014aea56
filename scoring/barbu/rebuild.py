"""A Barbu evening's and a Barbu league's stored standing rows rebuilt from the games.

Each rebuild aggregates the GameScore rows with the ORM (scoring/barbu/aggregates.py),
ranks them with the pure maths of scoring/engine/ranking.py, and writes the stored rows
that differ in one transaction that first locks the event or league row: two workers
never interleave, and a worker killed half-way leaves the old rows. Running a rebuild
twice gives the same rows (the second writes nothing). An evening's rebuild is reached
through scoring/rebuild.py, which locks the event and sends a Burraco tournament to
scoring/burraco/rebuild.py; the ratings are synced by scoring/barbu/rating_sync.py.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction

from clubs.models import League
from games.core import live
from games.models import Event
from scoring.barbu.aggregates import (
    CENTS,
    aggregate,
    aggregate_seats,
    event_scores,
    league_scores,
    rank,
    ranking_of,
    read_seats,
    unfinished_by_player,
)
from scoring.engine import ranking as maths
from scoring.models import EventStanding, LeagueStanding


def _details(standing: maths.Standing) -> dict[str, Any]:
    line = standing.line
    num = maths.number
    details = {
        "total": num(line.total),
        "placement": num(line.placement),
        "average": maths.average_number(line),
        "wins": line.wins,
        "best_game": num(line.best_game),
        "deals": line.deals,
        "qualified": standing.qualified,
    }
    if standing.tiebreak and standing.tiebreak != "tied":
        details["tiebreak"] = {
            "key": standing.tiebreak,
            "value": num(standing.tiebreak_values.get(standing.tiebreak)),
        }
    return details


def _points(value: maths.Number) -> Decimal:
    """Points as stored: two decimal places (totals are Decimals already, shares Fractions)."""
    if isinstance(value, Decimal | int):
        return Decimal(value).quantize(CENTS)
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENTS)


COMPARED = ("rank", "previous_rank", "points", "games", "evenings", "details", "tiebreak_note")


def _replace_rows(model: Any, scope: dict[str, int], rows: dict[int, dict[str, Any]]) -> int:
    """Make the stored rows of this scope exactly `rows` (the compared fields of each
    player's row, by player id), inside the caller's transaction; the number of rows
    written or deleted.

    One read of the stored rows (values, in no order: the models' default ordering joins
    the players to sort them), compared with the new ones (maths.row_changes): new and
    changed rows are written by one bulk_create(update_conflicts=True), vanished ones
    deleted, unchanged ones left alone. After one deal most of an evening's or a league's
    rows are unchanged, and when nothing changed nothing is written.
    """
    fields = [f for f in COMPARED if hasattr(model, f)]
    rows_stored = model.objects.filter(**scope).values_list("player_id", *fields).order_by()
    stored = {values[0]: values[1:] for values in rows_stored}
    changed, vanished = maths.row_changes(
        stored, {p: tuple(row[f] for f in fields) for p, row in rows.items()}
    )
    if vanished:
        model.objects.filter(**scope, player_id__in=vanished).delete()
    if changed:
        (owner,) = (key.removesuffix("_id") for key in scope)
        model.objects.bulk_create(
            [model(**scope, player_id=p, **rows[p]) for p in changed],
            batch_size=2000,
            update_conflicts=True,
            unique_fields=[owner, "player"],
            update_fields=[*fields, "updated_at"],
        )
    return len(changed) + len(vanished)


def rebuild_player_standings(event: Event) -> int:
    """Bring a Barbu evening's standing rows up to date; the number of players ranked.

    Inside the caller's transaction, with the event row locked and its league read
    (scoring/rebuild.py: rebuild_event_standings)."""
    event_id = event.pk
    ranking = ranking_of(event, event.league)
    scores = event_scores(
        event_id,
        complete_only=event.status == Event.Status.CLOSED and event.unfinished == "exclude",
    )
    # One read of the evening's seats gives the lines, the games for head-to-head and
    # each player's unfinished games.
    seats = read_seats(scores)
    standings = rank(aggregate_seats(scores, ranking, seats), ranking)
    unfinished = unfinished_by_player(seats)
    changed = _replace_rows(
        EventStanding,
        {"event_id": event_id},
        {
            s.player_id: {
                "rank": s.rank,
                "points": _points(s.points),
                "games": s.line.games,
                # Games counted that are not complete: the pages mark them.
                "details": {**_details(s), "unfinished": unfinished.get(s.player_id, 0)},
                "tiebreak_note": s.tiebreak,
            }
            for s in standings
        },
    )
    if changed:  # the live page shows them: its pollers get the new rows
        live.touch_on_commit("event", [event_id])
    return len(standings)


def _league_ranks(
    league_id: int, ranking: maths.Ranking
) -> tuple[list[maths.Standing], dict[int, int]]:
    """The league's standings, and each player's rank before the latest evening with a
    complete game (the movement): the lines per (player, evening) read once, combined for
    the ranking now, and again without the latest evening only for that evening's players
    (every other player's line is the same either way). Head-to-head reads the games of
    the players a tie leaves level, once for both rankings."""
    data = aggregate(league_scores(league_id), ranking)
    now = maths.combine(data.lines, ranking)
    standings = maths.rank(now, ranking, data.load_shared_games)
    last = data.latest_event()
    if last is None:
        return standings, {}
    before = data.players_without(last, now, ranking)
    ranked = maths.rank(before, ranking, data.without(last).load_shared_games)
    return standings, {s.player_id: s.rank for s in ranked}


def rebuild_league_standings(*, league_id: int) -> int:
    """Bring a league table up to date, with each player's rank before the latest evening;
    the number of players ranked."""
    with transaction.atomic():
        try:
            league = League.objects.select_for_update().get(pk=league_id)
        except League.DoesNotExist:
            return 0
        ranking = ranking_of(league)
        standings, previous = _league_ranks(league_id, ranking)
        _replace_rows(
            LeagueStanding,
            {"league_id": league_id},
            {
                s.player_id: {
                    "rank": s.rank,
                    "previous_rank": previous.get(s.player_id),
                    "points": _points(s.points),
                    "games": s.line.games,
                    "evenings": s.line.evenings,
                    "details": {**_details(s), "evenings_counted": s.line.evenings_counted},
                    "tiebreak_note": s.tiebreak,
                }
                for s in standings
            },
        )
    return len(standings)
