"""What the referee's desk reads: the current turn's tables with their progress and time
left, the cards that need the referee, the pairs and the history. A fixed number of
queries whatever the number of pairs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Prefetch

from games.burraco.history import desk_history
from games.models import (
    BurracoPair,
    Event,
    PairTurnResult,
    Round,
    ScoreCard,
    Table,
)


@dataclass(frozen=True)
class TableProgress:
    table: Table
    hands: int
    hands_per_turn: int
    status: str
    card: ScoreCard | None

    @property
    def needs_referee(self) -> bool:
        return self.status == ScoreCard.Status.DISPUTED

    @property
    def missing(self) -> bool:
        return self.status != ScoreCard.Status.CONFIRMED


def minutes_left(rnd: Round, now: datetime) -> int | None:
    """Whole minutes left of the turn's time limit (negative once over); None without one."""
    if not rnd.time_limit or rnd.started_at is None:
        return None
    elapsed = (now - rnd.started_at).total_seconds() / 60
    left = rnd.time_limit - elapsed
    return int(left) if left >= 0 else -int(-left + 0.999)


def pairs_of(event: Event) -> list[BurracoPair]:
    return list(event.pairs.select_related("player_a", "player_b").order_by("number"))


def turn_tables(rnd: Round) -> list[TableProgress]:
    tables = (
        Table.objects.filter(round=rnd)
        .select_related(
            "game__card",
            "ns_pair__player_a",
            "ns_pair__player_b",
            "ew_pair__player_a",
            "ew_pair__player_b",
            "ns_partner__player_a",
            "ew_partner__player_a",
        )
        .annotate(hand_count=Count("game__hands"))
        .order_by("number")
    )
    out = []
    for table in tables:
        card = getattr(table.game, "card", None)
        out.append(
            TableProgress(
                table=table,
                hands=table.hand_count,
                hands_per_turn=rnd.hands_per_turn or 0,
                status=card.status if card else ScoreCard.Status.OPEN,
                card=card,
            )
        )
    return out


def turn_byes(rnd: Round) -> list[PairTurnResult]:
    return list(
        PairTurnResult.objects.filter(round=rnd, bye=True)
        .select_related("pair__player_a", "pair__player_b")
        .order_by("pair__number")
    )


def penalties(event: Event) -> list[PairTurnResult]:
    return list(
        PairTurnResult.objects.filter(round__event=event)
        .exclude(penalty_vp=0, penalty_mp=0)
        .select_related("round", "pair")
        .order_by("round__number", "pair__number")
    )


def desk(event: Event, now: datetime) -> dict[str, Any]:
    rounds = list(event.rounds.order_by("number"))
    current = rounds[-1] if rounds else None
    tables = turn_tables(current) if current else []
    return {
        "pairs": pairs_of(event),
        "rounds": rounds,
        "current": current,
        "tables": tables,
        "byes": turn_byes(current) if current else [],
        "minutes_left": minutes_left(current, now) if current else None,
        "attention": [t for t in tables if t.needs_referee],
        "missing": [t for t in tables if t.missing],
        "penalties": penalties(event),
        "history": desk_history(event),
    }


def prefetch_pairs() -> Prefetch:
    return Prefetch("pairs", queryset=BurracoPair.objects.select_related("player_a", "player_b"))
