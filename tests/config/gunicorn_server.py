"""gunicorn started as the web container starts it (config/gunicorn_conf.py), in a process
of its own on a free local port, its log collected."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

from django.conf import settings

# What the test process runs on, never given to the server: it runs on the embedded
# default (SQLite, no Redis).
DROPPED = {"DATABASE_URL", "REDIS_URL", "NUM_PROXIES", "BIND", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Gunicorn:
    def __init__(self, bind: str, **env: str) -> None:
        environment = {k: v for k, v in os.environ.items() if k not in DROPPED}
        environment.update(
            DJANGO_SETTINGS_MODULE="config.settings", WEB_CONCURRENCY="1", BIND=bind, **env
        )
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn_conf.py", "config.wsgi"],
            cwd=settings.BASE_DIR,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def wait_until_booted(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while "Booting worker" not in self.log:
            assert self.process.poll() is None, self.log
            assert time.monotonic() < deadline, self.log
            time.sleep(0.05)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return self.log
