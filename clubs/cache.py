"""Django's Redis cache backend with one client and one connection pool per process.

Django's RedisCache builds a new redis.Redis object for every cache operation (about
0.2 ms of Python here, as long as the round trip itself), and each thread's backend
instance has pools of its own. This backend shares one client, and so one connection
pool, per process and server list: redis-py's clients and pools are thread-safe, and a
pool notices a fork (gunicorn --preload) and starts afresh in the child.
Selected by settings.CACHES when REDIS_URL is set; behaves as Django's otherwise.

Redis down is a cache miss, not an error: every read answers as if the key were absent
(`add` as if it were present: nothing is stored), every write is dropped, and a warning
is logged (at most one every LOG_EVERY seconds per process). What the cache holds is all
derived or advisory (rendered pages, throttle and login counters, the standings' "already
queued" marks), so the site goes on without it: deals are stored, throttles and login
limits fail open, standings catch up when Redis is back (scoring/healing.py).
"""

from __future__ import annotations

import logging
import threading
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


_shared: dict[tuple, django_redis.RedisCacheClient] = {}
_lock = threading.Lock()


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, servers, **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._client(connection_pool=self._get_connection_pool(write))
            self._clients[index] = client
        return client

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
    """Django's RedisCache, its client (and pools) shared by every thread of the process."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._shared_key = (tuple(self._servers), repr(sorted(self._options.items())))

    @property
    def _cache(self) -> RedisCacheClient:
        client = _shared.get(self._shared_key)
        if client is None:
            with _lock:
                client = _shared.setdefault(
                    self._shared_key, self._class(self._servers, **self._options)
                )
        return client
