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

`deletes_held()` holds the deletes (`delete_many`) made inside and sends them with the
next command, in one round trip: a deal's commit drops the API's reads generation, its
game's and evening's live versions, and marks its evening's standings queued (`add`),
each from its own receiver, in one pipeline instead of three round trips.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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


_held = threading.local()


@contextmanager
def deletes_held() -> Iterator[None]:
    """Hold the cache's deletes (`delete_many`) made inside this thread, and send them
    with the next command of this cache (`add` in the same pipeline as itself, any other
    command right before it) or at the end, also when leaving on an exception: order is
    kept, with a round trip or two fewer. Only commands made through the cache's API
    see them (not a Redis client used directly, as the writes throttle does). Nested:
    the outer one sends. Other cache backends delete at once, as ever."""
    if getattr(_held, "deletes", None) is not None:
        yield
        return
    _held.deletes = {}
    try:
        yield
    finally:
        held, _held.deletes = _held.deletes, None
        for client, keys in held.items():
            client.delete_many(keys)


def _fail_open(name: str, answer: Any):
    def method(self, *args: Any, **kwargs: Any) -> Any:
        if name != "delete_many":
            self._send_held()
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
    _add = _fail_open("add", False)
    set = _fail_open("set", None)
    set_many = _fail_open("set_many", lambda args, kwargs: [])
    touch = _fail_open("touch", False)
    delete = _fail_open("delete", False)
    _delete_many = _fail_open("delete_many", None)

    def incr(self, key, delta):
        self._send_held()
        return super().incr(key, delta)

    def clear(self):
        self._send_held()
        return super().clear()

    def delete_many(self, keys) -> None:
        held = getattr(_held, "deletes", None)
        if held is None:
            self._delete_many(keys)
        elif keys:
            held.setdefault(self, []).extend(keys)

    def _take_held(self) -> list:
        held = getattr(_held, "deletes", None)
        return held.pop(self, []) if held else []

    def _send_held(self) -> None:
        keys = self._take_held()
        if keys:
            self._delete_many(keys)

    def add(self, key, value, timeout) -> bool:
        """Django's add; the held deletes go in the same pipeline, before it."""
        keys = self._take_held()
        if not keys or timeout == 0:  # (0: Django's add and delete, two commands)
            if keys:
                self._delete_many(keys)
            return self._add(key, value, timeout)
        pipeline = self.get_client(key, write=True).pipeline(transaction=False)
        pipeline.delete(*keys)
        pipeline.set(key, self._serializer.dumps(value), ex=timeout, nx=True)
        try:
            return bool(pipeline.execute()[-1])
        except UNREACHABLE as error:
            unreachable("add", error)
            return False


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
