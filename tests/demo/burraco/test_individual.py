"""The demo's individual Burraco tournament (demo/burraco/individual.py): thirteen players
of the Burraco club, three turns with new partners and one player resting each, played
through the services and closed; its public ranking is the engine's; loaded once only."""

from __future__ import annotations

from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from clubs.models import Membership
from demo.burraco.individual import HANDS, NAME, PLAYERS, TURNS
from demo.burraco.tournaments import BURRACO_SLUG
from demo.loader import load_demo
from games.burraco.results import turn_scores
from games.models import Event, PairTurnResult, Round, ScoreCard
from scoring.engine.burraco.ranking import rank_pairs
from scoring.models import PairStanding
from tests.demo.demo_reads import counts, shown_ranking
from tests.games.burraco.words import PAIR_WORDS, visible_text

# Slow: each test loads the demo (15-25 s).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("eager_tasks"),
    pytest.mark.slow,
]


def test_the_burraco_club_has_a_played_individual_tournament() -> None:
    load_demo(force=True)

    event = Event.objects.get(club__slug=BURRACO_SLUG, name=NAME)
    assert event.individual and event.is_burraco and event.status == "closed"
    assert event.league is None  # the club's league is a season of pairs
    entries = list(event.pairs.select_related("player_a"))
    assert len(entries) == PLAYERS and all(e.player_b_id is None for e in entries)
    members = set(Membership.objects.filter(club=event.club).values_list("player_id", flat=True))
    assert {e.player_a_id for e in entries} <= members
    numbers = sorted(e.number for e in entries)

    rounds = list(event.rounds.order_by("number"))
    assert [(r.number, r.movement, r.status) for r in rounds] == [
        (n, "individual", Round.Status.CLOSED) for n in range(1, TURNS + 1)
    ]
    partnered: Counter[frozenset[int]] = Counter()
    for rnd in rounds:
        tables = rnd.tables.select_related("ns_pair", "ns_partner", "ew_pair", "ew_partner")
        seated = []
        for table in tables:
            ns = [e.number for e in table.side("NS")]
            ew = [e.number for e in table.side("EW")]
            assert len(ns) == len(ew) == 2
            partnered.update([frozenset(ns), frozenset(ew)])
            seated += ns + ew
        byes = list(
            PairTurnResult.objects.filter(round=rnd, bye=True).values_list(
                "pair__number", flat=True
            )
        )
        assert len(byes) == PLAYERS % 4 == 1
        assert sorted(seated + byes) == numbers
    assert max(partnered.values()) == 1  # new partners every turn
    rested = Counter(
        PairTurnResult.objects.filter(round__event=event, bye=True).values_list(
            "pair__number", flat=True
        )
    )
    assert max(rested.values()) == 1  # a different player rests each turn
    cards = ScoreCard.objects.filter(game__table__round__event=event).select_related("game")
    assert {c.status for c in cards} == {ScoreCard.Status.CONFIRMED}
    assert {c.game.deals_count for c in cards} == {HANDS}

    # The stored ranking and the public page's are the engine's over the turn results.
    expected = rank_pairs(turn_scores(event.pk), event.ranking.get("tie_breaks", ()), None, numbers)
    assert shown_ranking(event) == [(row.place, row.pair) for row in expected]
    stored = PairStanding.objects.filter(event=event).order_by("rank", "pair__number")
    assert [(s.rank, s.pair.number, s.vp) for s in stored] == [
        (row.place, row.pair, row.vp) for row in expected
    ]
    # The club's language: a ranking of players, not of pairs.
    page = Client().get("/it" + reverse("scoring:event", args=[event.pk])).content.decode()
    with translation.override("it"):
        assert _("Burraco individual tournament") in page
    assert not PAIR_WORDS["it"].search(visible_text(page))

    # Loading again changes nothing.
    before = counts()
    assert "already there" in load_demo(force=True)
    assert counts() == before
