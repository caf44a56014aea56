"""The player page's Burraco: the pair tournaments played (partner, place, VP), the
statistics from confirmed score cards, the Burraco pair rating and its chart; shown only
to players of Burraco, with a constant number of queries. The same through the API
(/api/v1/players/<id>/burraco/)."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import rebuild
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.burraco.rating_sync import sync_burraco_ratings
from tests.factories import make_player
from tests.scoring.burraco.builders import (
    burraco_club,
    card,
    cards_hand,
    pair_tournament,
    play_table,
    seat_turn,
    submit_cards,
)
from tests.scoring.evenings import evening

pytestmark = pytest.mark.django_db


def played(club, pairs, *, days_ago=1, name="Torneo", mps=None, hands=None, published=True):
    """A one-turn tournament of two pairs (pair 1 NS, pair 2 EW), its card confirmed."""
    event = pair_tournament(club, pairs, days_ago=days_ago, name=name, published=published)
    rnd = seat_turn(event)
    if hands is not None:
        submit_cards(card(rnd, 1), hands)
    else:
        play_table(card(rnd, 1), mps or [(300, 100)] * 3)
    rebuild.rebuild_event_standings(event_id=event.pk)
    return event


@pytest.fixture
def club():
    return burraco_club("Circolo", slug="circolo")


def page(client, player, **headers) -> str:
    response = client.get(reverse("scoring:player", args=[player.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_a_burraco_player_sees_tournaments_statistics_and_rating_and_no_barbu(client, club):
    me, anna, bruno, carla, dino, elsa = (
        make_player(club, n) for n in ["Me", "Anna", "Bruno", "Carla", "Dino", "Elsa"]
    )
    played(club, [(me, anna), (bruno, carla)], days_ago=3, name="Martedì", mps=[(300, 100)] * 3)
    # Counted from the cards: my line (EW here) closes one hand of three and makes
    # 2 + 1 + 0 burracos.
    played(
        club,
        [(dino, elsa), (me, bruno)],
        days_ago=1,
        name="Giovedì",
        hands=[cards_hand("EW", 1, 2), cards_hand("NS", 1, 1), cards_hand("NS", 1, 0)],
    )
    sync_burraco_ratings()
    text = page(client, me)
    assert 'id="burraco-rating"' in text and 'id="burraco-tournaments"' in text
    # No Barbu sections for a player who never played Barbu.
    assert "Contracts" not in text and "Points over the games" not in text
    rows = text.split('id="burraco-tournaments"')[1]
    assert rows.index("Giovedì") < rows.index("Martedì")  # newest first
    assert "Anna" in rows and "Bruno" in rows  # the partners, linked
    assert reverse("scoring:player", args=[anna.pk]) in rows
    assert "1 of 2" in rows  # won Martedì: 18 VP or so
    stats = text.split('id="burraco-stats"')[1].split("</section>")[0]
    assert "over 6 hands" in stats and "over 2 turns at a table" in stats
    assert "1.00" in stats  # burracos per hand: (2 + 1 + 0) / 3
    assert "33%" in stats  # closed one counted hand of three
    assert "the 3 hands counted from the cards" in stats
    chart = text.split('id="burraco-rating"')[1].split("</section>")[0]
    assert "<svg" in chart and "2 tournaments from" in chart
    assert "after 2 turns at a table" in chart


def test_average_mp_and_vp_per_turn_are_the_players_lines(client, club):
    me, anna, bruno, carla = (make_player(club, n) for n in ("Me", "Anna", "Bruno", "Carla"))
    played(club, [(bruno, carla), (me, anna)], mps=[(300, 100), (250, 150), (400, 0)])
    sync_burraco_ratings()
    stats = page(client, me).split('id="burraco-stats"')[1].split("</section>")[0]
    # EW: 100 + 150 + 0 over 3 hands.
    assert "<strong>83.3</strong>" in stats
    assert "No hand was counted from the cards" in stats
    winner = page(client, bruno).split('id="burraco-stats"')[1].split("</section>")[0]
    assert "<strong>316.7</strong>" in winner


def test_a_barbu_player_sees_no_burraco_section(client, club):
    people = [make_player(club, f"P{i}") for i in range(4)]
    evening(club, people, rng=random.Random(1))
    barbu_rating_sync.sync_ratings()
    text = page(client, people[0])
    assert "burraco" not in text.lower()
    assert "Contracts" in text


def test_a_player_of_both_games_sees_both(client, club):
    people = [make_player(club, f"P{i}") for i in range(4)]
    evening(club, people, rng=random.Random(1))
    played(club, [(people[0], people[1]), (people[2], people[3])])
    barbu_rating_sync.sync_ratings()
    sync_burraco_ratings()
    text = page(client, people[0])
    assert "Contracts" in text and 'id="burraco-rating"' in text
    assert text.count("<svg") >= 3  # points, rating, Burraco pair rating


def test_an_unpublished_tournament_is_not_shown_to_visitors(client, club):
    me, anna, bruno, carla = (make_player(club, n) for n in ("Me", "Anna", "Bruno", "Carla"))
    played(club, [(me, anna), (bruno, carla)], name="Private", published=False)
    played(club, [(me, anna), (bruno, carla)], name="Public")
    sync_burraco_ratings()
    text = page(client, me)
    assert "Public" in text and "Private" not in text
    assert "over 3 hands" in text


def test_in_german_numbers_and_dates_are_the_readers(client, club):
    me, anna, bruno, carla = (make_player(club, n) for n in ("Me", "Anna", "Bruno", "Carla"))
    played(club, [(bruno, carla), (me, anna)], mps=[(300, 100), (250, 150), (400, 0)])
    sync_burraco_ratings()
    text = page(client, me, HTTP_ACCEPT_LANGUAGE="de")
    assert "Wertungszahl im Paarspiel" in text
    assert "<strong>83,3</strong>" in text
    assert "Spiele" in text.split('id="burraco-stats"')[1]


def _queries(client, player, url: str | None = None) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        if url is None:
            page(client, player)
        else:
            assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def api(player) -> str:
    return f"/api/v1/players/{player.pk}/burraco/"


def test_the_api_gives_the_rating_statistics_and_tournaments(client, club):
    me, anna, bruno, carla = (make_player(club, n) for n in ("Me", "Anna", "Bruno", "Carla"))
    played(club, [(bruno, carla), (me, anna)], days_ago=2, name="Primo", mps=[(300, 100)] * 3)
    played(
        club,
        [(me, bruno), (anna, carla)],
        name="Secondo",
        hands=[cards_hand("NS", 2, 0), cards_hand("EW", 0, 1), cards_hand("NS", 1, 1)],
    )
    played(club, [(me, anna), (bruno, carla)], name="Nascosto", published=False)
    sync_burraco_ratings()
    body = client.get(api(me)).json()
    assert body["player_id"] == me.pk and body["player"] == "Me"
    rating = body["rating"]
    assert rating["games"] == 3 and len(rating["history"]) == 2  # the hidden one not listed
    assert [h["partner_id"] for h in rating["history"]] == [anna.pk, bruno.pk]
    assert rating["history"][0]["vp"] < rating["history"][0]["opponent_vp"]  # lost Primo
    stats = body["statistics"]
    assert stats["hands"] == 6 and stats["counted_hands"] == 3
    assert stats["burracos_per_hand"] == pytest.approx(1)  # 2 + 0 + 1 over 3
    assert stats["closing_rate"] == pytest.approx(2 / 3)
    assert stats["turns"] == 2 and isinstance(stats["vp_per_turn"], float)
    assert [t["event"] for t in body["tournaments"]] == ["Secondo", "Primo"]
    first = body["tournaments"][1]
    assert (first["partner"], first["rank"], first["pairs"]) == ("Anna", 2, 2)
    assert first["vp"] < 10 and first["turns"] == 1  # EW lost every hand


def test_the_api_of_a_barbu_player_has_no_burraco(client, club):
    people = [make_player(club, f"P{i}") for i in range(4)]
    evening(club, people, rng=random.Random(1))
    body = client.get(api(people[0])).json()
    assert body["rating"] == {"mu": None, "sigma": None, "ordinal": None, "games": 0, "history": []}
    assert body["statistics"]["hands"] == 0 and body["statistics"]["average_mp"] is None
    assert body["statistics"]["closing_rate"] is None and body["tournaments"] == []


def test_the_api_is_in_the_schema(client):
    document = client.get("/api/schema/?format=json").json()
    answer = document["paths"]["/api/v1/players/{id}/burraco/"]["get"]["responses"]["200"]
    schema = answer["content"]["application/json"]
    assert schema["schema"]["$ref"].endswith("/PlayerBurraco")
    assert "Burraco" in schema["examples"]
    fields = document["components"]["schemas"]["BurracoStatistics"]["properties"]
    assert {"average_mp", "burracos_per_hand", "closing_rate", "vp_per_turn"} <= set(fields)


def test_the_page_makes_the_same_queries_for_1_and_50_tournaments(client, club):
    one = [make_player(club, f"One{i}") for i in range(4)]
    played(club, [(one[0], one[1]), (one[2], one[3])], hands=[cards_hand("NS", 1, 0)] * 3)
    many = [make_player(club, f"Many{i}") for i in range(8)]
    for i in range(50):
        partner = many[1 + i % 3]
        others = [p for p in many[1:] if p != partner]
        pairs = [(many[0], partner), (others[i % 5], others[(i + 1) % 5])]
        if i % 2:
            pairs.reverse()
        hands = [cards_hand("NS", 1, i % 2)] * 3 if i % 3 else None
        played(club, pairs, days_ago=60 - i, name=f"T{i}", hands=hands)
    sync_burraco_ratings()
    small, large = _queries(client, one[0]), _queries(client, many[0])
    assert small == large
    # The Barbu page's nine (tests/scoring/test_pages.py; the ninth reads the Burraco
    # tournaments) and five more: hands, rules (the burraco kinds), turn results, rating
    # and its history.
    assert large <= 14
    assert _queries(client, one[0], api(one[0])) == _queries(client, many[0], api(many[0]))
    text = page(client, many[0])
    assert text.split('id="burraco-tournaments"')[1].count("<tr>") == 51  # head + 50
    assert "50 tournaments from" in text
