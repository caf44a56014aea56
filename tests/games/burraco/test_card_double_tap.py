"""A hand is stored once (issue 31, item 1): the score card's form names the hand it
enters and carries a key of its own, so a double tap on a slow link, or a second phone of
the same line still showing the hand just entered, never stores it again as the next hand."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import BurracoHand
from tests.games.burraco.phones import hand_form, phone

pytestmark = pytest.mark.django_db


def _hand(table, **fields: str) -> tuple[str, dict[str, str]]:
    return reverse("burraco-card-hand", args=[table.key]), {"mode": "mp", **fields}


def test_the_form_names_its_hand_and_carries_a_key_of_its_own(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    first = hand_form(ns, table)
    assert first["number"] == "1"
    assert len(first["entry_key"]) >= 20
    # Each form shown has its own key.
    assert hand_form(ns, table)["entry_key"] != first["entry_key"]


def test_a_double_tap_stores_the_hand_once(seated) -> None:
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    url, form = _hand(table, **{"NS-mp": "300", "EW-mp": "100"}, **hand_form(ns, table))
    assert ns.post(url, form).status_code == 302
    again = ns.post(url, form, follow=True)
    assert again.status_code == 200
    assert list(BurracoHand.objects.filter(game=table.game).values_list("number", flat=True)) == [1]
    assert "Hand 2" in again.content.decode()  # the card goes on with the next hand


def test_a_double_tap_with_other_points_typed_meanwhile_is_not_a_new_hand(seated) -> None:
    """The same form sent again (same key, same hand number) with other points: the first
    is kept, the second refused, nothing new stored."""
    _event, _rnd, table = seated
    ns = phone(table, "NS")
    hidden = hand_form(ns, table)
    url, form = _hand(table, **{"NS-mp": "300", "EW-mp": "100"}, **hidden)
    ns.post(url, form)
    refused = ns.post(url, {**form, "NS-mp": "305"})
    assert refused.status_code in (409, 422)
    assert BurracoHand.objects.filter(game=table.game).count() == 1


def test_a_second_phone_of_the_same_line_sending_the_same_hand_stores_nothing(seated) -> None:
    _event, _rnd, table = seated
    first, second = phone(table, "NS"), phone(table, "NS")
    stale = hand_form(second, table)  # the second phone shows hand 1 too
    url, form = _hand(table, **{"NS-mp": "300", "EW-mp": "100"})
    assert first.post(url, {**form, **hand_form(first, table)}).status_code == 302
    answer = second.post(url, {**form, **stale}, follow=True)
    assert answer.status_code == 200
    assert BurracoHand.objects.filter(game=table.game).count() == 1
    assert "Hand 1 is already entered: 300–100" in answer.content.decode()


def test_a_stale_phone_of_the_same_line_with_other_points_is_told_and_shown_the_card(
    seated,
) -> None:
    _event, _rnd, table = seated
    first, second = phone(table, "NS"), phone(table, "NS")
    stale = hand_form(second, table)
    url, form = _hand(table, **{"NS-mp": "400", "EW-mp": "200"})
    first.post(url, {**form, **hand_form(first, table)})
    answer = second.post(url, {**form, **stale, "NS-mp": "100", "EW-mp": "300"})
    assert answer.status_code == 409
    page = answer.content.decode()
    assert "Hand 1 is already entered: 400–200" in page
    assert 'id="hand-1"' in page  # the card as it stands
    assert "Hand 2" in page  # and the form of the next hand
    assert list(BurracoHand.objects.filter(game=table.game).values_list("ns_mp", flat=True)) == [
        400
    ]


def test_the_save_button_says_it_is_busy_while_saving(seated) -> None:
    """The page's script (static/burraco_card.js) disables a form's buttons once it is
    sent; the button carries the words it shows meanwhile."""
    _event, _rnd, table = seated
    page = phone(table, "NS").get(reverse("burraco-card", args=[table.key])).content.decode()
    assert 'id="save-hand" data-busy="Saving…"' in page
