"""bench/bench_live.py reads the live part as the site renders it, and counts its pairs.
(The benchmark itself is run by hand, never as a test.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.barbu.submission import deal_submit
from games.models import Event
from scoring import rebuild
from tests.bench.modules import bench_module
from tests.factories import make_club, make_event, make_game

pytestmark = pytest.mark.django_db


def bench_live():
    return bench_module("bench_live")


def test_the_live_part_is_read_as_the_site_renders_it(client, eager_tasks):
    module = bench_live()
    club = make_club("Bench", language="en")
    event = make_event(club, status=Event.Status.RUNNING)
    first = make_game(club, event=event)
    make_game(club, event=event, names=("Elena", "Fabio", "Gina", "Ivo"))
    deal = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}
    answer = deal_submit(game_id=first.pk, deal=deal, by_label="test").body
    rebuild.rebuild_event_standings(event_id=event.pk)
    body = client.get(reverse("scoring:event-live", args=[event.pk])).content.decode()

    state = module.parse_live(body)
    assert state.progress == (1, 0)
    assert module.shows_progress(state, 0, 1) and not module.shows_progress(state, 1, 1)
    assert set(state.points) == {"Anna", "Bruno", "Carla", "Dario"}  # who has played
    assert module.shows_standings(state, answer["totals"])
    assert not module.shows_standings(state, {**answer["totals"], "Dario": 0})


def test_percentiles_of_the_pairs():
    module = bench_live()
    figures = module.percentiles([0.1 * k for k in range(1, 21)])
    assert figures["n"] == 20 and figures["max"] == pytest.approx(2.0)
    assert figures["p50"] == pytest.approx(1.1) and figures["p95"] == pytest.approx(2.0)
    assert module.percentiles([])["n"] == 0


def test_both_designs_are_measured_and_the_new_one_is_conditional():
    module = bench_live()
    assert module.DESIGNS["new"] == (1.0, 1.0, True)
    assert module.DESIGNS["previous"][2] is False
