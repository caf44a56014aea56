"""Celery tasks that rebuild standings and ratings, and the coalescing queue in front of them.

A burst of deals from twenty tables must not queue twenty full recomputes. Queueing an
event sets the cache key "standings:dirty:event:<id>" with `cache.add` (atomic in Redis);
only the caller that sets it sends the task, with a short countdown. The task deletes the
key *before* reading the deals, so a deal committed after that moment queues a new task
and a deal committed before it is seen by this one: nothing is missed, and every deal of
the burst in between rides on the same task. The tasks are idempotent (a rebuild replaces
the rows in one transaction), so a duplicate or a redelivery after a lost worker is
harmless; the key expires on its own if a task is ever lost.

A process-local memo spares most deals the Redis round trip of `cache.add`. When THIS
process's `cache.add` succeeded and it sent the task with countdown C, taking the
monotonic time t0 *before* the add, Celery turns the countdown into an ETA of at least
t0 + C, and the task deletes the mark and reads only after its ETA. A later deal of
this process whose after-commit queueing runs before t0 + C - margin is committed
before that read starts, so the task already sent will see it: it skips `cache.add`
(and sending). margin = max(MEMO_MIN_MARGIN, C / 2) covers clock skew between this
machine and the worker's (an ETA is compared with the worker's clock) and a task
started a little early. The memo is kept per (kind, ident), and only after a
successful add and send by this process: after a failed add, the waiting task may be
another process's and may be reading already, so the add is needed to learn that.
Never in eager mode (CELERY_TASK_ALWAYS_EAGER runs the task at once, without any
countdown). A task run in this process forgets the memo of its key.

The mark holds the time it was set. A task lost with its worker would leave the mark
blocking later deals until it expires, and nothing to rebuild the standings after the
last deal: each task records what it computed from (scoring/healing.py), and the sweep
`heal_standings` (beat, and every worker as it starts) requeues any scope left behind,
past a mark older than STANDINGS_HEAL_GRACE. With the cache (Redis) down, the mark
cannot be set and nothing is queued (the cache backend logs it, clubs/cache.py): the
deal is stored all the same and the sweep rebuilds once Redis is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from time import monotonic

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connections

from scoring import healing, rebuild
from scoring.barbu import rating_sync as barbu_rating_sync
from scoring.barbu import rebuild as barbu_rebuild
from scoring.burraco import rating_sync as burraco_rating_sync

log = logging.getLogger(__name__)

DIRTY_TIMEOUT = 120
MEMO_MIN_MARGIN = 0.5

# (kind, ident) -> monotonic time until which a task this process sent will still see a
# newly committed deal (module docstring). Plain dict operations: safe across threads.
_sent_until: dict[tuple[str, int | str], float] = {}


# A rebuild whose database connection failed (cut, server restarted, failover) is tried
# again with exponential backoff (about 1, 2, 4 ... s, at most a minute, jittered) rather
# than left to the next sweep; Celery's Django fixup closes the broken connection before
# the retry runs. A bug (any other error) is not retried. The tasks are idempotent.
RETRY_ON_LOST_DATABASE = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 6,
}


def _countdown(kind: str) -> float:
    # The evening's: short, since its live page promises a deal within two seconds (its
    # rebuild takes ~10 ms); a burst of deals still rides on one task.
    default = {"event": 0.25, "league": 3.0, "ratings": 3.0, "burraco_ratings": 3.0}[kind]
    return getattr(settings, "STANDINGS_COUNTDOWNS", {}).get(kind, default)


def dirty_key(kind: str, ident: int | str) -> str:
    return f"standings:dirty:{kind}:{ident}"


def _eager(task) -> bool:
    return getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False) or task.app.conf.task_always_eager


def _queue(kind: str, ident: int | str, task, args: tuple) -> bool:
    """Send the task unless one is already waiting for this key; True when sent.

    Whether Celery runs tasks eagerly is asked only where it matters (a memo to trust, a
    task sent): through the task's proxy and Celery's settings it was a measurable part
    of every deal, most of which only find the mark set."""
    memo = (kind, ident)
    until = _sent_until.get(memo)
    if until is not None and not _eager(task):
        if monotonic() < until:
            return False  # the task this process sent will see this deal
        _sent_until.pop(memo, None)
    key = dirty_key(kind, ident)
    t0 = monotonic()
    if not cache.add(key, time.time(), timeout=DIRTY_TIMEOUT):
        return False
    countdown = _countdown(kind)
    try:
        # STANDINGS_QUEUE: a queue of their own if these tasks should go to other workers.
        queue = getattr(settings, "STANDINGS_QUEUE", None)
        task.apply_async(args, countdown=countdown, **({"queue": queue} if queue else {}))
    except Exception:
        # No broker: forget the mark so the next deal tries again, and let the caller's
        # request succeed (the deal is stored; standings catch up on the next one).
        cache.delete(key)
        log.exception("could not queue %s %s", kind, ident)
        return False
    if not _eager(task):
        _sent_until[memo] = t0 + countdown - max(MEMO_MIN_MARGIN, countdown / 2)
    return True


def _forget(kind: str, ident: int | str) -> None:
    """A task of this key runs: clear the mark (and this process's memo) before reading."""
    _sent_until.pop((kind, ident), None)
    cache.delete(dirty_key(kind, ident))


def queue_event_standings(event_id: int) -> bool:
    return _queue("event", event_id, event_standings_task, (event_id,))


def queue_league_standings(league_id: int) -> bool:
    return _queue("league", league_id, league_standings_task, (league_id,))


def queue_ratings() -> bool:
    return _queue("ratings", "all", ratings_task, ())


def queue_burraco_ratings() -> bool:
    """The Burraco pair ratings (scoring/burraco/rating_sync.py), after a score card was
    confirmed or corrected."""
    return _queue("burraco_ratings", "all", burraco_ratings_task, ())


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


def _requeue(kind: str, ident: int | str) -> bool:
    """The sweep's queueing: past a mark older than STANDINGS_HEAL_GRACE (its task is
    presumed lost), not past a younger one (its task is about to run)."""
    key = dirty_key(kind, ident)
    marked = cache.get(key)
    grace = getattr(settings, "STANDINGS_HEAL_GRACE", 15)
    if isinstance(marked, float) and time.time() - marked < grace:
        return False
    cache.delete(key)
    _sent_until.pop((kind, ident), None)
    task, args = {
        "event": (event_standings_task, (ident,)),
        "league": (league_standings_task, (ident,)),
        "ratings": (ratings_task, ()),
        "burraco_ratings": (burraco_ratings_task, ()),
    }[kind]
    return _queue(kind, ident, task, args)


@shared_task(name="scoring.event_standings", acks_late=True, **RETRY_ON_LOST_DATABASE)
def event_standings_task(event_id: int) -> int:
    _forget("event", event_id)
    with healing.recording("event", event_id):
        return rebuild.rebuild_event_standings(event_id=event_id)


@shared_task(name="scoring.league_standings", acks_late=True, **RETRY_ON_LOST_DATABASE)
def league_standings_task(league_id: int) -> int:
    _forget("league", league_id)
    with healing.recording("league", league_id):
        return barbu_rebuild.rebuild_league_standings(league_id=league_id)


@shared_task(name="scoring.ratings", acks_late=True, **RETRY_ON_LOST_DATABASE)
def ratings_task() -> dict:
    _forget("ratings", "all")
    with healing.recording("ratings", "all"):
        report = barbu_rating_sync.sync_ratings()
    return {"games": report.games, "replayed": report.replayed}


@shared_task(name="scoring.burraco_ratings", acks_late=True, **RETRY_ON_LOST_DATABASE)
def burraco_ratings_task() -> dict:
    _forget("burraco_ratings", "all")
    with healing.recording("burraco_ratings", "all"):
        report = burraco_rating_sync.sync_burraco_ratings()
    return {"games": report.games, "replayed": report.replayed}


@shared_task(name="scoring.rebuild_all", acks_late=True, **RETRY_ON_LOST_DATABASE)
def rebuild_all_task() -> dict:
    """Nightly safety net (CELERY_BEAT_SCHEDULE): everything rebuilt from the deals."""
    return rebuild.rebuild_all()


@shared_task(name="scoring.heal_standings", acks_late=True)
def heal_standings_task() -> list[str]:
    """The sweep (beat, every STANDINGS_SWEEP_SECONDS): requeue every scope behind its
    games (scoring/healing.py); the scopes requeued."""
    requeued = [f"{k}:{i}" for k, i in healing.behind() if _requeue(k, i)]
    if requeued:
        log.warning("standings behind their games, rebuilding: %s", ", ".join(requeued))
    return requeued


@worker_ready.connect
def _heal_on_start(**kwargs) -> None:
    """A worker (re)started: whatever a dead one left behind is rebuilt now, not at the
    next beat."""
    try:
        heal_standings_task()
    except Exception:
        log.exception("standings sweep at worker start failed")
    finally:
        connections.close_all()  # not inherited by the pool's forked processes
