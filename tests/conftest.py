"""Shared fixtures: the database-backed builders live in tests/factories.py."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from clubs.models import Membership
from tests.factories import make_club, make_event, make_organiser, make_player


def pytest_configure(config):
    """What a run shares with other runs and with its own xdist workers, made its own.

    - The Redis cache (REDIS_URL, as in CI): a key prefix of this process's own (the xdist
      worker's id and the pid), so that two workers' throttle counters, live versions and
      standings marks never meet, nor another run's on the same Redis; and `cache.clear()`
      deletes this prefix's keys only, where Django's would FLUSHDB the shared database
      (the Celery broker's queues and every other run's keys with it).
    - Passwords hashed with MD5: the default hasher costs a quarter second a login, and
      the demo data and the factories make and check many.
    """
    from django.conf import settings

    if not settings.configured:
        return
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    # The prefix the run was given (xdist workers inherit the controller's environment,
    # where CACHE_KEY_PREFIX is already the controller's own).
    base = os.environ.setdefault(
        "TAVOLO_TEST_BASE_KEY_PREFIX", os.environ.get("CACHE_KEY_PREFIX", "tavolo")
    )
    prefix = f"{base}-test-{worker}-{os.getpid()}"
    os.environ["CACHE_KEY_PREFIX"] = prefix
    default = settings.CACHES["default"]
    if default["BACKEND"].endswith("RedisCache"):
        default["KEY_PREFIX"] = prefix
        _clear_only_own_keys()


def _clear_only_own_keys() -> None:
    from django.core.cache.backends.redis import RedisCache

    def clear(self) -> None:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])

    RedisCache.clear = clear


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """The .mo files compiled once, before any xdist worker starts (`make test` has done it
    already: then nothing is written). Workers compiling at once would write a file while
    another reads it; they only forget Django's cache of them (the directories' own
    `compiled_catalogues` fixtures)."""
    from django.conf import settings

    if hasattr(session.config, "workerinput") or not settings.configured:
        return
    from django.core.management import call_command

    call_command("compile_catalogues", verbosity=0)


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


# --- A club with its organiser, members and an evening (the organiser's pages, the services) ---

NINE = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Giulia", "Marco", "Nora")


@pytest.fixture
def club(db):
    return make_club("Circolo Barbu")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def member_user(club):
    user = get_user_model().objects.create_user(username="member", password="x")
    make_player(club, "Member", role=Membership.Role.MEMBER, user=user)
    return user


@pytest.fixture
def other_organiser(db):
    other = make_club("Other club")
    return make_organiser(other, username="elsewhere")


@pytest.fixture
def nine(club):
    return [make_player(club, name) for name in NINE]


@pytest.fixture
def event(club):
    return make_event(club)
