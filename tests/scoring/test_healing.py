"""Standings heal: a task lost with its worker (its "already queued" mark left behind)
does not leave the standings behind; the sweep finds the scopes behind their games."""

from __future__ import annotations

import random
import time

import pytest
from django.conf import settings
from django.core.cache import cache

from scoring import healing, rebuild, tasks
from scoring.models import EventStanding, LeagueStanding, StandingsSource
from tests.factories import make_club, make_event, make_league, make_player
from tests.scoring.evenings import play, seat

pytestmark = pytest.mark.django_db


def _rows(event_id: int) -> list[tuple]:
    return list(
        EventStanding.objects.filter(event_id=event_id)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points", "games")
    )


def rows_from_scratch(event_id: int) -> list[tuple]:
    rebuild.rebuild_event_standings(event_id=event_id)
    return _rows(event_id)


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    club = make_club("Heal")
    league = make_league(club)
    event = make_event(club, league=league, status="running")
    people = [make_player(club, f"H{i}") for i in range(8)]
    games = [seat(event, people[:4]), seat(event, people[4:])]
    with django_capture_on_commit_callbacks(execute=True):
        play(games[0], random.Random(1), deals=5)
        play(games[1], random.Random(2))  # complete: the league and ratings follow
    return event, league, games


def test_tasks_record_what_they_computed_and_nothing_is_behind(evening):
    event, league, _games = evening
    assert healing.behind() == []
    recorded = dict(StandingsSource.objects.values_list("scope", "fingerprint"))
    assert recorded[f"event:{event.pk}"] == healing.fingerprint("event", event.pk)
    assert recorded[f"league:{league.pk}"] == healing.fingerprint("league", league.pk)
    assert "ratings:all" in recorded


def _lost_task(event_id: int, age: float) -> None:
    """A task queued `age` seconds ago and lost with its worker: its mark is still set."""
    cache.set(tasks.dirty_key("event", event_id), time.time() - age, tasks.DIRTY_TIMEOUT)


def test_deals_after_a_lost_task_leave_the_standings_behind_until_the_sweep(
    evening, django_capture_on_commit_callbacks
):
    event, _league, games = evening
    _lost_task(event.pk, age=60)
    with django_capture_on_commit_callbacks(execute=True):
        play(games[0], random.Random(1), deals=6)  # the mark stops these from queueing
    stale = _rows(event.pk)
    assert healing.behind() == [("event", event.pk)]

    requeued = tasks.heal_standings_task()

    assert requeued == [f"event:{event.pk}"]
    assert _rows(event.pk) != stale
    assert _rows(event.pk) == rows_from_scratch(event.pk)
    assert healing.behind() == []
    assert cache.get(tasks.dirty_key("event", event.pk)) is None


def test_a_task_queued_just_now_is_left_to_run(evening, django_capture_on_commit_callbacks):
    event, _league, games = evening
    _lost_task(event.pk, age=1)
    with django_capture_on_commit_callbacks(execute=True):
        play(games[0], random.Random(1), deals=2)
    assert tasks.heal_standings_task() == []
    assert healing.behind() == [("event", event.pk)]


def test_a_league_and_the_ratings_behind_are_found_too(evening):
    event, league, _games = evening
    LeagueStanding.objects.filter(league=league).delete()
    StandingsSource.objects.filter(scope__in=[f"league:{league.pk}", "ratings:all"]).delete()
    assert set(healing.behind()) == {("league", league.pk), ("ratings", "all")}
    assert tasks.heal_standings_task()
    assert LeagueStanding.objects.filter(league=league).count() == 4
    assert healing.behind() == []
    assert event.pk  # the evening was never behind


def test_old_games_are_not_swept(evening, settings):
    event, _league, _games = evening
    StandingsSource.objects.all().delete()
    settings.STANDINGS_SWEEP_WINDOW = 0
    assert healing.behind() == []
    assert event.pk


def test_beat_runs_the_sweep_often_and_the_visibility_timeout_is_short():
    entry = settings.CELERY_BEAT_SCHEDULE["heal-standings"]
    assert entry["task"] == "scoring.heal_standings"
    assert entry["schedule"] <= 30
    from config.celery import app

    assert app.conf.broker_transport_options["visibility_timeout"] <= 900
    assert app.conf.broker_connection_max_retries is None
