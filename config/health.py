"""A Celery health check: a worker proves it reaches the database and the cache."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection


# Its result is what the caller asked for (CELERY_TASK_IGNORE_RESULT is on).
@shared_task(name="health.ping_db", ignore_result=False)
def ping_db(marker: str) -> dict[str, Any]:
    """Read the database, leave a heartbeat in the cache, and report what this worker sees.

    A health check must not change club data, so its only write is the cache entry
    `health:<marker>` (one minute). The caller compares `database` with its own to know
    the worker is connected to the same database.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    report = {
        "marker": marker,
        "vendor": connection.vendor,
        "database": str(connection.settings_dict["NAME"]),
        "select_one": one,
        "sessions": Session.objects.count(),
    }
    cache.set(f"health:{marker}", report, timeout=60)
    return report
