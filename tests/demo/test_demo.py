"""The demo club of `make demo`: a played league and a running evening, loaded once only."""

from __future__ import annotations

import datetime
from collections import Counter
from itertools import pairwise
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.utils import timezone

from clubs.models import Club, League, Membership, Player
from demo.loader import (
    DEMO_PASSWORD,
    DEMO_SLUG,
    DEMO_USERNAME,
    DemoRefused,
    load_demo,
    running_evening_start,
)
from games.barbu.selectors import game_record
from games.core.signals import deals_changed
from games.models import Deal, DealRevision, DealScore, Event, Game, GameScore
from scoring.engine import barbu

# Slow: most tests load the demo (15-25 s).
pytestmark = pytest.mark.slow


def counts() -> dict[str, int]:
    models = (Club, Player, Membership, League, Event, Game, Deal, DealScore, DealRevision)
    return {model.__name__: model.objects.count() for model in models}


@pytest.mark.django_db
def test_the_demo_refuses_to_load_when_debug_is_off():
    # pytest-django runs with DEBUG off, as production does.
    with pytest.raises(DemoRefused):
        load_demo()
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("demo_club")
    assert not Club.objects.exists()


ROME = ZoneInfo("Europe/Rome")


@pytest.mark.parametrize(
    ("now", "start"),
    [
        # After 20:30: tonight's evening.
        (datetime.datetime(2026, 11, 24, 22, 15, tzinfo=ROME), (2026, 11, 24)),
        (datetime.datetime(2026, 11, 24, 20, 30, tzinfo=ROME), (2026, 11, 24)),
        # Before 20:30, after midnight or in the day: last night's evening.
        (datetime.datetime(2026, 11, 24, 20, 29, tzinfo=ROME), (2026, 11, 23)),
        (datetime.datetime(2026, 11, 25, 0, 10, tzinfo=ROME), (2026, 11, 24)),  # 23:10 UTC
        (datetime.datetime(2026, 11, 24, 9, 0, tzinfo=ROME), (2026, 11, 23)),
        # The morning summer time begins: yesterday's 20:30 was still winter time.
        (datetime.datetime(2026, 3, 29, 10, 0, tzinfo=ROME), (2026, 3, 28)),
    ],
)
def test_the_running_evening_starts_at_half_past_eight_in_the_sites_zone(now, start):
    with timezone.override(ROME):
        began = running_evening_start(now.astimezone(datetime.UTC))
    assert began == datetime.datetime(*start, 20, 30, tzinfo=ROME)
    assert began.utcoffset() == datetime.datetime(*start, 12, tzinfo=ROME).utcoffset()
    assert began <= now < began + datetime.timedelta(days=1)


@pytest.mark.django_db(transaction=True)
def test_the_demo_is_a_played_league_with_an_evening_in_progress():
    announced = []

    def listen(sender, *, game_ids, event_ids, **kw):
        announced.append((sorted(game_ids), sorted(event_ids)))

    deals_changed.connect(listen)
    try:
        before_load = timezone.now()
        call_command("demo_club", "--force")
        after_load = timezone.now()
    finally:
        deals_changed.disconnect(listen)

    club = Club.objects.get(slug=DEMO_SLUG)
    assert club.published and club.language == "it"
    assert club.ruleset == {"preset": "italian7", "options": {}}
    user = authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD)
    assert user is not None and club.is_organiser(user)
    roles = Counter(club.memberships.values_list("role", flat=True))
    assert roles["organiser"] == 1 and roles["guest"] >= 2
    assert sum(roles.values()) >= 16
    league = club.leagues.get()
    assert league.published and league.season == "2026"

    evenings = list(league.events.order_by("starts_at"))
    closed = [e for e in evenings if e.status == Event.Status.CLOSED]
    running = [e for e in evenings if e.status == Event.Status.RUNNING]
    assert len(closed) >= 3 and len(running) == 1 and evenings[-1] == running[0]
    # Club evenings at 20:30, weekly; the running one began within the last day, not at load.
    starts = [timezone.localtime(event.starts_at) for event in evenings]
    assert all(start.time() == datetime.time(20, 30) for start in starts)
    assert [(b.date() - a.date()).days for a, b in pairwise(starts)] == [7] * (len(starts) - 1)
    assert before_load - datetime.timedelta(days=1) < running[0].starts_at <= after_load
    for event in evenings:
        assert event.ruleset == club.ruleset
        rnd = event.rounds.get()
        seated = [s.player_id for t in rnd.tables.all() for s in t.seats.all()]
        byes = list(rnd.byes.values_list("id", flat=True))
        assert len(seated) == len(set(seated)) == 16
        assert set(seated) | set(byes) == set(event.entries.values_list("player_id", flat=True))
    for event in closed:
        for game in Game.objects.filter(table__round__event=event):
            assert game.status == Game.Status.COMPLETE and game.deals_count == 28
            record = game_record(game)
            assert barbu.validate_game(record) == []
            assert any(deal.get("doubles") for deal in record["deals"])
            assert game.scores.count() == 4
    in_progress = Game.objects.filter(table__round__event=running[0]).order_by("table__number")
    assert sorted(g.deals_count for g in in_progress)[0] == 0
    assert all(g.status == Game.Status.IN_PROGRESS for g in in_progress)
    assert sum(1 for g in in_progress if 5 <= g.deals_count < 28) >= 2
    # Every deal went through the services: scores per player and an audit entry each.
    deals = Deal.objects.filter(game__table__round__event__league=league).count()
    assert DealScore.objects.count() == 4 * deals
    # ... and one organiser's correction, so the audit trail has a before and an after.
    assert DealRevision.objects.count() == deals + 1
    correction = DealRevision.objects.get(action=DealRevision.Action.CORRECTED)
    assert correction.by_user == user and correction.deal.version == 2
    assert correction.deal.game.table.round.event == closed[0]
    assert barbu.validate_game(game_record(correction.deal.game)) == []
    barbu_games = Game.objects.filter(table__round__event__club=club)
    played = sorted(barbu_games.filter(deals_count__gt=0).values_list("id", flat=True))
    assert GameScore.objects.count() == 4 * len(played)  # written from a game's first deal
    # Standings are recomputed once, for every game and evening (the Burraco club's too,
    # demo/burraco/tournaments.py), not once per deal.
    assert len(announced) == 1
    games, events = announced[0]
    assert set(played) <= set(games) and set(e.pk for e in evenings) <= set(events)
    burraco = Game.objects.filter(table__round__event__game="burraco").values_list("id", flat=True)
    assert set(games) == set(played) | set(burraco)
    assert set(events) == set(Event.objects.values_list("id", flat=True))

    before = counts()
    password = type(user).objects.get(pk=user.pk).password
    assert "already there" in load_demo(force=True)
    assert counts() == before
    assert type(user).objects.get(pk=user.pk).password == password
