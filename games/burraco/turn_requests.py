"""The next turn seated from the API: `turn_seat` with an Idempotency-Key, as Barbu's deals
and the score cards' hands have it (a retry answers the first answer and seats nothing
new; the same key with another request is refused)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.burraco.tournaments import SeatedTurn, turn_seat
from games.core.idempotency import Answer, event_write_once
from games.models import Event


def turn_seat_request(
    *,
    event: Event,
    options: dict[str, Any],
    body_of: Callable[[SeatedTurn], dict[str, Any]],
    idempotency_key: str | None = None,
    by_user: Any = None,
) -> Answer:
    """Seat the next turn with `options` (turn_seat's keywords); `body_of` makes the JSON
    answer of the seated turn, kept with the key in the same transaction; `by_user` who
    seats it, for the tournament's history."""
    return event_write_once(
        event=event,
        what="turns",
        key=idempotency_key,
        request=options,
        write=lambda: body_of(turn_seat(event=event, by_user=by_user, **options)),
    )
