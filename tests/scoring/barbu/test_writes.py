"""What a standings rebuild writes: only the rows that changed (none when nothing did), and
the same rows as a rebuild from scratch; and how an evening's and a league's lines are
read."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from scoring import rebuild
from scoring.barbu import aggregates
from scoring.barbu import rebuild as barbu_rebuild
from scoring.engine import ranking as maths
from scoring.models import EventStanding, LeagueStanding
from tests.factories import make_club, make_league, make_player
from tests.scoring.evenings import evening, play, players, seat

FIELDS = ("player_id", "rank", "previous_rank", "points", "games", "details", "tiebreak_note")


def _writes(queries: CaptureQueriesContext, table: str) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if table in q["sql"] and q["sql"].lstrip().split()[0] in ("INSERT", "UPDATE", "DELETE")
    ]


def _event_rows(event_id: int) -> list[tuple]:
    return list(
        EventStanding.objects.filter(event_id=event_id)
        .order_by("player_id")
        .values_list(*(f for f in FIELDS if f != "previous_rank"))
    )


def _event_from_scratch(event_id: int) -> list[tuple]:
    EventStanding.objects.filter(event_id=event_id).delete()
    rebuild.rebuild_event_standings(event_id=event_id)
    return _event_rows(event_id)


def test_row_changes_lists_new_and_changed_keys_and_vanished_ones():
    stored = {1: (1, "a"), 2: (2, "b"), 3: (3, "c")}
    wanted = {1: (1, "a"), 2: (3, "b"), 4: (2, "d")}
    assert maths.row_changes(stored, wanted) == ([2, 4], [3])
    assert maths.row_changes(stored, dict(stored)) == ([], [])
    assert maths.row_changes({}, {5: [1]}) == ([5], [])


@pytest.mark.django_db
def test_a_rebuild_with_nothing_changed_writes_nothing():
    club = make_club()
    league = make_league(club)
    event = evening(club, players(club, 8), league=league, rng=random.Random(11))
    rebuild.rebuild_event_standings(event_id=event.pk)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    stamps = dict(EventStanding.objects.values_list("player_id", "updated_at"))
    with CaptureQueriesContext(connection) as queries:
        assert rebuild.rebuild_event_standings(event_id=event.pk) == 8
        assert barbu_rebuild.rebuild_league_standings(league_id=league.pk) == 8
    assert _writes(queries, "scoring_eventstanding") == []
    assert _writes(queries, "scoring_leaguestanding") == []
    assert dict(EventStanding.objects.values_list("player_id", "updated_at")) == stamps


@pytest.mark.django_db
def test_only_changed_rows_are_written_and_they_equal_a_rebuild_from_scratch():
    club = make_club()
    people = players(club, 12)
    rng = random.Random(12)
    event = evening(club, people, rng=rng, complete=False)
    rebuild.rebuild_event_standings(event_id=event.pk)
    before = {r.player_id: r for r in EventStanding.objects.filter(event=event)}
    # One more deal on the first table (no commit callbacks here: nothing rebuilt yet), a
    # row of a player who has left the evening, and a row damaged by hand.
    game = Game.objects.filter(table__round__event=event).order_by("pk").first()
    play(game, rng, 1)
    gone = make_player(club, "Gone")
    EventStanding.objects.create(event=event, player=gone, rank=13, points=0)
    damaged = people[-1].pk
    EventStanding.objects.filter(event=event, player_id=damaged).update(rank=99, details={})

    with CaptureQueriesContext(connection) as queries:
        rebuild.rebuild_event_standings(event_id=event.pk)
    stored = _event_rows(event.pk)
    assert gone.pk not in {row[0] for row in stored}
    writes = _writes(queries, "scoring_eventstanding")
    assert [w.split()[0] for w in writes] == ["DELETE", "INSERT"]
    assert "ON CONFLICT" in writes[1]

    after = {r.player_id: r for r in EventStanding.objects.filter(event=event)}
    same = [p for p in before if p != damaged and _key(before[p]) == _key(after[p])]
    moved = [p for p in before if _key(before[p]) != _key(after[p])]
    assert moved  # the deal moved some players
    for p in same:  # untouched rows keep their row and their time stamp
        assert (after[p].pk, after[p].updated_at) == (before[p].pk, before[p].updated_at)
    for p in moved:  # changed rows are updated in place
        assert after[p].pk == before[p].pk
    assert stored == _event_from_scratch(event.pk)


def _key(row: EventStanding) -> tuple:
    return tuple(getattr(row, f) for f in FIELDS if f not in ("player_id", "previous_rank"))


@pytest.mark.django_db
def test_league_rows_follow_a_new_evening_and_equal_a_rebuild_from_scratch():
    club = make_club()
    league = make_league(club)
    people = players(club, 8)
    rng = random.Random(13)
    evening(club, people[:4], league=league, rng=rng, days_ago=7)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    evening(club, people[4:] + people[:4], league=league, rng=rng)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    rows = list(
        LeagueStanding.objects.filter(league=league).order_by("player_id").values_list(*FIELDS)
    )
    assert len(rows) == 8
    LeagueStanding.objects.filter(league=league).delete()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    assert rows == list(
        LeagueStanding.objects.filter(league=league).order_by("player_id").values_list(*FIELDS)
    )


@pytest.mark.django_db
def test_head_to_head_games_are_read_once_for_both_rankings_of_a_league():
    club = make_club()
    league = make_league(club)
    people = players(club, 8)
    rng = random.Random(16)
    first = evening(club, people, league=league, rng=rng, days_ago=7)
    last = evening(club, people[4:] + people[:4], league=league, rng=rng)
    scores = aggregates.league_scores(league.pk)
    data = aggregates.aggregate(scores, maths.Ranking(method="placement"))
    some = {p.pk for p in people[:5]}

    def expected(players, without=None):
        return sorted(
            (g.game_id, g.event_id, dict(g.totals))
            for g in aggregates.game_results(scores.filter(player_id__in=players))
            if g.event_id != without
        )

    def got(results):
        return sorted((g.game_id, g.event_id, dict(g.totals)) for g in results)

    with CaptureQueriesContext(connection) as queries:
        now = data.load_games(some)
        before = data.without(last.pk).load_games(some)
    assert len(queries.captured_queries) == 1
    assert got(now) == expected(some)
    assert got(before) == expected(some, last.pk)
    assert {g.event_id for g in before} == {first.pk}
    # More players later: only the new ones are read, and each game has their totals too.
    everyone = {p.pk for p in people}
    with CaptureQueriesContext(connection) as queries:
        all_games = data.load_games(everyone)
    assert len(queries.captured_queries) == 1
    assert got(all_games) == expected(everyone)


def test_lines_of_seats_aggregate_each_player_evening_and_keep_the_games():
    D = __import__("decimal").Decimal
    seats = [
        (1, 10, 7, D("30.00"), D("1.0"), 28),
        (1, 10, 8, D("10.00"), D("2.5"), 28),
        (1, 10, 9, D("10.00"), D("2.5"), 28),
        (1, 10, 6, D("-50.00"), D("4.0"), 28),
        (2, 10, 7, D("5.50"), D("1.5"), 3),
        (2, 10, 8, D("5.50"), D("1.5"), 3),
        (2, 10, 9, D("-1.00"), D("3.0"), 3),
        (2, 10, 6, D("-10.00"), D("4.0"), 3),
    ]
    ranking = maths.Ranking(method="placement")
    lines, games = maths.lines_of_seats(seats, ranking)
    by_player = {line.player_id: line for line in lines}
    seven = by_player[7]
    assert (seven.games, seven.total, seven.wins, seven.best_game, seven.deals) == (
        2,
        D("35.50"),
        2,
        D("30.00"),
        31,
    )
    assert by_player[8].wins == 1 and by_player[9].wins == 0
    # [4, 2, 1, 0]: alone first (4) + level first with one other ((4 + 2) / 2).
    assert seven.placement == 7
    assert by_player[8].placement == maths.Fraction(3, 2) + 3
    assert sorted((g.game_id, len(g.totals)) for g in games) == [(1, 4), (2, 4)]
    total_lines, _ = maths.lines_of_seats(seats, maths.Ranking())
    assert {line.placement for line in total_lines} == {0}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "config",
    [
        {},
        {"method": "placement"},
        {"method": "placement", "tiebreaks": ["head_to_head"]},
        {"method": "average", "min_games": 2, "tiebreaks": ["head_to_head", "wins"]},
    ],
)
def test_an_evening_read_once_ranks_as_the_sql_aggregates_do(config):
    club = make_club()
    people = players(club, 16)
    rng = random.Random(17)
    event = evening(club, people, rng=rng, complete=False)
    play(seat(event, people[:4], round_number=2), rng, 2)  # some play two games
    ranking, problems = maths.parse_ranking(config)
    assert not problems
    scores = aggregates.event_scores(event.pk)
    expected = aggregates.compute(scores, ranking)
    with CaptureQueriesContext(connection) as queries:
        got = aggregates.rank(aggregates.aggregate_seats(scores, ranking), ranking)
    assert len(queries.captured_queries) == 1
    assert [(s.player_id, s.rank, s.points, s.tiebreak) for s in got] == [
        (s.player_id, s.rank, s.points, s.tiebreak) for s in expected
    ]
    assert [barbu_rebuild._details(s) for s in got] == [barbu_rebuild._details(s) for s in expected]
