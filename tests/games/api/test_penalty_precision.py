"""A desk penalty takes what can be stored: VP with at most two decimals. 0.001 VP is
refused, not "recorded" as 0.00 with 0.001 in the history (issue 32, point 7)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from games.burraco import scorecards, tournaments
from games.core.errors import EntryError
from games.models import PairTurnResult, ScoreCardRevision
from tests.factories import make_organiser
from tests.games.burraco.builders import play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def turn():
    event = tournament(4)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    return rnd


@pytest.mark.parametrize("vp", ["0.001", "1.005", Decimal("2.125"), 0.001, "NaN", "Infinity"])
def test_the_service_refuses_vp_it_cannot_store(turn, vp) -> None:
    pair_id = turn.tables.first().ns_pair_id
    with pytest.raises(EntryError) as refused:
        scorecards.penalty_set(
            round_id=turn.pk, pair_id=pair_id, vp=vp, mp=0, reason="late", by_user=None
        )
    assert refused.value.code == "hand_rejected"
    assert refused.value.problems[0]["code"] == "invalid_penalty"
    assert not ScoreCardRevision.objects.filter(action=ScoreCardRevision.Action.PENALTY).exists()


@pytest.mark.parametrize("vp", ["0.5", "1.25", "2.10", "3"])
def test_what_can_be_stored_is_stored_and_recorded_alike(turn, vp) -> None:
    pair_id = turn.tables.first().ns_pair_id
    scorecards.penalty_set(
        round_id=turn.pk, pair_id=pair_id, vp=vp, mp=0, reason="late", by_user=None
    )
    row = PairTurnResult.objects.get(round=turn, pair_id=pair_id)
    revision = ScoreCardRevision.objects.get(action=ScoreCardRevision.Action.PENALTY)
    assert row.penalty_vp == Decimal(vp)
    assert Decimal(revision.after["vp"]) == row.penalty_vp


def test_the_desk_says_so_and_records_nothing(client, turn) -> None:
    event = turn.event
    make_organiser(event.club, "referee")
    client.login(username="referee", password="tavolo-test")
    table = turn.tables.first()
    answer = client.post(
        reverse("burraco-penalty", args=[event.club.slug, event.pk, turn.number]),
        {"pair": table.ns_pair_id, "vp": "0.001", "mp": "0", "reason": "slow play"},
    )
    assert answer.status_code != 302
    assert "Penalty recorded" not in answer.content.decode()
    row = PairTurnResult.objects.get(round=turn, pair_id=table.ns_pair_id)
    assert row.penalty_vp == 0
    assert not ScoreCardRevision.objects.filter(action=ScoreCardRevision.Action.PENALTY).exists()
