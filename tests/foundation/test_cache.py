"""clubs/cache.py: Django's Redis cache with one client (and pool) per process."""

from __future__ import annotations

import os
import threading

import pytest

from clubs.cache import RedisCache

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
