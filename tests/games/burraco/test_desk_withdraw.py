"""Withdrawing a pair at the desk (issue 31, desk item 7): never one stray click. The
desk asks for a confirmation, and a withdrawal is undone while no later turn was seated."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import tournaments
from games.core.errors import EntryError
from tests.factories import make_organiser
from tests.games.burraco.builders import pair, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk():
    event = tournament(5)
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    return event, client


def _change(event, number: int) -> str:
    return reverse("burraco-pair-change", args=[event.club.slug, event.pk, pair(event, number).pk])


def _row(client: Client, event, number: int) -> str:
    page = client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    row = re.search(rf'<tr id="pair-{number}".*?</tr>', page, re.S)
    assert row is not None
    return row.group(0)


def test_withdraw_asks_for_a_confirmation(desk) -> None:
    event, client = desk
    row = _row(client, event, 4)
    assert "<details" in row and 'name="confirm"' in row
    one_click = client.post(_change(event, 4), {"action": "withdraw"}, follow=True)
    assert "Confirm the withdrawal" in one_click.content.decode()
    assert pair(event, 4).active
    confirmed = client.post(_change(event, 4), {"action": "withdraw", "confirm": "1"}, follow=True)
    assert "withdrawn" in confirmed.content.decode()
    assert not pair(event, 4).active


def test_a_withdrawal_is_undone_until_the_next_turn_is_seated(desk) -> None:
    event, client = desk
    client.post(_change(event, 4), {"action": "withdraw", "confirm": "1"})
    assert 'value="reinstate"' in _row(client, event, 4)
    back = client.post(_change(event, 4), {"action": "reinstate"}, follow=True)
    assert "back in the tournament" in back.content.decode()
    entry = pair(event, 4)
    assert entry.active and entry.withdrawn_after is None


def test_no_undo_once_a_turn_was_seated_without_the_pair(desk) -> None:
    event, client = desk
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    client.post(_change(event, 4), {"action": "withdraw", "confirm": "1"})
    tournaments.turn_seat(event=event, movement="danese")
    assert 'value="reinstate"' not in _row(client, event, 4)
    with pytest.raises(EntryError) as refused:
        tournaments.pair_reinstate(pair=pair(event, 4))
    assert refused.value.code == "withdrawn_for_good"
    assert not pair(event, 4).active
