"""The next turn seated from the API: `turn_seat` with an Idempotency-Key, as Barbu's deals
and the score cards' hands have it (a retry answers the first answer and seats nothing
new; the same key with another request is refused)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.burraco.tournaments import SeatedTurn, turn_seat
from games.idempotency import keep_answer, replayed, request_fingerprint
from games.models import Event


@dataclass(frozen=True)
class SeatAnswer:
    body: dict[str, Any]
    status_code: int
    created: bool = True


def turn_seat_request(
    *,
    event: Event,
    options: dict[str, Any],
    body_of: Callable[[SeatedTurn], dict[str, Any]],
    idempotency_key: str | None = None,
) -> SeatAnswer:
    """Seat the next turn with `options` (turn_seat's keywords); `body_of` makes the JSON
    answer of the seated turn, kept with the key in the same transaction."""
    fingerprint = request_fingerprint(options)
    scope = f"event:{event.pk}:turns"
    with transaction.atomic():
        # The event row first, as turn_seat locks it: two retries wait for each other.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        earlier = replayed(
            scope,
            idempotency_key,
            fingerprint,
            _("This Idempotency-Key was already used for a different request."),
        )
        if earlier is not None:
            return SeatAnswer(*earlier, created=False)
        seated = turn_seat(event=event, **options)
        body = body_of(seated)
        keep_answer(scope, idempotency_key, fingerprint, body)
    return SeatAnswer(body, 201)
