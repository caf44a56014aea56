"""What the score card's offline queue gets from the server (games/burraco/table_views.py
with games/core/offline.py): a queued hand stored once per Idempotency-Key, a refusal in
JSON that says why and what is stored, and the plan that lets the phone go on offline."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.burraco.scorecards import hand_submit
from games.models import BurracoHand, Round
from scoring.engine.burraco.hand import DECK_COUNTS
from tests.games.burraco.phones import phone

pytestmark = pytest.mark.django_db


def queued(client, table, number: int, key: str, **fields: str):
    """A hand as static/offline_queue.js sends it: the form's fields, the phone's key."""
    return client.post(
        reverse("burraco-card-hand", args=[table.key]),
        {"mode": "mp", "number": str(number), "entry_key": "the-form-of-hand-1", **fields},
        headers={"Accept": "application/json", "Idempotency-Key": key},
    )


def mp(ns: int, ew: int) -> dict[str, str]:
    return {"NS-mp": str(ns), "EW-mp": str(ew)}


def stored(table) -> list[tuple[int, int, int]]:
    return list(
        BurracoHand.objects.filter(game=table.game)
        .order_by("number")
        .values_list("number", "ns_mp", "ew_mp")
    )


def test_a_queued_hand_is_stored_once_whatever_the_resends(seated):
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    first = queued(ns, table, 1, "phone-key-1", **mp(300, 100))
    assert first.status_code == 201
    assert first.json() == {"ok": True, "number": 1, "created": True}
    again = queued(ns, table, 1, "phone-key-1", **mp(300, 100))
    assert again.status_code == 200
    assert again.json() == {"ok": True, "number": 1, "created": False}
    assert stored(table) == [(1, 300, 100)]


def test_hands_queued_offline_share_their_form_but_not_their_keys(seated):
    """The phone moved its form on offline: every queued hand carries the same form key
    (the one the page was given), each its own Idempotency-Key, which is the one used."""
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    assert queued(ns, table, 1, "k1", **mp(300, 100)).status_code == 201
    assert queued(ns, table, 2, "k2", **mp(-50, 415)).status_code == 201
    assert queued(ns, table, 3, "k3", **mp(120, 80)).status_code == 201
    assert stored(table) == [(1, 300, 100), (2, -50, 415), (3, 120, 80)]


def test_a_key_sent_again_with_another_hand_is_refused(seated):
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    assert queued(ns, table, 1, "k1", **mp(300, 100)).status_code == 201
    answer = queued(ns, table, 2, "k1", **mp(200, 100))
    assert answer.status_code == 422
    assert answer.json()["code"] == "idempotency_key_reused"
    assert stored(table) == [(1, 300, 100)]


def test_another_phones_hand_comes_back_with_the_stored_version(seated):
    _event, _rnd, table = seated
    hand_submit(game_id=table.game.pk, hand={"mp": {"NS": 400, "EW": 200}}, line="NS")
    answer = queued(phone(table, "NS"), table, 1, "k1", **mp(300, 100))
    assert answer.status_code == 409
    body = answer.json()
    assert body["ok"] is False and body["code"] == "hand_conflict"
    assert body["messages"] == ["Hand 1 is already entered: 400–200."]
    assert body["stored"] == "NS 400 – EW 200"
    assert stored(table) == [(1, 400, 200)]


def test_the_rules_the_full_card_and_the_closed_turn_refuse_in_json(seated):
    _event, rnd, table = seated
    ns = phone(table, "NS")
    odd = queued(ns, table, 1, "k1", **mp(303, 100))
    assert odd.status_code == 400
    assert odd.json()["code"] == "hand_rejected"
    assert odd.json()["messages"] == ["NS: 303 is not a multiple of 5, as every Burraco score is."]
    for number in (1, 2, 3):  # three hands a turn
        assert queued(ns, table, number, f"h{number}", **mp(100, 50)).status_code == 201
    full = queued(ns, table, 4, "h4", **mp(100, 50))
    assert full.status_code == 409
    assert full.json()["code"] == "card_full"
    assert full.json()["messages"] == ["All 3 hands of this turn are in."]
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    closed = queued(ns, table, 4, "h5", **mp(100, 50))
    assert closed.json() == {
        "ok": False,
        "code": "turn_closed",
        "messages": ["Turn 1 is over: only the referee can change its score cards."],
    }
    assert len(stored(table)) == 3


def test_a_phone_that_has_not_said_its_line_is_refused_in_json(seated):
    _event, _rnd, table = seated
    answer = queued(phone(table), table, 1, "k1", **mp(300, 100))
    assert answer.status_code == 400
    assert answer.json() == {
        "ok": False,
        "code": "choose_line",
        "messages": ["Say first which line you are."],
    }
    assert stored(table) == []


def test_a_form_post_is_answered_as_before(seated):
    _event, _rnd, table = seated
    answer = phone(table, "NS").post(
        reverse("burraco-card-hand", args=[table.key]),
        {"mode": "mp", "number": "1", "entry_key": "k", **mp(300, 100)},
    )
    assert answer.status_code == 302


def _plan(client, table) -> dict | None:
    html = client.get(reverse("burraco-card", args=[table.key])).content.decode()
    found = re.search(r'<script id="offline-plan" type="application/json">(.*?)</script>', html)
    return json.loads(found.group(1)) if found else None


def test_the_page_holds_the_plan_for_the_rest_of_the_turn(seated):
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    assert queued(ns, table, 1, "k1", **mp(300, 100)).status_code == 201
    plan = _plan(ns, table)
    assert (plan["next"], plan["last"]) == (2, 3)
    assert plan["totals"] == {"NS": 300, "EW": 100}
    assert plan["deck"] == DECK_COUNTS  # the engine's own figures
    assert plan["texts"]["heading"] == "Hand %(number)s"
    assert "%(count)s" in plan["texts"]["deck"] and "%(limit)s" in plan["texts"]["deck"]
    # The other line confirms: its phone has no form, hence no plan.
    assert _plan(phone(table, "EW"), table) is None


def test_the_plan_speaks_the_pages_language(seated):
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    html = ns.get("/it" + reverse("burraco-card", args=[table.key])).content.decode()
    plan = json.loads(
        re.search(r'<script id="offline-plan" type="application/json">(.*?)</script>', html)[1]
    )
    assert plan["texts"]["heading"] == "Smazzata %(number)s"
    assert plan["kinds"]["jokers"] != "jokers"


def test_the_card_installs_as_its_own_page(client, seated):
    _event, _rnd, table = seated
    page = phone(table, "NS").get(reverse("burraco-card", args=[table.key])).content.decode()
    assert f'rel="manifest" href="/offline/manifest/card/{table.key}.webmanifest"' in page
    assert 'data-scope="burraco:' in page and 'src="/offline/texts/' in page
    manifest = client.get(f"/offline/manifest/card/{table.key}.webmanifest").json()
    assert manifest["start_url"] == manifest["id"] == f"/t/{table.key}/card/"
