"""The turn's clock: when a turn's time runs out (its time limit from the moment it was
seated), what a phone at the table counts down, which hands were saved after time, and
the tables still playing once time is up (the referee's desk: its late-tables list)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.models import BurracoHand, Round, ScoreCard


def turn_ends_at(rnd: Round) -> datetime | None:
    """When the turn's time runs out; None for a turn without a time limit (or not started)."""
    if not rnd.time_limit or rnd.started_at is None:
        return None
    return rnd.started_at + timedelta(minutes=rnd.time_limit)


def seconds_left(rnd: Round, now: datetime) -> int | None:
    """Whole seconds left of the turn's time (negative once over); None without a limit."""
    ends = turn_ends_at(rnd)
    if ends is None:
        return None
    return int((ends - now).total_seconds() // 1)


def after_time(rnd: Round, now: datetime) -> bool:
    """A hand saved now is late: the turn has a time limit and it ran out."""
    ends = turn_ends_at(rnd)
    return ends is not None and now > ends


@dataclass(frozen=True)
class LateTable:
    """A table still playing (or waiting for its confirmation) once the turn's time is up."""

    number: int
    hands: int
    hands_per_turn: int
    status: str
    game_id: int | None
    late_hands: tuple[int, ...]

    @property
    def waiting_confirmation(self) -> bool:
        return self.status == ScoreCard.Status.ENTERED


def late_hands(rnd: Round) -> dict[int, tuple[int, ...]]:
    """The hands of the turn saved after time, by table number (one query)."""
    late: dict[int, list[int]] = {}
    rows = BurracoHand.objects.filter(game__table__round=rnd, late=True).values_list(
        "game__table__number", "number"
    )
    for table, number in rows:
        late.setdefault(table, []).append(number)
    return {table: tuple(sorted(numbers)) for table, numbers in sorted(late.items())}


def late_tables(
    rnd: Round, tables: Sequence[Any], now: datetime, late: dict[int, tuple[int, ...]]
) -> list[LateTable]:
    """The tables of the open turn whose card is not complete (hands missing, or not
    confirmed yet) once its time is up. `tables`: the desk's TableProgress rows of the
    turn (games/burraco/desk.py), read already. Empty while time is left, for a turn
    without a limit, and for a closed turn."""
    if rnd.status != Round.Status.OPEN or not after_time(rnd, now):
        return []
    out = []
    for progress in tables:
        if progress.status not in (ScoreCard.Status.OPEN, ScoreCard.Status.ENTERED):
            continue
        number = progress.table.number
        out.append(
            LateTable(
                number=number,
                hands=progress.hands,
                hands_per_turn=progress.hands_per_turn,
                status=progress.status,
                game_id=progress.card.game_id if progress.card is not None else None,
                late_hands=late.get(number, ()),
            )
        )
    return out


def desk_clock(rnd: Round | None, tables: Sequence[Any], now: datetime) -> dict[str, Any]:
    """What the desk's late-tables partial (templates/games/burraco/_late_tables.html)
    reads: whether the turn's time is up, the tables still playing then, and the hands
    every table of the turn saved after time. One query (none without a turn)."""
    if rnd is None:
        return {"time_up": False, "late_tables": [], "late_hands": {}}
    late = late_hands(rnd)
    return {
        "time_up": after_time(rnd, now),
        "late_tables": late_tables(rnd, tables, now, late),
        "late_hands": late,
    }
