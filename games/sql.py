"""deal_submit's hot path in plain SQL, on PostgreSQL: two round trips instead of ten.

games.services.deal_submit stores a deal through the ORM on every database. On
PostgreSQL it uses these statements instead (same rows, same audit trail, same
transaction; tests/services/test_deal_sql.py compares both paths row by row):

1. `lock`: the game row, FOR UPDATE (only that row: the tables of one evening must
   not queue behind each other).
2. `read`, once the lock is held (a new statement sees what the previous holder
   committed): the seats' players, the event and its league, the data of every stored
   deal, the Idempotency-Key's record if any, and whether the user organises the
   game's club (the API's write permission, games/api/views.py). `lock_and_read`
   sends 1 and 2 in one round trip (two statements of one simple-protocol query).
3. `write`: one statement of data-modifying CTEs: the deal with its scores, its four
   DealScore rows, the game's totals/count/status, the four GameScore rows (INSERT ...
   ON CONFLICT DO UPDATE), the audit row and the idempotency record. One statement is
   atomic by itself; it also runs inside deal_submit's transaction.

Why: building these statements through the ORM cost several times their execution
(bench/RESULTS.md "## API"). Every parameter carries an explicit cast, so the SQL is
the same with client-side binding (Django's default for psycopg 3) and with
OPTIONS["server_side_binding"].
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import psycopg
from django.conf import settings
from django.db import connection

from clubs.models import Membership
from games.models import Game

GAME_FIELDS = [f.attname for f in Game._meta.concrete_fields]
JSON_FIELDS = {"ruleset", "player_names", "totals"}


def available() -> bool:
    """Whether deal_submit takes this path: PostgreSQL, unless TAVOLO_DEAL_SQL is off."""
    return connection.vendor == "postgresql" and getattr(settings, "TAVOLO_DEAL_SQL", True)


def _json(value: Any) -> Any:
    # Django's psycopg setup hands jsonb over as text (its JSONField parses it).
    return json.loads(value) if isinstance(value, str | bytes) else value


LOCK = 'SELECT {columns} FROM "games_game" WHERE "id" = %(game)s::bigint FOR UPDATE'.format(
    columns=", ".join(f'"{name}"' for name in GAME_FIELDS)
)


def _game(row: tuple | None) -> Game | None:
    if row is None:
        return None
    values = [
        _json(value) if name in JSON_FIELDS else value
        for name, value in zip(GAME_FIELDS, row, strict=True)
    ]
    return Game.from_db(connection.alias, GAME_FIELDS, values)


def lock(game_id: int) -> Game | None:
    with connection.cursor() as cursor:
        cursor.execute(LOCK, {"game": game_id})
        return _game(cursor.fetchone())


@dataclass(frozen=True)
class Read:
    player_ids: list[int]
    event_id: int
    league_id: int | None
    deals: list[dict]  # the data of the stored deals, in order
    earlier: tuple[str, int, dict] | None  # an idempotency record: hash, status, body
    organises: bool  # whether the given user organises the game's club


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
    EXISTS(SELECT 1 FROM "clubs_membership" m JOIN "clubs_player" p ON p."id" = m."player_id"
           WHERE m."club_id" = e."club_id" AND p."user_id" = %(user)s::integer
           AND m."role" = %(role)s::varchar)
FROM "games_table" t
JOIN "games_round" r ON r."id" = t."round_id"
JOIN "games_event" e ON e."id" = r."event_id"
WHERE t."id" = (SELECT g."table_id" FROM "games_game" g WHERE g."id" = %(game)s::bigint)
"""


def _read(row: tuple) -> Read:
    player_ids, event_id, league_id, deals, earlier, organises = row
    earlier = _json(earlier)
    return Read(
        player_ids=list(player_ids),
        event_id=event_id,
        league_id=league_id,
        deals=_json(deals) or [],
        earlier=tuple(earlier) if earlier else None,
        organises=bool(organises),
    )


def _params(game_id: int, scope: str, key: str | None, user_id: int | None) -> dict:
    role = Membership.Role.ORGANISER.value
    return {"game": game_id, "scope": scope, "key": key, "user": user_id, "role": role}


def read(game: Game, scope: str, key: str | None, user_id: int | None = None) -> Read:
    with connection.cursor() as cursor:
        cursor.execute(READ, _params(game.pk, scope, key, user_id))
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
        cursor.execute(f"{LOCK}; {READ}", params)
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


def write(new: NewDeal) -> int:
    """Store the deal and everything derived from it in one statement; the deal's id.

    The per-player rows go as one JSON array each (jsonb_to_recordset), and the audit
    row reads the deal's values back from the INSERT: about twenty parameters to adapt
    instead of eighty.
    """
    params: list[Any] = []

    def p(value: Any, cast: str) -> str:
        params.append(value)
        return f"%s::{cast}"

    deal = (
        'INSERT INTO "games_deal" ("game_id", "number", "dealer_id", "contract", "data", '
        '"scores", "version", "status", "entered_by_id", "entered_from", "confirmed_from", '
        '"created_at", "updated_at") VALUES ('
        + ", ".join(
            [
                p(new.game_id, "bigint"),
                p(new.number, "smallint"),
                p(new.dealer_id, "bigint"),
                p(new.contract, "varchar"),
                p(json.dumps(new.data), "jsonb"),
                p(json.dumps(new.scores), "jsonb"),
                "1",
                p(new.status, "varchar"),
                p(new.entered_by_id, "integer"),
                p(new.entered_from, "varchar"),
                "''",
                p(new.now, "timestamptz"),
                "%s::timestamptz",
            ]
        )
        + ') RETURNING "id", "game_id", "number", "data", "entered_by_id", "created_at"'
    )
    params.append(new.now)
    names = ", ".join(f'"{name}"' for name, _cast in DEAL_SCORE_COLUMNS)
    typed = ", ".join(f'"{name}" {cast}' for name, cast in DEAL_SCORE_COLUMNS)
    picked = ", ".join(f'v."{name}"' for name, _cast in DEAL_SCORE_COLUMNS)
    deal_scores = (
        f'INSERT INTO "games_dealscore" ("deal_id", "game_id", {names}) '
        f'SELECT d."id", d."game_id", {picked} FROM d, '
        f"jsonb_to_recordset({p(json.dumps(new.deal_scores), 'jsonb')}) AS v({typed})"
    )
    game = (
        'UPDATE "games_game" SET '
        f'"totals" = {p(json.dumps(new.totals), "jsonb")}, '
        f'"deals_count" = {p(new.deals_count, "smallint")}, '
        f'"status" = {p(new.game_status, "varchar")}, '
        '"updated_at" = d."created_at" '
        'FROM d WHERE "games_game"."id" = d."game_id"'
    )
    rows = [
        {
            "seat": seat,
            "player_id": player_id,
            "total": str(total),
            "place": str(place),
            "above": above,
        }
        for seat, player_id, total, place, above in new.game_scores
    ]
    game_scores = (
        'INSERT INTO "games_gamescore" ("game_id", "player_id", "seat", "total", "place", '
        '"above", "deals") SELECT d."game_id", v."player_id", v."seat", v."total", v."place", '
        f'v."above", {p(new.deals_count, "smallint")} FROM d, jsonb_to_recordset('
        f'{p(json.dumps(rows), "jsonb")}) AS v("seat" smallint, "player_id" bigint, '
        '"total" numeric, "place" numeric, "above" smallint) ORDER BY v."seat" '
        'ON CONFLICT ("game_id", "seat") DO UPDATE SET '
        '"player_id" = EXCLUDED."player_id", "total" = EXCLUDED."total", '
        '"place" = EXCLUDED."place", "above" = EXCLUDED."above", "deals" = EXCLUDED."deals"'
    )
    revision = (
        'INSERT INTO "games_dealrevision" ("game_id", "deal_id", "number", "version", '
        '"action", "before", "after", "by_user_id", "by_label", "reason", "at") '
        'SELECT d."game_id", d."id", d."number", 1, \'entered\', NULL, d."data", '
        f'd."entered_by_id", {p(new.revision_label, "varchar")}, \'\', d."created_at" FROM d'
    )
    parts = [
        f"d AS ({deal})",
        f"ds AS ({deal_scores})",
        f"g AS ({game})",
        f"gs AS ({game_scores})",
        f"r AS ({revision})",
    ]
    if new.idempotency is not None:
        scope, key, request_hash, status_code, body = new.idempotency
        parts.append(
            'i AS (INSERT INTO "games_idempotencyrecord" ("scope", "key", "request_hash", '
            '"status_code", "body", "created_at") VALUES ('
            f"{p(scope, 'varchar')}, {p(key, 'varchar')}, {p(request_hash, 'varchar')}, "
            f"{p(status_code, 'smallint')}, {p(json.dumps(body), 'jsonb')}, "
            f"{p(new.now, 'timestamptz')}))"
        )
    sql = "WITH " + ", ".join(parts) + ' SELECT "id" FROM d'
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]
