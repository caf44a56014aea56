"""The Burraco pages: the score card at the table (a phone with the table's key), the
referee's desk (the club's organisers only) and the public ranking."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.models import Club
from games.burraco import scorecards, tournaments
from games.models import PairTurnResult, ScoreCard
from scoring.models import PairStanding
from tests.factories import make_club, make_game, make_organiser, make_player
from tests.games.burraco.builders import burraco_club, play_turn, tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    event = tournament(5)
    rnd = tournaments.turn_seat(event=event, movement="first").round
    return event, rnd, rnd.tables.get(number=1)


def _card(client: Client, key: str):
    return client.get(reverse("burraco-card", args=[key]))


def test_the_qr_code_opens_the_score_card(client: Client, seated) -> None:
    _event, _rnd, table = seated
    response = client.get(reverse("table-entry", args=[table.key]))
    assert response.status_code == 302 and response["Location"].endswith(f"/t/{table.key}/card/")
    page = _card(client, table.key)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Which line are you?" in text and table.ns_pair.names in text
    # No Barbu words on a Burraco page.
    assert "Deal" not in text and "dealer" not in text


def test_a_line_enters_hands_the_other_confirms_from_another_phone(seated) -> None:
    _event, _rnd, table = seated
    ns, ew = Client(), Client()
    ns.post(reverse("burraco-card-line", args=[table.key]), {"line": "NS"})
    ew.post(reverse("burraco-card-line", args=[table.key]), {"line": "EW"})
    url = reverse("burraco-card-hand", args=[table.key])
    assert ns.post(url, {"mode": "mp", "NS-mp": "300", "EW-mp": "100"}).status_code == 302
    # The other line does not enter: it confirms.
    refused = ew.post(url, {"mode": "mp", "NS-mp": "0", "EW-mp": "0"})
    assert refused.status_code == 400
    form = {
        "mode": "cards",
        "closed": "NS",
        "NS-melded-aces": "4",
        "NS-melded-high": "10",
        "NS-melded-low": "10",
        "NS-clean": "1",
        "NS-in_hand": "0",
        "NS-pozzetto": "on",
        "EW-melded-high": "7",
        "EW-in_hand": "40",
        "EW-pozzetto": "on",
    }
    assert ns.post(url, form).status_code == 302
    assert ns.post(url, {"mode": "mp", "NS-mp": "0", "EW-mp": "50"}).status_code == 302
    page = ew.get(reverse("burraco-card", args=[table.key])).content.decode()
    assert 'id="confirm-card"' in page
    assert (
        ns.get(reverse("burraco-card", args=[table.key]))
        .content.decode()
        .count('id="confirm-card"')
        == 0
    )
    confirm = ew.post(reverse("burraco-card-confirm", args=[table.key]), {"agree": "1"})
    assert confirm.status_code == 302
    card = ScoreCard.objects.get(game=table.game)
    # 300 + (60 + 100 + 50 + 200 + 100) + 0 = 810; EW 100 + (70 - 40) + 50 = 180.
    assert card.status == "confirmed" and (card.ns_total, card.ew_total) == (810, 180)
    assert PairTurnResult.objects.get(round=table.round, pair=table.ns_pair).final


def test_bad_input_is_refused_on_the_spot_with_the_engines_message(client: Client, seated) -> None:
    _event, _rnd, table = seated
    client.post(reverse("burraco-card-line", args=[table.key]), {"line": "NS"})
    url = reverse("burraco-card-hand", args=[table.key])
    response = client.post(url, {"mode": "mp", "NS-mp": "302", "EW-mp": "100"})
    assert response.status_code == 400
    assert "not a multiple of 5" in response.content.decode()
    assert 'value="302"' in response.content.decode()  # what was typed stays
    response = client.post(
        url,
        {"mode": "cards", "closed": "NS", "NS-melded-high": "10", "NS-pozzetto": "on"},
    )
    assert response.status_code == 400
    assert "closed without a burraco" in response.content.decode()
    assert table.game.hands.count() == 0


def test_another_tables_key_or_a_barbu_key_reaches_no_card(client: Client, seated) -> None:
    assert _card(client, "not-a-key").status_code == 404
    barbu = make_game()
    assert _card(client, barbu.table.key).status_code == 404


def test_the_desk_is_for_the_clubs_organisers_only(seated) -> None:
    event, _rnd, _table = seated
    url = reverse("burraco-desk", args=[event.club.slug, event.pk])
    assert Client().get(url).status_code == 302  # to the login page
    other = make_club("Another club", slug="another")
    make_organiser(other, "stranger")
    client = Client()
    client.login(username="stranger", password="tavolo-test")
    assert client.get(url).status_code == 403
    make_organiser(event.club, "referee")
    client.login(username="referee", password="tavolo-test")
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="desk-table-1"' in text and "Seat the next turn" in text and 'id="byes"' in text


def test_the_referee_runs_a_turn_from_the_desk(client: Client) -> None:
    club = burraco_club()
    make_organiser(club, "referee")
    client.login(username="referee", password="tavolo-test")
    create = client.post(
        reverse("event-create", args=[club.slug]),
        {
            "name": "Martedì",
            "game": "burraco",
            "starts_at": "2026-11-24T20:30",
            "planned_rounds": "2",
            "hands_per_turn": "3",
            "published": "on",
            "kind": "tournament",
        },
    )
    assert create.status_code == 302, create.context["form"].errors
    event = club.events.get()
    assert event.is_burraco and event.ranking["turns"] == 2
    desk = reverse("burraco-desk", args=[club.slug, event.pk])
    assert create["Location"] == desk
    players = [make_player(club, f"P{i}") for i in range(6)]
    for a, b in ((0, 1), (2, 3), (4, 5)):
        answer = client.post(
            reverse("burraco-pair-add", args=[club.slug, event.pk]),
            {"player_a": players[a].pk, "player_b": players[b].pk},
        )
        assert answer.status_code == 302
    same = client.post(
        reverse("burraco-pair-add", args=[club.slug, event.pk]),
        {"player_a": players[0].pk, "player_b": players[2].pk},
    )
    assert same.status_code == 400 and "already in another pair" in same.content.decode()
    seat = client.post(
        reverse("burraco-turn-seat", args=[club.slug, event.pk]),
        {"movement": "first", "first_order": "draw", "hands_per_turn": "3", "time_limit": "45"},
    )
    assert seat.status_code == 302
    rnd = event.rounds.get()
    assert rnd.time_limit == 45 and rnd.first_order == "draw"
    page = client.get(desk).content.decode()
    assert 'id="time-left"' in page
    refused = client.post(
        reverse("burraco-turn-seat", args=[club.slug, event.pk]),
        {"movement": "mitchell", "hands_per_turn": "3"},
    )
    assert refused.status_code == 400 and "no confirmed score card" in refused.content.decode()
    play_turn(rnd)
    table = rnd.tables.get()
    penalty = client.post(
        reverse("burraco-penalty", args=[club.slug, event.pk, 1]),
        {"pair": table.ew_pair_id, "vp": "1", "mp": "0", "reason": "slow play"},
    )
    assert penalty.status_code == 302
    correct_url = reverse("burraco-card-correct", args=[club.slug, event.pk, table.game.pk])
    card = ScoreCard.objects.get(game=table.game)
    bad = client.post(
        correct_url,
        {"version": card.version, "reason": "typo", "h1-NS": "301", "h1-EW": "0"},
    )
    assert bad.status_code == 400 and "multiple of 5" in bad.content.decode()
    good = client.post(
        correct_url,
        {
            "version": card.version,
            "reason": "hand 3 was EW's",
            "h1-NS": "300",
            "h1-EW": "100",
            "h2-NS": "300",
            "h2-EW": "100",
            "h3-NS": "100",
            "h3-EW": "300",
        },
    )
    assert good.status_code == 302
    stale = client.post(
        correct_url, {"version": card.version, "reason": "again", "h1-NS": "0", "h1-EW": "0"}
    )
    assert stale.status_code == 400 and "changed meanwhile" in stale.content.decode()
    history = client.get(correct_url).content.decode()
    assert "hand 3 was EW&#x27;s" in history
    assert "slow play" in client.get(desk).content.decode()


def test_the_public_ranking_says_which_tie_break_decided(client: Client, seated) -> None:
    event, rnd, _table = seated
    # Both tables level at 10-10: the MP difference or head-to-head must decide.
    play_turn(rnd, {1: [(200, 100)] * 3, 2: [(200, 100)] * 3})
    from scoring.rebuild import rebuild_event_standings

    rebuild_event_standings(event_id=event.pk)
    page = client.get(reverse("scoring:event", args=[event.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="pair-ranking"' in text
    assert "MP difference" in text
    assert PairStanding.objects.filter(event=event).count() == 5
    first = PairStanding.objects.get(event=event, rank=1)
    assert re.search(rf'id="pair-row-{first.pair.number}"', text)
    assert "Deals" not in text


def test_a_barbu_only_club_is_not_asked_the_game(client: Client) -> None:
    club = make_club("Solo Barbu", slug="solo", language="en")
    make_organiser(club, "org")
    client.login(username="org", password="tavolo-test")
    page = client.get(reverse("event-create", args=[club.slug])).content.decode()
    assert 'type="hidden" name="game" value="barbu"' in page
    club.game = Club.Games.BOTH
    club.save()
    page = client.get(reverse("event-create", args=[club.slug])).content.decode()
    assert '<select name="game"' in page


def test_desk_and_ranking_pages_take_the_same_queries_for_5_or_21_pairs(client: Client) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.rebuild import rebuild_event_standings

    club = burraco_club()
    make_organiser(club, "referee")
    client.login(username="referee", password="tavolo-test")
    counts = []
    for size in (5, 21):
        event = tournament(size, club=club)
        rnd = tournaments.turn_seat(event=event, movement="first").round
        play_turn(rnd)
        rebuild_event_standings(event_id=event.pk)
        scorecards.penalty_set(
            round_id=rnd.pk,
            pair_id=rnd.tables.first().ns_pair_id,
            vp=1,
            mp=0,
            reason="late",
            by_user=None,
        )
        pages = (
            reverse("burraco-desk", args=[club.slug, event.pk]),
            reverse("scoring:event", args=[event.pk]),
        )
        row = []
        for url in pages:
            client.get(url)  # warm the session and the cache alike
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            row.append(len(queries))
        counts.append(row)
    assert counts[0] == counts[1]


def test_the_club_chooses_its_game_on_its_settings(client: Client) -> None:
    club = make_club("Circolo", slug="circolo", language="en")
    make_organiser(club, "org")
    client.login(username="org", password="tavolo-test")
    url = reverse("club-settings", args=[club.slug])
    page = client.get(url).content.decode()
    assert 'name="game"' in page and "Barbu and Burraco" in page
    form = {"name": "Circolo", "language": "it", "published": "on", "game": "both"}
    assert client.post(url, form).status_code == 302
    club.refresh_from_db()
    assert club.game == "both"
    # A form without the game keeps it.
    del form["game"]
    client.post(url, form)
    club.refresh_from_db()
    assert club.game == "both"


def test_a_turns_table_cards_speak_of_pairs_turns_and_score_cards(client: Client, seated) -> None:
    """The table cards of a Burraco turn: its pairs by line, the turn (not a round), the
    score card (not deals), and the way back to the desk."""
    event, rnd, table = seated
    make_organiser(event.club, "referee")
    client.login(username="referee", password="tavolo-test")
    page = client.get(reverse("table-cards", args=[event.club.slug, event.pk, rnd.number]))
    assert page.status_code == 200
    text = page.content.decode()
    assert f"NS {table.ns_pair.number}: {table.ns_pair.names}" in text
    assert f"EW {table.ew_pair.number}: {table.ew_pair.names}" in text
    assert "turn 1" in text and "Scan to open the score card of this table" in text
    assert reverse("burraco-desk", args=[event.club.slug, event.pk]) in text
    for barbu in ("round 1", "deals", "Back to the round"):
        assert barbu not in text, barbu
    assert "Table cards: " in text
    # French puts a space before the colon, so the colon is the catalogue's, not the page's.
    with translation.override("fr"):
        french = reverse("table-cards", args=[event.club.slug, event.pk, rnd.number])
    assert "Fiches de table : " in client.get(french).content.decode()


def test_a_closed_turn_shows_no_clock() -> None:
    """Time runs out only on an open turn: the individual demo's closed last turn said
    "time is up" under its "closed" badge."""
    from datetime import timedelta

    from django.utils import timezone

    from games.core.closing import round_close

    event = tournament(4)
    long_ago = timezone.now() - timedelta(hours=2)
    rnd = tournaments.turn_seat(event=event, movement="first", time_limit=45, now=long_ago).round
    make_organiser(event.club, "referee")
    client = Client()
    client.login(username="referee", password="tavolo-test")
    desk = reverse("burraco-desk", args=[event.club.slug, event.pk])
    assert 'id="time-left"' in client.get(desk).content.decode()  # open, time is up
    play_turn(rnd)
    round_close(rnd=rnd)
    assert 'id="time-left"' not in client.get(desk).content.decode()
