"""A free match through the API: the tournament's endpoints and guarantees (X-Table-Key,
Idempotency-Key, 409 with the one error shape, If-Match), a whole match to 2005, the hand
after the winning one refused with `match_over`, the evening's standings endpoint."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.rebuild import rebuild_event_standings
from tests.factories import make_club, make_organiser
from tests.games.burraco.free_matches.builders import MATCH_TO_2005, free_evening, play_match, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = free_evening(4)
    game = start(event, 1, 1, 2)
    other = start(event, 2, 3, 4)
    referee = make_organiser(event.club, "referee")
    rival = make_organiser(make_club("Rival", slug="rival", game="burraco"), "rival")
    return {
        "event": event,
        "game": game,
        "other": other,
        "tokens": {
            "referee": Token.objects.create(user=referee).key,
            "rival": Token.objects.create(user=rival).key,
        },
    }


def _client(world, who: str) -> APIClient:
    client = APIClient()
    if who in world["tokens"]:
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens'][who]}")
    elif who == "table":
        client.credentials(HTTP_X_TABLE_KEY=world["game"].table.key)
    elif who == "other_table":
        client.credentials(HTTP_X_TABLE_KEY=world["other"].table.key)
    return client


def test_a_whole_match_to_2005_through_the_api(world) -> None:
    table = _client(world, "table")
    game = world["game"]
    hands = f"/api/v1/games/{game.pk}/hands/"
    card = f"/api/v1/games/{game.pk}/card/"
    for number, (ns, ew) in enumerate(MATCH_TO_2005[:4], 1):
        hand = {"number": number, "line": "NS", "mp": {"NS": ns, "EW": ew}}
        answer = table.post(hands, hand, format="json", HTTP_IDEMPOTENCY_KEY=f"h{number}")
        assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["totals"] == {"NS": 1665, "EW": 1200} and body["complete"] is False
    assert body["match"] == {"target": 2005, "needs": {"NS": 340, "EW": 805}}
    assert body["hands_per_turn"] is None and body["winner"] is None
    # The same request again: the same answer, nothing stored twice.
    again = table.post(
        hands,
        {"number": 4, "line": "NS", "mp": {"NS": 350, "EW": 300}},
        format="json",
        HTTP_IDEMPOTENCY_KEY="h4",
    )
    assert again.status_code == 201 and again.json() == body
    early = table.post(card + "confirm/", {"line": "EW", "agree": True}, format="json")
    assert early.status_code == 400 and early.json()["code"] == "card_incomplete"

    last = table.post(
        hands, {"number": 5, "line": "NS", "mp": {"NS": 440, "EW": 120}}, format="json"
    )
    assert last.status_code == 201
    won = last.json()
    assert won["complete"] is True and won["winner"] == "NS" and won["status"] == "entered"
    assert won["totals"] == {"NS": 2105, "EW": 1320} and won["vp"] == {"NS": 20, "EW": 0}
    assert won["match"]["needs"] == {"NS": 0, "EW": 685}

    refused = table.post(hands, {"line": "NS", "mp": {"NS": 100, "EW": 0}}, format="json")
    assert refused.status_code == 409
    error = refused.json()
    assert error["status"] == 409 and error["code"] == "match_over"
    assert error["params"] == {"winner": "NS", "totals": {"NS": 2105, "EW": 1320}}
    assert "This match is over" in error["message"]
    # The winning hand sent again with its number (a phone's retry): the same hand, 200.
    retry = table.post(
        hands, {"number": 5, "line": "NS", "mp": {"NS": 440, "EW": 120}}, format="json"
    )
    assert retry.status_code == 200 and retry.json()["totals"] == won["totals"]
    sixth = table.post(hands, {"number": 6, "line": "NS", "mp": {"NS": 0, "EW": 5}}, format="json")
    assert sixth.status_code == 409 and sixth.json()["code"] == "match_over"

    # The key that entered the hands does not confirm them (issue 31): the other pair's
    # phone does, or the referee.
    own = table.post(card + "confirm/", {"line": "EW", "agree": True}, format="json")
    assert own.status_code == 403 and own.json()["code"] == "confirm_by_entering_client"
    referee = _client(world, "referee")
    confirmed = referee.post(card + "confirm/", {"line": "EW", "agree": True}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    after = table.post(hands, {"line": "NS", "mp": {"NS": 5, "EW": 0}}, format="json")
    assert after.status_code == 409 and after.json()["code"] == "match_over"

    # The referee's correction (If-Match): a hand after the winning one is refused (400).
    read = referee.get(card)
    assert read.status_code == 200
    tail = [{"mp": {"NS": ns, "EW": ew}} for ns, ew in MATCH_TO_2005]
    bad = referee.put(
        card,
        {"hands": [*tail, {"mp": {"NS": 0, "EW": 5}}], "reason": "typo"},
        format="json",
        HTTP_IF_MATCH=read["ETag"],
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "match_over"
    stale = referee.put(card, {"hands": tail, "reason": "x"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412


def test_only_this_tables_key_or_the_clubs_organisers_write(world) -> None:
    hands = f"/api/v1/games/{world['game'].pk}/hands/"
    hand = {"line": "NS", "mp": {"NS": 300, "EW": 100}}
    assert _client(world, "other_table").post(hands, hand, format="json").status_code == 403
    assert _client(world, "rival").post(hands, hand, format="json").status_code == 403
    assert _client(world, "anonymous").post(hands, hand, format="json").status_code == 401
    assert world["game"].hands.count() == 0
    assert _client(world, "referee").post(hands, hand, format="json").status_code == 201


def test_the_standings_endpoint_answers_an_evening_of_free_matches(world) -> None:
    event = world["event"]
    play_match(world["game"], MATCH_TO_2005)
    play_match(world["other"], [(1500, 0), (0, 2000), (0, 20)])  # EW: 2020 to 1500
    rebuild_event_standings(event_id=event.pk)
    expected = [(1, 1, 0, 785), (4, 1, 0, 520), (3, 0, 1, -520), (2, 0, 1, -785)]
    answer = _client(world, "anonymous").get(f"/api/v1/events/{event.pk}/standings/")
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert (data["game"], data["format"], data["target"]) == ("burraco", "free", 2005)
    rows = data["results"]
    assert [(r["pair"], r["won"], r["lost"], r["difference"]) for r in rows] == expected
    assert rows[0]["players"] == ["Player 1a", "Player 1b"] and rows[0]["played"] == 1
    pairs = _client(world, "anonymous").get(f"/api/v1/tournaments/{event.pk}/standings/")
    rows = pairs.json()["results"]
    assert [(r["pair"], r["won"], r["lost"], r["mp_difference"]) for r in rows] == expected
    read = _client(world, "anonymous").get(f"/api/v1/tournaments/{event.pk}/")
    assert read.json()["format"] == "free" and read.json()["target"] == 2005


def test_the_standings_read_in_constant_queries(world) -> None:
    client = _client(world, "anonymous")
    event = world["event"]
    rebuild_event_standings(event_id=event.pk)
    url = f"/api/v1/events/{event.pk}/standings/"
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url + "?page=1")
    big = free_evening(30, club=event.club, name="Grande", names="Big")
    for table in range(1, 16):
        play_match(start(big, table, 2 * table - 1, 2 * table), MATCH_TO_2005)
    rebuild_event_standings(event_id=big.pk)
    url = f"/api/v1/events/{big.pk}/standings/"
    client.get(url)
    with CaptureQueriesContext(connection) as large:
        client.get(url + "?page=1")
    assert len(large) == len(small)


def test_an_organiser_starts_matches_through_the_api(world) -> None:
    event = world["event"]
    url = f"/api/v1/tournaments/{event.pk}/matches/"
    referee = _client(world, "referee")
    busy = referee.post(url, {"table": 1, "NS": 1, "EW": 3}, format="json")
    assert busy.status_code == 409 and busy.json()["code"] == "table_playing"
    assert busy.json()["params"] == {"table": 1}
    play_match(world["game"], MATCH_TO_2005)
    playing = referee.post(url, {"table": 1, "NS": 1, "EW": 3}, format="json")
    assert playing.status_code == 409 and playing.json()["code"] == "pair_playing"
    assert playing.json()["params"] == {"pair": 3, "table": 2}
    first = referee.post(
        url, {"table": 1, "NS": 2, "EW": 1}, format="json", HTTP_IDEMPOTENCY_KEY="m"
    )
    assert first.status_code == 201, first.json()
    assert first.json() == {
        "table": 1,
        "match": 2,
        "game": first.json()["game"],
        "sitting": 2,
        "NS": 2,
        "EW": 1,
        "target": 2005,
    }
    again = referee.post(
        url, {"table": 1, "NS": 2, "EW": 1}, format="json", HTTP_IDEMPOTENCY_KEY="m"
    )
    assert again.status_code == 201 and again.json() == first.json()
    reused = referee.post(
        url, {"table": 5, "NS": 2, "EW": 1}, format="json", HTTP_IDEMPOTENCY_KEY="m"
    )
    assert reused.status_code == 422
    card = _client(world, "referee").get(f"/api/v1/games/{first.json()['game']}/card/")
    assert card.status_code == 200 and card.json()["match"]["target"] == 2005
    bad = referee.post(url, {"table": 0, "NS": 2, "EW": 9, "x": 1}, format="json")
    assert bad.status_code == 400
    unknown_pair = referee.post(url, {"table": 7, "NS": 2, "EW": 9}, format="json")
    assert unknown_pair.status_code == 400 and unknown_pair.json()["code"] == "bad_pair"
    for who, status in (("rival", 403), ("table", 403), ("anonymous", 401)):
        refused = _client(world, who).post(url, {"table": 9, "NS": 3, "EW": 4}, format="json")
        assert refused.status_code == status, (who, refused.status_code)
