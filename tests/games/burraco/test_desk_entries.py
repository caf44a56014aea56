"""The entries at the desk (issue 31, desk item 6 and item 9): the dropdowns offer only
the players not in a pair of the event; "Check in all"; a check-in answered with its row
alone (htmx) or back at the row's anchor; a late pair that leaves the Mitchell no next
turn is said at entry; the desk's lists cost as many queries for 40 pairs as for 10."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.burraco import pair_import, tournaments
from games.burraco.mitchell_outlook import mitchell_outlook
from games.models import EventLog
from tests.factories import make_organiser, make_player
from tests.games.burraco.builders import (
    burraco_club,
    individual_tournament,
    pair,
    play_turn,
    tournament,
)

pytestmark = pytest.mark.django_db


def _referee(event, name: str = "referee") -> Client:
    client = Client()
    client.force_login(make_organiser(event.club, name))
    return client


def _desk(event) -> str:
    return reverse("burraco-desk", args=[event.club.slug, event.pk])


def _options(page: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}".*?</select>', page, re.S)
    assert select is not None
    return re.findall(r">([^<]+)</option>", select.group(0))


def test_the_dropdowns_offer_only_players_not_in_a_pair() -> None:
    event = tournament(3)
    make_player(event.club, "Zoe Free")
    client = _referee(event)
    page = client.get(_desk(event)).content.decode()
    offered = _options(page, "player_a")
    # The referee's own player (make_organiser) and Zoe: no one already paired.
    assert "Zoe Free" in offered and not any(n.startswith("Player ") for n in offered)
    assert _options(page, "player_b") == offered
    # A player entered meanwhile is refused with the reason, not "not a valid choice".
    taken = event.pairs.get(number=1).player_a
    zoe = event.club.memberships.get(player__name="Zoe Free").player
    answer = client.post(
        reverse("burraco-pair-add", args=[event.club.slug, event.pk]),
        {"player_a": taken.pk, "player_b": zoe.pk},
    )
    assert answer.status_code == 400 and "already in another pair" in answer.content.decode()


def test_a_withdrawn_pairs_players_are_offered_again() -> None:
    event = tournament(3)
    tournaments.pair_withdraw(pair=pair(event, 2))
    page = _referee(event).get(_desk(event)).content.decode()
    assert "Player 2a" in _options(page, "player_a")


def test_individual_dropdown_offers_only_players_not_entered() -> None:
    event = individual_tournament(4)
    make_player(event.club, "Zoe Free")
    page = _referee(event).get(_desk(event)).content.decode()
    offered = _options(page, "player")
    assert "Zoe Free" in offered and not any(n.startswith("Solo ") for n in offered)


@pytest.mark.parametrize("build", [tournament, individual_tournament])
def test_check_in_all_checks_in_every_entry_in_one_history_line(build) -> None:
    event = build(6)
    tournaments.pair_checkin(pair=pair(event, 2))
    client = _referee(event)
    assert 'id="checkin-all"' in client.get(_desk(event)).content.decode()
    answer = client.post(reverse("burraco-checkin-all", args=[event.club.slug, event.pk]))
    assert answer.status_code == 302 and answer["Location"].endswith("#pairs")
    assert not event.pairs.filter(checked_in=False).exists()
    line = EventLog.objects.get(event=event, action="checked_in_all")
    assert line.detail["pairs"] == [1, 3, 4, 5, 6] and line.by_user.username == "referee"
    page = client.get(answer["Location"]).content.decode()
    assert "5 entries checked in." in page


@pytest.mark.parametrize("build", [tournament, individual_tournament])
def test_a_check_in_keeps_the_place_on_the_page(build) -> None:
    event = build(5)
    client = _referee(event)
    url = reverse("burraco-pair-change", args=[event.club.slug, event.pk, pair(event, 4).pk])
    page = client.get(_desk(event)).content.decode()
    row = re.search(r'<tr id="pair-4".*?</tr>', page, re.S).group(0)
    assert 'hx-post="' + url + '"' in row and 'hx-target="#pair-4"' in row
    # htmx: the row alone, checked in, ready to be swapped in place.
    swapped = client.post(url, {"action": "checkin"}, headers={"HX-Request": "true"})
    body = swapped.content.decode()
    assert swapped.status_code == 200 and body.strip().startswith('<tr id="pair-4"')
    assert "checked in" in body and 'value="checkout"' in body and "<html" not in body
    # Without script: back to the desk at the row's anchor.
    plain = client.post(url, {"action": "checkout"})
    assert plain.status_code == 302 and plain["Location"].endswith("#pair-4")
    assert not pair(event, 4).checked_in
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert actions[-2:] == ["checked_in", "checked_out"]


def test_a_late_pair_that_breaks_the_mitchell_is_said_at_entry() -> None:
    event = tournament(6)
    tournaments.turn_seat(event=event, movement="first")
    assert mitchell_outlook(event) == ""
    client = _referee(event)
    a, b = make_player(event.club, "Late A"), make_player(event.club, "Late B")
    answer = client.post(
        reverse("burraco-pair-add", args=[event.club.slug, event.pk]),
        {"player_a": a.pk, "player_b": b.pk},
        follow=True,
    )
    page = answer.content.decode()
    assert "Pair 7. Late A – Late B entered." in page
    warning = "With 7 pairs the Mitchell cannot seat turn 2: pairs would meet again (2–5, 3–6)."
    assert warning in page
    assert "Danese (no rematch)" in page and "a bye" in page and "an odd field" in page
    # Said again on the desk, above "Seat the next turn", until the turn is seated.
    assert 'id="mitchell-warning"' in client.get(_desk(event)).content.decode()
    # It is true: seating a Mitchell is refused, a Danese seats the turn.
    play_turn(event.rounds.get(number=1))
    with pytest.raises(tournaments.TournamentError):
        tournaments.turn_seat(event=event, movement="mitchell")
    tournaments.turn_seat(event=event, movement="danese")
    assert mitchell_outlook(event) == ""  # the Mitchell is no longer the movement


def test_an_even_late_entry_that_keeps_the_mitchell_says_nothing() -> None:
    event = tournament(7)
    tournaments.turn_seat(event=event, movement="first")
    tournaments.pair_enter(
        event=event, player_a=make_player(event.club, "x"), player_b=make_player(event.club, "y")
    )
    assert mitchell_outlook(event) == ""


def _desk_queries(pairs: int) -> int:
    event = tournament(pairs, club=burraco_club(f"Club {pairs}", slug=f"club-{pairs}"))
    rnd = tournaments.turn_seat(event=event, movement="first").round
    play_turn(rnd)
    tournaments.pair_withdraw(pair=pair(event, 3))
    client = _referee(event, f"referee-{pairs}")
    client.get(_desk(event))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(_desk(event)).status_code == 200
    return len(queries)


def test_the_desk_costs_the_same_queries_for_10_pairs_as_for_40() -> None:
    assert _desk_queries(10) == _desk_queries(40)


def _import_preview_queries(lines: int) -> int:
    event = tournament(2, club=burraco_club(f"Club {lines}", slug=f"club-{lines}"))
    text = "\n".join(f"New {n}a;New {n}b" for n in range(lines))
    with CaptureQueriesContext(connection) as queries:
        assert pair_import.pairs_import_preview(event=event, text=text).ok
    return len(queries)


def test_an_import_preview_costs_the_same_for_10_lines_as_for_40() -> None:
    assert _import_preview_queries(10) == _import_preview_queries(40)


def test_the_warning_names_the_mitchell_steps_that_still_seat_the_turn() -> None:
    """Found by the Saturday walk: with 10 pairs and a late one, the Mitchell at step 1
    would seat a rematch but step 2 seats the 11 pairs; the warning says so, and it is
    true."""
    event = tournament(10)
    tournaments.turn_seat(event=event, movement="first")
    tournaments.pair_enter(
        event=event, player_a=make_player(event.club, "x"), player_b=make_player(event.club, "y")
    )
    warning = mitchell_outlook(event)
    assert warning.startswith("With 11 pairs the Mitchell cannot seat turn 2")
    steps = [int(s) for s in re.search(r"steps? ([\d, ]+) seats it", warning).group(1).split(", ")]
    assert steps
    play_turn(event.rounds.get(number=1))
    with pytest.raises(tournaments.TournamentError):
        tournaments.turn_seat(event=event, movement="mitchell", step=1)
    tournaments.turn_seat(event=event, movement="mitchell", step=steps[0])
