"""Head-to-head pair scores counted in SQL (aggregates.head_to_head_pairs, issue 20) are
those of the pure maths (head_to_head.pair_nets) over the same games, with and without an
evening; a league rebuild breaks its ties with them as the games would (SQLite and
PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.game_creation import game_create
from games.models import Game, GameScore
from scoring import aggregates, head_to_head, rebuild
from scoring import standings as maths
from scoring.models import LeagueStanding
from tests.factories import make_club, make_event, make_league, make_player, make_table

from .test_placement_sql import _place, league_games  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=False)


def _players(games) -> list[int]:
    return sorted({p for _e, players, _t in games for p in players})


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("without_first", [False, True])
def test_sql_pair_scores_are_the_pure_ones(league_games, split, without_first):  # noqa: F811
    league, games = league_games
    people = _players(games)
    groups = [people[:3], people[3:]] if split else [people]
    scores = aggregates.league_scores(league.pk)
    without = games[0][0] if without_first else None
    results = [g for g in aggregates.game_results(scores) if g.event_id != without]
    expected = head_to_head.pair_nets(results, groups)
    assert aggregates.head_to_head_pairs(scores, groups, without) == expected
    assert expected  # the hand-made games do compare players, level ones included
    assert any(0 in against.values() for against in expected.values()) or without_first


def test_several_sets_of_groups_are_counted_in_one_query(
    league_games,  # noqa: F811
    django_assert_num_queries,
):
    """Both rankings of a league rebuild: now, and without the latest evening, a player
    in a group of each."""
    league, games = league_games
    people = _players(games)
    scores = aggregates.league_scores(league.pk)
    last = games[-1][0]
    sets = [(None, [people[:4], people[4:]]), (last, [people[1:]]), (None, [])]
    with django_assert_num_queries(1):
        got = aggregates.head_to_head_pairs_of(scores, sets)
    assert got == [aggregates.head_to_head_pairs(scores, groups, w) for w, groups in sets]
    assert got[2] == {}


def test_no_groups_read_nothing(league_games, django_assert_num_queries):  # noqa: F811
    league, _games = league_games
    with django_assert_num_queries(0):
        assert aggregates.head_to_head_pairs(aggregates.league_scores(league.pk), []) == {}


def test_a_player_in_two_groups_is_refused(league_games):  # noqa: F811
    league, games = league_games
    people = _players(games)
    with pytest.raises(ValueError, match="two groups"):
        aggregates.head_to_head_pairs(aggregates.league_scores(league.pk), [people[:3], people[2:]])


@pytest.mark.parametrize("method", ["total", "placement"])
def test_a_league_rebuild_breaks_ties_as_the_games_do(league_games, method):  # noqa: F811
    """Head-to-head alone: many of the hand-made games' players are level."""
    league, _games = league_games
    league.ranking = {"method": method, "tiebreaks": ["head_to_head"]}
    league.save()
    rebuild.rebuild_league_standings(league_id=league.pk)
    stored = {
        s.player_id: (s.rank, s.previous_rank, s.tiebreak_note)
        for s in LeagueStanding.objects.filter(league=league)
    }
    ranking = aggregates.ranking_of(league)
    data = aggregates.aggregate(aggregates.league_scores(league.pk), ranking)
    results = aggregates.game_results(data.scores)
    last = data.latest_event()
    now = maths.rank(maths.combine(data.lines, ranking), ranking, results)
    before = maths.rank(
        maths.combine(data.without(last).lines, ranking),
        ranking,
        [g for g in results if g.event_id != last],
    )
    previous = {s.player_id: s.rank for s in before}
    assert stored == {s.player_id: (s.rank, previous.get(s.player_id), s.tiebreak) for s in now}


def test_head_to_head_decides_a_league_table_now_and_before_its_latest_evening():
    """A and B level on total points now and before the latest evening; A finished ahead
    of B in the one game they shared (the first evening), B ahead of C in the second."""
    club = make_club()
    league = make_league(club, ranking={"method": "total", "tiebreaks": ["head_to_head"]})
    a, b, c, d, e, f, g, h = (make_player(club, name) for name in "ABCDEFGH")
    start = timezone.now() - timedelta(days=14)

    def play(evening, seated, totals, round_number=1):
        game = game_create(table=make_table(evening, seated, round_number=round_number))
        Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE, deals_count=28)
        for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
            GameScore.objects.create(
                game=game,
                player=player,
                seat=seat,
                total=Decimal(total),
                place=_place(totals, total),
                above=sum(t > total for t in totals),
                deals=28,
            )

    first = make_event(club, league=league, name="First", starts_at=start)
    play(first, [a, b, d, e], [6, 4, -4, -6])
    play(first, [c, f, g, h], [4, 0, -2, -2])
    second = make_event(club, league=league, name="Second", starts_at=start + timedelta(7))
    play(second, [b, c, d, e], [2, 0, -1, -1])
    play(second, [a, f, g, h], [0, 0, 0, 0])
    with CaptureQueriesContext(connection) as queries:
        rebuild.rebuild_league_standings(league_id=league.pk)
    # Both rankings' level players (A and B now, B and C before) in one query.
    assert sum("WITH grp" in q["sql"] for q in queries.captured_queries) == 1
    got = {
        s.player_id: (s.rank, s.previous_rank, s.tiebreak_note, s.details.get("tiebreak"))
        for s in LeagueStanding.objects.filter(league=league, player__in=[a, b, c])
    }
    assert got == {
        # Now A 6, B 6 (A beat B), C 4. Before the second evening: A 6, B 4, C 4 (B and C
        # never met then: tied).
        a.pk: (1, 1, "head_to_head", {"key": "head_to_head", "value": 1}),
        b.pk: (2, 2, "head_to_head", {"key": "head_to_head", "value": -1}),
        c.pk: (3, 2, "", None),
    }
