"""An evening of free matches through its pages: the organiser creates it, enters the
pairs and forms a table; the table's phones play a whole match to 2005 (what each line
needs after every hand), the hand after the winning one is refused, the other pair
confirms and the table plays again; the public ranking, its CSV and PDF."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.burraco import tournaments
from games.burraco.tournaments import TournamentError
from games.models import Event, ScoreCard, Table
from tests.factories import make_club, make_organiser, make_player
from tests.games.burraco.builders import burraco_club
from tests.games.burraco.free_matches.builders import MATCH_TO_2005, free_evening, play_match, start

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _organiser(club) -> Client:
    client = Client()
    client.force_login(make_organiser(club, "referee"))
    return client


def _phones(key: str) -> tuple[Client, Client]:
    ns, ew = Client(), Client()
    ns.post(reverse("burraco-card-line", args=[key]), {"line": "NS"})
    ew.post(reverse("burraco-card-line", args=[key]), {"line": "EW"})
    return ns, ew


def _hand(phone: Client, key: str, ns: int, ew: int):
    return phone.post(
        reverse("burraco-card-hand", args=[key]), {"mode": "mp", "NS-mp": ns, "EW-mp": ew}
    )


def test_an_evening_of_free_matches_from_creation_to_the_ranking(
    django_capture_on_commit_callbacks,
) -> None:
    club = burraco_club()
    referee = _organiser(club)
    players = [make_player(club, name) for name in ("Anna", "Bruno", "Carla", "Dario")]
    created = referee.post(
        reverse("event-create", args=[club.slug]),
        {
            "name": "Serata libera",
            "game": "burraco",
            "burraco_format": "free",
            "target": "2005",
            "starts_at": "2026-11-24T20:30",
            "planned_rounds": "1",
            "published": "on",
        },
    )
    event = Event.objects.get(name="Serata libera")
    assert event.is_free_matches and event.ruleset["options"]["target"] == 2005
    desk_url = reverse("burraco-desk", args=[club.slug, event.pk])
    assert created["Location"] == desk_url
    assert "Form a table" in referee.get(desk_url).content.decode()
    for a, b in ((0, 1), (2, 3)):
        added = referee.post(
            reverse("burraco-pair-add", args=[club.slug, event.pk]),
            {"player_a": players[a].pk, "player_b": players[b].pk},
        )
        assert added.status_code == 302
    one, two = event.pairs.order_by("number")
    formed = referee.post(
        reverse("burraco-match-start", args=[club.slug, event.pk]),
        {"table": "1", "ns": one.pk, "ew": two.pk},
    )
    assert formed.status_code == 302
    table = Table.objects.get(round__event=event, number=1)
    key = table.key
    ns, ew = _phones(key)
    page = ns.get(reverse("burraco-card", args=[key])).content.decode()
    assert "Table 1, match 1" in page and "NS needs 2005 points to win" in page

    for hand in MATCH_TO_2005[:4]:
        assert _hand(ns, key, *hand).status_code == 302
    page = ew.get(reverse("burraco-card", args=[key])).content.decode()
    assert "NS 1665 – EW 1200" in page
    assert "NS needs 340 points to win" in page and "EW needs 805 points to win" in page
    assert 'id="confirm-card"' not in page  # nobody has won yet

    assert _hand(ns, key, *MATCH_TO_2005[4]).status_code == 302
    page = ns.get(reverse("burraco-card", args=[key])).content.decode()
    assert "NS won the match, 2105 to 1320." in page
    assert 'id="hand-entry"' not in page and 'id="wait-confirm"' in page
    refused = _hand(ns, key, 100, 0)
    assert refused.status_code == 409
    assert "This match is over: NS won, 2105 to 1320. No more hands." in refused.content.decode()
    assert table.game.hands.count() == 5

    # Once committed, the confirmation queues the standings task (eager here), as in a
    # tournament.
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = ew.post(reverse("burraco-card-confirm", args=[key]), {"agree": "1"})
    assert confirmed.status_code == 302
    assert ScoreCard.objects.get(game=table.game).status == ScoreCard.Status.CONFIRMED
    page = ew.get(reverse("burraco-card", args=[key])).content.decode()
    assert "Match confirmed." in page and 'id="rematch"' in page
    again = ew.post(reverse("burraco-card-rematch", args=[key]))
    new_key = Table.objects.get(round__event=event, round__number=2, number=1).key
    assert again["Location"] == reverse("burraco-card", args=[new_key])
    page = ew.get(again["Location"]).content.decode()
    assert "Table 1, match 2" in page and "You are" in page  # the phone kept its line

    public = Client().get(reverse("scoring:event", args=[event.pk])).content.decode()
    assert "Burraco free matches to 2005" in public
    assert "Table 1, match 1: pair 1 v pair 2" in public and "won by pair 1" in public
    exported = Client().get(reverse("scoring:event-csv", args=[event.pk]))
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0][:6] == ["Place", "Pair", "Name", "Won", "Lost", "Point difference"]
    assert rows[1][:8] == ["1", "1", "1 – Anna / Bruno", "1", "0", "+785", "2105", "1320"]
    assert rows[2][:6] == ["2", "2", "2 – Carla / Dario", "0", "1", "-785"]
    pdf = Client().get(reverse("scoring:event-pdf", args=[event.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_table_page_of_another_table_or_a_bad_key_sees_nothing_of_this_match() -> None:
    event = free_evening(4)
    game = start(event, 1, 1, 2)
    other = start(event, 2, 3, 4)
    ns, _ew = _phones(other.table.key)
    # Another table's phone writes to its own card only: its key names its own game.
    assert _hand(ns, other.table.key, 300, 100).status_code == 302
    assert game.hands.count() == 0 and other.hands.count() == 1
    assert Client().get(reverse("burraco-card", args=["not-a-key"])).status_code == 404


def test_another_clubs_organiser_cannot_run_this_evening() -> None:
    event = free_evening(2)
    rival = Client()
    rival.force_login(make_organiser(make_club("Rival", slug="rival", game="burraco"), "rival"))
    pairs = list(event.pairs.order_by("number"))
    url = reverse("burraco-match-start", args=[event.club.slug, event.pk])
    assert rival.post(url, {"table": 1, "ns": pairs[0].pk, "ew": pairs[1].pk}).status_code in (
        403,
        404,
    )
    assert not Table.objects.filter(round__event=event).exists()
    desk = reverse("burraco-desk", args=[event.club.slug, event.pk])
    assert rival.get(desk).status_code in (403, 404)


def test_the_desk_refuses_a_table_still_playing_with_the_services_words() -> None:
    event = free_evening(4)
    referee = _organiser(event.club)
    start(event, 1, 1, 2)
    three, four = event.pairs.filter(number__in=(3, 4)).order_by("number")
    answer = referee.post(
        reverse("burraco-match-start", args=[event.club.slug, event.pk]),
        {"table": "1", "ns": three.pk, "ew": four.pk},
    )
    assert answer.status_code == 400
    assert "Table 1 is still playing its match." in answer.content.decode()


def test_pairs_sit_themselves_at_a_table_from_its_phone() -> None:
    event = free_evening(4)
    for entered in event.pairs.all():  # other pairs sit down once checked in at the desk
        tournaments.pair_checkin(pair=entered)
    first = start(event, 1, 1, 2)
    other = start(event, 2, 3, 4)
    key = first.table.key
    ns, _ew = _phones(key)
    url = reverse("burraco-card-rematch", args=[key])
    early = ns.post(url)
    assert early.status_code == 409
    assert "Another match starts once this one is confirmed." in early.content.decode()
    play_match(first, MATCH_TO_2005)
    page = ns.get(reverse("burraco-card", args=[key])).content.decode()
    # Pairs 3 and 4 are still playing at table 2: nobody waits, so the table offers its
    # own two pairs again (tests/games/burraco/free_matches/test_next_match.py).
    assert 'id="rematch"' in page and 'id="sit-down"' not in page and 'value="3"' not in page
    busy = ns.post(url, {"ns": "3", "ew": "1"})
    assert busy.status_code == 409
    assert "Pair 3 is still playing at table 2." in busy.content.decode()
    assert ns.post(url, {"ns": "3", "ew": ""}).status_code == 400
    play_match(other, MATCH_TO_2005)
    sat = ns.post(url, {"ns": "3", "ew": "2"})
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    assert sat["Location"] == reverse("burraco-card", args=[table.key])
    assert (table.ns_pair.number, table.ew_pair.number) == (3, 2)
    page = ns.get(sat["Location"]).content.decode()
    assert "Table 1, match 2" in page and 'id="line-choice"' in page  # other pairs: ask again


def test_the_desk_prints_table_cards_reads_in_constant_queries_and_seats_no_turn() -> None:
    counts = []
    club = burraco_club()
    referee = _organiser(club)
    for pairs in (2, 16):
        event = free_evening(pairs, club=club, name=f"Evening {pairs}", names=f"P{pairs}")
        for table in range(1, pairs // 2 + 1):
            start(event, table, 2 * table - 1, 2 * table)
        desk = reverse("burraco-desk", args=[event.club.slug, event.pk])
        referee.get(desk)
        with CaptureQueriesContext(connection) as queries:
            page = referee.get(desk)
        assert page.status_code == 200
        counts.append(len(queries))
        cards = referee.get(reverse("table-cards", args=[event.club.slug, event.pk, 1]))
        assert cards.status_code == 200
        with pytest.raises(TournamentError) as error:
            tournaments.turn_seat(event=event, movement="first")
        assert error.value.code == "free_matches"
    assert counts[0] == counts[1]
