"""clubs/cache.py: Django's Redis cache, as Django's while Redis answers."""

from __future__ import annotations

import os

import pytest

from clubs.cache import RedisCache

URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/11")


def backend() -> RedisCache:
    return RedisCache(URL, {"KEY_PREFIX": "tavolo-test-cache"})


@pytest.mark.redis
def test_it_is_django_s_redis_cache_otherwise():
    cache = backend()
    cache.set("k", {"a": 1}, 30)
    assert cache.get("k") == {"a": 1}
    assert cache.add("k", 2) is False
    assert cache.add("n", 0) is True and cache.incr("n") == 1
    cache.delete_many(["k", "n"])
    assert cache.get("k") is None
