"""The desk of an evening of free matches: its entries table is the tournament desk's
(one include), each entry offers the actions that change something for it, and a
closed evening is read-only, on the page and at the server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import tournaments
from games.core import closing
from games.models import Table
from tests.factories import make_organiser
from tests.games.burraco.builders import tournament
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    pair,
    play_match,
    start,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _referee(event) -> Client:
    client = Client()
    client.force_login(make_organiser(event.club, "referee"))
    return client


def _desk(client: Client, event) -> str:
    return client.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()


def _actions(page: str, number: int) -> list[str]:
    """The action buttons of entry `number` in the desk's entries table."""
    row = re.search(rf'<tr id="pair-{number}".*?</tr>', page, re.S)
    assert row is not None
    return re.findall(r'name="action" value="(\w+)"', row.group(0))


def test_each_pair_is_offered_only_the_check_in_or_out_that_changes_it() -> None:
    event = free_evening(4)
    tournaments.pair_checkin(pair=pair(event, 1))
    page = _desk(_referee(event), event)
    assert _actions(page, 1) == ["checkout", "withdraw"]
    assert _actions(page, 2) == ["checkin", "withdraw"]


def test_check_in_stays_offered_once_matches_are_played() -> None:
    # A pair sits down from a table's card only once checked in: at an evening of free
    # matches check-in counts all evening, not before a first turn only.
    event = free_evening(4)
    tournaments.pair_checkin(pair=pair(event, 1))
    tournaments.pair_checkin(pair=pair(event, 2))
    start(event, 1, 1, 2)
    page = _desk(_referee(event), event)
    assert _actions(page, 1) == ["checkout", "withdraw"]
    assert _actions(page, 3) == ["checkin", "withdraw"]


def test_a_tournament_offers_check_in_before_its_first_turn_only() -> None:
    event = tournament(4)
    client = _referee(event)
    assert _actions(_desk(client, event), 1) == ["checkin", "withdraw"]
    tournaments.pair_checkin(pair=event.pairs.get(number=1))
    assert _actions(_desk(client, event), 1) == ["checkout", "withdraw"]


def test_both_desks_render_the_entries_from_one_include() -> None:
    templates = Path(__file__).resolve().parents[4] / "templates" / "games" / "burraco"
    for name in ("desk.html", "free_desk.html"):
        text = (templates / name).read_text()
        assert 'include "games/burraco/_entries.html"' in text
        assert 'id="pairs"' not in text


def _closed_evening():
    event = free_evening(4)
    for number in (1, 2, 3, 4):
        tournaments.pair_checkin(pair=pair(event, number))
    game = start(event, 1, 1, 2)
    play_match(game, MATCH_TO_2005)
    closing.event_close(event=event, unfinished="exclude")
    return event, game


def test_a_closed_evening_desk_offers_nothing_that_changes_it() -> None:
    event, game = _closed_evening()
    page = _desk(_referee(event), event)
    for offered in (
        'id="match-form"',
        'id="free-cards"',
        'id="pair-form"',
        'id="close-form"',
        'name="action"',
        reverse("table-cards", args=[event.club.slug, event.pk, 1]),
        reverse("burraco-score-cards", args=[event.club.slug, event.pk, 1]),
    ):
        assert offered not in page
    # What it shows stays: the match, its score card and the referee's corrections.
    assert f'id="desk-match-{game.pk}"' in page and "2105 – 1320" in page
    assert reverse("burraco-card-correct", args=[event.club.slug, event.pk, game.pk]) in page


def test_the_server_refuses_to_change_a_closed_evening_and_says_why() -> None:
    event, _game = _closed_evening()
    client = _referee(event)
    said = "This evening is closed: nothing in it can be changed any more."
    started = client.post(
        reverse("burraco-match-start", args=[event.club.slug, event.pk]),
        {"table": "2", "ns": pair(event, 3).pk, "ew": pair(event, 4).pk},
        follow=True,
    )
    assert said in started.content.decode()
    assert not Table.objects.filter(round__event=event, number=2).exists()
    out = client.post(
        reverse("burraco-pair-change", args=[event.club.slug, event.pk, pair(event, 3).pk]),
        {"action": "checkout"},
        follow=True,
    )
    assert said in out.content.decode() and pair(event, 3).checked_in
    gone = client.post(
        reverse("burraco-pair-change", args=[event.club.slug, event.pk, pair(event, 4).pk]),
        {"action": "withdraw"},
        follow=True,
    )
    assert said in gone.content.decode() and pair(event, 4).active
