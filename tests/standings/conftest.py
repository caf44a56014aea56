"""Standings tests: each starts with an empty cache (standings are cached by event id)."""

import os
import uuid

import pytest
from django.core.cache import cache


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a test database file of our own: several engineers run tests in this
    tree at once, and two runs sharing test_db.sqlite3 break each other."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3") and not os.environ.get("PYTEST_XDIST_WORKER"):
        db.setdefault("TEST", {})["NAME"] = str(settings.BASE_DIR / "test_db_standings.sqlite3")


@pytest.fixture(autouse=True)
def _own_cache_and_eager_tasks(request, settings, monkeypatch):
    """Outside the real-worker test: a local cache of this test's own (never clear() a
    shared Redis: it would flush other runs' keys and queues) and tasks run in-process."""
    if "worker" in request.keywords:
        yield
        return
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"standings-{uuid.uuid4().hex}",
        }
    }
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setitem(app.conf, "task_eager_propagates", True)
    yield
    cache.clear()
