"""A table key in a URL or a header is looked up only when it could be one: a NUL (which
PostgreSQL refuses in a string) is the 404 page, not a 500 (issue 32, point 5); a free
match table card's key works only as printed, any other spelling is a 404 (point 6)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.burraco import free_tables
from games.core.table_pages import table_by_key
from tests.games.api.world import GAMES, barbu_side, burraco_side
from tests.games.burraco.free_matches.builders import free_evening

pytestmark = pytest.mark.django_db

BAD_KEYS = ["%00", "a%00b", "%C2%85", "%EF%BF%BF", "x" * 41]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", BAD_KEYS)
def test_a_key_that_cannot_be_one_is_the_404_page(client, game: str, bad: str) -> None:
    side = barbu_side() if game == "barbu" else burraco_side()
    if game == "barbu":
        pages = [("get", ""), ("get", "state/"), ("post", "deal/")]
    else:
        pages = [("get", ""), ("get", "card/"), ("post", "card/hand/")]
    for method, page in pages:
        answer = getattr(client, method)(f"/t/{bad}/{page}")
        assert answer.status_code == 404, (method, page, answer.status_code)
    assert table_by_key(side.table.key) == side.table  # the real key still opens it


@pytest.mark.parametrize("game", GAMES)
def test_a_table_key_header_with_a_nul_is_refused_not_a_500(game: str) -> None:
    side = barbu_side() if game == "barbu" else burraco_side()
    client = side.client()
    client.credentials(HTTP_X_TABLE_KEY=side.table.key + "\x00")
    answer = client.post(side.path, side.next, format="json")
    assert answer.status_code == 401, answer.content[:300]
    assert answer.json()["code"] in ("authentication_failed", "not_authenticated")


def _variants(key: str) -> list[str]:
    event_id, number, mac = key.split("-")
    arabic = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
    return [
        f"0{event_id}-{number}-{mac}",
        f"{event_id}-0{number}-{mac}",
        f"{event_id.translate(arabic)}-{number}-{mac}",
        f"{event_id}-{number.translate(arabic)}-{mac}",
        f"{event_id}-{number}-{mac.upper()}",
        f"+{event_id}-{number}-{mac}",
        f" {event_id}-{number}-{mac}",
    ]


def test_a_free_match_card_key_works_only_as_printed(client) -> None:
    event = free_evening(4)
    key = free_tables.seat_key(event.pk, 2)
    assert free_tables.seat_table(key) is not None
    assert client.get(reverse("burraco-free-sit", args=[key])).status_code == 200
    for edited in _variants(key):
        assert free_tables.seat_table(edited) is None, edited
        answer = client.get(reverse("burraco-free-sit", args=[edited]))
        assert answer.status_code == 404, edited
