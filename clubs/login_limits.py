"""Failed logins limited per account and per client address, on every way in.

The log-in page (/accounts/login/), the admin's (/admin/login/) and the API's token
endpoint all call the same three functions around their password check:

    wait = seconds_to_wait(request, username)   # locked: refuse before checking
    ... authenticate ...
    record_failure(request, username)            # a wrong password (may lock)
    record_success(request, username)            # the account's count starts again

LOGIN_FAILURES_PER_ACCOUNT wrong passwords for one user name (whatever the address)
or LOGIN_FAILURES_PER_ADDRESS from one client address (whatever the user names) within
LOGIN_LOCKOUT_SECONDS lock that account or address for LOGIN_LOCKOUT_SECONDS; while
locked even the right password is refused, with the time to wait. Counts and locks live
in Django's cache (Redis in production, so every process and host shares them). When the
cache cannot be reached the limits fail open: logins go on and a warning is logged.

The client address comes from proxy headers only as configured: settings.NUM_PROXIES
proxies in front of the site append to X-Forwarded-For, and the address the outermost
trusted one saw is the client's (with 0, REMOTE_ADDR; a client's own X-Forwarded-For is
never believed). The API throttles take the address the same way.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import ngettext

log = logging.getLogger(__name__)


def client_address(request: Any) -> str:
    """The client's address: REMOTE_ADDR, or with NUM_PROXIES trusted proxies in front, the
    address in X-Forwarded-For that the outermost trusted proxy saw."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR", "") or ""
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if proxies <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    if not addresses:
        return remote
    return addresses[-min(proxies, len(addresses))]


def _limits() -> dict[str, int]:
    return {
        "account": int(getattr(settings, "LOGIN_FAILURES_PER_ACCOUNT", 5)),
        "address": int(getattr(settings, "LOGIN_FAILURES_PER_ADDRESS", 30)),
    }


def _lockout() -> int:
    return int(getattr(settings, "LOGIN_LOCKOUT_SECONDS", 900))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _subjects(request: Any, username: str) -> dict[str, str]:
    """The cache key stem of each thing counted: the account and the client address."""
    return {
        "account": f"login:account:{_digest(username.strip().casefold())}",
        "address": f"login:address:{_digest(client_address(request))}",
    }


def seconds_to_wait(request: Any, username: str) -> int | None:
    """Seconds until this account or address may try again, or None when not locked."""
    keys = [f"{stem}:locked" for stem in _subjects(request, username).values()]
    try:
        until = cache.get_many(keys)
    except Exception as error:  # the cache is down: fail open
        log.warning("login limits unavailable (cache unreachable: %s); login allowed", error)
        return None
    now = time.time()
    waits = [value - now for value in until.values() if isinstance(value, int | float)]
    waits = [wait for wait in waits if wait > 0]
    return max(1, math.ceil(max(waits))) if waits else None


def record_failure(request: Any, username: str) -> int | None:
    """Count a failed login; the seconds to wait when this failure locks, else None."""
    lockout = _lockout()
    limits = _limits()
    locked = False
    try:
        for scope, stem in _subjects(request, username).items():
            key = f"{stem}:failures"
            cache.add(key, 0, timeout=lockout)
            try:
                count = cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=lockout)
                count = 1
            if count >= limits[scope]:
                cache.set(f"{stem}:locked", time.time() + lockout, timeout=lockout)
                cache.delete(key)
                locked = True
                log.warning(
                    "login locked for %d s: too many failures for this %s (address %s)",
                    lockout,
                    scope,
                    client_address(request),
                )
    except Exception as error:  # the cache is down: fail open
        log.warning("login limits unavailable (cache unreachable: %s); failure not counted", error)
        return None
    return lockout if locked else None


def record_success(request: Any, username: str) -> None:
    """A right password: the account's failures start again (the address's do not, so one
    valid account does not open the door to guessing others from the same address)."""
    try:
        cache.delete(f"{_subjects(request, username)['account']}:failures")
    except Exception as error:
        log.warning("login limits unavailable (cache unreachable: %s)", error)


def locked_message(wait: int) -> str:
    """What a locked-out visitor reads, with the time to wait (in minutes, rounded up)."""
    minutes = max(1, math.ceil(wait / 60))
    return ngettext(
        "Too many failed log-in attempts. Try again in %(minutes)d minute.",
        "Too many failed log-in attempts. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
