"""A real Celery worker for the standings tests: its process, the test database's URL it
connects to, and the stored standing rows compared with a rebuild from scratch."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from scoring import rebuild
from scoring.models import EventStanding


def database_url_of_tests() -> str:
    """The URL of the test database this process uses, for a worker started beside it."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or '5432'}/{db['NAME']}"


def stored_rows(event_id: int) -> list[tuple]:
    return list(
        EventStanding.objects.filter(event_id=event_id)
        .order_by("rank", "player_id")
        .values_list("player_id", "rank", "points", "games", "tiebreak_note")
    )


def rows_from_scratch(event_id: int) -> list[tuple]:
    rebuild.rebuild_event_standings(event_id=event_id)
    return stored_rows(event_id)


class Worker:
    """`celery -A config worker` in its own process, its log lines collected."""

    def __init__(
        self,
        queue: str,
        prefix: str,
        *,
        pool: str = "solo",
        beat: str | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=database_url_of_tests(),
            REDIS_URL=settings.REDIS_URL,
            CACHE_KEY_PREFIX=prefix,
            STANDINGS_QUEUE=queue,
            STANDINGS_HEAL_GRACE="2",
            CONN_MAX_AGE="0",
            CELERY_TRACE_LOG_LEVEL="INFO",
            **(extra_env or {}),
        )
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker"),
                *(f"--pool={pool}", "--concurrency=1", "-Q", queue, "--loglevel=INFO"),
                *("--without-gossip", "--without-mingle", "--without-heartbeat"),
                # Beat inside the worker (tests only: production runs one beat apart).
                *(("-B", "-s", beat) if beat else ()),
            ],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)

    def wait_for(self, text: str, count: int = 1, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while sum(text in line for line in self.lines) < count:
            assert time.monotonic() < deadline, f"no {text!r}: {''.join(self.lines)[-3000:]}"
            assert self.process.poll() is None, "".join(self.lines)[-3000:]
            time.sleep(0.05)

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return "".join(self.lines)
