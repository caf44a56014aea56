"""Hot reads in one plain query each, answered with JSON bytes rendered once and cached.

`visible_game_row` / `visible_event_row` read the few columns a cached answer's key needs
and decide visibility in the same SQL statement, exactly as PublicReadable.filter /
PublicReadable.events do (public event of a public club; or a club the user organises;
a superuser sees everything; a table key also sees its own table's game). None: not
visible or absent; the caller then runs the ORM path, which answers the 404 as before.

`CachedJSONResponse` is a DRF Response (authentication, throttling, content negotiation,
headers unchanged) whose body is bytes JSONRenderer produced earlier for the same data:
served as they are when the negotiated rendering is plain JSON, rendered from the parsed
data otherwise (the browsable API, `indent`).
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.db.models import JSONField
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Club, League, Membership, Player
from games.api.permissions import table_key
from games.api.renderers import JSONRenderer
from games.models import Event, Game, Round, Table
from games.sql import json_value, organised_clubs

_RENDERER = JSONRenderer()


def render_json(data: Any) -> bytes:
    """The bytes the API's JSONRenderer answers for `data` with `Accept: application/json`."""
    return _RENDERER.render(data, _RENDERER.media_type, {})


class CachedJSONResponse(Response):
    def __init__(self, body: bytes, **kwargs: Any) -> None:
        super().__init__(None, **kwargs)
        self.json_body = body

    @property
    def rendered_content(self) -> bytes:
        renderer = getattr(self, "accepted_renderer", None)
        context = getattr(self, "renderer_context", None) or {}
        if (
            type(renderer) is JSONRenderer
            and getattr(self, "accepted_media_type", None) == renderer.media_type
            and not context.get("indent")
            and self.content_type is None
            and renderer.charset is None
        ):
            self["Content-Type"] = renderer.media_type
            return self.json_body
        self.data = json.loads(self.json_body)
        return super().rendered_content


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _visibility(request: Request, table_column: str | None) -> tuple[str, list[Any]] | None:
    """The WHERE clause of PublicReadable.filter over aliases e (event) and c (club); None
    when everything is visible (a superuser)."""
    user = request.user
    authenticated = bool(user and user.is_authenticated)
    if authenticated and user.is_superuser:
        return None
    clauses = [f"(e.{_q('published')} = %s AND c.{_q('published')} = %s)"]
    params: list[Any] = [True, True]
    if authenticated:
        clauses.append(f"e.{_q('club_id')} IN ({organised_clubs('%s', '%s')})")
        params += [user.pk, Membership.Role.ORGANISER.value]
    key = table_key(request)
    if key is not None and table_column is not None:
        clauses.append(f"{table_column} = %s")
        params.append(key.table_id)
    return "(" + " OR ".join(clauses) + ")", params


def _visible_row(
    request: Request, sql: str, pk: int, table_column: str | None
) -> tuple[Any, ...] | None:
    """The one row of `sql` (its WHERE ends with `= %s` for pk) if the request may see it."""
    params: list[Any] = [pk]
    visible = _visibility(request, table_column)
    if visible is not None:
        sql += f" AND {visible[0]}"
        params += visible[1]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def _instance(model: Any, values: dict[str, Any]) -> Any:
    """A model instance with only these fields loaded (the others deferred): Model.from_db
    takes them in the model's field order."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    assert len(names) == len(values), values
    return model.from_db(connection.alias, names, [values[n] for n in names])


GAME_FIELDS = ["id", "table_id", "ruleset", "player_names", "status", "deals_count", "substituted"]
_GAME_JSON = {f for f in GAME_FIELDS if isinstance(Game._meta.get_field(f), JSONField)}


def visible_game_row(request: Request, pk: int) -> tuple[Game, Any] | None:
    """The game (GAME_FIELDS only) and its updated_at as read, if the request may read it."""
    g, t, r, e, c = (m._meta.db_table for m in (Game, Table, Round, Event, Club))
    columns = ", ".join(f"g.{_q(f)}" for f in [*GAME_FIELDS, "updated_at"])
    sql = (
        f"SELECT {columns} FROM {_q(g)} g "
        f"JOIN {_q(t)} t ON t.{_q('id')} = g.{_q('table_id')} "
        f"JOIN {_q(r)} r ON r.{_q('id')} = t.{_q('round_id')} "
        f"JOIN {_q(e)} e ON e.{_q('id')} = r.{_q('event_id')} "
        f"JOIN {_q(c)} c ON c.{_q('id')} = e.{_q('club_id')} WHERE g.{_q('id')} = %s"
    )
    row = _visible_row(request, sql, pk, f"g.{_q('table_id')}")
    if row is None:
        return None
    values = {
        f: json_value(v) if f in _GAME_JSON else v for f, v in zip(GAME_FIELDS, row, strict=False)
    }
    return _instance(Game, values), row[-1]


def visible_event_row(request: Request, pk: int) -> Event | None:
    """The event (id, status, game, Burraco format, ranking, league with its ranking) if
    the request may read it."""
    e, c, lg = (m._meta.db_table for m in (Event, Club, League))
    sql = (
        f"SELECT e.{_q('id')}, e.{_q('status')}, e.{_q('game')}, e.{_q('ranking')}, "
        f"e.{_q('league_id')}, l.{_q('ranking')}, e.{_q('burraco_format')} FROM {_q(e)} e "
        f"JOIN {_q(c)} c ON c.{_q('id')} = e.{_q('club_id')} "
        f"LEFT JOIN {_q(lg)} l ON l.{_q('id')} = e.{_q('league_id')} WHERE e.{_q('id')} = %s"
    )
    row = _visible_row(request, sql, pk, None)
    if row is None:
        return None
    event_id, status, game, ranking, league_id, league_ranking, burraco_format = row
    event = _instance(
        Event,
        {
            "id": event_id,
            "status": status,
            "game": game,
            "burraco_format": burraco_format,
            "ranking": json_value(ranking),
            "league_id": league_id,
        },
    )
    event.league = (
        None
        if league_id is None
        else _instance(League, {"id": league_id, "ranking": json_value(league_ranking)})
    )
    return event


def visible_player_row(request: Request, pk: int) -> Player | None:
    """The player (id and name only) if the request may read it, as
    PublicReadable.players decides: a member of a published club or of a club the user
    organises; any player for a superuser. For a logged-in user, the same statement also
    reads the clubs they organise and keeps them on the request (organiser_club_ids then
    makes no query of its own)."""
    p, m, c = (model._meta.db_table for model in (Player, Membership, Club))
    sql = f"SELECT p.{_q('id')}, p.{_q('name')}, NULL FROM {_q(p)} p WHERE p.{_q('id')} = %s"
    params: list[Any] = [pk]
    user = request.user
    authenticated = bool(user and user.is_authenticated)
    read_clubs = authenticated and not user.is_superuser
    if not (authenticated and user.is_superuser):
        clubs = f"c.{_q('published')} = %s"
        params.append(True)
        if authenticated:
            clubs += f" OR m.{_q('club_id')} IN ({organised_clubs('%s', '%s')})"
            params += [user.pk, Membership.Role.ORGANISER.value]
        sql += (
            f" AND EXISTS (SELECT 1 FROM {_q(m)} m JOIN {_q(c)} c ON c.{_q('id')} = "
            f"m.{_q('club_id')} WHERE m.{_q('player_id')} = p.{_q('id')} AND ({clubs}))"
        )
    if read_clubs:  # rows (NULL, NULL, club id) after the player's
        organised = organised_clubs("%s", "%s")
        sql += f" UNION ALL SELECT NULL, NULL, o.{_q('club_id')} FROM ({organised}) o"
        params += [user.pk, Membership.Role.ORGANISER.value]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if read_clubs:
        request._organiser_club_ids = frozenset(r[2] for r in rows if r[0] is None)
    found = [r for r in rows if r[0] is not None]
    return _instance(Player, {"id": found[0][0], "name": found[0][1]}) if found else None
