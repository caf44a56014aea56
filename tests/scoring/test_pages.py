"""Public pages and API endpoints: content, visibility, exports, and constant query counts."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from scoring import rebuild
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from tests.factories import make_club, make_league, make_organiser
from tests.scoring.evenings import evening, players

pytestmark = pytest.mark.django_db


def league_with(n_players: int, seed: int, *, evenings: int = 2):
    club = make_club(f"Club {seed}", slug=f"club-{seed}")
    league = make_league(club)
    people = players(club, n_players, prefix=f"S{seed}-")
    rng = random.Random(seed)
    events = []
    for i in range(evenings):
        order = people[i:] + people[:i]
        events.append(
            evening(club, order, league=league, rng=rng, days_ago=evenings - i, name=f"E{i}")
        )
    for event in events:
        rebuild.rebuild_event_standings(event_id=event.pk)
    barbu_rebuild.rebuild_league_standings(league_id=league.pk)
    barbu_rating_sync.sync_ratings()
    return club, league, events, people


@pytest.fixture
def small():
    return league_with(4, 1, evenings=1)


@pytest.fixture
def large():
    return league_with(12, 2, evenings=2)


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(ctx.captured_queries)


def urls(club, league, events, people) -> list[str]:
    game = Game.objects.filter(table__round__event=events[0]).first()
    return [
        reverse("scoring:club", args=[club.slug]),
        reverse("scoring:event", args=[events[0].pk]),
        reverse("scoring:event-live", args=[events[0].pk]),
        reverse("scoring:event-csv", args=[events[0].pk]),
        reverse("scoring:league", args=[league.pk]),
        reverse("scoring:league-csv", args=[league.pk]),
        reverse("scoring:player", args=[people[0].pk]),
        reverse("scoring:game", args=[game.pk]),
        f"/api/v1/events/{events[0].pk}/standings/",
        f"/api/v1/leagues/{league.pk}/standings/",
        f"/api/v1/players/{people[0].pk}/history/",
        f"/api/v1/players/{people[0].pk}/rating/",
    ]


def test_pages_and_endpoints_make_the_same_queries_for_small_and_large(client, small, large):
    from django.core.cache import cache

    counts = []
    for data in (small, large):
        row = []
        for url in urls(*data):
            cache.clear()  # each page read cold: the worst case
            row.append(queries(client, url))
        counts.append(row)
    assert counts[0] == counts[1]
    # The player page: player, clubs, games, substitutes, evenings, contracts, rating and
    # its history, and whether there is any Burraco (tests/scoring/burraco/test_player.py).
    assert max(counts[1]) <= 9


def test_event_page_shows_standings_tables_progress_and_polls(client, small):
    _club, _league, events, people = small
    response = client.get(reverse("scoring:event", args=[events[0].pk]))
    text = response.content.decode()
    assert 'hx-trigger="every 1s"' in text
    assert "htmx.min.js" in text
    assert "28/28" in text
    for p in people:
        assert p.name in text
    live = client.get(reverse("scoring:event-live", args=[events[0].pk])).content.decode()
    assert "<html" not in live and 'id="live"' in live


def test_league_page_shows_movement(client, large):
    _club, league, _events, _people = large
    text = client.get(reverse("scoring:league", args=[league.pk])).content.decode()
    rows = league.standings.all()
    moved = [r for r in rows if r.movement]
    assert moved, "two evenings in a twelve-player league: somebody moved"
    r = moved[0]
    arrow = "▲" if r.movement > 0 else "▼"
    assert f"{arrow}{abs(r.movement)}" in text


def test_player_page_has_charts_statistics_and_history(client, large):
    _club, _league, events, people = large
    text = client.get(reverse("scoring:player", args=[people[0].pk])).content.decode()
    assert text.count("<svg") == 2
    assert "K♥" in text
    assert events[0].name in text and events[1].name in text


def test_score_sheet_rows_add_up_to_the_game_totals(client, small):
    _club, _league, events, _people = small
    game = Game.objects.filter(table__round__event=events[0]).first()
    from scoring.barbu.selectors import score_sheet

    sheet = score_sheet(game)
    deal_rows = [r for r in sheet["rows"] if r["kind"] == "deal"]
    assert len(deal_rows) == 28
    last_running = [r for r in sheet["rows"] if "running" in r][-1]["running"]
    assert last_running == sheet["totals"]
    assert [r["kind"] for r in sheet["rows"]].count("subtotal") == 4
    text = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    for name in game.player_names:
        assert name in text


def test_italian6_sheet_shows_the_settlements():
    club = make_club("Sei", slug="sei", ruleset="italian6")
    event = evening(club, players(club, 4), rng=random.Random(3))
    game = Game.objects.get(table__round__event=event)
    from scoring.barbu.selectors import score_sheet

    sheet = score_sheet(game)
    kinds = [r["kind"] for r in sheet["rows"]]
    assert kinds.count("settlement") == 4
    assert [r for r in sheet["rows"] if "running" in r][-1]["running"] == sheet["totals"]


def test_csv_export_lists_every_row(client, large):
    _club, league, _events, _people = large
    response = client.get(reverse("scoring:league-csv", args=[league.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 1 + 12
    assert rows[1][0] == "1"


def test_pdf_result_sheet(client, small):
    _club, _league, events, _people = small
    response = client.get(reverse("scoring:event-pdf", args=[events[0].pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_unpublished_pages_are_hidden_except_from_organisers(client, small):
    club, league, events, people = small
    event = events[0]
    event.published = False
    # A name no page can contain by chance ("E0" once matched a random CSRF token).
    event.name = "Unpublished evening"
    event.save()
    league.published = False
    league.save()
    hidden = [
        reverse("scoring:event", args=[event.pk]),
        reverse("scoring:event-csv", args=[event.pk]),
        reverse("scoring:league", args=[league.pk]),
        f"/api/v1/events/{event.pk}/standings/",
        f"/api/v1/leagues/{league.pk}/standings/",
    ]
    for url in hidden:
        assert client.get(url).status_code == 404, url
    club_page = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert event.name not in club_page
    # A player's page does not list games of unpublished evenings.
    assert (
        event.name
        not in client.get(reverse("scoring:player", args=[people[0].pk])).content.decode()
    )
    make_organiser(club, "boss")
    client.login(username="boss", password="tavolo-test")
    for url in hidden:
        assert client.get(url).status_code == 200, url
    club.published = False
    club.save()
    client.logout()
    assert client.get(reverse("scoring:club", args=[club.slug])).status_code == 404


def test_api_event_standings_body(client, small):
    _club, _league, events, _people = small
    body = client.get(f"/api/v1/events/{events[0].pk}/standings/").json()
    assert body["count"] == 4 and body["ranking"]["method"] == "total"
    assert body["ranking"]["explanation"]
    first = body["results"][0]
    assert first["rank"] == 1 and {"player", "points", "details", "tiebreak"} <= set(first)
    assert client.get(f"/api/v1/events/{events[0].pk}/standings/?colour=red").status_code == 400
    assert client.get("/api/v1/events/999999/standings/").status_code == 404


def test_api_league_standings_pages(client, large):
    _club, league, _events, _people = large
    body = client.get(f"/api/v1/leagues/{league.pk}/standings/?page_size=5").json()
    assert body["count"] == 12 and len(body["results"]) == 5 and body["next"]
    assert "movement" in body["results"][0]


def test_api_player_rating_and_history(client, large):
    _club, _league, _events, people = large
    rating = client.get(f"/api/v1/players/{people[0].pk}/rating/").json()
    assert rating["games"] == 2 and len(rating["history"]) == 2
    assert rating["ordinal"] == pytest.approx(rating["history"][-1]["ordinal"], abs=1e-3)
    history = client.get(f"/api/v1/players/{people[0].pk}/history/").json()
    assert history["count"] == 2
    assert history["results"][0]["date"] >= history["results"][1]["date"]


def test_home_page_links_to_the_club(client, small):
    club = small[0]
    text = client.get("/").content.decode()
    assert reverse("scoring:club", args=[club.slug]) in text


def test_club_page_lists_leagues_upcoming_and_past_evenings(client):
    from datetime import timedelta

    from django.utils import timezone

    from tests.factories import make_event

    club = make_club("Listed", slug="listed", language="en")
    league = make_league(club, name="Spring league")
    make_event(club, league=league, name="Next week", starts_at=timezone.now() + timedelta(7))
    make_event(club, name="Last week", starts_at=timezone.now() - timedelta(7), status="closed")
    make_event(club, name="Secret", published=False)
    text = client.get(reverse("scoring:club", args=[club.slug])).content.decode()
    assert "Spring league" in text
    upcoming, past = text.split("Past evenings")
    assert "Next week" in upcoming and "Last week" in past
    assert "Secret" not in text


def test_player_of_no_published_club_is_hidden(client):
    from tests.factories import make_player

    club = make_club("Hidden", slug="hidden", published=False)
    player = make_player(club, "Nobody")
    assert client.get(reverse("scoring:player", args=[player.pk])).status_code == 404
    assert client.get(f"/api/v1/players/{player.pk}/rating/").status_code == 404


def test_a_new_deal_shows_in_the_api_standings(client, django_capture_on_commit_callbacks):
    from tests.scoring.evenings import play, seat

    club = make_club("Fresh", slug="fresh")
    people = players(club, 4, prefix="F")
    event = evening(club, people, rng=random.Random(5), complete=False)
    rebuild.rebuild_event_standings(event_id=event.pk)
    url = f"/api/v1/events/{event.pk}/standings/"
    before = client.get(url).json()["results"]
    assert {r["games"] for r in before} == {1}
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(event, people, round_number=2), random.Random(6), 3)
    after = client.get(url).json()["results"]
    assert {r["games"] for r in after} == {2}


def test_player_page_links_back_to_the_club_and_to_each_evening(client, small):
    club, _league, events, people = small
    text = client.get(reverse("scoring:player", args=[people[0].pk])).content.decode()
    crumbs = text.split('id="player-clubs"')[1].split("</p>")[0]
    assert f'href="{reverse("scoring:club", args=[club.slug])}"' in crumbs
    games = text.split("<h2>Games</h2>")[1]
    assert f'href="{reverse("scoring:event", args=[events[0].pk])}"' in games


def export_urls(league, events) -> list[str]:
    return [
        reverse("scoring:event-csv", args=[events[0].pk]),
        reverse("scoring:event-pdf", args=[events[0].pk]),
        reverse("scoring:league-csv", args=[league.pk]),
    ]


def test_exports_answer_head_with_the_headers_of_get_and_no_body(client, small):
    _club, league, events, _people = small
    for url in export_urls(league, events):
        got = client.get(url)
        head = client.head(url)
        assert got.status_code == head.status_code == 200, url
        assert got.content, url
        assert head.content == b"", url
        assert int(got["Content-Length"]) == len(got.content), url
        for name in ("Content-Type", "Content-Disposition", "Content-Length"):
            assert head[name] == got[name], (url, name)


def test_exports_refuse_post(client, small):
    _club, league, events, _people = small
    for url in export_urls(league, events):
        assert client.post(url).status_code == 405, url
