"""Penalties for any turn, before or after its card (issue 31, desk item 8): an
infraction of an earlier turn is penalised from the desk in that turn, and a pair whose
table has not entered a hand yet can be penalised too (its result row made then, with
its table and opponent, and kept when the hands come in)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import scorecards, tournaments
from games.core.errors import EntryError
from games.models import PairTurnResult
from tests.factories import make_organiser
from tests.games.burraco.builders import pair, play_table, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_turn():
    event = tournament(4)
    first = tournaments.turn_seat(event=event, movement="first").round
    play_turn(first)
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    return event, first, second, client


def _penalise(client, event, number: int, **fields):
    url = reverse("burraco-penalty", args=[event.club.slug, event.pk, number])
    return client.post(url, {"vp": "2", "mp": "0", "reason": "slow play", **fields}, follow=True)


def test_the_desk_penalises_a_pair_in_an_earlier_turn(second_turn) -> None:
    event, first, second, client = second_turn
    page = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    assert 'name="turn"' in page  # the turn of the infraction, the current one by default
    answer = _penalise(client, event, second.number, pair=pair(event, 1).pk, turn="1")
    assert "Penalty recorded." in answer.content.decode()
    row = PairTurnResult.objects.get(round=first, pair=pair(event, 1))
    assert row.penalty_vp == Decimal(2)
    assert not PairTurnResult.objects.filter(round=second, pair=pair(event, 1)).exists()


def test_a_pair_is_penalised_before_its_table_entered_a_hand(second_turn) -> None:
    _event, _first, second, _client = second_turn
    table = second.tables.select_related("game").get(number=1)
    row = scorecards.penalty_set(
        round_id=second.pk, pair_id=table.ns_pair_id, vp=3, mp=0, reason="late", by_user=None
    )
    assert row.vp == 0 and row.hands == 0 and row.final is False
    assert row.table_id == table.pk and row.opponent_id == table.ew_pair_id
    play_table(table.game, [(300, 100)] * 3)
    row.refresh_from_db()
    assert row.penalty_vp == Decimal(3) and row.hands == 3 and row.vp == Decimal(15)


def test_a_pair_not_playing_the_turn_is_still_refused() -> None:
    event = tournament(5)
    first = tournaments.turn_seat(event=event, movement="first").round
    play_turn(first)
    tournaments.pair_withdraw(pair=pair(event, 5))
    second = tournaments.turn_seat(event=event, movement="danese").round
    with pytest.raises(EntryError) as refused:
        scorecards.penalty_set(
            round_id=second.pk, pair_id=pair(event, 5).pk, vp=1, mp=0, reason="x", by_user=None
        )
    assert refused.value.code == "no_result"
