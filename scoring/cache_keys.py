"""The cache keys of the standings pages and API answers, and how they are forgotten.

A rebuild (scoring/rebuild.py) forgets its scope's keys once its rows are committed; the
pages (scoring/selectors.py) and the API (scoring/api.py) cache under them.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def forget(key: str) -> None:
    """Drop the cached standings under this key, in every language they were cached in,
    and their version (the API's rendered pages are cached per version: scoring/api.py)."""
    keys = [f"{key}:{code}" for code, _name in settings.LANGUAGES]
    cache.delete_many([*keys, version_cache_key(key)])


def version_cache_key(key: str) -> str:
    return f"{key}:version"


def event_cache_key(event_id: int) -> str:
    return f"standings:event:{event_id}"


def league_cache_key(league_id: int) -> str:
    return f"standings:league:{league_id}"


def league_free_cache_key(league_id: int) -> str:
    """A league's season of free-match evenings (the API's rows), forgotten whenever one
    of its evenings' rankings is rebuilt (scoring/burraco_rebuild.py)."""
    return f"standings:league:{league_id}:free"
