"""The HTTP contract of the deal endpoints, read from a request: the keys a deal may
have, the Idempotency-Key's format (as the schema states it), If-Match (RFC 9110), and
answers written in one key order so that a replay is the first answer byte for byte."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

from games.api.errors import PreconditionRequired

# What the view accepts as an Idempotency-Key, as the schema states it.
IDEMPOTENCY_KEY_PATTERN = r"^[\x20-\x7E]{1,200}$"
# One entity-tag of If-Match: "3" or W/"3" (a bare 3 is taken as "3").
ENTITY_TAG = re.compile(r'\s*(W/)?"([\x21\x23-\x7e]*)"\s*|\s*(\d{1,9})\s*')

# The top-level keys of a deal (docs/rules/format.md), and what each write adds to them.
DEAL_KEYS = frozenset({"dealer", "contract", "trump", "doubles", "result"})
SUBMIT_KEYS = DEAL_KEYS | {"number", "seat"}
CORRECT_KEYS = DEAL_KEYS | {"number", "reason"}


def known_keys(body: dict[str, Any], allowed: frozenset[str]) -> dict[str, Any]:
    """The body, unless it has keys a deal does not have: refused, each named (a typo
    such as "doubels" would otherwise be dropped without a word)."""
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ValidationError({key: [_("A deal has no such field.")] for key in unknown})
    return body


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not re.fullmatch(IDEMPOTENCY_KEY_PATTERN, key):
        raise ValidationError({"Idempotency-Key": [_("Use 1 to 200 printable characters.")]})
    return key


def sorted_keys(value: Any) -> Any:
    """The same JSON value with every object's keys in sorted order."""
    if isinstance(value, dict):
        return {key: sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(item) for item in value]
    return value


def expected_version(request: Request, current: int) -> int | None:
    """The version If-Match asks for: None for "*" (any current version: RFC 9110),
    `current` when one of its entity-tags is the deal's, else the (stale) version it
    names, for the 412. Missing: 428; not a list of entity-tags: 400. A weak tag never
    matches (If-Match compares strongly); a bare number is taken as the tag it quotes."""
    header = request.headers.get("If-Match")
    if header is None:
        raise PreconditionRequired()
    if header.strip() == "*":
        return None
    tags = []
    parts = [part for part in header.split(",") if part.strip()]  # empty elements ignored
    for part in parts or [header]:
        match = ENTITY_TAG.fullmatch(part)
        if not match:
            raise ValidationError(
                {"If-Match": [_('If-Match must be the deal\'s ETag, e.g. "3", or *.')]}
            )
        weak, quoted, bare = match.groups()
        if not weak:
            tags.append(quoted if quoted is not None else bare)
    if str(current) in tags:
        return current
    # Stale: the version the client named (the 412 says it), 0 when it named none.
    return next((int(tag) for tag in tags if tag.isascii() and tag.isdigit()), 0)
