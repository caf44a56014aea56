"""Django's Redis cache backend, failing open: Redis down is a cache miss, not an error.

Every read answers as if the key were absent (`add` as if it were present: nothing is
stored), every write is dropped, and a warning is logged (at most one every LOG_EVERY
seconds per process). What the cache holds is all derived or advisory (live versions,
throttle and login counters, the standings' "already queued" marks), so the site goes on
without it: deals are stored, throttles and login limits fail open, standings catch up
when Redis is back (scoring/healing.py). Selected by settings.CACHES when REDIS_URL is set.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends import redis as django_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
LOG_EVERY = 10.0
_last_logged = [0.0]


def unreachable(operation: str, error: BaseException) -> None:
    """Log that Redis could not be reached (rate-limited)."""
    now = time.monotonic()
    if now - _last_logged[0] >= LOG_EVERY:
        _last_logged[0] = now
        log.warning("cache unreachable, %s answered as a miss: %s", operation, error)


def _fail_open(name: str, answer: Any):
    def method(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(super(RedisCacheClient, self), name)(*args, **kwargs)
        except UNREACHABLE as error:
            unreachable(name, error)
            return answer(args, kwargs) if callable(answer) else answer

    method.__name__ = name
    return method


class RedisCacheClient(django_redis.RedisCacheClient):
    get = _fail_open("get", lambda args, kwargs: kwargs.get("default", args[1]))
    get_many = _fail_open("get_many", lambda args, kwargs: {})
    has_key = _fail_open("has_key", False)
    add = _fail_open("add", False)
    set = _fail_open("set", None)
    set_many = _fail_open("set_many", lambda args, kwargs: [])
    touch = _fail_open("touch", False)
    delete = _fail_open("delete", False)
    delete_many = _fail_open("delete_many", None)


class RedisCache(django_redis.RedisCache):
    """Django's RedisCache with the failing-open client above."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
