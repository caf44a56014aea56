"""A player's games, for the player page and the API's history (one query, two when the
player left a seat to a substitute or was one).

The games are read as plain rows (values_list) in one statement: the player's GameScore
rows and, in the same UNION, the games in which the player took part in a substitution
(a substitute who played fewer of the seat's deals has no GameScore row of the game).
Only then are the substitutions read, to write who played which deals. Reading the
GameScore rows as model instances with their game, table, round and event, and the
substitutions always, was most of the API history's time (issue 20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import DecimalField, F, IntegerField, Q, Value
from django.utils.translation import gettext as _

from clubs.models import Player
from games.models import Game, GameScore, Substitution
from games.seat_history import Change, deal_ranges, spans
from scoring import standings as maths

if TYPE_CHECKING:
    from scoring.selectors import Viewer

_PATH = "game__table__round__"
_COLUMNS = (
    "game_id",
    "game__status",
    "game__table__number",
    f"{_PATH}number",
    f"{_PATH}event_id",
    f"{_PATH}event__name",
    f"{_PATH}event__starts_at",
)


def player_games(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """Every game the player played that the visitor may see, oldest first.

    A game whose seat changed players (a substitute) is on both players' lists, with a
    note saying who played which deals; its result (points, place) is on the list of the
    one who played most of the seat's deals only (games/seat_history.py), the other's
    row has none.
    """
    scores = (
        GameScore.objects.filter(player=player)
        .filter(who.visible(_PATH))
        .annotate(
            scored=Value(1, output_field=IntegerField()),
            score_total=F("total"),
            score_place=F("place"),
            score_deals=F("deals"),
        )
        .order_by()
        .values_list(*_COLUMNS, "scored", "score_total", "score_place", "score_deals")
    )
    changes = (
        Substitution.objects.filter(Q(player_in=player) | Q(player_out=player))
        .filter(who.visible(_PATH))
        .annotate(
            scored=Value(0, output_field=IntegerField()),
            score_total=Value(None, output_field=DecimalField()),
            score_place=Value(None, output_field=DecimalField()),
            score_deals=Value(0, output_field=IntegerField()),
        )
        .order_by()
        .values_list(*_COLUMNS, "scored", "score_total", "score_place", "score_deals")
    )
    out: dict[int, dict[str, Any]] = {}
    substituted: dict[int, dict[str, Any]] = {}
    for (
        game_id,
        status,
        table,
        rnd,
        event_id,
        name,
        date,
        scored,
        total,
        place,
        deals,
    ) in scores.union(changes):
        row = {
            "game_id": game_id,
            "event_id": event_id,
            "event": name,
            "date": date,
            "round": rnd,
            "table": table,
            "total": None if total is None else maths.number(maths.Fraction(total)),
            "place": None if place is None else float(place),
            "deals": deals,
            "complete": status == Game.Status.COMPLETE,
            "note": "",
        }
        (out if scored else substituted)[game_id] = row
    if substituted:
        for game, (deals, note) in substitution_notes(player, who).items():
            row = out.get(game.pk) or substituted[game.pk]
            row.update(deals=deals, note=note)
            out[game.pk] = row
    return sorted(out.values(), key=lambda r: (r["date"], r["round"], r["game_id"]))


def substitution_notes(player: Player, who: Viewer) -> dict[Game, tuple[int, str]]:
    """{game: (deals the player played, a note)} of the visible games in which the player
    left a seat to a substitute or was one (one query)."""
    involved = Substitution.objects.filter(Q(player_in=player) | Q(player_out=player))
    changes = (
        Substitution.objects.filter(game_id__in=involved.values("game_id"))
        .filter(who.visible(_PATH))
        .select_related("game", "player_in", "player_out")
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
