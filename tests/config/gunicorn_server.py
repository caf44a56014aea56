"""gunicorn started as the web container starts it (config/gunicorn_conf.py), in a process
of its own on a free local port, its log collected."""

from __future__ import annotations

import os
import socket
import sys

from tests.logged_process import LoggedProcess

# What the test process runs on, never given to the server: it runs on the embedded
# default (SQLite, no Redis).
DROPPED = {"DATABASE_URL", "REDIS_URL", "NUM_PROXIES", "BIND", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Gunicorn(LoggedProcess):
    def __init__(self, bind: str, **env: str) -> None:
        environment = {k: v for k, v in os.environ.items() if k not in DROPPED}
        environment.update(
            DJANGO_SETTINGS_MODULE="config.settings", WEB_CONCURRENCY="1", BIND=bind, **env
        )
        super().__init__(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn_conf.py", "config.wsgi"],
            environment,
        )

    def wait_until_booted(self, timeout: float = 60) -> None:
        self.wait_for("Booting worker", timeout=timeout)
