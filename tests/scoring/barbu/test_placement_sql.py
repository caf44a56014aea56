"""Placement points of the evening lines (aggregates.evening_lines: how many games each
player had in each place at the table, counted by the ORM from the stored places) against
the pure maths, on hand-made games covering every shared place: two-, three- and four-way
ties, half points."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring.barbu import aggregates
from scoring.engine import ranking as maths
from tests.scoring.evenings import EVENINGS

pytestmark = pytest.mark.django_db(transaction=False)


def test_the_hand_made_games_cover_every_placement_case():
    seen = set()
    for evening in EVENINGS:
        for totals in evening:
            for mine in totals:
                seen.add((sum(1 for t in totals if t > mine), sum(1 for t in totals if t == mine)))
    assert seen == set(maths.PLACEMENT_CASES)


@pytest.mark.parametrize(
    "points",
    [
        (4, 2, 1, 0),
        (3, 2.5, 1, 0),
        (1, 0.5, 0.25, 0.1),
        (5, 3, -1, -2.5),
        (0, 0, 0, 0),
        # Huge or finely divided points: exact all the same.
        (1e12, 1, 0.5, 0),
        (1e300, 1 / 3, 0.1, -1e-9),
    ],
)
def test_placement_points_equal_the_pure_placement_points(league_games, points):
    league, games = league_games
    expected: dict[tuple[int, int], Fraction] = {}
    for event_id, players, totals in games:
        shares = maths.placement_points([Decimal(str(t)) for t in totals], points)
        for player_id, share in zip(players, shares, strict=True):
            key = (player_id, event_id)
            expected[key] = expected.get(key, Fraction(0)) + share

    ranking = maths.Ranking(method="placement", placement_points=points)
    lines = aggregates.evening_lines(aggregates.league_scores(league.pk), ranking)

    assert {(x.player_id, x.event_id): x.placement for x in lines} == expected
    assert all(isinstance(x.placement, Fraction) for x in lines)


def test_placement_lines_carry_the_same_aggregates_as_the_other_methods(league_games):
    league, _games = league_games
    scores = aggregates.league_scores(league.pk)
    fields = ("player_id", "event_id", "games", "total", "wins", "best_game", "deals")

    def rows(ranking):
        lines = aggregates.evening_lines(scores, ranking)
        return sorted(tuple(getattr(x, f) for f in fields) for x in lines)

    assert rows(maths.Ranking(method="placement")) == rows(maths.Ranking(method="total"))


@pytest.mark.parametrize("best_evenings", [None, 1])
def test_placement_standings_equal_those_counted_in_python(league_games, best_evenings):
    """The previous method: every game's totals read and counted by maths.add_placement."""
    league, _games = league_games
    scores = aggregates.league_scores(league.pk)
    ranking = maths.Ranking(method="placement", best_evenings=best_evenings)

    reference = aggregates.evening_lines(scores, maths.Ranking(method="total"))
    maths.add_placement(reference, aggregates.game_results(scores), ranking)
    expected = maths.rank(
        maths.combine(reference, ranking), ranking, aggregates.game_results(scores)
    )

    def table(standings):
        return [(s.player_id, s.rank, s.points, s.tiebreak, s.line) for s in standings]

    assert table(aggregates.compute(scores, ranking)) == table(expected)
