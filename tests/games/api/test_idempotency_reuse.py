"""An Idempotency-Key stands for its first request whatever that request was answered:
a key first used on a deal or hand already stored (200) is kept too (issue 32, point 3)."""

from __future__ import annotations

import pytest

from tests.games.api.world import Side

pytestmark = pytest.mark.django_db


def _stored(side: Side) -> int:
    return side.game.deals.count() if side.kind == "barbu" else side.game.hands.count()


def test_a_key_first_answered_200_is_kept_for_that_request(side: Side) -> None:
    client = side.client("table_key")
    resent = client.post(side.path, side.first, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert resent.status_code == 200, resent.json()
    count = _stored(side)

    reused = client.post(side.path, side.next, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 422, reused.json()
    assert reused.json()["code"] == "idempotency_key_reused"
    assert _stored(side) == count

    again = client.post(side.path, side.first, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and again.content == resent.content


def test_the_next_entry_with_a_new_key_is_stored_once(side: Side) -> None:
    client = side.client("table_key")
    first = client.post(side.path, side.next, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert first.status_code == 201, first.json()
    again = client.post(side.path, side.next, format="json", HTTP_IDEMPOTENCY_KEY="k-2")
    assert again.status_code == 201 and again.content == first.content
