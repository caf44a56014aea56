"""The Burraco pair ratings brought up to date with the confirmed score cards.

The machinery both ratings share (scoring/rating_sync.py) on rows of its own (BurracoRating,
BurracoRatingHistory, locked by BurracoRatingRun): only the Burraco games changed since
the previous sync are compared with the stored history, and the replay starts at the
earliest score card that was confirmed, corrected (its VP changed), reopened by the
referee or moved in the order, from the ratings just before it, with the pure maths of
scoring/engine/burraco/pair_ratings.py. One transaction. Nothing of the Barbu rating is read or
written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from games.models import Game
from scoring.engine.burraco import pair_ratings
from scoring.models import BurracoRating, BurracoRatingHistory, BurracoRatingRun
from scoring.rating_sync import RatingSource, RatingsReport, order_key, sync

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


def _history_row(card: RatedCard, player_id: int, r: Any) -> BurracoRatingHistory:
    vp, opponent_vp = card.table.vp(player_id)
    return BurracoRatingHistory(
        player_id=player_id,
        game_id=card.table.game_id,
        event_id=card.event_id,
        order_key=card.key,
        partner_id=card.table.partner(player_id),
        vp=vp,
        opponent_vp=opponent_vp,
        mu=r.mu,
        sigma=r.sigma,
        ordinal=r.ordinal,
    )


BURRACO = RatingSource(
    run=BurracoRatingRun,
    history=BurracoRatingHistory,
    current=BurracoRating,
    items=lambda where: confirmed_cards(where),
    starts_at=f"{EVENT}__starts_at",
    first_difference=lambda since: _first_difference(since),
    game_id=lambda card: card.table.game_id,
    players=lambda card: (*card.table.ns, *card.table.ew),
    replay=lambda start, cards: pair_ratings.replay(start, (c.table for c in cards)),
    history_row=_history_row,
    # A card reopened by the referee: its players who play no later card go back to
    # their rating before it, or to none.
    forget_dropped=True,
)


def sync_burraco_ratings(*, full: bool = False, now: Any = None) -> RatingsReport:
    """Bring the Burraco pair ratings up to date with the confirmed score cards: replay
    from the earliest card whose result (or place in the order) changed, or everything
    when `full` (scoring.rating_sync.sync). Score cards that vanished (a tournament
    deleted, its history with it) make it replay everything."""
    return sync(BURRACO, full=full, now=now)
