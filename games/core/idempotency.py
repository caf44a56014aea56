"""Idempotency-Key: the first answer to a write, kept with a hash of its request and
replayed to a retry with the same key and content (a deal, a Burraco hand, a turn seated).

Call these inside the write's transaction, after the lock that orders its retries."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.core.errors import IdempotencyMismatch
from games.models import Event, IdempotencyRecord


def request_fingerprint(payload: Any) -> str:
    """A hash of the request's content: an Idempotency-Key reused with other content is refused."""
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()


def earlier_answer(scope: str, key: str | None) -> tuple[str, int, Any] | None:
    """(request hash, status code, body) kept for this key, if a request used it before."""
    if not key:
        return None
    row = (
        IdempotencyRecord.objects.filter(scope=scope, key=key)
        .values_list("request_hash", "status_code", "body")
        .first()
    )
    return tuple(row) if row else None


def replayed(
    scope: str, key: str | None, fingerprint: str, mismatch: str
) -> tuple[Any, int] | None:
    """(body, status code) of the earlier answer to this very request, or None if the key
    is new; IdempotencyMismatch (with the message `mismatch`) if the key came with other
    content."""
    earlier = earlier_answer(scope, key)
    if earlier is None:
        return None
    request_hash, status_code, body = earlier
    if request_hash != fingerprint:
        raise IdempotencyMismatch(mismatch)
    return body, status_code


def keep_answer(
    scope: str, key: str | None, fingerprint: str, body: Any, status: int = 201
) -> None:
    """Keep the answer for a retry with this key (nothing without a key)."""
    if key:
        IdempotencyRecord.objects.create(
            scope=scope, key=key[:200], request_hash=fingerprint, status_code=status, body=body
        )


@dataclass(frozen=True)
class Answer:
    """The answer to an idempotent write: its JSON body and status, `created` False when
    it is the earlier answer replayed."""

    body: Any
    status_code: int
    created: bool = True


def event_write_once(
    *, event: Event, what: str, key: str | None, request: Any, write: Callable[[], Any]
) -> Answer:
    """Run `write` (it returns the answer's body) once per Idempotency-Key, in one
    transaction with the event's row locked first, so two retries wait for each other:
    the scope is the event's `what` ("turns", "matches"), `request` the content the key
    stands for. A retry gets the first answer (201, created False) and writes nothing;
    the key with another content is refused (IdempotencyMismatch)."""
    fingerprint = request_fingerprint(request)
    scope = f"event:{event.pk}:{what}"
    with transaction.atomic():
        # The event row first, as its writes lock it: two retries wait for each other.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        earlier = replayed(
            scope,
            key,
            fingerprint,
            _("This Idempotency-Key was already used for a different request."),
        )
        if earlier is not None:
            return Answer(*earlier, created=False)
        body = write()
        keep_answer(scope, key, fingerprint, body)
    return Answer(body, 201)
