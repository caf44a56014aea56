"""Signal receivers: a stored or corrected deal queues the standings and ratings it affects."""

from __future__ import annotations

from typing import Any

from games.models import Game
from scoring import tasks


def on_deals_changed(sender: Any, game_ids: list[int], event_ids: list[int], **kwargs: Any):
    """Queue the evening's standings; the league's and the ratings when a complete game
    changed (a game in progress counts only on the evening's live leaderboard)."""
    leagues = set(
        Game.objects.filter(pk__in=game_ids, status=Game.Status.COMPLETE).values_list(
            "table__round__event__league_id", flat=True
        )
    )
    tasks.queue_after_deals(event_ids, leagues)
