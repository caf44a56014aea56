"""A real worker killed with SIGKILL while it holds an evening's standings task, in the
middle of a burst of deals: once a worker is back, and without any new deal, the stored
standings equal a rebuild from scratch within the bound."""

from __future__ import annotations

import os
import random
import signal
import time

import pytest

from games.barbu.submission import deal_submit
from scoring import healing
from scoring.engine.barbu.randomgame import random_game
from tests.factories import make_club, make_event, make_player
from tests.scoring.evenings import seat
from tests.scoring.worker import Worker, rows_from_scratch, stored_rows

HEAL_BOUND = 30  # seconds from the worker's restart


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_standings_heal_after_a_worker_is_killed_mid_burst(settings_override, settings):
    queue, prefix = settings_override
    # Long enough to kill the worker while it holds the task, waiting out its countdown.
    settings.STANDINGS_COUNTDOWNS = {"event": 3.0, "league": 3.0, "ratings": 3.0}
    club = make_club("Killed", slug=f"killed-{prefix[-6:]}")
    event = make_event(club, status="running")
    people = [make_player(club, f"K{i}") for i in range(4)]
    game = seat(event, people)
    deals = random_game(random.Random(7), game.ruleset, players=list(game.player_names))["deals"]

    worker = Worker(queue, prefix)
    restarted = None
    try:
        worker.wait_for("ready.")
        for deal in deals[:4]:
            deal_submit(game_id=game.pk, deal=deal, by_label="burst")
        worker.wait_for("Task scoring.event_standings", count=2)  # received, succeeded
        worker.wait_for("succeeded")
        built_from_four = stored_rows(event.pk)
        assert len(built_from_four) == 4

        deal_submit(game_id=game.pk, deal=deals[4], by_label="burst")  # queues a task...
        worker.wait_for("Task scoring.event_standings", count=3)  # ...the worker holds
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.wait(timeout=30)
        for deal in deals[5:20]:  # the rest of the burst, the worker dead
            deal_submit(game_id=game.pk, deal=deal, by_label="burst")
        time.sleep(3)
        assert stored_rows(event.pk) == built_from_four  # nothing rebuilt them: behind
        assert healing.behind() == [("event", event.pk)]

        restarted = Worker(queue, prefix)  # no new deal from here on
        started = time.monotonic()
        while healing.behind() and time.monotonic() - started < HEAL_BOUND:
            time.sleep(0.2)
        healed_after = time.monotonic() - started
        time.sleep(0.5)  # a rebuild that recorded its source has committed its rows
        stored = stored_rows(event.pk)
    finally:
        output = worker.stop()
        if restarted is not None:
            output += "\n--- restarted ---\n" + restarted.stop()

    assert healed_after < HEAL_BOUND, output[-3000:]
    print(f"standings healed {healed_after:.1f} s after the worker's restart")
    assert stored != built_from_four
    assert stored == rows_from_scratch(event.pk), output[-3000:]
