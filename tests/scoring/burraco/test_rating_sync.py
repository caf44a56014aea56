"""The Burraco pair rating stored and kept up to date (scoring/burraco/rating_sync.py):
through the Celery task in eager mode (no worker), apart from the Barbu rating, and
replayed from the first changed card when the referee corrects one."""

from __future__ import annotations

import random

import pytest

from games.burraco import scorecards
from scoring import healing
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.burraco.rating_sync import sync_burraco_ratings
from scoring.models import (
    BurracoRating,
    BurracoRatingHistory,
    BurracoRatingRun,
    PlayerRating,
    RatingHistory,
    RatingRun,
)
from tests.factories import make_player
from tests.scoring.burraco.builders import (
    burraco_club,
    card,
    pair_tournament,
    play_table,
    seat_turn,
)
from tests.scoring.evenings import evening

pytestmark = pytest.mark.django_db

NS_WINS = [(300, 100)] * 3  # 600 MP ahead in three hands: 18-2 or so
EW_WINS = [(100, 300)] * 3
LEVEL = [(150, 130), (100, 120), (200, 200)]  # level: 10-10


def ratings() -> dict[int, tuple[float, float, int]]:
    return {
        p: (round(mu, 9), round(sigma, 9), games)
        for p, mu, sigma, games in BurracoRating.objects.values_list(
            "player_id", "mu", "sigma", "games"
        )
    }


@pytest.fixture
def people():
    club = burraco_club()
    return club, [make_player(club, f"B{i}") for i in range(8)]


def four_pairs(people, **kw):
    club, p = people
    return pair_tournament(club, [(p[0], p[1]), (p[2], p[3]), (p[4], p[5]), (p[6], p[7])], **kw)


def test_a_confirmed_card_rates_both_pairs_through_the_task(
    people, django_capture_on_commit_callbacks
):
    _club, p = people
    event = four_pairs(people)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = seat_turn(event)
        # Mitchell by entry order: table 1 is pair 1 (NS) against pair 3, table 2: 2 v 4.
        ns = [(t.ns_pair.player_a_id, t.ns_pair.player_b_id) for t in rnd.tables.all()]
        play_table(card(rnd, 1), NS_WINS, confirm=False)
    # Hands entered, nothing confirmed: nothing rated.
    assert not BurracoRating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        scorecards.card_confirm(game_id=card(rnd, 1).pk, line="EW", agree=True)
        play_table(card(rnd, 2), EW_WINS)
    rated = {r.player_id: r for r in BurracoRating.objects.all()}
    assert len(rated) == 8 and all(r.games == 1 for r in rated.values())
    fresh = 25.0
    winners = (
        set(ns[0])
        | {t.ew_pair.player_a_id for t in rnd.tables.filter(number=2)}
        | {t.ew_pair.player_b_id for t in rnd.tables.filter(number=2)}
    )
    for player, r in rated.items():
        assert (r.mu > fresh) == (player in winners), player
    # Partners moved together: the same rating (both new).
    assert rated[p[0].pk].mu == pytest.approx(rated[p[1].pk].mu)
    history = BurracoRatingHistory.objects.get(player=p[0], game=card(rnd, 1))
    assert history.partner_id == p[1].pk and history.vp > history.opponent_vp
    assert BurracoRatingRun.objects.get().games == 2
    # The Barbu rating knows nothing of it.
    assert not PlayerRating.objects.exists() and not RatingHistory.objects.exists()


def test_a_draw_by_vp_leaves_the_estimates_where_they_were(people):
    event = four_pairs(people)
    rnd = seat_turn(event)
    play_table(card(rnd, 1), LEVEL)
    sync_burraco_ratings()
    table = rnd.tables.get(number=1)
    assert card(rnd, 1).card.ns_vp == 10
    players = [table.ns_pair.player_a_id, table.ew_pair.player_b_id]
    for r in BurracoRating.objects.filter(player_id__in=players):
        assert r.mu == pytest.approx(25.0) and r.sigma < 25 / 3


def test_a_corrected_card_replays_from_it_and_equals_a_full_replay(people):
    event = four_pairs(people)
    rnd1 = seat_turn(event)
    play_table(card(rnd1, 1), NS_WINS)
    play_table(card(rnd1, 2), NS_WINS)
    rnd2 = seat_turn(event)
    play_table(card(rnd2, 1), EW_WINS)
    assert sync_burraco_ratings().replayed == 3
    play_table(card(rnd2, 2), NS_WINS)
    # One more card at the end: one card rated, nothing replayed.
    assert sync_burraco_ratings().replayed == 1
    before = ratings()
    assert sync_burraco_ratings().replayed == 0  # nothing changed

    scorecards.card_correct(
        game_id=card(rnd1, 2).pk,
        hands=[{"mp": {"NS": ns, "EW": ew}} for ns, ew in EW_WINS],
        reason="hands swapped",
        by_user=None,
    )
    report = sync_burraco_ratings()
    assert report.replayed == 3  # turn 1 table 2 and the two cards after it
    replayed = ratings()
    assert replayed != before
    table = rnd1.tables.get(number=2)
    loser = table.ns_pair.player_a_id
    assert (
        BurracoRatingHistory.objects.get(player_id=loser, game=card(rnd1, 2)).mu < 25.0
    )  # now a defeat
    sync_burraco_ratings(full=True)
    assert ratings() == replayed


def test_a_card_reopened_by_the_referee_is_taken_out(people):
    event = four_pairs(people)
    rnd = seat_turn(event)
    play_table(card(rnd, 1), NS_WINS)
    play_table(card(rnd, 2), NS_WINS)
    sync_burraco_ratings()
    assert BurracoRating.objects.count() == 8
    # The referee takes a hand out of table 2's card: it is no longer confirmed.
    scorecards.card_correct(
        game_id=card(rnd, 2).pk,
        hands=[{"mp": {"NS": 300, "EW": 100}}] * 2,
        reason="hand 3 was never played",
        by_user=None,
        confirm=False,
    )
    sync_burraco_ratings()
    table2 = rnd.tables.get(number=2)
    gone = {
        table2.ns_pair.player_a_id,
        table2.ns_pair.player_b_id,
        table2.ew_pair.player_a_id,
        table2.ew_pair.player_b_id,
    }
    assert set(BurracoRating.objects.values_list("player_id", flat=True)).isdisjoint(gone)
    assert not BurracoRatingHistory.objects.filter(game=card(rnd, 2)).exists()
    assert BurracoRating.objects.count() == 4
    before = ratings()
    sync_burraco_ratings(full=True)
    assert ratings() == before


def test_the_barbu_rating_is_unchanged_and_nothing_is_left_behind(
    people, django_capture_on_commit_callbacks
):
    club, p = people
    # The same eight people play a Barbu evening (rated) and a Burraco tournament.
    with django_capture_on_commit_callbacks(execute=True):
        barbu = evening(club, p, rng=random.Random(4))
    barbu_rating_sync.sync_ratings()
    barbu_rows = list(PlayerRating.objects.order_by("player_id").values())
    barbu_history = list(RatingHistory.objects.order_by("id").values())
    barbu_run = RatingRun.objects.values("games", "replayed").get()
    event = four_pairs(people)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = seat_turn(event)
        play_table(card(rnd, 1), NS_WINS)
        play_table(card(rnd, 2), EW_WINS)
    assert BurracoRating.objects.count() == 8
    sync_burraco_ratings(full=True)
    assert list(PlayerRating.objects.order_by("player_id").values()) == barbu_rows
    assert list(RatingHistory.objects.order_by("id").values()) == barbu_history
    assert RatingRun.objects.values("games", "replayed").get() == barbu_run
    # The sweep finds nothing behind: Burraco cards are not the Barbu rating's games.
    assert healing.behind() == []
    assert barbu.pk


def test_the_sweep_rebuilds_the_pair_ratings_a_lost_task_left_behind(
    people, django_capture_on_commit_callbacks
):
    from scoring import tasks
    from scoring.models import StandingsSource

    event = four_pairs(people)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = seat_turn(event)
        play_table(card(rnd, 1), NS_WINS)
    assert healing.behind() == []
    # The task of the second card is lost with its worker: no rating, nothing recorded.
    play_table(card(rnd, 2), NS_WINS)
    assert ("burraco_ratings", "all") in healing.behind()
    assert BurracoRating.objects.count() == 4
    assert "burraco_ratings:all" in tasks.heal_standings_task()
    assert BurracoRating.objects.count() == 8
    assert healing.behind() == []
    assert StandingsSource.objects.filter(scope="burraco_ratings:all").exists()
