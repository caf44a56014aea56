"""Shared fixtures: the database-backed builders live in tests/factories.py."""

from __future__ import annotations

import os

import pytest
from django.db import connection


def pytest_collection_modifyitems(config, items):
    """Skip what this machine cannot run, saying why (CI has all of it)."""
    chromium = os.path.exists(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    redis = bool(os.environ.get("REDIS_URL"))
    postgres = "postgres" in os.environ.get("DATABASE_URL", "")
    for item in items:
        if "browser" in item.keywords and not chromium:
            item.add_marker(pytest.mark.skip(reason="no Chromium at /usr/bin/chromium"))
        if "worker" in item.keywords and not (redis and postgres):
            item.add_marker(pytest.mark.skip(reason="needs REDIS_URL and PostgreSQL"))
        if "postgres" in item.keywords and not postgres:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (DATABASE_URL)"))
        if "redis" in item.keywords and not redis:
            item.add_marker(pytest.mark.skip(reason="needs Redis (REDIS_URL)"))


@pytest.fixture
def on_postgres() -> bool:
    return connection.vendor == "postgresql"


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language, whatever an earlier test's request activated.

    A view that switches to a club's language leaves it active in the thread; Django's
    LocaleMiddleware resets it on the next request, but a test's own reverse() does not.
    """
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _standings_queue_memo():
    """Each test starts without the standings queue's process-local memo (scoring/tasks.py)."""
    from scoring import tasks

    tasks._sent_until.clear()
    yield
    tasks._sent_until.clear()


@pytest.fixture(autouse=True)
def _empty_local_cache():
    """Each test starts with an empty local-memory cache (the embedded default's).

    It lives as long as the process, and SQLite hands a rolled-back test's ids out again:
    an earlier test's cached standings could answer for this test's event of the same id.
    (Redis is left alone: in CI it is also the Celery broker of a running worker, and
    PostgreSQL does not reuse ids.)
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cache = caches["default"]
    if isinstance(cache, LocMemCache):
        cache.clear()


@pytest.fixture
def eager_tasks(settings, monkeypatch):
    """Celery tasks run in-process, with a local cache of this test's own, also where
    REDIS_URL is set (CI): a test that reads the standings after a deal needs them built,
    and must never clear() a shared Redis (it also holds other runs' keys and queues)."""
    import uuid

    from django.core.cache import cache

    from config.celery import app

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"eager-{uuid.uuid4().hex}",
        }
    }
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)
    yield
    cache.clear()
