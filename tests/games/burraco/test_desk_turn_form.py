"""The referee's desk offers what fits the next turn (the first: entry order, draw, by
hand; a later one: Mitchell with its step, Danese with its variant, round robin, by
hand), and a pairing pasted at the desk seats any turn or says which line is wrong."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.burraco import tournaments
from games.models import Event
from tests.factories import make_organiser
from tests.games.burraco.builders import individual_tournament, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee() -> tuple[Client, Event]:
    event = tournament(5)
    make_organiser(event.club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    return client, event


def _desk(client: Client, event: Event, language: str = "en") -> str:
    page = client.get(
        reverse("burraco-desk", args=[event.club.slug, event.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    return page.content.decode()


def _turn_form(page: str) -> str:
    match = re.search(r'<form[^>]*id="turn-seat-form".*?</form>', page, re.S)
    assert match, "no turn form on the desk"
    return match.group(0)


def _options(form: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', form, re.S)
    assert select, f"no {name} select"
    return re.findall(r'<option value="([^"]*)"', select.group(0))


def _seat(client: Client, event: Event, **data: str):
    return client.post(
        reverse("burraco-turn-seat", args=[event.club.slug, event.pk]),
        {"hands_per_turn": "3", **data},
    )


def test_the_first_turn_offers_entry_order_draw_by_hand_or_a_round_robin(referee) -> None:
    client, event = referee
    form = _turn_form(_desk(client, event))
    assert _options(form, "movement") == ["first", "round_robin", "pairing"]
    assert _options(form, "first_order") == ["entry", "draw", "hand"]
    assert 'name="step"' not in form and 'name="variant"' not in form
    assert "Mitchell" not in form and "Danese" not in form


def test_a_later_turn_offers_the_movements_and_no_first_turn_order(referee) -> None:
    client, event = referee
    assert _seat(client, event, movement="first", first_order="entry").status_code == 302
    form = _turn_form(_desk(client, event))
    assert _options(form, "movement") == ["mitchell", "danese", "round_robin", "pairing"]
    assert _options(form, "variant") == ["pure", "modified", "no_rematch"]
    assert 'name="step"' in form
    assert 'name="first_order"' not in form
    assert "entry order" not in form and "by draw" not in form
    assert "by hand: the pairing below" in form
    # A first-turn order sent anyway seats nothing.
    play_turn(event.rounds.get())
    refused = _seat(client, event, movement="first", first_order="draw")
    assert refused.status_code == 400 and event.rounds.count() == 1


def test_a_pasted_pairing_seats_the_first_turn_by_hand(referee) -> None:
    client, event = referee
    answer = _seat(client, event, movement="pairing", pairing="Table;NS;EW\n1;5;2\n2;4;3\nbye;1")
    assert answer.status_code == 302
    rnd = event.rounds.get()
    assert (rnd.movement, rnd.first_order) == ("hand", "hand")
    seated = sorted(rnd.tables.values_list("number", "ns_pair__number", "ew_pair__number"))
    assert seated == [(1, 5, 2), (2, 4, 3)]
    assert list(rnd.pair_results.filter(bye=True).values_list("pair__number", flat=True)) == [1]


def test_a_pasted_pairing_seats_a_later_turn_from_the_desk(referee) -> None:
    client, event = referee
    tournaments.turn_seat(event=event, movement="first")
    play_turn(event.rounds.get())
    answer = _seat(client, event, movement="pairing", pairing="1, 2, 5\n2\t3\t1\n\nbye, 4\n")
    assert answer.status_code == 302
    rnd = event.rounds.get(number=2)
    assert rnd.movement == "hand"
    seated = sorted(rnd.tables.values_list("number", "ns_pair__number", "ew_pair__number"))
    assert seated == [(1, 2, 5), (2, 3, 1)]
    assert list(rnd.pair_results.filter(bye=True).values_list("pair__number", flat=True)) == [4]


def test_bad_lines_of_a_pasted_pairing_are_named_and_nothing_is_seated(referee) -> None:
    client, event = referee
    tournaments.turn_seat(event=event, movement="first")
    play_turn(event.rounds.get())
    answer = _seat(client, event, movement="pairing", pairing="1, 2, 5\n2, 3\n3, 9, 1\n4, 2, 4\n")
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Line 2: “2, 3” is not “table, NS pair, EW pair” nor “bye, pair”." in text
    assert "Line 3: there is no pair 9 in this tournament." in text
    assert "Line 4: pair 2 is already seated on line 1." in text
    assert event.rounds.count() == 1
    # What was pasted stays in the form, to be mended.
    assert "3, 9, 1" in text
    # A pairing that forgets pairs says which.
    answer = _seat(client, event, movement="pairing", pairing="1, 2, 5\n")
    assert answer.status_code == 400
    assert "Pairs 1, 3, 4 are neither seated nor resting." in answer.content.decode()
    assert event.rounds.count() == 1


def test_the_turn_form_speaks_italian_at_a_later_turn(referee) -> None:
    client, event = referee
    tournaments.turn_seat(event=event, movement="first")
    form = _turn_form(_desk(client, event, "it"))
    assert _options(form, "movement") == ["mitchell", "danese", "round_robin", "pairing"]
    assert "a mano: gli abbinamenti qui sotto" in form


def test_the_next_turn_keeps_the_last_turns_time_limit(referee) -> None:
    client, event = referee
    form = _turn_form(_desk(client, event))
    assert re.search(r'<input type="number" name="time_limit"[^>]*>', form)
    assert 'name="time_limit" value=' not in form
    assert (
        _seat(client, event, movement="first", first_order="entry", time_limit="50").status_code
        == 302
    )
    page = _desk(client, event)
    assert 'id="time-left"' in page
    assert "50 minutes left" in page or "49 minutes left" in page
    assert re.search(r'name="time_limit" value="50"', _turn_form(page))


def test_a_round_robin_in_groups_from_its_first_turn(client: Client) -> None:
    event = tournament(8)
    make_organiser(event.club, "referee")
    client.login(username="referee", password="tavolo-test")
    answer = _seat(client, event, movement="round_robin", first_order="entry", groups="2")
    assert answer.status_code == 302
    assert 'name="groups" value="2"' in _turn_form(_desk(client, event))
    play_turn(event.rounds.get())
    other = _seat(client, event, movement="round_robin", groups="3")
    assert other.status_code == 400 and "plays in 2 groups" in other.content.decode()
    for number in (2, 3):
        assert _seat(client, event, movement="round_robin").status_code == 302
        play_turn(event.rounds.get(number=number))
    met: dict[int, set[int]] = {n: set() for n in range(1, 9)}
    for rnd in event.rounds.all():
        assert rnd.movement == "round_robin" and rnd.tables.count() == 4
        for ns, ew in rnd.tables.values_list("ns_pair__number", "ew_pair__number"):
            met[ns].add(ew)
            met[ew].add(ns)
    # Groups of consecutive pairs 1-4 and 5-8: everyone met the three others of theirs.
    assert met == {
        n: {m for m in range(1, 9) if (m - 1) // 4 == (n - 1) // 4 and m != n} for n in range(1, 9)
    }


def test_pairs_checked_in_and_out_at_the_desk_and_the_first_turn_waits(referee) -> None:
    client, event = referee
    one, two = event.pairs.order_by("number")[:2]
    change = "burraco-pair-change"
    for p in (one, two):
        url = reverse(change, args=[event.club.slug, event.pk, p.pk])
        assert client.post(url, {"action": "checkin"}).status_code == 302
    row = re.search(r'<tr id="pair-1".*?</tr>', _desk(client, event), re.S).group(0)
    assert "checked in" in row and 'value="checkout"' in row and 'value="checkin"' not in row
    url = reverse(change, args=[event.club.slug, event.pk, two.pk])
    client.post(url, {"action": "checkout"})
    two.refresh_from_db()
    assert not two.checked_in
    refused = _seat(client, event, movement="first", first_order="entry")
    assert refused.status_code == 400
    assert "Pairs 2, 3, 4, 5 are not checked in" in refused.content.decode()
    assert not event.rounds.exists()


def test_check_in_buttons_go_once_the_first_turn_is_seated(referee) -> None:
    client, event = referee
    assert 'value="checkin"' in _desk(client, event)
    tournaments.turn_seat(event=event, movement="first")
    page = _desk(client, event)
    assert 'value="checkin"' not in page and 'value="checkout"' not in page
    assert 'value="withdraw"' in page


def test_an_individual_tournament_offers_its_one_movement_at_every_turn() -> None:
    """Partners change every turn by the individual schedule: no pair movement, no
    pasted pairing of pairs, at the first turn or a later one."""
    event = individual_tournament(8)
    make_organiser(event.club, "solo-referee")
    client = Client()
    client.login(username="solo-referee", password="tavolo-test")
    for turn in (1, 2):
        form = _turn_form(_desk(client, event, "it"))
        assert _options(form, "movement") == ["individual"]
        for pair_field in ("first_order", "step", "variant", "groups", "pairing"):
            assert f'name="{pair_field}"' not in form
        assert "Mitchell" not in form and "Danese" not in form
        answer = _seat(client, event, movement="individual")
        assert answer.status_code == 302, answer.content.decode()[:2000]
        assert event.rounds.count() == turn
        play_turn(event.rounds.order_by("-number").first())
