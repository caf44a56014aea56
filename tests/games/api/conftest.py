"""The API tests' world: two clubs, their organisers, a member, tables and keys (world), and
one game of each kind with who may write to it (side, once per game)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.games.api.world import GAMES, Side, World, barbu_side, build_world, burraco_side


@pytest.fixture(autouse=True)
def _api_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_throttles():
    # Throttle counters live in the cache, which outlives a test's database.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def world(db) -> World:
    return build_world()


@pytest.fixture(params=GAMES)
def side(request, db) -> Side:
    """Each test taking `side` runs once per game."""
    return barbu_side() if request.param == "barbu" else burraco_side()
