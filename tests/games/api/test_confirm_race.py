"""Confirm against dispute of one score card: whichever comes second gets the same answer,
a 409 saying how the card was already decided (`params.status`), whichever way the race
went (issue 32, point 8)."""

from __future__ import annotations

import pytest

from games.burraco import scorecards
from tests.games.api.world import burraco_side

pytestmark = pytest.mark.django_db

CONFIRM = {"line": "EW", "agree": True}
DISPUTE = {"line": "EW", "agree": False, "note": "hand 2 went to EW"}


@pytest.mark.parametrize(
    ("first", "second"),
    [(CONFIRM, DISPUTE), (DISPUTE, CONFIRM), (CONFIRM, CONFIRM), (DISPUTE, DISPUTE)],
    ids=["confirm-then-dispute", "dispute-then-confirm", "confirm-twice", "dispute-twice"],
)
def test_the_second_decision_on_a_card_is_a_409(first, second) -> None:
    side = burraco_side()
    for ns, ew in [(150, 250), (400, 0)]:
        scorecards.hand_submit(game_id=side.game.pk, hand={"mp": {"NS": ns, "EW": ew}}, line="NS")
    path = f"/api/v1/games/{side.game.pk}/card/confirm/"
    winner = side.client("table_key").post(path, first, format="json")
    assert winner.status_code == 200, winner.json()
    loser = side.client("table_key").post(path, second, format="json")
    body = loser.json()
    assert loser.status_code == 409, body
    decided = "confirmed" if first["agree"] else "disputed"
    assert body["code"] == ("already_confirmed" if first["agree"] else "card_disputed"), body
    assert body["params"] == {"status": decided}, body
    assert set(body) == {"status", "code", "message", "errors", "params"}
