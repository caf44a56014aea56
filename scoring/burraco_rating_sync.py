"""The Burraco pair ratings brought up to date with the confirmed score cards.

The Barbu rating's machinery (scoring/rating_sync.py) on rows of its own (BurracoRating,
BurracoRatingHistory, locked by BurracoRatingRun): only the Burraco games changed since
the previous sync are compared with the stored history, and the replay starts at the
earliest score card that was confirmed, corrected (its VP changed), reopened by the
referee or moved in the order, from the ratings just before it, with the pure maths of
scoring/pair_ratings.py. One transaction. Nothing of the Barbu rating is read or written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from scoring import pair_ratings
from scoring.models import BurracoRating, BurracoRatingHistory, BurracoRatingRun
from scoring.rating_sync import (
    SYNC_SLACK,
    RatingsReport,
    order_key,
    ratings_before,
    write_current_ratings,
)

EVENT = "table__round__event"


@dataclass(frozen=True)
class RatedCard:
    key: str
    event_id: int
    table: pair_ratings.PairTable

    def signature(self) -> tuple[str, dict[int, tuple[int, int]]]:
        """What the history stores of this card: its key and each player's VP, theirs first."""
        players = (*self.table.ns, *self.table.ew)
        return self.key, {p: self.table.vp(p) for p in players}


def confirmed_cards(where: Q | None = None) -> list[RatedCard]:
    """The confirmed score cards of pair tournaments (all, or the games matching `where`),
    in rating order (one query)."""
    games = Game.objects.filter(kind=Game.Kind.BURRACO, status=Game.Status.COMPLETE)
    if where is not None:
        games = games.filter(where)
    rows = games.filter(table__ns_pair__isnull=False, table__ew_pair__isnull=False).values_list(
        "pk",
        "card__ns_vp",
        "card__ew_vp",
        "table__ns_pair__player_a_id",
        "table__ns_pair__player_b_id",
        "table__ew_pair__player_a_id",
        "table__ew_pair__player_b_id",
        # An individual tournament's table: each line's second player is the partner's.
        "table__ns_partner__player_a_id",
        "table__ew_partner__player_a_id",
        f"{EVENT}_id",
        f"{EVENT}__starts_at",
        "table__round__number",
        "table__number",
    )
    cards = [
        RatedCard(
            order_key(starts_at, event_id, turn, table, game_id),
            event_id,
            pair_ratings.PairTable(
                game_id, (ns_a, ns_b or ns_partner), (ew_a, ew_b or ew_partner), ns_vp, ew_vp
            ),
        )
        for (
            game_id,
            ns_vp,
            ew_vp,
            ns_a,
            ns_b,
            ew_a,
            ew_b,
            ns_partner,
            ew_partner,
            event_id,
            starts_at,
            turn,
            table,
        ) in rows.order_by()
    ]
    return sorted(cards, key=lambda c: c.key)


def _first_difference(since: Any) -> str | None:
    """The order key of the earliest Burraco game changed since then whose rating input
    differs from the history (newly confirmed, VP corrected, reopened); None when the
    history is up to date."""
    changed = Game.objects.filter(kind=Game.Kind.BURRACO, updated_at__gte=since)
    confirmed = {c.table.game_id: c for c in confirmed_cards(Q(pk__in=changed.values("pk")))}
    stored: dict[int, tuple[str, dict[int, tuple[int, int]]]] = {}
    for game_id, player_id, key, vp, opponent_vp in BurracoRatingHistory.objects.filter(
        game_id__in=changed.values("pk")
    ).values_list("game_id", "player_id", "order_key", "vp", "opponent_vp"):
        stored.setdefault(game_id, (key, {}))[1][player_id] = (vp, opponent_vp)
    keys = []
    for game_id in confirmed.keys() | stored.keys():
        now, before = confirmed.get(game_id), stored.get(game_id)
        signature = now.signature() if now else None
        if signature != before:
            keys.extend(k for k in (signature and signature[0], before and before[0]) if k)
    return min(keys) if keys else None


def sync_burraco_ratings(*, full: bool = False, now: Any = None) -> RatingsReport:
    """Bring the Burraco pair ratings up to date with the confirmed score cards: replay
    from the earliest card whose result (or place in the order) changed, or everything
    when `full`. Score cards that vanished (a tournament deleted, its history with it)
    make it replay everything."""
    now = now or timezone.now()
    with transaction.atomic():
        BurracoRatingRun.objects.get_or_create(pk=1)
        run = BurracoRatingRun.objects.select_for_update().get(pk=1)
        rated = BurracoRatingHistory.objects.values("game_id").distinct().count()
        if full or run.started_at is None or rated != run.games:
            from_key: str | None = ""
        else:
            from_key = _first_difference(run.started_at - SYNC_SLACK)
        run.started_at = now
        if from_key is None:
            run.replayed = 0
            run.save()
            return RatingsReport(run.games, 0, None)

        start = ratings_before(from_key, BurracoRatingHistory, BurracoRating)
        if from_key:
            since = datetime.strptime(from_key[:14], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
            todo = [
                c
                for c in confirmed_cards(Q(**{f"{EVENT}__starts_at__gte": since}))
                if c.key >= from_key
            ]
        else:
            todo = confirmed_cards()
        by_id = {c.table.game_id: c for c in todo}
        final, history = pair_ratings.replay(start, (c.table for c in todo))
        replaced = BurracoRatingHistory.objects.filter(order_key__gte=from_key)
        # Players whose cards from here on are gone (a card reopened by the referee) and
        # who play no later card: back to their rating before it, or to none.
        dropped = set(replaced.values_list("player_id", flat=True).distinct())
        replaced.delete()
        rows = []
        for game_id, player_id, r in history:
            card = by_id[game_id]
            vp, opponent_vp = card.table.vp(player_id)
            rows.append(
                BurracoRatingHistory(
                    player_id=player_id,
                    game_id=game_id,
                    event_id=card.event_id,
                    order_key=card.key,
                    partner_id=card.table.partner(player_id),
                    vp=vp,
                    opponent_vp=opponent_vp,
                    mu=r.mu,
                    sigma=r.sigma,
                    ordinal=r.ordinal,
                )
            )
        BurracoRatingHistory.objects.bulk_create(rows, batch_size=2000)
        touched = {p for c in todo for p in (*c.table.ns, *c.table.ew)}
        touched |= {p for p in dropped if p in final}
        write_current_ratings(
            {p: final[p] for p in touched},
            full=not from_key,
            history=BurracoRatingHistory,
            current=BurracoRating,
        )
        BurracoRating.objects.filter(player_id__in=dropped - touched).delete()
        run.games = BurracoRatingHistory.objects.values("game_id").distinct().count()
        run.replayed = len(todo)
        run.finished_at = timezone.now()
        run.save()
    return RatingsReport(run.games, len(todo), from_key)
