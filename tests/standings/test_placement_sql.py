"""Placement points of the evening lines (aggregates.evening_lines: how many games each
player had in each place at the table, counted by the ORM from the stored places) against
the pure maths, on hand-made games covering every shared place: two-, three- and four-way
ties, half points."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from games.barbu.game_creation import game_create
from games.models import Game, GameScore
from scoring import aggregates
from scoring.engine import ranking as maths
from tests.factories import make_club, make_event, make_league, make_player, make_table

pytestmark = pytest.mark.django_db(transaction=False)

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


def _place(totals: list[float], mine: float) -> Decimal:
    above = sum(1 for t in totals if t > mine)
    tied = sum(1 for t in totals if t == mine)
    return Decimal(above) + Decimal(tied + 1) / 2


@pytest.fixture
def league_games():
    """Two league evenings of five complete games each; players change seats and tables."""
    club = make_club()
    league = make_league(club)
    people = [make_player(club, f"P{i}") for i in range(6)]
    games: list[tuple[int, list[int], list[float]]] = []  # (event, players, totals)
    for e, evening in enumerate(EVENINGS):
        event = make_event(club, league=league, name=f"Evening {e}")
        for g, totals in enumerate(evening):
            order = people if e == 0 else people[::-1]
            seated = [order[(g + k) % len(order)] for k in range(4)]
            game = game_create(table=make_table(event, seated, round_number=g + 1))
            Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE, deals_count=28)
            for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
                GameScore.objects.create(
                    game=game,
                    player=player,
                    seat=seat,
                    total=Decimal(str(total)),
                    place=_place(totals, total),
                    above=sum(1 for t in totals if t > total),
                    deals=28,
                )
            games.append((event.pk, [p.pk for p in seated], totals))
    return league, games


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
