"""Standings tests: tasks run in-process with a cache of the test's own (live versions, the
standings queue's marks)."""

import os
import uuid
from decimal import Decimal

import pytest
from django.conf import settings

from games.barbu.game_creation import game_create
from games.models import Game, GameScore
from tests.factories import make_club, make_event, make_league, make_player, make_table
from tests.scoring.evenings import EVENINGS, place_of


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On SQLite, a test database file of our own: several engineers run tests in this
    tree at once, and two runs sharing test_db.sqlite3 break each other."""

    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3") and not os.environ.get("PYTEST_XDIST_WORKER"):
        db.setdefault("TEST", {})["NAME"] = str(settings.BASE_DIR / "test_db_standings.sqlite3")


@pytest.fixture(autouse=True)
def _own_cache_and_eager_tasks(request):
    """Outside the real-worker test: tasks run in-process with a cache of the test's own
    (tests/conftest.py's eager_tasks)."""
    if "worker" not in request.keywords:
        request.getfixturevalue("eager_tasks")


@pytest.fixture
def league_games():
    """Two league evenings of five complete games each; players change seats and tables."""
    club = make_club()
    league = make_league(club)
    people = [make_player(club, f"P{i}") for i in range(6)]
    games: list[tuple[int, list[int], list[float]]] = []  # (event, players, totals)
    for e, evening in enumerate(EVENINGS):
        event = make_event(club, league=league, name=f"Evening {e}")
        for g, totals in enumerate(evening):
            order = people if e == 0 else people[::-1]
            seated = [order[(g + k) % len(order)] for k in range(4)]
            game = game_create(table=make_table(event, seated, round_number=g + 1))
            Game.objects.filter(pk=game.pk).update(status=Game.Status.COMPLETE, deals_count=28)
            for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
                GameScore.objects.create(
                    game=game,
                    player=player,
                    seat=seat,
                    total=Decimal(str(total)),
                    place=place_of(totals, total),
                    above=sum(1 for t in totals if t > total),
                    deals=28,
                )
            games.append((event.pk, [p.pk for p in seated], totals))
    return league, games


@pytest.fixture
def settings_override(settings):
    """A queue and a cache key prefix of this test's own (other runs share the Redis)."""
    token = uuid.uuid4().hex[:10]
    queue, prefix = f"standings-test-{token}", f"standings-test-{token}"
    settings.STANDINGS_QUEUE = queue
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": settings.REDIS_URL,
            "KEY_PREFIX": prefix,
        }
    }
    yield queue, prefix
