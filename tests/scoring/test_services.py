"""Standings and ratings rebuilt from real deals, and the tasks queued when deals change."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.core.management import call_command

from games.barbu.corrections import deal_correct
from games.models import GameScore
from scoring import rebuild, tasks
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from scoring.models import EventStanding, LeagueStanding, PlayerRating, RatingHistory
from tests.factories import make_club, make_league, make_organiser
from tests.scoring.evenings import evening, play, players, seat

pytestmark = pytest.mark.django_db(transaction=False)


def standings_of(event) -> list[tuple[int, int, Decimal]]:
    return list(
        EventStanding.objects.filter(event=event)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points")
    )


def test_deals_stored_in_a_transaction_rebuild_the_evening_on_commit(
    django_capture_on_commit_callbacks,
):
    club = make_club()
    people = players(club, 8)
    rng = random.Random(1)
    with django_capture_on_commit_callbacks(execute=True):
        event = evening(club, people, rng=rng, complete=False)
    rows = standings_of(event)
    assert len(rows) == 8
    totals = {
        s.player_id: s.total for s in GameScore.objects.filter(game__table__round__event=event)
    }
    for player_id, _rank, points in rows:
        assert points == totals[player_id]
    ranks = [r for _p, r, _pts in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert [pts for *_x, pts in rows] == sorted((pts for *_x, pts in rows), reverse=True)


def test_without_commit_callbacks_nothing_is_rebuilt():
    club = make_club()
    event = evening(club, players(club, 4), rng=random.Random(2), complete=False)
    assert not EventStanding.objects.filter(event=event).exists()
    rebuild.rebuild_event_standings(event_id=event.pk)
    assert EventStanding.objects.filter(event=event).count() == 4


def test_a_correction_rebuilds_league_and_ratings(django_capture_on_commit_callbacks):
    club = make_club()
    organiser = make_organiser(club)
    league = make_league(club)
    people = players(club, 8)
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        first = evening(club, people, league=league, rng=rng, days_ago=7)
        evening(club, people[::-1], league=league, rng=rng, days_ago=0)
    assert LeagueStanding.objects.filter(league=league).count() == 8
    assert RatingHistory.objects.count() == 4 * 4
    assert PlayerRating.objects.count() == 8
    # Correct the first evening's first deal: a different player takes the king.
    deal = first.rounds.first().tables.first().game.deals.get(number=1)
    before = {r.player_id: r.ordinal for r in PlayerRating.objects.all()}
    league_before = list(LeagueStanding.objects.values_list("player_id", "points"))
    data = dict(deal.data)
    if data["contract"] != "barbu":
        pytest.skip("the seeded first deal is not a barbu")
    names = deal.game.player_names
    other = next(n for n in names if n != data["result"]["king_of_hearts"])
    data["result"] = {"king_of_hearts": other}
    with django_capture_on_commit_callbacks(execute=True):
        deal_correct(deal_id=deal.pk, data=data, by_user=organiser, reason="test")
    after = {r.player_id: r.ordinal for r in PlayerRating.objects.all()}
    league_after = list(LeagueStanding.objects.values_list("player_id", "points"))
    assert league_after != league_before
    # The stored ratings equal a replay from scratch.
    barbu_rating_sync.sync_ratings(full=True)
    scratch = {r.player_id: r.ordinal for r in PlayerRating.objects.all()}
    assert after == pytest.approx(scratch)
    assert before.keys() == after.keys()


def test_league_movement_is_the_rank_before_the_latest_evening(django_capture_on_commit_callbacks):
    club = make_club()
    league = make_league(club)
    people = players(club, 8)
    rng = random.Random(4)
    first = evening(club, people, league=league, rng=rng, days_ago=7)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    after_first = dict(LeagueStanding.objects.values_list("player_id", "rank"))
    assert set(LeagueStanding.objects.values_list("previous_rank", flat=True)) == {None}
    evening(club, people[2:] + people[:2], league=league, rng=rng, days_ago=0)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    rows = LeagueStanding.objects.filter(league=league)
    assert {r.player_id: r.previous_rank for r in rows} == after_first
    assert all(r.movement == r.previous_rank - r.rank for r in rows)
    assert all(r.evenings == 2 for r in rows)
    assert first.pk in {e for e in league.events.values_list("id", flat=True)}


def test_league_counts_complete_games_only():
    club = make_club()
    league = make_league(club)
    people = players(club, 8)
    rng = random.Random(5)
    evening(club, people[:4], league=league, rng=rng, days_ago=3)
    evening(club, people[4:], league=league, rng=rng, complete=False)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    assert set(LeagueStanding.objects.values_list("player_id", flat=True)) == {
        p.pk for p in people[:4]
    }


def test_placement_ranking_and_best_evenings_in_a_league():
    club = make_club()
    league = make_league(
        club,
        ranking={"method": "placement", "placement_points": [3, 2, 1, 0], "best_evenings": 1},
    )
    people = players(club, 4)
    rng = random.Random(6)
    evening(club, people, league=league, rng=rng, days_ago=2)
    evening(club, people, league=league, rng=rng, days_ago=1)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    rows = list(LeagueStanding.objects.filter(league=league).order_by("rank"))
    # Each player counts one evening: at most 3 placement points.
    assert all(0 <= r.points <= 3 for r in rows)
    assert all(r.details["evenings_counted"] == 1 and r.evenings == 2 for r in rows)
    assert sum(r.points for r in rows) <= 12


def test_average_ranking_with_minimum_games_on_an_event():
    club = make_club()
    people = players(club, 8)
    rng = random.Random(7)
    event = evening(club, people, rng=rng)
    event.ranking = {"method": "average", "min_games": 2}
    event.save()
    extra = seat(event, people[:4], round_number=2)
    play(extra, rng)
    rebuild.rebuild_event_standings(event_id=event.pk)
    rows = list(EventStanding.objects.filter(event=event).order_by("rank"))
    qualified = [r for r in rows if r.details["qualified"]]
    assert {r.player_id for r in qualified} == {p.pk for p in people[:4]}
    assert rows[:4] == qualified  # the unqualified come after
    for r in rows:
        assert r.points == Decimal(str(r.details["average"])).quantize(Decimal("0.01"))


def test_rebuild_twice_gives_the_same_rows():
    club = make_club()
    event = evening(club, players(club, 8), rng=random.Random(8), complete=False)
    rebuild.rebuild_event_standings(event_id=event.pk)
    once = list(EventStanding.objects.values_list("player_id", "rank", "points", "details"))
    rebuild.rebuild_event_standings(event_id=event.pk)
    twice = list(EventStanding.objects.values_list("player_id", "rank", "points", "details"))
    assert once == twice


def test_ratings_incremental_sync_replays_only_the_new_game():
    club = make_club()
    people = players(club, 8)
    rng = random.Random(9)
    evening(club, people, rng=rng, days_ago=5)
    assert barbu_rating_sync.sync_ratings().replayed == 2
    assert barbu_rating_sync.sync_ratings().replayed == 0  # nothing changed
    event = evening(club, people[:4], rng=rng, days_ago=0)
    report = barbu_rating_sync.sync_ratings()
    assert report.replayed == 1 and report.games == 3
    incremental = {
        (r.player_id, k): getattr(r, k) for r in PlayerRating.objects.all() for k in ("mu", "sigma")
    }
    barbu_rating_sync.sync_ratings(full=True)
    full = {
        (r.player_id, k): getattr(r, k) for r in PlayerRating.objects.all() for k in ("mu", "sigma")
    }
    assert incremental == pytest.approx(full)
    # An event deleted: its games leave the history.
    event.delete()
    barbu_rating_sync.sync_ratings()
    assert RatingHistory.objects.count() == 8
    assert PlayerRating.objects.get(player=people[0]).games == 1


def test_bursts_coalesce_into_one_queued_task(monkeypatch):
    sent = []
    monkeypatch.setattr(
        tasks.event_standings_task, "apply_async", lambda args, countdown, **kw: sent.append(args)
    )
    for _ in range(20):
        tasks.queue_event_standings(42)
    assert sent == [(42,)]
    # The task clears the mark before it reads: the next deal queues again.
    monkeypatch.setattr(rebuild, "rebuild_event_standings", lambda event_id: 0)
    tasks.event_standings_task.run(42)
    tasks.queue_event_standings(42)
    assert sent == [(42,), (42,)]


@pytest.fixture
def not_eager(settings, monkeypatch):
    """A broker: tasks are sent, not run (CELERY_TASK_ALWAYS_EAGER off); sends recorded."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setitem(tasks.event_standings_task.app.conf, "task_always_eager", False)
    sent = []
    monkeypatch.setattr(
        tasks.event_standings_task, "apply_async", lambda args, countdown, **kw: sent.append(args)
    )
    settings.STANDINGS_COUNTDOWNS = {"event": 2.0}
    return sent


class _Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class _CountingCache:
    """The cache, with its `add` calls counted."""

    def __init__(self, adds):
        self.adds = adds

    def add(self, key, *args, **kwargs):
        self.adds.append(key)
        return cache.add(key, *args, **kwargs)

    def __getattr__(self, name):
        return getattr(cache, name)


def _count_adds(monkeypatch) -> list:
    adds: list = []
    monkeypatch.setattr(tasks, "cache", _CountingCache(adds))
    return adds


def _ident() -> int:
    # Marks live in a cache other test runs may share: an event id of this test's own.
    return 10**9 + random.SystemRandom().randrange(10**9)


def test_memo_skips_the_mark_within_the_window_not_after(not_eager, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(tasks, "monotonic", clock)
    adds = _count_adds(monkeypatch)
    ident = _ident()
    assert tasks.queue_event_standings(ident) is True
    assert (len(adds), not_eager) == (1, [(ident,)])
    # Countdown 2 s, margin max(0.5, 1) = 1 s: memo until t0 + 1 s, no Redis round trip.
    clock.now += 0.99
    assert tasks.queue_event_standings(ident) is False
    assert len(adds) == 1
    # Another event is not covered.
    other = _ident()
    assert tasks.queue_event_standings(other) is True
    assert len(adds) == 2
    # After the window the mark is tried again (it is still set: no second task).
    clock.now += 0.02
    assert tasks.queue_event_standings(ident) is False
    assert len(adds) == 3
    assert not_eager == [(ident,), (other,)]
    # Once the task has cleared the mark, the next deal queues again.
    tasks.cache.delete(tasks.dirty_key("event", ident))
    assert tasks.queue_event_standings(ident) is True
    assert not_eager == [(ident,), (other,), (ident,)]


def test_memo_is_not_set_after_a_failed_add(not_eager, monkeypatch):
    ident = _ident()
    # Another process set the mark (its task may be about to read): add fails each time.
    tasks.cache.add(tasks.dirty_key("event", ident), 1, timeout=60)
    adds = _count_adds(monkeypatch)
    for _ in range(3):
        assert tasks.queue_event_standings(ident) is False
    assert len(adds) == 3
    assert not_eager == []
    assert tasks._sent_until == {}


def test_a_deal_that_finds_the_mark_set_asks_nothing_of_celery(not_eager, monkeypatch):
    """Most deals of a busy evening only find the mark set: Celery's configuration (whether
    it runs tasks eagerly, read through the task's proxy) is asked only when a memo is to
    be trusted or a task was sent."""
    ident = _ident()
    tasks.cache.add(tasks.dirty_key("event", ident), 1, timeout=60)
    asked = []
    plain = tasks._eager
    monkeypatch.setattr(tasks, "_eager", lambda task: asked.append(task) or plain(task))
    for _ in range(3):
        assert tasks.queue_event_standings(ident) is False
    assert asked == []
    tasks.cache.delete(tasks.dirty_key("event", ident))
    assert tasks.queue_event_standings(ident) is True  # sent: asked, to set the memo
    assert len(asked) == 1 and tasks._sent_until
    assert tasks.queue_event_standings(ident) is False  # the memo: asked again
    assert len(asked) == 2 and not_eager == [(ident,)]


def test_memo_is_not_set_when_the_send_fails(not_eager, monkeypatch):
    def fail(args, countdown, **kw):
        raise ConnectionError("no broker")

    monkeypatch.setattr(tasks.event_standings_task, "apply_async", fail)
    monkeypatch.setattr(tasks.log, "exception", lambda *a, **kw: None)
    ident = _ident()
    assert tasks.queue_event_standings(ident) is False
    assert tasks._sent_until == {}


def test_no_memo_in_eager_mode(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    sent = []
    monkeypatch.setattr(
        tasks.event_standings_task, "apply_async", lambda args, countdown, **kw: sent.append(args)
    )
    ident = _ident()
    assert tasks.queue_event_standings(ident) is True
    assert tasks._sent_until == {}
    tasks.cache.delete(tasks.dirty_key("event", ident))  # the eager task ran
    assert tasks.queue_event_standings(ident) is True
    assert sent == [(ident,), (ident,)]


def test_a_task_run_here_forgets_the_memo(not_eager, monkeypatch):
    monkeypatch.setattr(rebuild, "rebuild_event_standings", lambda event_id: 0)
    ident = _ident()
    assert tasks.queue_event_standings(ident) is True
    tasks.event_standings_task.run(ident)
    assert tasks.queue_event_standings(ident) is True
    assert not_eager == [(ident,), (ident,)]


def test_a_broker_failure_does_not_leave_the_mark(monkeypatch):
    def fail(args, countdown, **kw):
        raise ConnectionError("no broker")

    monkeypatch.setattr(tasks.event_standings_task, "apply_async", fail)
    assert tasks.queue_event_standings(7) is False
    assert cache.get(tasks.dirty_key("event", 7)) is None


def test_rebuild_command_rebuilds_everything():
    club = make_club()
    league = make_league(club)
    event = evening(club, players(club, 4), league=league, rng=random.Random(10))
    EventStanding.objects.all().delete()
    from io import StringIO

    out = StringIO()
    call_command("rebuild_standings", stdout=out)
    assert EventStanding.objects.filter(event=event).count() == 4
    assert LeagueStanding.objects.filter(league=league).count() == 4
    assert PlayerRating.objects.count() == 4
    text = out.getvalue()
    assert "events: 1/1" in text and "leagues: 1/1" in text and "done in" in text
