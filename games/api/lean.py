"""The long lists' pages as plain rows: values() instead of model instances and DRF
serializers (issue 20).

A list page of 50 deals, games or tables was read as model instances (with their
select_related rows and prefetched seats: about 560 instances for 50 tables) and turned
into JSON by the resource's serializer, field by field: most of the request's time, 3 to
7 times the trivial list's. Here the same page, filtered and ordered by the same
queryset, is read with values_list() and each row made as a dict with the serializer's
keys in its order and the values its fields would give (ints, strings and JSON as
stored; datetimes through DRF's own DateTimeField). The serializers stay what the schema
documents; tests/api/test_lean_lists.py checks that every list answers the same bytes
through both paths, in the same number of statements.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
from django.conf import settings
from django.db import connection
from django.db.models import ExpressionWrapper, F, TextField
from django.utils import timezone
from rest_framework import ISO_8601, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from clubs.models import Player
from games.api import read_cache
from games.api.pagination import PREPARED, CountedRows
from games.models import Round, Seat

_DATETIME = serializers.DateTimeField()


def _datetime(value: Any) -> str | None:
    """As DateTimeField gives it (ISO 8601 in the current time zone, `Z` for UTC)."""
    return _DATETIME.to_representation(value) if value is not None else None


def datetimes() -> Callable[[Any], str | None]:
    """_datetime for the rows of one page: the current time zone read once, and an aware
    datetime (what the database gives with USE_TZ) written as DateTimeField does
    (astimezone, isoformat, `Z` for +00:00) without its per-value lookups; anything else,
    or another DATETIME_FORMAT, through DateTimeField itself."""
    if not settings.USE_TZ or str(api_settings.DATETIME_FORMAT).lower() != ISO_8601:
        return _datetime
    zone = timezone.get_current_timezone()

    def iso(value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, datetime.datetime) or value.utcoffset() is None:
            return _datetime(value)
        text = value.astimezone(zone).isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return iso


def json_text(name: str) -> ExpressionWrapper:
    """A JSON column read as its stored text, which `loads` parses: orjson takes a third
    of the time JSONField's json.loads took for a page of deals (issue 20). Both
    databases give the text (PostgreSQL's jsonb in its own key order, which JSONField
    parses too), so the values are the same."""
    return ExpressionWrapper(F(name), output_field=TextField())


def loads(value: Any) -> Any:
    """A JSON column's value from its text (`json_text`); None stays None."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value


class LeanList:
    """list() of a ReadOnlyViewSet from values_list() rows: `lean_columns` are read,
    `lean_rows(request, page)` makes the page's dicts. `lean = False` (as_view's
    initkwargs) serves the serializer path instead: the tests' reference."""

    lean = True
    lean_columns: Sequence[str] = ()
    # Whether list() may read its rows by lean_sql (False: through the ORM always, the
    # tests' reference for it).
    sql = True

    def lean_rows(self, request: Request, page: list[tuple]) -> list[dict[str, Any]]:
        raise NotImplementedError

    def lean_sql(self, request: Request) -> CountedRows | None:
        """The list's rows (lean_columns' values, in the queryset's order) read by plain
        SQL, when the request asks no filter; None: the ORM reads them."""
        return None

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """One row as list() makes it, read through the same queryset (visibility
        included) in one statement; a row not found (or a view with object permissions
        to check) takes the serializer path, which answers the 404 as before."""
        if not self.lean or not _no_object_permissions(self):
            return super().retrieve(request, *args, **kwargs)  # type: ignore[misc]
        lookup = self.lookup_url_kwarg or self.lookup_field  # type: ignore[attr-defined]
        queryset = self.filter_queryset(self.get_queryset())  # type: ignore[attr-defined]
        values = queryset.prefetch_related(None).filter(
            **{self.lookup_field: kwargs[lookup]}  # type: ignore[attr-defined]
        )
        rows = list(values.values_list(*self.lean_columns)[:2])
        if len(rows) != 1:
            return super().retrieve(request, *args, **kwargs)  # type: ignore[misc]
        return Response(self.lean_rows(request, rows)[0])

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not self.lean:
            return super().list(request, *args, **kwargs)  # type: ignore[misc]
        return read_cache.cached_read(request, self, lambda: self._lean_list(request))

    def _lean_list(self, request: Request) -> Response:
        rows = None
        if self.sql and not set(request.query_params) - {"page", "page_size"}:
            rows = self.lean_sql(request)
        if rows is not None:  # the query parameters are still checked (400)
            values: Any = self.filter_queryset(rows)  # type: ignore[attr-defined]
        else:
            queryset = self.filter_queryset(self.get_queryset())  # type: ignore[attr-defined]
            values = queryset.prefetch_related(None).values_list(*self.lean_columns)
        with prepared_reads():
            page = self.paginate_queryset(values)  # type: ignore[attr-defined]
            if page is None:  # no pagination class: every row, as ListModelMixin answers
                return Response(self.lean_rows(request, list(values)))
            rows = self.lean_rows(request, list(page))
        return self.get_paginated_response(rows)  # type: ignore[attr-defined]


@contextmanager
def prepared_reads() -> Iterator[None]:
    """The queries run inside are prepared by PostgreSQL once per database session and
    text (psycopg's automatic preparation, with server-side binding), not planned again
    on every request: a list page's statement (visibility, page and count) cost more to
    plan than to run, about 1.3 of 2 ms for a page of deals (issue 20). Off (the queries
    run as everywhere else) on SQLite and with DB_PREPARED_STATEMENTS=0 (a pooler in
    transaction mode, where a session's prepared statements do not follow a client).
    Only the queries made inside: the rest of the site keeps Django's client-side
    binding, which the deal submission's several statements in one query need. Also
    the table key's lookup (permissions.read_table_key). Nested: the outer one decides."""
    if (
        connection.vendor != "postgresql"
        or not getattr(settings, "TAVOLO_DEAL_SQL_PREPARED", True)
        or getattr(connection, PREPARED, False)
    ):
        yield
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = connection.connection
    saved = raw.cursor_factory, raw.prepare_threshold
    raw.cursor_factory, raw.prepare_threshold = ServerBindingCursor, 0
    setattr(connection, PREPARED, True)
    try:
        yield
    finally:
        raw.cursor_factory, raw.prepare_threshold = saved
        setattr(connection, PREPARED, False)


def _no_object_permissions(view: Any) -> bool:
    """Whether the view's permissions allow every object (AllowAny, the API's reads):
    the lean retrieve then need not make the instance they would be asked about."""
    return all(type(p) is AllowAny for p in view.get_permissions())


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _placeholders(values: Any) -> str:
    return ", ".join(["%s"] * len(values))


def _rows(sql: str, params: list[Any]) -> list[tuple]:
    """A page's second rows (seats, byes) in plain SQL: ints and names only, which every
    database gives as Python does; the ORM's query cost more to build than to run."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- deals ------------------------------------------------------------------------------
DEAL_COLUMNS = (
    "id",
    "game_id",
    "number",
    "version",
    "status",
    "contract",
    json_text("data"),
    json_text("scores"),
    "created_at",
    "updated_at",
)


def deal_rows(page: list[tuple]) -> list[dict[str, Any]]:
    """serializers.DealSerializer's rows, from DEAL_COLUMNS."""
    out = []
    iso = datetimes()
    for pk, game, number, version, status, contract, data, scores, created, updated in page:
        data, scores = loads(data), loads(scores)
        row: dict[str, Any] = {
            "id": pk,
            "game": game,
            "number": number,
            "version": version,
            "status": status,
        }
        if isinstance(data, dict) and "dealer" in data:  # missing: left out, as DRF does
            dealer = data["dealer"]
            row["dealer"] = None if dealer is None else str(dealer)
        row["contract"] = contract
        row["deal"] = data  # parsed JSON: a new dict with string keys, as DictField's copy
        row["scores"] = scores
        row["created_at"] = iso(created)
        row["updated_at"] = iso(updated)
        out.append(row)
    return out


def deal_rows_of(request: Request, page: list[tuple]) -> list[dict[str, Any]]:
    return deal_rows(page)


# --- games ------------------------------------------------------------------------------
GAME_COLUMNS = (
    "id",
    "table__round__event_id",
    "table__round_id",
    "table_id",
    "status",
    json_text("ruleset"),
    json_text("player_names"),
    "deals_count",
    "deals_target",
    json_text("totals"),
    "updated_at",
)


def game_rows(request: Request, page: list[tuple]) -> list[dict[str, Any]]:
    """serializers.GameSerializer's rows, from GAME_COLUMNS."""
    keys = ("id", "event", "round", "table", "status", "ruleset")
    out = []
    iso = datetimes()
    for *head, ruleset, names, count, target, totals, updated in page:
        row = dict(zip(keys, (*head, loads(ruleset)), strict=True))
        names, totals = loads(names), loads(totals)
        row["players"] = None if names is None else [_str(n) for n in names]
        row.update(deals_count=count, deals_target=target, totals=totals)
        row["updated_at"] = iso(updated)
        out.append(row)
    return out


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


# --- tables -----------------------------------------------------------------------------
TABLE_COLUMNS = ("id", "round__event_id", "round_id", "number", "game__id")


def table_rows(request: Request, page: list[tuple]) -> list[dict[str, Any]]:
    """serializers.TableSerializer's rows, from TABLE_COLUMNS and one query for the
    page's seats (as the prefetch made it: none for an empty page)."""
    seats: dict[int, list[dict[str, Any]]] = {pk: [] for pk, *_ in page}
    if seats:
        sql = (
            f"SELECT s.{_q('table_id')}, s.{_q('position')}, s.{_q('player_id')}, "
            f"p.{_q('name')} FROM {_q(Seat._meta.db_table)} s "
            f"JOIN {_q(Player._meta.db_table)} p ON p.{_q('id')} = s.{_q('player_id')} "
            f"WHERE s.{_q('table_id')} IN ({_placeholders(seats)}) "
            f"ORDER BY s.{_q('table_id')}, s.{_q('position')}"
        )
        for table_id, position, player_id, name in _rows(sql, list(seats)):
            seats[table_id].append({"position": position, "player": player_id, "name": name})
    return [
        {
            "id": pk,
            "event": event,
            "round": round_id,
            "number": number,
            "game": game,
            "seats": seats[pk],
        }
        for pk, event, round_id, number, game in page
    ]


# --- rounds -----------------------------------------------------------------------------
ROUND_COLUMNS = ("id", "event_id", "number", "status")


def round_rows(request: Request, page: list[tuple]) -> list[dict[str, Any]]:
    """serializers.RoundSerializer's rows, and the page's byes in one query (in the
    players' order, as the prefetch read them)."""
    byes: dict[int, list[int]] = {pk: [] for pk, *_ in page}
    if byes:
        sql = (
            f"SELECT b.{_q('round_id')}, b.{_q('player_id')} "
            f"FROM {_q(Round.byes.through._meta.db_table)} b "
            f"JOIN {_q(Player._meta.db_table)} p ON p.{_q('id')} = b.{_q('player_id')} "
            f"WHERE b.{_q('round_id')} IN ({_placeholders(byes)}) "
            f"ORDER BY p.{_q('name')}, b.{_q('player_id')}"
        )
        for round_id, player_id in _rows(sql, list(byes)):
            byes[round_id].append(player_id)
    return [
        {"id": pk, "event": event, "number": number, "status": status, "byes": byes[pk]}
        for pk, event, number, status in page
    ]


# --- players ----------------------------------------------------------------------------
PLAYER_COLUMNS = ("id", "name", "email", "managed")


def player_rows(request: Request, page: list[tuple]) -> list[dict[str, Any]]:
    """serializers.PlayerSerializer's rows: the e-mail only where `managed`."""
    return [
        {"id": pk, "name": name, "email": email if managed else None}
        for pk, name, email, managed in page
    ]
