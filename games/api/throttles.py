"""Rate limits: "writes" on every unsafe request, "auth" on the token endpoint.

Rates come from settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], read at each request
(DRF's own classes read them once at import, which tests cannot override).
"""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from games.api.permissions import table_key


class _SettingsRate(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view) -> bool:
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class WritesThrottle(_SettingsRate):
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
