"""Standings tests: tasks run in-process with a cache of the test's own (live versions, the
standings queue's marks)."""

import os

import pytest


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a test database file of our own: several engineers run tests in this
    tree at once, and two runs sharing test_db.sqlite3 break each other."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3") and not os.environ.get("PYTEST_XDIST_WORKER"):
        db.setdefault("TEST", {})["NAME"] = str(settings.BASE_DIR / "test_db_standings.sqlite3")


@pytest.fixture(autouse=True)
def _own_cache_and_eager_tasks(request):
    """Outside the real-worker test: tasks run in-process with a cache of the test's own
    (tests/conftest.py's eager_tasks)."""
    if "worker" not in request.keywords:
        request.getfixturevalue("eager_tasks")
