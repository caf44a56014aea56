"""gunicorn's settings for the web role: `gunicorn -c config/gunicorn_conf.py config.wsgi`
(docker/entrypoint.sh). Read by gunicorn's master before Django starts, from the same
environment variables as the rest of the site.

Only the TLS proxy in front should reach gunicorn. With NUM_PROXIES set, the client
address (login limits, API throttles) is taken from X-Forwarded-For, which the proxy
appends to: a client that reaches gunicorn directly writes that header itself and picks
its own address, escaping every per-address limit. So gunicorn listens where BIND says
(host:port, several separated by commas), by default on 127.0.0.1 only, and logs a
warning at start when NUM_PROXIES is set and it listens on a public address: every
address (0.0.0.0, ::) or a globally routable one. It also warns when it starts several
worker processes without REDIS_URL: each would keep its own cache (cache_warning).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable
from typing import Any

bind = [
    address.strip() for address in os.environ.get("BIND", "").split(",") if address.strip()
] or [f"127.0.0.1:{os.environ.get('PORT', '8000')}"]
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
accesslog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*")
# gunicorn's most: a longer request line is refused by gunicorn itself, with its own page.
# Shorter ones reach Django, which refuses those over settings.REQUEST_LINE_LIMIT with a
# 414 of its own: in the API's JSON error shape under /api/ (config/request_line.py).
limit_request_line = 8190


def is_public(host: str) -> bool:
    """True for every address (0.0.0.0, ::) and for a globally routable one; False for
    loopback, private networks (a container's on its compose network), link-local."""
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return True  # a name: whatever it resolves to, it is not known to be private
    return address.is_unspecified or address.is_global


def public_listeners(sockets: Iterable[socket.socket]) -> list[str]:
    """The host:port of each listening socket on a public address (unix sockets never)."""
    found = []
    for sock in sockets:
        if sock.family not in (socket.AF_INET, socket.AF_INET6):
            continue
        host, port = sock.getsockname()[:2]
        if is_public(host):
            found.append(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    return found


def listening_warning(sockets: Iterable[socket.socket], num_proxies: int) -> str | None:
    """The start-up warning for these sockets and NUM_PROXIES, or None."""
    public = public_listeners(sockets)
    if num_proxies <= 0 or not public:
        return None
    return (
        f"gunicorn listens on {', '.join(public)}, a public address, while NUM_PROXIES="
        f"{num_proxies} takes the client's address from X-Forwarded-For: a client reaching "
        "gunicorn directly, not through the proxy, picks its own address there and escapes "
        "the per-address limits. Listen only where the proxy reaches (BIND=127.0.0.1:8000, "
        "or an address on an internal network), or firewall the port."
    )


def cache_warning(processes: int, redis_url: str) -> str | None:
    """The start-up warning for several worker processes without a shared cache, or None.

    Without REDIS_URL the cache is each process's own memory (config/settings.py). The
    live versions (games/core/live.py) are then each process's own: a deal stored by one
    process drops that process's version only, and a poll answered by another is told
    nothing changed. Measured with 2 processes (bench/phone_saves.py, 2026-11-29): the
    other phone showed a saved deal 3.5 and 7.5 s late instead of about 1 s."""
    if processes <= 1 or redis_url:
        return None
    return (
        f"gunicorn starts {processes} worker processes without REDIS_URL: each keeps its own "
        "cache, so a table's or an evening's poll answered by another process than the one "
        "that stored a deal can be told nothing changed (304) for up to 10 minutes, and the "
        "login limits and API throttles count per process. Set REDIS_URL (a shared cache), "
        "or run one process (WEB_CONCURRENCY=1)."
    )


def when_ready(server: Any) -> None:
    """gunicorn's hook once it listens: the warnings above, in gunicorn's log."""
    warnings = [
        listening_warning(
            (listener.sock for listener in server.LISTENERS),
            int(os.environ.get("NUM_PROXIES", "0") or 0),
        ),
        cache_warning(server.cfg.workers, os.environ.get("REDIS_URL", "")),
    ]
    for warning in warnings:
        if warning:
            server.log.warning(warning)
