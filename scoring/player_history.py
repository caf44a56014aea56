"""A player's games, for the player page and the API's history (one query, two when the
player left a seat to a substitute or was one).

The games are read as plain rows in one statement of plain SQL: the player's GameScore
rows and, in the same UNION ALL, the games in which the player took part in a
substitution (a substitute who played fewer of the seat's deals has no GameScore row of
the game). Only then are the substitutions read, to write who played which deals.
Reading the GameScore rows as model instances with their game, table, round and event,
and the substitutions always, was most of the API history's time; building the same
UNION through the ORM (values_list) still took about 1 ms a request (issue 20).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Field, Q
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from games.models import Event, Game, GameScore, Round, Substitution, Table
from games.seat_history import Change, deal_ranges, spans
from games.sql import orm_rows
from scoring import standings as maths

if TYPE_CHECKING:
    from scoring.selectors import Viewer

_PATH = "game__table__round__"


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _games_sql(who: Viewer) -> tuple[str, list[Any]]:
    """One statement: the player's GameScore rows and the games in which they took part
    in a substitution (a substitute who played fewer of the seat's deals has no GameScore
    row there), each with its game, table, round and event, in the games `who` may see.
    Parameters: the player's id three times, then the visibility's. The game's rows are
    joined once, after the UNION ALL: planning the joins twice (once per branch, as the
    ORM's UNION had them) cost PostgreSQL three times as long (issue 20)."""
    s, x = _q(GameScore._meta.db_table), _q(Substitution._meta.db_table)
    g, t, r, e, c = (_q(m._meta.db_table) for m in (Game, Table, Round, Event, Club))
    game = _q("game_id")
    sql = (
        f"SELECT p.{game}, g.{_q('status')}, t.{_q('number')}, r.{_q('number')}, "
        f"r.{_q('event_id')}, e.{_q('name')}, e.{_q('starts_at')}, "
        f"p.scored, p.total, p.place, p.deals FROM ("
        f"SELECT s.{game}, 1 AS scored, s.{_q('total')} AS total, s.{_q('place')} AS place, "
        f"s.{_q('deals')} AS deals FROM {s} s WHERE s.{_q('player_id')} = %s "
        f"UNION ALL SELECT x.{game}, 0, NULL, NULL, 0 FROM {x} x "
        f"WHERE x.{_q('player_in_id')} = %s OR x.{_q('player_out_id')} = %s) p "
        f"JOIN {g} g ON g.{_q('id')} = p.{game} "
        f"JOIN {t} t ON t.{_q('id')} = g.{_q('table_id')} "
        f"JOIN {r} r ON r.{_q('id')} = t.{_q('round_id')} "
        f"JOIN {e} e ON e.{_q('id')} = r.{_q('event_id')}"
    )
    visible = who.visible_sql()
    if visible is None:
        return sql, []
    sql += f" JOIN {c} c ON c.{_q('id')} = e.{_q('club_id')} WHERE {visible[0]}"
    return sql, visible[1]


def _fields() -> list[Field | None]:
    """The columns of _games_sql converted as the ORM converts them (decimals, datetimes)."""
    score = GameScore._meta.get_field
    starts = Event._meta.get_field("starts_at")
    return [None, None, None, None, None, None, starts, None, score("total"), score("place"), None]


def player_games(player: Player, who: Viewer) -> list[dict[str, Any]]:
    """Every game the player played that the visitor may see, oldest first.

    A game whose seat changed players (a substitute) is on both players' lists, with a
    note saying who played which deals; its result (points, place) is on the list of the
    one who played most of the seat's deals only (games/seat_history.py), the other's
    row has none.
    """
    sql, ids = _games_sql(who)
    rows = orm_rows(sql, [player.pk, player.pk, player.pk, *ids], _fields())
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
    ) in rows:
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
