"""`POST /api/v1/tournaments/<id>/turns/`: the referee seats the next turn through the API
(the desk's service), with an Idempotency-Key, 409 on conflict and one error shape;
another club's organiser, a table key or an anonymous client cannot."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import tournaments
from games.models import Round, Table
from tests.factories import make_club, make_organiser
from tests.games.burraco.builders import play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = tournament(7)
    referee = make_organiser(event.club, "referee")
    rival = make_organiser(make_club("Rival", slug="rival"), "rival")
    return {
        "event": event,
        "tokens": {
            "referee": Token.objects.create(user=referee).key,
            "rival": Token.objects.create(user=rival).key,
        },
    }


def _client(world, who: str) -> APIClient:
    client = APIClient()
    if who in world["tokens"]:
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens'][who]}")
    return client


def _url(world) -> str:
    return f"/api/v1/tournaments/{world['event'].pk}/turns/"


def test_the_referee_seats_each_turn_idempotently(world) -> None:
    referee = _client(world, "referee")
    first = referee.post(
        _url(world),
        {"turn": 1, "movement": "first", "hands_per_turn": 3},
        format="json",
        HTTP_IDEMPOTENCY_KEY="turn-1",
    )
    assert first.status_code == 201, first.json()
    body = first.json()
    assert body["number"] == 1 and len(body["tables"]) == 3 and len(body["byes"]) == 1
    seated = {p for t in body["tables"] for p in (t["NS"], t["EW"])} | set(body["byes"])
    assert seated == set(range(1, 8))
    assert all(t["card"] == "open" and t["game"] for t in body["tables"])
    # The same request again: the first answer, nothing new seated.
    again = referee.post(
        _url(world),
        {"turn": 1, "movement": "first", "hands_per_turn": 3},
        format="json",
        HTTP_IDEMPOTENCY_KEY="turn-1",
    )
    assert again.status_code == 201 and again.json() == body
    assert Round.objects.filter(event=world["event"]).count() == 1
    # The key with another request: 422.
    other = referee.post(
        _url(world), {"movement": "mitchell"}, format="json", HTTP_IDEMPOTENCY_KEY="turn-1"
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    # The next turn, by the desk's service: Mitchell keeps the NS pairs where they sat.
    play_turn(Round.objects.get(event=world["event"], number=1))
    second = referee.post(_url(world), {"turn": 2, "movement": "mitchell"}, format="json")
    assert second.status_code == 201, second.json()
    turn2 = second.json()
    assert turn2["movement"] == "mitchell" and turn2["step"] == 1
    # NS pairs stay on their line (the pair that rested sat NS of the phantom's table),
    # and nobody meets its first opponent again.
    ns_line = {t["NS"] for t in body["tables"]} | set(body["byes"])
    assert {t["NS"] for t in turn2["tables"]} <= ns_line
    met = {frozenset((t["NS"], t["EW"])) for t in body["tables"]}
    assert not met & {frozenset((t["NS"], t["EW"])) for t in turn2["tables"]}


def test_a_pasted_pairing_seats_the_turn_with_its_table_numbers(world) -> None:
    pairing = "Table;NS;EW\n2; 1; 7\n1; 3; 2\n3; 4; 6\nbye; 5\n"
    answer = _client(world, "referee").post(
        _url(world), {"movement": "pairing", "pairing": pairing}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    tables = {t["table"]: (t["NS"], t["EW"]) for t in answer.json()["tables"]}
    assert tables == {1: (3, 2), 2: (1, 7), 3: (4, 6)} and answer.json()["byes"] == [5]
    stored = Table.objects.filter(round__event=world["event"]).select_related("ns_pair", "ew_pair")
    assert {t.number: (t.ns_pair.number, t.ew_pair.number) for t in stored} == tables


def test_errors_say_what_is_wrong_and_store_nothing(world) -> None:
    referee = _client(world, "referee")
    url = _url(world)
    bad = referee.post(
        url, {"movement": "pairing", "pairing": "1, 1, 7\n2, 1, 2\n3, 4, 9\n"}, format="json"
    )
    assert bad.status_code == 400
    error = bad.json()
    assert error["code"] == "pairing_invalid"
    codes = {(e["line"], e["code"]) for e in error["errors"]}
    assert {(2, "pair_twice"), (3, "unknown_pair")} <= codes, error
    for body, field in (
        ({"movement": "swiss"}, "movement"),
        ({"movement": "mitchell", "step": 0}, "step"),
        ({"movement": "first", "tables": []}, "tables"),
        ({}, "movement"),
    ):
        refused = referee.post(url, body, format="json")
        assert refused.status_code == 400, (body, refused.json())
        assert any(field in (e.get("field") or "") for e in refused.json()["errors"]), (
            refused.json()
        )
    assert referee.post(url, {"turn": 2, "movement": "first"}, format="json").json()["code"] == (
        "turn_out_of_order"
    )
    assert not Round.objects.filter(event=world["event"]).exists()
    # Seated, not played: the next turn waits for the cards (409), the same turn too.
    assert referee.post(url, {"turn": 1, "movement": "first"}, format="json").status_code == 201
    missing = referee.post(url, {"turn": 2, "movement": "mitchell"}, format="json")
    assert missing.status_code == 409 and missing.json()["code"] == "cards_missing"
    assert missing.json()["params"]["tables"] == [1, 2, 3]
    again = referee.post(url, {"turn": 1, "movement": "first"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "turn_seated"
    assert Round.objects.filter(event=world["event"]).count() == 1


def test_only_the_clubs_organisers_seat(world) -> None:
    body = {"movement": "first"}
    assert _client(world, "rival").post(_url(world), body, format="json").status_code == 403
    assert _client(world, "anonymous").post(_url(world), body, format="json").status_code == 401
    # Seat turn 1 to have a table key, then try with it.
    tournaments.turn_seat(event=world["event"], movement="first")
    key = Table.objects.filter(round__event=world["event"]).first().key
    table = APIClient()
    table.credentials(HTTP_X_TABLE_KEY=key)
    assert table.post(_url(world), {"movement": "mitchell"}, format="json").status_code == 403
    assert Round.objects.filter(event=world["event"]).count() == 1
    hidden = tournament(5, club=make_club("Hidden", slug="hidden", published=False))
    url = f"/api/v1/tournaments/{hidden.pk}/turns/"
    assert _client(world, "rival").post(url, body, format="json").status_code == 404


def test_a_round_robin_in_groups_through_the_api(world) -> None:
    referee = _client(world, "referee")
    first = referee.post(
        _url(world), {"turn": 1, "movement": "round_robin", "groups": 2}, format="json"
    )
    assert first.status_code == 201, first.json()
    # Seven pairs in groups 1-4 and 5-7: nobody meets a pair of the other group.
    for table in first.json()["tables"]:
        assert (table["NS"] <= 4) == (table["EW"] <= 4)
    play_turn(world["event"].rounds.get(number=1))
    other = referee.post(
        _url(world), {"turn": 2, "movement": "round_robin", "groups": 3}, format="json"
    )
    assert other.status_code == 400 and other.json()["code"] == "round_robin_groups"
    kept = referee.post(_url(world), {"turn": 2, "movement": "round_robin"}, format="json")
    assert kept.status_code == 201
    for table in kept.json()["tables"]:
        assert (table["NS"] <= 4) == (table["EW"] <= 4)
