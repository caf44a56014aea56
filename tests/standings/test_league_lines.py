"""A league's lines in one GROUP BY player (scoring/league_lines.py, issue 20) are those
maths.combine() makes of the lines per (player, evening), now and before the latest
evening, for every method it serves; the rebuild's movement is unchanged."""

from __future__ import annotations

from dataclasses import astuple, replace
from datetime import timedelta
from decimal import Decimal

import pytest

from clubs.models import Player
from games.game_creation import game_create
from games.models import Event, Game, GameScore
from scoring import aggregates, league_lines
from scoring import standings as maths
from tests.factories import make_event, make_league, make_player, make_table

from .test_placement_sql import _place, league_games  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=False)

RANKINGS = [
    maths.Ranking(method="total"),
    maths.Ranking(method="placement"),
    maths.Ranking(method="placement", placement_points=(3, 1, 0.5, 0)),
    maths.Ranking(method="average", min_games=2),
]


def _third_evening(league, people) -> Event:
    """A later evening: two of the six players and a newcomer, who played nothing else."""
    club = league.club
    newcomer = make_player(club, "Newcomer")
    first = Event.objects.filter(league=league).order_by("starts_at").first()
    event = make_event(
        club, league=league, name="Third", starts_at=first.starts_at + timedelta(days=30)
    )
    seated = [people[0], people[3], newcomer, make_player(club, "Guest")]
    game = game_create(table=make_table(event, seated))
    Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE, deals_count=28)
    totals = [12.5, -3, 12.5, -22]
    for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
        GameScore.objects.create(
            game=game,
            player=player,
            seat=seat,
            total=Decimal(str(total)),
            place=_place(totals, total),
            above=sum(t > total for t in totals),
            deals=28,
        )
    return event


def _table(lines) -> list[tuple]:
    """The lines' fields, by player; counted_events is combine()'s alone (not stored)."""
    return sorted(astuple(replace(line, counted_events=())) for line in lines)


@pytest.mark.parametrize("ranking", RANKINGS, ids=lambda r: f"{r.method}{r.placement_points}")
@pytest.mark.parametrize("third", [False, True])
def test_player_lines_are_the_combined_evening_lines(league_games, ranking, third):  # noqa: F811
    league, games = league_games
    if third:
        people = sorted({p for _e, players, _t in games for p in players})
        _third_evening(league, list(Player.objects.filter(pk__in=people).order_by("pk")))
    assert league_lines.supported(ranking)
    scores = aggregates.league_scores(league.pk)
    evenings = aggregates.evening_lines(scores, ranking)
    last = league_lines.latest_evening(league.pk)
    games_counted = aggregates.league_games(league.pk)
    now, before = league_lines.player_lines(games_counted, ranking, last)

    assert _table(now) == _table(maths.combine(evenings, ranking))
    without = [line for line in evenings if line.event_id != last]
    assert _table(before) == _table(maths.combine(without, ranking))
    assert len(before) < len(now) if third else len(before) <= len(now)
    # No evening at all: nothing is "before".
    now_alone, before_all = league_lines.player_lines(games_counted, ranking, None)
    assert _table(now_alone) == _table(now) == _table(before_all)


def _scored_game(event, seated, totals, status) -> None:
    game = game_create(table=make_table(event, seated, number=9))
    Game.objects.filter(pk=game.pk).update(status=status, deals_count=10)
    for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
        GameScore.objects.create(
            game=game,
            player=player,
            seat=seat,
            total=Decimal(str(total)),
            place=_place(totals, total),
            above=sum(t > total for t in totals),
            deals=10,
        )


@pytest.mark.parametrize("ranking", [*RANKINGS, maths.Ranking(method="total", best_evenings=1)])
def test_only_the_leagues_complete_games_count(league_games, ranking):  # noqa: F811
    """The lines read the rows of league_games (the games first, then their rows), which
    are league_scores: not a game in progress of the league's latest evening, nor a
    complete game of another league's evening on the same day."""
    league, games = league_games
    people = list(Player.objects.filter(pk__in={p for _e, players, _t in games for p in players}))
    latest = Event.objects.filter(league=league).order_by("-starts_at", "-id").first()
    _scored_game(latest, people[:4], [50, 10, -20, -40], Game.Status.IN_PROGRESS)
    other = make_event(
        league.club,
        league=make_league(league.club, name="Other league"),
        starts_at=latest.starts_at,
    )
    _scored_game(other, people[2:6], [70, 30, 0, -100], Game.Status.COMPLETE)
    last = league_lines.latest_evening(league.pk)
    assert last == latest.pk

    now, before = league_lines.player_lines(aggregates.league_games(league.pk), ranking, last)
    evenings = aggregates.evening_lines(aggregates.league_scores(league.pk), ranking)
    assert _table(now) == _table(maths.combine(evenings, ranking))
    without = [line for line in evenings if line.event_id != last]
    assert _table(before) == _table(maths.combine(without, ranking))
    if ranking.best_evenings is None:
        assert sum(line.games for line in now) == 4 * len(games)


def test_the_latest_evening_is_the_latest_with_a_complete_game(league_games):  # noqa: F811
    league, _games = league_games
    ordered = list(Event.objects.filter(league=league).order_by("-starts_at", "-id"))
    assert league_lines.latest_evening(league.pk) == ordered[0].pk
    later = make_event(
        league.club, league=league, name="Later", starts_at=ordered[0].starts_at + timedelta(1)
    )
    people = [make_player(league.club, f"L{i}") for i in range(4)]
    game_create(table=make_table(later, people))  # in progress: not the latest yet
    assert league_lines.latest_evening(league.pk) == ordered[0].pk
    Game.objects.filter(table__round__event=later).update(status=Game.Status.COMPLETE)
    assert league_lines.latest_evening(league.pk) == later.pk
    data = aggregates.aggregate(aggregates.league_scores(league.pk), RANKINGS[0])
    assert data.latest_event() == ordered[0].pk  # the new game has no scores: no line


@pytest.mark.parametrize("best", [1, 2, 5])
@pytest.mark.parametrize("method", ["total", "placement"])
def test_best_evenings_lines_are_the_combined_ones(league_games, best, method):  # noqa: F811
    league, games = league_games
    people = sorted({p for _e, players, _t in games for p in players})
    _third_evening(league, list(Player.objects.filter(pk__in=people).order_by("pk")))
    ranking = maths.Ranking(method=method, best_evenings=best)
    assert league_lines.supported(ranking)
    scores = aggregates.league_scores(league.pk)
    evenings = aggregates.evening_lines(scores, ranking)
    last = league_lines.latest_evening(league.pk)
    games_counted = aggregates.league_games(league.pk)
    now, before = league_lines.player_lines(games_counted, ranking, last)
    assert _table(now) == _table(maths.combine(evenings, ranking))
    without = [line for line in evenings if line.event_id != last]
    assert _table(before) == _table(maths.combine(without, ranking))
    if best == 1:  # some player's best evening is not their first
        assert any(line.evenings_counted < line.evenings for line in now)


@pytest.mark.parametrize("best", [1, 2])
def test_an_average_of_the_best_evenings_is_combined_again_only_where_needed(
    league_games,  # noqa: F811
    best,
):
    """The average's evening points are fractions, not ordered in SQL: the lines per
    (player, evening), the ranking before the latest evening combined again only for
    the players of that evening."""
    league, games = league_games
    people = sorted({p for _e, players, _t in games for p in players})
    _third_evening(league, list(Player.objects.filter(pk__in=people).order_by("pk")))
    ranking = maths.Ranking(method="average", best_evenings=best, min_games=1)
    assert not league_lines.supported(ranking)
    data = aggregates.aggregate(aggregates.league_scores(league.pk), ranking)
    last = data.latest_event()
    assert last == league_lines.latest_evening(league.pk)
    now = maths.combine(data.lines, ranking)
    got = data.players_without(last, now, ranking)
    assert sorted(astuple(x) for x in got) == sorted(
        astuple(x) for x in maths.combine(data.without(last).lines, ranking)
    )


@pytest.mark.parametrize(
    "ranking",
    [*RANKINGS, *(maths.Ranking(method=m, best_evenings=1) for m in ("total", "placement"))],
    ids=lambda r: f"{r.method}{r.placement_points}{r.best_evenings}",
)
def test_the_rebuilds_lines_find_the_latest_evening_in_their_own_statement(
    league_games,  # noqa: F811
    ranking,
):
    """league_player_lines (the rebuild's: the latest evening found by the lines' own
    statement) gives what player_lines gives with latest_evening, and that evening; with
    no complete game, no evening and no lines."""
    league, games = league_games
    people = sorted({p for _e, players, _t in games for p in players})
    _third_evening(league, list(Player.objects.filter(pk__in=people).order_by("pk")))
    last = league_lines.latest_evening(league.pk)
    now, before, found = league_lines.league_player_lines(league.pk, ranking)
    expected = league_lines.player_lines(aggregates.league_games(league.pk), ranking, last)
    assert found == last
    assert (_table(now), _table(before)) == tuple(_table(lines) for lines in expected)
    assert len(before) < len(now)

    Game.objects.filter(table__round__event__league=league).update(status=Game.Status.IN_PROGRESS)
    assert league_lines.league_player_lines(league.pk, ranking) == ([], [], None)
