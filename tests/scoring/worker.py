"""A real Celery worker for the standings tests: its process, the test database's URL it
connects to, and the stored standing rows compared with a rebuild from scratch."""

from __future__ import annotations

import os
import sys
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from scoring import rebuild
from scoring.models import EventStanding
from tests.logged_process import LoggedProcess


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


class Worker(LoggedProcess):
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
        super().__init__(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker"),
                *(f"--pool={pool}", "--concurrency=1", "-Q", queue, "--loglevel=INFO"),
                *("--without-gossip", "--without-mingle", "--without-heartbeat"),
                # Beat inside the worker (tests only: production runs one beat apart).
                *(("-B", "-s", beat) if beat else ()),
            ],
            env,
        )
