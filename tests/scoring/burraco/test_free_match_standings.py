"""Standings of free matches on hand-made cases: an evening (matches won, lost, the point
difference; only finished matches count), a season of evenings (league page and CSV), the
player page; built by the tournaments' rebuild, read in constant queries."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import GameChoice
from games.core import closing
from scoring.engine.burraco.free_match_ranking import (
    EveningLine,
    MatchResult,
    rank_evening,
    rank_season,
)
from scoring.models import PairStanding
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_league
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    free_matches_evening_with_same_players,
    pair,
    play_match,
    start,
)


def _rows(rows):
    return [(r.entry, r.place, r.won, r.lost, r.difference, r.playing) for r in rows]


def test_an_evening_ranks_by_matches_won_then_point_difference() -> None:
    results = [
        # A beats B, then C beats A by 20; D beats B.
        MatchResult("A", 2105, 1320),
        MatchResult("B", 1320, 2105),
        MatchResult("C", 2010, 1990),
        MatchResult("A", 1990, 2010),
        MatchResult("D", 2300, 900),
        MatchResult("B", 900, 2300),
        # A match nobody has won yet counts for nothing (playing).
        MatchResult("C", 1500, 700),
        MatchResult("D", 700, 1500),
    ]
    rows = rank_evening(results, 2005, ["A", "B", "C", "D", "E"])
    assert _rows(rows) == [
        ("D", 1, 1, 0, 1400, 1),
        ("A", 2, 1, 1, 765, 0),
        ("C", 3, 1, 0, 20, 1),
        ("E", 4, 0, 0, 0, 0),
        ("B", 5, 0, 2, -2185, 0),
    ]


def test_level_entries_share_the_place_and_a_short_target_finishes_sooner() -> None:
    results = [MatchResult("A", 1100, 1000), MatchResult("B", 1000, 1100)]
    assert _rows(rank_evening(results, 1005, ["A", "B"]))[0] == ("A", 1, 1, 0, 100, 0)
    assert _rows(rank_evening(results, 2005, ["A", "B"])) == [
        ("A", 1, 0, 0, 0, 1),
        ("B", 1, 0, 0, 0, 1),
    ]
    unconfirmed = rank_evening([MatchResult("A", 2100, 0, confirmed=False)], 2005)
    assert unconfirmed[0].unconfirmed == 1


def test_a_season_adds_up_each_entrys_evenings() -> None:
    evenings = [
        [EveningLine("A", 2, 0, 900), EveningLine("B", 0, 2, -900)],
        [EveningLine("A", 0, 1, -100), EveningLine("B", 1, 0, 100), EveningLine("C", 2, 1, 50)],
    ]
    rows = rank_season(evenings)
    assert [(r.entry, r.place, r.won, r.lost, r.difference, r.evenings) for r in rows] == [
        ("A", 1, 2, 1, 800, 2),
        ("C", 2, 2, 1, 50, 1),
        ("B", 3, 1, 2, -800, 2),
    ]


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_tasks")
def test_the_evening_and_season_pages_and_csv_over_two_evenings() -> None:
    club = burraco_club()
    league = make_league(club, "Stagione libera", game=GameChoice.BURRACO)
    first = free_evening(4, club=club, league=league, name="Lunedì")
    play_match(start(first, 1, 1, 2), MATCH_TO_2005)  # pair 1 +785
    play_match(start(first, 2, 3, 4), [(2010, 1500)])  # pair 3 +510
    play_match(start(first, 1, 3, 1), [(1200, 2100)])  # pair 1 +900
    closing.event_close(event=first, unfinished="exclude")
    # The second evening: the same players, other pair numbers; one match left unfinished.
    second = free_matches_evening_with_same_players(first, league)
    play_match(start(second, 1, 1, 2), [(0, 2005)])  # pair 2 (first's pair 1) +2005
    start(second, 2, 3, 4)  # never finished
    closing.event_close(event=second, unfinished="exclude")
    for event in (first, second):
        rebuild_event_standings(event_id=event.pk)

    stored = PairStanding.objects.filter(event=first).order_by("rank")
    assert [(s.pair.number, s.rank, s.won, s.lost, s.mp_difference) for s in stored] == [
        (1, 1, 2, 0, 1685),
        (3, 2, 1, 1, -390),
        (4, 3, 0, 1, -510),
        (2, 4, 0, 1, -785),
    ]
    page = Client().get(reverse("scoring:league", args=[league.pk])).content.decode()
    assert 'id="free-season-ranking"' in page and 'id="season-ranking"' not in page
    # On a phone's card the matches won are named like the rest, not a bare number.
    assert 'data-label="Won">3</td>' in page
    exported = Client().get(reverse("scoring:league-csv", args=[league.pk]))
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Name", "Won", "Lost", "Point difference", "Events"]
    assert rows[1] == ["1", "Player 1a / Player 1b", "3", "0", "+3690", "2"]
    assert rows[2] == ["2", "Player 3a / Player 3b", "1", "1", "-390", "2"]
    assert [r[1] for r in rows[3:]] == ["Player 4a / Player 4b", "Player 2a / Player 2b"]

    player = pair(first, 1).player_a
    page = Client().get(reverse("scoring:player", args=[player.pk])).content.decode()
    assert 'id="burraco-free-evenings"' in page and "Lunedì" in page
    assert 'id="free-matches-won"' in page and "3 / 0" in page
    api = Client().get(f"/api/v1/players/{player.pk}/burraco/").json()
    assert (api["statistics"]["matches_won"], api["statistics"]["matches_lost"]) == (3, 0)
    lines = {line["event"]: line for line in api["tournaments"]}
    assert (lines["Lunedì"]["format"], lines["Lunedì"]["won"], lines["Lunedì"]["lost"]) == (
        "free",
        2,
        0,
    )
    live = Client().get(reverse("scoring:event-live", args=[first.pk]))
    assert live.status_code == 200 and 'id="free-ranking"' in live.content.decode()
    assert 'data-label="Won">2</td>' in live.content.decode()


@pytest.mark.django_db
def test_the_evening_rebuild_and_pages_read_in_constant_queries() -> None:
    small = free_evening(2, name="Piccola")
    play_match(start(small, 1, 1, 2), MATCH_TO_2005)
    big = free_evening(24, club=small.club, name="Grande", names="Big")
    for table in range(1, 13):
        play_match(start(big, table, 2 * table - 1, 2 * table), MATCH_TO_2005)
    counts = []
    for event in (small, big):
        with CaptureQueriesContext(connection) as rebuild:
            rebuild_event_standings(event_id=event.pk)
        PairStanding.objects.filter(event=event).update(rank=99)  # every row rewritten
        with CaptureQueriesContext(connection) as rewrite:
            rebuild_event_standings(event_id=event.pk)
        client = Client()
        with CaptureQueriesContext(connection) as page:
            client.get(reverse("scoring:event", args=[event.pk]))
        with CaptureQueriesContext(connection) as export:
            client.get(reverse("scoring:event-csv", args=[event.pk]))
        counts.append((len(rebuild), len(rewrite), len(page), len(export)))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_the_season_page_reads_in_constant_queries() -> None:
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
        client = Client()
        with CaptureQueriesContext(connection) as page:
            assert client.get(reverse("scoring:league", args=[league.pk])).status_code == 200
        with CaptureQueriesContext(connection) as export:
            client.get(reverse("scoring:league-csv", args=[league.pk]))
        counts.append((len(page), len(export)))
    assert counts[0] == counts[1]
