"""What every table page shares: the table found by the key of its card (a phone opened
from the QR code), and the 404 page that says what to do when the key is wrong."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubs.language import offer_club_language
from games.core import live
from games.models import Game, Table

# A table's key is 24 URL-safe characters (games.models.core.new_table_key) in a column
# of 40: anything longer, or with a character no key has, is looked for nowhere.
KEY_LENGTH_LIMIT = 40


def could_be_key(key: str) -> bool:
    """Whether `key` could be a table's key: printable ASCII, at most 40 characters. A NUL,
    which PostgreSQL refuses in a string, never reaches the database."""
    return bool(key) and len(key) <= KEY_LENGTH_LIMIT and key.isascii() and key.isprintable()


def table_by_key(key: str) -> Table | None:
    """The table whose card carries this key, with what the page shows; None if there is none."""
    if not could_be_key(key):
        return None
    return Table.objects.select_related("round__event__club", "game").filter(key=key).first()


def ids_of_key(kind: str, key: str) -> Any:
    """What a table's poll remembered of this key (the ids of its game, which never change
    once made), or None; nothing is remembered of a key no table could have."""
    return cache.get(f"live:{kind}:{key}") if could_be_key(key) else None


def remember_ids_of_key(kind: str, key: str, ids: Any) -> None:
    """Keep what a poll found for a table's key (its game's ids), so the next poll answers
    304 without asking the database which game the key names."""
    if could_be_key(key):
        cache.set(f"live:{kind}:{key}", ids, live.VERSION_SECONDS)


def table_game(table: Table) -> Game | None:
    """The table's game (read with the table by table_by_key), or None before it has one."""
    try:
        return table.game
    except Game.DoesNotExist:
        return None


class UnknownTable(Exception):
    """The key in the URL belongs to no table."""


def table_from_key(request: HttpRequest, key: str) -> Table:
    table = table_by_key(key)
    if table is None:
        raise UnknownTable(key)
    offer_club_language(request, table.round.event.club)
    return table


def not_found_page(request: HttpRequest) -> HttpResponse:
    return render(request, "games/table/not_found.html", status=404)


def with_table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A wrong or unknown key gets a 404 page that says what to do, not a bare error."""

    @wraps(view)
    def wrapped(request: HttpRequest, key: str, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, table_from_key(request, key), **kwargs)
        except UnknownTable:
            return not_found_page(request)

    return wrapped
