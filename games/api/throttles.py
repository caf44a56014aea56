"""Rate limits: "writes" on every unsafe request, "auth" on the token endpoint.

Rates come from settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], read at each request
(DRF's own classes read them once at import, which tests cannot override).

"writes" is a fixed-window counter when the cache is Redis: one INCR and one EXPIRE in a
single pipeline (one round trip, nothing to unpickle), instead of DRF's sliding window
(a get and a set of the pickled list of the client's recent request times). A fixed
window forgets everything at its boundary, so a client can pass up to twice the rate
over a short span straddling two windows (the end of one and the start of the next);
that is acceptable for a limit meant to stop runaway clients, not to meter them. On any
other cache (local memory: the embedded default, the tests) it is DRF's sliding window.
"auth" (password attempts) always keeps the sliding window.
With Redis down every throttle lets requests through, with a warning in the log
(clubs/cache.py): a write is never refused because a counter cannot be kept.
"""

from __future__ import annotations

import math

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from clubs.login_limits import client_address
from games.api.permissions import table_key


class _SettingsRate(SimpleRateThrottle):
    def get_ident(self, request: Request) -> str:
        # X-Forwarded-For only as far as settings.NUM_PROXIES trusts it (DRF's own believes
        # any client's header when NUM_PROXIES is unset).
        return client_address(request)

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class _FixedWindowRate(_SettingsRate):
    """A fixed-window counter in Redis (see the module docstring); DRF's sliding window
    on other caches."""

    _wait: float | None = None

    def allow_request(self, request: Request, view) -> bool:
        backend = caches["default"]  # self.cache is a proxy to it
        if not isinstance(backend, RedisCache):
            return super().allow_request(request, view)
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        redis_key = backend.make_and_validate_key(f"{key}:fw:{window}")
        client = backend._cache.get_client(redis_key, write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(redis_key)
        # A little longer than the window: the key outlives it, never the other way.
        pipe.expire(redis_key, self.duration + 1)
        # Redis down (or resting after a failure, clubs/cache.py): fail open, the request
        # goes on.
        count = backend._cache.fail_open("writes throttle", lambda: pipe.execute()[0], None)
        if count is None:
            return True
        if count <= self.num_requests:
            return True
        self._wait = (window + 1) * self.duration - now
        return False

    def wait(self) -> float | None:
        if self._wait is not None:
            return max(1, math.ceil(self._wait))
        return super().wait()


class WritesThrottle(_FixedWindowRate):
    """Unsafe requests, counted per user, per table key, or per address."""

    scope = "writes"

    def get_cache_key(self, request: Request, view) -> str | None:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        key = table_key(request)
        if request.user and request.user.is_authenticated:
            ident = f"user:{request.user.pk}"
        elif key is not None:
            ident = f"table:{key.table_id}"
        else:
            ident = f"addr:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AuthThrottle(_SettingsRate):
    """Password attempts, counted per address."""

    scope = "auth"

    def get_cache_key(self, request: Request, view) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
