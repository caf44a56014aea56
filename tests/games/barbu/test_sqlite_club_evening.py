"""The embedded default holds a club evening: twenty tables writing to SQLite at once."""

from __future__ import annotations

import random
import threading

import pytest
from django.conf import settings
from django.db import OperationalError, connection, connections

from games.barbu.game_creation import game_create
from games.barbu.submission import deal_submit
from games.models import Deal, DealRevision, DealScore, Game
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_club, make_event, make_player, make_table

TABLES = 20
DEALS_EACH = 5


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3",
    reason="SQLite's locking is what this tests; PostgreSQL locks rows instead",
)
@pytest.mark.django_db(transaction=True)
def test_twenty_tables_submitting_at_once_never_see_database_is_locked():
    # The settings that make this hold; without them a share of the writes fails.
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"

    club = make_club()
    event = make_event(club)
    games = []
    for number in range(1, TABLES + 1):
        players = [make_player(club, f"P{number}-{seat}") for seat in range(4)]
        games.append(game_create(table=make_table(event, players, number=number)))
    records = {
        game.pk: random_game(random.Random(game.pk), "italian7", players=game.player_names)
        for game in games
    }

    start = threading.Barrier(TABLES)
    errors: list[BaseException] = []

    def table(game_id: int) -> None:
        try:
            start.wait(timeout=30)
            for deal in records[game_id]["deals"][:DEALS_EACH]:
                deal_submit(game_id=game_id, deal=deal, by_label=f"table of game {game_id}")
        except BaseException as error:  # every failure is reported, not just the first
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=table, args=(game.pk,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert not any(thread.is_alive() for thread in threads)
    assert not [e for e in errors if isinstance(e, OperationalError)], errors
    assert errors == []
    assert Deal.objects.count() == TABLES * DEALS_EACH
    assert DealScore.objects.count() == TABLES * DEALS_EACH * 4
    assert DealRevision.objects.count() == TABLES * DEALS_EACH
    for game in Game.objects.all():
        assert game.deals_count == DEALS_EACH
        assert list(game.deals.values_list("number", flat=True).order_by("number")) == list(
            range(1, DEALS_EACH + 1)
        )
