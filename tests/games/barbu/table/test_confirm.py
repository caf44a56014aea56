"""Clubs that want a second seat to accept each deal: pending, accepted, disputed, audited."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Deal, DealRevision
from tests.games.barbu.deal_forms import form_data
from tests.games.barbu.table.pages import entry_url

pytestmark = pytest.mark.django_db

BARBU = {"dealer": "Anna", "contract": "barbu", "result": {"king_of_hearts": "Carla"}}
QUEENS = {
    "dealer": "Anna",
    "contract": "queens",
    "result": {"queens": {"Bruno": ["QS", "QH"], "Dario": ["QD", "QC"]}},
}


@pytest.fixture
def confirming(club):
    club.confirm_deals = True
    club.save()
    return club


def sit(client: Client, game, seat: int) -> None:
    assert client.post(entry_url(game, "table-seat"), {"seat": str(seat)}).status_code == 302


def test_the_page_asks_for_the_seat_first(client, confirming, game):
    html = client.get(entry_url(game)).content.decode()
    assert "Which seat are you?" in html
    assert 'id="entry-form"' not in html
    answer = client.post(entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1))
    assert answer.status_code == 400
    assert "Choose your seat first." in answer.content.decode()
    assert not Deal.objects.exists()
    sit(client, game, 1)
    html = client.get(entry_url(game)).content.decode()
    assert "Table 1, seat 2 (Bruno)" in html
    assert 'id="entry-form"' in html


def test_pending_then_accepted_from_another_seat(client, confirming, game):
    sit(client, game, 0)
    assert (
        client.post(
            entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1)
        ).status_code
        == 302
    )
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.PENDING
    assert deal.entered_from == "Table 1, seat 1 (Anna)"
    html = client.get(entry_url(game)).content.decode()
    assert "Entered from your seat" in html
    assert 'action="' + entry_url(game, "table-confirm", number=1) not in html

    # The same seat cannot accept its own deal, even by posting directly.
    answer = client.post(entry_url(game, "table-confirm", number=1), {"agree": "1"})
    assert answer.status_code == 400
    assert "another seat" in answer.content.decode()
    deal.refresh_from_db()
    assert deal.status == Deal.Status.PENDING

    carla = Client()
    sit(carla, game, 2)
    html = carla.get(entry_url(game)).content.decode()
    assert 'action="' + entry_url(game, "table-confirm", number=1) in html
    assert carla.post(entry_url(game, "table-confirm", number=1), {"agree": "1"}).status_code == 302
    deal.refresh_from_db()
    assert (deal.status, deal.confirmed_from) == ("confirmed", "Table 1, seat 3 (Carla)")
    history = list(DealRevision.objects.values_list("action", "by_label"))
    assert history == [
        ("entered", "Table 1, seat 1 (Anna)"),
        ("confirmed", "Table 1, seat 3 (Carla)"),
    ]
    assert "Deal 1 accepted." in carla.get(entry_url(game)).content.decode()


def test_dispute_marks_the_deal_for_the_organiser(client, confirming, game):
    sit(client, game, 0)
    client.post(entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1))
    client.post(entry_url(game, "table-deal"), form_data(QUEENS, game.player_names, 2))
    dario = Client()
    sit(dario, game, 3)
    assert dario.post(entry_url(game, "table-confirm", number=2), {"agree": "0"}).status_code == 302
    statuses = dict(Deal.objects.values_list("number", "status"))
    assert statuses == {1: "pending", 2: "disputed"}
    html = dario.get(entry_url(game)).content.decode()
    assert "marked as disputed" in html
    assert 'class="disputed" data-deal="2"' in html
    revision = DealRevision.objects.get(action="disputed")
    assert revision.by_label == "Table 1, seat 4 (Dario)"
    # A deal that does not exist is answered clearly, nothing else changes.
    answer = dario.post(entry_url(game, "table-confirm", number=9), {"agree": "1"})
    assert answer.status_code == 404
    assert "Deal 9 does not exist." in answer.content.decode()


def test_confirming_needs_a_seat(client, confirming, game):
    anna = Client()
    sit(anna, game, 0)
    anna.post(entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1))
    answer = client.post(entry_url(game, "table-confirm", number=1), {"agree": "1"})
    assert answer.status_code == 400
    assert "Choose your seat first." in answer.content.decode()
    assert Deal.objects.get().status == Deal.Status.PENDING


def test_the_same_seat_in_another_language_is_still_the_same_seat(client, confirming, game):
    italian = Client()
    assert italian.post("/it" + entry_url(game, "table-seat"), {"seat": "0"}).status_code == 302
    answer = italian.post(
        "/it" + entry_url(game, "table-deal"), form_data(BARBU, game.player_names, 1)
    )
    assert answer.status_code == 302
    assert Deal.objects.get().entered_from == "Table 1, seat 1 (Anna)"
    sit(client, game, 0)
    answer = client.post(entry_url(game, "table-confirm", number=1), {"agree": "1"})
    assert answer.status_code == 400
    assert Deal.objects.get().status == Deal.Status.PENDING
