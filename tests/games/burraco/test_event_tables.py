"""A tournament's table cards for the whole day: one key per table number, stable across
turns, whose QR code opens that table's score card of the turn being played; a page that
says so when the table is not seated; an old turn's card saying where its table and its
pairs play now; the print, one A4 sheet per table with a QR code a phone reads."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.burraco import event_tables, tournaments
from games.burraco.cards_print import QR_BORDER, table_card_geometry
from games.models import BurracoTableKey
from tests.factories import make_organiser
from tests.games.burraco.builders import pair, play_turn, tournament
from tests.games.burraco.free_matches.builders import free_evening
from tests.games.burraco.qr_print import qr_differences
from tests.print_checks import (
    a4_problems,
    grey_pages,
    ink_in_margin,
    needs_poppler,
    pdf_pages,
    words_outside,
)

pytestmark = pytest.mark.django_db


def _day_url(key: str) -> str:
    return reverse("burraco-table-of-day", args=[key])


def test_a_table_keeps_its_key_all_day() -> None:
    event = tournament(6)
    assert event_tables.tables_of_day(event) == 3  # six pairs fill three tables
    first = event_tables.table_keys(event, 3)
    assert sorted(first) == [1, 2, 3] and len(set(first.values())) == 3
    tournaments.turn_seat(event=event, movement="first")
    again = event_tables.table_keys(event, 4)
    assert {n: again[n] for n in (1, 2, 3)} == first and 4 in again
    assert BurracoTableKey.objects.filter(event=event).count() == 4


def test_the_day_code_opens_the_table_of_the_turn_being_played(client: Client) -> None:
    event = tournament(6)
    key = event_tables.table_keys(event, 3)[2]
    turn1 = tournaments.turn_seat(event=event, movement="first").round
    response = client.get(_day_url(key))
    assert response.status_code == 302
    assert response["Location"] == reverse("burraco-card", args=[turn1.tables.get(number=2).key])
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    play_turn(turn1)
    turn2 = tournaments.turn_seat(event=event, movement="mitchell").round
    response = client.get(_day_url(key))
    assert response["Location"] == reverse("burraco-card", args=[turn2.tables.get(number=2).key])


def test_a_table_not_seated_in_this_turn_says_so(client: Client) -> None:
    event = tournament(6)
    keys = event_tables.table_keys(event, 3)
    page = client.get(_day_url(keys[3]))
    assert page.status_code == 200
    assert "The first turn is not seated yet: table 3 has no score card." in page.content.decode()
    turn1 = tournaments.turn_seat(event=event, movement="first").round
    play_turn(turn1)
    for number in (5, 6):
        tournaments.pair_withdraw(pair=pair(event, number))
    tournaments.turn_seat(event=event, movement="mitchell")
    page = client.get(_day_url(keys[3]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "Table 3 is not used in turn 2: no pair plays at it." in text
    assert reverse("scoring:event", args=[event.pk]) in text
    with translation.override("it"):
        italian = client.get(_day_url(keys[3]), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Tavolo 3" in italian and "turno 2" in italian


def test_an_unknown_day_key_is_the_table_not_found_page(client: Client) -> None:
    page = client.get(_day_url("no-such-key"))
    assert page.status_code == 404 and "Table not found" in page.content.decode()


def test_an_old_turns_card_says_where_its_table_and_pairs_play_now(client: Client) -> None:
    event = tournament(6)
    turn1 = tournaments.turn_seat(event=event, movement="first").round
    old = turn1.tables.get(number=1)
    page = client.get(reverse("burraco-card", args=[old.key])).content.decode()
    assert 'id="newer-turn"' not in page  # the newest turn's card says nothing
    play_turn(turn1)
    turn2 = tournaments.turn_seat(event=event, movement="mitchell").round
    now = turn2.tables.get(number=1)
    page = client.get(reverse("burraco-card", args=[old.key])).content.decode()
    assert "Turn 2 is seated: this is the card of turn 1." in page
    assert reverse("burraco-card", args=[now.key]) in page
    seats = {t.ns_pair_id: (t.number, "NS") for t in turn2.tables.all()}
    seats.update({t.ew_pair_id: (t.number, "EW") for t in turn2.tables.all()})
    for entry in (old.ns_pair, old.ew_pair):
        number, line = seats[entry.pk]
        assert f"Pair {entry.number} now plays at table {number}, {line}" in page
    with translation.override("it"):
        italian = client.get(
            reverse("burraco-card", args=[old.key]), HTTP_ACCEPT_LANGUAGE="it"
        ).content.decode()
    assert "Il turno 2 è in gioco: questo è il segnapunti del turno 1." in italian
    assert ", EW" not in italian  # the Italian line is EO


@needs_poppler
def test_the_day_cards_print_one_a4_sheet_per_table_with_a_readable_code() -> None:
    event = tournament(7)  # three tables and a bye
    event.name = "Vereinsmeisterschaftsabschlussturnier Burraco-Wintermeisterschaft"
    event.save(update_fields=["name"])
    make_organiser(event.club, "referee")
    organiser = Client()
    organiser.login(username="referee", password="tavolo-test")
    url = reverse("burraco-day-cards", args=[event.club.slug, event.pk])
    for language in ("en", "it", "de"):
        with translation.override(language):
            url = reverse("burraco-day-cards", args=[event.club.slug, event.pk])
        response = organiser.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        data = response.content
        pages = pdf_pages(data)
        assert len(pages) == 3
        assert not a4_problems(pages)
        assert not words_outside(pages, margin_mm=10)
        assert not ink_in_margin(data, margin_mm=9)
        keys = event_tables.table_keys(event, 3)
        grey = grey_pages(data, dpi=150)
        for number, page in enumerate(pages, start=1):
            words = [w.text for w in page.words]
            assert str(number) in words, f"{language}: table {number} not printed"
            link = next(w for w in words if "/t/e/" in w)
            assert link.endswith(_day_url(keys[number]).split("/t/e/")[1])
            assert not qr_differences(
                grey[number - 1], link, table_card_geometry(), border=QR_BORDER
            )
        text = " ".join(w.text for p in pages for w in p.words)
        word = {"en": "Table", "it": "Tavolo", "de": "Tisch"}[language]
        assert word in text
    # The same keys every time the cards are printed again.
    assert organiser.get(url).content.count(b"/t/e/") == data.count(b"/t/e/")


def test_only_the_clubs_organisers_print_the_day_cards(client: Client) -> None:
    event = tournament(4)
    url = reverse("burraco-day-cards", args=[event.club.slug, event.pk])
    assert client.get(url).status_code == 302  # to the login page
    assert not BurracoTableKey.objects.exists()


def test_the_desk_links_the_days_papers_and_screen() -> None:
    event = tournament(6)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    make_organiser(event.club, "referee")
    organiser = Client()
    organiser.login(username="referee", password="tavolo-test")
    page = organiser.get(reverse("burraco-desk", args=[event.club.slug, event.pk])).content.decode()
    for url in (
        reverse("burraco-day-cards", args=[event.club.slug, event.pk]),
        reverse("scoring:burraco-pairings", args=[event.pk, rnd.number]),
        reverse("scoring:burraco-turn-ranking", args=[event.pk, rnd.number]),
        reverse("scoring:burraco-screen", args=[event.pk]),
    ):
        assert f'href="{url}"' in page, url


def test_an_evening_of_free_matches_has_no_day_cards() -> None:
    event = free_evening()
    make_organiser(event.club, "referee")
    organiser = Client()
    organiser.login(username="referee", password="tavolo-test")
    url = reverse("burraco-day-cards", args=[event.club.slug, event.pk])
    assert organiser.get(url).status_code == 404
