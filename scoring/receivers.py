"""Signal receivers: a stored or corrected deal queues the standings and ratings it affects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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
