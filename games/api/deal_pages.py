"""A page of deals (the deal list, a game's deals) in one statement of plain SQL (issue 20).

The lean path (games/api/lean.py) reads such a page through the ORM: building the
visibility filter, the page and its count took about 0.8 ms on every request that missed
the cache, as long as PostgreSQL took to run the statement. Without a filter in the query
string (filters stay the ORM's: django-filter validates them and answers their errors),
the same rows are read here from SQL written once:

- the deals of the games the request may see, by PublicReadable.filter's rule (an event
  public or organised by the user, games/sql.visible_events; the table of the request's
  table key; everything for a superuser), as a set of game ids;
- in the lean path's order (game, number), with DEAL_COLUMNS' values;
- counted in the same statement, as pagination.FirstPageCountsItself counts a queryset
  (a scalar subquery when prepared, `COUNT(*) OVER ()` otherwise).

tests/api/test_deal_pages.py checks the same bytes and statements as the ORM path for
every role, page and game, on varied data.
"""

from __future__ import annotations

import datetime
import functools
from typing import Any

from django.conf import settings
from django.db import connection
from rest_framework.request import Request

from games.api.pagination import PREPARED, CountedRows
from games.api.permissions import table_key, visible_events_sql
from games.models import Deal, Game, Round, Table
from games.sql import orm_rows

_NAMES = ("id", "game_id", "number", "version", "status", "contract", "data", "scores")
_TIMES = ("created_at", "updated_at")
_FIELDS = [*(None for _ in _NAMES), *(Deal._meta.get_field(name) for name in _TIMES)]


def _q(name: str) -> str:
    return _quoted(connection.vendor, name)


@functools.cache
def _quoted(vendor: str, name: str) -> str:
    """A name quoted for the database: the statements are written on every request, and
    the connection's `ops` is two lookups through a thread-local proxy each time."""
    return connection.ops.quote_name(name)


def _utc_text() -> bool:
    """Whether the page reads its datetimes as UTC text (PostgreSQL, aware datetimes),
    which datetime.fromisoformat reads back at once: psycopg's loader (Django's subclass,
    in Python) took a quarter of the page's read for its 100 datetimes."""
    return connection.vendor == "postgresql" and settings.USE_TZ


def _column(name: str) -> str:
    if name in _TIMES and _utc_text():
        return f"""to_char(d.{_q(name)} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US"Z"')"""
    return f"d.{_q(name)}"


def _fetch(sql: str, params: list[Any], extra: int = 0) -> list[tuple]:
    """The rows of a page's statement (`extra` columns after DEAL_COLUMNS'), their
    datetimes as the ORM gives them (aware, in UTC)."""
    if not _utc_text():  # the values each database gives, converted as the ORM does
        return orm_rows(sql, params, [*_FIELDS, *(None for _ in range(extra))])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    at, read = len(_NAMES), datetime.datetime.fromisoformat  # "...Z": aware, in UTC
    return [(*row[:at], read(row[at]), read(row[at + 1]), *row[at + 2 :]) for row in rows]


def _visible_games(request: Request) -> tuple[str, list[Any]] | None:
    """SQL selecting the ids of the games the request may read; None: every game."""
    user = request.user
    if user and user.is_authenticated and user.is_superuser:
        return None
    events = visible_events_sql(request)
    g, t, r = (_q(m._meta.db_table) for m in (Game, Table, Round))
    sql = (
        f"SELECT g.{_q('id')} FROM {g} g JOIN {t} t ON t.{_q('id')} = g.{_q('table_id')} "
        f"JOIN {r} r ON r.{_q('id')} = t.{_q('round_id')} "
        f"WHERE r.{_q('event_id')} IN ({events.sql})"
    )
    params = list(events.params)
    key = table_key(request)
    if key is not None:
        sql += f" OR g.{_q('table_id')} = %s"
        params.append(key.table_id)
    return sql, params


class DealRows(CountedRows):
    """The deals a request may read (of one game, with `game_id`), as DEAL_COLUMNS' rows."""

    def __init__(self, request: Request, game_id: int | None = None) -> None:
        clauses, params = [], []
        if game_id is not None:
            clauses.append(f"{{d}}.{_q('game_id')} = %s")
            params.append(game_id)
        visible = _visible_games(request)
        if visible is not None:
            clauses.append(f"{{d}}.{_q('game_id')} IN ({visible[0]})")
            params += visible[1]
        self._where = " AND ".join(clauses)
        self._params = params
        self._one_game = game_id is not None

    def _from(self, alias: str) -> str:
        where = self._where.replace("{d}", alias)
        return f"FROM {_q(Deal._meta.db_table)} {alias}" + (f" WHERE {where}" if where else "")

    def _order(self, alias: str) -> str:
        return f" ORDER BY {alias}.{_q('game_id')}, {alias}.{_q('number')}"

    def _select(self, total: str = "", keys: str = "") -> str:
        """The page's statement: the deals themselves, or those whose ids `keys` selects
        (as k.id; then from `keys`, not from _from's deals)."""
        columns = ", ".join(_column(name) for name in (*_NAMES, *_TIMES))
        if not keys:
            return f"SELECT {columns}{total} {self._from('d')}{self._order('d')}"
        deal = _q(Deal._meta.db_table)
        return (
            f"SELECT {columns}{total} FROM {deal} d JOIN ({keys}) k ON k.{_q('id')} = "
            f"d.{_q('id')}{self._order('d')}"
        )

    def page(self, offset: int, limit: int) -> tuple[list[tuple], int | None]:
        """One statement. A page of the whole list is chosen by the deals' ids, numbers
        and games alone, and only its rows are read in full: when PostgreSQL sorted the
        visible deals rather than walk their index (its estimate for an anonymous
        reader), it sorted and converted every deal's columns (3-4 ms for 1,150 deals, 1
        ms this way). One game's deals are few: read directly."""
        prepared = getattr(connection, PREPARED, False)
        count = f", (SELECT COUNT(*) {self._from('n')})"
        if self._one_game:
            sql = self._select(count if prepared else ", COUNT(*) OVER ()")
            sql += _window(offset, limit)
        else:
            window = "" if prepared else ", COUNT(*) OVER () AS total"
            keys = f"SELECT k.{_q('id')}{window} {self._from('k')}{self._order('k')}"
            sql = self._select(count if prepared else ", k.total", keys + _window(offset, limit))
        params = [*self._params, *self._params] if prepared else list(self._params)
        rows = _fetch(sql, params, extra=1)
        if not rows:
            return [], None
        return [row[:-1] for row in rows], rows[0][-1]

    def rows(self, offset: int, limit: int) -> list[tuple]:
        return _fetch(self._select() + _window(offset, limit), self._params)

    def count(self) -> int:
        return orm_rows(f"SELECT COUNT(*) {self._from('n')}", self._params, [None])[0][0]

    def __iter__(self) -> Any:
        return iter(_fetch(self._select(), self._params))


def _window(offset: int, limit: int) -> str:
    """LIMIT and OFFSET written in the statement, as the ORM writes them: a prepared
    statement's plan then knows it reads a few rows in the index's order, where a
    parameter made PostgreSQL sort every visible deal for a page (1.2 ms, not 0.1)."""
    return f" LIMIT {int(limit)} OFFSET {int(offset)}"
