"""A real Celery worker against Redis and PostgreSQL: a burst of deals from several tables
leaves the stored standings equal to a rebuild from scratch, with fewer rebuilds than deals."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connections

from games.barbu.submission import deal_submit
from scoring import tasks
from scoring.barbu import rebuild as barbu_rebuild
from scoring.engine.barbu.randomgame import random_game
from scoring.models import LeagueStanding
from tests.factories import make_club, make_event, make_league, make_player
from tests.scoring.evenings import seat
from tests.scoring.worker import database_url_of_tests, rows_from_scratch, stored_rows


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_burst_of_deals_from_several_tables_ends_in_correct_standings(settings_override):
    queue, prefix = settings_override
    club = make_club("Burst", slug=f"burst-{uuid.uuid4().hex[:6]}")
    league = make_league(club)
    event = make_event(club, league=league, status="running")
    people = [make_player(club, f"B{i}") for i in range(16)]
    games = [seat(event, people[i : i + 4]) for i in range(0, 16, 4)]
    records = [
        random_game(random.Random(i), g.ruleset, players=list(g.player_names))
        for i, g in enumerate(games)
    ]

    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url_of_tests(),
        REDIS_URL=settings.REDIS_URL,
        CACHE_KEY_PREFIX=prefix,
        # The worker's own queueing (its start-up sweep, scoring/healing.py) goes here too.
        STANDINGS_QUEUE=queue,
        CONN_MAX_AGE="0",
        # The test counts the worker's "Task ... succeeded" lines, logged only at INFO.
        CELERY_TRACE_LOG_LEVEL="INFO",
    )
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker"),
            *("--pool=solo", "--concurrency=1", "-Q", queue, "--loglevel=INFO"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    failures: list[BaseException] = []

    def table(game, record, upto):
        try:
            for deal in record["deals"][:upto]:
                deal_submit(game_id=game.pk, deal=deal, by_label="burst")
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
        finally:
            connections.close_all()

    deals = 0
    try:
        from config.health import ping_db

        ping_db.apply_async(args=["standings"], queue=queue).get(timeout=60)  # ready
        # Two tables finish their game, two stop half-way: all four at once.
        plan = [28, 28, 14, 14]
        deals = sum(plan)
        threads = [
            threading.Thread(target=table, args=(g, r, n))
            for g, r, n in zip(games, records, plan, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not failures, failures

        deadline = time.monotonic() + 90
        stored = []
        while time.monotonic() < deadline:
            stored = stored_rows(event.pk)
            pending = [
                cache.get(tasks.dirty_key(k, i))
                for k, i in (("event", event.pk), ("league", league.pk), ("ratings", "all"))
            ]
            league_rows = LeagueStanding.objects.filter(league=league).count()
            if len(stored) == 16 and league_rows == 8 and not any(pending):
                break
            time.sleep(0.5)
        time.sleep(1)  # a rebuild already started finishes
        stored = stored_rows(event.pk)
        league_stored = list(
            LeagueStanding.objects.filter(league=league)
            .order_by("rank", "player_id")
            .values_list("player_id", "rank", "points")
        )
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate(timeout=30)

    assert stored == rows_from_scratch(event.pk), output[-3000:]
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    assert league_stored == list(
        LeagueStanding.objects.filter(league=league)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points")
    )
    runs = len(re.findall(r"Task scoring\.event_standings\[[^]]+\] succeeded", output))
    # Coalesced: far fewer rebuilds of the evening than deals stored.
    assert 1 <= runs < deals / 3, (runs, deals)
