"""clubs/cache.py: Django's Redis cache with one client (and pool) per process."""

from __future__ import annotations

import os
import threading

import pytest

from clubs.cache import RedisCache, deletes_held

URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")


def backend() -> RedisCache:
    return RedisCache(URL, {"KEY_PREFIX": "tavolo-test-cache"})


def test_one_client_per_process_across_instances_and_threads():
    first = backend()
    clients = [first._cache.get_client(write=True), first._cache.get_client(write=False)]
    seen = []
    thread = threading.Thread(target=lambda: seen.append(backend()._cache.get_client()))
    thread.start()
    thread.join()
    assert clients[0] is clients[1] is seen[0]
    assert clients[0].connection_pool is seen[0].connection_pool
    # other options: a client of their own
    other = RedisCache(URL, {"OPTIONS": {"db": 12}})
    assert other._cache.get_client() is not clients[0]


@pytest.mark.redis
def test_it_is_django_s_redis_cache_otherwise():
    cache = backend()
    cache.set("k", {"a": 1}, 30)
    assert cache.get("k") == {"a": 1}
    assert cache.add("k", 2) is False
    assert cache.add("n", 0) is True and cache.incr("n") == 1
    cache.delete_many(["k", "n"])
    assert cache.get("k") is None


def round_trips(monkeypatch) -> list:
    """Every request sent to Redis from now on (a pipeline is one)."""
    import redis.connection

    sent: list = []
    plain = redis.connection.AbstractConnection.send_packed_command

    def send(self, command, check_health=True):
        sent.append(command)
        return plain(self, command, check_health)

    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", send)
    return sent


@pytest.mark.redis
def test_held_deletes_go_with_the_next_add_in_one_round_trip(monkeypatch):
    cache = backend()
    cache.set_many({"a": 1, "b": 2, "c": 3}, 30)
    cache.delete("mark")
    sent = round_trips(monkeypatch)
    with deletes_held():
        cache.delete_many(["a", "b"])
        cache.delete_many(["c"])
        assert sent == []  # held
        assert cache.add("mark", 1, 30) is True
        assert len(sent) == 1  # the deletes and the add: one pipeline
        assert cache.add("mark", 2, 30) is False  # nothing held now: a plain add
        assert len(sent) == 2
    assert len(sent) == 2  # nothing left to send
    assert cache.get_many(["a", "b", "c"]) == {} and cache.get("mark") == 1


@pytest.mark.redis
def test_held_deletes_go_before_any_other_command_and_at_the_end(monkeypatch):
    cache = backend()
    cache.set_many({"a": 1, "b": 2}, 30)
    sent = round_trips(monkeypatch)
    with deletes_held():
        cache.delete_many(["a"])
        assert cache.get("a") is None  # the delete first: order is kept
        assert len(sent) == 2
        cache.delete_many(["b"])
        with deletes_held():  # nested: the outer one sends
            cache.delete_many(["b"])
        assert len(sent) == 2
    assert len(sent) == 3 and cache.get("b") is None
    cache.set("a", 1, 30)
    with pytest.raises(RuntimeError), deletes_held():
        cache.delete_many(["a"])
        raise RuntimeError  # what was held is sent all the same
    assert cache.get("a") is None
    cache.delete_many(["a"])  # outside: at once, as Django's
    assert len(sent) == 8
