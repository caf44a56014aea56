"""Redis down: the cache answers as a miss, throttles and marks fail open with a log line,
deals are still accepted and stored."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework.test import APIClient

from clubs import cache as cache_module
from games.models import Deal
from tests.factories import make_game
from tests.games.api.world import game_deals


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_down(settings, monkeypatch):
    settings.CACHES = {
        "default": {
            "BACKEND": "clubs.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    monkeypatch.setattr(cache_module, "_last_logged", [0.0], raising=False)


def test_the_cache_answers_as_a_miss_and_logs_it(redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="clubs.cache"):
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("k", 1) is False
        cache.set("k", 1)
        cache.delete("k")
        cache.delete_many(["a"])
    assert "cache unreachable" in caplog.text


@pytest.mark.django_db
def test_deals_are_accepted_and_stored_with_redis_down(redis_down, settings, caplog):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"auth": "20/min", "writes": "600/min"},
    }
    game = make_game()
    client = APIClient()
    client.credentials(HTTP_X_TABLE_KEY=game.table.key)
    with caplog.at_level(logging.WARNING, logger="clubs.cache"):
        for deal in game_deals()[:3]:
            answer = client.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json")
            assert answer.status_code == 201, answer.content
        read = client.get(f"/api/v1/games/{game.pk}/")
    assert read.status_code == 200 and len(read.json()["record"]["deals"]) == 3
    assert Deal.objects.filter(game=game).count() == 3
    assert "cache unreachable" in caplog.text


@pytest.mark.django_db
def test_the_api_lists_are_read_in_full_with_redis_down(redis_down):
    """Nothing of a read depends on the cache: with Redis down a write is seen at once."""
    game = make_game()
    client = APIClient()
    first = client.get("/api/v1/games/")
    assert first.status_code == 200
    assert {g["id"]: g["status"] for g in first.json()["results"]}[game.pk] == "in_progress"
    type(game).objects.filter(pk=game.pk).update(status="complete")
    again = client.get("/api/v1/games/").json()
    assert {g["id"]: g["status"] for g in again["results"]}[game.pk] == "complete"


def test_deletes_and_adds_fail_open(redis_down, caplog):
    with caplog.at_level(logging.WARNING, logger="clubs.cache"):
        cache.delete_many(["a", "b"])
        assert cache.add("k", 1) is False
        cache.delete_many(["c"])  # nothing raised
    assert "cache unreachable" in caplog.text


@pytest.fixture
def silent_redis(settings, monkeypatch):
    """A Redis that went silent (its host gone from the network): a port whose connections
    the kernel accepts and nobody ever answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        settings.CACHES = {
            "default": {
                "BACKEND": "clubs.cache.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{listener.getsockname()[1]}/0",
                "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3},
            }
        }
        monkeypatch.setattr(cache_module, "_last_logged", [0.0], raising=False)
        yield


def _timed(operation) -> float:
    began = time.monotonic()
    operation()
    return time.monotonic() - began


def test_a_silent_redis_costs_one_timeout_then_rests(silent_redis, monkeypatch, caplog):
    """The first command waits out the socket timeout; the next ones, and the throttle's
    and the login limits' own commands, answer at once until the rest is over."""
    monkeypatch.setattr(cache_module, "REST_SECONDS", 1.0)
    with caplog.at_level(logging.WARNING, logger="clubs.cache"):
        first = _timed(lambda: cache.get("k"))
        rest = [
            _timed(lambda: cache.get("k")),
            _timed(lambda: cache.add("k", 1)),
            _timed(lambda: cache.delete_many(["k"])),
            _timed(lambda: cache.get_many(["k"])),
        ]
        with pytest.raises(RedisConnectionError):
            cache.incr("k")
        time.sleep(1.0)
        again = _timed(lambda: cache.get("k"))
    assert 0.25 < first < 1.0, first
    assert max(rest) < 0.05, rest
    assert 0.25 < again < 1.0, again  # tried again after the rest
    assert "cache unreachable" in caplog.text


@pytest.mark.django_db
def test_a_write_pays_one_timeout_at_most_with_redis_silent(silent_redis):
    game = make_game()
    client = APIClient()
    client.credentials(HTTP_X_TABLE_KEY=game.table.key)
    url = f"/api/v1/games/{game.pk}/deals/"
    deals = game_deals()
    began = time.monotonic()
    first = client.post(url, deals[0], format="json")
    first_seconds = time.monotonic() - began
    began = time.monotonic()
    second = client.post(url, deals[1], format="json")
    second_seconds = time.monotonic() - began
    assert (first.status_code, second.status_code) == (201, 201)
    assert Deal.objects.filter(game=game).count() == 2
    assert first_seconds < 1.0, first_seconds  # one socket timeout (0.3 s), not one a command
    assert second_seconds < 0.3, second_seconds  # the cache rests
