"""The desk runs the tournament to its end (issue 31, item 5 of the desk): "Close the
tournament" (ticked to confirm, refused while a score card is unconfirmed) and "Reopen",
both in the tournament's log; the ranking then says final; nothing offered past the last
planned turn, and an individual tournament refuses a turn beyond them. The API's
POST /api/v1/tournaments/<id>/close/ and /reopen/, organisers only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.burraco import scorecards, tournaments
from games.burraco.tournament_base import TournamentError
from games.models import Event, EventLog
from scoring.burraco.selectors import tournament_ranking
from tests.factories import make_organiser
from tests.games.burraco.builders import individual_tournament, play_table, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_turns():
    """A five-pair tournament of two turns, both seated and played but for table 2 of
    turn 2 (its card entered, not confirmed); the referee logged in at the desk."""
    event = tournament(5, turns=2)
    first = tournaments.turn_seat(event=event, movement="first").round
    play_turn(first)
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    for table in second.tables.select_related("game").order_by("number"):
        play_table(table.game, [(300, 100)] * 3, confirm=table.number != 2)
    desk = Client()
    make_organiser(event.club, "referee")
    desk.login(username="referee", password="tavolo-test")
    return event, second, desk


def _desk(event: Event) -> str:
    return reverse("burraco-desk", kwargs={"slug": event.club.slug, "event_id": event.pk})


def _close(event: Event) -> str:
    return reverse(
        "burraco-tournament-close", kwargs={"slug": event.club.slug, "event_id": event.pk}
    )


def _reopen(event: Event) -> str:
    return reverse(
        "burraco-tournament-reopen", kwargs={"slug": event.club.slug, "event_id": event.pk}
    )


def _confirm_the_rest(rnd) -> None:
    game = rnd.tables.get(number=2).game
    scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)


def test_the_desk_offers_close_and_no_turn_past_the_last(two_turns) -> None:
    event, _second, desk = two_turns
    page = desk.get(_desk(event)).content.decode()
    assert 'id="close-tournament"' in page and "Close the tournament" in page
    assert 'name="confirm"' in page  # ticked to confirm
    assert 'id="turn-seat-form"' not in page
    assert "All planned turns are seated (2)" in page


def test_close_is_refused_while_a_card_is_unconfirmed(two_turns) -> None:
    event, _second, desk = two_turns
    answer = desk.post(_close(event), {"confirm": "on"}, follow=True)
    assert "turn 2: table 2" in answer.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_close_needs_its_box_ticked(two_turns) -> None:
    event, second, desk = two_turns
    _confirm_the_rest(second)
    answer = desk.post(_close(event), {}, follow=True)
    assert "Tick the box to close the tournament." in answer.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_closed_the_ranking_is_final_and_reopened_provisional_again(two_turns) -> None:
    event, second, desk = two_turns
    assert tournament_ranking(event)[2] is False
    _confirm_the_rest(second)
    answer = desk.post(_close(event), {"confirm": "on"}, follow=True)
    assert "Tournament closed: the ranking is final." in answer.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    assert tournament_ranking(event)[2] is True
    log = EventLog.objects.filter(event=event, action__in=["closed", "reopened"]).order_by("pk")
    assert [(e.action, e.by_user.username) for e in log] == [(EventLog.Action.CLOSED, "referee")]
    page = desk.get(_desk(event)).content.decode()
    assert 'id="reopen-tournament"' in page and 'id="close-tournament"' not in page
    desk.post(_reopen(event))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert tournament_ranking(event)[2] is False
    assert EventLog.objects.filter(event=event, action=EventLog.Action.REOPENED).count() == 1


def test_an_individual_tournament_refuses_a_turn_past_its_planned_turns() -> None:
    event = individual_tournament(8, turns=1)
    first = tournaments.turn_seat(event=event, movement="individual").round
    play_turn(first)
    with pytest.raises(TournamentError) as refused:
        tournaments.turn_seat(event=event, movement="individual")
    assert refused.value.code == "turns_over"
    assert event.rounds.count() == 1


def test_the_api_closes_and_reopens_for_organisers_only(two_turns) -> None:
    event, second, _desk = two_turns
    url = f"/api/v1/tournaments/{event.pk}/close/"
    referee = APIClient()
    user = get_user_model().objects.get(username="referee")
    referee.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    table = APIClient()
    table.credentials(HTTP_X_TABLE_KEY=second.tables.first().key)
    assert table.post(url).status_code == 403
    early = referee.post(url)
    assert early.status_code == 409 and early.json()["code"] == "cards_unconfirmed"
    assert early.json()["params"]["tables"] == [{"turn": 2, "table": 2}]
    _confirm_the_rest(second)
    closed = referee.post(url)
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    assert closed.json()["final"] is True
    again = referee.post(url)
    assert again.status_code == 200 and again.json()["status"] == "closed"
    reopened = referee.post(f"/api/v1/tournaments/{event.pk}/reopen/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
