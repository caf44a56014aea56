"""`GET /api/v1/events/<id>/standings/` of a Burraco tournament: the pair ranking (not
Barbu's player standings), cached per version of the rows and forgotten with them, in a
fixed number of queries whatever the number of pairs."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.burraco import scorecards, tournaments
from games.burraco.results import ranking_so_far
from scoring.rebuild import rebuild_event_standings
from tests.games.burraco.builders import play_table, play_turn, tournament

pytestmark = pytest.mark.django_db


def _url(event) -> str:
    return f"/api/v1/events/{event.pk}/standings/"


def played_individual(pairs: int, club=None):
    event = tournament(pairs, club=club)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    # Tables 1 and 2 won by NS by 600 and 630 MP, the same VP: the MP difference decides.
    play_turn(rnd, {1: [(300, 100)] * 3, 2: [(310, 100)] * 3})
    rebuild_event_standings(event_id=event.pk)
    return event, rnd


def test_a_tournament_answers_its_pair_ranking(eager_tasks) -> None:
    event, rnd = played_individual(5)
    bye = rnd.pair_results.get(bye=True).pair
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=bye.pk, vp=Decimal(1), mp=50, reason="late", by_user=None
    )
    rebuild_event_standings(event_id=event.pk)
    client = APIClient()
    answer = client.get(_url(event))
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["game"] == "burraco" and body["event"] == event.pk
    assert body["tie_breaks"] == ["mp_difference", "head_to_head"]
    assert body["count"] == 5
    engine = ranking_so_far(event)
    rows = body["results"]
    assert [(r["place"], r["pair"], Decimal(str(r["vp"])), r["mp_difference"]) for r in rows] == [
        (e.place, e.pair, e.vp, e.mp_difference) for e in engine
    ]
    # The VP decide most places: only the tie-breaks are named.
    tiebreaks = [e.decided_by if e.decided_by != "vp" else None for e in engine]
    assert [r["tiebreak"] for r in rows] == [t or "" for t in tiebreaks]
    penalised = next(r for r in rows if r["pair"] == bye.number)
    assert penalised["penalty"] == {"vp": 1, "mp": 50}
    assert penalised["players"] == [bye.player_a.name, bye.player_b.name]
    assert penalised["byes"] == 1 and penalised["vp"] == 13
    decided = [r for r in rows if r["tiebreak"] == "mp_difference"]
    assert decided and decided[0]["tiebreak_label"] == "MP difference"
    # The stored row's own keys stay inside; a pair has no player id of its own.
    assert "rank" not in rows[0] and rows[0]["player_id"] is None


def test_the_answer_follows_a_confirmed_card(
    eager_tasks, django_capture_on_commit_callbacks
) -> None:
    event, _rnd = played_individual(5)
    client = APIClient()
    first_answer = client.get(_url(event))
    first = first_answer.content
    assert client.get(_url(event), HTTP_IF_NONE_MATCH=first_answer["ETag"]).status_code == 304
    # The next turn: a confirmed card queues the rebuild, whose rows change the answer.
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    table = second.tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        play_table(table.game, [(900, 0)] * 3)
    after = client.get(_url(event), HTTP_IF_NONE_MATCH=first_answer["ETag"])
    assert after.status_code == 200 and after.content != first
    row = next(r for r in after.json()["results"] if r["pair"] == table.ns_pair.number)
    assert row["turns"] == 2 and row["place"] == 1


def test_queries_do_not_grow_with_the_pairs() -> None:
    counts = []
    club = None
    for pairs in (5, 21):
        event, _rnd = played_individual(pairs, club)
        club = event.club
        cache.clear()
        with CaptureQueriesContext(connection) as queries:
            answer = APIClient().get(_url(event) + "?page_size=100")
        assert answer.status_code == 200 and answer.json()["count"] == pairs
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
