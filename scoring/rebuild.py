"""Every evening's standings rebuilt, whichever its game, and everything rebuilt (rebuild_all).

What both games share: an evening's rebuild locks its event row and goes to its game's
rebuild, a Barbu evening's players (scoring/barbu/rebuild.py) or a Burraco tournament's
pairs (scoring/burraco/rebuild.py), in that one transaction. A league's table and the
ratings are each game's own (scoring/barbu/, scoring/burraco/); rebuild_all runs them all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction

from clubs.models import GameChoice, League
from games.models import Event
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from scoring.burraco.rating_sync import sync_burraco_ratings
from scoring.burraco.rebuild import rebuild_pair_standings


def rebuild_event_standings(*, event_id: int) -> int:
    """Bring an evening's standing rows up to date; the number of players ranked (of
    pairs, for a Burraco tournament: scoring/burraco/rebuild.py)."""
    with transaction.atomic():
        try:
            event = (
                Event.objects.select_for_update(of=("self",))
                .select_related("league")
                .get(pk=event_id)
            )
        except Event.DoesNotExist:
            return 0
        if event.game == GameChoice.BURRACO:  # locked again there: the same transaction
            return rebuild_pair_standings(event_id=event_id)
        return barbu_rebuild.rebuild_player_standings(event)


def rebuild_all(progress: Callable[[str, int, int], None] | None = None) -> dict[str, int]:
    """Every event's and league's standings and the ratings, from scratch."""
    events = list(Event.objects.order_by("id").values_list("id", flat=True))
    leagues = list(League.objects.order_by("id").values_list("id", flat=True))
    for i, event_id in enumerate(events, 1):
        rebuild_event_standings(event_id=event_id)
        if progress:
            progress("events", i, len(events))
    for i, league_id in enumerate(leagues, 1):
        barbu_rebuild.rebuild_league_standings(league_id=league_id)
        if progress:
            progress("leagues", i, len(leagues))
    report = barbu_rating_sync.sync_ratings(full=True)
    if progress:
        progress("ratings", report.games, report.games)
    pairs = sync_burraco_ratings(full=True)
    if progress:
        progress("Burraco pair ratings", pairs.games, pairs.games)
    return {
        "events": len(events),
        "leagues": len(leagues),
        "games_rated": report.games,
        "burraco_cards_rated": pairs.games,
    }
