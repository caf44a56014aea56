"""The turn's clock on the phones and the late tables on the desk (issue 31, items 4 and
12): the score card counts the turn's time down; a hand saved after time is marked (on the
card, through the API, on the desk and in the card's history); once time is up the desk
lists the tables whose card is not complete."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.burraco import tournaments
from games.burraco.turn_clock import after_time, seconds_left, turn_ends_at
from games.models import BurracoHand, ScoreCardRevision
from tests.downgrade_plans import refused_by
from tests.factories import make_organiser
from tests.games.burraco.builders import play_table, tournament
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db


def _turn(pairs: int = 5, *, minutes: int | None = 60, ago: int = 0, club=None):
    """Turn 1 seated `ago` minutes ago, with a time limit of `minutes`."""
    event = tournament(pairs, club=club)
    now = timezone.now() - timedelta(minutes=ago)
    rnd = tournaments.turn_seat(event=event, movement="first", time_limit=minutes, now=now).round
    return event, rnd


def _enter(client, table, number: int) -> None:
    form = {"mode": "mp", "NS-mp": "300", "EW-mp": "100", "number": str(number)}
    assert client.post(reverse("burraco-card-hand", args=[table.key]), form).status_code == 302


def _page(client, table) -> str:
    return client.get(reverse("burraco-card", args=[table.key])).content.decode()


def _referee(event) -> Client:
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    return client


def test_the_clock_reads_the_turns_time_limit() -> None:
    _event, rnd = _turn(minutes=45, ago=10)
    now = timezone.now()
    assert turn_ends_at(rnd) == rnd.started_at + timedelta(minutes=45)
    assert 34 * 60 < seconds_left(rnd, now) <= 35 * 60
    assert not after_time(rnd, now)
    assert after_time(rnd, now + timedelta(minutes=36))
    _event, free = _turn(minutes=None, club=_event.club)
    assert turn_ends_at(free) is None and seconds_left(free, now) is None
    assert not after_time(free, now + timedelta(days=1))


def test_the_phone_shows_the_time_left_and_then_that_time_is_up() -> None:
    _event, rnd = _turn(minutes=60, ago=15)
    table = rnd.tables.get(number=1)
    page = _page(phone(table, "NS"), table)
    assert 'id="turn-clock"' in page and 'role="timer"' in page
    assert "Time left: 45 minutes" in page
    seconds = int(page.split('data-seconds-left="')[1].split('"')[0])
    assert 44 * 60 < seconds <= 45 * 60
    _event, late = _turn(minutes=60, ago=61, club=_event.club)
    table = late.tables.get(number=1)
    assert "Time is up: hands saved now are marked as after time." in _page(phone(table), table)


def test_no_clock_without_a_time_limit() -> None:
    _event, rnd = _turn(minutes=None)
    table = rnd.tables.get(number=1)
    assert 'id="turn-clock"' not in _page(phone(table, "NS"), table)


def test_a_hand_saved_after_time_is_marked_on_the_card_and_in_its_history() -> None:
    event, rnd = _turn(minutes=60, ago=59)
    table = rnd.tables.get(number=1)
    ns, ew = phone(table, "NS"), phone(table, "EW")
    _enter(ns, table, 1)
    rnd.started_at -= timedelta(minutes=2)  # the turn's time runs out
    rnd.save(update_fields=["started_at"])
    _enter(ns, table, 2)
    assert list(BurracoHand.objects.filter(game=table.game).values_list("late", flat=True)) == [
        False,
        True,
    ]
    entered = ScoreCardRevision.objects.filter(
        game=table.game, action=ScoreCardRevision.Action.ENTERED
    )
    assert [r.late for r in entered.order_by("number")] == [False, True]
    page = _page(ew, table)
    assert 'id="hand-2-late"' in page and "Saved after time" in page
    assert 'id="hand-1-late"' not in page
    history = _referee(event).get(
        reverse("burraco-card-correct", args=[event.club.slug, event.pk, table.game.pk])
    )
    items = history.content.decode().split('id="card-history"')[1].split("<li>")
    assert ["after time" in item for item in items[1:]] == [False, True]


def test_the_api_card_says_which_hands_were_late() -> None:
    event, rnd = _turn(minutes=30, ago=31)
    table = rnd.tables.get(number=1)
    _enter(phone(table, "NS"), table, 1)
    referee = _referee(event)
    body = referee.get(f"/api/v1/games/{table.game.pk}/card/").json()
    assert [h["late"] for h in body["hands"]] == [True]


def _desk(client, event) -> str:
    return client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()


def test_the_desk_lists_the_late_tables_once_time_is_up() -> None:
    event, rnd = _turn(pairs=6, minutes=60, ago=30)
    referee = _referee(event)
    assert 'id="late-tables"' not in _desk(referee, event)  # time left: no list
    tables = {t.number: t for t in rnd.tables.select_related("game")}
    play_table(tables[1].game, [(300, 100)] * 3)  # done and confirmed
    play_table(tables[2].game, [(300, 100)] * 3, confirm=False)  # waiting for EW
    rnd.started_at -= timedelta(minutes=31)
    rnd.save(update_fields=["started_at"])
    _enter(phone(tables[3], "NS"), tables[3], 1)  # after time
    page = _desk(referee, event)
    assert 'id="late-tables"' in page
    assert "Time is up and 2 score cards are not complete:" in page
    assert 'id="late-table-1"' not in page
    assert "all hands in, not confirmed yet" in page.split('id="late-table-2"')[1].split("</li>")[0]
    assert "1 hand of 3" in page.split('id="late-table-3"')[1].split("</li>")[0]
    assert "Hands saved after time: table 3 (hand 1)" in page


def test_no_late_list_for_a_turn_without_a_time_limit() -> None:
    event, _rnd = _turn(minutes=None)
    assert 'id="late-tables"' not in _desk(_referee(event), event)


def test_the_late_list_costs_the_same_queries_for_one_late_table_as_for_many() -> None:
    event, rnd = _turn(pairs=8, minutes=10, ago=11)
    referee = _referee(event)
    tables = list(rnd.tables.order_by("number"))
    _enter(phone(tables[0], "NS"), tables[0], 1)
    _desk(referee, event)
    with CaptureQueriesContext(connection) as one:
        _desk(referee, event)
    for table in tables[1:]:
        _enter(phone(table, "NS"), table, 1)
    with CaptureQueriesContext(connection) as many:
        page = _desk(referee, event)
    assert "table 4 (hand 1)" in page
    assert len(many) == len(one)


def test_going_back_before_the_marks_is_refused_while_a_hand_is_marked() -> None:
    _event, rnd = _turn(minutes=30, ago=10)
    table = rnd.tables.get(number=1)
    ns = phone(table, "NS")
    _enter(ns, table, 1)
    before = "0014_burracotablekey"
    assert "games.0016_burraco_late_and_undo" not in refused_by("games", before)
    rnd.started_at -= timedelta(minutes=30)
    rnd.save(update_fields=["started_at"])
    _enter(ns, table, 2)
    assert refused_by("games", before)["games.0016_burraco_late_and_undo"] == (
        "1 hand saved after time (games.BurracoHand); "
        "1 score card history line after time (games.ScoreCardRevision)"
    )


def test_a_past_turn_replayed_without_a_client_is_not_marked() -> None:
    """The demo plays its past turns now, naming no client: none of its hands is late."""
    _event, rnd = _turn(minutes=30, ago=300)
    table = rnd.tables.get(number=1)
    play_table(table.game, [(300, 100)] * 3)
    assert not BurracoHand.objects.filter(game=table.game, late=True).exists()
