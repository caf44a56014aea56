"""The confirming pair reads how each hand counted from the cards was made (issue 31, item
4): who closed, the burracos, the pozzetto taken or not, the cards melded and in hand, and
the engine's parts of the score, under the hand's row; a hand entered as MP shows its MP
only. The card page reads the same number of queries whatever its number of hands."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import BurracoHand
from scoring.engine import burraco
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db

MP = {"mode": "mp", "NS-mp": "300", "EW-mp": "100"}
CARDS = {
    "mode": "cards",
    "closed": "NS",
    "NS-melded-aces": "4",
    "NS-melded-high": "10",
    "NS-melded-low": "10",
    "NS-clean": "1",
    "NS-dirty": "1",
    "NS-melded-jokers": "1",
    "NS-in_hand": "0",
    "NS-pozzetto": "on",
    "EW-melded-high": "7",
    "EW-in_hand": "40",
}


def _page(client, table) -> str:
    return client.get(reverse("burraco-card", args=[table.key])).content.decode()


def _engine_score(table) -> dict:
    ns = {
        "melded": {"jokers": 1, "twos": 0, "aces": 4, "high": 10, "low": 10},
        "in_hand": 0,
        "pozzetto": True,
        "clean": 1,
        "dirty": 1,
    }
    ew = {
        "melded": {"jokers": 0, "twos": 0, "aces": 0, "high": 7, "low": 0},
        "in_hand": 40,
        "pozzetto": False,
    }
    calculation = burraco.calculate_hand("NS", ns, ew, table.game.ruleset, 1)
    assert calculation.ok, calculation.problems
    return calculation.score


def test_the_confirming_phone_sees_how_a_counted_hand_was_made(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    url = reverse("burraco-card-hand", args=[table.key])
    assert ns.post(url, {**CARDS, "number": "1"}).status_code == 302
    score = _engine_score(table)
    stored = BurracoHand.objects.get(game=table.game)
    assert (stored.ns_mp, stored.ew_mp) == (score["NS"]["score"], score["EW"]["score"])
    page = _page(ew, table)
    parts = page[page.index('id="hand-1-parts"') :]
    parts = parts[: parts.index("</tr>")]
    ns_part, ew_part = parts.split("<li>")[1:3]
    assert f"NS {score['NS']['score']}" in ns_part
    for fact in (
        "closed",
        "melded: 1 × jokers, 4 × aces, 10 × K to 8, 10 × 7 to 3",
        "1 clean burraco",
        "1 dirty burraco",
        "pozzetto taken",
        "no card in hand",
    ):
        assert fact in ns_part, (fact, ns_part)
    parts_ns = score["NS"]
    assert (
        f"Cards {parts_ns['cards']}, bonus {parts_ns['bonus']}, pozzetto {parts_ns['pozzetto']}"
        in ns_part
    )
    for fact in ("melded: 7 × K to 8", "no burraco", "pozzetto not taken", "in hand: 40 points"):
        assert fact in ew_part, (fact, ew_part)
    assert "closed" not in ew_part
    assert f"pozzetto {score['EW']['pozzetto']}" in ew_part


def test_a_hand_entered_as_mp_has_no_breakdown(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    ns.post(reverse("burraco-card-hand", args=[table.key]), {**MP, "number": "1"})
    page = _page(ew, table)
    assert 'id="hand-1"' in page
    assert 'id="hand-1-parts"' not in page


def test_a_hand_counted_through_the_api_as_cards_in_hand_by_kind(seated) -> None:
    from rest_framework.test import APIClient

    _event, _rnd, table = seated
    key = APIClient()
    key.credentials(HTTP_X_TABLE_KEY=table.key)
    body = {
        "number": 1,
        "line": "NS",
        "closed": "NS",
        "NS": {"melded": 500, "in_hand": 0, "clean": 1, "pozzetto": True},
        "EW": {"melded": 100, "in_hand": {"jokers": 1, "aces": 2}, "pozzetto": True},
    }
    answer = key.post(f"/api/v1/games/{table.game.pk}/hands/", body, format="json")
    assert answer.status_code == 201, answer.json()
    page = _page(phone(table, "EW"), table)
    assert "melded: 500 points" in page
    assert "in hand: 1 × jokers, 2 × aces" in page


def test_the_card_page_reads_as_many_queries_for_one_hand_as_for_three(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = phone(table, "NS"), phone(table, "EW")
    url = reverse("burraco-card-hand", args=[table.key])
    ns.post(url, {**CARDS, "number": "1"})
    _page(ew, table)  # the session's first read out of the way
    with CaptureQueriesContext(connection) as one:
        _page(ew, table)
    ns.post(url, {**MP, "number": "2"})
    ns.post(url, {**CARDS, "number": "3"})
    with CaptureQueriesContext(connection) as three:
        assert 'id="hand-3-parts"' in _page(ew, table)
    assert len(three) == len(one)
