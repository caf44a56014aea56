"""The API's long reads answered from the cache until the next write (issue 20).

The lists of deals, games, tables, rounds and players, a game's deals and a player's
history carry dozens of rows each, read through the visibility rules and written as JSON:
several times the work of a trivial list, on every request. Between two writes they
answer the same bytes, so their rendered pages are kept in the cache under

    api:read:<generation>:<view>:<viewer>:<language>:<sha1 of the absolute URL>

- `generation` is a version of the whole club data (games/live.py's tokens, scope
  "reads"): a random token made by the first reader that finds none and dropped by every
  write to a table of the clubs or games apps (`watch_writes`, below) once its
  transaction commits;
- `viewer` decides what the visibility rules let the request see: anonymous, a
  superuser, a user by id (the clubs they organise), and a table key's table;
- the absolute URL holds the filters and the page, and the host and scheme the page's
  `next` and `previous` links are made of.

Why it is right: a page is stored under the generation its reader held before it read the
database; any write drops that generation after it committed, so a page read before the
write, or during it, is never found again. A thread that reads pages and writes in one
transaction (a test, a command) also drops it at its write, so that it never reads back a
page made before that write.
Pages also expire after PAGE_SECONDS, in case a drop is lost (the cache unreachable at that
moment: then a list may lag a write by that long). Without a cache (None for the
generation) every request is answered in full, as before.

What drops the generation is the database itself, not a list of signals: every INSERT,
UPDATE or DELETE of a clubs_ or games_ table, or of the ratings (a player's rating page is
cached too), through Django's connection (ORM, bulk updates, raw SQL, migrations, the
admin, the EXECUTE of games/sql.py's prepared deal write), via an execute wrapper
installed on each new connection. Standings and sessions live in other tables and leave
it alone.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import connection as db_connection
from django.db import transaction
from django.utils import translation
from rest_framework.request import Request
from rest_framework.response import Response

from games import live
from games.api import reads
from games.api.permissions import table_key

PAGE_SECONDS = 60
SCOPE = "reads"
# Set on a connection that looked a page up inside a transaction since the generation was
# last dropped (a test, a command: requests read in autocommit).
READ_MARK = "tavolo_read_pages"

# --- the pages ------------------------------------------------------------------------


def viewer(request: Request) -> str:
    """What decides the rows a request may see (games/api/permissions.py)."""
    user = request.user
    if user is None or not user.is_authenticated:
        who = "a"
    elif user.is_superuser:
        who = "s"
    else:
        who = f"u{user.pk}"
    key = table_key(request)
    return who if key is None else f"{who}t{key.table_id}"


def page_key(token: str, request: Request, view: Any) -> str:
    url = hashlib.sha1(request.build_absolute_uri().encode()).hexdigest()
    language = translation.get_language() or ""
    return f"api:read:{token}:{type(view).__name__}:{viewer(request)}:{language}:{url}"


def cached_read(request: Request, view: Any, read: Callable[[], Response]) -> Response:
    """`read()`'s answer to a GET, from the cache when this generation already made it.
    Only a 200 with data is kept, with its ETag if it has one (a deal's version, which
    only a write changes); anything else (an error, a refusal) is answered as read, every
    time."""
    if request.method != "GET":
        return read()
    if db_connection.in_atomic_block:  # a write may follow before this commits
        setattr(db_connection, READ_MARK, True)
    token = live.version(SCOPE, 0)
    if token is None:
        return read()
    key = page_key(token, request, view)
    kept = cache.get(key)
    if kept is not None:
        # (A page kept by a version before ETags were kept is its body alone.)
        body, etag = kept if isinstance(kept, tuple) else (kept, None)
        return reads.CachedJSONResponse(body, headers=_etag(etag))
    response = read()
    if response.status_code != 200 or response.data is None:
        return response
    body = reads.render_json(response.data)
    etag = response.headers.get("ETag")
    cache.set(key, (body, etag), PAGE_SECONDS)
    return reads.CachedJSONResponse(body, headers=_etag(etag))


def _etag(etag: str | None) -> dict[str, str] | None:
    return None if etag is None else {"ETag": etag}


# --- what drops the generation ------------------------------------------------------------

_WRITES = ("INSERT", "UPDATE", "DELETE", "MERGE ", "TRUNCA", "CREATE", "ALTER ", "DROP ")
_WITH_WRITES = re.compile(r"\b(INSERT|UPDATE|DELETE|MERGE)\b", re.IGNORECASE)
# Club data, and the ratings (scoring's tables the rating page reads, written by the
# ratings sync after a game, not with it); not the standings, which the API reads from
# their own cache.
_TABLES = ("clubs_", "games_", "scoring_playerrating", "scoring_ratinghistory")


_EXECUTE = re.compile(r"\bEXECUTE\s+(\w+)", re.IGNORECASE)


def writes_club_data(sql: str) -> bool:
    """Whether a statement may change a clubs_ or games_ table or a rating: it writes (a
    WITH may) and names one. Reads, savepoints and settings never do. An EXECUTE of a
    prepared statement (games/sql.py's deal submission) does what the prepared text does;
    one not known here is taken as a write."""
    head = sql.lstrip()[:6].upper()
    if head == "EXECUT":
        return any(_prepared_writes(name) for name in _EXECUTE.findall(sql))
    if head.startswith("WITH"):
        if not _WITH_WRITES.search(sql):
            return False
    elif not head.startswith(_WRITES):
        return False
    return any(table in sql for table in _TABLES)


@functools.cache
def _prepared_writes(name: str) -> bool:
    from games.sql import STATEMENTS

    for statement in STATEMENTS.values():
        if statement.name == name:
            return writes_club_data(statement.text)
    return True


def _drop() -> None:
    live.touch(SCOPE, [0])


def forget() -> None:
    """Drop every cached page now (tests measure the statements of a read made afresh)."""
    _drop()


def watch_writes(execute: Any, sql: str, params: Any, many: bool, context: dict) -> Any:
    """An execute wrapper (Django's connection.execute_wrapper): after a statement that
    writes club data, the generation is dropped once its transaction commits (once per
    transaction; at once in autocommit), and at once if this connection looked a page up
    inside the transaction: it may read again before the commit (a test, a command), and
    must not find the page it read before its write."""
    result = execute(sql, params, many, context)
    if isinstance(sql, str) and writes_club_data(sql):
        connection = context["connection"]
        if getattr(connection, READ_MARK, False) or not connection.in_atomic_block:
            setattr(connection, READ_MARK, False)
            _drop()
        if connection.in_atomic_block and not any(
            func is _drop for _ids, func, _robust in connection.run_on_commit
        ):
            transaction.on_commit(_drop, using=connection.alias)
    return result


def install(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created receiver: watch this connection's writes (once)."""
    if watch_writes not in connection.execute_wrappers:
        connection.execute_wrappers.append(watch_writes)
