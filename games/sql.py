"""deal_submit's hot path in plain SQL, on PostgreSQL: two round trips instead of ten.

games.submission.deal_submit stores a deal through the ORM on every database. On
PostgreSQL it uses these statements instead (same rows, same audit trail, same
transaction; tests/services/test_deal_sql.py compares both paths row by row):

1. `lock`: the game row, FOR UPDATE (only that row: the tables of one evening must
   not queue behind each other).
2. `read`, once the lock is held (a new statement sees what the previous holder
   committed): the seats' players, the event and its league, the data of every stored
   deal, the Idempotency-Key's record if any, and whether the user organises the
   game's club (the API's write permission, games/api/deal_views.py). `lock_and_read`
   sends 1 and 2 in one round trip (two statements of one simple-protocol query).
3. `write`: one statement of data-modifying CTEs: the deal with its scores, its four
   DealScore rows, the game's totals/count/status, the four GameScore rows (INSERT ...
   ON CONFLICT DO UPDATE), the audit row and the idempotency record. One statement is
   atomic by itself; it also runs inside deal_submit's transaction.

Why: building these statements through the ORM cost several times their execution
(bench/RESULTS.md "## API").

Prepared: planning `read` took PostgreSQL longer than running it, and planning `write`
about half as long (about 0.35 and 0.2 ms against 0.15 and 0.5 ms, EXPLAIN ANALYZE on
the benchmark's data), so each database session prepares them once (PREPARE,
`prepared()`) and then only sends EXECUTE name(parameters), still several in one
simple-protocol query. A session that lost them (DEALLOCATE, DISCARD ALL by a
pooler) raises StatementsLost, and deal_submit runs its transaction again.
settings.TAVOLO_DEAL_SQL_PREPARED = False (DB_PREPARED_STATEMENTS=0) sends the
statements' text instead (behind a pooler in transaction mode, where a client does not
keep its session). Every parameter carries an explicit cast, so the SQL is the same
with client-side binding (Django's default for psycopg 3) and with
OPTIONS["server_side_binding"] (one statement per query: not prepared, two round
trips for lock and read).
"""

from __future__ import annotations

import datetime
import json
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import orjson
import psycopg
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Field

from clubs.models import Club, Membership, Player
from games.models import Event, Game

GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
JSON_FIELDS = {"ruleset", "player_names", "totals"}


def available() -> bool:
    """Whether deal_submit takes this path: PostgreSQL, unless TAVOLO_DEAL_SQL is off."""
    return connection.vendor == "postgresql" and getattr(settings, "TAVOLO_DEAL_SQL", True)


def json_value(value: Any) -> Any:
    """A JSON column read by plain SQL: Django's psycopg and SQLite setups hand it over as
    text (its JSONField parses it); anything else as it is."""
    return json.loads(value) if isinstance(value, str | bytes | bytearray) else value


def organised_clubs(user: str, role: str) -> str:
    """SQL selecting the ids of the clubs a user organises, with the given placeholders
    for the user's id and the organiser role (the rule of permissions.organises)."""
    membership, player = Membership._meta.db_table, Player._meta.db_table
    return (
        f'SELECT m."club_id" FROM "{membership}" m JOIN "{player}" p ON p."id" = m."player_id" '
        f'WHERE p."user_id" = {user} AND m."role" = {role}'
    )


def event_visibility(organised: str | None) -> str:
    """SQL condition: the event of alias `e`, its club joined as `c`, may be read by a
    visitor: a public event of a public club, or any event of the clubs `organised`
    selects (SQL, e.g. organised_clubs, or a list of ids; None: no club)."""
    public = 'e."published" AND c."published"'
    return f"({public})" if organised is None else f'(({public}) OR e."club_id" IN ({organised}))'


def visible_events(organised: str | None) -> str:
    """SQL selecting the ids of the events a visitor may read (event_visibility): the rule of
    the API's PublicReadable.events and of scoring.selectors.Viewer, as one subquery the
    ORM need not resolve."""
    event, club = Event._meta.db_table, Club._meta.db_table
    return (
        f'SELECT e."id" FROM "{event}" e JOIN "{club}" c ON c."id" = e."club_id" '
        f"WHERE {event_visibility(organised)}"
    )


def orm_rows(sql: str, params: list[Any], fields: Sequence[Field | None]) -> list[tuple]:
    """The rows of a plain SELECT, each column whose field is given converted as the ORM
    converts that field's values (SQLite gives datetimes as text and decimals as floats;
    PostgreSQL needs nothing converted); None: the column as the database gives it."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    converters = []
    for at, field in enumerate(fields):
        if field is None:
            continue
        column = field.get_col(field.model._meta.db_table)
        functions = connection.ops.get_db_converters(column)
        functions += column.get_db_converters(connection)
        if functions:
            converters.append((at, column, functions))
    if not converters or not rows:
        return rows
    out = []
    for row in rows:
        values = list(row)
        for at, column, functions in converters:
            for convert in functions:
                values[at] = convert(values[at], column, connection)
        out.append(tuple(values))
    return out


LOCK = 'SELECT {columns} FROM "games_game" WHERE "id" = %(game)s::bigint FOR UPDATE'.format(
    columns=", ".join(f'"{name}"' for name in GAME_FIELDS)
)


def _game(row: tuple | None) -> Game | None:
    if row is None:
        return None
    values = [
        json_value(value) if name in JSON_FIELDS else value
        for name, value in zip(GAME_FIELDS, row, strict=True)
    ]
    return Game.from_db(connection.alias, GAME_FIELDS, values)


def lock(game_id: int) -> Game | None:
    with connection.cursor() as cursor:
        _execute(cursor, ["lock"], {"game": game_id})
        return _game(cursor.fetchone())


@dataclass(frozen=True)
class Read:
    player_ids: list[int]
    event_id: int
    league_id: int | None
    deals: list[dict]  # the data of the stored deals, in order
    earlier: tuple[str, int, dict] | None  # an idempotency record: hash, status, body
    organises: bool  # whether the given user organises the game's club
    round_number: int
    round_status: str  # Round.Status: a closed round takes no more deals
    event_status: str  # Event.Status: nor does a closed event


READ = """
SELECT
    ARRAY(SELECT s."player_id" FROM "games_seat" s
          WHERE s."table_id" = t."id" ORDER BY s."position"),
    e."id",
    e."league_id",
    (SELECT json_agg(d."data" ORDER BY d."number") FROM "games_deal" d
     WHERE d."game_id" = %(game)s::bigint),
    (SELECT json_build_array(i."request_hash", i."status_code", i."body")
     FROM "games_idempotencyrecord" i
     WHERE i."scope" = %(scope)s::varchar AND i."key" = %(key)s::varchar),
    e."club_id" IN ({organised}),
    r."number",
    r."status",
    e."status"
FROM "games_table" t
JOIN "games_round" r ON r."id" = t."round_id"
JOIN "games_event" e ON e."id" = r."event_id"
WHERE t."id" = (SELECT g."table_id" FROM "games_game" g WHERE g."id" = %(game)s::bigint)
""".replace("{organised}", organised_clubs("%(user)s::integer", "%(role)s::varchar"))


def _read(row: tuple) -> Read:
    player_ids, event_id, league_id, deals, earlier, organises, number, status, event_status = row
    earlier = json_value(earlier)
    return Read(
        player_ids=list(player_ids),
        event_id=event_id,
        league_id=league_id,
        deals=json_value(deals) or [],
        earlier=tuple(earlier) if earlier else None,
        organises=bool(organises),
        round_number=number,
        round_status=status,
        event_status=event_status,
    )


def _params(game_id: int, scope: str, key: str | None, user_id: int | None) -> dict:
    role = Membership.Role.ORGANISER.value
    return {"game": game_id, "scope": scope, "key": key, "user": user_id, "role": role}


def read(game: Game, scope: str, key: str | None, user_id: int | None = None) -> Read:
    with connection.cursor() as cursor:
        _execute(cursor, ["read"], _params(game.pk, scope, key, user_id))
        return _read(cursor.fetchone())


def lock_and_read(
    game_id: int, scope: str, key: str | None, user_id: int | None = None
) -> tuple[Game | None, Read | None]:
    """lock() then read(), in one round trip when the parameters are bound client-side
    (Django's default for psycopg 3): both statements go in one simple-protocol query.
    PostgreSQL still runs them one after the other, each with its own snapshot (READ
    COMMITTED), so the read sees what the lock's previous holder committed, exactly as
    two round trips would. With server-side binding (one statement per query): two.

    `user_id`: Read.organises tells whether this user organises the game's club (the
    API's write permission, decided here rather than in a query of its own).
    """
    params = _params(game_id, scope, key, user_id)
    with connection.cursor() as cursor:
        if not isinstance(cursor.cursor, psycopg.ClientCursor):
            game = lock(game_id)
            return game, (read(game, scope, key, user_id) if game is not None else None)
        _execute(cursor, ["lock", "read"], params)
        game = _game(cursor.fetchone())
        cursor.nextset()
        row = cursor.fetchone()
    if game is None:
        return None, None
    return game, _read(row)


@dataclass(frozen=True)
class NewDeal:
    """Everything the write statement stores; built by deal_submit."""

    game_id: int
    number: int
    dealer_id: int
    contract: str
    data: dict
    scores: dict
    status: str
    entered_by_id: int | None
    entered_from: str
    deal_scores: list[dict]  # DealScore columns but deal_id, one dict per player
    totals: dict
    deals_count: int
    game_status: str
    # seat, player_id, total, place, above (GameScore.above: players with a higher total)
    game_scores: list[tuple[int, int, Decimal, Decimal, int]]
    revision_label: str
    idempotency: tuple[str, str, str, int, dict] | None  # scope, key, hash, status, body
    now: datetime.datetime


DEAL_SCORE_COLUMNS = (
    ("player_id", "bigint"),
    ("contract", "varchar"),
    ("is_dealer", "boolean"),
    ("raw", "integer"),
    ("doubles", "integer"),
    ("score", "integer"),
    ("took_king", "boolean"),
    ("doubles_won", "smallint"),
    ("doubles_lost", "smallint"),
)


def _write_sql(idempotent: bool) -> str:
    """The write statement, with named parameters (write_params gives their values).

    The per-player rows go as one JSON array each (jsonb_to_recordset), and the audit
    row reads the deal's values back from the INSERT: about twenty parameters to adapt
    instead of eighty.
    """
    names = ", ".join(f'"{name}"' for name, _cast in DEAL_SCORE_COLUMNS)
    typed = ", ".join(f'"{name}" {cast}' for name, cast in DEAL_SCORE_COLUMNS)
    picked = ", ".join(f'v."{name}"' for name, _cast in DEAL_SCORE_COLUMNS)
    parts = [
        'd AS (INSERT INTO "games_deal" ("game_id", "number", "dealer_id", "contract", '
        '"data", "scores", "version", "status", "entered_by_id", "entered_from", '
        '"confirmed_from", "created_at", "updated_at") VALUES (%(game)s::bigint, '
        "%(number)s::smallint, %(dealer)s::bigint, %(contract)s::varchar, %(data)s::jsonb, "
        "%(scores)s::jsonb, 1, %(status)s::varchar, %(entered_by)s::integer, "
        "%(entered_from)s::varchar, '', %(now)s::timestamptz, %(now)s::timestamptz) "
        'RETURNING "id", "game_id", "number", "data", "entered_by_id", "created_at")',
        f'ds AS (INSERT INTO "games_dealscore" ("deal_id", "game_id", {names}) '
        f'SELECT d."id", d."game_id", {picked} FROM d, '
        f"jsonb_to_recordset(%(deal_scores)s::jsonb) AS v({typed}))",
        'g AS (UPDATE "games_game" SET "totals" = %(totals)s::jsonb, '
        '"deals_count" = %(deals_count)s::smallint, "status" = %(game_status)s::varchar, '
        '"updated_at" = d."created_at" FROM d WHERE "games_game"."id" = d."game_id")',
        'gs AS (INSERT INTO "games_gamescore" ("game_id", "player_id", "seat", "total", '
        '"place", "above", "deals") SELECT d."game_id", v."player_id", v."seat", v."total", '
        'v."place", v."above", %(deals_count)s::smallint FROM d, jsonb_to_recordset('
        '%(game_scores)s::jsonb) AS v("seat" smallint, "player_id" bigint, '
        '"total" numeric, "place" numeric, "above" smallint) ORDER BY v."seat" '
        'ON CONFLICT ("game_id", "seat") DO UPDATE SET '
        '"player_id" = EXCLUDED."player_id", "total" = EXCLUDED."total", '
        '"place" = EXCLUDED."place", "above" = EXCLUDED."above", "deals" = EXCLUDED."deals")',
        'r AS (INSERT INTO "games_dealrevision" ("game_id", "deal_id", "number", "version", '
        '"action", "before", "after", "by_user_id", "by_label", "reason", "at") '
        'SELECT d."game_id", d."id", d."number", 1, \'entered\', NULL, d."data", '
        'd."entered_by_id", %(label)s::varchar, \'\', d."created_at" FROM d)',
    ]
    if idempotent:
        parts.append(
            'i AS (INSERT INTO "games_idempotencyrecord" ("scope", "key", "request_hash", '
            '"status_code", "body", "created_at") VALUES (%(scope)s::varchar, '
            "%(key)s::varchar, %(hash)s::varchar, %(status_code)s::smallint, "
            "%(body)s::jsonb, %(now)s::timestamptz))"
        )
    return "WITH " + ", ".join(parts) + ' SELECT "id" FROM d'


WRITE = _write_sql(idempotent=False)
WRITE_IDEMPOTENT = _write_sql(idempotent=True)


def _json(value: Any) -> str:
    """JSON text for a jsonb parameter: orjson (about a tenth of json.dumps' time for a
    deal's six values); json.dumps where orjson refuses (an integer beyond 64 bits).
    PostgreSQL stores the same jsonb from either text."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def write_params(new: NewDeal) -> dict[str, Any]:
    params = {
        "game": new.game_id,
        "number": new.number,
        "dealer": new.dealer_id,
        "contract": new.contract,
        "data": _json(new.data),
        "scores": _json(new.scores),
        "status": new.status,
        "entered_by": new.entered_by_id,
        "entered_from": new.entered_from,
        "now": new.now,
        "deal_scores": _json(new.deal_scores),
        "totals": _json(new.totals),
        "deals_count": new.deals_count,
        "game_status": new.game_status,
        "game_scores": _json(
            [
                {
                    "seat": seat,
                    "player_id": player_id,
                    "total": str(total),
                    "place": str(place),
                    "above": above,
                }
                for seat, player_id, total, place, above in new.game_scores
            ]
        ),
        "label": new.revision_label,
    }
    if new.idempotency is not None:
        scope, key, request_hash, status_code, body = new.idempotency
        params.update(
            scope=scope, key=key, hash=request_hash, status_code=status_code, body=_json(body)
        )
    return params


def write(new: NewDeal) -> int:
    """Store the deal and everything derived from it in one statement; the deal's id."""
    statement = "write" if new.idempotency is None else "write_idempotent"
    with connection.cursor() as cursor:
        _execute(cursor, [statement], write_params(new))
        return cursor.fetchone()[0]


class Statement:
    """One statement of this module, under the name it is prepared with on a connection.

    `prepare` is its PREPARE (named parameters numbered $1, $2, ... in order of first
    appearance; each carries a cast, which gives the parameter its type) and `execute`
    its EXECUTE, with the same named parameters for the cursor to bind.
    """

    def __init__(self, name: str, text: str) -> None:
        order: list[str] = []

        def number(match: re.Match) -> str:
            if match.group(1) not in order:
                order.append(match.group(1))
            return f"${order.index(match.group(1)) + 1}"

        self.name = name
        self.text = text
        self.prepare = f"PREPARE {name} AS {_PLACEHOLDER.sub(number, text)}"
        self.execute = f"EXECUTE {name}(" + ", ".join(f"%({n})s" for n in order) + ")"


_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
STATEMENTS = {
    key: Statement(f"tavolo_deal_{key}", text)
    for key, text in (
        ("lock", LOCK),
        ("read", READ),
        ("write", WRITE),
        ("write_idempotent", WRITE_IDEMPOTENT),
    )
}
# The psycopg connections (database sessions) known to hold STATEMENTS.
_ready: weakref.WeakSet = weakref.WeakSet()


class StatementsLost(Exception):
    """The session no longer has the prepared statements (DEALLOCATE or DISCARD by some
    other client of the session, e.g. a connection pooler): this transaction is lost,
    run it again (they are prepared again first)."""


def prepared(cursor: Any) -> bool:
    """Whether this connection's statements run prepared, preparing them if needed.

    They are, unless settings.TAVOLO_DEAL_SQL_PREPARED is False (e.g. behind a pooler
    in transaction mode, where a session's prepared statements do not follow a client)
    or the parameters are bound server-side (one statement per query). Preparing costs
    two round trips, once per database session; PREPARE is not undone by a rollback.
    """
    if not getattr(settings, "TAVOLO_DEAL_SQL_PREPARED", True):
        return False
    if not isinstance(cursor.cursor, psycopg.ClientCursor):
        return False
    raw = connection.connection
    if raw in _ready:
        return True
    cursor.execute(
        "SELECT name FROM pg_prepared_statements WHERE name = ANY(%s)",
        [[s.name for s in STATEMENTS.values()]],
    )
    have = {row[0] for row in cursor.fetchall()}
    missing = [s.prepare for s in STATEMENTS.values() if s.name not in have]
    if missing:
        cursor.execute("; ".join(missing))
    _ready.add(raw)
    return True


def _execute(cursor: Any, keys: list[str], params: dict[str, Any]) -> None:
    """Run STATEMENTS[key] for each key, in one query: EXECUTEs of the prepared
    statements, or their text (several statements need client-side binding)."""
    statements = [STATEMENTS[key] for key in keys]
    if not prepared(cursor):
        cursor.execute("; ".join(s.text for s in statements), params)
        return
    try:
        cursor.execute("; ".join(s.execute for s in statements), params)
    except DatabaseError as exc:
        if isinstance(exc.__cause__, psycopg.errors.InvalidSqlStatementName):
            _ready.discard(connection.connection)
            raise StatementsLost() from exc
        raise
