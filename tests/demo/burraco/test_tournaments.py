"""The demo's Burraco club (demo/burraco/tournaments.py): a played season and a tournament in
progress,
every row written through the tournament services, loaded once only."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import authenticate
from django.test import Client
from django.urls import reverse

from clubs.models import Club
from demo.burraco.tournaments import (
    BURRACO_SLUG,
    FREE_EVENING_NAME,
    FREE_LEAGUE_NAME,
    FREE_MATCHES,
    FREE_PAIRS,
    HANDS,
    LEAGUE_NAME,
    MOVEMENTS,
    PLAYED_TOURNAMENTS,
    RUNNING_TABLES,
)
from demo.loader import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERNAME, load_demo
from games.burraco.results import turn_scores
from games.models import (
    BurracoHand,
    Event,
    Game,
    PairTurnResult,
    Round,
    ScoreCard,
    ScoreCardRevision,
)
from scoring.burraco.rating_sync import sync_burraco_ratings
from scoring.engine.burraco.ranking import rank_pairs
from scoring.models import BurracoRating, PairStanding
from tests.demo.demo_reads import counts, shown_ranking

# The standings the pages show are built by the Celery tasks the load queues: in-process
# here, also where REDIS_URL is set (CI).
# Slow: each test loads the demo (15-25 s).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
    pytest.mark.slow,
]


def test_the_burraco_club_has_a_played_season_and_a_tournament_in_progress() -> None:
    load_demo(force=True)

    club = Club.objects.get(slug=BURRACO_SLUG)
    assert club.language == "it" and club.game == Club.Games.BURRACO and club.published
    assert club.burraco_ruleset["preset"] == "fibur"
    # The one demo login organises both clubs.
    user = authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert user is not None and club.is_organiser(user)
    assert Club.objects.get(slug=DEMO_SLUG).is_organiser(user)
    league = club.leagues.get(name=LEAGUE_NAME)
    assert league.game == "burraco" and league.published

    tournaments = list(league.events.order_by("starts_at"))
    assert [e.status for e in tournaments] == ["closed"] * PLAYED_TOURNAMENTS + ["running"]
    for event in tournaments:
        assert event.is_burraco and event.ruleset["preset"] == "fibur"
        pairs = set(event.pairs.values_list("number", flat=True))
        assert len(pairs) % 2 == 1  # an odd number: one pair rests each turn
        rounds = list(event.rounds.order_by("number"))
        for rnd in rounds:
            assert rnd.movement == MOVEMENTS[rnd.number - 1]
            results = PairTurnResult.objects.filter(round=rnd)
            byes = [r.pair.number for r in results if r.bye]
            seated = [n for t in rnd.tables.all() for n in (t.ns_pair.number, t.ew_pair.number)]
            assert len(byes) == 1 and sorted(seated + byes) == sorted(pairs)
        # Nobody rests twice while another pair has not rested.
        rested = Counter(
            PairTurnResult.objects.filter(round__event=event, bye=True).values_list(
                "pair__number", flat=True
            )
        )
        assert max(rested.values()) == 1
        # The stored ranking, and the ranking the public page shows, are rank_pairs over
        # the stored turn results.
        expected = rank_pairs(
            turn_scores(event.pk),
            event.ranking.get("tie_breaks", ()),
            None,
            sorted(pairs),
        )
        assert shown_ranking(event) == [(row.place, row.pair) for row in expected]
        stored = PairStanding.objects.filter(event=event).order_by("rank", "pair__number")
        assert [(s.rank, s.pair.number, s.vp) for s in stored] == [
            (row.place, row.pair, row.vp) for row in expected
        ]

    for event in tournaments[:PLAYED_TOURNAMENTS]:
        assert event.rounds.count() == len(MOVEMENTS)
        assert not event.rounds.exclude(status=Round.Status.CLOSED).exists()
        cards = ScoreCard.objects.filter(game__table__round__event=event)
        assert {c.status for c in cards} == {ScoreCard.Status.CONFIRMED}
        assert {c.game.deals_count for c in cards} == {HANDS}

    running = tournaments[-1]
    turns = list(running.rounds.order_by("number"))
    assert [(r.number, r.movement, r.status) for r in turns] == [
        (1, "mitchell", "closed"),
        (2, "mitchell", "closed"),
        (3, "danese", "open"),
    ]
    played = ScoreCard.objects.filter(game__table__round__in=turns[:2])
    assert {c.status for c in played} == {ScoreCard.Status.CONFIRMED}
    third = Game.objects.filter(table__round=turns[2]).select_related("card")
    states = sorted((g.table.number, g.deals_count, g.card.status) for g in third)
    expected_states = [
        (n, hands, "confirmed" if confirmed else ("entered" if hands == HANDS else "open"))
        for n, (hands, confirmed) in enumerate(RUNNING_TABLES, 1)
    ]
    assert states == expected_states
    found = Counter(status for _n, _h, status in states)
    assert found["confirmed"] and found["entered"]
    assert any(hands == 0 for _n, hands, _s in states)

    # Every hand went through hand_submit (one "entered" revision each), plus the referee's
    # correction and penalty of the first tournament.
    entered = ScoreCardRevision.objects.filter(action=ScoreCardRevision.Action.ENTERED)
    assert entered.count() == BurracoHand.objects.count()
    first = tournaments[0]
    actions = set(
        ScoreCardRevision.objects.filter(round__event=first).values_list("action", flat=True)
    )
    assert {"entered", "confirmed", "corrected", "penalty"} <= actions
    assert PairTurnResult.objects.filter(round__event=first, penalty_vp__gt=0).count() == 1

    # The confirmed cards are rated as they would be by the rating task from scratch.
    rated = sorted(BurracoRating.objects.values_list("player_id", "games", "mu"))
    assert rated
    sync_burraco_ratings(full=True)
    assert sorted(BurracoRating.objects.values_list("player_id", "games", "mu")) == rated

    # Loading again changes nothing.
    before = counts()
    assert "already there" in load_demo(force=True)
    assert counts() == before


def test_the_burraco_club_has_a_played_evening_of_free_matches() -> None:
    load_demo(force=True)
    club = Club.objects.get(slug=BURRACO_SLUG)
    league = club.leagues.get(name=FREE_LEAGUE_NAME)
    event = league.events.get()
    assert event.name == FREE_EVENING_NAME and event.is_free_matches
    assert event.status == Event.Status.CLOSED and event.ruleset["options"]["target"] == 2005
    assert event.pairs.count() == FREE_PAIRS
    games = Game.objects.filter(table__round__event=event).select_related("card")
    assert games.count() == len(FREE_MATCHES)
    for game in games:
        card = game.card
        # Each match went on until the engine said a pair had reached 2005 ahead, no further.
        assert card.status == ScoreCard.Status.CONFIRMED
        assert max(card.ns_total, card.ew_total) >= 2005 and card.ns_total != card.ew_total
        totals = [0, 0]
        for hand in game.hands.order_by("number")[: game.deals_count - 1]:
            totals = [totals[0] + hand.ns_mp, totals[1] + hand.ew_mp]
            assert not (max(totals) >= 2005 and totals[0] != totals[1])
    stored = PairStanding.objects.filter(event=event)
    assert sum(s.won for s in stored) == sum(s.lost for s in stored) == len(FREE_MATCHES)
    assert sum(s.mp_difference for s in stored) == 0
    page = Client().get(reverse("scoring:league", args=[league.pk])).content.decode()
    assert 'id="free-season-ranking"' in page
    public = Client().get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "Table 4, match 2: pair 7 v pair 2" in public

    before = counts()
    assert "already there" in load_demo(force=True)
    assert counts() == before
