"""Django's Redis cache backend, failing open: Redis down is a cache miss, not an error.

Every read answers as if the key were absent (`add` as if it were present: nothing is
stored), every write is dropped, and a warning is logged (at most one every LOG_EVERY
seconds per process). What the cache holds is all derived or advisory (live versions,
throttle and login counters, the standings' "already queued" marks), so the site goes on
without it: deals are stored, throttles and login limits fail open, standings catch up
when Redis is back (scoring/healing.py). Selected by settings.CACHES when REDIS_URL is set.

A Redis that has just failed is left alone for REST_SECONDS: each command meanwhile
answers at once as if it had failed, so a request pays the socket timeout of a silent
Redis (settings.REDIS_TIMEOUT) once at most, not once per command, and a process pays
it once per REST_SECONDS. The first command after the rest tries Redis again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends import redis as django_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
LOG_EVERY = 10.0
REST_SECONDS = 5.0
_last_logged = [0.0]


def unreachable(operation: str, error: BaseException) -> None:
    """Log that Redis could not be reached (rate-limited)."""
    now = time.monotonic()
    if now - _last_logged[0] >= LOG_EVERY:
        _last_logged[0] = now
        log.warning("cache unreachable, %s answered as a miss: %s", operation, error)


class Resting(RedisConnectionError):
    """Redis not tried: it failed less than REST_SECONDS ago."""

    def __str__(self) -> str:
        return f"not tried for {REST_SECONDS:g} s after a failure"


def _fail_open(name: str, answer: Any):
    def method(self, *args: Any, **kwargs: Any) -> Any:
        parent = getattr(super(RedisCacheClient, self), name)
        return self.fail_open(name, lambda: parent(*args, **kwargs), answer, args, kwargs)

    method.__name__ = name
    return method


class RedisCacheClient(django_redis.RedisCacheClient):
    _resting_until = 0.0

    def resting(self) -> bool:
        """True while Redis is left alone after a failure (the module docstring)."""
        return time.monotonic() < self._resting_until

    def fail_open(
        self,
        operation: str,
        command: Callable[[], Any],
        answer: Any,
        args: tuple = (),
        kwargs: dict | None = None,
    ) -> Any:
        """`command()`, or `answer` (called with args and kwargs if callable) when Redis
        cannot be reached or is resting after a failure."""
        try:
            if self.resting():
                raise Resting()
            return command()
        except UNREACHABLE as error:
            if not self.resting():
                self._resting_until = time.monotonic() + REST_SECONDS
            unreachable(operation, error)
            return answer(args, kwargs or {}) if callable(answer) else answer

    def incr(self, key: Any, delta: int) -> int:
        """Django's, but refused at once while resting; a failure starts a rest. It
        raises (a count cannot be answered as a miss): its callers fail open."""
        if self.resting():
            raise Resting()
        try:
            return super().incr(key, delta)
        except UNREACHABLE:
            self._resting_until = time.monotonic() + REST_SECONDS
            raise

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
