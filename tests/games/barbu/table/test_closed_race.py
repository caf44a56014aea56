"""On PostgreSQL, closing a round waits for a deal being stored at one of its tables."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection, transaction

from games.barbu.submission import deal_submit
from games.core import closing
from games.core.errors import EveningClosed
from games.models import Deal, Game, Round
from scoring.engine.barbu.randomgame import random_game
from tests.factories import NAMES, make_club, make_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_closing_waits_for_a_deal_in_flight_then_refuses_the_next():
    game = make_game(make_club(language="en"))
    deals = random_game(random.Random(3), "italian7", players=list(NAMES))["deals"]
    deal_submit(game_id=game.pk, deal=deals[0])
    rnd = Round.objects.get(tables__game=game)
    locked, release, closed = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def table_storing_a_deal() -> None:
        # deal_submit's first step: the game's row locked until its transaction ends.
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(timeout=30)
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    def organiser_closing() -> None:
        try:
            locked.wait(timeout=30)
            closing.round_close(rnd=rnd, force=True)
            closed.set()
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    table = threading.Thread(target=table_storing_a_deal)
    organiser = threading.Thread(target=organiser_closing)
    table.start()
    organiser.start()
    assert locked.wait(timeout=30)
    time.sleep(0.5)
    assert not closed.is_set(), "the round closed under a table's write"
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.OPEN
    release.set()
    table.join(timeout=30)
    organiser.join(timeout=30)
    assert not failures, failures
    assert closed.is_set()
    with pytest.raises(EveningClosed):
        deal_submit(game_id=game.pk, deal=deals[1])
    assert Deal.objects.filter(game=game).count() == 1
