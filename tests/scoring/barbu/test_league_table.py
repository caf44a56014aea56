"""A league table as the rebuild stores it (scoring/barbu/rebuild.py): each player's line the
combined lines of their evenings (all, or the best N) now and before the latest evening
with a complete game, for every ranking method; only the league's complete games; totals
exact in hundredths; head-to-head from the games the level players shared; and a fixed
number of statements whatever the league's size (SQLite and PostgreSQL)."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.models import Player
from games.barbu.game_creation import game_create
from games.models import Event, Game, GameScore
from scoring.barbu import aggregates
from scoring.barbu import rebuild as barbu_rebuild
from scoring.engine import ranking as maths
from scoring.models import LeagueStanding
from tests.factories import make_club, make_event, make_league, make_player, make_table
from tests.scoring.evenings import evening, place_of, players

pytestmark = pytest.mark.django_db(transaction=False)

RANKINGS = [
    {"method": "total"},
    {"method": "placement"},
    {"method": "placement", "placement_points": [3, 1, 0.5, 0]},
    {"method": "average", "min_games": 2},
    {"method": "total", "best_evenings": 1},
    {"method": "placement", "best_evenings": 1},
    {"method": "placement", "best_evenings": 2},
    {"method": "average", "best_evenings": 1, "min_games": 1},
]


def _id(config: dict) -> str:
    return "-".join(str(v) for v in config.values())


def _score(game: Game, seated: list, totals: list, deals: int = 28) -> None:
    """The game's GameScore rows as games/barbu/game_scores.py writes them (an upsert)."""
    numbers = [float(t) for t in totals]
    GameScore.objects.bulk_create(
        [
            GameScore(
                game=game,
                seat=seat,
                player=player,
                total=Decimal(str(total)),
                place=place_of(numbers, float(total)),
                above=sum(n > float(total) for n in numbers),
                deals=deals,
            )
            for seat, (player, total) in enumerate(zip(seated, totals, strict=True))
        ],
        update_conflicts=True,
        unique_fields=["game", "seat"],
        update_fields=["player", "total", "place", "above", "deals"],
    )


def _played(event, seated, totals, *, status=Game.Status.COMPLETE, round_number=1) -> Game:
    game = game_create(table=make_table(event, seated, round_number=round_number))
    Game.objects.filter(pk=game.pk).update(status=status, deals_count=28)
    _score(game, seated, totals)
    return game


def _third_evening(league, people) -> Event:
    """A later evening: two of the six players and a newcomer, who played nothing else."""
    club = league.club
    first = Event.objects.filter(league=league).order_by("starts_at").first()
    event = make_event(
        club, league=league, name="Third", starts_at=first.starts_at + timedelta(days=30)
    )
    seated = [people[0], people[3], make_player(club, "Newcomer"), make_player(club, "Guest")]
    _played(event, seated, [12.5, -3, 12.5, -22])
    return event


def stored_rows(league) -> dict[int, tuple]:
    return {
        s.player_id: (s.rank, s.previous_rank, s.points, s.games, s.evenings, s.tiebreak_note)
        for s in LeagueStanding.objects.filter(league=league)
    }


def _expected(league, ranking: maths.Ranking) -> dict[int, tuple]:
    """The table by definition: every evening line combined, ranked with every game, and
    again without the latest evening for the previous ranks."""
    scores = aggregates.league_scores(league.pk)
    lines = aggregates.evening_lines(scores, ranking)
    games = aggregates.game_results(scores)
    last = (
        Event.objects.filter(pk__in={line.event_id for line in lines})
        .order_by("-starts_at", "-id")
        .values_list("pk", flat=True)
        .first()
    )
    now = maths.rank(maths.combine(lines, ranking), ranking, games)
    before = maths.rank(
        maths.combine([x for x in lines if x.event_id != last], ranking),
        ranking,
        [g for g in games if g.event_id != last],
    )
    previous = {s.player_id: s.rank for s in before}
    return {
        s.player_id: (
            s.rank,
            previous.get(s.player_id),
            barbu_rebuild._points(s.points),
            s.line.games,
            s.line.evenings,
            s.tiebreak,
        )
        for s in now
    }


@pytest.mark.parametrize("config", RANKINGS, ids=_id)
@pytest.mark.parametrize("third", [False, True])
def test_the_rebuild_stores_the_combined_lines_now_and_before_the_latest_evening(
    league_games,
    config,
    third,
):
    league, games = league_games
    if third:
        people = sorted({p for _e, seated, _t in games for p in seated})
        _third_evening(league, list(Player.objects.filter(pk__in=people).order_by("pk")))
    league.ranking = config
    league.save()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    stored = stored_rows(league)
    assert stored == _expected(league, aggregates.ranking_of(league))
    if third:  # the newcomer and the guest played the latest evening only: no previous rank
        assert sum(previous is None for _r, previous, *_ in stored.values()) == 2
    if config.get("best_evenings") == 1 and config["method"] == "total":
        # Some player's best evening is not their first.
        counted = LeagueStanding.objects.filter(league=league).values_list("details", flat=True)
        assert any(d["evenings_counted"] == 1 for d in counted)


@pytest.mark.parametrize("config", RANKINGS, ids=_id)
def test_only_the_leagues_complete_games_count(league_games, config):
    """Not a game in progress of the league's latest evening, nor a complete game of
    another league's evening on the same day."""
    league, games = league_games
    people = list(Player.objects.filter(pk__in={p for _e, seated, _t in games for p in seated}))
    latest = Event.objects.filter(league=league).order_by("-starts_at", "-id").first()
    _played(latest, people[:4], [50, 10, -20, -40], status=Game.Status.IN_PROGRESS, round_number=9)
    other = make_event(
        league.club,
        league=make_league(league.club, name="Other league"),
        starts_at=latest.starts_at,
    )
    _played(other, people[2:6], [70, 30, 0, -100])
    league.ranking = config
    league.save()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    stored = LeagueStanding.objects.filter(league=league)
    if config.get("best_evenings") is None:
        assert sum(s.games for s in stored) == 4 * len(games)
    assert stored_rows(league) == _expected(league, aggregates.ranking_of(league))


def test_the_latest_evening_is_the_latest_with_a_complete_game(league_games):
    league, _games = league_games
    ordered = list(Event.objects.filter(league=league).order_by("-starts_at", "-id"))

    def latest() -> int | None:
        scores = aggregates.league_scores(league.pk)
        return aggregates.aggregate(scores, maths.Ranking()).latest_event()

    assert latest() == ordered[0].pk
    later = make_event(
        league.club, league=league, name="Later", starts_at=ordered[0].starts_at + timedelta(1)
    )
    people = [make_player(league.club, f"L{i}") for i in range(4)]
    game = _played(later, people, [3, 1, -1, -3], status=Game.Status.IN_PROGRESS)
    assert latest() == ordered[0].pk  # in progress: not the latest yet
    Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE)
    assert latest() == later.pk
    # Two evenings starting together: the later id is the latest.
    same = make_event(league.club, league=league, name="Same", starts_at=later.starts_at)
    _played(same, people, [1, 1, -1, -1])
    assert latest() == same.pk
    # No complete game: no evening, no lines, nothing stored.
    Game.objects.filter(table__round__event__league=league).update(status=Game.Status.IN_PROGRESS)
    assert latest() is None
    assert barbu_rebuild.rebuild_league_standings(league_id=league.pk) == 0
    assert not LeagueStanding.objects.filter(league=league).exists()


# Hundredths a binary float cannot hold exactly; 0.29 * 100 is 28.999999999999996.
AWKWARD = ["0.29", "-0.01", "24.99", "-25.27", "1234567.89", "-0.07", "0.57", "1.15"]


@pytest.mark.parametrize(
    "config",
    [
        {"method": "total"},
        {"method": "placement"},
        {"method": "total", "best_evenings": 1},
        {"method": "placement", "best_evenings": 1},
    ],
    ids=_id,
)
def test_totals_are_exact_hundredths_and_equal_sums_pick_the_earlier_evening(config):
    """Evenings whose sums are equal in hundredths but not as binary floats (0.1 + 0.2 and
    0.3; SQLite keeps decimals as floats): the best evening is the earlier one, as
    combine() picks it from exact totals."""
    club = make_club()
    league = make_league(club, ranking=config)
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
        _played(event, people[start : start + 4], totals, round_number=number)
    ranking = aggregates.ranking_of(league)
    lines = aggregates.evening_lines(aggregates.league_scores(league.pk), ranking)
    for line in lines:
        assert line.total == line.total.quantize(Decimal("0.01"))
        assert line.best_game == line.best_game.quantize(Decimal("0.01"))
    by_evening = {(x.player_id, x.event_id): x.total for x in lines}
    assert by_evening[people[0].pk, first.pk] == by_evening[people[0].pk, second.pk]
    assert by_evening[people[1].pk, first.pk] == Decimal("-0.1") + Decimal("0.29")
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    assert stored_rows(league) == _expected(league, ranking)
    if config == {"method": "total", "best_evenings": 1}:
        # P0: 0.3 on the first evening, 0.1 + 0.2 on the second: level, the first counts.
        p0 = LeagueStanding.objects.get(league=league, player=people[0])
        assert p0.points == Decimal("0.3") and p0.details["evenings_counted"] == 1


@pytest.mark.parametrize("points", [[0, 0, 0, 0], [1, 1, 0, 0], [4, 2, 1, 0]])
def test_a_league_rebuild_breaks_ties_as_the_games_do(league_games, points):
    """Head-to-head alone, with placement points that leave many players level."""
    league, _games = league_games
    league.ranking = {
        "method": "placement",
        "placement_points": points,
        "tiebreaks": ["head_to_head"],
    }
    league.save()
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    stored = stored_rows(league)
    assert stored == _expected(league, aggregates.ranking_of(league))
    if points == [0, 0, 0, 0]:  # everyone level on points: head-to-head decides
        assert any(note == "head_to_head" for *_values, note in stored.values())


def test_head_to_head_decides_a_league_table_now_and_before_its_latest_evening():
    """A and B level on total points now and before the latest evening; A finished ahead
    of B in the one game they shared (the first evening), B ahead of C in the second."""
    club = make_club()
    league = make_league(club, ranking={"method": "total", "tiebreaks": ["head_to_head"]})
    a, b, c, d, e, f, g, h = (make_player(club, name) for name in "ABCDEFGH")
    start = timezone.now() - timedelta(days=14)
    first = make_event(club, league=league, name="First", starts_at=start)
    _played(first, [a, b, d, e], [6, 4, -4, -6])
    _played(first, [c, f, g, h], [4, 0, -2, -2])
    second = make_event(club, league=league, name="Second", starts_at=start + timedelta(7))
    _played(second, [b, c, d, e], [2, 0, -1, -1])
    _played(second, [a, f, g, h], [0, 0, 0, 0])
    with CaptureQueriesContext(connection) as queries:
        barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    # The games of the level players (A and B now; C more before) read once each.
    games_read = [q for q in queries.captured_queries if _reads_games_of_players(q["sql"])]
    assert len(games_read) == 2
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


def _reads_games_of_players(sql: str) -> bool:
    head = sql.lstrip().upper()
    return head.startswith("SELECT") and "GAMES_GAMESCORE" in head and 'PLAYER_ID" IN (' in head


def _league_of(n_players: int, evenings: int, seed: int):
    club = make_club(f"Club {seed}", slug=f"club-{seed}")
    league = make_league(club, ranking={"method": "placement", "tiebreaks": ["wins"]})
    people = players(club, n_players, prefix=f"S{seed}-")
    rng = random.Random(seed)
    for i in range(evenings):
        order = people[i:] + people[:i]
        evening(club, order, league=league, rng=rng, days_ago=evenings - i, name=f"E{i}")
    return league


def test_a_league_rebuild_makes_the_same_statements_for_a_small_league_and_a_large_one():
    """Without a tie reaching head-to-head (its games read only then), whatever the
    numbers of players, evenings and games."""
    counts = []
    for league in (_league_of(4, 1, 1), _league_of(16, 3, 2)):
        with CaptureQueriesContext(connection) as first:
            barbu_rebuild.rebuild_league_standings(league_id=league.pk)
        with CaptureQueriesContext(connection) as again:  # nothing to write
            barbu_rebuild.rebuild_league_standings(league_id=league.pk)
        counts.append((len(first), len(again)))
        assert LeagueStanding.objects.filter(league=league).exists()
    assert counts[0] == counts[1], counts
