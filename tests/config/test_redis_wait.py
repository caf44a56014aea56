"""Redis dying under the writes: each write is answered within a bounded wait and stored.

A throwaway redis-server of the test's own (tests/config/throwaway_redis.py) is killed
(its connections reset, new ones refused) or paused (alive but silent, as a host gone
from the network: the case without which no timeout is ever needed), after one write has
warmed every connection. Either the one Redis of the site dies, or only the broker's
(the cache answering, so that the write goes as far as sending its standings task).
"""

from __future__ import annotations

import shutil
import time
import uuid

import pytest
import redis as redis_lib
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from config.celery import app
from games.models import Deal
from tests.factories import make_club, make_event, make_game
from tests.games.api.world import game_deals
from tests.throwaway_redis import Redis, free_port

BOUND = 3.0  # seconds: the was eleven


@pytest.fixture
def servers(settings, monkeypatch):
    """Two throwaway Redis: the cache's and the broker's (the same one unless told)."""
    if not shutil.which("redis-server"):
        pytest.skip("no redis-server on this machine")
    started: list[Redis] = []

    def point(cache: Redis, broker: Redis) -> None:
        settings.REDIS_URL = broker.url
        settings.CACHES = {
            "default": {
                **django_settings.CACHES["default"],
                "LOCATION": cache.url,
                "KEY_PREFIX": f"wait-{uuid.uuid4().hex[:10]}",
            }
        }
        monkeypatch.setitem(app.conf, "broker_url", broker.url)
        monkeypatch.setitem(app.conf, "result_backend", broker.url)
        monkeypatch.setattr(app, "_pool", None)
        monkeypatch.setattr(app.amqp, "_producer_pool", None)

    def start() -> Redis:
        server = Redis(free_port())
        server.start()
        started.append(server)
        return server

    yield start, point
    for server in started:
        server.kill()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.worker
@pytest.mark.parametrize("fault", ["kill", "pause"])
@pytest.mark.parametrize("dies", ["redis", "broker"])
@pytest.mark.django_db(transaction=True)
def test_a_write_is_answered_within_the_bound_and_stored_when_redis_dies(servers, fault, dies):
    start, point = servers
    broker = start()
    cache = broker if dies == "redis" else start()
    point(cache, broker)
    club = make_club("Wait", slug=f"wait-{uuid.uuid4().hex[:6]}")
    # One evening per write: each write queues its evening's standings anew (no mark of
    # an earlier write's task to ride on), so each one reaches the broker.
    games = [make_game(club, event=make_event(club, status="running")) for _ in range(4)]
    deal = game_deals(3)[0]

    def write(game) -> tuple[int, float]:
        client = APIClient()
        client.credentials(HTTP_X_TABLE_KEY=game.table.key)
        began = time.monotonic()
        answer = client.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json")
        return answer.status_code, time.monotonic() - began

    assert write(games[0])[0] == 201  # every connection made
    getattr(broker, fault)()
    answers = [write(game) for game in games[1:]]

    print(dies, fault, [f"{seconds:.2f} s" for _, seconds in answers])
    assert [status for status, _ in answers] == [201, 201, 201]
    assert max(seconds for _, seconds in answers) < BOUND, answers
    for game in games:
        assert Deal.objects.filter(game=game).count() == 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_restarted_redis_gets_the_next_write_s_standings_task(servers, settings):
    """Sends are tried once: a connection Redis closed while it sat in the pool is replaced
    before the send, so the first write after a restart queues its task."""
    start, point = servers
    server = start()
    point(server, server)
    settings.STANDINGS_QUEUE = f"wait-{uuid.uuid4().hex[:8]}"
    club = make_club("Restart", slug=f"restart-{uuid.uuid4().hex[:6]}")
    games = [make_game(club, event=make_event(club, status="running")) for _ in range(2)]
    deal = game_deals(3)[0]

    def write(game) -> int:
        client = APIClient()
        client.credentials(HTTP_X_TABLE_KEY=game.table.key)
        return client.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json").status_code

    assert write(games[0]) == 201
    queued = redis_lib.Redis.from_url(server.url)
    assert queued.llen(settings.STANDINGS_QUEUE) == 1
    server.kill()
    server.start()  # empty: the first task went with the old one
    assert write(games[1]) == 201
    assert queued.llen(settings.STANDINGS_QUEUE) == 1
