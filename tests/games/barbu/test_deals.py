"""Deal submission, confirmation and correction (games.barbu.submission,
games.barbu.corrections)."""

from __future__ import annotations

import pytest

from games.barbu.corrections import deal_correct, rename_in_deal
from games.barbu.selectors import game_record
from games.barbu.submission import deal_confirm, deal_submit
from games.core.errors import (
    DealConflict,
    DealRejected,
    GameClosed,
    IdempotencyMismatch,
    StaleVersion,
)
from games.core.short_names import unique_names
from games.models import Deal, DealRevision, DealScore, Game, GameScore
from scoring.engine import barbu
from tests.factories import NAMES, full_game, make_game

pytestmark = pytest.mark.django_db


def test_whole_game_stored_deal_by_deal_matches_the_engine():
    record = full_game()
    game = make_game()
    for deal in record["deals"]:
        result = deal_submit(game_id=game.pk, deal=deal)
        assert result.status_code == 201
    game.refresh_from_db()
    expected = barbu.score_game(record)
    assert game.status == Game.Status.COMPLETE
    assert game.deals_count == 28
    assert game.totals == expected["totals"]
    totals = {s.player.name: float(s.total) for s in GameScore.objects.filter(game=game)}
    assert totals == {k: float(v) for k, v in expected["totals"].items()}
    # the per-player rows add up to the game totals
    for name in NAMES:
        rows = DealScore.objects.filter(game=game, player__name=name)
        assert sum(r.score for r in rows) == expected["totals"][name]
    assert DealRevision.objects.filter(game=game, action="entered").count() == 28


def test_refused_deal_stores_nothing_and_lists_the_problems():
    game = make_game()
    bad = {"dealer": "Anna", "contract": "no_tricks", "result": {"tricks": {"Anna": 12}}}
    with pytest.raises(DealRejected) as caught:
        deal_submit(game_id=game.pk, deal=bad)
    assert caught.value.problems[0]["code"] == "tricks_total"
    assert caught.value.problems[0]["deal"] == 1
    assert Deal.objects.count() == 0
    assert DealScore.objects.count() == 0
    game.refresh_from_db()
    assert game.deals_count == 0


def test_second_phone_same_number_other_content_gets_conflict_with_stored_deal():
    record = full_game()
    game = make_game()
    first = {**record["deals"][0], "number": 1}
    deal_submit(game_id=game.pk, deal=first)
    # the same deal again: answered with the stored one, nothing new
    again = deal_submit(game_id=game.pk, deal=first)
    assert again.created is False and again.status_code == 200
    other = {
        "number": 1,
        "dealer": "Anna",
        "contract": "barbu",
        "result": {"king_of_hearts": "Dario"},
    }
    if record["deals"][0]["contract"] == "barbu":
        other["result"]["king_of_hearts"] = "Bruno"
        other["contract"] = "barbu"
    with pytest.raises(DealConflict) as caught:
        deal_submit(game_id=game.pk, deal=other)
    assert caught.value.extra["stored"]["number"] == 1
    assert Deal.objects.filter(game=game).count() == 1


def test_duplicate_without_number_is_refused_not_stored_twice():
    record = full_game()
    game = make_game()
    deal_submit(game_id=game.pk, deal=record["deals"][0])
    with pytest.raises(DealConflict):
        deal_submit(game_id=game.pk, deal=record["deals"][0])
    assert Deal.objects.filter(game=game).count() == 1


def test_number_ahead_of_the_game_is_refused():
    record = full_game()
    game = make_game()
    with pytest.raises(DealRejected) as caught:
        deal_submit(game_id=game.pk, deal={**record["deals"][0], "number": 3})
    assert caught.value.code == "deal_out_of_order"


def test_idempotency_key_replays_the_first_answer():
    record = full_game()
    game = make_game()
    first = deal_submit(game_id=game.pk, deal=record["deals"][0], idempotency_key="k1")
    second = deal_submit(game_id=game.pk, deal=record["deals"][0], idempotency_key="k1")
    assert second.body == first.body and second.status_code == 201
    assert Deal.objects.filter(game=game).count() == 1
    with pytest.raises(IdempotencyMismatch):
        deal_submit(game_id=game.pk, deal=record["deals"][1], idempotency_key="k1")


def test_complete_game_takes_no_more_deals():
    record = full_game()
    game = make_game(turns=1)  # a round of one dealer turn: 7 deals
    for deal in record["deals"][:7]:
        deal_submit(game_id=game.pk, deal=deal)
    game.refresh_from_db()
    assert game.status == Game.Status.COMPLETE
    with pytest.raises(GameClosed):
        deal_submit(game_id=game.pk, deal=record["deals"][7])


def test_correction_is_versioned_audited_and_rescored():
    record = full_game()
    game = make_game()
    for deal in record["deals"][:7]:
        deal_submit(game_id=game.pk, deal=deal)
    target = Deal.objects.get(game=game, contract="barbu")
    taker = target.data["result"]["king_of_hearts"]
    new_taker = next(n for n in NAMES if n != taker)
    changed = {**target.data, "result": {"king_of_hearts": new_taker}}
    deal_correct(
        deal_id=target.pk, data=changed, by_user=None, expected_version=1, reason="wrong taker"
    )
    target.refresh_from_db()
    assert target.version == 2
    assert target.data["result"]["king_of_hearts"] == new_taker
    revision = DealRevision.objects.get(deal=target, action="corrected")
    assert revision.before["result"]["king_of_hearts"] == taker
    assert revision.after["result"]["king_of_hearts"] == new_taker
    game.refresh_from_db()
    assert game.totals == barbu.score_game(game_record(game))["totals"]
    row = DealScore.objects.get(deal=target, player__name=new_taker)
    assert row.took_king and row.raw == -20
    with pytest.raises(StaleVersion):
        deal_correct(deal_id=target.pk, data=target.data, by_user=None, expected_version=1)


def test_correction_that_breaks_a_later_deal_is_refused():
    record = full_game()
    game = make_game()
    for deal in record["deals"][:3]:
        deal_submit(game_id=game.pk, deal=deal)
    first = Deal.objects.get(game=game, number=1)
    # giving deal 1 the contract of deal 3 makes deal 3 a repeat of it
    changed = dict(record["deals"][2])
    with pytest.raises(DealRejected):
        deal_correct(deal_id=first.pk, data=changed, by_user=None, expected_version=1)
    first.refresh_from_db()
    assert first.version == 1 and first.data["contract"] == record["deals"][0]["contract"]


def test_confirmation_from_another_seat():
    record = full_game()
    game = make_game()
    result = deal_submit(
        game_id=game.pk, deal=record["deals"][0], needs_confirmation=True, by_label="seat 0"
    )
    assert result.deal.status == Deal.Status.PENDING
    with pytest.raises(Exception, match="another seat"):
        deal_confirm(deal_id=result.deal.pk, agree=True, by_label="seat 0")
    deal = deal_confirm(deal_id=result.deal.pk, agree=True, by_label="seat 2")
    assert deal.status == Deal.Status.CONFIRMED
    assert DealRevision.objects.filter(deal=deal, action="confirmed", by_label="seat 2").exists()


def test_dispute_marks_the_deal_for_the_organiser():
    record = full_game()
    game = make_game()
    result = deal_submit(
        game_id=game.pk, deal=record["deals"][0], needs_confirmation=True, by_label="seat 0"
    )
    deal = deal_confirm(deal_id=result.deal.pk, agree=False, by_label="seat 1")
    assert deal.status == Deal.Status.DISPUTED


def test_unique_names_and_rename():
    assert unique_names(["Marco", "Marco", "Anna", "Marco"]) == [
        "Marco",
        "Marco (2)",
        "Anna",
        "Marco (3)",
    ]
    deal = {
        "dealer": "A",
        "contract": "hearts",
        "doubles": [{"by": "B", "against": "A"}],
        "result": {"hearts": {"A": ["AH"], "C": ["KH"]}},
    }
    out = rename_in_deal(deal, {"A": "Z"})
    assert out["dealer"] == "Z" and out["doubles"][0]["against"] == "Z"
    assert set(out["result"]["hearts"]) == {"Z", "C"}
    assert deal["dealer"] == "A"  # the original is untouched
