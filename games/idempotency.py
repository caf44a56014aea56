"""Idempotency-Key: the first answer to a write, kept with a hash of its request and
replayed to a retry with the same key and content (a deal, a Burraco hand, a turn seated).

Call these inside the write's transaction, after the lock that orders its retries."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.errors import IdempotencyMismatch
from games.models import IdempotencyRecord


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
