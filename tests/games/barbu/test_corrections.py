"""Several deals of one game corrected together (games.barbu.corrections.deals_correct)."""

from __future__ import annotations

import pytest

from games.barbu.corrections import deal_correct, deals_correct
from games.barbu.selectors import game_record
from games.barbu.submission import deal_submit
from games.core.errors import DealRejected, EntryError, StaleVersion
from games.core.signals import deals_changed
from games.models import Deal, DealRevision, DealScore, Game, GameScore
from scoring.engine import barbu
from tests.factories import full_game, make_club, make_game, make_organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(db):
    return make_club("Circolo Barbu")


@pytest.fixture
def organiser(club):
    return make_organiser(club)


@pytest.fixture
def record() -> dict:
    return full_game()


@pytest.fixture
def game(club, record) -> Game:
    """Anna's whole dealer turn (deals 1 to 7), as the table entered it."""
    game = make_game(club)
    for deal in record["deals"][:7]:
        deal_submit(game_id=game.pk, deal=deal)
    return game


def snapshot(game: Game) -> tuple:
    """Everything a refused correction must leave as it was."""
    return (
        list(
            Deal.objects.filter(game=game)
            .order_by("number")
            .values_list("number", "version", "contract", "data", "scores")
        ),
        sorted(DealScore.objects.filter(game=game).values_list("deal__number", "player", "score")),
        list(DealRevision.objects.filter(game=game).values_list("pk", "version", "action")),
        list(GameScore.objects.filter(game=game).values_list("seat", "total", "place")),
        Game.objects.get(pk=game.pk).totals,
    )


def swapped(record: dict, a: int, b: int) -> dict[int, dict]:
    """Deals a and b of the record with their contents exchanged (same dealer, per turn)."""
    return {a: record["deals"][b - 1], b: record["deals"][a - 1]}


def test_each_half_of_a_swap_alone_is_refused(game, record):
    before = snapshot(game)
    second = Deal.objects.get(game=game, number=2)
    with pytest.raises(DealRejected):
        deal_correct(deal_id=second.pk, data=record["deals"][4], by_user=None, expected_version=1)
    assert snapshot(game) == before


def test_a_swap_of_two_deals_stores_both_with_their_revisions_and_scores(game, record, organiser):
    changes = swapped(record, 2, 5)
    corrected = deals_correct(
        game_id=game.pk,
        changes=changes,
        versions={2: 1, 5: 1},
        reason="contracts swapped at the table",
        by_user=organiser,
    )
    assert [deal.number for deal in corrected] == [2, 5]

    expected = {**record, "deals": record["deals"][:7]}
    expected["deals"][1], expected["deals"][4] = changes[2], changes[5]
    scores = barbu.score_game(expected)
    game.refresh_from_db()
    assert game.totals == scores["totals"] == barbu.score_game(game_record(game))["totals"]
    for number in (2, 5):
        deal = Deal.objects.get(game=game, number=number)
        assert deal.version == 2
        assert deal.contract == changes[number]["contract"]
        assert deal.data == barbu.normalise_deal(changes[number], list(game.player_names))
        assert deal.scores["score"] == scores["deals"][number - 1]["score"]
        rows = {r.player.name: r.score for r in DealScore.objects.filter(deal=deal)}
        assert rows == scores["deals"][number - 1]["score"]
        assert all(r.contract == deal.contract for r in DealScore.objects.filter(deal=deal))
        revision = DealRevision.objects.get(deal=deal, action=DealRevision.Action.CORRECTED)
        assert revision.version == 2 and revision.by_user == organiser
        assert revision.reason == "contracts swapped at the table"
        assert revision.before["contract"] == record["deals"][number - 1]["contract"]
        assert revision.after == deal.data
    totals = {s.player.name: float(s.total) for s in GameScore.objects.filter(game=game)}
    assert totals == pytest.approx(scores["totals"])
    # The other deals keep their version and rows.
    assert set(
        Deal.objects.filter(game=game).exclude(number__in=[2, 5]).values_list("version", flat=True)
    ) == {1}
    assert DealScore.objects.filter(game=game).count() == 7 * 4


def test_a_batch_with_one_invalid_deal_stores_nothing(game, record):
    before = snapshot(game)
    changes = swapped(record, 2, 5)
    broken = dict(changes[5])
    broken["result"] = {}
    with pytest.raises(DealRejected) as refused:
        deals_correct(game_id=game.pk, changes={2: changes[2], 5: broken}, versions={2: 1, 5: 1})
    assert any(p["deal"] == 5 for p in refused.value.problems)
    assert snapshot(game) == before


def test_a_stale_version_in_the_batch_is_refused_and_nothing_stored(game, record):
    # Meanwhile another organiser swapped deals 5 and 6: deal 5 is now version 2.
    deals_correct(game_id=game.pk, changes=swapped(record, 5, 6), versions={5: 1, 6: 1})
    before = snapshot(game)
    with pytest.raises(StaleVersion) as refused:
        deals_correct(game_id=game.pk, changes=swapped(record, 2, 5), versions={2: 1, 5: 1})
    assert refused.value.params == {"version": 2, "expected": 1}
    assert "Deal 5 was changed meanwhile (now version 2)" in refused.value.message
    assert snapshot(game) == before


def test_a_deal_the_game_does_not_have_is_refused(game, record):
    before = snapshot(game)
    with pytest.raises(EntryError) as refused:
        deals_correct(game_id=game.pk, changes={2: record["deals"][8], 9: record["deals"][1]})
    assert refused.value.code == "not_found"
    assert snapshot(game) == before


def test_standings_are_announced_once_after_commit(
    game, record, django_capture_on_commit_callbacks
):
    sent = []

    def receiver(sender, **kwargs):
        sent.append(kwargs)

    deals_changed.connect(receiver, weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            deals_correct(game_id=game.pk, changes=swapped(record, 2, 5), versions={2: 1, 5: 1})
    finally:
        deals_changed.disconnect(receiver)
    assert len(sent) == 1 and sent[0]["game_ids"] == [game.pk]


def test_nothing_changed_is_no_new_version(game, record):
    before = snapshot(game)
    same = {2: record["deals"][1], 5: record["deals"][4]}
    assert deals_correct(game_id=game.pk, changes=same, versions={2: 1, 5: 1}) == []
    assert snapshot(game) == before
