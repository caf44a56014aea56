"""The Burraco tournament's services: entries, seating turns, score cards, corrections,
penalties and the stored ranking (on SQLite, and PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from clubs.models import Club
from games.burraco import scorecards, tournaments
from games.core.errors import DealConflict, DealRejected, EntryError, GameClosed, StaleVersion
from games.models import (
    Event,
    Game,
    PairTurnResult,
    ScoreCard,
    ScoreCardRevision,
)
from scoring.models import PairStanding
from scoring.rebuild import rebuild_event_standings
from tests.factories import make_player
from tests.games.burraco.builders import burraco_club, pair, play_table, play_turn, tournament

pytestmark = pytest.mark.django_db


def test_a_tournament_freezes_the_clubs_burraco_rules_and_plays_burraco() -> None:
    club = burraco_club()
    club.burraco_ruleset = {"preset": "international", "options": {}}
    club.save()
    event = tournament(4, club=club)
    assert event.game == "burraco" and event.is_burraco
    assert event.ruleset["preset"] == "international"
    assert event.ranking["hands_per_turn"] == 3
    assert list(event.pairs.values_list("number", flat=True)) == [1, 2, 3, 4]


def test_club_default_game() -> None:
    assert burraco_club().default_game == "burraco"
    both = burraco_club("Both", game=Club.Games.BOTH)
    assert both.default_game == "barbu" and both.plays("burraco") and both.plays("barbu")


def test_first_turn_mitchell_by_entry_order_with_a_bye() -> None:
    event = tournament(7)
    seated = tournaments.turn_seat(event=event, movement="first", first_order="entry", seed=1)
    rnd = seated.round
    assert rnd.number == 1 and rnd.movement == "mitchell" and rnd.hands_per_turn == 3
    tables = list(rnd.tables.order_by("number"))
    assert len(tables) == 3
    seated_pairs = {t.ns_pair.number for t in tables} | {t.ew_pair.number for t in tables}
    bye = PairTurnResult.objects.get(round=rnd, bye=True)
    assert seated_pairs | {bye.pair.number} == set(range(1, 8))
    # The bye's configured score: 14 VP and the lowest MP of the 14-6 band (+355, 3 hands).
    assert bye.vp == Decimal(14) and bye.mp_for - bye.mp_against == 355 and bye.final
    game = tables[0].game
    assert game.kind == Game.Kind.BURRACO and game.deals_target == 3
    assert ScoreCard.objects.get(game=game).status == "open"
    assert event.__class__.objects.get(pk=event.pk).status == Event.Status.RUNNING


def test_a_hand_is_stored_once_and_the_card_totals_follow() -> None:
    event = tournament(4)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    game = rnd.tables.get(number=1).game
    first = scorecards.hand_submit(
        game_id=game.pk,
        hand={"number": 1, "mp": {"NS": 300, "EW": 100}},
        line="NS",
        idempotency_key="k1",
    )
    assert first.status_code == 201 and first.body["totals"] == {"NS": 300, "EW": 100}
    # The same request again: the same answer, nothing stored twice.
    again = scorecards.hand_submit(
        game_id=game.pk,
        hand={"number": 1, "mp": {"NS": 300, "EW": 100}},
        line="NS",
        idempotency_key="k1",
    )
    assert again.body == first.body and not again.created
    same = scorecards.hand_submit(
        game_id=game.pk, hand={"number": 1, "mp": {"NS": 300, "EW": 100}}, line="NS"
    )
    assert same.status_code == 200
    with pytest.raises(DealConflict):
        scorecards.hand_submit(
            game_id=game.pk, hand={"number": 1, "mp": {"NS": 305, "EW": 100}}, line="NS"
        )
    assert game.hands.count() == 1
    # 3-hand VP table: a 200 difference is 12-8.
    card = ScoreCard.objects.get(game=game)
    assert (card.ns_vp, card.ew_vp) == (12, 8)


def test_bad_input_is_refused_with_the_engines_message_and_nothing_is_stored() -> None:
    event = tournament(4)
    game = tournaments.turn_seat(event=event, movement="first").round.tables.first().game
    with pytest.raises(DealRejected) as error:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 303, "EW": 0}}, line="NS")
    assert error.value.problems[0]["code"] == "mp_not_multiple_of_5"
    with pytest.raises(DealRejected) as error:
        scorecards.hand_submit(
            game_id=game.pk,
            hand={
                "closed": "NS",
                "NS": {"melded": 300, "in_hand": 0, "pozzetto": True},
                "EW": {"melded": 100, "in_hand": 40},
            },
            line="NS",
        )
    assert error.value.problems[0]["code"] == "close_without_burraco"
    assert "burraco" in error.value.message
    assert game.hands.count() == 0


def test_a_hand_counted_from_the_cards_uses_the_calculator() -> None:
    event = tournament(4)
    game = tournaments.turn_seat(event=event, movement="first").round.tables.first().game
    answer = scorecards.hand_submit(
        game_id=game.pk,
        hand={
            "closed": "NS",
            "NS": {"melded": 560, "in_hand": 25, "clean": 1, "dirty": 1, "pozzetto": True},
            "EW": {"melded": {"aces": 5, "high": 14, "low": 18}, "in_hand": 85},
        },
        line="NS",
    )
    assert answer.body["totals"] == {"NS": 935, "EW": 120}
    assert answer.body["hands"][0]["mode"] == "cards"


def test_the_other_pair_confirms_and_the_entering_pair_cannot() -> None:
    event = tournament(4)
    game = tournaments.turn_seat(event=event, movement="first").round.tables.first().game
    play_table(game, [(300, 100)] * 2, confirm=False)
    with pytest.raises(EntryError) as error:
        scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)
    assert error.value.code == "card_incomplete"
    with pytest.raises(EntryError) as error:
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 0, "EW": 0}}, line="EW")
    assert error.value.code == "other_line_enters"
    play_table(game, [(300, 100)], confirm=False)
    with pytest.raises(EntryError) as error:
        scorecards.card_confirm(game_id=game.pk, line="NS", agree=True)
    assert error.value.code == "confirm_same_line"
    scorecards.card_confirm(game_id=game.pk, line="EW", agree=True)
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE
    rows = PairTurnResult.objects.filter(table=game.table)
    assert {(r.line, r.vp, r.final) for r in rows} == {("NS", 15, True), ("EW", 5, True)}
    with pytest.raises(GameClosed):
        scorecards.hand_submit(game_id=game.pk, hand={"mp": {"NS": 0, "EW": 0}}, line="NS")


def test_a_disputed_card_goes_to_the_referee_who_corrects_it_with_a_reason() -> None:
    event = tournament(4)
    game = tournaments.turn_seat(event=event, movement="first").round.tables.first().game
    play_table(game, [(300, 100)] * 3, confirm=False)
    scorecards.card_confirm(game_id=game.pk, line="EW", agree=False, note="hand 2 is wrong")
    card = ScoreCard.objects.get(game=game)
    assert card.status == "disputed"
    with pytest.raises(EntryError):
        scorecards.card_correct(game_id=game.pk, hands=[], reason=" ", by_user=None)
    with pytest.raises(StaleVersion):
        scorecards.card_correct(
            game_id=game.pk,
            hands=[{"mp": {"NS": 300, "EW": 100}}] * 3,
            reason="hand 2",
            by_user=None,
            expected_version=card.version - 1,
        )
    scorecards.card_correct(
        game_id=game.pk,
        hands=[
            {"mp": {"NS": 300, "EW": 100}},
            {"mp": {"NS": 100, "EW": 300}},
            {"mp": {"NS": 300, "EW": 100}},
        ],
        reason="hand 2 went to EW",
        by_user=None,
        expected_version=card.version,
    )
    card.refresh_from_db()
    assert card.status == "confirmed" and (card.ns_total, card.ew_total) == (700, 500)
    revision = ScoreCardRevision.objects.get(game=game, action="corrected")
    assert revision.reason == "hand 2 went to EW" and len(revision.before["hands"]) == 3


def test_next_turn_needs_every_card_confirmed_then_seats_in_one_action() -> None:
    event = tournament(6)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    with pytest.raises(EntryError) as error:
        tournaments.turn_seat(event=event, movement="mitchell")
    assert error.value.code == "cards_missing"
    play_turn(rnd)
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    rnd.refresh_from_db()
    assert rnd.status == "closed" and second.number == 2
    first = {(t.ns_pair_id, t.ew_pair_id) for t in rnd.tables.all()}
    again = {(t.ns_pair_id, t.ew_pair_id) for t in second.tables.all()}
    assert not first & again
    # NS pairs stay at their tables in Mitchell.
    assert [t.ns_pair_id for t in rnd.tables.order_by("number")] == [
        t.ns_pair_id for t in second.tables.order_by("number")
    ]


def test_danese_seats_from_the_ranking_and_corrections_change_only_results() -> None:
    event = tournament(7)
    for movement in ("first", "mitchell"):
        rnd = tournaments.turn_seat(event=event, movement=movement).round
        play_turn(rnd)
    third = tournaments.turn_seat(event=event, movement="danese", variant="no_rematch").round
    assert third.movement == "danese" and third.movement_variant == "no_rematch"
    seating = {(t.number, t.ns_pair_id, t.ew_pair_id) for t in third.tables.all()}
    met = {
        frozenset((r.pair_id, r.opponent_id))
        for r in PairTurnResult.objects.filter(round__event=event, bye=False).exclude(round=third)
    }
    assert all(frozenset((ns, ew)) not in met for _, ns, ew in seating)
    # A correction of turn 1 once turn 3 is seated: results change, the seating never.
    game = event.rounds.get(number=1).tables.get(number=1).game
    scorecards.card_correct(
        game_id=game.pk, hands=[{"mp": {"NS": 0, "EW": 900}}] * 3, reason="swapped", by_user=None
    )
    assert {(t.number, t.ns_pair_id, t.ew_pair_id) for t in third.tables.all()} == seating
    ns = PairTurnResult.objects.get(round__number=1, table=game.table, line="NS")
    assert ns.vp == 0 and ns.mp_against == 2700


def test_penalty_takes_from_one_pair_only_and_the_ranking_shows_it() -> None:
    event = tournament(4)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    table = rnd.tables.get(number=1)
    scorecards.penalty_set(
        round_id=rnd.pk, pair_id=table.ns_pair_id, vp=1, mp=50, reason="two warnings", by_user=None
    )
    opponent = PairTurnResult.objects.get(round=rnd, pair_id=table.ew_pair_id)
    assert opponent.penalty_vp == 0
    rebuild_event_standings(event_id=event.pk)
    rows = {s.pair_id: s for s in PairStanding.objects.filter(event=event)}
    penalised = rows[table.ns_pair_id]
    assert penalised.vp == Decimal(12) and penalised.details["penalty_vp"] == 1
    assert rows[table.ew_pair_id].vp == Decimal(7)
    with pytest.raises(EntryError):
        scorecards.penalty_set(
            round_id=rnd.pk, pair_id=table.ns_pair_id, vp=1, mp=3, reason="x", by_user=None
        )


def test_entries_late_and_withdrawn() -> None:
    event = tournament(4)
    club = event.club
    a, b = make_player(club, "Late A"), make_player(club, "Late B")
    with pytest.raises(EntryError):
        tournaments.pair_enter(event=event, player_a=a, player_b=a)
    with pytest.raises(EntryError):
        tournaments.pair_enter(event=event, player_a=a, player_b=pair(event, 1).player_a)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    late = tournaments.pair_enter(event=event, player_a=a, player_b=b)
    assert late.late and late.number == 5
    play_turn(rnd)
    with pytest.raises(EntryError) as error:
        tournaments.pair_enter(
            event=event, player_a=make_player(club, "X"), player_b=make_player(club, "Y")
        )
    assert error.value.code == "entries_closed"
    tournaments.pair_withdraw(pair=pair(event, 2))
    second = tournaments.turn_seat(event=event, movement="mitchell").round
    seated = (
        {t.ns_pair.number for t in second.tables.all()}
        | {t.ew_pair.number for t in second.tables.all()}
        | set(
            PairTurnResult.objects.filter(round=second, bye=True).values_list(
                "pair__number", flat=True
            )
        )
    )
    assert seated == {1, 3, 4, 5}


def test_first_turn_by_hand() -> None:
    event = tournament(5)
    with pytest.raises(EntryError):
        tournaments.turn_seat(
            event=event, movement="first", first_order="hand", by_hand=[(1, 2)], by_hand_byes=[5]
        )
    rnd = tournaments.turn_seat(
        event=event,
        movement="first",
        first_order="hand",
        by_hand=[(1, 4), (2, 3)],
        by_hand_byes=[5],
    ).round
    assert [(t.ns_pair.number, t.ew_pair.number) for t in rnd.tables.order_by("number")] == [
        (1, 4),
        (2, 3),
    ]


def test_the_stored_ranking_after_a_turn() -> None:
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    assert rebuild_event_standings(event_id=event.pk) == 5
    rows = list(PairStanding.objects.filter(event=event).order_by("rank"))
    assert rows[0].rank == 1
    # NS pairs won 14-6 or so; the bye has 14 VP too.
    assert sum(r.vp for r in rows) == 2 * 20 + 14
    # A rebuild writes nothing new the second time.
    before = [(r.pk, r.updated_at) for r in rows]
    rebuild_event_standings(event_id=event.pk)
    assert before == [
        (r.pk, r.updated_at) for r in PairStanding.objects.filter(event=event).order_by("rank")
    ]
