"""`GET /api/v1/leagues/<id>/standings/` of a league of free-match evenings: its season
(pairs over the closed evenings: matches won and lost, the point difference), as the page
and the CSV rank it; described in the schema; cached until an evening of the league is
rebuilt; the same number of queries for one evening as for four."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import GameChoice
from games.core import closing
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_league
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    free_matches_evening_with_same_players,
    play_match,
    start,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _url(league) -> str:
    return f"/api/v1/leagues/{league.pk}/standings/"


def _season():
    club = burraco_club()
    league = make_league(club, "Stagione libera", game=GameChoice.BURRACO)
    first = free_evening(4, club=club, league=league, name="Lunedì")
    play_match(start(first, 1, 1, 2), MATCH_TO_2005)  # pair 1 +785
    play_match(start(first, 2, 3, 4), [(2010, 1500)])  # pair 3 +510
    play_match(start(first, 1, 3, 1), [(1200, 2100)])  # pair 1 +900
    closing.event_close(event=first, unfinished="exclude")
    rebuild_event_standings(event_id=first.pk)
    return league, first


def test_the_league_api_answers_the_season_of_free_matches(
    django_capture_on_commit_callbacks,
) -> None:
    cache.clear()
    league, first = _season()
    answer = Client().get(_url(league))
    assert answer.status_code == 200
    body = answer.json()
    assert {k: body[k] for k in ("league", "game", "format", "evenings", "count")} == {
        "league": league.pk,
        "game": "burraco",
        "format": "free",
        "evenings": 1,
        "count": 4,
    }
    top = body["results"][0]
    one = first.pairs.get(number=1)
    assert top == {
        "place": 1,
        "player_ids": sorted([one.player_a_id, one.player_b_id]),
        "players": ["Player 1a", "Player 1b"],
        "evenings": 1,
        "played": 2,
        "won": 2,
        "lost": 0,
        "difference": 1685,
    }
    assert [(r["place"], r["won"], r["lost"], r["difference"]) for r in body["results"]] == [
        (1, 2, 0, 1685),
        (2, 1, 1, -390),
        (3, 0, 1, -510),
        (4, 0, 1, -785),
    ]

    # A second evening (the same players under other numbers, a match left unfinished):
    # its rebuild forgets the cached season, and the answer adds it up, as the CSV does.
    second = free_matches_evening_with_same_players(first, league)
    play_match(start(second, 1, 1, 2), [(0, 2005)])  # first's pair 1 +2005
    start(second, 2, 3, 4)
    assert Client().get(_url(league)).json()["evenings"] == 1  # still the cached season
    with django_capture_on_commit_callbacks(execute=True):
        closing.event_close(event=second, unfinished="exclude")
        rebuild_event_standings(event_id=second.pk)
    body = Client().get(_url(league)).json()
    assert body["evenings"] == 2
    assert [
        (r["players"], r["won"], r["lost"], r["difference"], r["evenings"])
        for r in body["results"][:2]
    ] == [
        (["Player 1a", "Player 1b"], 3, 0, 3690, 2),
        (["Player 3a", "Player 3b"], 1, 1, -390, 2),
    ]
    # Paged as every list of the API.
    paged = Client().get(_url(league), {"page_size": 1}).json()
    assert paged["count"] == 4 and len(paged["results"]) == 1 and paged["next"]


def test_the_season_api_reads_in_constant_queries() -> None:
    club = burraco_club()
    counts = []
    for evenings, pairs in ((1, 2), (4, 12)):
        league = make_league(club, f"Season {evenings}", game=GameChoice.BURRACO)
        for index in range(evenings):
            event = free_evening(pairs, club=club, league=league, names=f"S{evenings}-{index}")
            for table in range(1, pairs // 2 + 1):
                play_match(start(event, table, 2 * table - 1, 2 * table), MATCH_TO_2005)
            closing.event_close(event=event, unfinished="exclude")
            rebuild_event_standings(event_id=event.pk)
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            answer = Client().get(_url(league))
        assert answer.json()["count"] == pairs * evenings
        counts.append(len(cold))
    assert counts[0] == counts[1]


def test_the_schema_describes_the_season_answer() -> None:
    schema = Client().get("/api/schema/?format=json").json()
    page = schema["components"]["schemas"]["FreeMatchSeasonPage"]
    assert {"league", "game", "format", "evenings", "results"} <= set(page["properties"])
    place = schema["components"]["schemas"]["FreeSeasonPlace"]
    assert {"place", "players", "player_ids", "won", "lost", "difference"} <= set(
        place["properties"]
    )
    operation = schema["paths"]["/api/v1/leagues/{id}/standings/"]["get"]
    content = operation["responses"]["200"]["content"]["application/json"]
    shown = [e["value"] for e in content["examples"].values()]
    assert [v["format"] for v in shown] == ["free"]
    assert set(shown[0]["results"][0]) == set(place["properties"])
