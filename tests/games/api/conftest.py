"""A small world for the API tests: two clubs, their organisers, a member, tables and keys."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.games.api.world import World, build_world


@pytest.fixture(autouse=True)
def _api_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.ROOT_URLCONF = "tests.games.api.urls"


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # Throttle counters live in the cache, which outlives a test's database.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db) -> World:
    return build_world()
