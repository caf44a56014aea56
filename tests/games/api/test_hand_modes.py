"""A Burraco hand is either each line's MP or what each line counted, never both: the
counts are not dropped silently (issue 32, point 4)."""

from __future__ import annotations

import pytest

from games.models import BurracoHand
from tests.games.api.world import burraco_side

pytestmark = pytest.mark.django_db

COUNTS = {
    "closed": "NS",
    "NS": {"melded": 560, "in_hand": 25, "clean": 1, "dirty": 1, "pozzetto": True},
    "EW": {"melded": {"aces": 5, "high": 14, "low": 18}, "in_hand": 85},
}


def test_a_hand_with_both_mp_and_counts_is_refused_saying_why() -> None:
    side = burraco_side()
    answer = side.client("table_key").post(
        side.path, {"line": "NS", "mp": {"NS": 935, "EW": 120}, **COUNTS}, format="json"
    )
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["code"] == "hand_rejected"
    assert [p["code"] for p in body["errors"]] == ["mp_with_counts"]
    assert body["errors"][0]["field"] == "mp"
    assert "either" in body["message"].lower()
    assert BurracoHand.objects.filter(game=side.game).count() == 1


@pytest.mark.parametrize("extra", [{"closed": "NS"}, {"NS": COUNTS["NS"]}, {"EW": {}}])
def test_any_count_beside_mp_is_refused(extra) -> None:
    side = burraco_side()
    answer = side.client("table_key").post(
        side.path, {"line": "NS", "mp": {"NS": 935, "EW": 120}, **extra}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "mp_with_counts"


def test_the_referee_correction_refuses_the_mix_too() -> None:
    side = burraco_side()
    client = side.client("organiser")
    card = f"/api/v1/games/{side.game.pk}/card/"
    tag = client.get(card)["ETag"]
    answer = client.put(
        card,
        {"hands": [{"mp": {"NS": 300, "EW": 100}, **COUNTS}], "reason": "typo"},
        format="json",
        HTTP_IF_MATCH=tag,
    )
    assert answer.status_code == 400, answer.json()
    assert answer.json()["errors"][0]["code"] == "mp_with_counts"


def test_mp_alone_and_counts_alone_are_still_stored() -> None:
    side = burraco_side()
    client = side.client("table_key")
    assert (
        client.post(
            side.path, {"line": "NS", "mp": {"NS": 100, "EW": 50}}, format="json"
        ).status_code
        == 201
    )
    assert client.post(side.path, {"line": "NS", **COUNTS}, format="json").status_code == 201
