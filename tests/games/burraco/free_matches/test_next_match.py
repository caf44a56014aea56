"""Who a free-match table offers for its next match, and who the desk offers for a new
table: the pairs waiting, not the ones that just played (they play again only if chosen)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import tournaments
from games.models import Table
from tests.factories import make_organiser
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    pair,
    play_match,
    start,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _selected(page: str, select_id: str) -> str | None:
    select = re.search(rf'<select[^>]*id="{select_id}".*?</select>', page, re.S)
    assert select is not None, select_id
    chosen = re.search(r'<option value="(\d+)"[^>]*selected', select.group(0))
    return chosen.group(1) if chosen else None


def _evening_with_a_won_match(pairs: int):
    event = free_evening(pairs)
    for entered in event.pairs.all():
        tournaments.pair_checkin(pair=entered)
    game = start(event, 1, 1, 2)
    start(event, 2, 3, 4)  # still playing
    play_match(game, MATCH_TO_2005)
    phone = Client()
    phone.post(reverse("burraco-card-line", args=[game.table.key]), {"line": "NS"})
    return event, game, phone


def test_a_won_table_offers_the_pairs_waiting_first_and_the_same_pairs_as_a_choice() -> None:
    event, game, phone = _evening_with_a_won_match(6)
    page = phone.get(reverse("burraco-card", args=[game.table.key])).content.decode()
    # Pairs 5 and 6 wait: they are the default; 1 and 2 play again only if asked.
    assert _selected(page, "sit-ns") == "5" and _selected(page, "sit-ew") == "6"
    same = re.search(r'<form[^>]*id="rematch".*?</form>', page, re.S)
    assert same is not None and 'class="secondary"' in same.group(0)
    sat = phone.post(reverse("burraco-card-rematch", args=[game.table.key]), {"ns": 5, "ew": 6})
    table = Table.objects.get(round__event=event, number=1, ns_pair__number=5)
    assert sat["Location"] == reverse("burraco-card", args=[table.key])
    assert table.ew_pair.number == 6


def test_with_nobody_waiting_the_same_pairs_are_what_the_table_offers() -> None:
    _event, game, phone = _evening_with_a_won_match(4)
    page = phone.get(reverse("burraco-card", args=[game.table.key])).content.decode()
    assert 'id="sit-down"' not in page  # it would offer the same two pairs again
    same = re.search(r'<form[^>]*id="rematch".*?</form>', page, re.S)
    assert same is not None and 'class="secondary"' not in same.group(0)


def test_the_desk_proposes_two_free_pairs_at_a_free_table() -> None:
    event = free_evening(5)
    start(event, 1, 1, 2)
    referee = Client()
    referee.force_login(make_organiser(event.club, "referee"))
    page = referee.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    assert _selected(page, "id_ns") == str(pair(event, 3).pk)
    assert _selected(page, "id_ew") == str(pair(event, 4).pk)
    assert 'name="table" value="2"' in page


def test_the_desk_proposes_the_pairs_waiting_before_those_that_just_played() -> None:
    event, _game, _phone = _evening_with_a_won_match(6)  # 1 v 2 won, 3 v 4 playing
    referee = Client()
    referee.force_login(make_organiser(event.club, "referee"))
    page = referee.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    assert _selected(page, "id_ns") == str(pair(event, 5).pk)
    assert _selected(page, "id_ew") == str(pair(event, 6).pk)
    assert 'name="table" value="1"' in page  # table 1 is free again
