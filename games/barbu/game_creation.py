"""A seated table's game created, with the evening's ruleset frozen in it."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.core.errors import EntryError
from games.core.short_names import unique_names
from games.models import Game, Table
from scoring.engine import barbu


def game_create(*, table: Table, turns: int | None = None) -> Game:
    """The game of a seated table, with the event's ruleset frozen in it."""
    event = table.round.event
    ruleset = barbu.ruleset_from_json(event.ruleset)
    turns = turns or event.turns_per_round or 4
    seats = list(table.seats.select_related("player").order_by("position"))
    if len(seats) != 4:
        raise EntryError(
            _("A table needs exactly four players."),
            code="table_not_full",
            params={"players": len(seats)},
        )
    return Game.objects.create(
        table=table,
        ruleset=barbu.ruleset_to_json(ruleset),
        player_names=unique_names([seat.player.name for seat in seats]),
        deals_target=min(turns, 4) * ruleset.deals_per_turn,
    )
