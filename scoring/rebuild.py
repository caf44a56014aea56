"""The stored standing rows of events and leagues rebuilt from the games; rebuild_all.

Each rebuild aggregates the GameScore rows in SQL (scoring/aggregates.py), ranks them
with the pure maths of scoring/standings.py, and writes the stored rows that differ in
one transaction that first locks the event or league row: two workers never interleave,
and a worker killed half-way leaves the old rows. Running a rebuild twice gives the same
rows (the second writes nothing). The ratings are synced by scoring/rating_sync.py.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection, transaction

from clubs.models import GameChoice, League
from games import live
from games.models import Event
from games.sql import json_value
from scoring import league_lines
from scoring import standings as maths
from scoring.aggregates import (
    CENTS,
    aggregate,
    aggregate_seats,
    event_scores,
    head_to_head_pairs,
    head_to_head_pairs_of,
    league_scores,
    rank,
    ranking_of,
    read_seats,
    unfinished_by_player,
)
from scoring.burraco_rating_sync import sync_burraco_ratings
from scoring.burraco_rebuild import rebuild_pair_standings
from scoring.cache_keys import event_cache_key, forget, league_cache_key
from scoring.models import EventStanding, LeagueStanding
from scoring.rating_sync import sync_ratings


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


def _stored_rows(
    model: Any, scope: dict[str, int], fields: list[str]
) -> dict[int, tuple[Any, ...]]:
    """The stored values of these fields, by player id. On PostgreSQL the columns come
    back as the ORM gives them but `details` (jsonb, as text): read as plain rows and
    that one column parsed, without the ORM's work per row (a thousand rows a league).
    In no order: the models' default ordering joined the league, its club and every
    player for their names and sorted the rows, several times the read itself (issue 20)."""
    rows = model.objects.filter(**scope).values_list("player_id", *fields).order_by()
    if connection.vendor != "postgresql":
        return {values[0]: values[1:] for values in rows}
    sql, params = rows.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    at = fields.index("details") + 1
    return {
        values[0]: (*values[1:at], json_value(values[at]), *values[at + 1 :]) for values in fetched
    }


def _replace_rows(model: Any, scope: dict[str, int], rows: dict[int, dict[str, Any]]) -> int:
    """Make the stored rows of this scope exactly `rows` (the compared fields of each
    player's row, by player id), inside the caller's transaction; the number of rows
    written or deleted.

    One read of the stored rows, compared with the new ones (maths.row_changes): new and
    changed rows are written by one INSERT ... ON CONFLICT DO UPDATE, vanished ones
    deleted, unchanged ones left alone (no model instance is even made for them). After
    one deal most of an evening's or a league's rows are unchanged, and when nothing
    changed nothing is written.
    """
    fields = [f for f in COMPARED if hasattr(model, f)]
    stored = _stored_rows(model, scope, fields)
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


# A league's aggregate groups its tens of thousands of GameScore rows by (player,
# evening): with PostgreSQL's default 4 MB the hash table spilled to disk in batches, and
# the query took about three times its floor (issue 20). Enough for a few hundred
# thousand groups; this transaction only.
LEAGUE_WORK_MEM = "64MB"


@contextmanager
def _derived_rows_transaction(work_mem: str | None = None) -> Iterator[None]:
    """transaction.atomic() for a standings rebuild. When it is the outermost transaction
    on PostgreSQL, its commit does not wait for the WAL to reach the disk
    (synchronous_commit off, SET LOCAL: this transaction only): the rows are derived from the
    games, so a crash can lose at most the last few hundred milliseconds of them, never
    a deal, and the next rebuild (or the nightly one) writes them again. Inside a
    caller's transaction (a deal being stored, a test) the caller's commit decides.
    `work_mem`: PostgreSQL's memory for sorts and hash tables until the outermost
    transaction ends (SET LOCAL: inside a caller's, for the rest of it too; more memory,
    never another result)."""
    outermost = not connection.in_atomic_block and connection.get_autocommit()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # set_config(..., true) is SET LOCAL; both in one statement (one round trip,
            # which on a busy machine is a wait for the database's process).
            sets, params = [], []
            if outermost:
                sets.append("set_config('synchronous_commit', 'off', true)")
            if work_mem is not None:
                sets.append("set_config('work_mem', %s, true)")
                params.append(work_mem)
            if sets:
                with connection.cursor() as cursor:
                    cursor.execute(f"SELECT {', '.join(sets)}", params)
        yield


def rebuild_event_standings(*, event_id: int) -> int:
    """Bring an evening's standing rows up to date; the number of players ranked (of
    pairs, for a Burraco tournament: scoring/burraco_rebuild.py)."""
    with _derived_rows_transaction():
        try:
            event = (
                Event.objects.select_for_update(of=("self",))
                .select_related("league")
                .get(pk=event_id)
            )
        except Event.DoesNotExist:
            return 0
        if event.game == GameChoice.BURRACO:  # locked again there: the same transaction
            return rebuild_pair_standings(event_id=event_id)
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
        transaction.on_commit(lambda: forget(event_cache_key(event_id)))
        if changed:  # the live page shows them: its pollers get the new rows
            live.touch_on_commit("event", [event_id])
    return len(standings)


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector (as it was before, after): a league rebuild
    makes tens of thousands of small acyclic objects (lines, Fractions, games), enough to
    set off full collections that walk every live object, about a fifth of the rebuild's
    time. Reference counting still frees everything as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _league_ranks(
    league_id: int, ranking: maths.Ranking
) -> tuple[list[maths.Standing], dict[int, int]]:
    """The league's standings, and each player's rank before the latest evening with a
    complete game (the movement). One query gives both (scoring/league_lines.py), but for
    an average of the best N evenings: the lines per (player, evening) then, combined
    again only for the players of the latest evening."""
    scores = league_scores(league_id)
    if league_lines.supported(ranking):
        now, lines_before, last = league_lines.league_player_lines(league_id, ranking)
    else:
        data = aggregate(scores, ranking)
        now = maths.combine(data.lines, ranking)
        last = data.latest_event()
        lines_before = [] if last is None else data.players_without(last, now, ranking)
    # Head-to-head from the pair scores of the level players, counted in SQL, not from
    # their games read into Python: the groups of both rankings in one query, read only
    # if a tie reaches head-to-head.
    read: dict[str, Any] = {}

    def pairs_now(groups: list[list[int]]) -> maths.PairNets:
        before = [] if last is None else maths.head_to_head_groups(lines_before, ranking)
        nets, read["before"] = head_to_head_pairs_of(scores, [(None, groups), (last, before)])
        read["groups"] = before
        return nets

    def pairs_before(groups: list[list[int]]) -> maths.PairNets:
        if read.get("groups") == groups:
            return read["before"]
        return head_to_head_pairs(scores, groups, last)

    standings = maths.rank(now, ranking, pairs=pairs_now)
    if last is None:
        return standings, {}
    ranked = maths.rank(lines_before, ranking, pairs=pairs_before)
    return standings, {s.player_id: s.rank for s in ranked}


def rebuild_league_standings(*, league_id: int) -> int:
    """Bring a league table up to date, with each player's rank before the latest evening;
    the number of players ranked."""
    with _derived_rows_transaction(work_mem=LEAGUE_WORK_MEM):
        try:
            league = League.objects.select_for_update().get(pk=league_id)
        except League.DoesNotExist:
            return 0
        ranking = ranking_of(league)
        with _no_cycle_collection():
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
        transaction.on_commit(lambda: forget(league_cache_key(league_id)))
    return len(standings)


def rebuild_all(progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
    """Every event's and league's standings and the ratings, from scratch."""
    events = list(Event.objects.order_by("id").values_list("id", flat=True))
    leagues = list(League.objects.order_by("id").values_list("id", flat=True))
    for i, event_id in enumerate(events, 1):
        rebuild_event_standings(event_id=event_id)
        if progress:
            progress("events", i, len(events))
    for i, league_id in enumerate(leagues, 1):
        rebuild_league_standings(league_id=league_id)
        if progress:
            progress("leagues", i, len(leagues))
    report = sync_ratings(full=True)
    if progress:
        progress("ratings", report.games, report.games)
    pairs = sync_burraco_ratings(full=True)
    if progress:
        progress("Burraco pair ratings", pairs.games, pairs.games)
    return {
        "events": len(events),
        "leagues": len(leagues),
        "games_rated": report.games,
        "burraco_cards_rated": pairs.games,
    }
