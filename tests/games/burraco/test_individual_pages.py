"""Individual Burraco tournaments on the pages and the API: created as individual, the
desk enters players and seats a turn in one action, a table enters and confirms from two
phones, the ranking, CSV, PDF and API rank players; another club's referee cannot; the
queries do not grow with the players."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import tournaments
from games.burraco.results import ranking_so_far
from games.models import Event, PairTurnResult, Round, ScoreCard
from tests.factories import make_club, make_organiser, make_player
from tests.games.burraco.builders import (
    burraco_club,
    individual_tournament,
    play_turn,
    played_individual,
)

pytestmark = pytest.mark.django_db


def _referee(club) -> Client:
    make_organiser(club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    return client


def test_the_referee_creates_an_individual_tournament_enters_players_and_seats_a_turn() -> None:
    club = burraco_club()
    client = _referee(club)
    create = client.post(
        reverse("event-create", args=[club.slug]),
        {
            "name": "Individuale",
            "game": "burraco",
            "starts_at": "2026-11-24T20:30",
            "planned_rounds": "3",
            "hands_per_turn": "3",
            "individual": "on",
            "published": "on",
            "kind": "tournament",
        },
    )
    assert create.status_code == 302
    event = Event.objects.get(name="Individuale")
    assert event.individual and event.is_burraco
    desk = reverse("burraco-desk", args=[club.slug, event.pk])
    page = client.get(desk).content.decode()
    assert 'id="individual"' in page and "Enter the player" in page
    assert "enter the players, then seat the first turn" in page
    add = reverse("burraco-pair-add", args=[club.slug, event.pk])
    for n in range(1, 10):
        player = make_player(club, f"Giocatore {n}")
        assert client.post(add, {"player": player.pk}).status_code == 302
    assert event.pairs.count() == 9 and not event.pairs.filter(player_b__isnull=False).exists()
    # The same player twice: refused with the reason, nothing entered.
    again = client.post(add, {"player": player.pk})
    assert again.status_code == 400 and "already entered" in again.content.decode()
    seat = reverse("burraco-turn-seat", args=[club.slug, event.pk])
    answer = client.post(seat, {"movement": "first", "first_order": "entry", "hands_per_turn": 3})
    assert answer.status_code == 302
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.movement == "individual" and rnd.tables.count() == 2
    page = client.get(desk).content.decode()
    table = rnd.tables.select_related("ns_pair", "ns_partner").order_by("number").first()
    # The desk shows both players of each line, the bye and the movement.
    assert table.ns_label in page and table.ns_partner.names in page
    assert 'id="byes"' in page and "individual" in page
    cards = client.get(reverse("table-cards", args=[club.slug, event.pk, 1])).content.decode()
    # Each player of each line on a line of their own, number and name together.
    for entry in (*table.side("NS"), *table.side("EW")):
        assert f'<span class="who">{entry.number}. {entry.names}</span>' in cards
    pdf = client.get(reverse("burraco-score-cards", args=[club.slug, event.pk, 1]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    # A pair movement is refused with its reason.
    play_turn(rnd)
    refused = client.post(seat, {"movement": "mitchell", "hands_per_turn": 3})
    assert refused.status_code == 400
    assert "individual movement" in refused.content.decode()
    assert '<label for="id_pair">Player:</label>' in refused.content.decode()  # penalties
    entry = event.pairs.get(number=9)
    change = reverse("burraco-pair-change", args=[club.slug, event.pk, entry.pk])
    # A withdrawal is confirmed (issue 31): one click no longer withdraws.
    withdrawn = client.post(change, {"action": "withdraw", "confirm": "1"}, follow=True)
    withdrawn = withdrawn.content.decode()
    assert f"Player {entry} withdrawn." in withdrawn


def test_a_table_enters_the_hands_and_the_other_line_confirms() -> None:
    event = individual_tournament(8)
    rnd = tournaments.turn_seat(event=event, movement="first", seed=4).round
    table = rnd.tables.select_related("ns_pair", "ns_partner", "ew_pair", "ew_partner").get(
        number=1
    )
    ns, ew = Client(), Client()
    page = ns.get(reverse("burraco-card", args=[table.key])).content.decode()
    assert "Which line are you?" in page and "One line enters the hands" in page
    assert table.ns_label in page and table.ew_label in page
    ns.post(reverse("burraco-card-line", args=[table.key]), {"line": "NS"})
    ew.post(reverse("burraco-card-line", args=[table.key]), {"line": "EW"})
    url = reverse("burraco-card-hand", args=[table.key])
    for mp in ("300", "200", "150"):
        assert ns.post(url, {"mode": "mp", "NS-mp": mp, "EW-mp": "100"}).status_code == 302
    assert (
        ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"}).status_code
        == 302
    )
    card = ScoreCard.objects.get(game=table.game)
    assert card.status == "confirmed" and card.ns_total == 650 and card.ew_total == 300
    rows = {r.pair.number: r for r in PairTurnResult.objects.filter(table=table)}
    ns_numbers = {table.ns_pair.number, table.ns_partner.number}
    assert len(rows) == 4
    for number, row in rows.items():
        mine = card.ns_vp if number in ns_numbers else card.ew_vp
        assert row.vp == mine and row.final
        assert row.mp_for - row.mp_against == (350 if number in ns_numbers else -350)


def test_the_public_ranking_csv_pdf_and_api_rank_players(eager_tasks) -> None:
    event = played_individual(9)
    page = Client().get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "Burraco individual tournament" in page
    assert "each player scores the VP and MP of the line they played in" in page
    assert "Bye: player" in page
    csv = Client().get(reverse("scoring:event-csv", args=[event.pk])).content.decode()
    header = csv.lstrip("\ufeff").splitlines()[0]
    assert header.startswith("Place,Player,Name") and "Solo " in csv
    pdf = Client().get(reverse("scoring:event-pdf", args=[event.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    body = APIClient().get(f"/api/v1/events/{event.pk}/standings/").json()
    assert body["individual"] is True and body["count"] == 9
    engine = ranking_so_far(event)
    assert [(r["place"], r["pair"], r["mp_difference"]) for r in body["results"]] == [
        (e.place, e.pair, e.mp_difference) for e in engine
    ]
    assert all(len(r["players"]) == 1 for r in body["results"])
    tournament = APIClient().get(f"/api/v1/tournaments/{event.pk}/").json()
    assert tournament["individual"] is True
    tables = tournament["turns"][0]["tables"]
    assert all(len(t["NS"]) == 2 and len(t["EW"]) == 2 for t in tables)
    seated = {n for t in tables for n in (*t["NS"], *t["EW"])} | set(tournament["turns"][0]["byes"])
    assert seated == set(range(1, 10))


def test_the_api_seats_individual_turns_for_the_clubs_referee_only() -> None:
    event = individual_tournament(8)
    referee = make_organiser(event.club, "referee")
    rival = make_organiser(make_club("Rival", slug="rival"), "rival")
    url = f"/api/v1/tournaments/{event.pk}/turns/"
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=rival).key}")
    assert stranger.post(url, {"movement": "individual"}, format="json").status_code == 403
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=referee).key}")
    first = client.post(
        url, {"turn": 1, "movement": "individual", "hands_per_turn": 3}, format="json"
    )
    assert first.status_code == 201, first.json()
    body = first.json()
    assert body["movement"] == "individual" and len(body["tables"]) == 2
    assert sorted(n for t in body["tables"] for n in (*t["NS"], *t["EW"])) == list(range(1, 9))
    play_turn(Round.objects.get(event=event, number=1))
    wrong = client.post(url, {"turn": 2, "movement": "danese"}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "individual_only"
    second = client.post(url, {"turn": 2, "movement": "individual"}, format="json")
    assert second.status_code == 201
    partners = [frozenset(t[s]) for turn in (body, second.json()) for t in turn["tables"]
                for s in ("NS", "EW")]  # fmt: skip
    assert len(partners) == len(set(partners))
    # Another club's referee cannot reach the desk either.
    client = Client()
    client.login(username="rival", password="tavolo-test")
    desk = reverse("burraco-desk", args=[event.club.slug, event.pk])
    assert client.get(desk).status_code == 403
    add = reverse("burraco-pair-add", args=[event.club.slug, event.pk])
    assert client.post(add, {"player": event.pairs.first().player_a_id}).status_code == 403


def test_pages_and_endpoints_take_the_same_queries_for_5_or_many_players(eager_tasks) -> None:
    club = burraco_club()
    client = _referee(club)
    counts = []
    for size in (5, 23):
        event = played_individual(size, club)
        urls = (
            reverse("burraco-desk", args=[club.slug, event.pk]),
            reverse("scoring:event", args=[event.pk]),
            reverse("scoring:event-live", args=[event.pk]),
            f"/api/v1/events/{event.pk}/standings/?page_size=100",
            f"/api/v1/tournaments/{event.pk}/",
        )
        row = []
        for url in urls:
            client.get(url)  # warm the session
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200, url
            row.append(len(queries))
        counts.append(row)
    assert counts[0] == counts[1], counts
