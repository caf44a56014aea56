"""Reads of games: ORM rows turned into the engine's game record."""

from __future__ import annotations

from collections.abc import Iterable

from clubs.models import Player
from games.models import Deal, Game, Seat


def seat_players(game: Game) -> list[Player]:
    """The game's players in seat order (seat 0 deals first)."""
    seats = Seat.objects.filter(table_id=game.table_id).select_related("player")
    return [seat.player for seat in sorted(seats, key=lambda s: s.position)]


def game_record(game: Game, deals: Iterable[Deal] | None = None) -> dict:
    """The game as the JSON record of shared/rules/FORMAT.md."""
    if deals is None:
        deals = game.deals.order_by("number")
    return {
        "ruleset": game.ruleset,
        "players": list(game.player_names),
        "deals": [deal.data for deal in deals],
    }
