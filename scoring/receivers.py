"""Signal receivers: a stored or corrected deal queues the standings and ratings it
affects; a migrate that (re)made scoring's tables rebuilds them."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor

from clubs.models import Player
from games.models import Game
from scoring import tasks
from scoring.models import (
    BurracoRating,
    BurracoRatingHistory,
    EventStanding,
    LeagueStanding,
    PlayerRating,
    RatingHistory,
)
from scoring.rebuild import rebuild_all


def on_deals_changed(
    sender: Any,
    game_ids: list[int],
    event_ids: list[int],
    complete_league_ids: Iterable[int | None] | None = None,
    burraco_rated: bool = False,
    **kwargs: Any,
) -> None:
    """Queue the evening's standings; the league's and the ratings when a complete game
    changed (a game in progress counts only on the evening's live leaderboard).

    `complete_league_ids`: the league ids (None for an evening outside any league) of the
    complete games among `game_ids`, when the sender knows them (a deal submission holds
    the game and its event already); otherwise they are read here.
    """
    if complete_league_ids is None:
        complete_league_ids = Game.objects.filter(
            pk__in=game_ids, status=Game.Status.COMPLETE
        ).values_list("table__round__event__league_id", flat=True)
    tasks.queue_after_deals(event_ids, set(complete_league_ids))
    if burraco_rated:
        tasks.queue_burraco_ratings()


def drop_merged_player_rows(sender: Any, *, duplicate: Player, **kwargs: Any) -> None:
    """Receiver of clubs' `player_merging`: the duplicate's standings and ratings are derived
    rows; drop them, and the standings tasks queued after the merge rebuild the kept
    player's."""
    EventStanding.objects.filter(player=duplicate).delete()
    LeagueStanding.objects.filter(player=duplicate).delete()
    RatingHistory.objects.filter(player=duplicate).delete()
    PlayerRating.objects.filter(player=duplicate).delete()
    BurracoRatingHistory.objects.filter(player=duplicate).delete()
    BurracoRating.objects.filter(player=duplicate).delete()


def rebuild_after_migrate(
    sender: Any, *, using: str, plan: list | None = None, verbosity: int = 1, **kwargs: Any
) -> None:
    """post_migrate: every table of scoring holds rows derived from the games, so a
    migrate that ran one of scoring's migrations forwards (a new column, or a table made
    anew after a downgrade) rebuilds them all, once every migration is applied (before,
    the models would not match the tables). A database without games has nothing to do."""
    ran = any(m.app_label == "scoring" and not backwards for m, backwards in plan or [])
    if not ran or using != DEFAULT_DB_ALIAS:
        return
    stdout = kwargs.get("stdout") or sys.stdout
    executor = MigrationExecutor(connections[using])
    if executor.migration_plan(executor.loader.graph.leaf_nodes()):
        if verbosity:
            stdout.write(
                "The standings' tables changed: once every migration is applied, "
                "`manage.py migrate` rebuilds them (or run `manage.py rebuild_standings`).\n"
            )
        return
    if not Game.objects.exists():
        return
    if verbosity:
        stdout.write("Rebuilding the standings and ratings (their tables changed)...\n")
    report = rebuild_all()
    if verbosity:
        stdout.write(f"Rebuilt: {report}\n")
