"""The printed table cards of an evening of free matches: the organiser prints cards
1..N, each with its table's QR code; two pairs of the evening (checked in, not playing)
scan it and sit down at that table, the first match of the evening included, with the
desk's refusals. A card's key acts on its own table of its own evening only."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.burraco import free_tables, tournaments
from games.models import Event, ScoreCard, Table
from tests.factories import make_club, make_organiser
from tests.games.burraco.builders import burraco_club, tournament
from tests.games.burraco.free_matches.builders import (
    MATCH_TO_2005,
    free_evening,
    pair,
    play_match,
    start,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _checked_in(event: Event, *numbers: int) -> None:
    for number in numbers or range(1, event.pairs.count() + 1):
        tournaments.pair_checkin(pair=pair(event, number))


def _sit_url(event: Event, table: int) -> str:
    return reverse("burraco-free-sit", args=[free_tables.seat_key(event.pk, table)])


def test_two_pairs_sit_at_a_table_for_the_first_match_from_its_card() -> None:
    event = free_evening(4)
    _checked_in(event)
    phone = Client()
    page = phone.get(_sit_url(event, 3))
    assert page.status_code == 200
    assert [p.number for p in page.context["pairs"]] == [1, 2, 3, 4]
    assert 'id="sit-down"' in page.content.decode()
    answer = phone.post(_sit_url(event, 3), {"ns": "2", "ew": "4"})
    table = Table.objects.get(round__event=event)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("burraco-card", args=[table.key])
    assert (table.number, table.ns_pair.number, table.ew_pair.number) == (3, 2, 4)
    assert table.game.deals_target == 0
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    # Scanned again during the match: who plays and the way to the score card, no form.
    page = phone.get(_sit_url(event, 3))
    body = page.content.decode()
    assert page.context["playing"] and 'id="sit-down"' not in body
    assert reverse("burraco-card", args=[table.key]) in body
    # The two pairs left are the only ones offered at another table.
    other = phone.get(_sit_url(event, 1))
    assert [p.number for p in other.context["pairs"]] == [1, 3]


def test_after_a_match_is_won_the_card_seats_the_next_one_at_the_same_table() -> None:
    event = free_evening(4)
    _checked_in(event)
    game = start(event, 2, 1, 2)
    play_match(game, MATCH_TO_2005)
    answer = Client().post(_sit_url(event, 2), {"ns": "3", "ew": "1"})
    assert answer.status_code == 302
    tables = Table.objects.filter(round__event=event, number=2).order_by("round__number")
    assert [(t.ns_pair.number, t.ew_pair.number) for t in tables] == [(1, 2), (3, 1)]


@pytest.mark.parametrize(
    ("setup", "posted", "status", "words"),
    [
        ("table_playing", {"ns": "3", "ew": "4"}, 409, "Table 1 is still playing its match."),
        ("pair_playing", {"ns": "1", "ew": "3"}, 409, "Pair 1 is still playing at table 1."),
        ("none", {"ns": "1", "ew": "1"}, 400, "A pair cannot play against itself."),
        ("none", {"ns": "1", "ew": ""}, 400, "Choose both pairs."),
        ("none", {"ns": "1", "ew": "9"}, 400, "Both pairs must be entered in this evening."),
        ("absent", {"ns": "1", "ew": "4"}, 400, "Pair 4 has not checked in"),
        ("withdrawn", {"ns": "1", "ew": "4"}, 400, "This pair has withdrawn."),
    ],
)
def test_a_card_refuses_what_the_desk_refuses_and_says_why(setup, posted, status, words) -> None:
    event = free_evening(4)
    _checked_in(event, 1, 2, 3)
    if setup != "absent":
        _checked_in(event, 4)
    if setup == "withdrawn":
        tournaments.pair_withdraw(pair=pair(event, 4))
    if setup in ("table_playing", "pair_playing"):
        start(event, 1, 1, 2)
    table = 1 if setup == "table_playing" else 2
    before = Table.objects.filter(round__event=event).count()
    answer = Client().post(_sit_url(event, table), posted)
    assert answer.status_code == status
    assert words in answer.content.decode()
    assert Table.objects.filter(round__event=event).count() == before


def test_a_closed_evening_seats_nobody() -> None:
    event = free_evening(2)
    _checked_in(event)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    page = Client().get(_sit_url(event, 1))
    assert 'id="sit-closed"' in page.content.decode() and not page.context["pairs"]
    answer = Client().post(_sit_url(event, 1), {"ns": "1", "ew": "2"})
    said = "This evening is closed: nothing in it can be changed any more."
    assert answer.status_code == 400 and said in answer.content.decode()
    assert not Table.objects.filter(round__event=event).exists()


def test_a_key_acts_on_its_own_table_of_its_own_evening_only() -> None:
    event = free_evening(4)
    other = free_evening(4, club=event.club, name="Altra serata", names="Other")
    _checked_in(event)
    _checked_in(other)
    key = free_tables.seat_key(event.pk, 2)
    event_id, _number, mac = key.split("-")
    turns = tournament(0, club=event.club)
    forged = [
        f"{event_id}-3-{mac}",  # another table, same signature
        f"{other.pk}-2-{mac}",  # another evening
        f"{event_id}-2-{mac[:-1]}0" if mac[-1] != "0" else f"{event_id}-2-{mac[:-1]}1",
        f"{event_id}-2",
        "nonsense",
        free_tables.seat_key(turns.pk, 1),  # a tournament of turns has no such cards
        free_tables.seat_key(event.pk, 0),
        free_tables.seat_key(event.pk, 999),
    ]
    for bad in forged:
        url = reverse("burraco-free-sit", args=[bad])
        assert Client().get(url).status_code == 404, bad
        assert Client().post(url, {"ns": "1", "ew": "2"}).status_code == 404, bad
    assert not Table.objects.filter(round__event__in=[event, other]).exists()
    # The other evening's card of table 2 seats the other evening's pairs only.
    Client().post(_sit_url(other, 2), {"ns": "1", "ew": "2"})
    seated = Table.objects.get()
    assert seated.round.event_id == other.pk and seated.ns_pair.event_id == other.pk
    # The card's key opens no score card (it is no table's key).
    assert Client().get(reverse("burraco-card", args=[key])).status_code == 404


def test_the_organiser_prints_cards_for_the_evenings_tables() -> None:
    club = burraco_club()
    event = free_evening(6, club=club)
    referee = Client()
    referee.force_login(make_organiser(club, "referee"))
    desk = referee.get(reverse("burraco-desk", args=[club.slug, event.pk]))
    url = reverse("burraco-free-cards", args=[club.slug, event.pk])
    assert url in desk.content.decode()
    page = referee.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert body.count('class="card"') == 3  # six pairs: three tables
    for number in (1, 2, 3):
        assert f'id="card-{number}"' in body
        assert _sit_url(event, number) in body
    assert body.count("<svg") >= 3
    assert referee.get(url, {"tables": "8"}).content.decode().count('class="card"') == 8
    assert referee.get(url, {"tables": "5000"}).context["count"] == free_tables.CARDS_LIMIT


def test_only_the_clubs_organisers_print_the_cards() -> None:
    club = burraco_club()
    event = free_evening(4, club=club)
    url = reverse("burraco-free-cards", args=[club.slug, event.pk])
    assert Client().get(url).status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(make_organiser(make_club("Altro circolo"), "stranger"))
    assert stranger.get(url).status_code == 403
    # Another club's organiser gets nothing through their own club's address either.
    other_url = reverse("burraco-free-cards", args=["altro-circolo", event.pk])
    assert stranger.get(other_url).status_code == 404
    turns = tournament(0, club=club)
    referee = Client()
    referee.force_login(make_organiser(club, "referee"))
    assert referee.get(reverse("burraco-free-cards", args=[club.slug, turns.pk])).status_code == 404


def test_a_card_reads_in_constant_queries() -> None:
    def queries(pairs: int) -> int:
        event = free_evening(pairs, club=burraco_club(f"Circolo {pairs}"))
        _checked_in(event)
        start(event, 1, 1, 2)
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(_sit_url(event, 2)).status_code == 200
        return len(captured)

    assert queries(4) == queries(24)


def test_a_confirmed_card_is_what_the_card_page_says() -> None:
    event = free_evening(2)
    _checked_in(event)
    game = start(event, 1, 1, 2)
    play_match(game, MATCH_TO_2005)
    page = Client().get(_sit_url(event, 1))
    assert not page.context["playing"]
    assert page.context["last"].game.card.status == ScoreCard.Status.CONFIRMED


def test_a_won_matchs_score_card_seats_other_pairs_as_the_table_card_does() -> None:
    """The "other pairs sit down" form of a finished match's score card offers and accepts
    the pairs the table's card (QR) does: checked in at the desk, not playing."""
    event = free_evening(5)
    _checked_in(event, 1, 2, 3)  # pairs 4 and 5 have not checked in
    game = start(event, 1, 1, 2)
    play_match(game, MATCH_TO_2005)
    key = game.table.key
    phone = Client()
    phone.post(reverse("burraco-card-line", args=[key]), {"line": "NS"})
    card = phone.get(reverse("burraco-card", args=[key]))
    table_card = phone.get(_sit_url(event, 1))
    # The same pairs, the one waiting first (the default) on both.
    assert [p.number for p in card.context["next_pairs"].choices] == [3, 1, 2]
    assert [p.number for p in table_card.context["pairs"]] == [3, 1, 2]
    url = reverse("burraco-card-rematch", args=[key])
    for posted in (
        phone.post(url, {"ns": "3", "ew": "4"}),
        phone.post(_sit_url(event, 1), {"ns": "5", "ew": "3"}),
    ):
        assert posted.status_code == 400
        assert "has not checked in: ask the organiser at the desk." in posted.content.decode()
    assert Table.objects.filter(round__event=event).count() == 1
    tournaments.pair_checkin(pair=pair(event, 4))
    sat = phone.post(url, {"ns": "3", "ew": "4"})
    assert sat.status_code == 302
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    assert (table.ns_pair.number, table.ew_pair.number) == (3, 4)
