"""GameScore.total_cents, the total in hundredths that the database computes from the
stored total, is always that total: written by the deals' upsert and changed by it, for
totals in hundredths that are not exact in binary (SQLite keeps decimals as floats); and
a league's lines summed from it (scoring/league_lines.py) are the combined evening lines
summed from the totals themselves, best evenings chosen alike."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from games.game_creation import game_create
from games.models import Game, GameScore
from scoring import aggregates, league_lines
from scoring import standings as maths
from tests.factories import make_club, make_event, make_league, make_player, make_table

from .test_league_lines import _table
from .test_placement_sql import _place

pytestmark = pytest.mark.django_db

# Hundredths a binary float cannot hold exactly; 0.29 * 100 is 28.999999999999996.
AWKWARD = ["0.29", "-0.01", "24.99", "-25.27", "1234567.89", "-0.07", "0.57", "1.15"]


def _upsert(game, players, totals) -> None:
    """The four rows as games/game_scores.py writes them (one INSERT ... ON CONFLICT)."""
    numbers = [float(t) for t in totals]
    GameScore.objects.bulk_create(
        [
            GameScore(
                game=game,
                seat=seat,
                player=player,
                total=Decimal(total),
                place=_place(numbers, float(total)),
                above=sum(n > float(total) for n in numbers),
                deals=28,
            )
            for seat, (player, total) in enumerate(zip(players, totals, strict=True))
        ],
        update_conflicts=True,
        unique_fields=["game", "seat"],
        update_fields=["player", "total", "place", "above", "deals"],
    )


def _stored(game) -> list[tuple[Decimal, int]]:
    return list(
        GameScore.objects.filter(game=game).order_by("seat").values_list("total", "total_cents")
    )


def test_total_cents_is_the_stored_total_in_hundredths_after_each_write():
    club = make_club()
    players = [make_player(club, f"P{i}") for i in range(4)]
    game = game_create(table=make_table(make_event(club), players))
    for totals in (AWKWARD[:4], AWKWARD[4:], ["0", "0", "0", "0"]):
        _upsert(game, players, totals)
        stored = _stored(game)
        assert [cents for _total, cents in stored] == [int(Decimal(t) * 100) for t in totals]
        assert all(cents == int(total * 100) for total, cents in stored)


@pytest.mark.parametrize(
    "ranking",
    [
        maths.Ranking(method="total"),
        maths.Ranking(method="placement"),
        maths.Ranking(method="total", best_evenings=1),
        maths.Ranking(method="placement", best_evenings=1),
    ],
    ids=lambda r: f"{r.method}-{r.best_evenings}",
)
def test_league_lines_from_hundredths_are_the_lines_from_the_totals(ranking):
    """Evenings whose sums are equal in hundredths but not as binary floats (0.1 + 0.2 and
    0.3): the best evening is the earlier one, as combine() picks it from exact totals."""
    club = make_club()
    league = make_league(club)
    people = [make_player(club, f"P{i}") for i in range(5)]
    first = make_event(club, league=league, name="First")
    second = make_event(
        club, league=league, name="Second", starts_at=first.starts_at + timedelta(days=7)
    )
    # (event, first of the four players seated, totals) per game.
    games = [
        (first, 0, ["0.3", "-0.1", "-0.1", "-0.1"]),
        (first, 1, AWKWARD[:4]),
        (second, 0, ["0.1", "0.05", "-0.05", "-0.1"]),
        (second, 0, ["0.2", "-0.2", "0.29", "-0.29"]),
        (second, 1, AWKWARD[4:]),
    ]
    for number, (event, start, totals) in enumerate(games, 1):
        seated = people[start : start + 4]
        game = game_create(table=make_table(event, seated, round_number=number))
        Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE, deals_count=28)
        _upsert(game, seated, totals)

    last = league_lines.latest_evening(league.pk)
    assert last == second.pk
    now, before = league_lines.player_lines(aggregates.league_games(league.pk), ranking, last)
    lines = aggregates.evening_lines(aggregates.league_scores(league.pk), ranking)
    assert _table(now) == _table(maths.combine(lines, ranking))
    without = [line for line in lines if line.event_id != last]
    assert _table(before) == _table(maths.combine(without, ranking))
    totals = {line.player_id: line.total for line in now}
    assert all(total == total.quantize(Decimal("0.01")) for total in totals.values())
    if ranking.best_evenings == 1 and ranking.method == "total":
        # P0: 0.3 on the first evening, 0.1 + 0.2 on the second: level, the first counts.
        (p0,) = [line for line in now if line.player_id == people[0].pk]
        assert p0.total == Decimal("0.3") and p0.evenings_counted == 1
