"""Versions of what live pages show, kept in the cache, so a poll with nothing new is a 304.

The public evening page polls its live part every second and a table's second phone polls
its table's state; nearly every poll finds nothing new. Each scope (an evening, a game) has
a version: a random token in the cache, made by the first reader that finds none and
dropped ("touched") after every write that changes what the scope's page shows, once that
write has committed. A page reads the version BEFORE it reads the database and sends it
as its ETag; a poll whose If-None-Match still equals the version gets 304 Not Modified
before any database query (`not_modified`).

Why it is right: a version is made only after the previous one was dropped, which happens
after the write committed, and a reader reads its data after the version: whatever is
labelled with a version is at least as new as every write before that version existed.
A write during a read drops the version the reader holds, so the next poll reads again.

Scopes: "event" (everything an evening's pages show), "game" (one table's game) and
"status" (an evening's and its rounds' states alone, what a Burraco score card shows of its
tournament: a hand at another table drops the event's version but not this one, so the
other cards' polls stay 304s).

What drops a version: deals stored, corrected, confirmed or renamed (the deals_changed
signal, for the games and their evenings), a standings rebuild (scoring/rebuild.py), any
save of an evening or a round (status, publication, a round seated: the receivers below,
which drop its "status" too), a club's save (its language decides the page's). Versions
also expire after VERSION_SECONDS, in case a write is ever missed. With the cache
unreachable there is no version: every poll is answered in full, as before (clubs/cache.py
answers a miss).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers

VERSION_SECONDS = 10 * 60


def _key(kind: str, ident: int) -> str:
    return f"live:{kind}:{ident}"


def version(kind: str, ident: int) -> str | None:
    """The scope's current version (made now if there is none); None without a cache."""
    key = _key(kind, ident)
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex, VERSION_SECONDS)
        token = cache.get(key)
    return token


def touch(kind: str | tuple[str, ...], idents: Iterable[int | None]) -> None:
    """Drop these scopes' versions, of one kind or several, in one round trip to the cache:
    their pages changed (call after the commit)."""
    kinds = (kind,) if isinstance(kind, str) else kind
    idents = {ident for ident in idents if ident is not None}
    keys = [_key(k, ident) for k in kinds for ident in idents]
    if keys:
        cache.delete_many(keys)


def touch_on_commit(kind: str | tuple[str, ...], idents: Iterable[int | None]) -> None:
    idents = list(idents)
    transaction.on_commit(lambda: touch(kind, idents))


def language_inputs(request: HttpRequest, path: str | None = None) -> str:
    """What decides a club page's language besides the club (clubs/language.py): the URL's
    prefix (of `path`, by default the request's), the language cookie, and the browser's
    language as the middleware resolved it. A page in Italian is never a 304 for a
    visitor who would get it in English."""
    prefix = translation.get_language_from_path(path or request.path_info)
    if prefix:  # the URL's language decides alone
        return prefix
    return "|".join(
        (
            "",
            request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
            getattr(request, "deferred_language", None) or "",
        )
    )


def etag(token: str | None, *parts: str) -> str:
    """A strong ETag for the version and whatever else shapes the answer; "" without one."""
    if not token:
        return ""
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]
    return f'"{token}-{digest}"' if parts else f'"{token}"'


def _matches(request: HttpRequest, tag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    if not tag or not header:
        return False
    # Weak comparison (RFC 9110 13.1.2): a proxy may have weakened the tag.
    candidates = {t.strip().removeprefix("W/") for t in header.split(",")}
    return tag in candidates or "*" in candidates


def not_modified(request: HttpRequest, tag: str) -> HttpResponse | None:
    """304 when the poll already holds this version (no database touched), else None."""
    if not _matches(request, tag):
        return None
    return mark(request, HttpResponseNotModified(), tag)


def mark(request: HttpRequest, response: HttpResponse, tag: str) -> HttpResponse:
    """Label an answer with its ETag; always revalidated, never kept by a shared cache."""
    if tag:
        response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def cached_body(tag: str) -> bytes | None:
    """The answer rendered for this ETag by an earlier poll, if still kept."""
    return cache.get(f"live:body:{tag}") if tag else None


def keep_body(tag: str, body: bytes) -> None:
    """Keep a rendered answer under its ETag: the other viewers of a change get it from the
    cache (a change is one render, not one per viewer)."""
    if tag:
        cache.set(f"live:body:{tag}", body, BODY_SECONDS)


BODY_SECONDS = 60


# --- Receivers (connected in games/apps.py) ----------------------------------------------


def on_deals_changed(sender: Any, game_ids: list[int], event_ids: list[int], **kwargs: Any) -> None:
    """Sent after the commit: the games' and their evenings' pages changed (their
    versions dropped in one round trip to the cache)."""
    keys = {_key("game", i) for i in game_ids if i is not None}
    keys |= {_key("event", i) for i in event_ids if i is not None}
    if keys:
        cache.delete_many(sorted(keys))


def on_event_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """The evening's pages and its state changed."""
    touch_on_commit(("event", "status"), [instance.pk])


def on_round_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A round seated (its tables and games are made in the same transaction), closed,
    reopened or deleted."""
    touch_on_commit(("event", "status"), [instance.event_id])


def on_pair_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A Burraco pair entered, renamed, checked in, withdrawn or removed."""
    touch_on_commit("event", [instance.event_id])


def on_club_saved(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    """The club's language decides its pages' language: its evenings' pages changed."""
    if created:
        return
    from games.models import Event

    ids = list(Event.objects.filter(club_id=instance.pk).values_list("pk", flat=True))
    touch_on_commit("event", ids)
