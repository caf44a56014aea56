"""What the table page's offline queue gets from the server (games/barbu/table_views.py
with games/core/offline.py): a queued deal stored once per Idempotency-Key, a refusal in
JSON that says why and what is stored, and the plan that moves the form on offline."""

from __future__ import annotations

import json
import re

import pytest

from games.barbu.submission import deal_submit
from games.models import Deal, Round
from tests.games.barbu.deal_forms import form_data
from tests.games.barbu.table.pages import HEARTS_DEAL, entry_url

pytestmark = pytest.mark.django_db

BARBU = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Dario"}}


def queued(client, game, deal: dict, number: int, key: str):
    """A deal as static/offline_queue.js sends it."""
    return client.post(
        entry_url(game, "table-deal"),
        form_data(deal, game.player_names, number),
        headers={"Accept": "application/json", "Idempotency-Key": key},
    )


def test_a_queued_deal_is_stored_once_whatever_the_resends(client, game):
    first = queued(client, game, BARBU, 1, "phone-key-1")
    assert first.status_code == 201
    assert first.json() == {"ok": True, "number": 1, "created": True}
    again = queued(client, game, BARBU, 1, "phone-key-1")
    assert again.status_code == 200
    assert again.json() == {"ok": True, "number": 1, "created": False}
    assert Deal.objects.filter(game=game).count() == 1


def test_a_key_sent_again_with_another_deal_is_refused(client, game):
    assert queued(client, game, BARBU, 1, "phone-key-1").status_code == 201
    answer = queued(client, game, HEARTS_DEAL, 2, "phone-key-1")
    assert answer.status_code == 422
    assert answer.json()["code"] == "idempotency_key_reused"
    assert Deal.objects.filter(game=game).count() == 1


def test_another_phones_deal_comes_back_with_the_stored_version(client, game):
    deal_submit(game_id=game.pk, deal={**HEARTS_DEAL, "number": 1}, by_label="Table 1")
    answer = queued(client, game, BARBU, 1, "phone-key-1")
    assert answer.status_code == 409
    body = answer.json()
    assert body["ok"] is False and body["code"] == "deal_conflict"
    assert body["messages"][0].startswith("Deal 1 was already entered from another phone: Hearts")
    assert body["stored"].startswith("Hearts, dealer Anna: ")
    assert Deal.objects.get(game=game).contract == "hearts"


def test_the_rules_refusal_and_the_closed_round_in_json(client, game):
    assert queued(client, game, BARBU, 1, "k1").status_code == 201
    # Barbu again for the same dealer: the rules refuse it.
    again = {**BARBU, "result": {"king_of_hearts": "Bruno"}}
    twice = queued(client, game, again, 2, "k2")
    assert twice.status_code == 400
    assert twice.json()["code"] == "deal_rejected"
    assert twice.json()["messages"]
    Round.objects.filter(pk=game.table.round_id).update(status=Round.Status.CLOSED)
    closed = queued(client, game, HEARTS_DEAL, 2, "k3")
    assert closed.status_code == 409
    assert closed.json() == {
        "ok": False,
        "code": "round_closed",
        "messages": ["Round 1 is closed: no more deals can be entered."],
    }
    assert Deal.objects.filter(game=game).count() == 1


def test_a_form_post_is_answered_as_before(client, game):
    answer = client.post(entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1))
    assert answer.status_code == 302


def test_the_page_holds_the_plan_for_the_rest_of_the_game(client, game):
    deal_submit(game_id=game.pk, deal={**HEARTS_DEAL, "number": 1}, by_label="Table 1")
    html = client.get(entry_url(game)).content.decode()
    found = re.search(r'<script id="offline-plan" type="application/json">(.*?)</script>', html)
    plan = json.loads(found.group(1))
    # Italian 7: 28 deals, seven by each seat in turn; deal 1 is stored.
    assert plan["first"] == 2
    assert plan["dealers"] == [0] * 6 + [1] * 7 + [2] * 7 + [3] * 7
    # Italian 7: in the positive contracts only the dealer may be doubled.
    assert plan["allowed"]["1"]["domino"] == ["0-1", "2-1", "3-1"]
    assert plan["played"] == [[0, "hearts"]]
    # Every player's row, each doubling the three others: the dealer's "allowed" picks.
    assert plan["doublers"].count('class="doubler"') == 4
    assert plan["doublers"].count('name="double"') == 12
    assert plan["texts"]["heading"] == "Deal %(number)s · dealer %(dealer)s"
