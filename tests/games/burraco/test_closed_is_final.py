"""A closed tournament's ranking is final (issue 31, found by the Saturday browser test):
the referee's correction of a score card and a penalty are refused until it is reopened,
and nothing is changed; reopened, both are taken again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import scorecards, tournaments
from games.burraco.closing import tournament_close, tournament_reopen
from games.core.errors import EntryError
from games.models import BurracoHand, PairTurnResult
from tests.factories import make_organiser
from tests.games.burraco.builders import pair, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed():
    event = tournament(4, turns=1, hands=2)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    tournament_close(event=event)
    return event, rnd


def _stored(event) -> tuple[list, list]:
    results = PairTurnResult.objects.filter(round__event=event).order_by("pk").values()
    hands = BurracoHand.objects.filter(game__table__round__event=event).order_by("pk").values()
    return list(results), list(hands)


def test_a_correction_or_a_penalty_of_a_closed_tournament_is_refused(closed) -> None:
    event, rnd = closed
    before = _stored(event)
    game = rnd.tables.get(number=1).game
    with pytest.raises(EntryError) as refused:
        scorecards.card_correct(
            game_id=game.pk,
            hands=[{"mp": {"NS": 0, "EW": 500}}] * 2,
            reason="late",
            by_user=None,
        )
    assert refused.value.code == "event_closed"
    with pytest.raises(EntryError) as refused:
        scorecards.penalty_set(
            round_id=rnd.pk, pair_id=pair(event, 1).pk, vp=1, mp=0, reason="late", by_user=None
        )
    assert refused.value.code == "event_closed"
    assert _stored(event) == before


def test_the_desk_says_so_and_offers_no_penalty_form(closed) -> None:
    event, rnd = closed
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    before = _stored(event)
    desk = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk]))
    assert b'id="penalty-form"' not in desk.content
    answer = client.post(
        reverse("burraco-penalty", args=[event.club.slug, event.pk, rnd.number]),
        {"pair": pair(event, 1).pk, "vp": "1", "mp": "0", "reason": "late"},
        follow=True,
    )
    assert "This tournament is closed" in answer.content.decode()
    game = rnd.tables.get(number=1).game
    url = reverse("burraco-card-correct", args=[event.club.slug, event.pk, game.pk])
    fields = {"version": game.card.version, "reason": "late", "h1-NS": "0", "h1-EW": "500"}
    answer = client.post(url, {**fields, "h2-NS": "0", "h2-EW": "500"})
    assert answer.status_code == 400
    assert "This tournament is closed" in answer.content.decode()
    assert _stored(event) == before


def test_reopened_it_takes_them_again(closed) -> None:
    event, rnd = closed
    tournament_reopen(event=event)
    game = rnd.tables.get(number=1).game
    scorecards.card_correct(
        game_id=game.pk, hands=[{"mp": {"NS": 0, "EW": 500}}] * 2, reason="late", by_user=None
    )
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=pair(event, 1).pk, vp=1, mp=0, reason="late", by_user=None
    )
    assert game.hands.filter(ns_mp=0, ew_mp=500).count() == 2
    assert PairTurnResult.objects.get(round=rnd, pair=pair(event, 1)).penalty_vp == 1
