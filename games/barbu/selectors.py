"""Reads of games: ORM rows turned into the engine's game record."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from clubs.models import Player
from games.barbu.seat_history import Change, deal_ranges, players_at, spans
from games.models import Deal, Game, Seat, Substitution


def seat_players(game: Game) -> list[Player]:
    """The game's players in seat order (seat 0 deals first)."""
    seats = Seat.objects.filter(table_id=game.table_id).select_related("player")
    return [seat.player for seat in sorted(seats, key=lambda s: s.position)]


def game_record(game: Game, deals: Iterable[Deal] | None = None) -> dict:
    """The game as the JSON record of docs/rules/format.md."""
    if deals is None:
        deals = game.deals.order_by("number")
    return {
        "ruleset": game.ruleset,
        "players": list(game.player_names),
        "deals": [deal.data for deal in deals],
    }


def seat_notes(game: Game) -> list[str]:
    """Who played which deals of each seat that changed players, one sentence per seat
    ("Seat 1 (Anna): Anna deals 1–5, Bruno deals 6–9"); none for a game never substituted
    (no query then, one otherwise). The record names each seat by its first player."""
    if not game.substituted:
        return []
    rows = list(
        Substitution.objects.filter(game_id=game.pk).select_related("player_in", "player_out")
    )
    names = {r.player_in_id: r.player_in.name for r in rows}
    names |= {r.player_out_id: r.player_out.name for r in rows}
    timeline = [Change(r.seat, r.from_deal, r.player_out_id, r.player_in_id) for r in rows]
    # A seat without a change has no starter here (0): only changed seats are told.
    runs = spans([0] * 4, timeline, game.deals_count)
    changed = sorted({r.seat for r in rows})
    upcoming = players_at([0] * 4, timeline, game.deals_count + 1)
    last = players_at([0] * 4, timeline, game.deals_count)
    out = []
    for seat in changed:
        played = [
            _("%(name)s deals %(deals)s") % {"name": names[player], "deals": deal_ranges(r)}
            for (s, player), r in runs.items()
            if s == seat
        ]
        if game.deals_count < game.deals_target and upcoming[seat] != last[seat]:
            played.append(
                _("%(name)s from deal %(number)s")
                % {"name": names[upcoming[seat]], "number": game.deals_count + 1}
            )
        out.append(
            _("Seat %(seat)s (%(label)s): %(players)s")
            % {
                "seat": seat + 1,
                "label": game.player_names[seat],
                "players": ", ".join(played),
            }
        )
    return out
