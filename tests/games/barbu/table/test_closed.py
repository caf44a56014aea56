"""A closed round or evening takes no more deals: table page, API, organiser reopen/correct."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.barbu.submission import deal_submit
from games.core import closing
from games.models import Deal, DealRevision, EventLog, Round
from scoring.engine.barbu.randomgame import random_game
from scoring.models import EventStanding
from tests.factories import NAMES, make_organiser
from tests.games.barbu.deal_forms import form_data
from tests.games.barbu.table.pages import entry_url

# Standings are read after each close: built in-process even where REDIS_URL is set.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

DEALS = random_game(random.Random(3), "italian7", players=list(NAMES))["deals"]


@pytest.fixture
def organiser(club):
    return make_organiser(club, "boss")


def played(game, count: int = 3):
    for deal in DEALS[:count]:
        deal_submit(game_id=game.pk, deal=deal)


def api_post(game, deal: dict, **credentials):
    api = APIClient()
    if "user" in credentials:
        api.force_authenticate(credentials["user"])
    else:
        api.credentials(HTTP_X_TABLE_KEY=game.table.key)
    return api.post(f"/api/v1/games/{game.pk}/deals/", deal, format="json")


def standings(event) -> dict[str, str]:
    rows = EventStanding.objects.filter(event=event).select_related("player")
    return {row.player.name: str(row.points) for row in rows}


@pytest.mark.parametrize("what", ["round", "event"])
def test_a_closed_round_or_evening_takes_no_deal_anywhere(
    client, game, organiser, what, django_capture_on_commit_callbacks
):
    rnd = game.table.round
    event = rnd.event
    with django_capture_on_commit_callbacks(execute=True):
        played(game)
        if what == "round":
            closing.round_close(rnd=rnd, force=True, by_user=organiser)
            said, code = "Round 1 is closed: no more deals can be entered.", "round_closed"
        else:
            closing.event_close(event=event, unfinished="count", by_user=organiser)
            said, code = "This evening is closed: no more deals can be entered.", "event_closed"
    before = standings(event)
    assert before

    page = client.get(entry_url(game)).content.decode()
    assert said in page
    assert 'id="entry-form"' not in page and "deal-form-data" not in page
    answer = client.post(entry_url(game, "table-deal"), form_data(DEALS[3], NAMES, 4))
    assert answer.status_code == 409
    assert said in answer.content.decode()
    assert 'id="entry-form"' not in answer.content.decode()

    for credentials in ({}, {"user": organiser}):  # the table's key, and the organiser
        answer = api_post(game, {**DEALS[3], "number": 4}, **credentials)
        assert answer.status_code == 409, answer.json()
        assert answer.json()["code"] == code
        assert answer.json()["message"] == said
    assert Deal.objects.filter(game=game).count() == 3
    assert DealRevision.objects.filter(game=game).count() == 3
    game.refresh_from_db()
    assert game.deals_count == 3
    assert standings(event) == before


def test_the_organiser_reopens_a_round_audited_then_the_table_goes_on(client, game, organiser):
    played(game)
    rnd = game.table.round
    event = rnd.event
    client.force_login(organiser)
    slug = event.club.slug
    client.post(reverse("round-close", args=[slug, event.pk, 1]), {"force": "on"})
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    assert api_post(game, DEALS[3]).status_code == 409
    dashboard = client.get(reverse("event-dashboard", args=[slug, event.pk])).content.decode()
    assert 'id="round-1-reopen"' in dashboard

    client.post(reverse("round-reopen", args=[slug, event.pk, 1]))
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.OPEN
    log = list(
        EventLog.objects.filter(event=event).values_list("round__number", "action", "by_user")
    )
    assert log == [(1, "closed", organiser.pk), (1, "reopened", organiser.pk)]
    assert all(entry.at for entry in EventLog.objects.all())
    dashboard = client.get(reverse("event-dashboard", args=[slug, event.pk])).content.decode()
    assert 'id="event-log"' in dashboard and "boss" in dashboard
    assert api_post(game, DEALS[3]).status_code == 201


def test_the_organiser_reopens_the_evening_and_its_last_round(client, game, organiser):
    played(game)
    event = game.table.round.event
    client.force_login(organiser)
    slug = event.club.slug
    refused = client.post(reverse("event-close", args=[slug, event.pk]), follow=True)
    # One unfinished game: said in the singular.
    assert "Choose whether it counts as it stands or not at all" in refused.content.decode()
    event.refresh_from_db()
    assert event.status != "closed"
    client.post(reverse("event-close", args=[slug, event.pk]), {"unfinished": "exclude"})
    event.refresh_from_db()
    assert event.status == "closed" and event.unfinished == "exclude"
    page = client.get(reverse("event-dashboard", args=[slug, event.pk])).content.decode()
    assert "Games not finished do not count in the standings." in page
    assert 'id="event-reopen-submit"' in page
    client.post(reverse("event-reopen", args=[slug, event.pk]))
    event.refresh_from_db()
    assert event.status == "running"
    assert Round.objects.get(event=event).status == Round.Status.OPEN
    actions = list(EventLog.objects.filter(event=event).values_list("action", "by_user", "detail"))
    assert [a[:2] for a in actions] == [("closed", organiser.pk), ("reopened", organiser.pk)]
    assert actions[0][2]["unfinished"] == "exclude"
    assert actions[0][2]["unfinished_games"] == [game.pk]
    assert api_post(game, DEALS[3]).status_code == 201


def test_a_stored_deal_of_a_closed_evening_can_still_be_corrected(
    game, organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        played(game)
        event = game.table.round.event
        closing.event_close(event=event, unfinished="count", by_user=organiser)
    before = standings(event)
    assert before
    first = Deal.objects.get(game=game, number=1)
    corrected = dict(first.data)
    assert corrected["contract"] == "barbu", "seed 3 starts with the king of hearts"
    taker = corrected["result"]["king_of_hearts"]
    corrected["result"] = {"king_of_hearts": next(n for n in NAMES if n != taker)}
    api = APIClient()
    api.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.put(
            f"/api/v1/games/{game.pk}/deals/1/", corrected, format="json", HTTP_IF_MATCH='"1"'
        )
    assert answer.status_code == 200, answer.json()
    revision = DealRevision.objects.get(game=game, number=1, action="corrected")
    assert revision.by_user == organiser
    assert standings(event) != before
    assert Deal.objects.filter(game=game).count() == 3
