"""Standings that heal: what each rebuild was computed from, and the sweep that finds
what is behind.

The per-deal queue (scoring/tasks.py) coalesces a burst into one task behind an
"already queued" mark. If the worker holding that task dies, the task waits in Redis
until the visibility timeout and the mark keeps later deals from queueing another:
the standings would stay behind. So each rebuild task records, once it has committed,
the fingerprint of the games it was computed from (StandingsSource: number of games,
their deals, their latest change), read *before* the rebuild reads the games, so a
recorded fingerprint is never newer than the rows. The sweep (`heal_standings`, run by
beat every STANDINGS_SWEEP_SECONDS and by each worker when it starts) compares the
recorded fingerprints with the games' fingerprints now, for every scope whose games
changed within STANDINGS_SWEEP_WINDOW, and requeues the rebuild of each scope behind,
past the mark when the mark is older than STANDINGS_HEAL_GRACE (a task queued just now
is left to run). A rebuild made outside a task (the command, the tests) records nothing;
the sweep then rebuilds that scope once more, which changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone

from games.models import Game
from scoring.models import StandingsSource

EVENT = "table__round__event_id"
LEAGUE = "table__round__event__league_id"


def _fingerprint(row: dict[str, Any]) -> str:
    last = row.get("last")
    return f"{row.get('games') or 0}:{row.get('deals') or 0}:{last.isoformat() if last else ''}"


def _measures() -> dict[str, Any]:
    return {"games": Count("id"), "deals": Sum("deals_count"), "last": Max("updated_at")}


def _games(kind: str) -> Any:
    """The games a scope of this kind is computed from (complete ones for leagues and
    ratings, as the ratings' syncs count them: the Barbu rating, scoring/barbu/rating_sync.py,
    reads Barbu games only, the Burraco pair rating confirmed score cards only)."""
    if kind == "event":
        return Game.objects.all()
    complete = Game.objects.filter(status=Game.Status.COMPLETE)
    if kind == "ratings":
        return complete.filter(kind=Game.Kind.BARBU)
    if kind == "burraco_ratings":
        return complete.filter(kind=Game.Kind.BURRACO)
    return complete


def _field(kind: str) -> str | None:
    return {"event": EVENT, "league": LEAGUE, "ratings": None, "burraco_ratings": None}[kind]


def fingerprint(kind: str, ident: int | str) -> str:
    """The fingerprint of the games one scope is computed from, now."""
    games = _games(kind)
    field = _field(kind)
    if field is not None:
        games = games.filter(**{field: ident})
    return _fingerprint(games.aggregate(**_measures()))


def scope_name(kind: str, ident: int | str) -> str:
    return f"{kind}:{ident}"


@contextmanager
def recording(kind: str, ident: int | str) -> Iterator[None]:
    """Around a rebuild: read the games' fingerprint before it, record it after it
    committed (nothing is recorded when it fails)."""
    seen = fingerprint(kind, ident)
    yield
    StandingsSource.objects.bulk_create(
        [StandingsSource(scope=scope_name(kind, ident), fingerprint=seen)],
        update_conflicts=True,
        unique_fields=["scope"],
        update_fields=["fingerprint", "rebuilt_at"],
    )


def behind(now: Any = None) -> list[tuple[str, int | str]]:
    """The scopes whose recorded fingerprint differs from their games' now, among those
    whose games changed within STANDINGS_SWEEP_WINDOW seconds. A few grouped queries."""
    now = now or timezone.now()
    window = getattr(settings, "STANDINGS_SWEEP_WINDOW", 24 * 60 * 60)
    recent = Game.objects.filter(updated_at__gte=now - timedelta(seconds=window))
    events = set(recent.values_list(EVENT, flat=True).distinct())
    leagues = set(
        recent.filter(status=Game.Status.COMPLETE).values_list(LEAGUE, flat=True).distinct()
    )
    leagues.discard(None)
    rated = set(
        recent.filter(status=Game.Status.COMPLETE).values_list("kind", flat=True).distinct()
    )

    current: dict[tuple[str, int | str], str] = {}
    for kind, field, ids in (("event", EVENT, events), ("league", LEAGUE, leagues)):
        if not ids:
            continue
        rows = (
            _games(kind)
            .filter(**{f"{field}__in": ids})
            .values(field)
            .order_by(field)
            .annotate(**_measures())
        )
        for row in rows:
            current[(kind, row[field])] = _fingerprint(row)
    if Game.Kind.BARBU in rated:
        current[("ratings", "all")] = fingerprint("ratings", "all")
    if Game.Kind.BURRACO in rated:
        current[("burraco_ratings", "all")] = fingerprint("burraco_ratings", "all")
    if not current:
        return []
    scopes = Q(scope__in=[scope_name(k, i) for k, i in current])
    recorded = dict(StandingsSource.objects.filter(scopes).values_list("scope", "fingerprint"))
    return [
        (kind, ident)
        for (kind, ident), seen in sorted(current.items(), key=str)
        if recorded.get(scope_name(kind, ident)) != seen
    ]
