"""The Burraco API: tournaments, score cards and standings read; hands submitted and cards
confirmed from the tables with the same guarantees as Barbu's deals."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import entries, tournaments
from games.models import Event
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_club, make_organiser
from tests.games.burraco.builders import play_table, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    table, other = rnd.tables.order_by("number")
    organiser = make_organiser(event.club, "referee")
    rival_club = make_club("Rival", slug="rival")
    rival = make_organiser(rival_club, "rival")
    return {
        "event": event,
        "round": rnd,
        "table": table,
        "other": other,
        "tokens": {
            "referee": Token.objects.create(user=organiser).key,
            "rival": Token.objects.create(user=rival).key,
        },
    }


def _client(world, who: str) -> APIClient:
    client = APIClient()
    if who in ("referee", "rival"):
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['tokens'][who]}")
    elif who == "table":
        client.credentials(HTTP_X_TABLE_KEY=world["table"].key)
    elif who == "other_table":
        client.credentials(HTTP_X_TABLE_KEY=world["other"].key)
    return client


def _hands(world) -> str:
    return f"/api/v1/games/{world['table'].game.pk}/hands/"


def test_a_table_submits_hands_idempotently_and_conflicts_get_409(world) -> None:
    client = _client(world, "table")
    hand = {"number": 1, "line": "NS", "mp": {"NS": 300, "EW": 100}}
    first = client.post(_hands(world), hand, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert first.status_code == 201, first.json()
    assert first.json()["totals"] == {"EW": 100, "NS": 300} and first["ETag"] == '"2"'
    again = client.post(_hands(world), hand, format="json", HTTP_IDEMPOTENCY_KEY="abc")
    assert again.status_code == 201 and again.json() == first.json()
    reused = client.post(
        _hands(world), {**hand, "mp": {"NS": 0, "EW": 0}}, format="json", HTTP_IDEMPOTENCY_KEY="abc"
    )
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    conflict = client.post(_hands(world), {**hand, "mp": {"NS": 305, "EW": 100}}, format="json")
    assert conflict.status_code == 409 and conflict.json()["stored"]["number"] == 1
    bad = client.post(_hands(world), {"line": "NS", "mp": {"NS": 1, "EW": 0}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["code"] == "mp_not_multiple_of_5"
    unknown = client.post(_hands(world), {"line": "NS", "mpp": 1}, format="json")
    assert unknown.status_code == 400


def test_only_this_tables_key_or_the_clubs_organisers_write(world) -> None:
    hand = {"line": "NS", "mp": {"NS": 300, "EW": 100}}
    assert _client(world, "other_table").post(_hands(world), hand, format="json").status_code == 403
    assert _client(world, "rival").post(_hands(world), hand, format="json").status_code == 403
    assert _client(world, "anonymous").post(_hands(world), hand, format="json").status_code == 401
    assert _client(world, "referee").post(_hands(world), hand, format="json").status_code == 201


def test_confirm_from_the_other_line_and_correct_with_if_match(world) -> None:
    table = _client(world, "table")
    for _ in range(3):
        table.post(_hands(world), {"line": "NS", "mp": {"NS": 300, "EW": 100}}, format="json")
    card_url = f"/api/v1/games/{world['table'].game.pk}/card/"
    same_line = table.post(card_url + "confirm/", {"line": "NS", "agree": True}, format="json")
    assert same_line.status_code == 400 and same_line.json()["code"] == "confirm_same_line"
    # The key that entered the hands does not confirm them (issue 31): the other pair's
    # phone does, or the referee.
    own = table.post(card_url + "confirm/", {"line": "EW", "agree": True}, format="json")
    assert own.status_code == 403 and own.json()["code"] == "confirm_by_entering_client"
    referee = _client(world, "referee")
    confirmed = referee.post(card_url + "confirm/", {"line": "EW", "agree": True}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    card = table.get(card_url)
    assert card.status_code == 200 and card.json()["vp"] == {"NS": 15, "EW": 5}
    body = {
        "hands": [{"mp": {"NS": 300, "EW": 100}}] * 2 + [{"mp": {"NS": 0, "EW": 0}}],
        "reason": "x",
    }
    assert table.put(card_url, body, format="json").status_code == 403
    assert referee.put(card_url, body, format="json").status_code == 428
    stale = referee.put(card_url, body, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    done = referee.put(card_url, body, format="json", HTTP_IF_MATCH=card["ETag"])
    assert done.status_code == 200 and done.json()["totals"] == {"NS": 600, "EW": 200}
    assert (
        _client(world, "rival")
        .put(card_url, body, format="json", HTTP_IF_MATCH=done["ETag"])
        .status_code
        == 403
    )


def test_tournament_and_standings_read_in_constant_queries(world) -> None:
    client = _client(world, "anonymous")
    event = world["event"]
    url = f"/api/v1/tournaments/{event.pk}/"
    answer = client.get(url)
    assert answer.status_code == 200
    data = answer.json()
    assert len(data["pairs"]) == 5 and data["turns"][0]["byes"] and data["game"] == "burraco"
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    big = tournament(21, club=event.club)
    tournaments.turn_seat(event=big, movement="first")
    with CaptureQueriesContext(connection) as large:
        client.get(f"/api/v1/tournaments/{big.pk}/")
    assert len(large) == len(small)
    play_turn(world["round"])
    rebuild_event_standings(event_id=event.pk)
    standings = client.get(f"/api/v1/tournaments/{event.pk}/standings/")
    assert standings.status_code == 200 and standings.json()["count"] == 5
    assert client.get("/api/v1/tournaments/999999/").status_code == 404


def test_the_referee_confirms_a_card_cut_short_by_time_through_the_api(world) -> None:
    table = _client(world, "table")
    table.post(_hands(world), {"line": "NS", "mp": {"NS": 300, "EW": 100}}, format="json")
    card_url = f"/api/v1/games/{world['table'].game.pk}/card/"
    referee = _client(world, "referee")
    etag = referee.get(card_url)["ETag"]
    body = {"hands": [{"mp": {"NS": 300, "EW": 100}}], "reason": "time is up"}
    kept_open = referee.put(card_url, body, format="json", HTTP_IF_MATCH=etag)
    assert kept_open.status_code == 200 and kept_open.json()["status"] == "open"
    done = referee.put(
        card_url, {**body, "time_out": True}, format="json", HTTP_IF_MATCH=kept_open["ETag"]
    )
    # One hand of three, difference 200: the three-hand table's 12-8.
    assert done.status_code == 200 and done.json()["status"] == "confirmed"
    assert done.json()["vp"] == {"NS": 12, "EW": 8}


def test_a_closed_tournaments_card_is_not_corrected_through_the_api(world) -> None:
    """A closed tournament's ranking is final: a correction is refused as every write on a
    closed event is (409 event_closed, the documented one), and nothing changes."""
    table = _client(world, "table")
    for _ in range(3):
        table.post(_hands(world), {"line": "NS", "mp": {"NS": 300, "EW": 100}}, format="json")
    card_url = f"/api/v1/games/{world['table'].game.pk}/card/"
    referee = _client(world, "referee")
    referee.post(card_url + "confirm/", {"line": "EW", "agree": True}, format="json")
    card = referee.get(card_url)
    Event.objects.filter(pk=world["event"].pk).update(status=Event.Status.CLOSED)

    body = {"hands": [{"mp": {"NS": 0, "EW": 400}}] * 3, "reason": "after the close"}
    refused = referee.put(card_url, body, format="json", HTTP_IF_MATCH=card["ETag"])

    assert refused.status_code == 409 and refused.json()["code"] == "event_closed"
    assert referee.get(card_url).json()["totals"] == card.json()["totals"]


def test_the_standings_say_who_withdrew_and_whose_card_was_short(world) -> None:
    """The marks the public ranking, the CSV and the PDF show (issue 31) are in the API's
    standings too: `withdrawn_after` (the turn after which the pair withdrew, null while
    it plays) and `short_turns` (the turns of its score cards confirmed short)."""
    table, other = world["table"], world["other"]
    referee = _client(world, "referee")
    _client(world, "table").post(
        _hands(world), {"line": "NS", "mp": {"NS": 300, "EW": 100}}, format="json"
    )
    card_url = f"/api/v1/games/{table.game.pk}/card/"
    body = {"hands": [{"mp": {"NS": 300, "EW": 100}}], "reason": "time", "time_out": True}
    etag = referee.get(card_url)["ETag"]
    assert referee.put(card_url, body, format="json", HTTP_IF_MATCH=etag).status_code == 200
    play_table(other.game, [(300, 100)] * world["round"].hands_per_turn)
    entries.pair_withdraw(pair=other.ew_pair)
    rebuild_event_standings(event_id=world["event"].pk)

    for url in ("tournaments", "events"):  # both readings of the ranking
        answer = referee.get(f"/api/v1/{url}/{world['event'].pk}/standings/")
        rows = answer.json()["results"]
        marks = {r["pair"]: (r["withdrawn_after"], r["short_turns"]) for r in rows}
        assert marks[table.ns_pair.number] == (None, [1]), url
        assert marks[table.ew_pair.number] == (None, [1]), url
        assert marks[other.ew_pair.number] == (1, []), url
        assert marks[other.ns_pair.number] == (None, []), url
