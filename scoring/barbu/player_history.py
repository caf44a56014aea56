"""A player's games, for the player page and the API's history: two queries whatever the
length of the history.

One reads the player's GameScore rows with their game, table, round and evening; the other
the substitutions of the games in which the player left a seat to a substitute or was one,
with those games (a substitute who played fewer of the seat's deals has no GameScore row
of the game), to write who played which deals. Both only in the evenings the visitor may
see (Viewer: Event.objects.visible_to).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Player
from games.barbu.seat_history import Change, deal_ranges, spans
from games.models import Game, GameScore, Substitution
from scoring.engine import ranking as maths

if TYPE_CHECKING:
    from scoring.selectors import Viewer

_GAME = "game__table__round__event"


def _row(game: Game, total: Any, place: Any, deals: int) -> dict[str, Any]:
    """A game of the history (its table, round and evening read with it)."""
    rnd = game.table.round
    return {
        "game_id": game.pk,
        "event_id": rnd.event_id,
        "event": rnd.event.name,
        "date": rnd.event.starts_at,
        "round": rnd.number,
        "table": game.table.number,
        "total": None if total is None else maths.number(maths.Fraction(total)),
        "place": None if place is None else float(place),
        "deals": deals,
        "complete": game.status == Game.Status.COMPLETE,
        "note": "",
    }


def player_games(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """Every game the player played that the visitor may see, oldest first.

    A game whose seat changed players (a substitute) is on both players' lists, with a
    note saying who played which deals; its result (points, place) is on the list of the
    one who played most of the seat's deals only (games/barbu/seat_history.py), the other's
    row has none.
    """
    scores = (
        GameScore.objects.filter(player=player)
        .filter(who.visible(_GAME))
        .select_related(_GAME)
        .only(
            "game_id",
            "total",
            "place",
            "deals",
            "game__status",
            "game__table__number",
            "game__table__round__number",
            "game__table__round__event__name",
            "game__table__round__event__starts_at",
        )
        .order_by()
    )
    out = {s.game_id: _row(s.game, s.total, s.place, s.deals) for s in scores}
    for game, (deals, note) in substitution_notes(player, who).items():
        row = out.get(game.pk) or _row(game, None, None, deals)
        row.update(deals=deals, note=note)
        out[game.pk] = row
    return sorted(out.values(), key=lambda r: (r["date"], r["round"], r["game_id"]))


def substitution_notes(player: Player, who: Viewer) -> dict[Game, tuple[int, str]]:
    """{game: (deals the player played, a note)} of the visible games in which the player
    left a seat to a substitute or was one, each game with its table, round and evening
    (one query)."""
    involved = Substitution.objects.filter(Q(player_in=player) | Q(player_out=player))
    changes = (
        Substitution.objects.filter(game_id__in=involved.values("game_id"))
        .filter(who.visible(_GAME))
        .select_related(_GAME, "player_in", "player_out")
        .order_by("game_id", "seat", "from_deal")
    )
    by_game: dict[Game, list[Substitution]] = {}
    for change in changes:
        by_game.setdefault(change.game, []).append(change)
    out = {}
    for game, rows in by_game.items():
        seats = {r.seat for r in rows if player.pk in (r.player_in_id, r.player_out_id)}
        timeline = [
            Change(r.seat, r.from_deal, r.player_out_id, r.player_in_id)
            for r in rows
            if r.seat in seats
        ]
        runs = [
            run
            for (seat, who_played), played in spans([0] * 4, timeline, game.deals_count).items()
            if seat in seats and who_played == player.pk
            for run in played
        ]
        parts = [_("played deals %(deals)s") % {"deals": deal_ranges(runs)}] if runs else []
        for r in rows:
            if r.seat not in seats:
                continue
            if r.player_out_id == player.pk:
                parts.append(
                    _("substituted by %(name)s from deal %(number)s")
                    % {"name": r.player_in.name, "number": r.from_deal}
                )
            elif r.player_in_id == player.pk:
                parts.append(
                    _("substitute for %(name)s from deal %(number)s")
                    % {"name": r.player_out.name, "number": r.from_deal}
                )
        out[game] = (sum(b - a + 1 for a, b in runs), "; ".join(parts))
    return out
