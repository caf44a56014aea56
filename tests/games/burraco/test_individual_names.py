"""An individual tournament's public page names its players, as a pair tournament's pages
name the pairs: each table's lines and the byes say each player's number and name (the
number is what the ranking and the table cards show), and on a phone the ranking card
says what its VP figure is."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import PairTurnResult, Table
from tests.games.burraco.builders import played_individual

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _page(event) -> str:
    return Client().get(reverse("scoring:event", args=[event.pk])).content.decode()


def test_the_turns_name_each_player_with_their_number() -> None:
    event = played_individual(9)
    page = _page(event)
    for table in Table.objects.filter(round__event=event).select_related(
        "ns_pair__player_a", "ns_partner__player_a", "ew_pair__player_a", "ew_partner__player_a"
    ):
        ns = " – ".join(f"{e.number}. {e.names}" for e in table.side("NS"))
        ew = " – ".join(f"{e.number}. {e.names}" for e in table.side("EW"))
        assert f"Table {table.number}: {ns} v {ew}" in page
    bye = PairTurnResult.objects.get(round__event=event, bye=True).pair
    assert f"Bye: player {bye.number}. {bye.names}" in page


def test_the_phone_ranking_card_labels_the_vp() -> None:
    page = _page(played_individual(9))
    cells = re.findall(r'<td class="num lead points"[^>]*>', page)
    assert cells and all('data-label="VP"' in cell for cell in cells)
