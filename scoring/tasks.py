"""Celery tasks that rebuild standings and ratings, and the coalescing queue in front of them.

A burst of deals from twenty tables must not queue twenty full recomputes. Queueing an
event sets the cache key "standings:dirty:event:<id>" with `cache.add` (atomic in Redis);
only the caller that sets it sends the task, with a short countdown. The task deletes the
key *before* reading the deals, so a deal committed after that moment queues a new task
and a deal committed before it is seen by this one: nothing is missed, and every deal of
the burst in between rides on the same task. The tasks are idempotent (a rebuild replaces
the rows in one transaction), so a duplicate or a redelivery after a lost worker is
harmless; the key expires on its own if a task is ever lost.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from scoring import services

log = logging.getLogger(__name__)

DIRTY_TIMEOUT = 120


def _countdown(kind: str) -> float:
    default = {"event": 1.0, "league": 3.0, "ratings": 3.0}[kind]
    return getattr(settings, "STANDINGS_COUNTDOWNS", {}).get(kind, default)


def dirty_key(kind: str, ident: int | str) -> str:
    return f"standings:dirty:{kind}:{ident}"


def _queue(kind: str, ident: int | str, task, args: tuple) -> bool:
    """Send the task unless one is already waiting for this key; True when sent."""
    key = dirty_key(kind, ident)
    if not cache.add(key, 1, timeout=DIRTY_TIMEOUT):
        return False
    try:
        # STANDINGS_QUEUE: a queue of their own if these tasks should go to other workers.
        queue = getattr(settings, "STANDINGS_QUEUE", None)
        task.apply_async(args, countdown=_countdown(kind), **({"queue": queue} if queue else {}))
    except Exception:
        # No broker: forget the mark so the next deal tries again, and let the caller's
        # request succeed (the deal is stored; standings catch up on the next one).
        cache.delete(key)
        log.exception("could not queue %s %s", kind, ident)
        return False
    return True


def queue_event_standings(event_id: int) -> bool:
    return _queue("event", event_id, event_standings_task, (event_id,))


def queue_league_standings(league_id: int) -> bool:
    return _queue("league", league_id, league_standings_task, (league_id,))


def queue_ratings() -> bool:
    return _queue("ratings", "all", ratings_task, ())


def queue_after_deals(event_ids: Iterable[int], league_ids: Iterable[int]) -> None:
    """What a stored or corrected deal makes stale: its evening; its league and the ratings
    when a complete game changed (callers pass only those leagues)."""
    for event_id in set(event_ids):
        queue_event_standings(event_id)
    league_ids = set(league_ids)
    for league_id in league_ids - {None}:
        queue_league_standings(league_id)
    if league_ids:
        queue_ratings()


@shared_task(name="scoring.event_standings", acks_late=True)
def event_standings_task(event_id: int) -> int:
    cache.delete(dirty_key("event", event_id))
    return services.rebuild_event_standings(event_id=event_id)


@shared_task(name="scoring.league_standings", acks_late=True)
def league_standings_task(league_id: int) -> int:
    cache.delete(dirty_key("league", league_id))
    return services.rebuild_league_standings(league_id=league_id)


@shared_task(name="scoring.ratings", acks_late=True)
def ratings_task() -> dict:
    cache.delete(dirty_key("ratings", "all"))
    report = services.sync_ratings()
    return {"games": report.games, "replayed": report.replayed}


@shared_task(name="scoring.rebuild_all", acks_late=True)
def rebuild_all_task() -> dict:
    """Nightly safety net (CELERY_BEAT_SCHEDULE): everything rebuilt from the deals."""
    return services.rebuild_all()
