"""An evening of free matches: created with its target, tables formed by the organiser,
the match closed by the engine, no hand after it, another match at the same table."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.burraco import free_matches, scorecards
from games.burraco.tournaments import TournamentError
from games.core.errors import DealRejected, EntryError, GameClosed
from games.models import Event, PairTurnResult, ScoreCard
from tests.factories import make_club
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    pair,
    play_match,
    start,
)

pytestmark = pytest.mark.django_db


def test_the_evening_freezes_its_target_in_its_rules() -> None:
    event = free_evening(2, target=1505)
    assert event.is_free_matches and event.kind == Event.Kind.EVENING
    assert event.ruleset["options"]["target"] == 1505
    assert event.ranking == {"target": 1505}
    default = free_evening(2, club=burraco_club("Other", slug="other"))
    assert default.ruleset["options"]["target"] == 2005
    with pytest.raises(TournamentError) as error:
        free_matches.free_evening_create(
            club=default.club, name="x", starts_at=timezone.now(), target=1000
        )
    assert error.value.code == "invalid_target"


def test_a_match_to_2005_closes_itself_and_refuses_the_next_hand() -> None:
    event = free_evening(2)
    game = start(event, 1, 1, 2)
    play_match(game, MATCH_TO_2005[:4], confirm=False)
    card = ScoreCard.objects.get(game=game)
    body = scorecards.card_body(game, card)
    assert body["complete"] is False and body["hands_per_turn"] is None
    assert body["match"] == {"target": 2005, "needs": {"NS": 340, "EW": 805}}
    with pytest.raises(EntryError) as early:
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)
    assert early.value.code == "card_incomplete"
    play_match(game, MATCH_TO_2005[4:], confirm=False)
    card.refresh_from_db()
    assert card.status == ScoreCard.Status.ENTERED
    assert (card.ns_total, card.ew_total, card.ns_vp, card.ew_vp) == (2105, 1320, 20, 0)
    with pytest.raises(GameClosed) as after:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 5, "EW": 0}}, line="NS")
    assert after.value.code == "match_over" and after.value.status == 409
    assert "over" in after.value.message
    scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)
    with pytest.raises(GameClosed) as confirmed:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 5, "EW": 0}}, line="NS")
    assert confirmed.value.code == "match_over"
    rows = dict(PairTurnResult.objects.values_list("pair__number", "mp_for"))
    assert rows == {1: 2105, 2: 1320}
    assert set(PairTurnResult.objects.values_list("vp", flat=True)) == {0}


def test_level_above_the_target_plays_another_hand() -> None:
    event = free_evening(2, target=1005)
    game = start(event, 1, 1, 2)
    play_match(game, [(1100, 1100)], confirm=False)
    assert ScoreCard.objects.get(game=game).status == ScoreCard.Status.OPEN
    play_match(game, [(0, 50)], confirm=False)
    card = ScoreCard.objects.get(game=game)
    assert card.status == ScoreCard.Status.ENTERED
    assert scorecards.card_body(game, card)["winner"] == "EW"


def test_tables_and_pairs_play_one_match_at_a_time_and_the_table_plays_again() -> None:
    event = free_evening(4)
    first = start(event, 1, 1, 2)
    with pytest.raises(TournamentError) as busy:
        start(event, 1, 3, 4)
    assert busy.value.code == "table_playing"
    with pytest.raises(TournamentError) as playing:
        start(event, 2, 3, 1)
    assert playing.value.code == "pair_playing" and playing.value.params["table"] == 1
    with pytest.raises(TournamentError) as itself:
        start(event, 2, 3, 3)
    assert itself.value.code == "same_pair"
    other = start(event, 2, 3, 4)
    play_match(first, MATCH_TO_2005)
    again = free_matches.rematch(table=first.table)
    assert again.match == 2 and again.table.number == 1 and again.table.key != first.table.key
    assert again.table.round.number == 2
    play_match(other.table.game, MATCH_TO_2005, confirm=False)
    third = start(event, 2, 4, 3)
    assert third.table.round.number == 2
    # Pair 1 played round 2 at table 1: with pair 3 (round 2 at table 2) at table 5, round 3.
    play_match(again.game, MATCH_TO_2005)
    play_match(third, MATCH_TO_2005)
    fourth = start(event, 5, 1, 3)
    assert fourth.table.round.number == 3
    assert PairTurnResult.objects.filter(pair=pair(event, 1)).count() == 2


def test_pairs_from_another_evening_or_a_closed_evening_are_refused() -> None:
    event = free_evening(2)
    other = free_evening(2, club=make_club("Rival", slug="rival", game="burraco"), names="R")
    with pytest.raises(TournamentError) as foreign:
        free_matches.match_start(event=event, table_number=1, ns=pair(event, 1), ew=pair(other, 2))
    assert foreign.value.code == "bad_pair"
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    with pytest.raises(TournamentError) as closed:
        start(event, 1, 1, 2)
    assert closed.value.code == "event_closed"


def test_a_referee_correction_cannot_add_a_hand_after_the_winning_one() -> None:
    event = free_evening(2)
    game = start(event, 1, 1, 2)
    play_match(game, MATCH_TO_2005)
    hands = [{"mp": {"NS": a, "EW": b}} for a, b in MATCH_TO_2005]
    with pytest.raises(DealRejected) as error:
        scorecards.card_correct(
            game_id=game.pk, hands=[*hands, {"mp": {"NS": 0, "EW": 0}}], reason="typo", by_user=None
        )
    assert error.value.problems[0]["code"] == "match_over"
    card = scorecards.card_correct(game_id=game.pk, hands=hands[:4], reason="typo", by_user=None)
    assert card.status == ScoreCard.Status.OPEN
