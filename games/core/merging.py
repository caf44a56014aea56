"""A player merge (clubs.services.player_merge) as it touches the games app's rows."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.services import ClubError
from games.core.signals import deals_changed
from games.models import (
    BurracoPair,
    Deal,
    DealScore,
    EventPlayer,
    Game,
    GameScore,
    Round,
    Seat,
    Substitution,
)


def move_player_rows(
    sender: Any, *, club: Club, keep: Player, duplicate: Player, **kwargs: Any
) -> None:
    """Receiver of clubs' `player_merging`: give `keep` the duplicate's check-ins, seats,
    scores, deals dealt, byes and Burraco pairs; refuse when both sat at the same table or
    played in the same Burraco tournament.

    Runs inside the merge's transaction; the standings of the games concerned are queued
    after it commits.
    """
    shared_tables = set(Seat.objects.filter(player=keep).values_list("table_id", flat=True)) & set(
        Seat.objects.filter(player=duplicate).values_list("table_id", flat=True)
    )
    if shared_tables:
        raise ClubError(
            _("%(a)s and %(b)s played at the same table: they are two different people.")
            % {"a": keep.name, "b": duplicate.name},
            code="played_together",
            params={"tables": sorted(shared_tables)},
        )

    _check_burraco(keep, duplicate)

    kept_events = set(EventPlayer.objects.filter(player=keep).values_list("event_id", flat=True))
    EventPlayer.objects.filter(player=duplicate, event_id__in=kept_events).delete()
    EventPlayer.objects.filter(player=duplicate).update(player=keep)

    Seat.objects.filter(player=duplicate).update(player=keep)
    GameScore.objects.filter(player=duplicate).update(player=keep)
    DealScore.objects.filter(player=duplicate).update(player=keep)
    Deal.objects.filter(dealer=duplicate).update(dealer=keep)
    Substitution.objects.filter(player_out=duplicate).update(player_out=keep)
    Substitution.objects.filter(player_in=duplicate).update(player_in=keep)
    through = Round.byes.through
    kept_byes = set(through.objects.filter(player=keep).values_list("round_id", flat=True))
    through.objects.filter(player=duplicate, round_id__in=kept_byes).delete()
    through.objects.filter(player=duplicate).update(player=keep)

    burraco_events = _move_burraco_pairs(keep, duplicate)

    games = list(
        Game.objects.filter(scores__player=keep).values_list("pk", "table__round__event_id")
    )
    if games:
        game_ids = sorted({g for g, _e in games})
        event_ids = sorted({e for _g, e in games})
        transaction.on_commit(
            lambda: deals_changed.send(sender=Player, game_ids=game_ids, event_ids=event_ids)
        )
    if burraco_events:  # the pairs' names changed, and the pair rating's players
        transaction.on_commit(
            lambda: deals_changed.send(
                sender=Player, game_ids=[], event_ids=burraco_events, burraco_rated=True
            )
        )


def _pair_events(player: Player) -> set[int]:
    return set(
        BurracoPair.objects.filter(player_a=player).values_list("event_id", flat=True)
    ) | set(BurracoPair.objects.filter(player_b=player).values_list("event_id", flat=True))


def _check_burraco(keep: Player, duplicate: Player) -> None:
    shared = _pair_events(keep) & _pair_events(duplicate)
    if shared:
        raise ClubError(
            _("%(a)s and %(b)s played in the same tournament: they are two different people.")
            % {"a": keep.name, "b": duplicate.name},
            code="played_together",
            params={"events": sorted(shared)},
        )


def _move_burraco_pairs(keep: Player, duplicate: Player) -> list[int]:
    """The duplicate's pairs become the kept player's; the tournaments concerned."""
    events = sorted(_pair_events(duplicate))
    BurracoPair.objects.filter(player_a=duplicate).update(player_a=keep)
    BurracoPair.objects.filter(player_b=duplicate).update(player_b=keep)
    return events
