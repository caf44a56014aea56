"""Celery: reliable delivery settings, eager without Redis, and a real worker on Redis."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from config.celery import app
from config.health import ping_db
from config.maintenance import clear_sessions
from tests.scoring.worker import database_url_of_tests

SHOW_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
from config.celery import app
print(json.dumps({
    "eager": app.conf.task_always_eager,
    "broker": app.conf.broker_url,
    "backend": app.conf.result_backend,
    "cache": settings.CACHES["default"]["BACKEND"],
    "cache_location": settings.CACHES["default"].get("LOCATION"),
}))
"""


def settings_with(**env: str) -> dict:
    """The Celery and cache settings a fresh process gets from this environment."""
    full = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    full.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    out = subprocess.run(
        [sys.executable, "-c", SHOW_SETTINGS],
        cwd=settings.BASE_DIR,
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_tasks_are_delivered_reliably_and_only_as_json():
    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_serializer == "json"
    assert conf.result_serializer == "json"
    assert list(conf.accept_content) == ["json"]
    # Longer than the hard time limit: Redis does not hand a running task to a second worker.
    assert conf.broker_transport_options["visibility_timeout"] > conf.task_time_limit


def test_without_redis_tasks_run_eagerly_with_a_local_memory_cache():
    seen = settings_with()
    assert seen["eager"] is True
    assert seen["broker"].startswith("memory://")
    assert seen["cache"] == "django.core.cache.backends.locmem.LocMemCache"


def test_with_redis_it_is_broker_result_store_and_cache():
    url = "redis://redis.example.org:6379/2"
    seen = settings_with(REDIS_URL=url)
    assert seen["eager"] is False
    assert seen["broker"] == url
    assert seen["backend"] == url
    assert seen["cache"] == "clubs.cache.RedisCache"  # Django's, one client per process
    assert seen["cache_location"] == url


def test_the_beat_schedule_names_registered_tasks():
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks


def _sessions() -> tuple[str, str]:
    """An expired and a live session; returns their keys."""
    now = timezone.now()
    old = Session.objects.create(
        session_key=uuid.uuid4().hex, session_data="", expire_date=now - datetime.timedelta(days=1)
    )
    live = Session.objects.create(
        session_key=uuid.uuid4().hex, session_data="", expire_date=now + datetime.timedelta(days=1)
    )
    return old.session_key, live.session_key


@pytest.mark.django_db
def test_clear_sessions_deletes_only_expired_sessions():
    old, live = _sessions()
    assert clear_sessions() == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live]
    assert old != live


@pytest.mark.django_db
def test_ping_db_reports_the_database_and_leaves_a_heartbeat():
    report = ping_db.apply(args=["eager-1"]).get()  # in this process, broker or not
    assert report["select_one"] == 1
    assert report["vendor"] == connection.vendor
    assert report["database"] == str(connection.settings_dict["NAME"])
    assert cache.get("health:eager-1") == report


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_tasks_from_redis_against_the_test_database():
    """`celery -A config worker` in its own process: tasks go through Redis, effects land in
    PostgreSQL (an expired session deleted) and in the Redis cache (the heartbeat)."""
    assert connection.vendor == "postgresql"
    old, live = _sessions()  # committed: transactional_db, so the worker sees them
    queue = f"tavolo-test-{uuid.uuid4().hex[:12]}"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url_of_tests(),
        REDIS_URL=settings.REDIS_URL,
        CONN_MAX_AGE="0",
    )
    worker = subprocess.Popen(
        [
            *(sys.executable, "-m", "celery", "-A", "config", "worker"),
            *("--pool=solo", "--concurrency=1", "-Q", queue, "--loglevel=INFO"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    marker = f"worker-{uuid.uuid4().hex[:8]}"
    try:
        deleted = clear_sessions.apply_async(queue=queue).get(timeout=60)
        report = ping_db.apply_async(args=[marker], queue=queue).get(timeout=60)
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate(timeout=30)
    assert deleted == 1, output
    assert list(Session.objects.values_list("session_key", flat=True)) == [live]
    assert old != live
    assert report["vendor"] == "postgresql"
    assert report["database"] == connection.settings_dict["NAME"]
    assert report["sessions"] == 1
    assert cache.get(f"health:{marker}") == report
    assert "ready" in output
